/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkkernel.bpf.h - what the kernel's structures say about an event, read
 * with CO-RE the way the kernel's blktrace reads them: the errno of a
 * status, the dev_t of a disk (older kernels' layouts probed), the sector
 * of a request, the categories of an op, the cgroup of a bio and whether
 * --cgroup selects it.  Included by blkrecord.bpf.c after the read-only
 * configuration it reads.
 */
#ifndef BLKSCOPE_BLKKERNEL_BPF_H
#define BLKSCOPE_BLKKERNEL_BPF_H

/* Old op numbers, for kernels whose enum req_opf still had SCSI ops. */
enum req_opf {
	REQ_OP_SCSI_IN = 32,
	REQ_OP_SCSI_OUT = 33,
};

/* The three op numbers blktrace compares literally (stable since 4.10). */
#define OP_FLUSH	2
#define OP_DISCARD	3
#define OP_SECURE_ERASE	5
#define OP_MASK		0xff

/* blk_errors[] of Linux 6.18, indexed by blk_status_t (docs/format.md §Errors). */
static const short status_errno[20] = {
	0, -95, -110, -28, -67, -121, -52, -61, -84, -12,
	-5, -78, -11, -16, -109, -75, -19, -62, 0, -22,
};

static __always_inline __u16 errno_of_status(__u32 status)
{
	if (status < 20)
		return (__u16)status_errno[status];
	return (__u16)-5;	/* the kernel WARNs and returns -EIO */
}

static __always_inline __u32 disk_devt(const struct gendisk *disk)
{
	if (!disk)
		return 0;
	return BS_MKDEV(disk->major, disk->first_minor);
}

/* Kernels before 5.17 had rq->rq_disk; 5.15 added q->disk. */
struct request___rq_disk {
	struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

struct request_queue___kobj {
	struct kobject kobj;
} __attribute__((preserve_access_index));

static __always_inline __u32 disk_devt_read(const struct gendisk *disk)
{
	if (!disk)
		return 0;
	return BS_MKDEV(BPF_CORE_READ(disk, major), BPF_CORE_READ(disk, first_minor));
}

/*
 * The disk of a request_queue (plug, unplug, bio_complete).  Before 5.15 a
 * queue had no disk pointer, but its kobject ("queue") always hangs under
 * the disk's struct device, which holds the dev_t.
 */
static __always_inline __u32 queue_disk_devt(struct request_queue *q)
{
	struct kobject *parent;
	struct device *dev;

	if (bpf_core_field_exists(struct request_queue, disk))
		return disk_devt(q->disk);
	parent = BPF_CORE_READ((struct request_queue___kobj *)q, kobj.parent);
	if (!parent)
		return 0;
	dev = (void *)parent - bpf_core_field_offset(struct device, kobj);
	return BPF_CORE_READ(dev, devt);
}

static __always_inline __u32 rq_disk_devt(struct request *rq)
{
	if (bpf_core_field_exists(struct request_queue, disk))
		return disk_devt(rq->q->disk);
	return disk_devt_read(BPF_CORE_READ((struct request___rq_disk *)rq, rq_disk));
}

static __always_inline __u32 bio_disk_devt(const struct bio *bio)
{
	struct block_device *bdev = bio->bi_bdev;

	return bdev ? disk_devt(bdev->bd_disk) : 0;
}

static __always_inline bool op_is_passthrough(__u32 op)
{
	if (op == 34 || op == 35)	/* REQ_OP_DRV_IN / REQ_OP_DRV_OUT */
		return true;
	if (bpf_core_enum_value_exists(enum req_opf, REQ_OP_SCSI_IN))
		return op == bpf_core_enum_value(enum req_opf, REQ_OP_SCSI_IN) ||
		       op == bpf_core_enum_value(enum req_opf, REQ_OP_SCSI_OUT);
	return false;
}

/* blk_rq_trace_sector() */
static __always_inline __u64 rq_trace_sector(const struct request *rq)
{
	__u64 sector = rq->__sector;

	if (op_is_passthrough(rq->cmd_flags & OP_MASK) || sector == (__u64)-1)
		return 0;
	return sector;
}

/* 1 if v is 0, else 0, without a branch (BPF has no set-on-condition) */
static __always_inline __u32 is_zero(__u32 v)
{
	__u64 x = (__u64)v - 1;	/* wraps to 2^64 - 1 for 0 alone */

	barrier_var(x);		/* kept as arithmetic: a compare would be a branch */
	return (__u32)(x >> 63);
}

/* 1 if the request flag is set in opf, else 0 */
#define FLAG_SET(opf, bit) (((opf) >> bpf_core_enum_value(enum req_flag_bits, bit)) & 1)

/*
 * The categories __blk_add_trace() derives from an opf (docs/format.md
 * §Categories from the request flags).  Computed without branches: each
 * branch here would double the paths the verifier walks through the rest
 * of record() (the action is compared later, so the paths do not merge),
 * which made loading the programs take seconds.
 */
static __always_inline __u32 opf_categories(__u32 opf)
{
	__u32 op = opf & OP_MASK;
	__u32 cats = BS_TC_READ << (op & 1);	/* odd ops write */

	cats |= FLAG_SET(opf, __REQ_SYNC) * BS_TC_SYNC;
	cats |= FLAG_SET(opf, __REQ_RAHEAD) * BS_TC_AHEAD;
	cats |= FLAG_SET(opf, __REQ_META) * BS_TC_META;
	cats |= FLAG_SET(opf, __REQ_PREFLUSH) * BS_TC_FLUSH;
	cats |= FLAG_SET(opf, __REQ_FUA) * BS_TC_FUA;
	cats |= (is_zero(op ^ OP_DISCARD) | is_zero(op ^ OP_SECURE_ERASE)) * BS_TC_DISCARD;
	cats |= is_zero(op ^ OP_FLUSH) * BS_TC_FLUSH;
	return BS_TC_ACT(cats);
}

/* cat's high-word bit if op is the running kernel's op_name, else 0 */
#define ZONE_CAT(op, op_name, cat) \
	(is_zero((op) ^ bpf_core_enum_value(enum req_op, op_name)) * BS_TC_HI(cat))

/*
 * The version-8 category of a zone operation or write-zeroes (6.19's
 * __blk_add_trace() maps each REQ_OP_ZONE_* to one), as its bit in the
 * action's high word, stashed at BR_HI_SHIFT.  Op numbers come from the
 * running kernel's enum req_op (they were renumbered over time).
 */
static __always_inline __u32 zone_stash(__u32 op)
{
	if (!zone_categories || !bpf_core_enum_value_exists(enum req_op, REQ_OP_ZONE_APPEND))
		return 0;
	/* the ops are distinct, so at most one term is not 0; no branches, as opf_categories() */
	return (ZONE_CAT(op, REQ_OP_ZONE_APPEND, BS_TC_ZONE_APPEND) |
		ZONE_CAT(op, REQ_OP_ZONE_RESET, BS_TC_ZONE_RESET) |
		ZONE_CAT(op, REQ_OP_ZONE_RESET_ALL, BS_TC_ZONE_RESET_ALL) |
		ZONE_CAT(op, REQ_OP_ZONE_FINISH, BS_TC_ZONE_FINISH) |
		ZONE_CAT(op, REQ_OP_ZONE_OPEN, BS_TC_ZONE_OPEN) |
		ZONE_CAT(op, REQ_OP_ZONE_CLOSE, BS_TC_ZONE_CLOSE) |
		ZONE_CAT(op, REQ_OP_WRITE_ZEROES, BS_TC_WRITE_ZEROES)) << BR_HI_SHIFT;
}

/*
 * The cgroup a bio is charged to (blk_trace_bio_get_cgid(): the css of
 * bio->bi_blkg's blkcg), NULL without one.  Writeback bios are charged to
 * the cgroup that dirtied the pages, not to the flusher thread's.
 */
static __always_inline struct cgroup *bio_cgroup(const struct bio *bio)
{
	struct blkcg_gq *blkg;

	if (!bio || !bpf_core_field_exists(struct bio, bi_blkg))
		return NULL;
	blkg = BPF_CORE_READ(bio, bi_blkg);
	if (!blkg)
		return NULL;
	return BPF_CORE_READ(blkg, blkcg, css.cgroup);
}

/*
 * Is cg the cgroup with id `id` at depth `level`, or below it?  Since 6.1 a
 * cgroup points at all its ancestors (ancestors[level]); before, walk up
 * the parents, at most CGROUP_WALK_MAX levels.
 */
#define CGROUP_WALK_MAX	16

static __always_inline bool cgroup_under(struct cgroup *cg, int cg_level, __u64 id, __u32 level)
{
	struct cgroup *anc = NULL;
	int i;

	if (cg_level < (int)level || level > 1024)
		return false;
	if (bpf_core_field_exists(struct cgroup, ancestors)) {
		bpf_core_read(&anc, sizeof(anc), &cg->ancestors[level]);
		return anc && BPF_CORE_READ(anc, kn, id) == id;
	}
	anc = cg;
	for (i = 0; i < CGROUP_WALK_MAX && anc; i++) {
		if (i == cg_level - (int)level)
			return BPF_CORE_READ(anc, kn, id) == id;
		anc = BPF_CORE_READ(anc, self.parent, cgroup);
	}
	return false;
}

/* --cgroup: any of the selected subtrees; events without a cgroup never. */
static __always_inline bool cgroup_selected(struct cgroup *cg)
{
	int i, level;

	if (!cg)
		return false;
	level = BPF_CORE_READ(cg, level);
	for (i = 0; i < BR_MAX_CGROUPS; i++) {
		if (i >= ncgroups)
			break;
		if (cgroup_under(cg, level, cgroup_id[i], cgroup_level[i]))
			return true;
	}
	return false;
}

#define WANT_CGROUP	(cgroup_ids || ncgroups)

#endif /* BLKSCOPE_BLKKERNEL_BPF_H */
