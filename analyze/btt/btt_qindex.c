// SPDX-License-Identifier: GPL-2.0
/*
 * btt_qindex.c - the start-sector index of a device's queued bios and the
 * counts that say when it may answer for btt's Q tree (btt_qindex.h).
 *
 * The table has at least four times the slots it has bios (short probe
 * runs: few mispredicted loop exits); a bio that cannot be placed within
 * BT_QINDEX_PROBES of its home (sectors crafted to collide) turns the
 * index off for the device: the tree answers alone, exactly as before,
 * and no operation ever probes further.  Removal shifts the entries
 * behind the freed slot back (no tombstones), which only brings entries
 * nearer their home.
 */
#include <stdlib.h>
#include "bs_alloc.h"
#include "btt_internal.h"
#include "btt_qindex.h"

/* small: a trace may name 100k devices with an I/O or two each */
#define QINDEX_FIRST_SLOTS 2

/*
 * The overlapping neighbour pairs q adds between its neighbours in start
 * order (pred, succ; NULL at either end, overlapping nothing): q with
 * each, less pred with succ, which q now separates.  Never negative: if
 * pred reaches into succ it reaches into q, which starts between them.
 */
static inline uint32_t overlaps_around(const struct bt_q *pred, const struct bt_q *q,
				       const struct bt_q *succ)
{
	uint64_t pred_end = pred ? pred->end : 0, succ_start = succ ? succ->sector : UINT64_MAX;

	return (uint32_t)(pred_end > q->sector) + (q->end > succ_start) - (pred_end > succ_start);
}

static inline uint32_t odd(const struct bt_q *q)
{
	return q->end <= q->sector;
}

/* the longest range indexed so far (a bound for q_alone_from_left(), btt_internal.h) */
static inline void widen(struct bt_qindex *x, const struct bt_q *q)
{
	if (!odd(q) && q->end - q->sector > x->max_len)
		x->max_len = q->end - q->sector;
}

static void turn_off(struct bt_qindex *x)
{
	free(x->slot);
	x->slot = NULL;
	x->mask = 0;
	x->n = 0;
	x->pending = NULL;
	x->off = true;
}

/* false: no free slot near enough to home */
static bool place(struct bt_qindex *x, uint64_t sector, struct bt_q *q)
{
	uint32_t i = bt_qindex_home(x, sector), k;

	for (k = 0; k < BT_QINDEX_PROBES; k++) {
		struct bt_qslot *s = &x->slot[(i + k) & x->mask];

		if (!s->q) {
			s->sector = sector;
			s->q = q;
			return true;
		}
	}
	return false;
}

/* false: too big, or a bio too far from its home in the new table (x->slot is the new one) */
static bool grow(struct bt_qindex *x)
{
	struct bt_qslot *old = x->slot;
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
static bool place_pending(struct bt_qindex *x)
{
	struct bt_q *q = x->pending;

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

static void set_pending(struct bt_qindex *x, struct bt_q *q)
{
	x->pending = q;
	x->pending_sector = q->sector;
}

/* q is the bio added last: the one pending before it takes its slot */
static void push_pending(struct bt_qindex *x, struct bt_q *q)
{
	if (place_pending(x))
		set_pending(x, q);
}

void bt_qindex_add(struct bt_qindex *x, struct bt_q *q, const struct bt_q *pred,
		   const struct bt_q *succ)
{
	if (x->off)
		return;
	x->overlaps += overlaps_around(pred, q, succ);
	x->odd += odd(q);
	widen(x, q);
	push_pending(x, q);
}

void bt_qindex_replace(struct bt_qindex *x, const struct bt_q *old, struct bt_q *q)
{
	const struct bt_q *pred, *succ;
	const struct bt_rb_node *n;
	struct bt_qslot *s;

	if (x->off)
		return;
	n = bt_rb_prev(&q->rb);
	pred = n ? bt_rb_entry(n, const struct bt_q, rb) : NULL;
	n = bt_rb_next(&q->rb);
	succ = n ? bt_rb_entry(n, const struct bt_q, rb) : NULL;
	x->overlaps += overlaps_around(pred, q, succ) - overlaps_around(pred, old, succ);
	x->odd += odd(q);
	x->odd -= odd(old);
	widen(x, q);
	if (x->pending == old) {
		set_pending(x, q);
		return;
	}
	if (old->t_m != BT_NONE) {	/* old was merged: in no slot */
		push_pending(x, q);
		return;
	}
	s = bt_qindex_slot(x, q->sector);
	if (s && s->q == old)
		s->q = q;
	else	/* cannot happen: old was placed; keep the tree exact regardless */
		turn_off(x);
}

/* Free slot i and shift back the entries of its run that may move there. */
static void unplace(struct bt_qindex *x, uint32_t i)
{
	uint32_t j = i;

	for (;;) {
		uint32_t h;

		j = (j + 1) & x->mask;
		if (!x->slot[j].q)
			break;
		h = bt_qindex_home(x, x->slot[j].sector);
		/* the entry at j may fill i unless its home lies in (i, j] */
		if (((j - h) & x->mask) >= ((j - i) & x->mask)) {
			x->slot[i] = x->slot[j];
			i = j;
		}
	}
	x->slot[i].q = NULL;
}

/* q in its slot, or NULL (the index turned itself off: q should have been there) */
static struct bt_qslot *slot_of(struct bt_qindex *x, const struct bt_q *q)
{
	struct bt_qslot *s = x->mask ? bt_qindex_slot(x, q->sector) : NULL;

	if (s && s->q == q)
		return s;
	turn_off(x);
	return NULL;
}

/* q, pending or in a slot (not merged), leaves the index */
static void take_out(struct bt_qindex *x, const struct bt_q *q)
{
	struct bt_qslot *s;

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

void bt_qindex_merged(struct bt_qindex *x, struct bt_q *q)
{
	if (!x->off)
		take_out(x, q);
}

void bt_qindex_del(struct bt_qindex *x, struct bt_q *q)
{
	if (x->off)
		return;
	/*
	 * With no neighbours overlapping, removing q cannot make its two
	 * neighbours overlap (pred ends before q starts, succ starts after
	 * it), so the walk for them is needed only when some pair overlaps.
	 */
	if (x->overlaps) {
		const struct bt_rb_node *p = bt_rb_prev(&q->rb), *n = bt_rb_next(&q->rb);
		const struct bt_q *pred = p ? bt_rb_entry(p, const struct bt_q, rb) : NULL;
		const struct bt_q *succ = n ? bt_rb_entry(n, const struct bt_q, rb) : NULL;

		x->overlaps -= overlaps_around(pred, q, succ);
	}
	x->odd -= odd(q);
	if (q->t_m == BT_NONE)	/* a merged bio is in no slot (and never pending) */
		take_out(x, q);
}

void bt_qindex_rebuild(struct bt_qindex *x, const struct bt_rb_root *tree)
{
	const struct bt_rb_node *n;
	const struct bt_q *pred = NULL;

	bt_qindex_free(x);
	for (n = bt_rb_first(tree); n; n = bt_rb_next(n)) {
		struct bt_q *q = bt_rb_entry(n, struct bt_q, rb);

		bt_qindex_add(x, q, pred, NULL);
		if (q->t_m != BT_NONE)	/* merged: never in a slot */
			bt_qindex_merged(x, q);
		pred = q;
	}
}

void bt_qindex_free(struct bt_qindex *x)
{
	free(x->slot);
	*x = (struct bt_qindex){ 0 };
}
