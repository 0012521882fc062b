# blkscope top-level Makefile.
#
#   make deps            install what the build, tests and benchmarks use
#                        (Debian/Ubuntu, as root; elsewhere it prints the
#                        list): tools/deps.sh, the one list of dependencies
#   make                 build everything this machine can build (the BPF
#                        recorder needs clang, bpftool and libbpf; without them
#                        the analyzer side still builds and we say what was skipped)
#   make test            run the test suite (tests/run-tests.sh)
#   make test SANITIZE=1 the same with ASan+UBSan (separate build directory)
#   make bench           benchmarks against blkparse/btt/ftrace (not timed tests)
#   make install PREFIX=/usr/local   programs, man pages (docs/man/) and docs;
#                        DESTDIR=... stages the tree elsewhere (packaging)
#
# Each directory contributes a build.mk fragment with explicit source lists
# that appends its programs to PROGRAMS (and may add rules); objects land in
# $(OBJ), binaries in $(BIN).  Layers (each a static library): format/ ->
# util/ -> parquet/ -> tags/host/ -> analyze/{parse,btt,report}/ -> the front-ends in
# cli/, which cli/build.mk links into the programs (docs/architecture.md).

PREFIX  ?= /usr/local
MANDIR  ?= $(PREFIX)/share/man
DOCDIR  ?= $(PREFIX)/share/doc/blkscope
CC      ?= cc
CLANG   ?= clang
BPFTOOL ?= bpftool
PKG_CONFIG ?= pkg-config

ifeq ($(SANITIZE),1)
BUILD   := build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
OPTFLAGS := -O1 -g
else
BUILD   := build
SANFLAGS :=
OPTFLAGS := -O2 -g
endif

OBJ := $(BUILD)/obj
BIN := $(BUILD)/bin

WARNFLAGS := -Wall -Wextra -Werror -Wno-unused-parameter
CFLAGS  ?=
CFLAGS  += -pthread -DBLKSCOPE_VERSION=\"0.1.0\" $(OPTFLAGS) $(WARNFLAGS) $(SANFLAGS) -std=gnu11 -D_GNU_SOURCE -Iformat -Iutil -Iparquet -Ianalyze -Itags -I$(BUILD)
LDFLAGS += $(SANFLAGS)
LDLIBS  := -pthread

# zstd is optional for the analyzer side: without it .zst inputs are refused.
# NO_ZSTD=1 builds without it even where libzstd is installed (what a machine
# without libzstd-dev gets; t-build-config tests such a build).
ifneq ($(NO_ZSTD),1)
HAVE_ZSTD := $(shell $(PKG_CONFIG) --exists libzstd 2>/dev/null && echo 1)
endif
ifeq ($(HAVE_ZSTD),1)
CFLAGS  += -DHAVE_ZSTD $(shell $(PKG_CONFIG) --cflags libzstd)
ZSTD_LIBS := $(shell $(PKG_CONFIG) --libs libzstd)
endif

# The recorder needs the BPF toolchain; probe for it once (NO_BPF=1: leave it out).
ifneq ($(NO_BPF),1)
HAVE_BPF := $(shell command -v $(CLANG) >/dev/null 2>&1 && command -v $(BPFTOOL) >/dev/null 2>&1 && \
	$(PKG_CONFIG) --exists libbpf 2>/dev/null && $(PKG_CONFIG) --exists liburing 2>/dev/null && echo 1)
endif

# The configuration this make found (optional libraries, compiler, flags),
# kept in $(BUILD)/config.stamp.  The file is rewritten only when the
# configuration changes, and every object depends on it: installing libzstd
# (or the BPF tool chain) after a first `make` rebuilds what it changes,
# instead of linking objects built without it to objects built with it.
CONFIG_STAMP := $(BUILD)/config.stamp
CONFIG_NOW := cc=$(CC) cflags=$(CFLAGS) ldflags=$(LDFLAGS) zstd=$(HAVE_ZSTD) $(ZSTD_LIBS) bpf=$(HAVE_BPF) \
	$(if $(HAVE_BPF),$(shell $(PKG_CONFIG) --cflags --libs libbpf liburing 2>/dev/null))
ifneq ($(file < $(CONFIG_STAMP)),$(CONFIG_NOW))
$(shell mkdir -p $(BUILD))
$(file > $(CONFIG_STAMP),$(CONFIG_NOW))
endif

PROGRAMS :=
SKIPPED  :=

objs = $(patsubst %.c,$(OBJ)/%.o,$(1))
# a library from its objects: made anew, so that a renamed or removed source
# leaves no stale member behind
ARCHIVE = rm -f $@ && $(AR) rcs $@ $^

# Man pages (mdoc, one file per page: docs/man/NAME.SECTION) and the docs
# installed with them; tests/t-docs-manpages.sh keeps the pages in step
# with the programs' --help.
MAN_PAGES := $(wildcard docs/man/*.[1-9])
DOC_FILES := README.md $(wildcard docs/*.md) docs/analyze-schema.json

.PHONY: all deps test bench install clean fuzz soak
all: programs

deps:
	tools/deps.sh

include format/build.mk
include util/build.mk
include parquet/build.mk
include tags/build.mk
include analyze/build.mk
include analyze/export/build.mk
include record/build.mk
include replay/build.mk
include cli/build.mk
include tests/build.mk
include fuzz/build.mk
fuzz: fuzz-run
soak: soak-run

programs: $(PROGRAMS)
	@if [ -n "$(strip $(SKIPPED))" ]; then echo "note: skipped: $(SKIPPED)"; fi

$(OBJ)/%.o: %.c $(CONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)

test: programs
	BUILD=$(BUILD) SANITIZE=$(SANITIZE) tests/run-tests.sh

bench: programs
	BUILD=$(BUILD) tests/bench/run-bench.sh

install: programs
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/libexec/blkscope $(DESTDIR)$(PREFIX)/share/blkscope/python
	install -m 755 $(BIN)/blkscope $(DESTDIR)$(PREFIX)/bin/blkscope
	for p in $(filter $(BIN)/blkscope-% $(BIN)/tag-by-%,$(PROGRAMS)); do \
		install -m 755 $$p $(DESTDIR)$(PREFIX)/libexec/blkscope/; done
	install -m 644 tags/python/blkscope_tag.py $(DESTDIR)$(PREFIX)/share/blkscope/python/
	install -m 755 tags/python/tag-by-pid.py $(DESTDIR)$(PREFIX)/share/blkscope/python/
	for p in $(MAN_PAGES); do s=$${p##*.}; \
		install -d $(DESTDIR)$(MANDIR)/man$$s && \
		install -m 644 $$p $(DESTDIR)$(MANDIR)/man$$s/ || exit 1; done
	install -d $(DESTDIR)$(DOCDIR)
	install -m 644 $(DOC_FILES) $(DESTDIR)$(DOCDIR)/

clean:
	rm -rf build build-san
