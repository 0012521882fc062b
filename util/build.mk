# util/: the shared utility layer every other layer may use: allocation
# wrappers, a hash map for numeric keys, device-number formatting, escaping
# of untrusted strings for JSON/XML/CSV/terminal output, batches handed
# between two threads.
# -> libbsutil.a (no dependency but libc and its threads)
UTIL_SRCS := util/bs_alloc.c util/bs_arg.c util/bs_escape.c util/bs_hash.c util/bs_msg.c \
             util/bs_numfmt.c util/bs_pipe.c
UTIL_LIB  := $(BUILD)/libbsutil.a
$(UTIL_LIB): $(call objs,$(UTIL_SRCS))
	@mkdir -p $(dir $@)
	$(ARCHIVE)
