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

static inline uint32_t cats(uint32_t action)
{
	return action >> 16;
}

/* Sectors of a byte count, rounded up (a sub-sector tail still covers a sector). */
static inline uint64_t sectors(uint32_t bytes)
{
	return ((uint64_t)bytes + 511) >> 9;
}

static inline bool is_flush_op(uint32_t action)
{
	return (cats(action) & (BS_TC_FLUSH | BS_TC_WRITE)) == BS_TC_FLUSH;
}

static inline bool is_rq_event(uint32_t action)
{
	return cats(action) & (BS_TC_FS | BS_TC_PC);
}

#define FRAG_OF(x) ((struct iom_frag *)((char *)(x) - offsetof(struct iom_frag, hn)))
#define RQ_OF_POS(x) ((struct iom_rq *)((char *)(x) - offsetof(struct iom_rq, pos)))
#define RQ_OF_END(x) ((struct iom_rq *)((char *)(x) - offsetof(struct iom_rq, endn)))

/* ---- objects ------------------------------------------------------------ */

static void frag_free(struct iom *m, struct iom_frag *f)
{
	iom_tab_del(&m->pending, &f->hn);
	iom_pool_put(&m->frag_pool, f);
}

void iom_io_release(struct iom *m, struct iom_io *io)
{
	iom_pool_put(&m->io_pool, io);
}

static struct iom_rq *rq_new(struct iom *m, struct iom_dev *d, uint64_t start, uint64_t end,
			     uint32_t op_action)
{
	struct iom_rq *rq = iom_pool_get(&m->rq_pool);

	memset(rq, 0, sizeof(*rq));
	rq->dev = d;
	rq->start = start;
	rq->end = end;
	rq->t_i = rq->t_d = NS;
	rq->op_action = op_action;
	iom_tab_add(&m->by_pos, &rq->pos, d->index, start);
	if (end > start)
		iom_tab_add(&m->by_end, &rq->endn, d->index, end);
	return rq;
}

static void waiter_unlink(struct iom_rq *rq)
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

static void rq_free(struct iom *m, struct iom_rq *rq)
{
	iom_tab_del(&m->by_pos, &rq->pos);
	iom_tab_del(&m->by_end, &rq->endn);
	waiter_unlink(rq);
	iom_pool_put(&m->rq_pool, rq);
}

static void rq_move_pos(struct iom *m, struct iom_rq *rq, uint64_t pos)
{
	iom_tab_del(&m->by_pos, &rq->pos);
	iom_tab_add(&m->by_pos, &rq->pos, rq->dev->index, pos);
}

static void rq_move_end(struct iom *m, struct iom_rq *rq, uint64_t end)
{
	iom_tab_del(&m->by_end, &rq->endn);
	rq->end = end;
	if (rq->state == RQ_BUILT && end > rq->start)
		iom_tab_add(&m->by_end, &rq->endn, rq->dev->index, end);
}

static inline void take_tag(struct iom_io *io, int tag)
{
	if (io->tag < 0)
		io->tag = tag;
}

/*
 * An event of no known bio or request.  Within the first second of its
 * device (IOM_WARMUP_NS) it most likely belongs to an I/O queued before
 * the recording started; later, to lost events.
 */
static void unmatched(struct iom *m, struct iom_unmatched *u, const struct iom_dev *d, const struct bs_trace *t)
{
	u->n++;
	if (t->time >= d->ctr->first_time + IOM_WARMUP_NS)
		u->late++;
}

/* ---- lookups ------------------------------------------------------------ */

static void supersede(struct iom *m, struct iom_frag *f);

/*
 * The pending fragment at sector: the newest of pid's (G, X, M, F run in
 * the submitter's context, right after its Q), else the oldest.  A key
 * holding more than IOM_MAX_SAME fragments gives up its oldest, so that a
 * crafted trace cannot make every lookup walk a long chain.
 */
static struct iom_frag *find_pending(struct iom *m, struct iom_dev *d, uint64_t sector, uint32_t pid,
				     bool any_pid)
{
	struct iom_hnode *n = iom_tab_bucket(&m->pending, d->index, sector);
	struct iom_frag *mine = NULL, *oldest = NULL;
	unsigned int same = 0;

	for (; n; n = n->next) {
		struct iom_frag *f;

		if (!iom_tab_is(n, d->index, sector))
			continue;
		f = FRAG_OF(n);
		same++;
		if (!mine && !any_pid && f->io->pid == pid)
			mine = f;
		oldest = f;
	}
	if (same > IOM_MAX_SAME && oldest != mine) {
		supersede(m, oldest);
		return mine ? mine : find_pending(m, d, sector, pid, any_pid);
	}
	return mine ? mine : oldest;
}

/* Requests at pos in a state: the oldest (FIFO), or NULL. */
static struct iom_rq *find_rq(struct iom *m, struct iom_dev *d, uint64_t pos, int state)
{
	struct iom_hnode *n = iom_tab_bucket(&m->by_pos, d->index, pos);
	struct iom_rq *found = NULL;

	for (; n; n = n->next)
		if (iom_tab_is(n, d->index, pos) && RQ_OF_POS(n)->state == state && !RQ_OF_POS(n)->flush_op)
			found = RQ_OF_POS(n);
	return found;
}

/* The newest request still taking back merges that ends at sector. */
static struct iom_rq *find_rq_end(struct iom *m, struct iom_dev *d, uint64_t sector, const struct iom_rq *not)
{
	struct iom_hnode *n = iom_tab_bucket(&m->by_end, d->index, sector);

	for (; n; n = n->next)
		if (iom_tab_is(n, d->index, sector) && RQ_OF_END(n) != not)
			return RQ_OF_END(n);
	return NULL;
}

/* The flush request (no bio) issued at pos, oldest first. */
static struct iom_rq *find_flush_rq(struct iom *m, struct iom_dev *d, uint64_t pos)
{
	struct iom_hnode *n = iom_tab_bucket(&m->by_pos, d->index, pos);
	struct iom_rq *found = NULL;

	for (; n; n = n->next)
		if (iom_tab_is(n, d->index, pos) && RQ_OF_POS(n)->flush_op)
			found = RQ_OF_POS(n);
	return found;
}

/* What a zero-byte C at pos ends: a flush sequence, or a request without data; oldest. */
static struct iom_rq *find_rq_ending(struct iom *m, struct iom_dev *d, uint64_t pos)
{
	struct iom_hnode *n = iom_tab_bucket(&m->by_pos, d->index, pos);
	struct iom_rq *found = NULL;

	for (; n; n = n->next) {
		struct iom_rq *rq = RQ_OF_POS(n);

		if (iom_tab_is(n, d->index, pos) && !rq->flush_op &&
		    (rq->state == RQ_FLUSHSEQ || rq->start == rq->end))
			found = rq;
	}
	return found;
}

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

static void frag_done(struct iom *m, struct iom_frag *f, const struct iom_rq *rq, uint64_t t,
		      uint16_t error)
{
	struct iom_io *io = f->io;

	iom_frag_lead(io, f, rq);
	io->done_sectors += f->end - f->sector;
	if (io->t_c == NS || t > io->t_c)
		io->t_c = t;
	if (error && !io->error)
		io->error = error;
	frag_free(m, f);
	if (--io->open_frags == 0) {
		iom_io_emit(m, io, BS_IO_DONE);
		iom_io_release(m, io);
	}
}

/* Every fragment of rq done at t; rq freed. */
static void rq_done(struct iom *m, struct iom_rq *rq, uint64_t t, uint16_t error)
{
	while (rq->head) {
		struct iom_frag *f = rq->head;

		rq->head = f->next;
		frag_done(m, f, rq, t, error);
	}
	rq->tail = NULL;
	rq_free(m, rq);
}

/* A fragment that will never be seen again (bounded chains): its I/O is lost. */
static void supersede(struct iom *m, struct iom_frag *f)
{
	struct iom_io *io = f->io;

	m->h.superseded++;
	io->flags |= BS_IO_LOSS;
	frag_free(m, f);
	if (--io->open_frags == 0) {
		iom_io_emit(m, io, BS_IO_OPEN);
		iom_io_release(m, io);
	}
}

/* Does rq end with the zero-byte C of a flush sequence rather than with its data? */
static bool rq_in_flush_seq(const struct iom_rq *rq)
{
	if (rq->q_cats & BS_TC_FLUSH)
		return true;
	return (rq->q_cats & BS_TC_FUA) && !(cats(rq->d_action) & BS_TC_FUA);
}

/* ---- building requests ------------------------------------------------- */

static void rq_append(struct iom_rq *rq, struct iom_frag *f)
{
	f->rq = rq;
	f->next = NULL;
	if (rq->tail)
		rq->tail->next = f;
	else
		rq->head = f;
	rq->tail = f;
	rq->q_cats |= cats(f->io->action);
}

/* f leaves the pending table for rq. */
static void take_pending(struct iom *m, struct iom_frag *f)
{
	iom_tab_del(&m->pending, &f->hn);
}

/*
 * A D or C of a request never seen built (its G lost, or before the
 * trace): the pending fragments that lie end to end from sector become
 * its bios.  NULL when there is none.
 */
static struct iom_rq *adopt(struct iom *m, struct iom_dev *d, uint64_t sector, uint64_t nsec)
{
	struct iom_rq *rq = NULL;
	uint64_t s = sector;

	for (;;) {
		struct iom_frag *f = find_pending(m, d, s, 0, true);

		if (!f || (f->end > sector + nsec && rq))
			break;
		if (!rq)
			rq = rq_new(m, d, sector, sector, f->io->action);
		take_pending(m, f);
		f->t_entry = NS;
		rq_append(rq, f);
		rq_move_end(m, rq, f->end);
		if (f->end == s || f->end >= sector + nsec)
			break;
		s = f->end;
	}
	return rq;
}

/* ---- handlers ----------------------------------------------------------- */

static void check_remap(struct iom *m, struct iom_dev *d, struct iom_io *io)
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		struct iom_remap *r = &d->remaps[i];

		if (r->used || r->time == 0 || r->sector != io->sector || io->t_q - r->time > 1000000000ull)
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
	struct iom_frag *f = iom_pool_get(&m->frag_pool);

	memset(io, 0, sizeof(*io));
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
	if (d->remap_next)
		check_remap(m, d, io);
	memset(f, 0, sizeof(*f));
	f->io = io;
	f->sector = t->sector;
	f->end = t->sector + sectors(t->bytes);
	f->t_entry = f->t_i_own = NS;
	iom_tab_add(&m->pending, &f->hn, d->index, t->sector);
}

static void on_split(struct iom *m, struct iom_dev *d, const struct bs_trace *t, const uint8_t *pdu)
{
	struct iom_frag *f = find_pending(m, d, t->sector, t->pid, false), *g;
	uint64_t cut;
	size_t len;

	if (!f) {
		unmatched(m, &m->h.other_unmatched, d, t);
		return;
	}
	/* the front's size, else the PDU (the remainder's start, cut to 32 bits by the kernel) */
	if (t->bytes)
		cut = t->sector + sectors(t->bytes);
	else
		cut = bs_get_be64(bs_pdu_payload(t, pdu, &len));
	if (cut <= f->sector || cut >= f->end) {
		unmatched(m, &m->h.other_unmatched, d, t);
		return;
	}
	g = iom_pool_get(&m->frag_pool);
	*g = *f;
	g->hn.linked = 0;
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
	g = iom_pool_get(&m->frag_pool);
	*g = *f;
	g->hn.linked = 0;
	g->sector = f->sector + nsec;
	f->end = g->sector;
	f->io->frags++;
	f->io->open_frags++;
	iom_tab_add(&m->pending, &g->hn, d->index, g->sector);
}

static void on_getrq(struct iom *m, struct iom_dev *d, const struct bs_trace *t, int tag)
{
	struct iom_frag *f = find_pending(m, d, t->sector, t->pid, false);
	struct iom_rq *rq;

	if (!f) {	/* a bio never queued in the trace: its request is still tracked */
		unmatched(m, &m->h.other_unmatched, d, t);
		rq_new(m, d, t->sector, t->sector + sectors(t->bytes), t->action);
		return;
	}
	take_tag(f->io, tag);
	trim_to(m, d, f, sectors(t->bytes));
	take_pending(m, f);
	f->t_entry = t->time;
	f->merged = false;
	rq = rq_new(m, d, f->sector, f->end, t->action);
	rq_append(rq, f);
	if (f->io->zero && (rq->q_cats & BS_TC_FLUSH)) {	/* an empty preflush: the flush machinery's */
		rq->waits_flush = true;
		rq->next_waiter = d->flush_waiters;
		d->flush_waiters = rq;
	}
}

static void on_sleeprq(struct iom *m, struct iom_dev *d, const struct bs_trace *t)
{
	struct iom_frag *f = find_pending(m, d, t->sector, t->pid, false);

	if (f && f->io->t_s == NS)
		f->io->t_s = t->time;
}

static void on_bio_merge(struct iom *m, struct iom_dev *d, const struct bs_trace *t, bool front, int tag)
{
	struct iom_frag *f = find_pending(m, d, t->sector, t->pid, false);
	struct iom_rq *rq;

	if (!f) {
		unmatched(m, &m->h.other_unmatched, d, t);
		return;
	}
	take_tag(f->io, tag);
	trim_to(m, d, f, sectors(t->bytes));
	rq = front ? find_rq(m, d, f->end, RQ_BUILT) : find_rq_end(m, d, f->sector, NULL);
	if (!rq) {	/* its request was never seen: left pending (a later D adopts it) */
		unmatched(m, &m->h.other_unmatched, d, t);
		f->merged = true;
		f->t_entry = t->time;
		return;
	}
	take_pending(m, f);
	f->t_entry = t->time;
	f->merged = true;
	if (front) {
		f->rq = rq;
		f->next = rq->head;
		rq->head = f;
		rq->q_cats |= cats(f->io->action);
		rq->start = f->sector;
		rq_move_pos(m, rq, rq->start);
	} else {
		rq_append(rq, f);
		rq_move_end(m, rq, f->end);
	}
}

/* M with FS/PC: the request starting at the sector merges into the one ending there. */
static void on_rq_merge(struct iom *m, struct iom_dev *d, const struct bs_trace *t)
{
	struct iom_rq *next = find_rq(m, d, t->sector, RQ_BUILT), *rq;
	struct iom_frag *f;

	rq = next ? find_rq_end(m, d, t->sector, next) : NULL;
	if (!next || !rq) {
		unmatched(m, &m->h.other_unmatched, d, t);
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
	rq_move_end(m, rq, next->end);
	rq_free(m, next);
}

static void on_insert(struct iom *m, struct iom_dev *d, const struct bs_trace *t)
{
	struct iom_rq *rq = find_rq(m, d, t->sector, RQ_BUILT);

	if (rq)
		rq->t_i = t->time;
	else if (t->bytes)
		unmatched(m, &m->h.other_unmatched, d, t);
}

static void on_issue(struct iom *m, struct iom_dev *d, const struct bs_trace *t, int tag)
{
	struct iom_rq *rq, *w;
	struct iom_frag *f;

	if (!t->bytes && is_flush_op(t->action)) {	/* a flush of the flush machinery */
		rq = rq_new(m, d, t->sector, t->sector, t->action);
		rq->flush_op = true;
		rq->state = RQ_ISSUED;
		rq->t_d = t->time;
		for (w = d->flush_waiters; w; w = w->next_waiter)
			if (w->t_d == NS)
				w->t_d = t->time;
		d->flush_waiters = NULL;	/* each is served by this flush */
		return;
	}
	rq = find_rq(m, d, t->sector, RQ_BUILT);
	if (!rq && !(rq = adopt(m, d, t->sector, sectors(t->bytes)))) {
		unmatched(m, &m->h.d_unmatched, d, t);
		rq = rq_new(m, d, t->sector, t->sector + sectors(t->bytes), t->action);
	}
	waiter_unlink(rq);
	rq->state = RQ_ISSUED;
	rq->t_d = t->time;
	rq->d_bytes = t->bytes;
	rq->d_action = t->action;
	iom_tab_del(&m->by_end, &rq->endn);
	if (tag >= 0)
		for (f = rq->head; f; f = f->next)
			take_tag(f->io, tag);
}

static void on_requeue(struct iom *m, struct iom_dev *d, const struct bs_trace *t)
{
	struct iom_rq *rq = find_rq(m, d, t->sector, RQ_ISSUED);
	struct iom_frag *f;

	if (!rq) {
		unmatched(m, &m->h.other_unmatched, d, t);
		return;
	}
	rq->state = RQ_BUILT;
	rq->t_i = rq->t_d = NS;	/* it is inserted and issued again */
	rq->requeues++;
	for (f = rq->head; f; f = f->next)
		f->io->requeues++;
}

/* The request is over (its last C): counted as the kernel counts requests, its bios done. */
static void rq_end(struct iom *m, struct iom_rq *rq, uint64_t t, uint16_t error)
{
	bs_dev_op_get(rq->dev->ctr, bs_op_of(rq->op_action))->rq_completed++;
	rq_done(m, rq, t, error ? error : rq->error);
}

/* A request's data completed from its front, nsec sectors (partial completions advance it). */
static void rq_complete_data(struct iom *m, struct iom_rq *rq, const struct bs_trace *t)
{
	uint64_t nsec = sectors(t->bytes), left = nsec;
	bool seq = rq_in_flush_seq(rq);

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
		frag_done(m, f, rq, t->time, t->error);
	}
	if (t->error && !rq->error)
		rq->error = t->error;
	if (rq->start + nsec < rq->end) {	/* more to come, at the next position */
		rq->start += nsec;
		rq_move_pos(m, rq, rq->start);
		return;
	}
	if (seq) {	/* the zero-byte C at this position ends it */
		rq->state = RQ_FLUSHSEQ;
		rq->start = rq->end = t->sector;
		rq_move_pos(m, rq, t->sector);
		return;
	}
	rq_end(m, rq, t->time, t->error);
}

/* A bio-based device's C: the pending bios end to end from the sector. */
static bool bio_complete(struct iom *m, struct iom_dev *d, const struct bs_trace *t)
{
	uint64_t end = t->sector + sectors(t->bytes), s = t->sector;
	bool any = false;

	for (;;) {
		struct iom_frag *f = find_pending(m, d, s, 0, true);
		uint64_t fs;

		if (!f || (any && f->end > end))
			return any;
		fs = f->sector;

		any = true;
		s = f->end;
		frag_done(m, f, NULL, t->time, t->error);
		if (s >= end || s == fs)
			return true;
	}
}

static void on_complete(struct iom *m, struct iom_dev *d, const struct bs_trace *t)
{
	struct iom_rq *rq;

	if (!t->bytes) {
		if (is_flush_op(t->action) && (rq = find_flush_rq(m, d, t->sector))) {
			bs_dev_op_get(d->ctr, BS_OP_FLUSH)->rq_completed++;
			m->h.flush_requests++;
			rq_free(m, rq);
			return;
		}
		if ((rq = find_rq_ending(m, d, t->sector))) {
			rq_end(m, rq, t->time, t->error);
			return;
		}
		if (!is_rq_event(t->action) && bio_complete(m, d, t))
			return;
		unmatched(m, &m->h.c_unmatched, d, t);
		return;
	}
	if (!is_rq_event(t->action) && bio_complete(m, d, t))
		return;
	rq = find_rq(m, d, t->sector, RQ_ISSUED);
	if (!rq)	/* its D was lost: a request built, or the bios pending there */
		rq = find_rq(m, d, t->sector, RQ_BUILT);
	if (!rq)
		rq = adopt(m, d, t->sector, sectors(t->bytes));
	if (!rq) {
		unmatched(m, &m->h.c_unmatched, d, t);
		return;
	}
	rq_complete_data(m, rq, t);
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
		struct iom_frag *f = find_pending(m, m->devs[*fi], rm.sector_from, t->pid, false);

		if (f && f->io->t_a == NS)
			f->io->t_a = t->time;
	}
}

/* The I/O records (the cgroup flag already off in act). */
void iom_model_event(struct iom *m, struct iom_dev *d, const struct bs_trace *t, uint32_t hi,
		     const uint8_t *pdu, uint64_t cgroup, int tag, unsigned int act)
{
	switch (act) {
	case BS_TA_QUEUE:
		on_queue(m, d, t, hi, cgroup, tag);
		break;
	case BS_TA_SPLIT:
		on_split(m, d, t, pdu);
		break;
	case BS_TA_GETRQ:
		on_getrq(m, d, t, tag);
		break;
	case BS_TA_SLEEPRQ:
		on_sleeprq(m, d, t);
		break;
	case BS_TA_BACKMERGE:
		if (is_rq_event(t->action))
			on_rq_merge(m, d, t);
		else
			on_bio_merge(m, d, t, false, tag);
		break;
	case BS_TA_FRONTMERGE:
		on_bio_merge(m, d, t, true, tag);
		break;
	case BS_TA_INSERT:
		on_insert(m, d, t);
		break;
	case BS_TA_ISSUE:
		on_issue(m, d, t, tag);
		break;
	case BS_TA_REQUEUE:
		on_requeue(m, d, t);
		break;
	case BS_TA_COMPLETE:
		on_complete(m, d, t);
		break;
	case BS_TA_REMAP:
		on_remap(m, d, t, pdu);
		break;
	}
}
