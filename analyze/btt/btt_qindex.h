/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt_qindex.h - a device's queued bios by start sector, beside btt's Q
 * tree, so that most lookups need no walk down that tree.
 *
 * btt finds a queued bio by a root-first walk of its per-device tree, and
 * with overlapping bios the answer depends on the tree's shape; so the
 * tree stays, exact, for every case.  But while the queued ranges are all
 * non-empty and disjoint the walk can only end at the one bio holding the
 * sector, and a request's range holds exactly the bio that starts and ends
 * where it does: a hash of start sectors answers, in a probe or two where
 * the walk took a mispredicted branch per level.  Whether the ranges are
 * disjoint is kept as a count of neighbours (in start order) that
 * overlap: if any two ranges overlap, some pair of neighbours does.
 *
 * A bio that is merged into a request (M, F) is not looked up by its
 * start alone again: the request's D and C name a range of several bios,
 * which the tree's walk collects.  So the bio queued last waits outside
 * the table (pending) until the next one comes, and one merged meanwhile
 * never goes in (one merged later leaves it); a lookup of a bio not in
 * the table finds none and falls back to the tree, which is exact.  A
 * sequential writer's bios, nearly all merged, then leave the table to
 * the requests' first bios and the reads.  Whether a bio is in a slot
 * follows from its merge time: a queued bio other than the pending one
 * is in a slot exactly while its t_m is BT_NONE.
 */
#ifndef BLKSCOPE_BTT_QINDEX_H
#define BLKSCOPE_BTT_QINDEX_H

#include <stdbool.h>
#include <stdint.h>
#include "btt_rbtree.h"

struct bt_q;

struct bt_qslot {
	uint64_t sector;
	struct bt_q *q;		/* NULL: the slot is free */
};

struct bt_qindex {
	struct bt_qslot *slot;	/* open addressing, linear probing */
	uint32_t mask;		/* slots - 1; 0 before the first bio placed */
	uint32_t n;		/* bios in the slots */
	struct bt_q *pending;	/* the bio added last, not yet in a slot; or NULL */
	uint64_t pending_sector;
	/* both below n: counted only while the index is on (n < 2^29) */
	uint32_t overlaps;	/* neighbouring bios whose ranges overlap */
	uint32_t odd;		/* bios with an empty or wrapped range (end <= start) */
	bool off;		/* a probe ran too long (crafted sectors): the tree alone */
	uint64_t max_len;	/* the longest range ever indexed (it never shrinks) */
};

/* No bio sits further than this from its home slot; a lookup stops there. */
#define BT_QINDEX_PROBES 32

static inline uint32_t bt_qindex_home(const struct bt_qindex *x, uint64_t sector)
{
	return (uint32_t)((sector * 0x9e3779b97f4a7c15ull) >> 32) & x->mask;
}

/* May the index answer for the tree: every range non-empty and disjoint. */
static inline bool bt_qindex_exact(const struct bt_qindex *x)
{
	return !x->off && !x->overlaps && !x->odd && x->mask;
}

/* The slot of the queued bio starting at sector, or NULL. */
static inline struct bt_qslot *bt_qindex_slot(const struct bt_qindex *x, uint64_t sector)
{
	uint32_t i = bt_qindex_home(x, sector), k;

	for (k = 0; k < BT_QINDEX_PROBES; k++) {
		struct bt_qslot *s = &x->slot[(i + k) & x->mask];

		if (!s->q)
			return NULL;
		if (s->sector == sector)
			return s;
	}
	return NULL;
}

/* The queued bio starting at sector, or NULL: none there, or one merged. */
static inline struct bt_q *bt_qindex_get(const struct bt_qindex *x, uint64_t sector)
{
	const struct bt_qslot *s;

	if (x->pending && x->pending_sector == sector)
		return x->pending;
	if (!x->mask)
		return NULL;
	s = bt_qindex_slot(x, sector);
	return s ? s->q : NULL;
}

/*
 * q was linked into the tree as a new node; pred and succ are its
 * neighbours in start order (NULL at either end).
 */
void bt_qindex_add(struct bt_qindex *x, struct bt_q *q, const struct bt_q *pred,
		   const struct bt_q *succ);
/* q took the place of old (the same start sector) in the tree */
void bt_qindex_replace(struct bt_qindex *x, const struct bt_q *old, struct bt_q *q);
/* q, queued and not merged before (t_m still BT_NONE), was merged into a request */
void bt_qindex_merged(struct bt_qindex *x, struct bt_q *q);
/* q is leaving the tree (call before it is unlinked) */
void bt_qindex_del(struct bt_qindex *x, struct bt_q *q);
/* the index of a tree copied node for node (the sample engine's fork) */
void bt_qindex_rebuild(struct bt_qindex *x, const struct bt_rb_root *tree);
void bt_qindex_free(struct bt_qindex *x);

#endif /* BLKSCOPE_BTT_QINDEX_H */
