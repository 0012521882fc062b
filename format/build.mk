# format/: the one place that knows the binary format -> libbsformat.a
FORMAT_SRCS := $(wildcard format/*.c)
FORMAT_LIB  := $(BUILD)/libbsformat.a
FORMAT_LIBS := $(FORMAT_LIB) $(ZSTD_LIBS)

$(FORMAT_LIB): $(call objs,$(FORMAT_SRCS))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

# unit tests of the reader, merge and writer on crafted inputs
$(BIN)/bs-test-format: $(call objs,tests/unit/test_format.c) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(ZSTD_LIBS)
PROGRAMS += $(BIN)/bs-test-format

$(BIN)/bs-merge-dump: $(call objs,tests/unit/merge_dump.c) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(ZSTD_LIBS)
PROGRAMS += $(BIN)/bs-merge-dump
