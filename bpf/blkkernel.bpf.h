/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkkernel.bpf.h - what the kernel's structures say, across kernel
 * versions: the op numbers blktrace compares, the errno of a blk_status_t,
 * the whole disk's dev_t of a request, a bio or a queue, and a request's
 * trace sector.  Part of blkrecord.bpf.c (included there, in order).
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

#endif /* BLKSCOPE_BLKKERNEL_BPF_H */
