# fuzz/build.mk: libFuzzer targets (clang -fsanitize=fuzzer,address,undefined)
# and the soak run.  Included from the top Makefile; nothing here is built
# by `make` itself.
#
#   make fuzz                     build every target and run each for
#                                 FUZZ_SECONDS (default 60) on a corpus
#                                 seeded from samples/ (fuzz/seed.sh)
#   make fuzz FUZZ_TARGETS=fuzz_trace FUZZ_SECONDS=600
#   make fuzz-build               just build them (build/fuzz/bin/)
#   make soak [SOAK_SECONDS=600]  tests/soak/soak.sh (root, fio)
#
# Every object is rebuilt with clang and the fuzzer instrumentation into
# build/fuzz/, so the normal and sanitizer builds are untouched.  fuzz_analyze
# links the analysis library (everything of blkscope-analyze but
# analyze_main.c) and calls its entry points; fuzz_parse links libbsparse's
# objects and calls parse_run() (analyze/parse/parse.h).

FUZZ_BUILD   := build/fuzz
FUZZ_CC      ?= clang
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS  := -g -O1 -fsanitize=fuzzer-no-link $(FUZZ_SAN) -std=gnu11 -D_GNU_SOURCE \
		-DBLKSCOPE_VERSION=\"0.1.0\" -Wall -Wno-unused-parameter -Iformat -Iutil -Ianalyze -Itags -I$(BUILD)
ifeq ($(HAVE_ZSTD),1)
FUZZ_CFLAGS  += -DHAVE_ZSTD $(shell $(PKG_CONFIG) --cflags libzstd)
endif
FUZZ_LDFLAGS := -fsanitize=fuzzer $(FUZZ_SAN)
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= fuzz_trace fuzz_tagresp fuzz_parse fuzz_analyze fuzz_attr
SOAK_SECONDS ?= 600

fuzz_objs = $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(1))

$(FUZZ_BUILD)/obj/%.o: %.c $(CONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_XFLAGS) -MMD -MP -c -o $@ $<

FUZZ_FORMAT_OBJS := $(call fuzz_objs,$(FORMAT_SRCS) $(UTIL_SRCS))
FUZZ_LIBS := $(ZSTD_LIBS) -lm

$(FUZZ_BUILD)/bin/fuzz_trace: $(call fuzz_objs,fuzz/fuzz_trace.c) $(FUZZ_FORMAT_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(FUZZ_LIBS)

# builds the host's state by hand through tags/host/tag_host_priv.h
$(FUZZ_BUILD)/bin/fuzz_tagresp: $(call fuzz_objs,fuzz/fuzz_tagresp.c $(TAGHOST_SRCS)) $(FUZZ_FORMAT_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(FUZZ_LIBS)

# the parse library as the front-end links it (with the tag host and util/)
$(FUZZ_BUILD)/bin/fuzz_parse: $(call fuzz_objs,fuzz/fuzz_parse.c $(PARSE_LIB_SRCS) $(TAGHOST_SRCS) $(UTIL_SRCS)) $(FUZZ_FORMAT_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(FUZZ_LIBS)

# the whole analysis, as blkscope-analyze links it, without its main()
$(FUZZ_BUILD)/bin/fuzz_analyze: $(call fuzz_objs,fuzz/fuzz_analyze.c $(filter-out $(ANALYZE_MAIN_SRCS),$(ANALYZE_SRCS)) $(TAGHOST_SRCS) $(UTIL_SRCS)) $(FUZZ_FORMAT_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(FUZZ_LIBS)

# the analysis over attribution side files made of the input (record --files --stacks)
$(FUZZ_BUILD)/bin/fuzz_attr: $(call fuzz_objs,fuzz/fuzz_attr.c $(filter-out $(ANALYZE_MAIN_SRCS),$(ANALYZE_SRCS)) $(TAGHOST_SRCS) $(UTIL_SRCS)) $(FUZZ_FORMAT_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(FUZZ_LIBS)

-include $(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)

.PHONY: fuzz-build fuzz-run soak-run
fuzz-build: $(addprefix $(FUZZ_BUILD)/bin/,$(FUZZ_TARGETS))

fuzz-run: fuzz-build programs
	FUZZ_BUILD=$(FUZZ_BUILD) BIN=$(abspath $(BIN)) FUZZ_SECONDS=$(FUZZ_SECONDS) \
		FUZZ_TARGETS="$(FUZZ_TARGETS)" fuzz/run-fuzz.sh

soak-run: programs
	BIN=$(abspath $(BIN)) TOP=$(CURDIR) SOAK_SECONDS=$(SOAK_SECONDS) tests/soak/soak.sh
