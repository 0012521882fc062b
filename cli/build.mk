# cli/: every command's front-end, and the link of every program.
#
# A front-end is one file, cli/<cmd>_main.c: the command line (getopt_long,
# --help, bs_arg.c's one-line errors), what is printed on stderr ("PROGRAM:
# TEXT"), the exit status.  Everything else is in the libraries below it
# (docs/architecture.md); only these files call exit() or set the program
# name.  `blkscope SUB` (cli/blkscope.c) runs blkscope-SUB.
#
#   blkscope            cli/blkscope.c           (no library: exec only)
#   blkscope-parse      cli/parse_main.c         libbsparse
#   blkscope-analyze    cli/analyze_main.c       libbsanalysis + engines, reports
#   blkscope-compare    cli/compare_main.c       libbscompare + the same
#   blkscope-export     cli/export_main.c        the export extension + the same
#   blkscope-tag-check  cli/tag_check_main.c     libbstaghost
#   blkscope-record     cli/record_main.c        record/ (BPF tool chain only)
#   blkscope-replay     cli/replay_main.c        replay/ (liburing only)

$(BIN)/blkscope: $(call objs,cli/blkscope.c)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
PROGRAMS += $(BIN)/blkscope

$(BIN)/blkscope-parse: $(call objs,cli/parse_main.c) $(PARSE_LIB) $(TAGHOST_LIB) $(UTIL_LIB) \
		$(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS)
PROGRAMS += $(BIN)/blkscope-parse

# what analyze, compare and export link below their own parts
ANALYSIS_LIBS = $(ANALYSIS_LIB) $(REPORT_LIB) $(ATTR_LIB) $(BTT_LIB) $(IOMODEL_LIB) $(TAGHOST_LIB)

# the analysis's messages and progress line on stderr (front_msgs.c)
FRONT_MSGS_OBJS := $(call objs,cli/front_msgs.c)

$(BIN)/blkscope-analyze: $(call objs,cli/analyze_main.c) $(FRONT_MSGS_OBJS) $(ANALYSIS_LIBS) $(UTIL_LIB) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS) -lm
PROGRAMS += $(BIN)/blkscope-analyze

$(BIN)/blkscope-compare: $(call objs,cli/compare_main.c) $(FRONT_MSGS_OBJS) $(COMPARE_LIB) $(ANALYSIS_LIBS) \
		$(UTIL_LIB) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS) -lm
PROGRAMS += $(BIN)/blkscope-compare

$(call objs,cli/export_main.c): CFLAGS += -Ianalyze/export
$(BIN)/blkscope-export: $(call objs,cli/export_main.c $(EXPORT_SRCS)) $(FRONT_MSGS_OBJS) $(ANALYSIS_LIBS) \
		$(PARQUET_LIB) $(UTIL_LIB) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(ZSTD_LIBS) $(LDLIBS) -lm
PROGRAMS += $(BIN)/blkscope-export

$(BIN)/blkscope-tag-check: $(call objs,cli/tag_check_main.c) $(TAGHOST_LIB) $(UTIL_LIB) \
		$(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS)
PROGRAMS += $(BIN)/blkscope-tag-check

ifeq ($(HAVE_BPF),1)
RECORD_MAIN_OBJS := $(call objs,cli/record_main.c)
$(RECORD_MAIN_OBJS): $(BUILD)/blkrecord.skel.h
$(RECORD_MAIN_OBJS): CFLAGS += -Irecord -Ibpf $(shell $(PKG_CONFIG) --cflags $(RECORD_PKGS))
$(BIN)/blkscope-record: $(RECORD_MAIN_OBJS) $(RECORD_OBJS) $(UTIL_LIB) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(shell $(PKG_CONFIG) --libs $(RECORD_PKGS)) \
		$(ZSTD_LIBS) $(LDLIBS)
PROGRAMS += $(BIN)/blkscope-record
endif

ifeq ($(HAVE_URING),1)
REPLAY_MAIN_OBJS := $(call objs,cli/replay_main.c)
$(REPLAY_MAIN_OBJS): CFLAGS += -Ireplay $(shell $(PKG_CONFIG) --cflags liburing)
$(BIN)/blkscope-replay: $(REPLAY_MAIN_OBJS) $(REPLAY_OBJS) $(IOMODEL_LIB) $(UTIL_LIB) \
		$(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(shell $(PKG_CONFIG) --libs liburing) \
		$(ZSTD_LIBS) $(LDLIBS) -lm
PROGRAMS += $(BIN)/blkscope-replay
endif
