/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt_seek_tree.h - btt's seek rb-tree rebuilt from the distinct distances
 * (sorted by value, each with its first appearance), compactly and in
 * linear time, to answer the two questions whose answers depend on its
 * shape: which median candidate a root-first walk meets first, and in
 * what order a post-order walk meets the modes.
 */
#ifndef BLKSCOPE_BTT_SEEK_TREE_H
#define BLKSCOPE_BTT_SEEK_TREE_H

#include <stddef.h>
#include <stdint.h>
#include "btt_seek.h"

/*
 * Keys are named by rank: rank r (1..n) is vals[r - 1] and nodes[r]; the
 * links hold ranks, 0 is "none".
 */
struct btt_stree_node {
	uint32_t up, left, right, black;
};

struct btt_stree {
	struct btt_stree_node *nodes;
	uint32_t root;
	size_t n;
};

/* from this many keys on the passes before the inserts use a second thread */
#define BTT_STREE_SPLIT_MIN (1u << 16)

/*
 * Insert vals[0..n) in order of .first as btt does (distinct .first
 * values).  threads: 1 keeps it on the caller's thread; otherwise a
 * second CPU, if any, takes half of the passes before the inserts.
 */
void btt_stree_build(struct btt_stree *t, const struct btt_seek_val *vals, size_t n, int threads);
void btt_stree_free(struct btt_stree *t);
/* Sort ranks v[0..k) into the order a post-order walk meets their nodes. */
void btt_stree_post_order(const struct btt_stree *t, uint32_t *v, size_t k);
/* Of ranks v[0..k) (k >= 1), the one whose node a pre-order walk meets first. */
uint32_t btt_stree_pre_first(const struct btt_stree *t, const uint32_t *v, size_t k);

#endif /* BLKSCOPE_BTT_SEEK_TREE_H */
