# format/: the one place that knows the binary format -> libbsformat.a
FORMAT_SRCS := \
	format/bs_attr.c \
	format/bs_codec.c \
	format/bs_input.c \
	format/bs_merge.c \
	format/bs_merge_file.c \
	format/bs_merge_tree.c \
	format/bs_merge_pipe.c \
	format/bs_native.c \
	format/bs_notes.c \
	format/bs_outfile.c \
	format/bs_readahead.c \
	format/bs_side.c \
	format/bs_stream.c \
	format/bs_tail.c \
	format/bs_writer.c \
	format/bs_writer_thread.c
FORMAT_LIB  := $(BUILD)/libbsformat.a
# format/ uses util/ (allocation, hashes): every link of format/ needs both
FORMAT_LIBS = $(FORMAT_LIB) $(UTIL_LIB) $(ZSTD_LIBS)

$(FORMAT_LIB): $(call objs,$(FORMAT_SRCS))
	@mkdir -p $(dir $@)
	$(ARCHIVE)
