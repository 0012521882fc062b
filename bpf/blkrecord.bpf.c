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
 *
 * This file holds the configuration user space sets before load and the
 * programs; the machinery is in parts it includes, in this order, so that
 * everything is still one BPF object and one skeleton:
 *   blkkernel.bpf.h  reading the kernel's structures (dev_t, sector, errno)
 *   blkcats.bpf.h    the action's categories from an opf
 *   blkcgroup.bpf.h  a bio's cgroup and the --cgroup filter
 *   blkring.bpf.h    the per-CPU rings: reserve, commit, wake, counters
 *   blknote.bpf.h    PROCESS notes (a task's comm, once per run)
 *   blkevent.bpf.h   struct event and record(): an event becomes a record
 *   blkattr.bpf.h    --files / --stacks: the attribution slot after a Q
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

#include "blkkernel.bpf.h"
#include "blkcats.bpf.h"
#include "blkcgroup.bpf.h"
#include "blkring.bpf.h"
#include "blknote.bpf.h"
#include "blkevent.bpf.h"
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
 * --files/--stacks: one more slot after the Q (blkattr.bpf.h); gone from
 * the code when both are off.
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
