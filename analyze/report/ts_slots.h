/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ts_slots.h - which keys (groups, processes, devices) get a time series
 * of their own, by volume rather than by order of appearance.
 *
 * A time series per key costs a row of cells per interval, so only
 * TS_SLOT_MAX keys have one; the others share a "more" series.  Given out
 * in order of first appearance, the slots went to whatever came first: a
 * trace that opens with fifty one-I/O `dd` processes left fio, which did
 * 900k I/Os, in "more".  Here a key arriving when every slot is taken
 * takes the slot of the smallest holder (least volume so far; of equals,
 * the one used least recently) when that holder is small: at most
 * TS_SLOT_SMALL_PPM of all the volume seen, or a single I/O.  The
 * holder's series are merged into "more" (exact: counts add, sketches
 * merge), and it stays there.  A key arriving while every holder is big
 * starts in "more" and stays there.  So a holder's series is always whole
 * (from its first I/O on), "more" is the exact sum of everything else, and
 * the slots end up with the keys of the most volume but for a key that
 * was small while slots were scarce and grew later (docs/analyze.md).
 *
 * The caller keeps each key's slot (or TS_SLOT_MORE) and moves the
 * series of an evicted slot (ts_merge_slot()).
 */
#ifndef BLKSCOPE_TS_SLOTS_H
#define BLKSCOPE_TS_SLOTS_H

#include <stdint.h>

#define TS_SLOT_MAX		64
#define TS_SLOT_MORE		(-2)	/* a key's slot: in the shared series */
#define TS_SLOT_NONE		(-1)	/* a key's slot: not seen yet */
#define TS_SLOT_SMALL_PPM	1000	/* a holder this small (0.1% of all) may be evicted */

struct ts_slots {
	int n;				/* slots handed out, up to TS_SLOT_MAX */
	int64_t key[TS_SLOT_MAX];	/* the holder of each slot */
	uint64_t weight[TS_SLOT_MAX];	/* its volume so far */
	uint64_t ios[TS_SLOT_MAX];	/* its samples so far (a single one: evictable) */
	uint64_t used[TS_SLOT_MAX];	/* tick of its last sample */
	uint64_t total, tick;		/* all the volume seen, samples seen */
};

void ts_slots_init(struct ts_slots *sl);

/*
 * A slot for key, which has none yet: a free one, or the smallest
 * holder's when it is small (its key in *evicted, else -1: the caller
 * moves its series to "more" and marks it TS_SLOT_MORE), or TS_SLOT_MORE.
 */
int ts_slots_take(struct ts_slots *sl, int64_t key, int64_t *evicted);

/* A sample of volume weight for the key in slot (TS_SLOT_MORE: counted in the total only). */
static inline void ts_slots_add(struct ts_slots *sl, int slot, uint64_t weight)
{
	sl->total += weight;
	sl->tick++;
	if (slot < 0)
		return;
	sl->weight[slot] += weight;
	sl->ios[slot]++;
	sl->used[slot] = sl->tick;
}

#endif /* BLKSCOPE_TS_SLOTS_H */
