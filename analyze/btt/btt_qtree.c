// SPDX-License-Identifier: GPL-2.0
/*
 * btt_qtree.c - the queued bios of a device, in btt's per-device Q tree:
 * keyed by start sector, Linux red-black balancing, a new Q replacing one
 * with the same start, containment walks that prune like btt's.  Nodes
 * come from slabs and are recycled: no malloc per event.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include "btt_priv.h"

#define Q_SLAB_NODES 1024

struct btt_q *btt_q_alloc(struct btt_engine *e)
{
	struct btt_q *q = e->free_q;

	if (!q) {
		struct btt_q *slab = bs_xcalloc(Q_SLAB_NODES, sizeof(*slab));
		int i;

		if (e->nq_slabs == e->q_slabs_cap) {
			e->q_slabs_cap = e->q_slabs_cap ? e->q_slabs_cap * 2 : 16;
			e->q_slabs = bs_xrealloc(e->q_slabs, e->q_slabs_cap * sizeof(*e->q_slabs));
		}
		e->q_slabs[e->nq_slabs++] = slab;
		for (i = 0; i < Q_SLAB_NODES - 1; i++)
			slab[i].next_free = &slab[i + 1];
		slab[i].next_free = NULL;
		q = slab;
	}
	e->free_q = q->next_free;
	return q;
}

/*
 * Sequential I/O: a bio starting past the last one inserted and before
 * that one's in-order successor goes into the one empty link between the
 * two: the last one's right link, or else its successor's left link (the
 * successor is then the leftmost of that right subtree).  The descent
 * would end at the same place, and no queued bio starts at its sector
 * (no replacement).  false, and nothing set, otherwise.
 */
static bool after_last(struct btt_dev *d, const struct btt_q *q, struct btt_rb_node **parent,
		       struct btt_rb_node ***link, struct btt_q **pred, struct btt_q **succ)
{
	struct btt_q *last = d->q_last, *next = d->q_last_succ;

	if (!last || q->sector <= last->sector || (next && q->sector >= next->sector))
		return false;
	QINDEX_CHECK(btt_rb_next(&last->rb) == (next ? &next->rb : NULL));
	if (!last->rb.right) {
		*parent = &last->rb;
		*link = &last->rb.right;
	} else {
		*parent = &next->rb;
		*link = &next->rb.left;
	}
	*pred = last;
	*succ = next;
	return true;
}

/* a where mask is all ones, b where it is zero: a choice without a branch */
static inline uintptr_t pick(uintptr_t mask, uintptr_t a, uintptr_t b)
{
	return (a & mask) | (b & ~mask);
}

/*
 * btt's Q tree insert: a Q with the same start sector as a queued one
 * takes its place in the tree (same position and colour); the older Q is
 * returned, forgotten by btt: it is never completed.
 */
struct btt_q *btt_q_insert(struct btt_dev *d, struct btt_q *q)
{
	struct btt_rb_node **link = &d->qtree.node, *parent = NULL;
	struct btt_q *pred = NULL, *succ = NULL; /* the last nodes passed on the right, left */

	if (after_last(d, q, &parent, &link, &pred, &succ))
		goto found;
	while (*link) {
		struct btt_q *n = btt_rb_entry(*link, struct btt_q, rb);

		parent = *link;
		if (__builtin_expect(q->sector != n->sector, 1)) {
			/*
			 * Which way is a coin toss on random I/O, so no branch:
			 * gcc turned the plain conditionals into one (a
			 * misprediction at every other level).
			 */
			uintptr_t right = q->sector > n->sector, mask = -right;

			link = btt_rb_child_link(parent, right);
			pred = (struct btt_q *)pick(mask, (uintptr_t)n, (uintptr_t)pred);
			succ = (struct btt_q *)pick(mask, (uintptr_t)succ, (uintptr_t)n);
		} else {
			q->rb = n->rb;
			*link = &q->rb;
			if (q->rb.left)
				q->rb.left->parent = &q->rb;
			if (q->rb.right)
				q->rb.right->parent = &q->rb;
			btt_qindex_replace(&d->qidx, n, q);
			d->q_last = d->q_last_succ = NULL;	/* n may have been either */
			return n;
		}
	}
found:
	btt_rb_link(&q->rb, parent, link);
	btt_qindex_add(&d->qidx, q, pred, succ);
	btt_rb_insert_color(&q->rb, &d->qtree);
	d->inflight++;
	d->q_last = q;
	d->q_last_succ = succ;
	return NULL;
}

void btt_q_list_grow(struct btt_q_list *out)
{
	out->cap = out->cap ? out->cap * 2 : 64;
	out->v = bs_xrealloc(out->v, out->cap * sizeof(*out->v));
}

/* btt's rb_foreach(): root first, pruned by start and end */
void btt_q_collect(const struct btt_rb_node *n, uint64_t s, uint64_t e, struct btt_q_list *out)
{
	while (n) {
		struct btt_q *q = btt_rb_entry(n, struct btt_q, rb);
		uint64_t qs = q->sector, qe = q_end(q);
		uintptr_t inside = -(uintptr_t)(s <= qs) & -(uintptr_t)(qe <= e);
		uintptr_t go_left, go_right, go_on;

		/*
		 * Which of the tests below hold is a coin toss on random I/O
		 * until the walk reaches the range: masks, not && (which gcc
		 * compiles to a branch per test).
		 */
		if (__builtin_expect(inside != 0, 0)) {
			if (out->n == out->cap)
				btt_q_list_grow(out);
			out->v[out->n++] = q;
			/*
			 * The walk read the node's links, start and end; the D
			 * or C reads the rest, which spans two or three more
			 * lines as the node falls in its slab.
			 */
			__builtin_prefetch((const char *)q + 64);
			__builtin_prefetch((const char *)q + 128);
			__builtin_prefetch((const char *)(q + 1) - 1);
		}
		go_left = -(uintptr_t)(s < qs);
		go_right = -(uintptr_t)(qe < e);
		if (__builtin_expect((go_left & go_right) != 0, 0)) {
			btt_q_collect(n->left, s, e, out);
			n = n->right;
			continue;
		}
		go_on = go_left | go_right;
		n = (const struct btt_rb_node *)(pick(go_left, (uintptr_t)n->left,
						     (uintptr_t)n->right) & go_on);
	}
}

void btt_q_remove(struct btt_dev *d, struct btt_q *q)
{
	if (d->q_last == q || d->q_last_succ == q)
		d->q_last = d->q_last_succ = NULL;
	btt_qindex_del(&d->qidx, q);
	btt_rb_erase(&q->rb, &d->qtree);
	d->inflight--;
}
