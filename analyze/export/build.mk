# the export extension (export_*.c) writing the analysis' rows through the
# Parquet writer (parquet/) or as CSV / JSON lines; linked into blkscope-export
# (cli/build.mk) with the analysis (libbsanalysis)
EXPORT_SRCS := analyze/export/export_ext.c analyze/export/export_ios.c \
	analyze/export/export_intervals.c analyze/export/export_rows.c \
	analyze/export/export_host.c analyze/export/export_stacks.c
$(call objs,$(EXPORT_SRCS)): CFLAGS += -Ianalyze/export
