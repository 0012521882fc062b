# analyze/analyze.mk: blkscope-analyze, the btt-equivalent analyzer.
# Every analyze/*.c except the front-end, the parse tool and test helpers
# is linked in, so report extensions (stats_*, report_*, timeseries) join
# by file name.
ANALYZE_SRCS := $(filter-out analyze/blkscope.c analyze/parse% analyze/btt_benchgen.c,$(wildcard analyze/*.c))

$(BIN)/blkscope-analyze: $(call objs,$(ANALYZE_SRCS)) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS) -lm
PROGRAMS += $(BIN)/blkscope-analyze

# benchmark workload generator (tests/bench/bench-analyze.sh)
$(BIN)/bs-btt-benchgen: $(call objs,analyze/btt_benchgen.c) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS)
PROGRAMS += $(BIN)/bs-btt-benchgen
