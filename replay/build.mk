# replay/: blkscope replay (linked with cli/replay_main.c in cli/build.mk)
#
# Re-issues a trace's queued bios with io_uring: built only where liburing
# is installed (the analyzer side does not need it).  It reads traces
# through format/ and takes the completion times from the per-I/O model
# (analyze/iomodel/, libbsiomodel.a).
HAVE_URING := $(shell $(PKG_CONFIG) --exists liburing 2>/dev/null && echo 1)
ifeq ($(HAVE_URING),1)

REPLAY_SRCS := \
	replay/replay_engine.c \
	replay/replay_load.c \
	replay/replay_opts.c \
	replay/replay_plan.c \
	replay/replay_report.c \
	replay/replay_target.c \
	replay/replay_uring.c
REPLAY_OBJS := $(call objs,$(REPLAY_SRCS))
$(REPLAY_OBJS): CFLAGS += -Ireplay $(shell $(PKG_CONFIG) --cflags liburing)

else
SKIPPED += blkscope-replay(needs liburing)
endif
