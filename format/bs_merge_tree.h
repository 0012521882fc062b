/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_merge_tree.h - a loser tree ("tournament tree") over the per-CPU
 * streams of a file-mode merge (internal).
 *
 * Every stream has a key: the time of its next event, equal times broken
 * by a sequence number, the larger first.  The tree's root holds the
 * stream with the least key.  When the winner's key changes, one compare
 * with the runner-up's key tells whether it still wins (events come in
 * runs from one CPU); if not, one pass from its leaf to the root, log2 of
 * the number of streams matches without a data-dependent branch, finds
 * the next.  blkparse keeps its streams in a sorted list instead, a walk
 * over up to every stream for each event.
 */
#ifndef BLKSCOPE_BS_MERGE_TREE_H
#define BLKSCOPE_BS_MERGE_TREE_H

#include <stdbool.h>
#include <stdint.h>

#ifndef __SIZEOF_INT128__
#error "the merge's keys need a compiler with unsigned __int128 (gcc, clang on 64-bit targets)"
#endif

/*
 * time << 64 | (UINT64_MAX - seq): one unsigned compare orders by time,
 * then by the larger seq.  A finished stream has the largest key (seq 0).
 */
typedef unsigned __int128 bs_merge_key;

#define BS_MERGE_KEY_FINISHED (~(bs_merge_key)0)

static inline bs_merge_key bs_merge_key_of(uint64_t time, uint64_t seq)
{
	return (bs_merge_key)time << 64 | (UINT64_MAX - seq);
}

/* a stream and its key: the loser of a match, kept where it was played */
struct bs_merge_entry {
	bs_merge_key key;
	uint64_t stream;
};

struct bs_merge_tree {
	struct bs_merge_entry *node;	/* node[0]: the winner; node[1..leaves): losers */
	uint32_t leaves;		/* a power of two >= the number of streams */
	bs_merge_key second;		/* the least key the winner beat: the runner-up's */
};

/*
 * The tree of streams 0..nstreams, keys[i] stream i's first key
 * (BS_MERGE_KEY_FINISHED for none), all matches played.  0, or -1 (out
 * of memory).
 */
int bs_merge_tree_init(struct bs_merge_tree *t, const bs_merge_key *keys, uint32_t nstreams);
void bs_merge_tree_free(struct bs_merge_tree *t);

/*
 * The winner's key is now key.  Mostly it still wins, and nothing moves
 * (events come in runs from one CPU): true.  Else false, and nothing is
 * changed: call bs_merge_tree_replay().
 */
static inline bool bs_merge_tree_still_wins(struct bs_merge_tree *t, bs_merge_key key)
{
	if (key >= t->second)
		return false;
	t->node[0].key = key;
	return true;
}

/* The winner's key is now key: replay its matches (or, of two streams, swap). */
void bs_merge_tree_replay(struct bs_merge_tree *t, bs_merge_key key);

/* The stream with the least key, or -1 when every stream is finished. */
static inline int bs_merge_tree_winner(const struct bs_merge_tree *t)
{
	return t->node[0].key != BS_MERGE_KEY_FINISHED ? (int)t->node[0].stream : -1;
}

#endif /* BLKSCOPE_BS_MERGE_TREE_H */
