// SPDX-License-Identifier: GPL-2.0
/*
 * ts_slots.c - time-series slots by volume (see ts_slots.h).  A slot is
 * looked for only when a key is first seen, never per sample: the scan of
 * TS_SLOT_MAX holders is bounded.
 */
#include <string.h>
#include "ts_slots.h"

void ts_slots_init(struct ts_slots *sl)
{
	memset(sl, 0, sizeof(*sl));
}

/* The holder of least volume; of equals, the one used least recently. */
static int smallest(const struct ts_slots *sl)
{
	int best = 0, i;

	for (i = 1; i < sl->n; i++)
		if (sl->weight[i] < sl->weight[best] ||
		    (sl->weight[i] == sl->weight[best] && sl->used[i] < sl->used[best]))
			best = i;
	return best;
}

int ts_slots_take(struct ts_slots *sl, int64_t key, int64_t *evicted)
{
	int s;

	*evicted = -1;
	if (sl->n < TS_SLOT_MAX)
		s = sl->n++;
	else {
		s = smallest(sl);
		/*
		 * small: one I/O, or at most 0.1% of the volume (total * ppm / 1e6, without
		 * overflow)
		 */
		if (sl->ios[s] > 1 && sl->weight[s] > sl->total / 1000000 * TS_SLOT_SMALL_PPM +
				      sl->total % 1000000 * TS_SLOT_SMALL_PPM / 1000000)
			return TS_SLOT_MORE;
		*evicted = sl->key[s];
	}
	sl->key[s] = key;
	sl->weight[s] = sl->ios[s] = 0;
	sl->used[s] = sl->tick;
	return s;
}
