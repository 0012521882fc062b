// SPDX-License-Identifier: GPL-2.0
/*
 * test_stree.c - btt's seek tree rebuilt without descents
 * (analyze/btt/btt_seek_tree.c) against the tree btt builds: the same keys
 * inserted one by one with a descent from the root into btt_rbtree.c,
 * Linux's rb-tree.
 *
 * Insertion orders: random (firsts dense, so the table path runs), sparse
 * firsts (the sort path), firsts that repeat (seek numbers that wrapped:
 * equal firsts go in key order), keys inserted in increasing and in
 * decreasing order, and tiny trees.  Every node's parent and colour must
 * match, and so must the walk-order answers (post-order of many or few
 * tied modes, the first median candidate met root-first) for random sets
 * of keys.
 *
 * The passes before the inserts run in two halves, on one thread or two:
 * trees from 64Ki keys on are built both ways.
 *
 * bs-test-stree --time N [THREADS] times the rebuild of N random keys instead.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bs_alloc.h"
#include "btt/btt_rbtree.h"
#include "btt/btt_seek_tree.h"
#include "check.h"
#include "rng.h"

struct ref_node {
	struct btt_rb_node rb;
	uint32_t rank;
};

static uint32_t ref_rank(const struct btt_rb_node *x)
{
	return x ? btt_rb_entry(x, struct ref_node, rb)->rank : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* btt's way: keys by first appearance (then by key), each with a descent */
static struct ref_node *ref_build(const struct btt_seek_val *vals, size_t n,
				  struct btt_rb_root *root)
{
	struct ref_node *nodes = bs_xcalloc(n + 1, sizeof(*nodes));
	uint64_t *order = bs_xreallocarray(NULL, n ? n : 1, sizeof(*order));
	size_t i;

	for (i = 0; i < n; i++)
		order[i] = (uint64_t)vals[i].first << 32 | (i + 1);
	qsort(order, n, sizeof(*order), cmp_u64);
	root->node = NULL;
	for (i = 0; i < n; i++) {
		struct ref_node *x = &nodes[(uint32_t)order[i]];
		struct btt_rb_node **link = &root->node, *parent = NULL;

		x->rank = (uint32_t)order[i];
		while (*link) {
			parent = *link;
			link = x->rank < ref_rank(parent) ? &parent->left : &parent->right;
		}
		btt_rb_link(&x->rb, parent, link);
		btt_rb_insert_color(&x->rb, root);
	}
	free(order);
	return nodes;
}

static void ref_post(const struct btt_rb_node *x, const uint8_t *want, uint32_t *out, size_t *k)
{
	if (!x)
		return;
	ref_post(x->left, want, out, k);
	ref_post(x->right, want, out, k);
	if (want[ref_rank(x)])
		out[(*k)++] = ref_rank(x);
}

static uint32_t ref_pre_first(const struct btt_rb_node *x, const uint8_t *want)
{
	uint32_t r;

	if (!x)
		return 0;
	if (want[ref_rank(x)])
		return ref_rank(x);
	r = ref_pre_first(x->left, want);
	return r ? r : ref_pre_first(x->right, want);
}

/* k distinct random ranks; want[] marks them */
static void pick(uint32_t *v, uint8_t *want, size_t n, size_t k)
{
	size_t i;

	memset(want, 0, n + 1);
	for (i = 0; i < k; i++) {
		uint32_t r;

		do
			r = (uint32_t)(1 + rnd(n));
		while (want[r]);
		want[r] = 1;
		v[i] = r;
	}
}

static void compare_walks(const struct btt_stree *t, const struct btt_rb_root *root, size_t n,
			  const char *what)
{
	static const size_t sizes[] = { 2, 3, 7, 64, 65, 300 };
	uint32_t *v = bs_xreallocarray(NULL, 300, sizeof(*v));
	uint32_t *ref = bs_xreallocarray(NULL, 300, sizeof(*ref));
	uint8_t *want = bs_xcalloc(n + 1, 1);
	size_t i, j, round;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if (sizes[i] > n)
			break;
		for (round = 0; round < 20; round++) {
			size_t k = sizes[i], got = 0;

			pick(v, want, n, k);
			CHECK(btt_stree_pre_first(t, v, k) == ref_pre_first(root->node, want),
			      "%s: first of %zu met root-first", what, k);
			ref_post(root->node, want, ref, &got);
			btt_stree_post_order(t, v, k);
			for (j = 0; j < k; j++)
				if (v[j] != ref[j])
					break;
			CHECK(j == k, "%s: post-order of %zu differs at %zu", what, k, j);
		}
	}
	free(v);
	free(ref);
	free(want);
}

/* vals[r - 1] is the key of rank r; firsts[] its first appearance */
static void check_tree_threads(const uint32_t *firsts, size_t n, const char *what, int threads)
{
	struct btt_seek_val *vals = bs_xcalloc(n ? n : 1, sizeof(*vals));
	struct btt_rb_root root;
	struct ref_node *ref;
	struct btt_stree t;
	uint32_t r, bad = 0;

	for (r = 0; r < n; r++) {
		vals[r].val = (long long)r * 8 + 1;
		vals[r].count = 1;
		vals[r].first = firsts[r];
	}
	ref = ref_build(vals, n, &root);
	btt_stree_build(&t, vals, n, threads);
	CHECK(t.root == ref_rank(root.node), "%s: root", what);
	for (r = 1; r <= n && bad < 5; r++) {
		const struct btt_stree_node *x = &t.nodes[r];
		uint32_t want_up = ref_rank(ref[r].rb.parent);

		if (x->up != want_up || !x->black != !ref[r].rb.black) {
			CHECK(0, "%s: rank %u: parent %u black %u, btt's %u %d", what, r,
			      x->up, x->black, want_up, ref[r].rb.black);
			bad++;
		}
	}
	if (n)
		compare_walks(&t, &root, n, what);
	btt_stree_free(&t);
	free(ref);
	free(vals);
}

/* threads=1 runs the passes' two halves one after the other, 2 on two threads */
static void check_tree(const uint32_t *firsts, size_t n, const char *what)
{
	check_tree_threads(firsts, n, what, 1);
	if (n >= BTT_STREE_SPLIT_MIN)
		check_tree_threads(firsts, n, what, 2);
}

static void shuffle(uint32_t *v, size_t n)
{
	size_t i;

	for (i = n; i > 1; i--) {
		size_t k = rnd(i);
		uint32_t x = v[i - 1];

		v[i - 1] = v[k];
		v[k] = x;
	}
}

static void check_orders(size_t n)
{
	uint32_t *firsts = bs_xreallocarray(NULL, n ? n : 1, sizeof(*firsts));
	size_t i;

	for (i = 0; i < n; i++)
		firsts[i] = (uint32_t)(i * 3);	/* gaps, as when seeks repeat a distance */
	shuffle(firsts, n);
	check_tree(firsts, n, "random order, dense firsts");
	for (i = 0; i < n; i++)
		firsts[i] = (uint32_t)rnd(4000000000u);	/* sparse: the sort path */
	check_tree(firsts, n, "random order, sparse firsts (some may repeat)");
	for (i = 0; i < n; i++)
		firsts[i] = (uint32_t)rnd(n / 4 + 1);	/* wrapped seek numbers that meet */
	check_tree(firsts, n, "repeated firsts");
	for (i = 0; i < n; i++)
		firsts[i] = (uint32_t)i;
	check_tree(firsts, n, "increasing keys");
	for (i = 0; i < n; i++)
		firsts[i] = (uint32_t)(n - i);
	check_tree(firsts, n, "decreasing keys");
	free(firsts);
}

static int time_build(size_t n, int threads)
{
	uint32_t *firsts = bs_xreallocarray(NULL, n, sizeof(*firsts));
	struct btt_seek_val *vals = bs_xcalloc(n, sizeof(*vals));
	struct timespec a, b;
	struct btt_stree t;
	size_t i;

	for (i = 0; i < n; i++)
		firsts[i] = (uint32_t)(i * 2);
	shuffle(firsts, n);
	for (i = 0; i < n; i++) {
		vals[i].val = (long long)i;
		vals[i].first = firsts[i];
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	btt_stree_build(&t, vals, n, threads);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%zu keys, %d thread(s): %.3f s, %.1f ns a key\n", n, threads,
	       (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
	       ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	btt_stree_free(&t);
	free(vals);
	free(firsts);
	return 0;
}

int main(int argc, char **argv)
{
	static const size_t small[] = { 0, 1, 2, 3, 4, 5, 8, 17, 100, 1000 };
	size_t i;

	if (argc >= 3 && !strcmp(argv[1], "--time"))
		return time_build(strtoull(argv[2], NULL, 0), argc > 3 ? atoi(argv[3]) : 1);
	for (i = 0; i < sizeof(small) / sizeof(small[0]); i++)
		check_orders(small[i]);
	check_orders(200000);
	printf("%d checks, %d failed\n", checks, failures);
	return failures != 0;
}
