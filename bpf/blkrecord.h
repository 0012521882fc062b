/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkrecord.h - what bpf/blkrecord.bpf.c and record/ share: the per-trace
 * configuration the recorder writes into the `traces` map and the per-CPU
 * counters it reads back.
 *
 * A "trace" is one -d DEVICE: the BPF side selects events by the whole
 * disk's dev_t (the map key) and then applies that trace's filters, like
 * kernel/trace/blktrace.c:act_log_check() does for bt->act_mask,
 * bt->start_lba/end_lba and bt->pid.
 */
#ifndef BLKSCOPE_BLKRECORD_H
#define BLKSCOPE_BLKRECORD_H

#ifndef __bpf__
#include <linux/types.h>
#endif

/* At most this many -d devices in one recording (one per whole disk). */
#define BR_MAX_TRACES	16

/* At most this many --cgroup PATH filters. */
#define BR_MAX_CGROUPS	8

/*
 * record --format 8: bits 32..63 of a version-8 action (the zone
 * categories, BS_TC_HI()) travel from BPF to user space in bits 9..15 of
 * the v7 action word, which no v7 action uses (basic actions need 5 bits,
 * bit 8 is the cgroup flag).  The BPF side sets them only when told to
 * (zone_categories), so version-7 records are never touched; user space
 * moves them into the 64-bit action when it writes a v8 record.
 */
#define BR_HI_SHIFT	9
#define BR_HI_MASK	(0x7fu << BR_HI_SHIFT)

/* Value of the `traces` map, keyed by the whole disk's kernel dev_t. */
struct br_trace_cfg {
	__u64 start_lba;	/* inclusive LBA window; sector 0 always passes */
	__u64 end_lba;
	__u32 trace_dev;	/* dev_t written into records (disk or partition) */
	__u32 pid;		/* 0 = any thread */
	__u16 act_mask;		/* BS_TC_* bits; an event passes if any matches */
	__u16 index;		/* 0..BR_MAX_TRACES-1: slot in `counters` */
	__u32 pad;
};

/* Per-CPU value of the `counters` map, one slot per trace (the rare paths). */
struct br_counters {
	__u64 drops;		/* events lost because the ring was full */
	__u64 note_drops;	/* PROCESS notes lost (retried on the next event) */
	__u64 completions;	/* request completions (block_rq_complete) that reached
				 * the ring, recorded or dropped; record/rec_cstat.c compares
				 * them with the disk's own count */
	__u64 attr_drops;	/* --files/--stacks: Qs whose attribution slot found
				 * the ring full */
	__u64 kstack_lost;	/* --stacks: kernel stacks the stack table could not store */
	__u64 ustack_lost;	/* --stacks: user stacks the stack table could not store */
};

/*
 * The record rings: per CPU, a power-of-two number of 64-byte slots in one
 * mmapable array map (`slots`, CPU c's ring at index c << slot_shift), each
 * holding one record: the 48-byte header and a PDU of at most 16 bytes.  A
 * slot is committed when its magic is set (written last); the reader clears
 * the magic when it has copied the record, then moves `cons` on.
 */
#define BR_SLOT_SIZE	64
#define BR_SLOT_PDU_MAX	16

/*
 * Per CPU, in the mmapable `ring_ctl` array: everything a recorded event
 * touches besides its slot shares the first cache line (the first five
 * traces' sequence numbers included); the reader's `cons` has a line of its
 * own.
 */
struct br_ring_ctl {
	__u64 prod;		/* slots reserved on this CPU (BPF side) */
	__u64 last_task;	/* the task that announced itself last here */
	__u32 last_pid;		/* and its pid (a new task can reuse the address) */
	__u32 pad0;
	__u64 seq[BR_MAX_TRACES];	/* last sequence number per trace on this CPU */
	__u64 pad1[5];
	__u64 cons;		/* slots the reader has freed (user side) */
	__u64 pad2[7];
};
_Static_assert(__builtin_offsetof(struct br_ring_ctl, cons) == 192 &&
	       sizeof(struct br_ring_ctl) == 256, "br_ring_ctl: cons on its own cache line");

/*
 * record --files / --stacks: after a recorded Q, one more slot in the same
 * ring says which file and which code path the bio came from
 * (bpf/blkattr.bpf.h).  It is never written to a trace file: user space
 * routes it by its magic to the attribution side files (record/attr_*.c),
 * keyed by the Q's time stamp.  Committed like a record: magic and
 * sequence (the Q's) last, in one store.
 */
#define BR_ATTR_MAGIC	0x62736174u	/* "tasb": not a blktrace magic */

/* br_attr_slot.cls: format/bs_attr.h's enum bs_fclass */
struct br_attr_slot {
	__u32 magic;		/* BR_ATTR_MAGIC */
	__u32 seq;		/* the Q's sequence number */
	__u64 time;		/* the Q's time stamp */
	__u64 ino;		/* the file's inode number (cls CACHE, DIRECT,
				 * METADATA with a file) */
	__u32 fdev;		/* its filesystem's device (i_sb->s_dev) */
	__u32 gen;		/* its i_generation */
	__u32 device;		/* the Q's device (as in its record) */
	__s32 kstack;		/* kernel stack id in `kstacks`, < 0: none (-errno) */
	__s32 ustack;		/* user stack id in `ustacks`, < 0: none */
	__u32 tgid;		/* the submitting process (user stacks) */
	__u64 exe_ino;		/* its executable's inode (symbolizing after it exited) */
	__u32 exe_dev;
	__u8 cls;
	__u8 flags;		/* BR_ATTR_* */
	__u16 pad;
};
_Static_assert(sizeof(struct br_attr_slot) == BR_SLOT_SIZE,
	       "an attribution slot fills a ring slot");

#define BR_ATTR_KTHREAD	1u	/* submitted by a kernel thread: no user stack */

/* Frames kept per stack (the stack maps' value sizes). */
#define BR_KSTACK_DEPTH	64
#define BR_USTACK_DEPTH	48

#endif /* BLKSCOPE_BLKRECORD_H */
