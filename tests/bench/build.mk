# tests/bench/: the benchmarks' helper programs (tests/bench/run-bench.sh
# runs them; `make bench`).  Included from tests/build.mk.

ifeq ($(HAVE_BPF),1)
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
endif
