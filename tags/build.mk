# tags/: the plugin host (a small library both parse and analyze link) and
# the tagging plugins (blkscope-tag-check: cli/build.mk).  The plugins are linked into $(BIN)
# (per build: build/ or build-san/) and, for the normal build only, copied
# into the source tree as tags/tag-by-pid and tags/tag-by-comm (gitignored)
# so that `--tag-plugin tags/tag-by-pid` works from a checkout.

TAGHOST_SRCS := tags/host/tag_answer.c tags/host/tag_argv.c tags/host/tag_host.c \
	tags/host/tag_pump.c tags/host/tag_spawn.c
TAGHOST_LIB  := $(BUILD)/libbstaghost.a
$(TAGHOST_LIB): $(call objs,$(TAGHOST_SRCS))
	@mkdir -p $(dir $@)
	$(ARCHIVE)

# records read through format/ (bs_native, bs_codec); per-pid tables in u32map.c
# (not util/bs_hash: measured faster here, see u32map.h)
PLUGIN_IO_SRCS := tags/plugin_io.c tags/u32map.c

$(BIN)/tag-by-pid: $(call objs,tags/tag-by-pid.c $(PLUGIN_IO_SRCS)) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BIN)/tag-by-comm: $(call objs,tags/tag-by-comm.c $(PLUGIN_IO_SRCS)) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

PROGRAMS += $(BIN)/tag-by-pid $(BIN)/tag-by-comm

ifneq ($(SANITIZE),1)
tags/tag-by-pid tags/tag-by-comm: tags/%: $(BIN)/%
	cp $< $@
PROGRAMS += tags/tag-by-pid tags/tag-by-comm
endif
