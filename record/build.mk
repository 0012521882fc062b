# record/ + bpf/: the BPF recorder -> $(BIN)/blkscope-record
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
	record/drain.c record/flight.c record/history.c record/inflight.c record/main.c \
	record/notes.c record/outfiles.c record/outputs.c record/pidcomm.c record/route.c \
	record/say.c record/setup.c record/sink.c record/snapshot.c record/stage.c record/stop.c \
	record/stream.c record/summary.c record/trigger.c record/user.c record/v8.c
RECORD_OBJS := $(call objs,$(RECORD_SRCS))
RECORD_PKGS := libbpf liburing libelf

$(BPF_BUILD)/vmlinux.h:
	@mkdir -p $(dir $@)
	$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@

$(BPF_BUILD)/blkrecord.bpf.o: bpf/blkrecord.bpf.c bpf/blkattr.bpf.h bpf/blkrecord.h format/bs_defs.h $(BPF_BUILD)/vmlinux.h
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall -Werror \
		-I$(BPF_BUILD) -Iformat -Ibpf $(shell $(PKG_CONFIG) --cflags-only-I libbpf) \
		-c $< -o $@

$(BUILD)/blkrecord.skel.h: $(BPF_BUILD)/blkrecord.bpf.o
	$(BPFTOOL) gen skeleton $< name blkrecord > $@.tmp && mv $@.tmp $@

$(RECORD_OBJS): $(BUILD)/blkrecord.skel.h
$(RECORD_OBJS): CFLAGS += -Ibpf $(shell $(PKG_CONFIG) --cflags $(RECORD_PKGS))

$(BIN)/blkscope-record: $(RECORD_OBJS) $(UTIL_LIB) $(FORMAT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(shell $(PKG_CONFIG) --libs $(RECORD_PKGS)) $(ZSTD_LIBS) $(LDLIBS)

PROGRAMS += $(BIN)/blkscope-record

# unit test of the -o - merge (stream.c) through a real sink
$(BIN)/bs-test-record-stream: $(call objs,tests/unit/record_stream_check.c) \
		$(call objs,record/stream.c record/stage.c record/sink.c record/v8.c) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(shell $(PKG_CONFIG) --libs liburing) $(ZSTD_LIBS) $(LDLIBS)
$(call objs,tests/unit/record_stream_check.c): $(BUILD)/blkrecord.skel.h
$(call objs,tests/unit/record_stream_check.c): CFLAGS += -Irecord -Ibpf $(shell $(PKG_CONFIG) --cflags $(RECORD_PKGS))

PROGRAMS += $(BIN)/bs-test-record-stream

# unit tests of the flight recorder's triggers (trigger.c, inflight.c)
$(BIN)/bs-test-record-trigger: $(call objs,tests/unit/record_trigger_check.c) \
		$(call objs,record/trigger.c record/inflight.c) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(FORMAT_LIBS) $(LDLIBS)
$(call objs,tests/unit/record_trigger_check.c): $(BUILD)/blkrecord.skel.h
$(call objs,tests/unit/record_trigger_check.c): CFLAGS += -Irecord -Ibpf $(shell $(PKG_CONFIG) --cflags $(RECORD_PKGS))

PROGRAMS += $(BIN)/bs-test-record-trigger

# unit test of the output sinks (sink.c): slow pipe, file, zstd file
$(BIN)/bs-test-record-sink: $(call objs,tests/unit/record_sink_check.c) \
		$(call objs,record/sink.c record/v8.c) $(FORMAT_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -pthread -o $@ $^ $(FORMAT_LIBS) $(shell $(PKG_CONFIG) --libs liburing) $(ZSTD_LIBS) $(LDLIBS)
$(call objs,tests/unit/record_sink_check.c): $(BUILD)/blkrecord.skel.h
$(call objs,tests/unit/record_sink_check.c): CFLAGS += -Irecord -Ibpf $(shell $(PKG_CONFIG) --cflags $(RECORD_PKGS))

PROGRAMS += $(BIN)/bs-test-record-sink

# bench-record.sh's reference programs (empty, clock only) on the same
# tracepoints: the floor the recorder's per-event cost is read against
$(BPF_BUILD)/floor.bpf.o: tests/bench/floor/floor.bpf.c $(BPF_BUILD)/vmlinux.h
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall -Werror \
		-I$(BPF_BUILD) $(shell $(PKG_CONFIG) --cflags-only-I libbpf) -c $< -o $@

$(BUILD)/floor.skel.h: $(BPF_BUILD)/floor.bpf.o
	$(BPFTOOL) gen skeleton $< name floor > $@.tmp && mv $@.tmp $@

$(BIN)/bs-bench-bpf-floor: $(call objs,tests/bench/floor/bpf_floor.c)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(shell $(PKG_CONFIG) --libs libbpf) $(LDLIBS)
$(call objs,tests/bench/floor/bpf_floor.c): $(BUILD)/floor.skel.h
$(call objs,tests/bench/floor/bpf_floor.c): CFLAGS += $(shell $(PKG_CONFIG) --cflags libbpf)

PROGRAMS += $(BIN)/bs-bench-bpf-floor

else
SKIPPED += blkscope-record(needs clang, bpftool, libbpf, liburing)
endif
