/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blknote.bpf.h - PROCESS notes: a task's comm, put into the ring once per
 * run before its first recorded event (trace_note_tsk()).  Part of
 * blkrecord.bpf.c; writes into the rings of blkring.bpf.h.
 */
#ifndef BLKSCOPE_BLKNOTE_BPF_H
#define BLKSCOPE_BLKNOTE_BPF_H

/* The generation in which each task last announced its comm. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} announced SEC(".maps");

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

#endif /* BLKSCOPE_BLKNOTE_BPF_H */
