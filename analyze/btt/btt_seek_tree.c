// SPDX-License-Identifier: GPL-2.0
/*
 * btt_seek_tree.c - btt's seek tree (see btt_seek.c), rebuilt in O(n).
 *
 * btt inserts each distinct |distance| on first appearance into a Linux
 * rb-tree.  Replaying that with a descent from the root costs a cache
 * miss per level for millions of values; but a new key in any binary
 * search tree always hangs off its in-order neighbours among the keys
 * already there: the right slot of its predecessor if that is free, else
 * the left slot of its successor.  Those neighbours at insertion time are
 * the nearest keys on either side inserted earlier, found in one pass in
 * key order.  A key's node is nodes[rank]: the inserts, in order of first
 * appearance, jump about the array, but what each reads besides its own
 * node (parent, grandparent, uncle) is near it in key order, so on the
 * same or the next few cache lines, all asked for ahead.  The colour
 * fix-ups are Linux's (the same steps as btt_rbtree.c, on 32-bit ranks so
 * that a node takes 16 bytes).
 *
 * Walk order between two nodes needs no walk: an ancestor comes before
 * its descendants in pre-order and after them in post-order, and of two
 * unrelated nodes the smaller key comes first in both.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_pipe.h"
#include "btt_seek_tree.h"

#define N(t, i) ((t)->nodes[i])

static inline int red(const struct btt_stree *t, uint32_t i)
{
	return i && !N(t, i).black;
}

static inline void change_child(struct btt_stree *t, uint32_t old, uint32_t new, uint32_t parent)
{
	if (!parent)
		t->root = new;
	else if (N(t, parent).left == old)
		N(t, parent).left = new;
	else
		N(t, parent).right = new;
}

static inline void rotate_set_parents(struct btt_stree *t, uint32_t old, uint32_t new,
				      uint32_t black)
{
	uint32_t parent = N(t, old).up;

	N(t, new).up = parent;
	N(t, new).black = N(t, old).black;
	N(t, old).up = new;
	N(t, old).black = black;
	change_child(t, old, new, parent);
}

/* btt_rb_insert_color() on node numbers */
static void insert_color(struct btt_stree *t, uint32_t node)
{
	uint32_t parent = N(t, node).up, gparent, tmp;

	for (;;) {
		if (!parent) {
			N(t, node).black = 1;
			return;
		}
		if (N(t, parent).black)
			return;
		gparent = N(t, parent).up;
		tmp = N(t, gparent).right;
		if (parent != tmp) {
			if (red(t, tmp)) {
				N(t, tmp).black = 1;
				N(t, parent).black = 1;
				node = gparent;
				parent = N(t, node).up;
				N(t, node).black = 0;
				continue;
			}
			tmp = N(t, parent).right;
			if (node == tmp) {
				tmp = N(t, node).left;
				N(t, parent).right = tmp;
				N(t, node).left = parent;
				if (tmp) {
					N(t, tmp).up = parent;
					N(t, tmp).black = 1;
				}
				N(t, parent).up = node;
				N(t, parent).black = 0;
				parent = node;
				tmp = N(t, node).right;
			}
			N(t, gparent).left = tmp;
			N(t, parent).right = gparent;
			if (tmp) {
				N(t, tmp).up = gparent;
				N(t, tmp).black = 1;
			}
			rotate_set_parents(t, gparent, parent, 0);
			return;
		} else {
			tmp = N(t, gparent).left;
			if (red(t, tmp)) {
				N(t, tmp).black = 1;
				N(t, parent).black = 1;
				node = gparent;
				parent = N(t, node).up;
				N(t, node).black = 0;
				continue;
			}
			tmp = N(t, parent).left;
			if (node == tmp) {
				tmp = N(t, node).right;
				N(t, parent).left = tmp;
				N(t, node).right = parent;
				if (tmp) {
					N(t, tmp).up = parent;
					N(t, tmp).black = 1;
				}
				N(t, parent).up = node;
				N(t, parent).black = 0;
				parent = node;
				tmp = N(t, node).left;
			}
			N(t, gparent).right = tmp;
			N(t, parent).left = gparent;
			if (tmp) {
				N(t, tmp).up = gparent;
				N(t, tmp).black = 1;
			}
			rotate_set_parents(t, gparent, parent, 0);
			return;
		}
	}
}

/*
 * LSD radix sort of 64-bit keys, 16 bits a pass over bits [from, to): the
 * order of keys equal there is their order in v (stable).
 */
static void radix64(uint64_t *v, uint64_t *tmp, size_t n, int from, int to)
{
	uint64_t *orig = v;
	int shift;

	for (shift = from; shift < to; shift += 16) {
		size_t *count = bs_xcalloc(65536, sizeof(*count)), sum = 0, i;
		uint64_t *x;

		for (i = 0; i < n; i++)
			count[(v[i] >> shift) & 0xffff]++;
		for (i = 0; i < 65536; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[(v[i] >> shift) & 0xffff]++] = v[i];
		free(count);
		x = v;
		v = tmp;
		tmp = x;
	}
	if (v != orig)	/* an odd number of passes left the result in the other buffer */
		memcpy(orig, v, n * sizeof(*v));
}

/*
 * The passes before the inserts (numbering the nodes, stashing their
 * neighbours) each split in two halves that touch different entries, so
 * that a second CPU, idle while the rest of the analysis is over, takes
 * half (docs/analyze.md, "Measurements").  With one thread the same
 * halves run one after the other: one code path, the same tree.
 */
struct split {
	struct btt_stree *t;
	const struct btt_seek_val *vals;
	size_t n;
	uint32_t *num;		/* by rank: its number in the order of first appearance */
	uint32_t *rank;		/* by number: its rank (the inverse) */
	uint64_t *map[2];	/* each half's firsts, a bit each */
	uint32_t *below;	/* by word of the map: the firsts in the words before */
	size_t nwords;
	uint32_t *stack[2];	/* each half's, ranks; half 0's as left at the end */
	size_t top0;
	uint32_t *minima;	/* half 1's keys (ranks) with an empty stack on arrival */
	size_t nmin;
	void (*step)(struct split *sp, int half);
};

static void half_of(size_t n, int half, size_t *lo, size_t *hi)
{
	*lo = half ? n / 2 : 0;
	*hi = half ? n : n / 2;
}

static void *second_half(void *arg)
{
	struct split *sp = arg;

	sp->step(sp, 1);
	return NULL;
}

/* step(sp, 0) and step(sp, 1), on two threads when there are two */
static void run_halves(struct split *sp, void (*step)(struct split *, int), bool two)
{
	pthread_t th;

	sp->step = step;
	if (two && !bs_pipe_thread(&th, second_half, sp)) {
		step(sp, 0);
		pthread_join(th, NULL);
		return;
	}
	step(sp, 0);
	step(sp, 1);
}

/*
 * Numbers from first appearances: firsts are seek numbers, distinct (a
 * seek has one distance) and mostly dense, so a bitmap of them, counted
 * through, numbers the keys: a key's number is the count of firsts below
 * its own, plus one.  The map (a bit a seek) stays in the cache, where a
 * table of 32-bit entries by first missed it on every key
 * (docs/analyze.md, "Measurements").  Each half marks its own map (no
 * write shared); the count joins them.
 */
static void mark_firsts(struct split *sp, int half)
{
	uint64_t *map = sp->map[half];
	size_t i, lo, hi;

	half_of(sp->n, half, &lo, &hi);
	for (i = lo; i < hi; i++) {
		uint32_t f = sp->vals[i].first;

		map[f >> 6] |= 1ull << (f & 63);
	}
}

/* no popcnt instruction without -m flags: the bit-parallel count */
static inline uint32_t ones(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

/* map[0] = both halves' marks, below[w] = the marks in words before w; their number */
static size_t count_firsts(struct split *sp)
{
	uint64_t *map = sp->map[0];
	const uint64_t *other = sp->map[1];
	size_t w, count = 0;

	for (w = 0; w < sp->nwords; w++) {
		map[w] |= other[w];
		sp->below[w] = (uint32_t)count;
		count += ones(map[w]);
	}
	return count;
}

static void read_ids(struct split *sp, int half)
{
	const uint64_t *map = sp->map[0];
	const uint32_t *below = sp->below;
	size_t i, lo, hi;

	half_of(sp->n, half, &lo, &hi);
	for (i = lo; i < hi; i++) {
		uint32_t f = sp->vals[i].first, w = f >> 6;

		sp->num[i + 1] = below[w] + ones(map[w] & ((1ull << (f & 63)) - 1)) + 1;
	}
}

/*
 * 0 when the firsts are too sparse for the maps (2 bytes a key each at
 * most: they live while the node array is still untouched, so the peak
 * stays the inserts' 20 bytes a key), or repeat.
 */
static int direct_ids(struct split *sp, uint32_t maxfirst, bool two)
{
	size_t count;

	sp->nwords = maxfirst / 64 + 1;
	if (!sp->n || sp->nwords > sp->n / 4 + 1)
		return 0;
	sp->map[0] = bs_xcalloc(sp->nwords, sizeof(*sp->map[0]));
	sp->map[1] = bs_xcalloc(sp->nwords, sizeof(*sp->map[1]));
	sp->below = bs_xreallocarray(NULL, sp->nwords, sizeof(*sp->below));
	run_halves(sp, mark_firsts, two);
	count = count_firsts(sp);
	if (count == sp->n)
		run_halves(sp, read_ids, two);
	free(sp->map[0]);
	free(sp->map[1]);
	free(sp->below);
	return count == sp->n;
}

/* num[r] for the key of rank r (1..n): its place in the order of first appearance */
static void node_ids(struct split *sp, bool two)
{
	const struct btt_seek_val *vals = sp->vals;
	size_t n = sp->n, i;
	uint32_t maxfirst = 0;
	uint64_t *key, *tmp;
	int bits = 0;

	sp->num[0] = 0;
	for (i = 0; i < n; i++)
		if (vals[i].first > maxfirst)
			maxfirst = vals[i].first;
	if (direct_ids(sp, maxfirst, two))
		return;
	key = bs_xreallocarray(NULL, n, sizeof(*key));
	tmp = bs_xreallocarray(NULL, n, sizeof(*tmp));
	for (i = 0; i < n; i++)
		key[i] = (uint64_t)vals[i].first << 32 | (uint32_t)(i + 1);
	while (bits < 32 && (maxfirst >> bits))
		bits += 16;
	/* the keys are in rank order already: sorting by first alone keeps it for equal firsts */
	radix64(key, tmp, n, 32, 32 + bits);
	for (i = 0; i < n; i++)
		sp->num[(uint32_t)key[i]] = (uint32_t)(i + 1);
	free(tmp);
	free(key);
}

/*
 * Each key's in-order neighbours when it is inserted are the nearest keys
 * on either side inserted before it, that is with a smaller number: one
 * pass in key order with a stack of increasing numbers finds both
 * ("nearest smaller value").  Their ranks go into the node's own left and
 * right, and its number into its up, all unused until it is inserted.
 * The node of rank r is nodes[r], so the pass writes front to back, the
 * right neighbours mostly close behind.
 *
 * Each half of the ranks runs the pass alone; what crosses the middle is
 * joined after (join_stashes()).
 */
static void stash_half(struct split *sp, int half)
{
	struct btt_stree *t = sp->t;
	uint32_t *stack = sp->stack[half];
	const uint32_t *num = sp->num;
	size_t r, lo, hi, top = 0, nmin = 0;

	half_of(sp->n, half, &lo, &hi);
	for (r = lo + 1; r <= hi; r++) {
		uint32_t x = num[r];

		while (top && N(t, stack[top - 1]).up > x)	/* r is their successor */
			N(t, stack[--top]).right = (uint32_t)r;
		N(t, r).left = top ? stack[top - 1] : 0;
		N(t, r).up = x;
		if (half && !top)	/* its predecessor, if any, is in half 0 */
			sp->minima[nmin++] = (uint32_t)r;
		stack[top++] = (uint32_t)r;
	}
	if (half)
		sp->nmin = nmin;
	else
		sp->top0 = top;
}

/*
 * Half 1's keys with no smaller number before them in half 1 (its prefix
 * minima, decreasing) are the only ones whose neighbours lie across the
 * middle: the serial pass, going on from half 0's stack, meets them so.
 */
static void join_stashes(struct split *sp)
{
	struct btt_stree *t = sp->t;
	const uint32_t *stack = sp->stack[0];
	size_t top = sp->top0, k;

	for (k = 0; k < sp->nmin; k++) {
		uint32_t r = sp->minima[k];

		while (top && N(t, stack[top - 1]).up > N(t, r).up)
			N(t, stack[--top]).right = r;
		N(t, r).left = top ? stack[top - 1] : 0;
	}
}

/* rank[x] for number x (in the node's up until it is inserted): the order of the inserts */
static void rank_by_number(struct split *sp, int half)
{
	size_t r, lo, hi;

	half_of(sp->n, half, &lo, &hi);
	for (r = lo + 1; r <= hi; r++)
		sp->rank[N(sp->t, r).up] = (uint32_t)r;
}

static void stash_neighbours(struct split *sp, bool two)
{
	size_t most = sp->n - sp->n / 2 + 1;	/* half 1's size, the larger */

	sp->stack[0] = bs_xreallocarray(NULL, most, sizeof(*sp->stack[0]));
	sp->stack[1] = bs_xreallocarray(NULL, most, sizeof(*sp->stack[1]));
	sp->minima = bs_xreallocarray(NULL, most, sizeof(*sp->minima));
	run_halves(sp, stash_half, two);
	join_stashes(sp);
	free(sp->stack[0]);
	free(sp->stack[1]);
	free(sp->minima);
}

/*
 * The inserts go in order of number, to nodes scattered over the array
 * (rank[] says where), each asked for some inserts ahead.  What an insert
 * reads besides, its parent, grandparent and uncle, are keys near it in
 * key order for all but the earliest inserts, so near it in the array:
 * the lines around the node are asked for too: three lines on either
 * side, 8 inserts ahead (the variants tried: docs/analyze.md,
 * "Measurements").
 */
#define AHEAD 8
#define LINES 3
static inline void prefetch_around(const struct btt_stree *t, uint32_t r)
{
	uintptr_t at =
		(uintptr_t)&N(t, r); /* lines past the array's ends: a prefetch never faults */
	int k;

	for (k = -LINES; k <= LINES; k++)
		__builtin_prefetch((const void *)(at + 64 * k));
}

void btt_stree_build(struct btt_stree *t, const struct btt_seek_val *vals, size_t n, int threads)
{
	struct split sp = { .t = t, .vals = vals, .n = n };
	bool two = threads != 1 && n >= BTT_STREE_SPLIT_MIN && bs_pipe_second_cpu();
	const uint32_t *rank;
	uint32_t x;

	t->nodes = bs_xcalloc(n + 1, sizeof(*t->nodes));
	t->root = 0;
	t->n = n;
	sp.num = bs_xreallocarray(NULL, n + 1, sizeof(*sp.num));
	node_ids(&sp, two);
	stash_neighbours(&sp, two);
	free(sp.num);	/* before rank[]: at most 20 bytes a key at once */
	sp.rank = bs_xreallocarray(NULL, n + 1 + AHEAD, sizeof(*sp.rank));
	run_halves(&sp, rank_by_number, two);
	rank = sp.rank;
	memset(sp.rank + n + 1, 0, AHEAD * sizeof(*sp.rank));	/* node 0 past the end */
	for (x = 1; x <= n; x++) {
		uint32_t r = rank[x], p = N(t, r).left, s = N(t, r).right, parent;

		prefetch_around(t, rank[x + AHEAD]);
		N(t, r).left = N(t, r).right = 0;
		if (!t->root) {
			parent = 0;
			t->root = r;
		} else if (p && !N(t, p).right) {
			parent = p;
			N(t, p).right = r;
		} else {
			parent = s;
			N(t, s).left = r;
		}
		N(t, r).up = parent;
		insert_color(t, r);
	}
	free(sp.rank);
}

void btt_stree_free(struct btt_stree *t)
{
	free(t->nodes);
	t->nodes = NULL;
}

static int is_ancestor(const struct btt_stree *t, uint32_t a, uint32_t d)
{
	while ((d = N(t, d).up))
		if (d == a)
			return 1;
	return 0;
}

/* does the key of rank a come before that of rank b in the walk? */
static int before(const struct btt_stree *t, uint32_t a, uint32_t b, int post)
{
	if (is_ancestor(t, a, b))
		return !post;
	if (is_ancestor(t, b, a))
		return post;
	return a < b;
}

static void post_walk(const struct btt_stree *t, uint32_t x, const uint8_t *want, uint32_t *out,
		      size_t *k)
{
	if (N(t, x).left)
		post_walk(t, N(t, x).left, want, out, k);
	if (N(t, x).right)
		post_walk(t, N(t, x).right, want, out, k);
	if (want[x])
		out[(*k)++] = x;
}

void btt_stree_post_order(const struct btt_stree *t, uint32_t *v, size_t k)
{
	size_t i, j;

	if (k > 64) {
		/* many: one walk beats k^2 ancestor checks */
		uint8_t *want = bs_xcalloc(t->n + 1, 1);
		size_t got = 0;

		for (i = 0; i < k; i++)
			want[v[i]] = 1;
		post_walk(t, t->root, want, v, &got);
		free(want);
		return;
	}
	for (i = 1; i < k; i++) {
		uint32_t x = v[i];

		for (j = i; j > 0 && before(t, x, v[j - 1], 1); j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

uint32_t btt_stree_pre_first(const struct btt_stree *t, const uint32_t *v, size_t k)
{
	uint32_t best = v[0];
	size_t i;

	for (i = 1; i < k; i++)
		if (before(t, v[i], best, 0))
			best = v[i];
	return best;
}
