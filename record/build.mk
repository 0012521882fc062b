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
RECORD_SRCS := record/rec_attr.c record/rec_attr_stacks.c record/rec_elfsym.c record/rec_fileid.c record/rec_ksyms.c \
	record/rec_bpf_load.c record/rec_cgroup.c record/rec_child.c record/rec_cstat.c record/rec_devices.c \
	record/rec_drain.c record/rec_flight.c record/rec_history.c record/rec_inflight.c \
	record/rec_notes.c record/rec_outfiles.c record/rec_outputs.c record/rec_pidcomm.c record/rec_route.c \
	record/rec_say.c record/rec_setup.c record/rec_sink.c record/rec_snapshot.c record/rec_stage.c record/rec_stop.c \
	record/rec_stream.c record/rec_summary.c record/rec_trigger.c record/rec_user.c record/rec_v8.c
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
