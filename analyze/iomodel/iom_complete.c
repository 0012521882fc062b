// SPDX-License-Identifier: GPL-2.0
/*
 * iom_complete.c - the per-I/O model's completions: a C ends a request's
 * data from its front (partial completions advance it), a zero-byte C
 * ends a flush sequence or a request without data, a bio-based device's
 * C ends its bios; an I/O is done when its last fragment is, and its
 * stages are its lead fragment's (the one issued first).
 */
#include <string.h>
#include "bs_codec.h"
#include "iom_priv.h"

#define NS BS_NOT_SEEN

/* ---- completion of fragments ------------------------------------------- */

/*
 * A fragment is done at time t.  The I/O's stages are its lead fragment's:
 * the one issued first (for a split bio, usually the first cut).
 */
void iom_frag_lead(struct iom_io *io, const struct iom_frag *f, const struct iom_rq *rq)
{
	uint64_t t_d = rq ? rq->t_d : NS;
	bool lead = t_d != NS ? io->t_d == NS || t_d < io->t_d : io->t_d == NS && io->t_g == NS &&
		    io->t_m == NS;

	if (!lead)
		return;
	io->t_d = t_d;
	io->d_bytes = rq && t_d != NS ? rq->d_bytes : 0;
	if (f->merged) {
		io->t_m = f->t_entry;
		io->t_g = io->t_i = NS;
	} else {
		io->t_g = f->t_entry;
		io->t_i = f->t_i_own != NS ? f->t_i_own : rq ? rq->t_i : NS;
		io->t_m = NS;
	}
}

void iom_frag_done(struct iom *m, struct iom_frag *f, const struct iom_rq *rq, uint64_t t,
		      uint16_t error)
{
	struct iom_io *io = f->io;

	iom_frag_lead(io, f, rq);
	io->done_sectors += f->end - f->sector;
	if (io->t_c == NS || t > io->t_c)
		io->t_c = t;
	if (error && !io->error)
		io->error = error;
	iom_frag_free(m, f);
	if (--io->open_frags == 0) {
		iom_io_emit(m, io, BS_IO_DONE);
		iom_io_release(m, io);
	}
}

/* Every fragment of rq done at t; rq freed. */
void iom_rq_done(struct iom *m, struct iom_rq *rq, uint64_t t, uint16_t error)
{
	while (rq->head) {
		struct iom_frag *f = rq->head;

		rq->head = f->next;
		iom_frag_done(m, f, rq, t, error);
	}
	rq->tail = NULL;
	iom_rq_free(m, rq);
}


/* Does rq end with the zero-byte C of a flush sequence rather than with its data? */
bool iom_rq_in_flush_seq(const struct iom_rq *rq)
{
	uint32_t d = iom_cats(rq->d_action);

	/* the machinery strips what it emulates: a D without it (a D never seen says nothing) */
	if (!rq->d_action)
		return false;
	return ((rq->q_cats & BS_TC_FLUSH) && !(d & BS_TC_FLUSH)) ||
	       ((rq->q_cats & BS_TC_FUA) && !(d & BS_TC_FUA));
}

/* The request is over (its last C): counted as the kernel counts requests, its bios done. */
static void rq_end(struct iom *m, struct iom_rq *rq, uint64_t t, uint16_t error)
{
	bs_dev_op_get(rq->dev->ctr, bs_op_of(rq->op_action))->rq_completed++;
	iom_rq_done(m, rq, t, error ? error : rq->error);
}

/* A request's data completed from its front, nsec sectors (partial completions advance it). */
static void rq_complete_data(struct iom *m, struct iom_rq *rq, const struct bs_trace *t)
{
	uint64_t nsec = iom_sectors(t->bytes), left = nsec;
	bool seq = iom_rq_in_flush_seq(rq);

	while (left && rq->head && !seq) {
		struct iom_frag *f = rq->head;
		uint64_t len = f->end - f->sector;

		if (len > left) {	/* completed in part */
			f->sector += left;
			f->io->done_sectors += left;
			break;
		}
		left -= len;
		rq->head = f->next;
		if (!rq->head)
			rq->tail = NULL;
		iom_frag_done(m, f, rq, t->time, t->error);
	}
	if (t->error && !rq->error)
		rq->error = t->error;
	if (rq->start + nsec < rq->end) {	/* more to come, at the next position */
		rq->start += nsec;
		iom_rq_move_pos(m, rq, rq->start);
		return;
	}
	if (seq) {	/* the zero-byte C at this position ends it */
		rq->state = RQ_FLUSHSEQ;
		rq->start = rq->end = t->sector;
		iom_rq_move_pos(m, rq, t->sector);
		return;
	}
	rq_end(m, rq, t->time, t->error);
}

/* A tagging plugin's tag on a completion: the I/Os completing take it if they have none. */
static void tag_rq(struct iom_rq *rq, int tag)
{
	struct iom_frag *f;

	for (f = rq->head; f; f = f->next)
		iom_take_tag(f->io, tag);
}

/* A bio-based device's C: the pending bios end to end from the sector. */
static bool bio_complete(struct iom *m, struct iom_dev *d, const struct bs_trace *t, int tag)
{
	uint64_t end = t->sector + iom_sectors(t->bytes), s = t->sector;
	bool any = false;

	for (;;) {
		struct iom_frag *f = iom_find_pending(m, d, s, 0, true);
		uint64_t fs;

		if (!f || (any && f->end > end))
			return any;
		fs = f->sector;

		any = true;
		iom_take_tag(f->io, tag);
		s = f->end;
		iom_frag_done(m, f, NULL, t->time, t->error);
		if (s >= end || s == fs)
			return true;
	}
}

void iom_on_complete(struct iom *m, struct iom_dev *d, const struct bs_trace *t, int tag)
{
	struct iom_rq *rq;

	if (!t->bytes) {
		if (iom_is_flush_op(t->action) && (rq = iom_find_flush_rq(m, d, t->sector))) {
			bs_dev_op_get(d->ctr, BS_OP_FLUSH)->rq_completed++;
			m->h.flush_requests++;
			iom_rq_free(m, rq);
			return;
		}
		if ((rq = iom_find_rq_ending(m, d, t->sector))) {
			if (tag >= 0)
				tag_rq(rq, tag);
			rq_end(m, rq, t->time, t->error);
			return;
		}
		/* a bio-based device's, or a request never seen: the pending bio there */
		if (bio_complete(m, d, t, tag))
			return;
		iom_unmatched(m, &m->h.c_unmatched, d, t);
		return;
	}
	if (!iom_is_rq_event(t->action) && bio_complete(m, d, t, tag))
		return;
	rq = iom_find_rq(m, d, t->sector, RQ_ISSUED);
	if (!rq)	/* its D was lost: a request built, or the bios pending there */
		rq = iom_find_rq(m, d, t->sector, RQ_BUILT);
	if (!rq)
		rq = iom_adopt(m, d, t->sector, iom_sectors(t->bytes));
	if (!rq) {
		iom_unmatched(m, &m->h.c_unmatched, d, t);
		return;
	}
	if (tag >= 0)
		tag_rq(rq, tag);
	rq_complete_data(m, rq, t);
}
