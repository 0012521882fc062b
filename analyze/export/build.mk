# blkscope-export: the analysis (libbsanalysis) with the export extension
# (export_*.c) writing rows through the Parquet writer or as CSV / JSON lines.
EXPORT_SRCS := analyze/export/export_ext.c analyze/export/export_ios.c \
	analyze/export/export_intervals.c analyze/export/export_rows.c \
	analyze/export/export_host.c analyze/export/export_stacks.c
EXPORT_MAIN_SRCS := analyze/export_main.c
$(call objs,$(EXPORT_SRCS) $(EXPORT_MAIN_SRCS)): CFLAGS += -Ianalyze/export
$(BIN)/blkscope-export: $(call objs,$(EXPORT_MAIN_SRCS) $(EXPORT_SRCS)) $(ANALYSIS_LIB) $(REPORT_LIB) $(ATTR_LIB) $(BTT_LIB) $(IOMODEL_LIB) $(TAGHOST_LIB) $(PARQUET_LIB) $(UTIL_LIB) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(ZSTD_LIBS) $(LDLIBS) -lm
PROGRAMS += $(BIN)/blkscope-export
