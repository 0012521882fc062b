# parquet/: the Parquet writer -> libbsparquet.a, a base-level library that
# uses util/ only (its UTF-8 decoder); zstd optional: without libzstd the
# pages are written UNCOMPRESSED.  Link $(PARQUET_LIBS).  Its public header
# is pq_writer.h, its private one pq_priv.h; every exported symbol is pq_*.
PARQUET_SRCS := parquet/pq_writer.c parquet/pq_row.c parquet/pq_page.c parquet/pq_footer.c \
	parquet/pq_encode.c parquet/pq_dict.c parquet/pq_thrift.c
PARQUET_LIB  := $(BUILD)/libbsparquet.a
PARQUET_LIBS := $(PARQUET_LIB) $(UTIL_LIB) $(ZSTD_LIBS)

$(PARQUET_LIB): $(call objs,$(PARQUET_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@
	$(ARCHIVE)
PROGRAMS += $(PARQUET_LIB)

# The encoders' loops (deltas, statistics, bit packing) gain from -O3's
# vectorizer; the sanitizer build keeps its own level.
ifneq ($(SANITIZE),1)
$(call objs,$(PARQUET_SRCS)): CFLAGS += -O3
endif
