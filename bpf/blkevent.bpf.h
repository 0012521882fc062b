/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkevent.bpf.h - from an event to a record: struct event (what a
 * tracepoint saw), record() (__blk_add_trace(): categories, filters, the
 * PROCESS note, reserve, number, header and PDU) and the request and bio
 * shorthands the programs call.  Part of blkrecord.bpf.c, after the parts
 * it uses.
 */
#ifndef BLKSCOPE_BLKEVENT_BPF_H
#define BLKSCOPE_BLKEVENT_BPF_H

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
			 * rebuilds the PDU (record/rec_route.c:unpack_remap()).
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
	 * and sequence order (record/rec_stage.c).  A failed reserve still uses up
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
	 * rest against the disk's own completion count (record/rec_cstat.c).
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

#endif /* BLKSCOPE_BLKEVENT_BPF_H */
