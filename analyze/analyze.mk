# analyze/analyze.mk: blkscope-analyze, the btt-equivalent analyzer.
# Every analyze/*.c except the front-end and the parse tool is linked in,
# so report extensions (stats_*, report_*, timeseries) join by file name.
ANALYZE_SRCS := $(filter-out analyze/blkscope.c analyze/parse%,$(wildcard analyze/*.c))

$(BIN)/blkscope-analyze: $(call objs,$(ANALYZE_SRCS)) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS) -lm
PROGRAMS += $(BIN)/blkscope-analyze
