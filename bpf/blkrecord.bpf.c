// SPDX-License-Identifier: GPL-2.0
/*
 * blkrecord.bpf.c - the kernel side of `blkscope record`.
 *
 * One tp_btf program per block tracepoint that kernel/trace/blktrace.c
 * probes.  Each builds the complete 48-byte blktrace v7 record (plus PDU)
 * the way __blk_add_trace() does, straight into a per-CPU ring of fixed
 * slots that user space maps, so user space only has to sort records into
 * files.
 * See docs/format.md §What the kernel records (categories, filters,
 * per-tracepoint fields, notes, sequence, attach points).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "bs_defs.h"
#include "blkrecord.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load. */
const volatile __u32 self_tgid;		/* the recorder's own process */
const volatile bool trace_self;		/* record the recorder's own I/O too */
const volatile __u64 generation = 1;	/* PROCESS-note generation of this run */
const volatile __u32 wakeup_mask = (1 << 14) - 1;	/* wake the reader every mask+1 events */
const volatile __u32 slot_shift = 16;	/* log2(slots per CPU) */
const volatile __u32 slot_mask = (1 << 16) - 1;
const volatile bool rq_complete_errno_arg;	/* old kernels pass an errno */
const volatile bool zone_categories;	/* --format 8: stash v8 categories (BR_HI_SHIFT) */

/*
 * --cgroup-ids: prefix each event that has a bio with its blkcg's cgroup
 * id, as the kernel's `blk_cgroup` tracer option does.  --cgroup PATH:
 * keep only events whose bio's cgroup is cgroup_id[i] or below it, i.e.
 * whose ancestor at cgroup_level[i] is that cgroup.
 */
const volatile bool cgroup_ids;
const volatile __u32 ncgroups;
const volatile __u64 cgroup_id[BR_MAX_CGROUPS];
const volatile __u32 cgroup_level[BR_MAX_CGROUPS];

/*
 * The traces: whole-disk dev_t -> configuration, in read-only data so that
 * the verifier sees constants: an untraced disk costs a compare or two, and
 * filters that are off are compiled away.
 */
const volatile __u32 ntraces;
const volatile __u32 trace_disk[BR_MAX_TRACES];
const volatile struct br_trace_cfg trace_cfg[BR_MAX_TRACES];

/*
 * One ring per CPU, so every CPU's stream stays in order: fixed 64-byte
 * slots in an mmapable array (blkrecord.h).  Reserving a slot is one
 * compare-and-swap on this CPU's `prod` and committing it one store, all
 * inline: a BPF ring buffer's reserve and submit helpers (a lock with
 * interrupts off, two calls) cost about as much as the rest of the program.
 */
struct slot {
	struct bs_trace t;
	__u8 pdu[BR_SLOT_PDU_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);		/* resized: possible CPUs << slot_shift */
	__type(key, __u32);
	__type(value, struct slot);
} slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);		/* resized to the number of possible CPUs */
	__type(key, __u32);
	__type(value, struct br_ring_ctl);
} ring_ctl SEC(".maps");

/* Only to wake the reader: one tiny note every wakeup_mask + 1 events. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} wake SEC(".maps");

/* Per trace, per CPU: drops and completions (the sequence numbers are in ring_ctl). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BR_MAX_TRACES);
	__type(key, __u32);
	__type(value, struct br_counters);
} counters SEC(".maps");

/* The generation in which each task last announced its comm. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} announced SEC(".maps");

#include "blkkernel.bpf.h"

/* One event as the tracepoint describes it, before filtering. */
struct event {
	__u64 sector;
	__u32 bytes;
	__u32 opf;
	__u32 action;		/* BS_ACT_* */
	__u16 error;
	bool rq_path;		/* blk_add_trace_rq(): adds FS or PC */
	bool completion;	/* runs in interrupt context: `current` is anyone */
	__u64 pdu64;		/* U/UT depth, X new sector (host order) */
	__u32 remap_from_dev;	/* A: device_from, device_to, sector_from */
	__u32 remap_to_dev;
	__u64 remap_from_sector;
	struct cgroup *cg;	/* the bio's cgroup (only if WANT_CGROUP) */
};

/*
 * Take the next free slot of this CPU's ring, or NULL if the ring is full.
 * A program that interrupted us on this CPU between our read of `prod` and
 * the compare-and-swap took that slot; then we try the next one.
 */
static __always_inline struct bs_trace *ring_reserve(struct br_ring_ctl *ctl, __u32 cpu)
{
	__u64 pos;
	__u32 idx;
	int i;

	for (i = 0; i < 4; i++) {
		pos = ctl->prod;
		if (pos - *(volatile __u64 *)&ctl->cons > slot_mask)
			return NULL;
		if (__sync_val_compare_and_swap(&ctl->prod, pos, pos + 1) == pos) {
			idx = (cpu << slot_shift) | ((__u32)pos & slot_mask);
			return bpf_map_lookup_elem(&slots, &idx);
		}
	}
	return NULL;
}

/*
 * Publish a filled slot: magic and sequence, the record's first 8 bytes,
 * are written last, in one store.  x86 keeps stores in program order, so a
 * compiler barrier is enough there; elsewhere an exchange orders the record
 * before them.
 */
static __always_inline void ring_commit_magic(struct bs_trace *t, __u32 magic, __u32 seq)
{
	union {
		struct {
			__u32 magic;
			__u32 sequence;
		} f;
		__u64 w;
	} head = { .f = { magic, seq } };

#ifdef __TARGET_ARCH_x86
	asm volatile("" ::: "memory");
	*(volatile __u64 *)t = head.w;
#else
	__sync_lock_test_and_set((__u64 *)t, head.w);
#endif
}

static __always_inline void ring_commit(struct bs_trace *t, __u32 seq)
{
	ring_commit_magic(t, BS_TRACE_MAGIC_V7, seq);
}

/*
 * Wake the reader once every wakeup_mask + 1 events of a trace on this CPU
 * (a quarter of the ring's worth at the smallest record size), never per
 * record: the reader polls every 100 ms anyway and finds the rest then.
 * Counting on the sequence number we already have costs an AND.
 */
static __always_inline void maybe_wake(__u32 seq, __u32 cpu)
{
	if (!(seq & wakeup_mask))
		bpf_ringbuf_output(&wake, &cpu, sizeof(cpu), BPF_RB_FORCE_WAKEUP);
}

/*
 * trace_note_tsk(): the first time a task produces a recorded event in this
 * run, put its comm into the same CPU ring, right before the event.
 */
static __always_inline void announce_task(struct br_ring_ctl *ring,
					  const volatile struct br_trace_cfg *cfg, __u32 idx,
					  struct task_struct *task, __u32 pid, __u32 cpu)
{
	struct br_counters *cnt;
	struct bs_trace *t;
	__u64 *seen, old;

	/*
	 * Consecutive events on a CPU mostly come from one task, and this check
	 * is much cheaper than the task storage lookup.  The pid is compared
	 * too, because a new task can get a freed task_struct's address.
	 */
	if (ring->last_task == (__u64)task && ring->last_pid == pid)
		return;
	seen = bpf_task_storage_get(&announced, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (seen) {
		old = *seen;
		if (old == generation)
			goto remember;
		/* a nested program on this CPU may have claimed it first */
		if (__sync_val_compare_and_swap(seen, old, generation) != old)
			return;
	}

	t = ring_reserve(ring, cpu);
	if (!t) {
		if (seen)
			*seen = 0;	/* retry on this task's next event */
		cnt = bpf_map_lookup_elem(&counters, &idx);
		if (cnt)
			__sync_fetch_and_add(&cnt->note_drops, 1);
		return;
	}
	t->time = bpf_ktime_get_ns();
	t->sector = 0;
	t->bytes = 0;
	t->action = BS_NOTE_PROCESS;
	t->pid = pid;
	t->device = cfg->trace_dev;
	t->cpu = cpu;
	t->error = 0;
	t->pdu_len = BS_COMM_LEN;
	bpf_get_current_comm(t + 1, BS_COMM_LEN);
	ring_commit(t, 0);
	if (!seen)
		return;		/* no storage: announce again next time */
remember:
	ring->last_task = (__u64)task;
	ring->last_pid = pid;
}

/*
 * The PDU after the header: the cgroup id first when asked for, then the
 * event's own payload (pdu_len as in record()).
 */
static __always_inline void fill_pdu(struct bs_trace *t, const struct event *ev, __u32 action,
				     __u64 cgid, const int pdu_len)
{
	__u8 *pdu = (__u8 *)(t + 1);

	if (action & BS_TA_CGROUP) {
		/* the id first, host order, counted in pdu_len (docs/format.md) */
		*(__u64 *)pdu = cgid;
		t->pdu_len = pdu_len + BS_CGROUP_LEN;
		if (pdu_len == sizeof(struct bs_trace_remap)) {
			/*
			 * 24 bytes do not fit a slot: device_to is always the
			 * trace's whole disk, and the cpu field is the ring's,
			 * so device_from rides in the cpu field and user space
			 * rebuilds the PDU (record/main.c:unpack_remap()).
			 */
			t->cpu = ev->remap_from_dev;
			*(__u64 *)(pdu + 8) = bpf_cpu_to_be64(ev->remap_from_sector);
			return;
		}
		pdu += BS_CGROUP_LEN;
	}
	if (pdu_len == 8) {
		*(__u64 *)pdu = bpf_cpu_to_be64(ev->pdu64);
	} else if (pdu_len == sizeof(struct bs_trace_remap)) {
		struct bs_trace_remap *r = (void *)pdu;

		r->device_from = bpf_htonl(ev->remap_from_dev);
		r->device_to = bpf_htonl(ev->remap_to_dev);
		r->sector_from = bpf_cpu_to_be64(ev->remap_from_sector);
	}
}

/* What a recorded Q leaves for its attribution slot (--files, --stacks: blkattr.bpf.h). */
struct qmark {
	struct br_ring_ctl *ring;
	__u64 time;
	__u32 seq, cpu, device, idx;
};

/*
 * __blk_add_trace(): compose the action word, apply the trace's filters,
 * announce the task if needed, reserve, number, then write header and PDU
 * (pdu_len is a constant at every call site, at most BR_SLOT_PDU_MAX).
 */
static __always_inline int record(__u32 disk, struct event *ev, const int pdu_len, struct qmark *qm)
{
	const volatile struct br_trace_cfg *cfg;
	struct task_struct *task;
	struct br_counters *cnt;
	struct bs_trace *t;
	__u32 action, cpu, pid, idx;
	__u32 seq;
	struct br_ring_ctl *ring;
	struct cgroup *cg;
	__u64 cgid = 0;

	for (idx = 0; idx < BR_MAX_TRACES; idx++) {
		if (idx >= ntraces)
			return 0;
		if (trace_disk[idx] == disk)
			break;
	}
	if (idx >= BR_MAX_TRACES)
		return 0;
	cfg = &trace_cfg[idx];

	/* one helper call for pid, tgid and the PROCESS-note check below */
	task = bpf_get_current_task_btf();
	pid = task->pid;
	/*
	 * The recorder's own I/O (all its threads, io_uring workers included,
	 * share its tgid).  Not for completions: they run in interrupt context,
	 * where `current` is whichever task was interrupted, and the per-CPU
	 * preempt count that would tell is not visible to BPF on every kernel.
	 */
	if (!trace_self && !ev->completion && (__u32)task->tgid == self_tgid)
		return 0;

	action = ev->action | opf_categories(ev->opf) | zone_stash(ev->opf & OP_MASK);
	if (ev->rq_path)
		action |= BS_TC_ACT(op_is_passthrough(ev->opf & OP_MASK) ? BS_TC_PC : BS_TC_FS);

	/* act_log_check() */
	if (!(((__u32)cfg->act_mask << BS_TC_SHIFT) & action))
		return 0;
	if (ev->sector && (ev->sector < cfg->start_lba || ev->sector > cfg->end_lba))
		return 0;
	if (cfg->pid && pid != cfg->pid)
		return 0;
	cg = ev->cg;
	if (ncgroups && !cgroup_selected(cg))
		return 0;
	if (cgroup_ids && cg) {
		cgid = BPF_CORE_READ(cg, kn, id);
		action |= BS_TA_CGROUP;
	}

	cpu = bpf_get_smp_processor_id();
	ring = bpf_map_lookup_elem(&ring_ctl, &cpu);
	if (!ring)
		return 0;

	announce_task(ring, cfg, idx, task, pid, cpu);

	/*
	 * Reserve first, then number, as the kernel does.  An interrupt that
	 * records between our reserve and our clock read lands after us in the
	 * ring but before us in time; the reader cannot see it before we commit,
	 * so both arrive in the same drain pass and user space restores time
	 * and sequence order (record/stage.c).  A failed reserve still uses up
	 * its number, so each drop is a visible gap (6.19 semantics, docs/format.md
	 * §Time, sequence, CPU, device).
	 */
	t = ring_reserve(ring, cpu);
	seq = (__u32)__sync_fetch_and_add(&ring->seq[idx & (BR_MAX_TRACES - 1)], 1) + 1;
	/*
	 * Some kernels do not run tracepoint programs at all while certain
	 * tasks are current, also in a softirq that interrupted them: those
	 * completions never get here (no recursion miss, no gap).  Counting
	 * the ones that did (recorded or dropped) lets user space measure the
	 * rest against the disk's own completion count (record/cstat.c).
	 */
	if ((ev->completion && ev->rq_path) || !t) {
		cnt = bpf_map_lookup_elem(&counters, &idx);
		if (cnt && ev->completion && ev->rq_path)
			__sync_fetch_and_add(&cnt->completions, 1);
		if (cnt && !t)
			__sync_fetch_and_add(&cnt->drops, 1);
		if (!t)
			return 0;
	}
	t->time = bpf_ktime_get_ns();
	t->sector = ev->sector;
	t->bytes = ev->bytes;
	t->action = action;
	t->pid = pid;
	t->device = cfg->trace_dev;
	t->cpu = cpu;
	t->error = ev->error;
	t->pdu_len = pdu_len;
	fill_pdu(t, ev, action, cgid, pdu_len);
	ring_commit(t, seq);
	maybe_wake(seq, cpu);
	if (qm) {	/* a Q that --files/--stacks attribute (constant NULL elsewhere) */
		qm->ring = ring;
		qm->time = t->time;
		qm->seq = seq;
		qm->cpu = cpu;
		qm->device = cfg->trace_dev;
		qm->idx = idx;
	}
	return 0;
}

/* blk_add_trace_rq(): request events carry FS or PC and never a PDU. */
static __always_inline int rq_event(struct request *rq, __u32 action)
{
	struct event ev = {
		.sector = rq_trace_sector(rq),
		.bytes = rq->__data_len,
		.opf = rq->cmd_flags,
		.action = action,
		.rq_path = true,
	};

	if (WANT_CGROUP)
		ev.cg = bio_cgroup(rq->bio);
	return record(rq_disk_devt(rq), &ev, 0, NULL);
}

/* blk_add_trace_bio(): bio events, no FS/PC; qm: see record(). */
static __always_inline int bio_event_q(struct bio *bio, __u32 disk, __u32 action, __u16 error,
				       struct qmark *qm)
{
	struct event ev = {
		.sector = bio->bi_iter.bi_sector,
		.bytes = bio->bi_iter.bi_size,
		.opf = bio->bi_opf,
		.action = action,
		.error = error,
	};

	if (WANT_CGROUP)
		ev.cg = bio_cgroup(bio);
	return record(disk, &ev, 0, qm);
}

static __always_inline int bio_event(struct bio *bio, __u32 disk, __u32 action, __u16 error)
{
	return bio_event_q(bio, disk, action, error, NULL);
}

#include "blkattr.bpf.h"

SEC("tp_btf/block_rq_insert")
int BPF_PROG(rq_insert, struct request *rq)
{
	return rq_event(rq, BS_ACT_INSERT);
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(rq_issue, struct request *rq)
{
	return rq_event(rq, BS_ACT_ISSUE);
}

/* attempt_merge(): always "M", even for front merges */
SEC("tp_btf/block_rq_merge")
int BPF_PROG(rq_merge, struct request *rq)
{
	return rq_event(rq, BS_ACT_BACKMERGE);
}

SEC("tp_btf/block_rq_requeue")
int BPF_PROG(rq_requeue, struct request *rq)
{
	return rq_event(rq, BS_ACT_REQUEUE);
}

/* Completion: bytes is the nr_bytes argument, sector the position before it. */
SEC("tp_btf/block_rq_complete")
int BPF_PROG(rq_complete, struct request *rq, u64 status, unsigned int nr_bytes)
{
	struct event ev = {
		.sector = rq_trace_sector(rq),
		.bytes = nr_bytes,
		.opf = rq->cmd_flags,
		.action = BS_ACT_COMPLETE,
		.rq_path = true,
		.completion = true,
	};

	if (rq_complete_errno_arg)
		ev.error = (__u16)(int)status;
	else
		ev.error = errno_of_status((__u8)status);
	if (WANT_CGROUP)
		ev.cg = bio_cgroup(rq->bio);
	return record(rq_disk_devt(rq), &ev, 0, NULL);
}

SEC("tp_btf/block_bio_complete")
int BPF_PROG(bio_complete, struct request_queue *q, struct bio *bio)
{
	struct event ev = {
		.sector = bio->bi_iter.bi_sector,
		.bytes = bio->bi_iter.bi_size,
		.opf = bio->bi_opf,
		.action = BS_ACT_COMPLETE,
		.error = errno_of_status(bio->bi_status),
		.completion = true,
	};

	if (WANT_CGROUP)
		ev.cg = bio_cgroup(bio);
	return record(queue_disk_devt(q), &ev, 0, NULL);
}

SEC("tp_btf/block_bio_backmerge")
int BPF_PROG(bio_backmerge, struct bio *bio)
{
	return bio_event(bio, bio_disk_devt(bio), BS_ACT_BACKMERGE, 0);
}

SEC("tp_btf/block_bio_frontmerge")
int BPF_PROG(bio_frontmerge, struct bio *bio)
{
	return bio_event(bio, bio_disk_devt(bio), BS_ACT_FRONTMERGE, 0);
}

/*
 * --files/--stacks: one more slot after the Q (blkattr.bpf.h); gone from the code when both are off
 */
SEC("tp_btf/block_bio_queue")
int BPF_PROG(bio_queue, struct bio *bio)
{
	struct qmark qm = { .ring = NULL };

	if (!attr_files && !attr_stacks)
		return bio_event(bio, bio_disk_devt(bio), BS_ACT_QUEUE, 0);
	bio_event_q(bio, bio_disk_devt(bio), BS_ACT_QUEUE, 0, &qm);
	if (qm.ring)
		attr_emit(ctx, bio, &qm);
	return 0;
}

SEC("tp_btf/block_getrq")
int BPF_PROG(getrq, struct bio *bio)
{
	return bio_event(bio, bio_disk_devt(bio), BS_ACT_GETRQ, 0);
}

/* Plug and unplug pass opf 0, hence the READ category. */
SEC("tp_btf/block_plug")
int BPF_PROG(plug, struct request_queue *q)
{
	struct event ev = { .action = BS_ACT_PLUG };

	return record(queue_disk_devt(q), &ev, 0, NULL);
}

/* explicit = !from_schedule: UT means "flushed from schedule()" */
SEC("tp_btf/block_unplug")
int BPF_PROG(unplug, struct request_queue *q, unsigned int depth, bool explicit)
{
	struct event ev = {
		.action = explicit ? BS_ACT_UNPLUG_IO : BS_ACT_UNPLUG_TIMER,
		.pdu64 = depth,
	};

	return record(queue_disk_devt(q), &ev, 8, NULL);
}

/*
 * Zone write plugging (6.19, version-8 traces only): a bio is held in its
 * zone's plug (ZP) and later released (ZU).  Loaded only for --format 8 on
 * kernels with these tracepoints.  No op flags are passed, so, like plug
 * and unplug, they carry READ; sector and bytes describe the bio.
 */
SEC("tp_btf/disk_zone_wplug_add_bio")
int BPF_PROG(zone_plug, struct request_queue *q, unsigned int zno, sector_t sector,
	     unsigned int nr_sectors)
{
	struct event ev = {
		.sector = sector,
		.bytes = nr_sectors << 9,
		.action = BS_ACT_ZONE_PLUG,
	};

	return record(queue_disk_devt(q), &ev, 0, NULL);
}

SEC("tp_btf/blk_zone_wplug_bio")
int BPF_PROG(zone_unplug, struct request_queue *q, unsigned int zno, sector_t sector,
	     unsigned int nr_sectors)
{
	struct event ev = {
		.sector = sector,
		.bytes = nr_sectors << 9,
		.action = BS_ACT_ZONE_UNPLUG,
	};

	return record(queue_disk_devt(q), &ev, 0, NULL);
}

/* The split-off front bio; the PDU is where the remainder starts (32-bit). */
SEC("tp_btf/block_split")
int BPF_PROG(split, struct bio *bio, unsigned int new_sector)
{
	struct event ev = {
		.sector = bio->bi_iter.bi_sector,
		.bytes = bio->bi_iter.bi_size,
		.opf = bio->bi_opf,
		.action = BS_ACT_SPLIT,
		.error = errno_of_status(bio->bi_status),
		.pdu64 = new_sector,
	};

	if (WANT_CGROUP)
		ev.cg = bio_cgroup(bio);
	return record(bio_disk_devt(bio), &ev, 8, NULL);
}

SEC("tp_btf/block_bio_remap")
int BPF_PROG(bio_remap, struct bio *bio, dev_t dev, sector_t from)
{
	__u32 disk = bio_disk_devt(bio);
	struct event ev = {
		.sector = bio->bi_iter.bi_sector,
		.bytes = bio->bi_iter.bi_size,
		.opf = bio->bi_opf,
		.action = BS_ACT_REMAP,
		.error = errno_of_status(bio->bi_status),
		.remap_from_dev = dev,
		.remap_to_dev = disk,
		.remap_from_sector = from,
	};

	if (WANT_CGROUP)
		ev.cg = bio_cgroup(bio);
	return record(disk, &ev, sizeof(struct bs_trace_remap), NULL);
}

/* dm-rq: blk_rq_pos() rather than the trace sector, and no FS/PC. */
SEC("tp_btf/block_rq_remap")
int BPF_PROG(rq_remap, struct request *rq, dev_t dev, sector_t from)
{
	__u32 disk = rq_disk_devt(rq);
	struct event ev = {
		.sector = rq->__sector,
		.bytes = rq->__data_len,
		.opf = rq->cmd_flags,
		.action = BS_ACT_REMAP,
		.remap_from_dev = dev,
		.remap_to_dev = disk,
		.remap_from_sector = from,
	};

	if (WANT_CGROUP)
		ev.cg = bio_cgroup(rq->bio);
	return record(disk, &ev, sizeof(struct bs_trace_remap), NULL);
}
