# tags/: tagging plugins (built in tree, tags/tag-by-*, and copied to $(BIN)),
# blkscope-tag-check, and the trace generator the tag tests use.
PLUGIN_IO_SRCS := tags/plugin_io.c tags/u32map.c
TAG_PLUGINS    := tags/tag-by-pid tags/tag-by-comm

tags/tag-by-pid: $(call objs,tags/tag-by-pid.c $(PLUGIN_IO_SRCS))
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

tags/tag-by-comm: $(call objs,tags/tag-by-comm.c $(PLUGIN_IO_SRCS))
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BIN)/tag-by-pid $(BIN)/tag-by-comm: $(BIN)/%: tags/%
	@mkdir -p $(dir $@)
	cp $< $@

TAG_CHECK_SRCS := tags/tag_check.c analyze/tag_host.c
$(BIN)/blkscope-tag-check: $(call objs,$(TAG_CHECK_SRCS)) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS)

# Test helper: writes synthetic traces (not installed: outside $(BIN)).
$(BUILD)/tests/tags-gen-trace: $(call objs,tests/tags/gen-trace.c)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

PROGRAMS += $(TAG_PLUGINS) $(BIN)/tag-by-pid $(BIN)/tag-by-comm $(BIN)/blkscope-tag-check \
	$(BUILD)/tests/tags-gen-trace

$(OBJ)/tags/tag_check.o: CFLAGS += -Ianalyze
