# tests/: programs the test scripts, benchmarks and fuzz seeds use (not
# installed).  Every source is listed by name.  The product makefiles
# (*/build.mk of the libraries and programs) hold no test or bench rule:
# the generators are here, the unit tests in tests/unit/build.mk, the
# benchmarks' helper programs in tests/bench/build.mk.  Included by the top
# Makefile after every product fragment (the rules use their libraries).

# bs-gen-trace: the one synthetic-trace generator of the tests, benchmarks
# and fuzz seeds (tests/gen/gen_*.c, one workload per file)
GEN_SRCS := tests/gen/gen_bench.c tests/gen/gen_bulk.c tests/gen/gen_emit.c tests/gen/gen_hostile.c \
	tests/gen/gen_main.c \
	tests/gen/gen_merge.c tests/gen/gen_random.c tests/gen/gen_scenario.c tests/gen/gen_script.c tests/gen/gen_tags.c \
	tests/gen/gen_zoned.c
$(call objs,$(GEN_SRCS)): CFLAGS += -Itests/gen
$(BIN)/bs-gen-trace: $(call objs,$(GEN_SRCS)) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS)
PROGRAMS += $(BIN)/bs-gen-trace

include tests/unit/build.mk
include tests/bench/build.mk
