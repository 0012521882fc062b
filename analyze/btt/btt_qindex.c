// SPDX-License-Identifier: GPL-2.0
/*
 * btt_qindex.c - the start-sector index of a device's queued bios and the
 * counts that say when it may answer for btt's Q tree (btt_qindex.h).
 *
 * The table has at least four times the slots it has bios (short probe
 * runs: few mispredicted loop exits); a bio that cannot be placed within
 * BTT_QINDEX_PROBES of its home (sectors crafted to collide) turns the
 * index off for the device: the tree answers alone, exactly as before,
 * and no operation ever probes further.  Removal shifts the entries
 * behind the freed slot back (no tombstones), which only brings entries
 * nearer their home.
 */
#include <stdlib.h>
#include "bs_alloc.h"
#include "btt_priv.h"
#include "btt_qindex.h"

/* small: a trace may name 100k devices with an I/O or two each */
#define QINDEX_FIRST_SLOTS 2

/*
 * The overlapping neighbour pairs q adds between its neighbours in start
 * order (pred, succ; NULL at either end, overlapping nothing): q with
 * each, less pred with succ, which q now separates.  Never negative: if
 * pred reaches into succ it reaches into q, which starts between them.
 */
static inline uint32_t overlaps_around(const struct btt_q *pred, const struct btt_q *q,
				       const struct btt_q *succ)
{
	uint64_t pred_end = pred ? pred->end : 0, succ_start = succ ? succ->sector : UINT64_MAX;

	return (uint32_t)(pred_end > q->sector) + (q->end > succ_start) - (pred_end > succ_start);
}

static inline uint32_t empty_or_wrapped(const struct btt_q *q)
{
	return q->end <= q->sector;
}

/* the longest range indexed so far (a bound for q_alone_from_left(), btt_priv.h) */
static inline void widen(struct btt_qindex *x, const struct btt_q *q)
{
	if (!empty_or_wrapped(q) && q->end - q->sector > x->max_len)
		x->max_len = q->end - q->sector;
}

static void turn_off(struct btt_qindex *x)
{
	free(x->slot);
	x->slot = NULL;
	x->mask = 0;
	x->n = 0;
	x->pending = NULL;
	x->off = true;
}

/* false: no free slot near enough to home */
static bool place(struct btt_qindex *x, uint64_t sector, struct btt_q *q)
{
	uint32_t i = btt_qindex_home(x, sector), k;

	for (k = 0; k < BTT_QINDEX_PROBES; k++) {
		struct btt_qslot *s = &x->slot[(i + k) & x->mask];

		if (!s->q) {
			s->sector = sector;
			s->q = q;
			return true;
		}
	}
	return false;
}

/* false: too big, or a bio too far from its home in the new table (x->slot is the new one) */
static bool grow(struct btt_qindex *x)
{
	struct btt_qslot *old = x->slot;
	uint32_t i, old_slots = old ? x->mask + 1 : 0;
	uint32_t nslots = old ? old_slots * 2 : QINDEX_FIRST_SLOTS;
	bool ok = true;

	if (nslots > (1u << 30))
		return false;
	x->slot = bs_xcalloc(nslots, sizeof(*x->slot));
	x->mask = nslots - 1;
	for (i = 0; ok && i < old_slots; i++)
		if (old[i].q)
			ok = place(x, old[i].sector, old[i].q);
	free(old);
	return ok;
}

/* The pending bio into a slot; false: the index turned itself off. */
static bool place_pending(struct btt_qindex *x)
{
	struct btt_q *q = x->pending;

	if (!q)
		return true;
	x->pending = NULL;
	if (((x->n + 1) * 4 > x->mask + 1 && !grow(x)) || !place(x, x->pending_sector, q)) {
		turn_off(x);
		return false;
	}
	x->n++;
	return true;
}

static void set_pending(struct btt_qindex *x, struct btt_q *q)
{
	x->pending = q;
	x->pending_sector = q->sector;
}

/* q is the bio added last: the one pending before it takes its slot */
static void push_pending(struct btt_qindex *x, struct btt_q *q)
{
	if (place_pending(x))
		set_pending(x, q);
}

void btt_qindex_add(struct btt_qindex *x, struct btt_q *q, const struct btt_q *pred,
		   const struct btt_q *succ)
{
	if (x->off)
		return;
	x->overlaps += overlaps_around(pred, q, succ);
	x->n_empty_or_wrapped += empty_or_wrapped(q);
	widen(x, q);
	push_pending(x, q);
}

void btt_qindex_replace(struct btt_qindex *x, const struct btt_q *old, struct btt_q *q)
{
	const struct btt_q *pred, *succ;
	const struct btt_rb_node *n;
	struct btt_qslot *s;

	if (x->off)
		return;
	n = btt_rb_prev(&q->rb);
	pred = n ? btt_rb_entry(n, const struct btt_q, rb) : NULL;
	n = btt_rb_next(&q->rb);
	succ = n ? btt_rb_entry(n, const struct btt_q, rb) : NULL;
	x->overlaps += overlaps_around(pred, q, succ) - overlaps_around(pred, old, succ);
	x->n_empty_or_wrapped += empty_or_wrapped(q);
	x->n_empty_or_wrapped -= empty_or_wrapped(old);
	widen(x, q);
	if (x->pending == old) {
		set_pending(x, q);
		return;
	}
	if (old->t_m != BTT_NONE) {	/* old was merged: in no slot */
		push_pending(x, q);
		return;
	}
	s = btt_qindex_slot(x, q->sector);
	if (s && s->q == old)
		s->q = q;
	else	/* cannot happen: old was placed; keep the tree exact regardless */
		turn_off(x);
}

/* Free slot i and shift back the entries of its run that may move there. */
static void unplace(struct btt_qindex *x, uint32_t i)
{
	uint32_t j = i;

	for (;;) {
		uint32_t h;

		j = (j + 1) & x->mask;
		if (!x->slot[j].q)
			break;
		h = btt_qindex_home(x, x->slot[j].sector);
		/* the entry at j may fill i unless its home lies in (i, j] */
		if (((j - h) & x->mask) >= ((j - i) & x->mask)) {
			x->slot[i] = x->slot[j];
			i = j;
		}
	}
	x->slot[i].q = NULL;
}

/* q in its slot, or NULL (the index turned itself off: q should have been there) */
static struct btt_qslot *slot_of(struct btt_qindex *x, const struct btt_q *q)
{
	struct btt_qslot *s = x->mask ? btt_qindex_slot(x, q->sector) : NULL;

	if (s && s->q == q)
		return s;
	turn_off(x);
	return NULL;
}

/* q, pending or in a slot (not merged), leaves the index */
static void take_out(struct btt_qindex *x, const struct btt_q *q)
{
	struct btt_qslot *s;

	if (x->pending == q) {
		x->pending = NULL;
		return;
	}
	s = slot_of(x, q);
	if (s) {
		unplace(x, (uint32_t)(s - x->slot));
		x->n--;
	}
}

void btt_qindex_merged(struct btt_qindex *x, struct btt_q *q)
{
	if (!x->off)
		take_out(x, q);
}

void btt_qindex_del(struct btt_qindex *x, struct btt_q *q)
{
	if (x->off)
		return;
	/*
	 * With no neighbours overlapping, removing q cannot make its two
	 * neighbours overlap (pred ends before q starts, succ starts after
	 * it), so the walk for them is needed only when some pair overlaps.
	 */
	if (x->overlaps) {
		const struct btt_rb_node *p = btt_rb_prev(&q->rb), *n = btt_rb_next(&q->rb);
		const struct btt_q *pred = p ? btt_rb_entry(p, const struct btt_q, rb) : NULL;
		const struct btt_q *succ = n ? btt_rb_entry(n, const struct btt_q, rb) : NULL;

		x->overlaps -= overlaps_around(pred, q, succ);
	}
	x->n_empty_or_wrapped -= empty_or_wrapped(q);
	if (q->t_m == BTT_NONE)	/* a merged bio is in no slot (and never pending) */
		take_out(x, q);
}

void btt_qindex_rebuild(struct btt_qindex *x, const struct btt_rb_root *tree)
{
	const struct btt_rb_node *n;
	const struct btt_q *pred = NULL;

	btt_qindex_free(x);
	for (n = btt_rb_first(tree); n; n = btt_rb_next(n)) {
		struct btt_q *q = btt_rb_entry(n, struct btt_q, rb);

		btt_qindex_add(x, q, pred, NULL);
		if (q->t_m != BTT_NONE)	/* merged: never in a slot */
			btt_qindex_merged(x, q);
		pred = q;
	}
}

void btt_qindex_free(struct btt_qindex *x)
{
	free(x->slot);
	*x = (struct btt_qindex){ 0 };
}
