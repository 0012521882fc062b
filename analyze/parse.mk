# analyze/parse.mk: blkscope-parse (blkparse-compatible text and dumps) and
# the trace generator used by its tests and benchmark.
PARSE_SRCS := $(wildcard analyze/parse*.c)
$(BIN)/blkscope-parse: $(call objs,$(PARSE_SRCS)) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS)
PROGRAMS += $(BIN)/blkscope-parse

GEN_SRCS := $(wildcard tests/gen/*.c)
$(call objs,$(GEN_SRCS)): CFLAGS += -Itests/gen
$(BIN)/bs-gen-trace: $(call objs,$(GEN_SRCS)) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS)
PROGRAMS += $(BIN)/bs-gen-trace
