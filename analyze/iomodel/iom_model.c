// SPDX-License-Identifier: GPL-2.0
/*
 * iom_model.c - the per-I/O model's event handlers: what each block-layer
 * event does to the bios and requests in flight (docs/analyze.md, "The
 * per-I/O model", has the table).
 *
 *  Q  a bio: a new I/O, one pending fragment
 *  X  the pending fragment at the sector is cut where the remainder starts
 *  G  a pending fragment gets a request of its own
 *  M  bio merge: a pending fragment joins the request that ends where it starts;
 *     with FS/PC (a request merged away): that request joins the one ending at its start
 *  F  a pending fragment joins the request that starts where it ends
 *  I  the request is inserted (the last I before its D counts)
 *  D  the request is issued (requeued requests: the last D counts)
 *  R  the request goes back, to be inserted and issued again
 *  C  with FS/PC: the request completes from its front (partial completions
 *     advance it); without: bio-based devices complete the pending bio
 *  A  the bio at the sector continues one of another device (remap)
 *
 * The kernel's flush machinery: an empty preflush bio gets a request that
 * is never issued itself; a flush request without a bio (D/C with FLUSH
 * and no WRITE) does the work, and the empty request completes with a
 * zero-byte C.  A data request with PREFLUSH, or with FUA that its D no
 * longer carries (emulated FUA), completes at the zero-byte C that ends
 * the flush sequence, not at the C of its data.
 */
#include <string.h>
#include "bs_codec.h"
#include "iom_priv.h"

#define NS BS_NOT_SEEN

/* ---- handlers ----------------------------------------------------------- */

static void check_remap(struct iom *m, struct iom_dev *d, struct iom_io *io)
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		struct iom_remap *r = &d->remaps[i];

		if (r->used || r->time == 0 || r->sector != io->sector ||
		    io->t_q - r->time > 1000000000ull)
			continue;
		r->used = true;
		io->t_a = r->time;
		if (bs_hash_get(&m->dev_idx, r->from_dev))
			io->flags |= BS_IO_CONT;	/* the I/O of a traced device, again */
		return;
	}
}

static void on_queue(struct iom *m, struct iom_dev *d, const struct bs_trace *t, uint32_t hi,
		     uint64_t cgroup, int tag)
{
	struct iom_io *io = iom_pool_get(&m->io_pool);
	struct iom_frag *f = &io->first;

	memset(io, 0, offsetof(struct iom_io, first));
	io->dev = d;
	io->sector = t->sector;
	io->bytes = t->bytes;
	io->pid = t->pid;
	io->action = t->action & ~BS_TA_CGROUP;
	io->action_hi = hi;
	io->cgroup = cgroup;
	io->t_q = t->time;
	io->t_a = io->t_s = io->t_g = io->t_i = io->t_m = io->t_d = io->t_c = NS;
	io->frags = io->open_frags = 1;
	io->tag = tag;
	io->epoch = d->loss_epoch;
	io->zero = t->bytes == 0;
	if (m->attr_fn)
		m->attr_fn(m->attr_ctx, t, &io->attr);
	if (d->remap_next)
		check_remap(m, d, io);
	f->hn.next = NULL;
	f->hn.pprev = NULL;
	f->rq = NULL;
	f->next = NULL;
	f->sib = NULL;
	f->merged = false;
	f->io = io;
	f->sector = t->sector;
	f->end = t->sector + iom_sectors(t->bytes);
	f->t_entry = f->t_i_own = NS;
	iom_tab_add(&m->pending, &f->hn, d->index, t->sector);
	iom_io_live(m, io);
}

/*
 * Where an X cuts the fragment f: its PDU, the remainder's start (the
 * kernel passes it as 32 bits: the high bits come from f), else the end
 * of the front, whose size the X carries.  0 if neither lies inside f.
 */
static uint64_t split_point(const struct iom_frag *f, const struct bs_trace *t, const uint8_t *pdu)
{
	size_t len;
	const uint8_t *p = bs_pdu_payload(t, pdu, &len);
	uint64_t cut = len >= 8 ? bs_get_be64(p) : 0;

	if (cut && cut <= 0xffffffffull && f->sector > 0xffffffffull) {
		cut |= f->sector & ~0xffffffffull;
		if (cut <= f->sector)
			cut += 1ull << 32;
	}
	if (cut > f->sector && cut < f->end)
		return cut;
	cut = t->sector + iom_sectors(t->bytes);
	return t->bytes && cut > f->sector && cut < f->end ? cut : 0;
}

static void on_split(struct iom *m, struct iom_dev *d, const struct bs_trace *t, const uint8_t *pdu)
{
	struct iom_frag *f = iom_find_pending(m, d, t->sector, t->pid, false), *g;
	uint64_t cut;

	if (!f) {
		iom_unmatched(m, &m->h.other_unmatched, d, t);
		return;
	}
	cut = split_point(f, t, pdu);
	if (!cut) {
		iom_unmatched(m, &m->h.other_unmatched, d, t);
		return;
	}
	g = iom_frag_new(m, f);
	g->sector = cut;
	f->end = cut;
	f->io->frags++;
	f->io->open_frags++;
	iom_tab_add(&m->pending, &g->hn, d->index, cut);
}

/* A fragment longer than the G or M that took it lost its X: the rest stays pending. */
static void trim_to(struct iom *m, struct iom_dev *d, struct iom_frag *f, uint64_t nsec)
{
	struct iom_frag *g;

	if (!nsec || f->end - f->sector <= nsec)
		return;
	g = iom_frag_new(m, f);
	g->sector = f->sector + nsec;
	f->end = g->sector;
	f->io->frags++;
	f->io->open_frags++;
	iom_tab_add(&m->pending, &g->hn, d->index, g->sector);
}

static void on_getrq(struct iom *m, struct iom_dev *d, const struct bs_trace *t, int tag)
{
	struct iom_frag *f = iom_find_pending(m, d, t->sector, t->pid, false);
	struct iom_rq *rq;

	if (!f) {	/* a bio never queued in the trace: its request is still tracked */
		iom_unmatched(m, &m->h.other_unmatched, d, t);
		iom_rq_new(m, d, t->sector, t->sector + iom_sectors(t->bytes), t->action);
		return;
	}
	iom_take_tag(f->io, tag);
	trim_to(m, d, f, iom_sectors(t->bytes));
	iom_take_pending(m, f);
	f->t_entry = t->time;
	f->merged = false;
	rq = iom_rq_new(m, d, f->sector, f->end, t->action);
	iom_rq_append(rq, f);
	if (f->io->zero &&
	    (rq->q_cats & BS_TC_FLUSH)) { /* an empty preflush: the flush machinery's */
		rq->waits_flush = true;
		rq->next_waiter = d->flush_waiters;
		d->flush_waiters = rq;
	}
}

static void on_sleeprq(struct iom *m, struct iom_dev *d, const struct bs_trace *t)
{
	struct iom_frag *f = iom_find_pending(m, d, t->sector, t->pid, false);

	if (f && f->io->t_s == NS)
		f->io->t_s = t->time;
}

static void on_bio_merge(struct iom *m, struct iom_dev *d, const struct bs_trace *t, bool front,
			 int tag)
{
	struct iom_frag *f = iom_find_pending(m, d, t->sector, t->pid, false);
	struct iom_rq *rq;

	if (!f) {
		iom_unmatched(m, &m->h.other_unmatched, d, t);
		return;
	}
	iom_take_tag(f->io, tag);
	trim_to(m, d, f, iom_sectors(t->bytes));
	rq = front ? iom_find_rq(m, d, f->end, RQ_BUILT) : iom_find_rq_end(m, d, f->sector, NULL);
	if (!rq) {	/* its request was never seen: left pending (a later D adopts it) */
		iom_unmatched(m, &m->h.other_unmatched, d, t);
		f->merged = true;
		f->t_entry = t->time;
		return;
	}
	iom_take_pending(m, f);
	f->t_entry = t->time;
	f->merged = true;
	if (front) {
		f->rq = rq;
		f->next = rq->head;
		rq->head = f;
		rq->q_cats |= iom_cats(f->io->action);
		rq->start = f->sector;
		iom_rq_move_pos(m, rq, rq->start);
	} else {
		iom_rq_append(rq, f);
		iom_rq_move_end(m, rq, f->end);
	}
}

/* M with FS/PC: the request starting at the sector merges into the one ending there. */
static void on_rq_merge(struct iom *m, struct iom_dev *d, const struct bs_trace *t)
{
	struct iom_rq *next = iom_find_rq(m, d, t->sector, RQ_BUILT), *rq;
	struct iom_frag *f;

	rq = next ? iom_find_rq_end(m, d, t->sector, next) : NULL;
	if (!next || !rq) {
		iom_unmatched(m, &m->h.other_unmatched, d, t);
		return;
	}
	for (f = next->head; f; f = f->next) {
		f->rq = rq;
		if (!f->merged && f->t_i_own == NS)
			f->t_i_own = next->t_i;
	}
	if (next->head) {
		if (rq->tail)
			rq->tail->next = next->head;
		else
			rq->head = next->head;
		rq->tail = next->tail;
	}
	rq->q_cats |= next->q_cats;
	rq->requeues += next->requeues;
	next->head = next->tail = NULL;
	iom_rq_move_end(m, rq, next->end);
	iom_rq_free(m, next);
}

static void on_insert(struct iom *m, struct iom_dev *d, const struct bs_trace *t)
{
	struct iom_rq *rq = iom_find_rq(m, d, t->sector, RQ_BUILT);

	if (rq)
		rq->t_i = t->time;
	else if (t->bytes)
		iom_unmatched(m, &m->h.other_unmatched, d, t);
}

static void on_issue(struct iom *m, struct iom_dev *d, const struct bs_trace *t, int tag)
{
	struct iom_rq *rq, *w;
	struct iom_frag *f;

	if (!t->bytes && iom_is_flush_op(t->action)) {	/* a flush of the flush machinery */
		rq = iom_rq_new(m, d, t->sector, t->sector, t->action);
		rq->flush_op = true;
		rq->state = RQ_ISSUED;
		rq->t_d = t->time;
		for (w = d->flush_waiters; w; w = w->next_waiter)
			if (w->t_d == NS)
				w->t_d = t->time;
		d->flush_waiters = NULL;	/* each is served by this flush */
		return;
	}
	rq = iom_find_rq(m, d, t->sector, RQ_BUILT);
	if (!rq && !(rq = iom_adopt(m, d, t->sector, iom_sectors(t->bytes)))) {
		iom_unmatched(m, &m->h.d_unmatched, d, t);
		rq = iom_rq_new(m, d, t->sector, t->sector + iom_sectors(t->bytes), t->action);
	}
	iom_waiter_unlink(rq);
	rq->state = RQ_ISSUED;
	rq->t_d = t->time;
	rq->d_bytes = t->bytes;
	rq->d_action = t->action;
	iom_tab_del(&m->by_end, &rq->endn);
	if (tag >= 0)
		for (f = rq->head; f; f = f->next)
			iom_take_tag(f->io, tag);
}

static void on_requeue(struct iom *m, struct iom_dev *d, const struct bs_trace *t)
{
	struct iom_rq *rq = iom_find_rq(m, d, t->sector, RQ_ISSUED);
	struct iom_frag *f;

	if (!rq) {
		iom_unmatched(m, &m->h.other_unmatched, d, t);
		return;
	}
	rq->state = RQ_BUILT;
	rq->t_i = rq->t_d = NS;	/* it is inserted and issued again */
	rq->requeues++;
	for (f = rq->head; f; f = f->next)
		f->io->requeues++;
}

static void on_remap(struct iom *m, struct iom_dev *d, const struct bs_trace *t, const uint8_t *pdu)
{
	struct bs_remap rm;
	struct iom_remap *r;
	struct bs_trace u = *t;
	size_t len;
	const uint8_t *p = bs_pdu_payload(t, pdu, &len);
	uint64_t *fi;

	u.pdu_len = (uint16_t)len;
	if (bs_decode_remap(&u, p, &rm))
		return;
	r = &d->remaps[d->remap_next++ % 4];
	if (!d->remap_next)
		d->remap_next = 4;
	r->sector = t->sector;
	r->from_dev = rm.device_from;
	r->from_sector = rm.sector_from;
	r->time = t->time;
	r->used = false;
	/* the I/O it comes from, on a traced (stacking) device: its time of remap */
	fi = bs_hash_get(&m->dev_idx, rm.device_from);
	if (fi) {
		struct iom_frag *f =
			iom_find_pending(m, m->devs[*fi], rm.sector_from, t->pid, false);

		if (f && f->io->t_a == NS)
			f->io->t_a = t->time;
	}
}

/* The I/O records (the cgroup flag already off in act). */
/* The counts of a Q, D or C of op (the others: iom_count_other()). */
static inline void count(struct iom_dev *d, const struct bs_trace *t, uint32_t hi, unsigned int act)
{
	struct bs_op_counts *oc = bs_dev_op_get(d->ctr, bs_op_of2(t->action, hi));

	if (act == BS_TA_QUEUE) {
		oc->queued++;
		oc->queued_bytes += t->bytes;
	} else if (act == BS_TA_ISSUE) {
		oc->issued++;
		oc->issued_bytes += t->bytes;
	} else {
		oc->completed++;
		oc->completed_bytes += t->bytes;
		d->ctr->errors += t->error != 0;
	}
}

/* One record of the device: its counts, then what it does to the I/Os. */
void iom_model_event(struct iom *m, struct iom_dev *d, const struct bs_trace *t, uint32_t hi,
		     const uint8_t *pdu, int tag)
{
	unsigned int act = t->action & 0xffff & ~BS_TA_CGROUP;

	d->ctr->last_time = t->time;
	switch (act) {
	case BS_TA_QUEUE:
		count(d, t, hi, BS_TA_QUEUE);
		on_queue(m, d, t, hi, m->cur_cgroup, tag);
		break;
	case BS_TA_SPLIT:
		d->ctr->splits++;
		on_split(m, d, t, pdu);
		break;
	case BS_TA_GETRQ:
		on_getrq(m, d, t, tag);
		break;
	case BS_TA_SLEEPRQ:
		on_sleeprq(m, d, t);
		break;
	case BS_TA_BACKMERGE:
		bs_dev_op_get(d->ctr, bs_op_of2(t->action, hi))->merges++;
		if (iom_is_rq_event(t->action))
			on_rq_merge(m, d, t);
		else
			on_bio_merge(m, d, t, false, tag);
		break;
	case BS_TA_FRONTMERGE:
		bs_dev_op_get(d->ctr, bs_op_of2(t->action, hi))->merges++;
		on_bio_merge(m, d, t, true, tag);
		break;
	case BS_TA_INSERT:
		on_insert(m, d, t);
		break;
	case BS_TA_ISSUE:
		count(d, t, hi, BS_TA_ISSUE);
		on_issue(m, d, t, tag);
		break;
	case BS_TA_REQUEUE:
		bs_dev_op_get(d->ctr, bs_op_of2(t->action, hi))->requeues++;
		on_requeue(m, d, t);
		break;
	case BS_TA_COMPLETE:
		count(d, t, hi, BS_TA_COMPLETE);
		iom_on_complete(m, d, t, tag);
		break;
	case BS_TA_REMAP:
		d->ctr->remaps++;
		on_remap(m, d, t, pdu);
		break;
	case BS_TA_PLUG:
		d->ctr->plugs++;
		break;
	case BS_TA_UNPLUG_IO:
		d->ctr->unplugs++;
		break;
	case BS_TA_UNPLUG_TIMER:
		d->ctr->unplug_timers++;
		break;
	}
}
