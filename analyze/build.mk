# analyze/: the front-end and the offline tools (no BPF dependency).
FRONTEND_SRCS := analyze/blkscope.c
$(BIN)/blkscope: $(call objs,$(FRONTEND_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
PROGRAMS += $(BIN)/blkscope

-include analyze/parse.mk
-include analyze/analyze.mk
