// SPDX-License-Identifier: GPL-2.0
/*
 * bs_merge_tree.c - the file-mode merge's loser tree: building and replaying.
 *
 * Each match's loser is kept with its key in the match's node, so a replay
 * reads the nodes on one path, all at addresses known in advance, and the
 * only chain from level to level is the compare itself.
 */
#include <stdbool.h>
#include <stdlib.h>
#include "bs_merge_tree.h"

/* all ones if (at, as) < (bt, bs), else 0 */
static inline uint64_t less_mask(uint64_t at, uint64_t as, uint64_t bt, uint64_t bs)
{
	unsigned __int128 a = (unsigned __int128)at << 64 | as,
			  b = (unsigned __int128)bt << 64 | bs;

	return -(uint64_t)(a < b);
}

static inline uint64_t pick(uint64_t m, uint64_t x, uint64_t y)
{
	return (x & m) | (y & ~m);
}

/*
 * a < b ? a : b, the other one into *max, computed with masks: a branch
 * here is mispredicted about every other time, and gcc turns selects on
 * one condition into a branch.
 */
static inline struct bs_merge_entry entry_min(struct bs_merge_entry a, struct bs_merge_entry b,
					      struct bs_merge_entry *max)
{
	uint64_t at = (uint64_t)(a.key >> 64), as = (uint64_t)a.key;
	uint64_t bt = (uint64_t)(b.key >> 64), bs = (uint64_t)b.key;
	uint64_t m = less_mask(at, as, bt, bs);

	max->key = (bs_merge_key)pick(m, bt, at) << 64 | pick(m, bs, as);
	max->stream = pick(m, b.stream, a.stream);
	return (struct bs_merge_entry){ (bs_merge_key)pick(m, at, bt) << 64 | pick(m, as, bs),
					pick(m, a.stream, b.stream) };
}

/* the least key the winner, whose leaf is w, beat on its way up */
static bs_merge_key second_of(const struct bs_merge_tree *t, uint64_t w)
{
	uint64_t bt = UINT64_MAX, bs = UINT64_MAX;
	uint32_t n;

	for (n = (uint32_t)((t->leaves + w) >> 1); n; n >>= 1) {
		uint64_t kt = (uint64_t)(t->node[n].key >> 64), ks = (uint64_t)t->node[n].key;
		uint64_t m = less_mask(kt, ks, bt, bs);

		bt = pick(m, kt, bt);
		bs = pick(m, ks, bs);
	}
	return (bs_merge_key)bt << 64 | bs;
}

void bs_merge_tree_replay(struct bs_merge_tree *t, bs_merge_key key)
{
	struct bs_merge_entry cur = { key, t->node[0].stream };
	uint32_t n;

	if (t->leaves == 2 && key >= t->node[1].key) {	/* two CPUs, the common recording */
		t->node[0] = t->node[1];
		t->node[1] = cur;
		t->second = key;
		return;
	}

	for (n = (uint32_t)((t->leaves + cur.stream) >> 1); n; n >>= 1)
		cur = entry_min(cur, t->node[n], &t->node[n]);
	t->node[0] = cur;
	t->second = second_of(t, cur.stream);
}

/* Play all the matches, bottom up; 0, or -1 (out of memory). */
static int build(struct bs_merge_tree *t, const bs_merge_key *keys, uint32_t nstreams)
{
	struct bs_merge_entry *win = malloc(2 * (size_t)t->leaves * sizeof(*win));
	uint32_t n;

	if (!win)
		return -1;
	for (n = 0; n < t->leaves; n++)
		win[t->leaves + n] = (struct bs_merge_entry){
			n < nstreams ? keys[n] : BS_MERGE_KEY_FINISHED, n };
	for (n = t->leaves - 1; n >= 1; n--)
		win[n] = entry_min(win[2 * n], win[2 * n + 1], &t->node[n]);
	t->node[0] = win[1];	/* the leaf itself when there is one */
	free(win);
	t->second = second_of(t, t->node[0].stream);
	return 0;
}

int bs_merge_tree_init(struct bs_merge_tree *t, const bs_merge_key *keys, uint32_t nstreams)
{
	uint32_t leaves = 1;

	if (nstreams > 1u << 30)	/* a descriptor each: never; but leaves must not wrap */
		return -1;
	while (leaves < nstreams)
		leaves <<= 1;
	t->leaves = leaves;
	/*
	 * Whole cache lines of its own: the merge may run on a reader thread
	 * that writes the winner's key for every event, and a neighbour
	 * written by the consumer's thread would bounce the line between
	 * CPUs (8% of the wall time of a two-thread analysis).
	 */
	t->node = aligned_alloc(64, ((size_t)leaves * sizeof(*t->node) + 63) & ~(size_t)63);
	if (!t->node)
		return -1;
	return build(t, keys, nstreams);
}

void bs_merge_tree_free(struct bs_merge_tree *t)
{
	free(t->node);
	t->node = NULL;
}
