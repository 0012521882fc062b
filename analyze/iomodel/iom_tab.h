/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iom_tab.h - the per-I/O model's sector index: nodes keyed by (device
 * index, sector), several nodes per key allowed (two reads of one sector
 * in flight at once are ordinary), each node found and removed in O(1)
 * expected time.
 *
 * Why not util/bs_hash: the key is 96 bits (a sector is 64 bits and a
 * trace may name 100k devices), one key may hold several nodes whose
 * order matters (oldest first), and the nodes live inside the model's own
 * objects (a fragment, a request), so an entry costs the bucket pointer
 * and nothing else.  Separate chaining, newest first, at most one node a
 * bucket on average (the table doubles).  The hash is seeded at random
 * per table; a node's place in its chain, and so every answer, does not
 * depend on the seed.
 */
#ifndef BLKSCOPE_IOM_TAB_H
#define BLKSCOPE_IOM_TAB_H

#include <stddef.h>
#include <stdint.h>
#include "bs_hash.h"

struct iom_hnode {
	struct iom_hnode *next;
	struct iom_hnode **pprev;	/* what points at it; NULL when not in the table */
	uint64_t sector;
	uint32_t dev;			/* dense device index */
};

struct iom_tab {
	struct iom_hnode **b;
	uint64_t seed; /* per table, random and odd: crafted sectors cannot aim at one chain */
	size_t mask;		/* buckets - 1 (buckets: a power of two) */
	unsigned int shift;	/* 64 - log2(buckets) */
	size_t len;
};

void iom_tab_init(struct iom_tab *t);
void iom_tab_free(struct iom_tab *t);

static inline size_t iom_tab_slot(const struct iom_tab *t, uint32_t dev, uint64_t sector)
{
	/*
	 * multiply-shift (the top bits) with a random odd multiplier: no sector list aims at one
	 * chain
	 */
	return (size_t)(((sector ^ (uint64_t)dev << 40) * t->seed) >> t->shift);
}

void iom_tab_grow(struct iom_tab *t);

/* Link n under (dev, sector), ahead of the nodes already there. */
static inline void iom_tab_add(struct iom_tab *t, struct iom_hnode *n, uint32_t dev,
			       uint64_t sector)
{
	struct iom_hnode **b;

	if (t->len >= t->mask + 1)
		iom_tab_grow(t);
	n->dev = dev;
	n->sector = sector;
	b = &t->b[iom_tab_slot(t, dev, sector)];
	n->next = *b;
	if (*b)
		(*b)->pprev = &n->next;
	*b = n;
	n->pprev = b;
	t->len++;
}

/* Unlink n (a no-op when it is not linked): no hashing, no walk. */
static inline void iom_tab_del(struct iom_tab *t, struct iom_hnode *n)
{
	if (!n->pprev)
		return;
	*n->pprev = n->next;
	if (n->next)
		n->next->pprev = n->pprev;
	n->next = NULL;
	n->pprev = NULL;
	t->len--;
}

/* The bucket's first node; walk with ->next and compare dev and sector. */
static inline struct iom_hnode *iom_tab_bucket(const struct iom_tab *t, uint32_t dev,
					       uint64_t sector)
{
	return t->b[iom_tab_slot(t, dev, sector)];
}

static inline int iom_tab_is(const struct iom_hnode *n, uint32_t dev, uint64_t sector)
{
	return n->sector == sector && n->dev == dev;
}

/* Calls fn on every node (fn may unlink the node it is given). */
void iom_tab_each(struct iom_tab *t, void (*fn)(struct iom_hnode *n, void *ctx), void *ctx);

#endif /* BLKSCOPE_IOM_TAB_H */
