# tests/unit/: unit tests, one program each, linked against the libraries
# they test (run by the tests/t-*.sh scripts named beside them).  Included
# from tests/build.mk.

# unit tests of the reader, merge and writer on crafted inputs
# (test_format.c: the reader and codec, and main(); test_format_merge.c: the
# merge, inputs, writers, output files and cgroup notes)
FORMAT_TEST_SRCS := tests/unit/test_format.c tests/unit/test_format_merge.c
$(BIN)/bs-test-format: $(call objs,$(FORMAT_TEST_SRCS)) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(ZSTD_LIBS)
PROGRAMS += $(BIN)/bs-test-format

# unit tests of blkscope's notes (format/bs_notes.c): end, trigger, kernel notes
$(BIN)/bs-test-notes: $(call objs,tests/unit/test_notes.c) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(ZSTD_LIBS)
PROGRAMS += $(BIN)/bs-test-notes

$(BIN)/bs-merge-dump: $(call objs,tests/unit/merge_dump.c) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(ZSTD_LIBS)
PROGRAMS += $(BIN)/bs-merge-dump

# unit tests of util/ (hash map, growth, escapers)
$(BIN)/bs-test-util: $(call objs,tests/unit/test_util.c) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^
PROGRAMS += $(BIN)/bs-test-util

# one stream rewritten as v7, v8, 64-byte v7 or big-endian (t-format-v8*)
$(BIN)/bs-convert: $(call objs,tests/unit/convert.c) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(ZSTD_LIBS)
PROGRAMS += $(BIN)/bs-convert

# the start-sector index of queued bios against btt's Q tree (t-analyze-btt-qindex)
$(BIN)/bs-test-qindex: $(call objs,tests/unit/test_qindex.c) $(BTT_LIB) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(ZSTD_LIBS)
PROGRAMS += $(BIN)/bs-test-qindex

# btt's seek tree rebuilt without descents, against btt's (t-analyze-btt-seek-ties)
$(BIN)/bs-test-stree: $(call objs,tests/unit/test_stree.c) $(BTT_LIB) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(ZSTD_LIBS)
PROGRAMS += $(BIN)/bs-test-stree

# btt's seek tables past a --seek-values budget, against plain counts (t-analyze-seek-budget)
$(BIN)/bs-test-seek-budget: $(call objs,tests/unit/test_seek_budget.c) $(BTT_LIB) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(ZSTD_LIBS)
PROGRAMS += $(BIN)/bs-test-seek-budget

# the Parquet writer and its encoders; also writes the DuckDB test's files
# and the benchmark table (see tests/t-export-parquet*.sh, bench-export.sh)
PARQUET_TEST_SRCS := tests/unit/test_parquet.c tests/unit/parquet_tables.c
$(BIN)/bs-test-parquet: $(call objs,$(PARQUET_TEST_SRCS)) $(PARQUET_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(ZSTD_LIBS) -lm
PROGRAMS += $(BIN)/bs-test-parquet

# the recorder's parts (record/*.c objects, built with record/build.mk's
# flags); only where the recorder builds
ifeq ($(HAVE_BPF),1)
# unit test of the -o - merge (stream.c) through a real sink
$(BIN)/bs-test-record-stream: $(call objs,tests/unit/record_stream_check.c) \
		$(call objs,record/rec_stream.c record/rec_stage.c record/rec_sink.c record/rec_v8.c) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(shell $(PKG_CONFIG) --libs liburing) $(ZSTD_LIBS) $(LDLIBS)
$(call objs,tests/unit/record_stream_check.c): $(BUILD)/blkrecord.skel.h
$(call objs,tests/unit/record_stream_check.c): CFLAGS += -Irecord -Ibpf $(shell $(PKG_CONFIG) --cflags $(RECORD_PKGS))

PROGRAMS += $(BIN)/bs-test-record-stream

# unit tests of the flight recorder's triggers (trigger.c, inflight.c)
$(BIN)/bs-test-record-trigger: $(call objs,tests/unit/record_trigger_check.c) \
		$(call objs,record/rec_trigger.c record/rec_inflight.c) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS)
$(call objs,tests/unit/record_trigger_check.c): $(BUILD)/blkrecord.skel.h
$(call objs,tests/unit/record_trigger_check.c): CFLAGS += -Irecord -Ibpf $(shell $(PKG_CONFIG) --cflags $(RECORD_PKGS))

PROGRAMS += $(BIN)/bs-test-record-trigger

# unit test of the output sinks (sink.c): slow pipe, file, zstd file
$(BIN)/bs-test-record-sink: $(call objs,tests/unit/record_sink_check.c) \
		$(call objs,record/rec_sink.c record/rec_v8.c) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -pthread -o $@ $^ $(FORMAT_LIBS) $(shell $(PKG_CONFIG) --libs liburing) $(ZSTD_LIBS) $(LDLIBS)
$(call objs,tests/unit/record_sink_check.c): $(BUILD)/blkrecord.skel.h
$(call objs,tests/unit/record_sink_check.c): CFLAGS += -Irecord -Ibpf $(shell $(PKG_CONFIG) --cflags $(RECORD_PKGS))

PROGRAMS += $(BIN)/bs-test-record-sink
endif
