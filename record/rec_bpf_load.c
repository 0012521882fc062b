// SPDX-License-Identifier: GPL-2.0
/*
 * rec_bpf_load.c - everything between the recorder and the kernel: privilege
 * and kernel checks (each failure one clear line), loading
 * bpf/blkrecord.bpf.c through its skeleton, one record ring per possible
 * CPU (mapped here and drained in place), the per-trace configuration, and
 * reading the counters back.
 *
 * Kernel differences are found by probing the running kernel's BTF, never
 * by comparing version numbers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "record.h"		/* struct br_trace_cfg, used by the skeleton */
#include "rec_attr.h"
#include "blkrecord.skel.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

#define MIN_KERNEL "Linux 5.12"

struct rec_bpf {
	struct blkrecord *skel;
	int ncpus;
	uint32_t slot_shift;		/* log2(slots per CPU) */
	uint8_t *slots;			/* the mapped `slots` array: all CPUs' rings */
	size_t slots_len;
	struct br_ring_ctl *ctl;	/* the mapped `ring_ctl` array, one per CPU */
	size_t ctl_len;
	struct ring_buffer *wake;	/* the BPF side's wake-up notes */
	rec_record_fn fn;
	void *ctx;
	rec_attr_fn attr_fn;		/* --files/--stacks: attribution slots */
};

static bool has_cap(const struct __user_cap_data_struct data[2], int cap)
{
	return data[cap / 32].effective & (1u << (cap % 32));
}

/* Name exactly what is missing: CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN). */
int rec_check_privileges(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };
	bool bpf, perfmon;

	if (syscall(SYS_capget, &hdr, data) < 0) {
		fprintf(stderr, "blkscope record: cannot read capabilities: %s\n", strerror(errno));
		return -1;
	}
	if (has_cap(data, CAP_SYS_ADMIN))
		return 0;
	bpf = has_cap(data, CAP_BPF);
	perfmon = has_cap(data, CAP_PERFMON);
	if (bpf && perfmon)
		return 0;
	fprintf(stderr,
		"blkscope record: not root and missing %s%s%s (needed to load tracing BPF "
		"programs)\n",
		bpf ? "" : "CAP_BPF", !bpf && !perfmon ? " and " : "",
		perfmon ? "" : "CAP_PERFMON");
	return -1;
}

static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (!rec_verbose || (level == LIBBPF_DEBUG && rec_verbose < 2))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static bool struct_has_member(const struct btf *btf, const char *sname, const char *member)
{
	int id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);
	const struct btf_member *m;
	const struct btf_type *t;
	int i;

	if (id < 0)
		return false;
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member))
			return true;
	return false;
}

/* The function prototype of tracepoint `tp` (typedef btf_trace_<tp>). */
static const struct btf_type *tp_proto(const struct btf *btf, const char *tp)
{
	char name[128];
	const struct btf_type *t;
	int id;

	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id < 0)
		return NULL;
	t = btf__type_by_id(btf, id);
	t = btf__type_by_id(btf, t->type);	/* pointer */
	if (!t || !btf_is_ptr(t))
		return NULL;
	t = btf__type_by_id(btf, t->type);
	return t && btf_is_func_proto(t) ? t : NULL;
}

/* Name of the (unresolved) type of parameter i of a prototype. */
static const char *param_type_name(const struct btf *btf, const struct btf_type *proto, int i)
{
	const struct btf_type *t;

	if (i >= btf_vlen(proto))
		return "";
	t = btf__type_by_id(btf, btf_params(proto)[i].type);
	return t ? btf__name_by_offset(btf, t->name_off) : "";
}

/*
 * What this kernel offers, from its BTF.  Sets *errno_arg when
 * block_rq_complete passes an errno int rather than a blk_status_t.
 */
static int probe_kernel(bool *errno_arg, bool *zone_tps)
{
	static const char *const tps[] = {
		"block_rq_insert", "block_rq_issue", "block_rq_merge", "block_rq_requeue",
		"block_rq_complete", "block_bio_complete", "block_bio_backmerge",
		"block_bio_frontmerge", "block_bio_queue", "block_getrq", "block_plug",
		"block_unplug", "block_split", "block_bio_remap", "block_rq_remap",
	};
	const struct btf_type *proto;
	const char *missing = NULL;
	struct btf *btf;
	size_t i;

	if (access("/sys/kernel/btf/vmlinux", R_OK) < 0) {
		fprintf(stderr, "blkscope record: no kernel BTF (/sys/kernel/btf/vmlinux: %s); the "
			"kernel needs CONFIG_DEBUG_INFO_BTF=y\n", strerror(errno));
		return -1;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		fprintf(stderr, "blkscope record: cannot read kernel BTF: %s\n", strerror(errno));
		return -1;
	}
	for (i = 0; i < sizeof(tps) / sizeof(tps[0]) && !missing; i++)
		if (!tp_proto(btf, tps[i]))
			missing = tps[i];
	/* 5.11 dropped the request_queue argument: (ctx, rq) */
	proto = tp_proto(btf, "block_rq_issue");
	if (!missing && btf_vlen(proto) != 2)
		missing = "block_rq_issue(struct request *) (5.11 tracepoint signature)";
	/* the BPF side reads whichever of the two the kernel has */
	if (!missing && !struct_has_member(btf, "request_queue", "disk") &&
	    !struct_has_member(btf, "request", "rq_disk"))
		missing = "request_queue.disk or request.rq_disk";
	if (!missing && !struct_has_member(btf, "bio", "bi_bdev"))
		missing = "bio.bi_bdev (5.12)";
	if (!missing && libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) != 1)
		missing = "BPF ring buffers";
	if (!missing && libbpf_probe_bpf_map_type(BPF_MAP_TYPE_TASK_STORAGE, NULL) != 1)
		missing = "BPF task storage";
	if (!missing) {
		proto = tp_proto(btf, "block_rq_complete");
		*errno_arg = strcmp(param_type_name(btf, proto, 2), "blk_status_t") != 0;
	}
	/* zone write plugging (6.9+): (q, zno, sector, nr_sectors) */
	proto = tp_proto(btf, "disk_zone_wplug_add_bio");
	*zone_tps = proto && btf_vlen(proto) == 5 && tp_proto(btf, "blk_zone_wplug_bio");
	btf__free(btf);
	if (missing) {
		fprintf(stderr,
			"blkscope record: kernel too old: needs %s or later (missing: %s)\n",
			MIN_KERNEL, missing);
		return -1;
	}
	return 0;
}

/* The wake-up notes carry nothing: the drain that follows reads every ring. */
static int on_wake(void *ctx, void *data, size_t size)
{
	return 0;
}

/*
 * The BPF side wakes us once every wakeup_mask + 1 events per trace and CPU:
 * a quarter of the ring's slots, so that a ring is about a quarter full when
 * it wakes us, and the 100 ms poll covers the rest.
 */
static uint32_t wakeup_mask(uint32_t slot_shift)
{
	return slot_shift > 2 ? (1u << (slot_shift - 2)) - 1 : 0;
}

/* Size the rings before load: ring_bytes per CPU, in 64-byte slots. */
static int size_rings(struct rec_bpf *b, uint64_t ring_bytes)
{
	uint32_t shift = 0;

	while ((uint64_t)BR_SLOT_SIZE << (shift + 1) <= ring_bytes)
		shift++;
	if (((uint64_t)b->ncpus << shift) > UINT32_MAX) {	/* one array holds all rings */
		fprintf(stderr, "blkscope record: %llu KiB rings for %d CPUs are too large (-b)\n",
			(unsigned long long)ring_bytes >> 10, b->ncpus);
		return -1;
	}
	b->slot_shift = shift;
	b->skel->rodata->slot_shift = shift;
	b->skel->rodata->slot_mask = (1u << shift) - 1;
	b->skel->rodata->wakeup_mask = wakeup_mask(shift);
	bpf_map__set_max_entries(b->skel->maps.slots, (uint32_t)b->ncpus << shift);
	bpf_map__set_max_entries(b->skel->maps.ring_ctl, b->ncpus);
	return 0;
}

static void *map_array(struct bpf_map *map, size_t *len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t size = (size_t)bpf_map__max_entries(map) * bpf_map__value_size(map);
	void *p;

	size = (size + page - 1) / page * page;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(map), 0);
	if (p == MAP_FAILED)
		return NULL;
	*len = size;
	return p;
}

/* After load: map the rings and their counters, and listen for wake-ups. */
static int map_rings(struct rec_bpf *b)
{
	b->slots = map_array(b->skel->maps.slots, &b->slots_len);
	b->ctl = map_array(b->skel->maps.ring_ctl, &b->ctl_len);
	if (!b->slots || !b->ctl) {
		fprintf(stderr, "blkscope record: cannot map the record rings: %s\n",
			strerror(errno));
		return -1;
	}
	b->wake = ring_buffer__new(bpf_map__fd(b->skel->maps.wake), on_wake, NULL, NULL);
	if (!b->wake) {
		fprintf(stderr, "blkscope record: cannot map the wake-up ring: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Hand every committed record of CPU cpu's ring to fn, oldest first, at most
 * one lap.  A slot is committed once its magic is set; we stop at the first
 * one that is not (reserved by a program that has not finished, or free),
 * clear the magic of each record we took and then publish the new `cons`,
 * which frees the slots for the BPF side.
 */
static int drain_cpu(struct rec_bpf *b, int cpu)
{
	struct br_ring_ctl *ctl = &b->ctl[cpu];
	uint64_t mask = (1ull << b->slot_shift) - 1;
	uint8_t *ring = b->slots + ((size_t)cpu << b->slot_shift) * BR_SLOT_SIZE;
	uint64_t cons = ctl->cons, n = 0;
	int err = 0;

	while (n <= mask) {
		struct bs_trace *t = (struct bs_trace *)(ring + (cons & mask) * BR_SLOT_SIZE);
		size_t pdu;

		uint32_t magic = __atomic_load_n(&t->magic, __ATOMIC_ACQUIRE);

		/* after its Q, never into a trace file */
		if (magic == BR_ATTR_MAGIC && b->attr_fn) {
			err = b->attr_fn(b->ctx, cpu, (const struct br_attr_slot *)t);
		} else if (bs_native_magic_is_v7(magic)) {
			pdu = t->pdu_len <= BR_SLOT_PDU_MAX ? t->pdu_len : BR_SLOT_PDU_MAX;
			err = b->fn(b->ctx, cpu, t, bs_native_record_size(pdu));
		} else {
			break;
		}
		__atomic_store_n(&t->magic, 0, __ATOMIC_RELAXED);
		cons++;
		n++;
		if (err)
			break;
	}
	if (n)
		__atomic_store_n(&ctl->cons, cons, __ATOMIC_RELEASE);
	return err ? err : (int)n;
}

static int drain_all(struct rec_bpf *b)
{
	int cpu, n, total = 0;

	for (cpu = 0; cpu < b->ncpus; cpu++) {
		n = drain_cpu(b, cpu);
		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

/* The traces go into read-only data, before load. */
static void set_traces(struct rec_bpf *b, const struct rec_bpf_config *cfg,
		       const struct rec_trace *traces, int ntraces)
{
	int i;

	b->skel->rodata->ntraces = ntraces;
	for (i = 0; i < ntraces; i++) {
		struct br_trace_cfg v = {
			.start_lba = cfg->lba_set ? cfg->start_lba : traces[i].start_lba,
			.end_lba = cfg->lba_set ? cfg->end_lba : traces[i].end_lba,
			.trace_dev = traces[i].dev,
			.pid = cfg->pid,
			.act_mask = cfg->act_mask ? cfg->act_mask : BS_TC_ALL,
			.index = i,
		};

		b->skel->rodata->trace_disk[i] = traces[i].disk;
		memcpy((void *)&b->skel->rodata->trace_cfg[i], &v, sizeof(v));
	}
}

int rec_events_parse(const char *list, uint32_t *out)
{
	static const char letters[] = "QGPUIDCMFRXA";	/* bit i: letters[i] */
	const char *p;

	*out = 0;
	for (p = list; *p; p++) {
		const char *at = strchr(letters, *p);

		if (*p == ',' && p != list && p[1])
			continue;
		if (!at || !*p)
			return -1;
		*out |= 1u << (at - letters);
	}
	return *out ? 0 : -1;
}

/* --events: the programs whose actions are all left out are not loaded. */
static void drop_programs(struct rec_bpf *b, uint32_t ev)
{
	const struct {
		struct bpf_program *prog;
		uint32_t ev;
	} map[] = {
		{ b->skel->progs.bio_queue, REC_EV_Q },
		{ b->skel->progs.getrq, REC_EV_G },
		{ b->skel->progs.plug, REC_EV_P },
		{ b->skel->progs.unplug, REC_EV_U },
		{ b->skel->progs.rq_insert, REC_EV_I },
		{ b->skel->progs.rq_issue, REC_EV_D },
		{ b->skel->progs.rq_complete, REC_EV_C },
		{ b->skel->progs.bio_complete, REC_EV_C },
		{ b->skel->progs.bio_backmerge, REC_EV_M },
		{ b->skel->progs.rq_merge, REC_EV_M },
		{ b->skel->progs.bio_frontmerge, REC_EV_F },
		{ b->skel->progs.rq_requeue, REC_EV_R },
		{ b->skel->progs.split, REC_EV_X },
		{ b->skel->progs.bio_remap, REC_EV_A },
		{ b->skel->progs.rq_remap, REC_EV_A },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!(ev & map[i].ev))
			bpf_program__set_autoload(map[i].prog, false);
}

/*
 * --files/--stacks: read-only switches (off, the verifier drops their
 * code from the Q program), the kernel functions the BPF side compares
 * bio completions with, and the stack tables' sizes (one entry when off).
 */
static int set_attr(struct rec_bpf *b, const struct rec_bpf_config *cfg)
{
	struct blkrecord__rodata *ro = b->skel->rodata;
	const struct rec_attr_fns *f = &cfg->fns;
	uint32_t n = cfg->attr_stacks ? cfg->stack_entries : 1;

	ro->attr_files = cfg->attr_files;
	ro->attr_stacks = cfg->attr_stacks;
	if (cfg->attr_files) {
		ro->fn_iomap_dio_end = f->iomap_dio_end;
		ro->fn_blkdev_dio_end = f->blkdev_dio_end;
		ro->fn_blkdev_dio_end_async = f->blkdev_dio_end_async;
		ro->fn_bh_end = f->bh_end;
		ro->fn_journal_bh_end = f->journal_bh_end;
		ro->fn_swap_write_end = f->swap_write_end;
		ro->fn_swap_read_end = f->swap_read_end;
	}
	if (bpf_map__set_max_entries(b->skel->maps.kstacks, n) ||
	    bpf_map__set_max_entries(b->skel->maps.ustacks, n) ||
	    bpf_map__set_max_entries(b->skel->maps.ubids, n)) {
		fprintf(stderr, "blkscope record: cannot size the stack tables\n");
		return -1;
	}
	b->attr_fn = cfg->attr_fn;
	return 0;
}

struct rec_bpf *rec_bpf_open(const struct rec_bpf_config *cfg, const struct rec_trace *traces,
			     int ntraces, int ncpus, rec_record_fn fn, void *ctx)
{
	struct rec_bpf *b;
	bool errno_arg = false, zone_tps = false;
	int err, i;

	if (probe_kernel(&errno_arg, &zone_tps) < 0)
		return NULL;
	libbpf_set_print(libbpf_log);

	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->ncpus = ncpus;
	b->fn = fn;
	b->ctx = ctx;

	b->skel = blkrecord__open();
	if (!b->skel) {
		fprintf(stderr, "blkscope record: cannot open the BPF object: %s\n",
			strerror(errno));
		goto fail;
	}
	b->skel->rodata->self_tgid = cfg->self_tgid;
	b->skel->rodata->trace_self = cfg->trace_self;
	b->skel->rodata->generation = 1;
	b->skel->rodata->rq_complete_errno_arg = errno_arg;
	/* version 8 only: zone categories and the zone-plug events */
	b->skel->rodata->zone_categories = cfg->v8;
	b->skel->rodata->cgroup_ids = cfg->cgroup_ids;
	b->skel->rodata->ncgroups = cfg->ncgroups;
	for (i = 0; i < cfg->ncgroups && i < BR_MAX_CGROUPS; i++) {
		b->skel->rodata->cgroup_id[i] = cfg->cgroup_id[i];
		b->skel->rodata->cgroup_level[i] = cfg->cgroup_level[i];
	}
	if (set_attr(b, cfg) < 0)
		goto fail;
	bpf_program__set_autoload(b->skel->progs.zone_plug, cfg->v8 && zone_tps);
	bpf_program__set_autoload(b->skel->progs.zone_unplug, cfg->v8 && zone_tps);
	if (cfg->events)
		drop_programs(b, cfg->events);
	set_traces(b, cfg, traces, ntraces);
	if (size_rings(b, cfg->ring_bytes) < 0)
		goto fail;

	err = blkrecord__load(b->skel);
	if (err) {
		fprintf(stderr, "blkscope record: loading the BPF programs failed: %s%s\n",
			strerror(-err), rec_verbose ? "" : " (-v shows libbpf's log)");
		goto fail;
	}
	if (map_rings(b) < 0)
		goto fail;
	return b;
fail:
	rec_bpf_close(b);
	return NULL;
}

int rec_bpf_attach(struct rec_bpf *b)
{
	int err = blkrecord__attach(b->skel);

	if (err) {
		fprintf(stderr, "blkscope record: attaching to the block tracepoints failed: %s\n",
			strerror(-err));
		return -1;
	}
	return 0;
}

void rec_bpf_detach(struct rec_bpf *b)
{
	blkrecord__detach(b->skel);
}

/* Wait for a wake-up or the timeout, then drain every CPU's ring. */
int rec_bpf_poll(struct rec_bpf *b, int timeout_ms)
{
	int n = ring_buffer__poll(b->wake, timeout_ms);

	if (n < 0 && n != -EINTR)
		return n;
	return drain_all(b);
}

int rec_bpf_drain(struct rec_bpf *b)
{
	return drain_all(b);
}

int rec_bpf_drops(struct rec_bpf *b, int index, uint64_t *drops, uint64_t *note_drops)
{
	struct br_counters *vals = calloc(b->ncpus, sizeof(*vals));
	__u32 key = index;
	int cpu;

	if (!vals)
		return -1;
	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.counters), &key, vals) < 0) {
		free(vals);
		return -1;
	}
	*note_drops = 0;
	for (cpu = 0; cpu < b->ncpus; cpu++) {
		drops[cpu] = vals[cpu].drops;
		*note_drops += vals[cpu].note_drops;
	}
	free(vals);
	return 0;
}

int rec_bpf_stack_fds(struct rec_bpf *b, int *kfd, int *ufd)
{
	*kfd = bpf_map__fd(b->skel->maps.kstacks);
	*ufd = bpf_map__fd(b->skel->maps.ubids); /* the user stacks' build ids, by (stack, tgid) */
	return *kfd >= 0 && *ufd >= 0 ? 0 : -1;
}

int rec_bpf_attr_counts(struct rec_bpf *b, int index, uint64_t *lost, uint64_t *klost,
			uint64_t *ulost)
{
	struct br_counters *vals = calloc(b->ncpus, sizeof(*vals));
	__u32 key = index;
	int cpu;

	*lost = *klost = *ulost = 0;
	if (!vals)
		return -1;
	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.counters), &key, vals) < 0) {
		free(vals);
		return -1;
	}
	for (cpu = 0; cpu < b->ncpus; cpu++) {
		*lost += vals[cpu].attr_drops;
		*klost += vals[cpu].kstack_lost;
		*ulost += vals[cpu].ustack_lost;
	}
	free(vals);
	return 0;
}

int rec_bpf_completions(struct rec_bpf *b, int index, uint64_t *completions)
{
	struct br_counters *vals = calloc(b->ncpus, sizeof(*vals));
	__u32 key = index;
	int cpu;

	if (!vals)
		return -1;
	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.counters), &key, vals) < 0) {
		free(vals);
		return -1;
	}
	*completions = 0;
	for (cpu = 0; cpu < b->ncpus; cpu++)
		*completions += vals[cpu].completions;
	free(vals);
	return 0;
}

/*
 * Sum over our programs: events the kernel skipped because the program was
 * already running on that CPU, and (with kernel.bpf_stats_enabled) runs
 * and time spent.
 */
void rec_bpf_prog_stats(struct rec_bpf *b, uint64_t *misses, uint64_t *runs, uint64_t *run_ns)
{
	struct bpf_program *prog;

	*misses = *runs = *run_ns = 0;
	bpf_object__for_each_program(prog, b->skel->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len) < 0)
			continue;
		*misses += info.recursion_misses;
		*runs += info.run_cnt;
		*run_ns += info.run_time_ns;
	}
}

/* With kernel.bpf_stats_enabled: each program's runs and time per run. */
void rec_bpf_print_prog_stats(struct rec_bpf *b, FILE *f)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, b->skel->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len) < 0 || !info.run_cnt)
			continue;
		fprintf(f, "  %-16s %12llu runs %6.0f ns per run\n", bpf_program__name(prog),
			(unsigned long long)info.run_cnt, (double)info.run_time_ns / info.run_cnt);
	}
}

void rec_bpf_close(struct rec_bpf *b)
{
	if (!b)
		return;
	ring_buffer__free(b->wake);
	if (b->slots)
		munmap(b->slots, b->slots_len);
	if (b->ctl)
		munmap(b->ctl, b->ctl_len);
	blkrecord__destroy(b->skel);
	free(b);
}
