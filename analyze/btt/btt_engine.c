// SPDX-License-Identifier: GPL-2.0
/*
 * btt_engine.c - btt's event handling (btt/trace*.c, devs.c, proc.c),
 * re-implemented for one streaming pass.  The rules that make the numbers
 * equal btt's:
 *
 *  - notes: PROCESS registers a name (pid 0 = "kernel", cut at '/');
 *    MESSAGE is printed once its device is past pre-culling; PC records
 *    and records with the cgroup flag are ignored (the per-I/O model,
 *    analyze/iomodel/, takes every record);
 *  - zero-byte Q, G, S, I, M, D and C are dropped before anything else;
 *  - a device appears with its first Q/A/G/S/I/M/D/C/R/message, but
 *    everything before its first Q or A is ignored ("pre-culling");
 *  - a Q with the start sector of a queued Q replaces it in the tree (the
 *    older one is never completed);
 *  - G, S, I, M find their Q by a containment search of the per-device
 *    Q tree; D and C take every Q whose range lies within theirs, walking
 *    the tree root-first with btt's pruning;
 *  - every delta is to - from, or 1 ns when not positive;
 *  - majors 9, 253 and 254 are remappers: their Q2Q/Q2A/Q2C go to *dm.
 */
#include <stdlib.h>
#include <string.h>
#include "btt_priv.h"

static inline uint64_t tdelta(uint64_t from, uint64_t to)
{
	return from < to ? to - from : 1;
}

static inline void avg_update(struct btt_avg *a, uint64_t t)
{
	if (a->n++ == 0) {
		a->min = a->max = a->total = t;
	} else {
		/* conditional moves: whether a latency is a new extreme is data */
		a->min = t < a->min ? t : a->min;
		a->max = t > a->max ? t : a->max;
		a->total += t;
	}
}

/*
 * btt's UPDATE_AVGS: system, the bio's device, the bio's process.  The
 * system's figure is the merge of the devices' (all_avgs() in
 * btt_report.c, at report time: the same count, minimum, maximum and
 * total), so only the device is updated here.  The per-process figures
 * are only ever printed with -A: skipped without.
 */
#define UPDATE_AVGS(e, fld, dev, proc, val) do {		\
		avg_update(&(dev)->avgs.fld, (val));		\
		if ((e)->o.all_data && (proc))			\
			avg_update(&(proc)->avgs->fld, (val));	\
	} while (0)

static inline void update_lq(uint64_t *last_q, struct btt_avg *a, uint64_t time)
{
	if (*last_q != BTT_NONE)
		avg_update(a, time > *last_q ? time - *last_q : 1);
	*last_q = time;
}

/* update_range(): a new range */
static __attribute__((noinline)) void range_append(struct btt_ranges *r, uint64_t time)
{
	if (!r->cap) {
		r->v = &r->first;
		r->cap = 1;
	} else if (r->n == r->cap) {
		struct btt_range *v = bs_xreallocarray(r->v == &r->first ? NULL : r->v,
						       2 * (size_t)r->cap, sizeof(*v));

		if (r->v == &r->first)
			v[0] = r->first;
		r->v = v;
		r->cap *= 2;
	}
	r->v[r->n].start = r->v[r->n].end = time;
	r->n++;
}

/* q/c activity ranges, coalesced when closer than -d seconds (inline: six per I/O) */
static inline void update_range(struct btt_engine *e, struct btt_ranges *r, uint64_t time)
{
	if (e->o.no_ranges)
		return;
	if (r->n) {
		struct btt_range *last = &r->v[r->n - 1];

		if (time < last->end)
			return;
		if (time - last->end < e->range_gap_ns) {
			last->end = time;
			return;
		}
	}
	range_append(r, time);
}

/* ---- event handlers (btt's trace_*.c) ---------------------------------- */

/* btt's size histogram: bucket blocks-1, the last one for more than 1024 */
static inline void size_histo(uint64_t *h, uint32_t bytes)
{
	uint32_t blks = bytes >> 9;

	if (blks)	/* btt would write before its array for sub-block bios */
		h[blks - 1 < BTT_HIST_BKTS - 1 ? blks - 1 : BTT_HIST_BKTS - 1]++;
}

static inline int is_read(uint32_t action)
{
	return (action & BS_TC_ACT(BS_TC_READ)) != 0;
}

static inline __attribute__((always_inline)) void
handle_queue(struct btt_engine *e, const struct bs_trace *t, uint32_t action_hi)
{
	struct btt_dev *d;
	struct btt_proc *p;
	struct btt_q *q, *old;

	if (t->bytes == 0)
		return;
	d = dev_setup(e, t->device, T_Q, t->time);
	if (!d)
		return;
	q = btt_q_alloc(e);
	q->sector = t->sector;
	q->bytes = t->bytes;
	q->end = t->sector + (t->bytes >> 9);
	old = btt_q_insert(d, q);
	if (old)	/* btt: the older one is never completed */
		q_free(e, old);
	p = find_process(e, t->pid);
	q->pid = t->pid;
	q->action = t->action;
	q->action_hi = action_hi;
	q->t_q = t->time;
	q->t_a = q->t_g = q->t_s = q->t_i = q->t_m = q->t_d = BTT_NONE;
	q->d_sec = 0;
	q->d_nsec = 0;
	q->proc = p;
	q->dev = d;

	btt_seek_add(&d->q2q_seek, t->sector, t->bytes, e->o.seek_absolute, is_read(t->action),
		    t->time);
	update_range(e, &e->all_regions.q, t->time);
	if (btt_remapper_dev(d->device))
		update_lq(&d->last_q, &d->avgs.q2q_dm, t->time);
	else
		update_lq(&d->last_q, &d->avgs.q2q, t->time);
	update_range(e, &d->regions.q, t->time);
	if (btt_remapper_dev(d->device)) {
		if (e->o.all_data)	/* per-process figures: -A only */
			update_lq(&p->last_q, &p->avgs->q2q_dm, t->time);
		update_lq(&e->last_q, &e->all_q2q_dm, t->time);
	} else {
		size_histo(e->q_histo, t->bytes);
		if (e->o.all_data)
			update_lq(&p->last_q, &p->avgs->q2q, t->time);
		update_lq(&e->last_q, &e->all_q2q, t->time);
	}
	update_range(e, &p->regions.q, t->time);
	d->n_qs++;
	d->t_act_q += d->n_act_q;
	d->n_act_q++;
}

/* G, S, I, M/F; inlined at each: the switch on type folds away */
static inline __attribute__((always_inline)) void
handle_getrq(struct btt_engine *e, const struct bs_trace *t, enum btt_type type)
{
	struct btt_dev *d;
	struct btt_q *q;

	if (t->bytes == 0)
		return;
	d = dev_setup(e, t->device, type, t->time);
	if (!d)
		return;
	find_process(e, t->pid);
	if (e->o.iostat) {
		if (type == T_G)
			btt_iostat_getrq(d, t->time);
		else if (type == T_M)
			btt_iostat_merge(d, is_read(t->action));
	}
	q = q_find_sec(d, t->sector);
	if (q) {
		switch (type) {
		case T_G:
			q->t_g = t->time;
			UPDATE_AVGS(e, q2g, d, q->proc, tdelta(q->t_q, t->time));
			if (q->t_s != BTT_NONE && q->t_s != 0)
				UPDATE_AVGS(e, s2g, d, q->proc, tdelta(q->t_s, t->time));
			break;
		case T_S:
			q->t_s = t->time;
			break;
		case T_I:
			q->t_i = t->time;
			if (q->t_g != BTT_NONE)
				UPDATE_AVGS(e, g2i, d, q->proc, tdelta(q->t_g, t->time));
			break;
		default:	/* M, F */
			if (q->t_m == BTT_NONE)	/* looked up with its request from now on */
				btt_qindex_merged(&d->qidx, q);
			q->t_m = t->time;
			UPDATE_AVGS(e, q2m, d, q->proc, tdelta(q->t_q, t->time));
			break;
		}
	}
	if (type == T_M && d->n_act_q)
		d->n_act_q--;
}

static inline __attribute__((always_inline)) void
handle_issue(struct btt_engine *e, const struct bs_trace *t)
{
	struct btt_dev *d;
	size_t i;

	if (t->bytes == 0)
		return;
	d = dev_setup(e, t->device, T_D, t->time);
	if (!d)
		return;
	find_process(e, t->pid);
	if (d->n_act_q)
		d->n_act_q--;
	btt_seek_add(&d->d2d_seek, t->sector, t->bytes, e->o.seek_absolute, is_read(t->action),
			    t->time);
	if (e->o.iostat)
		btt_iostat_issue(d, t->time, is_read(t->action), t->bytes);
	if (d->bno_fp[2] || d->aqd_fp)
		btt_side_issue(d, t);
	d->n_ds++;
	if (!btt_remapper_dev(d->device))
		size_histo(e->d_histo, t->bytes);

	q_collect(d, t->sector, t->sector + (t->bytes >> 9), &e->scratch);
	for (i = 0; i < e->scratch.n; i++) {
		struct btt_q *q = e->scratch.v[i];

		if (q->t_i != BTT_NONE)
			UPDATE_AVGS(e, i2d, d, q->proc, tdelta(q->t_i, t->time));
		else if (q->t_m != BTT_NONE)
			UPDATE_AVGS(e, m2d, d, q->proc, tdelta(q->t_m, t->time));
		q->t_d = t->time;
		q->d_sec = t->sector;
		q->d_nsec = t->bytes >> 9;
		if (e->o.all_data)
			btt_dev_q2d_add(d, t->time - q->t_q);
		latency_x2c(e, d->q2d_fp, &d->plat[BTT_PLAT_Q2D], t->time, t->time - q->t_q);
	}
}

/* The oldest dispatch still waiting for its completion: nothing older can merge into live spans. */
static uint64_t live_horizon(const struct btt_dev *d, uint64_t now)
{
	const struct btt_rb_node *stack[128];
	uint64_t h = now;
	int sp = 0;

	if (d->qtree.node)
		stack[sp++] = d->qtree.node;
	while (sp) {
		const struct btt_rb_node *n = stack[--sp];
		const struct btt_q *q = btt_rb_entry(n, struct btt_q, rb);

		if (q->t_d < h)
			h = q->t_d;
		if (n->left)
			stack[sp++] = n->left;
		if (n->right)
			stack[sp++] = n->right;
	}
	return h;
}

static void fold_live(struct btt_engine *e, struct btt_dev *d, uint64_t now)
{
	if (btt_live_wants_fold(&d->live))
		btt_live_fold(&d->live, live_horizon(d, now));
	if (btt_live_wants_fold(&e->all_live)) {
		uint64_t h = now;
		int i;

		for (i = 0; i < e->ndevs; i++) {
			uint64_t x = live_horizon(e->devs[i], now);

			if (x < h)
				h = x;
		}
		btt_live_fold(&e->all_live, h);
	}
}

static inline __attribute__((always_inline)) void
handle_complete(struct btt_engine *e, const struct bs_trace *t)
{
	struct btt_dev *d;
	struct btt_proc *p;
	size_t i;
	uint64_t nblks = t->bytes >> 9, last_d = BTT_NONE;

	if (t->bytes == 0)
		return;
	d = dev_setup(e, t->device, T_C, t->time);
	if (!d)
		return;
	p = find_process(e, t->pid);
	avg_update(&d->avgs.blks, nblks);
	/* btt counts a process's completed blocks but never prints them */
	update_range(e, &e->all_regions.c, t->time);
	update_range(e, &d->regions.c, t->time);
	update_range(e, &p->regions.c, t->time);
	if (d->aqd_fp)
		btt_side_complete(d, t->time);

	q_collect(d, t->sector, t->sector + nblks, &e->scratch);
	for (i = 0; i < e->scratch.n; i++) {
		struct btt_q *q = e->scratch.v[i];
		struct btt_dev *qd = q->dev;
		uint64_t q2c = tdelta(q->t_q, t->time);

		if (btt_remapper_dev(qd->device))
			UPDATE_AVGS(e, q2c_dm, qd, q->proc, q2c);
		else
			UPDATE_AVGS(e, q2c, qd, q->proc, q2c);
		latency_x2c(e, qd->q2c_fp, &qd->plat[BTT_PLAT_Q2C], q->t_q, q2c);
		if (q->t_d != BTT_NONE) {
			uint64_t d2c = tdelta(q->t_d, t->time);

			last_d = q->t_d;
			btt_live_add(&qd->live, q->t_d, t->time);
			btt_live_add(&e->all_live, q->t_d, t->time);
			UPDATE_AVGS(e, d2c, qd, q->proc, d2c);
			latency_x2c(e, qd->d2c_fp, &qd->plat[BTT_PLAT_D2C], t->time, d2c);
			if (e->o.iostat)
				btt_iostat_complete(qd, d, q->t_q, q->t_i, q->t_m, t->time);
		}
		if (e->o.per_io)
			btt_per_io_track(e->o.per_io, q, t->time, t->sector, t->bytes >> 9);
		if (d->pit_fp)
			fprintf(d->pit_fp, "%d.%09lu ", (int)(q->t_q / 1000000000ull),
				(unsigned long)(q->t_q % 1000000000ull));
		btt_q_remove(qd, q);
		q_free(e, q);
	}
	if (e->o.per_io)
		fprintf(e->o.per_io, "-----------------------------------------\n");
	if (d->pit_fp)
		btt_pit_line(d->pit_fp, last_d, t->time);
	if (e->scratch.n)
		fold_live(e, d, t->time);
}

static void handle_requeue(struct btt_engine *e, const struct bs_trace *t)
{
	struct btt_dev *d = dev_setup(e, t->device, T_R, t->time);

	if (!d)
		return;
	find_process(e, t->pid);
	d->n_qs++;
	d->t_act_q += d->n_act_q;
	d->n_act_q++;
}

static void handle_remap(struct btt_engine *e, const struct bs_trace *t, const uint8_t *pdu)
{
	struct bs_remap rm;
	struct btt_dev *d, *qd;
	struct btt_q *q;

	if (e->o.ignore_remaps || bs_decode_remap(t, pdu, &rm))
		return;
	d = dev_setup(e, t->device, T_A, t->time);
	if (!d)
		return;
	find_process(e, t->pid);
	qd = btt_engine_find_dev(e, rm.device_from);
	if (!qd)
		return;
	q = q_find_sec(qd, rm.sector_from);
	if (q) {
		q->t_a = t->time;
		if (btt_remapper_dev(qd->device))
			UPDATE_AVGS(e, q2a_dm, qd, q->proc, tdelta(q->t_q, t->time));
		else
			UPDATE_AVGS(e, q2a, qd, q->proc, tdelta(q->t_q, t->time));
	}
}

static void unplug(struct btt_dev *d, double now)
{
	d->is_plugged = 0;
	d->plugged_time += now - d->last_plug;
}

static void handle_plug(struct btt_engine *e, const struct bs_trace *t, const uint8_t *pdu,
			unsigned int act)
{
	struct btt_dev *d = btt_engine_find_dev(e, t->device);
	uint64_t depth;

	if (!d)
		return;
	if (act == BS_TA_UNPLUG_IO && d->uhist)
		btt_side_unplug(d, t, pdu);
	if (act == BS_TA_PLUG) {
		if (!d->is_plugged) {
			d->is_plugged = 1;
			d->last_plug = btt_secs(t->time);
		}
		return;
	}
	if (!d->is_plugged)
		return;
	depth = bs_pdu_be64(t, pdu);
	if (act == BS_TA_UNPLUG_IO) {
		d->nplugs++;
		d->nios_up += depth;
	} else {
		d->nios_upt += depth;
		d->nplugs_t++;
	}
	unplug(d, btt_secs(t->time));
}

static void handle_message(struct btt_engine *e, const struct bs_trace *t, const uint8_t *pdu)
{
	struct btt_dev *d = dev_setup(e, t->device, T_MSG, t->time);
	char hdr[16];

	if (!d)
		return;
	find_process(e, t->pid);
	if (e->o.msgs)
		fprintf(e->o.msgs, "%s %5d.%09lu %.*s\n", btt_dev_hdr(hdr, 15, t->device),
			(int)(t->time / 1000000000ull), (unsigned long)(t->time % 1000000000ull),
			t->pdu_len ? (int)strnlen((const char *)pdu, t->pdu_len) : 0,
			t->pdu_len ? (const char *)pdu : "");
}

/*
 * What comes before the handler for any record: notes, PC records, the
 * cgroup flag, -t/-T, -I.  false: the record stops here.
 */
static __attribute__((noinline)) bool before_handler(struct btt_engine *e,
						     const struct bs_event *ev)
{
	const struct bs_trace *t = &ev->t;
	bool flagged;

	if (e->done)
		return false;
	e->last_time = t->time;

	if (t->action & BS_TC_ACT(BS_TC_NOTIFY)) {
		if (t->action == BS_NOTE_PROCESS)
			btt_process_note(e, t->pid, (const char *)ev->pdu, t->pdu_len);
		else if (t->action == BS_NOTE_MESSAGE)
			handle_message(e, t, ev->pdu);
		return false;
	}
	if (t->action & BS_TC_ACT(BS_TC_PC))
		return false;
	flagged = t->action & BS_TA_CGROUP;
	if (e->o.time_bounded) {
		double secs = btt_secs(t->time);

		if (secs < e->o.t_start)
			return false;
		if (secs > e->o.t_end) {
			e->done = true;
			btt_engine_check_plain(e);
			return false;
		}
	}
	e->n_traces++;
	e->cgroup_records += flagged;
	if (e->iostat.fp)
		btt_iostat_check_time(e, t->time);
	return true;
}

/*
 * The handler of a record past the gates, inlined into both ways in, the
 * common handlers with it (always_inline: with two callers gcc would make
 * them calls, a register save and restore per event on the short way).
 */
static inline __attribute__((always_inline)) void dispatch(struct btt_engine *e,
							  const struct bs_trace *t,
							  uint32_t action_hi, const uint8_t *pdu)
{
	unsigned int act = t->action & 0xffff;

	switch (act) {
	case BS_TA_QUEUE:
		handle_queue(e, t, action_hi);
		break;
	case BS_TA_REMAP:
		handle_remap(e, t, pdu);
		break;
	case BS_TA_INSERT:
		handle_getrq(e, t, T_I);
		break;
	case BS_TA_GETRQ:
		handle_getrq(e, t, T_G);
		break;
	case BS_TA_SLEEPRQ:
		handle_getrq(e, t, T_S);
		break;
	case BS_TA_BACKMERGE:
	case BS_TA_FRONTMERGE:
		handle_getrq(e, t, T_M);
		break;
	case BS_TA_REQUEUE:
		handle_requeue(e, t);
		break;
	case BS_TA_ISSUE:
		handle_issue(e, t);
		break;
	case BS_TA_COMPLETE:
		handle_complete(e, t);
		break;
	case BS_TA_PLUG:
	case BS_TA_UNPLUG_IO:
	case BS_TA_UNPLUG_TIMER:
		handle_plug(e, t, pdu, act);
		break;
	default:
		break;
	}
}

/*
 * An I/O record without a cgroup id in a plain engine: what
 * before_handler() comes to, without testing each step.
 */
static inline __attribute__((always_inline)) void record_plain(struct btt_engine *e,
								const struct bs_trace *t,
								uint32_t action_hi,
								const uint8_t *pdu)
{
	e->last_time = t->time;
	e->n_traces++;
	dispatch(e, t, action_hi, pdu);
}

bool btt_engine_record(struct btt_engine *e, const struct bs_trace *t, uint32_t action_hi,
		      const uint8_t *pdu)
{
	if (__builtin_expect(!btt_engine_takes_record(e, t), 0))
		return false;
	record_plain(e, t, action_hi, pdu);
	return true;
}

/* Every other record: the gates of before_handler() first. */
static __attribute__((noinline)) void event_gated(struct btt_engine *e, const struct bs_event *ev)
{
	if (before_handler(e, ev))
		dispatch(e, &ev->t, ev->action_hi, ev->pdu);
}

void btt_engine_event(struct btt_engine *e, const struct bs_event *ev)
{
	if (__builtin_expect(btt_engine_takes_record(e, &ev->t), 1))
		record_plain(e, &ev->t, ev->action_hi, ev->pdu);
	else
		event_gated(e, ev);
}
