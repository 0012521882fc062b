# record/ + bpf/: the BPF recorder (its front-end, cli/record_main.c, and
# the link of $(BIN)/blkscope-record are in cli/build.mk)
#
# The kernel side (bpf/blkrecord.bpf.c) is compiled with clang -target bpf
# against a vmlinux.h dumped from this machine's BTF at build time, then
# embedded in the program through a `bpftool gen skeleton` header.
ifeq ($(HAVE_BPF),1)

BPF_BUILD   := $(BUILD)/bpf
BPF_ARCH    := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' -e 's/ppc64le/powerpc/' -e 's/s390x/s390/')
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
RECORD_SRCS := record/attr.c record/attr_stacks.c record/elfsym.c record/fileid.c record/ksyms.c \
	record/bpf_load.c record/cgroup.c record/child.c record/cstat.c record/devices.c \
	record/drain.c record/flight.c record/history.c record/inflight.c \
	record/notes.c record/outfiles.c record/outputs.c record/pidcomm.c record/route.c \
	record/say.c record/setup.c record/sink.c record/snapshot.c record/stage.c record/stop.c \
	record/stream.c record/summary.c record/trigger.c record/user.c record/v8.c
RECORD_OBJS := $(call objs,$(RECORD_SRCS))
RECORD_PKGS := libbpf liburing libelf

$(BPF_BUILD)/vmlinux.h:
	@mkdir -p $(dir $@)
	$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@

$(BPF_BUILD)/blkrecord.bpf.o: bpf/blkrecord.bpf.c $(wildcard bpf/*.bpf.h) bpf/blkrecord.h format/bs_defs.h $(BPF_BUILD)/vmlinux.h
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall -Werror \
		-I$(BPF_BUILD) -Iformat -Ibpf $(shell $(PKG_CONFIG) --cflags-only-I libbpf) \
		-c $< -o $@

$(BUILD)/blkrecord.skel.h: $(BPF_BUILD)/blkrecord.bpf.o
	$(BPFTOOL) gen skeleton $< name blkrecord > $@.tmp && mv $@.tmp $@

$(RECORD_OBJS): $(BUILD)/blkrecord.skel.h
$(RECORD_OBJS): CFLAGS += -Ibpf $(shell $(PKG_CONFIG) --cflags $(RECORD_PKGS))


else
SKIPPED += blkscope-record(needs clang, bpftool, libbpf, liburing)
endif
