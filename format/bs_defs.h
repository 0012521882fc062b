/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_defs.h - the blktrace binary format, versions 7 and 8: record layouts,
 * action words, categories, notify codes and PDU layouts.
 *
 * This is blkscope's own definition of the format (see docs/format.md
 * §Record layout, §Actions, §PDUs, §Versions 7 and 8); it does not
 * include the system's
 * <linux/blktrace_api.h>.  Every name carries a BS_/bs_ prefix so that the
 * header can be included next to vmlinux.h in BPF programs, which already
 * define the kernel's struct blk_io_trace and enum blktrace_act.
 */
#ifndef BLKSCOPE_BS_DEFS_H
#define BLKSCOPE_BS_DEFS_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#define BS_TRACE_MAGIC		0x65617400u	/* "eat" in the top 24 bits */
#define BS_TRACE_MAGIC_MASK	0xffffff00u
#define BS_TRACE_VERSION	0x07
#define BS_TRACE_MAGIC_V7	(BS_TRACE_MAGIC | BS_TRACE_VERSION)
#define BS_TRACE_VERSION8	0x08
#define BS_TRACE_MAGIC_V8	(BS_TRACE_MAGIC | BS_TRACE_VERSION8)

/* One record: 48 bytes, no padding; pdu_len payload bytes follow. */
struct bs_trace {
	__u32 magic;		/* BS_TRACE_MAGIC | version */
	__u32 sequence;		/* per-CPU event number, from 1; notes 0 */
	__u64 time;		/* ns */
	__u64 sector;		/* 512-byte sectors */
	__u32 bytes;
	__u32 action;		/* (categories << 16) | basic action */
	__u32 pid;
	__u32 device;		/* kernel dev_t: major << 20 | minor */
	__u32 cpu;
	__u16 error;		/* (u16) negative errno */
	__u16 pdu_len;
};

#define BS_TRACE_SIZE 48
_Static_assert(sizeof(struct bs_trace) == BS_TRACE_SIZE, "blk_io_trace is 48 bytes");

/*
 * Version 8 (Linux 6.19+, struct blk_io_trace2): 64 bytes, pid BEFORE a
 * 64-bit action, 12 pad bytes at the end (not cleared by the kernel).
 * blkscope decodes it into struct bs_trace (the low 32 bits of the action,
 * which hold everything version 7 has) plus the high 32 bits ("action_hi",
 * the zone categories) carried next to it; see bs_codec.h.
 */
struct bs_trace2 {
	__u32 magic;		/* BS_TRACE_MAGIC | 8 (7 in current blkparse's dumps of v7 input) */
	__u32 sequence;
	__u64 time;
	__u64 sector;
	__u32 bytes;
	__u32 pid;
	__u64 action;		/* (categories << 16) | basic action; categories up to bit 22 */
	__u32 device;
	__u32 cpu;
	__u16 error;
	__u16 pdu_len;
	__u8 pad[12];
} __attribute__((packed));

#define BS_TRACE2_SIZE 64

/* Was the record whose decoded header is t read from a version-8 file? */
static inline int bs_trace_is_v8(const struct bs_trace *t)
{
	return t->magic == BS_TRACE_MAGIC_V8;
}
_Static_assert(sizeof(struct bs_trace2) == BS_TRACE2_SIZE, "blk_io_trace2 is 64 bytes");

/* Categories, stored in the top 16 bits of action (BLK_TC_*). */
enum bs_category {
	BS_TC_READ	= 1 << 0,
	BS_TC_WRITE	= 1 << 1,
	BS_TC_FLUSH	= 1 << 2,
	BS_TC_SYNC	= 1 << 3,
	BS_TC_QUEUE	= 1 << 4,
	BS_TC_REQUEUE	= 1 << 5,
	BS_TC_ISSUE	= 1 << 6,
	BS_TC_COMPLETE	= 1 << 7,
	BS_TC_FS	= 1 << 8,
	BS_TC_PC	= 1 << 9,
	BS_TC_NOTIFY	= 1 << 10,
	BS_TC_AHEAD	= 1 << 11,
	BS_TC_META	= 1 << 12,
	BS_TC_DISCARD	= 1 << 13,
	BS_TC_DRV_DATA	= 1 << 14,
	BS_TC_FUA	= 1 << 15,
};

#define BS_TC_SHIFT	16
#define BS_TC_ACT(cat)	((__u32)(cat) << BS_TC_SHIFT)
#define BS_TC_ALL	0xffffu

/*
 * Version-8 categories beyond bit 15.  In the 64-bit action they sit at
 * bits 32.., so they are bits of action_hi: BS_TC_HI(cat) is that bit.
 * The kernel sets exactly one of the zone categories on a zone operation,
 * next to WRITE (zone ops have odd REQ_OP numbers).
 */
enum bs_category2 {
	BS_TC_ZONE_APPEND	= 1 << 16,
	BS_TC_ZONE_RESET	= 1 << 17,
	BS_TC_ZONE_RESET_ALL	= 1 << 18,
	BS_TC_ZONE_FINISH	= 1 << 19,
	BS_TC_ZONE_OPEN		= 1 << 20,
	BS_TC_ZONE_CLOSE	= 1 << 21,
	BS_TC_WRITE_ZEROES	= 1 << 22,	/* 6.19; current blkparse has no letter for it */
};

#define BS_TC_HI(cat)		((__u32)(cat) >> 16)
#define BS_TC_ZONE_MASK_HI                                                                         \
	BS_TC_HI(BS_TC_ZONE_APPEND | BS_TC_ZONE_RESET | BS_TC_ZONE_RESET_ALL | BS_TC_ZONE_FINISH | \
		 BS_TC_ZONE_OPEN | BS_TC_ZONE_CLOSE)
/* every bit of action_hi a valid record may carry */
#define BS_TC_VALID_HI		(BS_TC_ZONE_MASK_HI | BS_TC_HI(BS_TC_WRITE_ZEROES))

/* Basic actions, the low 16 bits of action (__BLK_TA_*). */
enum bs_basic_action {
	BS_TA_QUEUE = 1,
	BS_TA_BACKMERGE,
	BS_TA_FRONTMERGE,
	BS_TA_GETRQ,
	BS_TA_SLEEPRQ,
	BS_TA_REQUEUE,
	BS_TA_ISSUE,
	BS_TA_COMPLETE,
	BS_TA_PLUG,
	BS_TA_UNPLUG_IO,
	BS_TA_UNPLUG_TIMER,
	BS_TA_INSERT,
	BS_TA_SPLIT,
	BS_TA_BOUNCE,
	BS_TA_REMAP,
	BS_TA_ABORT,
	BS_TA_DRV_DATA,
	BS_TA_ZONE_PLUG,	/* 18, v8 only: a bio added to a zone write plug */
	BS_TA_ZONE_UNPLUG,	/* 19, v8 only: a bio leaves the zone write plug */
	BS_TA_ZONE_MGMT,	/* 20, userspace header only; no kernel emits it */
};

/* Flag in the low 16 bits: the PDU starts with a 64-bit cgroup id. */
#define BS_TA_CGROUP	(1u << 8)

/* Notify codes, always with BS_TC_NOTIFY (__BLK_TN_*). */
enum bs_notify {
	BS_TN_PROCESS = 0,	/* PDU: 16-byte comm */
	BS_TN_TIMESTAMP,	/* PDU: u32 tv_sec, u32 tv_nsec, native order */
	BS_TN_MESSAGE,		/* PDU: text, no NUL */
};

/* Complete action words as the kernel composes them (BLK_TA_*, BLK_TN_*). */
#define BS_ACT_QUEUE		(BS_TA_QUEUE | BS_TC_ACT(BS_TC_QUEUE))
#define BS_ACT_BACKMERGE	(BS_TA_BACKMERGE | BS_TC_ACT(BS_TC_QUEUE))
#define BS_ACT_FRONTMERGE	(BS_TA_FRONTMERGE | BS_TC_ACT(BS_TC_QUEUE))
#define BS_ACT_GETRQ		(BS_TA_GETRQ | BS_TC_ACT(BS_TC_QUEUE))
#define BS_ACT_SLEEPRQ		(BS_TA_SLEEPRQ | BS_TC_ACT(BS_TC_QUEUE))
#define BS_ACT_REQUEUE		(BS_TA_REQUEUE | BS_TC_ACT(BS_TC_REQUEUE))
#define BS_ACT_ISSUE		(BS_TA_ISSUE | BS_TC_ACT(BS_TC_ISSUE))
#define BS_ACT_COMPLETE		(BS_TA_COMPLETE | BS_TC_ACT(BS_TC_COMPLETE))
#define BS_ACT_PLUG		(BS_TA_PLUG | BS_TC_ACT(BS_TC_QUEUE))
#define BS_ACT_UNPLUG_IO	(BS_TA_UNPLUG_IO | BS_TC_ACT(BS_TC_QUEUE))
#define BS_ACT_UNPLUG_TIMER	(BS_TA_UNPLUG_TIMER | BS_TC_ACT(BS_TC_QUEUE))
#define BS_ACT_INSERT		(BS_TA_INSERT | BS_TC_ACT(BS_TC_QUEUE))
#define BS_ACT_SPLIT		(BS_TA_SPLIT)
#define BS_ACT_BOUNCE		(BS_TA_BOUNCE)
#define BS_ACT_REMAP		(BS_TA_REMAP | BS_TC_ACT(BS_TC_QUEUE))
#define BS_ACT_ABORT		(BS_TA_ABORT | BS_TC_ACT(BS_TC_QUEUE))
#define BS_ACT_DRV_DATA		(BS_TA_DRV_DATA | BS_TC_ACT(BS_TC_DRV_DATA))
#define BS_ACT_ZONE_PLUG	(BS_TA_ZONE_PLUG | BS_TC_ACT(BS_TC_QUEUE))
#define BS_ACT_ZONE_UNPLUG	(BS_TA_ZONE_UNPLUG | BS_TC_ACT(BS_TC_QUEUE))

#define BS_NOTE_PROCESS		(BS_TN_PROCESS | BS_TC_ACT(BS_TC_NOTIFY))
#define BS_NOTE_TIMESTAMP	(BS_TN_TIMESTAMP | BS_TC_ACT(BS_TC_NOTIFY))
#define BS_NOTE_MESSAGE		(BS_TN_MESSAGE | BS_TC_ACT(BS_TC_NOTIFY))

#define BS_COMM_LEN	16	/* PROCESS note payload: TASK_COMM_LEN */
#define BS_CGROUP_LEN	8	/* cgroup id prefix of a PDU */

/* PDU of REMAP events; every field big-endian. */
struct bs_trace_remap {
	__u32 device_from;
	__u32 device_to;
	__u64 sector_from;
};

/* Kernel dev_t encoding (MINORBITS 20), not glibc's makedev(). */
#define BS_MINORBITS		20
#define BS_MINORMASK		((1u << BS_MINORBITS) - 1)
#define BS_DEV_MAJOR(dev)	((unsigned int)((dev) >> BS_MINORBITS))
#define BS_DEV_MINOR(dev)	((unsigned int)((dev) & BS_MINORMASK))
#define BS_MKDEV(ma, mi)	(((__u32)(ma) << BS_MINORBITS) | (__u32)(mi))

static inline unsigned int bs_act_basic(__u32 action)
{
	return action & 0xffff;
}

static inline unsigned int bs_act_cats(__u32 action)
{
	return action >> BS_TC_SHIFT;
}

static inline int bs_is_note(__u32 action)
{
	return (action & BS_TC_ACT(BS_TC_NOTIFY)) != 0;
}

/*
 * What kind of I/O a bio is (record --files; docs/record.md, "Files"):
 * the class says it even where no file applies.  format/bs_attr.h has
 * the side files that carry it.
 */
enum bs_fclass {
	BS_FC_UNKNOWN,	/* no attribution record (not recorded with --files, or lost) */
	BS_FC_CACHE,	/* page-cache pages of a file: buffered read, readahead, writeback, mmap */
	/* direct I/O of a file (file 0: a filesystem whose direct I/O we cannot see) */
	BS_FC_DIRECT,
	BS_FC_METADATA,	/* filesystem metadata (block-device pages of a mounted device, REQ_META) */
	BS_FC_JOURNAL,	/* the filesystem's journal (jbd2) */
	BS_FC_SWAP,	/* swap in or out */
	BS_FC_RAW,	/* the block device itself: not mounted, or opened with O_DIRECT */
	BS_FC_NODATA,	/* no data: flush, discard, write-zeroes, an empty bio */
	BS_FC_OTHER,	/* data pages of no file (kernel buffers, bounce pages) */
	BS_FC_COUNT
};

#endif /* BLKSCOPE_BS_DEFS_H */
