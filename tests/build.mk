# tests/: programs the test scripts, benchmarks and fuzz seeds use (not
# installed).  Every source is listed by name.

# bs-gen-trace: the one synthetic-trace generator of the tests, benchmarks
# and fuzz seeds (tests/gen/gen_*.c, one workload per file)
GEN_SRCS := tests/gen/gen_bench.c tests/gen/gen_bulk.c tests/gen/gen_emit.c tests/gen/gen_main.c \
	tests/gen/gen_merge.c tests/gen/gen_random.c tests/gen/gen_scenario.c tests/gen/gen_script.c tests/gen/gen_tags.c \
	tests/gen/gen_zoned.c
$(call objs,$(GEN_SRCS)): CFLAGS += -Itests/gen
$(BIN)/bs-gen-trace: $(call objs,$(GEN_SRCS)) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS)
PROGRAMS += $(BIN)/bs-gen-trace

# unit tests of the reader, merge and writer on crafted inputs
$(BIN)/bs-test-format: $(call objs,tests/unit/test_format.c) $(FORMAT_LIB) $(UTIL_LIB)
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

# hostile traces for the engine (tests/t-hard-hostile-btt.sh, bench-hostile)
$(BIN)/bs-hostile-gen: $(call objs,tests/hostile/hostile_gen.c) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS)
PROGRAMS += $(BIN)/bs-hostile-gen

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
