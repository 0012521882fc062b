// SPDX-License-Identifier: GPL-2.0
/*
 * iom_objs.c - the per-I/O model's objects (fragments, requests) and their
 * lookups in the sector index: which pending bio an event names, which
 * request it is about (iom_priv.h).
 */
#include <string.h>
#include "bs_codec.h"
#include "iom_priv.h"

#define NS BS_NOT_SEEN

/* ---- objects ------------------------------------------------------------ */

/* Unlink f from its I/O's fragments (a short list: the cuts of one bio). */
static void sib_unlink(struct iom_frag *f)
{
	struct iom_frag **p;

	for (p = &f->io->first.sib; *p; p = &(*p)->sib)
		if (*p == f) {
			*p = f->sib;
			return;
		}
}

struct iom_frag *iom_frag_new(struct iom *m, const struct iom_frag *like)
{
	struct iom_frag *g = iom_pool_get(&m->frag_pool);

	*g = *like;
	g->hn.pprev = NULL;
	g->hn.next = NULL;
	g->sib = like->io->first.sib;
	like->io->first.sib = g;
	return g;
}

void iom_frag_free(struct iom *m, struct iom_frag *f)
{
	iom_tab_del(&m->pending, &f->hn);
	if (f != &f->io->first) {	/* the first lives in its I/O */
		sib_unlink(f);
		iom_pool_put(&m->frag_pool, f);
	}
}

static void live_unlink(struct iom *m, struct iom_io *io)
{
	if (io->older)
		io->older->newer = io->newer;
	else
		m->oldest = io->newer;
	if (io->newer)
		io->newer->older = io->older;
	else
		m->newest = io->older;
	m->nlive--;
}

/* Take fragment f out of the request holding it (the request goes when it has no bio left). */
static void leave_rq(struct iom *m, struct iom_frag *f)
{
	struct iom_rq *rq = f->rq;
	struct iom_frag **p, *prev = NULL;

	for (p = &rq->head; *p; prev = *p, p = &(*p)->next)
		if (*p == f) {
			*p = f->next;
			break;
		}
	if (rq->tail == f)
		rq->tail = prev;
	if (!rq->head)
		iom_rq_free(m, rq);
}

/* The oldest I/O in flight, given up: out of every table, to the sinks as open. */
static void evict(struct iom *m, struct iom_io *io)
{
	struct iom_frag *f = &io->first, *next;

	m->h.evicted++;
	io->flags |= BS_IO_LOSS;
	for (; f; f = next) {
		next = f->sib;
		if (f->rq)
			leave_rq(m, f);
		iom_frag_free(m, f);
	}
	iom_io_emit(m, io, BS_IO_OPEN);
	iom_io_release(m, io);
}

void iom_io_live(struct iom *m, struct iom_io *io)
{
	io->newer = NULL;
	io->older = m->newest;
	if (m->newest)
		m->newest->newer = io;
	else
		m->oldest = io;
	m->newest = io;
	if (++m->nlive > IOM_MAX_LIVE)
		evict(m, m->oldest);
}

void iom_io_release(struct iom *m, struct iom_io *io)
{
	live_unlink(m, io);
	iom_pool_put(&m->io_pool, io);
}

struct iom_rq *iom_rq_new(struct iom *m, struct iom_dev *d, uint64_t start, uint64_t end,
			     uint32_t op_action)
{
	struct iom_rq *rq = iom_pool_get(&m->rq_pool);

	/* every field, no memset: one request per I/O on the common path */
	rq->endn.pprev = NULL;
	rq->endn.next = NULL;
	rq->dev = d;
	rq->head = rq->tail = NULL;
	rq->start = start;
	rq->end = end;
	rq->t_i = rq->t_d = NS;
	rq->d_bytes = rq->d_action = 0;
	rq->op_action = op_action;
	rq->error = 0;
	rq->q_cats = 0;
	rq->state = RQ_BUILT;
	rq->flush_op = rq->waits_flush = false;
	rq->requeues = 0;
	rq->next_waiter = NULL;
	iom_tab_add(&m->by_pos, &rq->pos, d->index, start);
	if (end > start)
		iom_tab_add(&m->by_end, &rq->endn, d->index, end);
	return rq;
}

void iom_waiter_unlink(struct iom_rq *rq)
{
	struct iom_rq **p;

	if (!rq->waits_flush)
		return;
	for (p = &rq->dev->flush_waiters; *p; p = &(*p)->next_waiter)
		if (*p == rq) {
			*p = rq->next_waiter;
			break;
		}
	rq->waits_flush = false;
}

void iom_rq_free(struct iom *m, struct iom_rq *rq)
{
	iom_tab_del(&m->by_pos, &rq->pos);
	iom_tab_del(&m->by_end, &rq->endn);
	iom_waiter_unlink(rq);
	iom_pool_put(&m->rq_pool, rq);
}

void iom_rq_move_pos(struct iom *m, struct iom_rq *rq, uint64_t pos)
{
	iom_tab_del(&m->by_pos, &rq->pos);
	iom_tab_add(&m->by_pos, &rq->pos, rq->dev->index, pos);
}

void iom_rq_move_end(struct iom *m, struct iom_rq *rq, uint64_t end)
{
	iom_tab_del(&m->by_end, &rq->endn);
	rq->end = end;
	if (rq->state == RQ_BUILT && end > rq->start)
		iom_tab_add(&m->by_end, &rq->endn, rq->dev->index, end);
}


/*
 * An event of no known bio or request.  Within the first second of its
 * device (IOM_WARMUP_NS) it most likely belongs to an I/O queued before
 * the recording started; later, to lost events.
 */
void iom_unmatched(struct iom *m, struct iom_unmatched *u, const struct iom_dev *d,
		   const struct bs_trace *t)
{
	u->n++;
	if (t->time >= d->ctr->first_time + IOM_WARMUP_NS)
		u->late++;
}

/* ---- lookups ------------------------------------------------------------ */


/*
 * The pending fragment at sector: the newest of pid's (G, X, M, F run in
 * the submitter's context, right after its Q), else the oldest.  A key
 * holding more than IOM_MAX_SAME fragments gives up its oldest, so that a
 * crafted trace cannot make every lookup walk a long chain.
 */
struct iom_frag *iom_find_pending(struct iom *m, struct iom_dev *d, uint64_t sector, uint32_t pid,
				     bool any_pid)
{
	struct iom_hnode *n = iom_tab_bucket(&m->pending, d->index, sector);
	struct iom_frag *mine = NULL, *oldest = NULL;
	unsigned int same = 0;

	for (; n; n = n->next) {
		struct iom_frag *f;

		if (!iom_tab_is(n, d->index, sector))
			continue;
		f = IOM_FRAG_OF(n);
		same++;
		if (!mine && !any_pid && f->io->pid == pid)
			mine = f;
		oldest = f;
	}
	if (same > IOM_MAX_SAME && oldest != mine) {
		iom_supersede(m, oldest);
		return mine ? mine : iom_find_pending(m, d, sector, pid, any_pid);
	}
	return mine ? mine : oldest;
}

/* Requests at pos in a state: the oldest (FIFO), or NULL. */
struct iom_rq *iom_find_rq(struct iom *m, struct iom_dev *d, uint64_t pos, int state)
{
	struct iom_hnode *n = iom_tab_bucket(&m->by_pos, d->index, pos);
	struct iom_rq *found = NULL;

	for (; n; n = n->next)
		if (iom_tab_is(n, d->index, pos) && IOM_RQ_OF_POS(n)->state == state &&
		    !IOM_RQ_OF_POS(n)->flush_op)
			found = IOM_RQ_OF_POS(n);
	return found;
}

/* The newest request still taking back merges that ends at sector. */
struct iom_rq *iom_find_rq_end(struct iom *m, struct iom_dev *d, uint64_t sector,
			       const struct iom_rq * not )
{
	struct iom_hnode *n = iom_tab_bucket(&m->by_end, d->index, sector);

	for (; n; n = n->next)
		if (iom_tab_is(n, d->index, sector) && IOM_RQ_OF_END(n) != not)
			return IOM_RQ_OF_END(n);
	return NULL;
}

/* The flush request (no bio) issued at pos, oldest first. */
struct iom_rq *iom_find_flush_rq(struct iom *m, struct iom_dev *d, uint64_t pos)
{
	struct iom_hnode *n = iom_tab_bucket(&m->by_pos, d->index, pos);
	struct iom_rq *found = NULL;

	for (; n; n = n->next)
		if (iom_tab_is(n, d->index, pos) && IOM_RQ_OF_POS(n)->flush_op)
			found = IOM_RQ_OF_POS(n);
	return found;
}

/* What a zero-byte C at pos ends: a flush sequence, or a request without data; oldest. */
struct iom_rq *iom_find_rq_ending(struct iom *m, struct iom_dev *d, uint64_t pos)
{
	struct iom_hnode *n = iom_tab_bucket(&m->by_pos, d->index, pos);
	struct iom_rq *found = NULL;

	for (; n; n = n->next) {
		struct iom_rq *rq = IOM_RQ_OF_POS(n);

		if (iom_tab_is(n, d->index, pos) && !rq->flush_op &&
		    (rq->state == RQ_FLUSHSEQ || rq->start == rq->end))
			found = rq;
	}
	return found;
}

/* A fragment that will never be seen again (bounded chains): its I/O is lost. */
void iom_supersede(struct iom *m, struct iom_frag *f)
{
	struct iom_io *io = f->io;

	m->h.superseded++;
	io->flags |= BS_IO_LOSS;
	iom_frag_free(m, f);
	if (--io->open_frags == 0) {
		iom_io_emit(m, io, BS_IO_OPEN);
		iom_io_release(m, io);
	}
}

/* ---- building requests ------------------------------------------------- */

void iom_rq_append(struct iom_rq *rq, struct iom_frag *f)
{
	f->rq = rq;
	f->next = NULL;
	if (rq->tail)
		rq->tail->next = f;
	else
		rq->head = f;
	rq->tail = f;
	rq->q_cats |= iom_cats(f->io->action);
}

/* f leaves the pending table for rq. */
void iom_take_pending(struct iom *m, struct iom_frag *f)
{
	iom_tab_del(&m->pending, &f->hn);
}

/*
 * A D or C of a request never seen built (its G lost, or before the
 * trace): the pending fragments that lie end to end from sector become
 * its bios.  NULL when there is none.
 */
struct iom_rq *iom_adopt(struct iom *m, struct iom_dev *d, uint64_t sector, uint64_t nsec)
{
	struct iom_rq *rq = NULL;
	uint64_t s = sector;

	for (;;) {
		struct iom_frag *f = iom_find_pending(m, d, s, 0, true);

		if (!f || (f->end > sector + nsec && rq))
			break;
		if (!rq)
			rq = iom_rq_new(m, d, sector, sector, f->io->action);
		iom_take_pending(m, f);
		f->t_entry = NS;
		iom_rq_append(rq, f);
		iom_rq_move_end(m, rq, f->end);
		if (f->end == s || f->end >= sector + nsec)
			break;
		s = f->end;
	}
	return rq;
}
