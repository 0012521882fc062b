/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkring.bpf.h - the per-CPU record rings user space maps (blkrecord.h):
 * reserving a slot, committing it, waking the reader, and the per-trace
 * counters of what was lost on the way.  Part of blkrecord.bpf.c, whose
 * slot_shift, slot_mask and wakeup_mask size it.
 */
#ifndef BLKSCOPE_BLKRING_BPF_H
#define BLKSCOPE_BLKRING_BPF_H

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

#endif /* BLKSCOPE_BLKRING_BPF_H */
