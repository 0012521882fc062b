# analyze/export/: the Parquet writer -> libbsparquet.a (no BPF; zstd optional:
# without libzstd the pages are written UNCOMPRESSED).  It uses util/'s UTF-8
# decoder: link $(PARQUET_LIBS).
PARQUET_SRCS := analyze/export/parquet.c analyze/export/parquet_row.c \
	analyze/export/parquet_page.c analyze/export/parquet_footer.c \
	analyze/export/parquet_encode.c analyze/export/parquet_dict.c \
	analyze/export/parquet_thrift.c
PARQUET_LIB  := $(BUILD)/libbsparquet.a
PARQUET_LIBS := $(PARQUET_LIB) $(UTIL_LIB) $(ZSTD_LIBS)

$(PARQUET_LIB): $(call objs,$(PARQUET_SRCS))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

# unit test of the writer and its encoders; also writes the DuckDB test's
# files and the benchmark table (see tests/t-export-parquet*.sh)
PARQUET_TEST_SRCS := tests/unit/test_parquet.c tests/unit/parquet_tables.c
$(call objs,$(PARQUET_TEST_SRCS)): CFLAGS += -Ianalyze/export
$(BIN)/bs-test-parquet: $(call objs,$(PARQUET_TEST_SRCS)) $(PARQUET_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(ZSTD_LIBS) -lm
PROGRAMS += $(PARQUET_LIB) $(BIN)/bs-test-parquet

# The encoders' loops (deltas, statistics, bit packing) gain from -O3's
# vectorizer; the sanitizer build keeps its own level.
ifneq ($(SANITIZE),1)
$(call objs,$(PARQUET_SRCS)): CFLAGS += -O3
endif

# blkscope-export: the analysis (libbsanalysis) with the export extension
# (export_*.c) writing rows through the Parquet writer or as CSV / JSON lines.
EXPORT_SRCS := analyze/export/export_ext.c analyze/export/export_ios.c \
	analyze/export/export_intervals.c analyze/export/export_rows.c \
	analyze/export/export_host.c analyze/export/export_stacks.c
EXPORT_MAIN_SRCS := analyze/export_main.c analyze/front_msgs.c
$(call objs,$(EXPORT_SRCS) $(EXPORT_MAIN_SRCS)): CFLAGS += -Ianalyze/export
$(BIN)/blkscope-export: $(call objs,$(EXPORT_MAIN_SRCS) $(EXPORT_SRCS)) $(ANALYSIS_LIB) $(REPORT_LIB) $(ATTR_LIB) $(BTT_LIB) $(IOMODEL_LIB) $(TAGHOST_LIB) $(PARQUET_LIB) $(UTIL_LIB) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(ZSTD_LIBS) $(LDLIBS) -lm
PROGRAMS += $(BIN)/blkscope-export
