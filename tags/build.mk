# tags/: tagging plugins, blkscope-tag-check, and the trace generator the
# tag tests use.  The plugins are linked into $(BIN) (per build: build/ or
# build-san/) and, for the normal build only, copied into the source tree
# as tags/tag-by-pid and tags/tag-by-comm (gitignored) so that
# `--tag-plugin tags/tag-by-pid` works from a checkout.
PLUGIN_IO_SRCS := tags/plugin_io.c tags/u32map.c

$(BIN)/tag-by-pid: $(call objs,tags/tag-by-pid.c $(PLUGIN_IO_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BIN)/tag-by-comm: $(call objs,tags/tag-by-comm.c $(PLUGIN_IO_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

PROGRAMS += $(BIN)/tag-by-pid $(BIN)/tag-by-comm

ifneq ($(SANITIZE),1)
tags/tag-by-pid tags/tag-by-comm: tags/%: $(BIN)/%
	cp $< $@
PROGRAMS += tags/tag-by-pid tags/tag-by-comm
endif

TAG_CHECK_SRCS := tags/tag_check.c analyze/tag_host.c
$(BIN)/blkscope-tag-check: $(call objs,$(TAG_CHECK_SRCS)) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS)
PROGRAMS += $(BIN)/blkscope-tag-check

$(OBJ)/tags/tag_check.o: CFLAGS += -Ianalyze

# Test helper: writes synthetic traces (not installed: outside $(BIN)).
$(BUILD)/tests/tags-gen-trace: $(call objs,tests/tags/gen-trace.c)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
PROGRAMS += $(BUILD)/tests/tags-gen-trace

# blkscope parse --tag-plugin (analyze/parse_tags.c) needs the host too;
# parse.mk's recipe links every prerequisite ($^).
$(BIN)/blkscope-parse: $(OBJ)/analyze/tag_host.o
