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
 * is in a slot exactly while its t_m is BTT_NONE.
 */
#ifndef BLKSCOPE_BTT_QINDEX_H
#define BLKSCOPE_BTT_QINDEX_H

#include <stdbool.h>
#include <stdint.h>
#include "btt_rbtree.h"

struct btt_q;

struct btt_qslot {
	uint64_t sector;
	struct btt_q *q;		/* NULL: the slot is free */
};

struct btt_qindex {
	struct btt_qslot *slot;	/* open addressing, linear probing */
	uint32_t mask;		/* slots - 1; 0 before the first bio placed */
	uint32_t n;		/* bios in the slots */
	struct btt_q *pending;	/* the bio added last, not yet in a slot; or NULL */
	uint64_t pending_sector;
	/* both below n: counted only while the index is on (n < 2^29) */
	uint32_t overlaps;	/* neighbouring bios whose ranges overlap */
	uint32_t n_empty_or_wrapped;	/* bios with an empty or wrapped range (end <= start) */
	bool off;		/* a probe ran too long (crafted sectors): the tree alone */
	uint64_t max_len;	/* the longest range ever indexed (it never shrinks) */
};

/* No bio sits further than this from its home slot; a lookup stops there. */
#define BTT_QINDEX_PROBES 32

static inline uint32_t btt_qindex_home(const struct btt_qindex *x, uint64_t sector)
{
	return (uint32_t)((sector * 0x9e3779b97f4a7c15ull) >> 32) & x->mask;
}

/* May the index answer for the tree: every range non-empty and disjoint. */
static inline bool btt_qindex_exact(const struct btt_qindex *x)
{
	return !x->off && !x->overlaps && !x->n_empty_or_wrapped && x->mask;
}

/* The slot of the queued bio starting at sector, or NULL. */
static inline struct btt_qslot *btt_qindex_slot(const struct btt_qindex *x, uint64_t sector)
{
	uint32_t i = btt_qindex_home(x, sector), k;

	for (k = 0; k < BTT_QINDEX_PROBES; k++) {
		struct btt_qslot *s = &x->slot[(i + k) & x->mask];

		if (!s->q)
			return NULL;
		if (s->sector == sector)
			return s;
	}
	return NULL;
}

/* The queued bio starting at sector, or NULL: none there, or one merged. */
static inline struct btt_q *btt_qindex_get(const struct btt_qindex *x, uint64_t sector)
{
	const struct btt_qslot *s;

	if (x->pending && x->pending_sector == sector)
		return x->pending;
	if (!x->mask)
		return NULL;
	s = btt_qindex_slot(x, sector);
	return s ? s->q : NULL;
}

/*
 * q was linked into the tree as a new node; pred and succ are its
 * neighbours in start order (NULL at either end).
 */
void btt_qindex_add(struct btt_qindex *x, struct btt_q *q, const struct btt_q *pred,
		   const struct btt_q *succ);
/* q took the place of old (the same start sector) in the tree */
void btt_qindex_replace(struct btt_qindex *x, const struct btt_q *old, struct btt_q *q);
/* q, queued and not merged before (t_m still BTT_NONE), was merged into a request */
void btt_qindex_merged(struct btt_qindex *x, struct btt_q *q);
/* q is leaving the tree (call before it is unlinked) */
void btt_qindex_del(struct btt_qindex *x, struct btt_q *q);
/* the index of a tree copied node for node (the sample engine's fork) */
void btt_qindex_rebuild(struct btt_qindex *x, const struct btt_rb_root *tree);
void btt_qindex_free(struct btt_qindex *x);

#endif /* BLKSCOPE_BTT_QINDEX_H */
