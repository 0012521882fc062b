/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt_live.h - btt's "I/O Active Period" (p_live.c): the union of the
 * closed [D, C] intervals of completed bios, per device and system-wide.
 */
#ifndef BLKSCOPE_BTT_LIVE_H
#define BLKSCOPE_BTT_LIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct btt_live_span {
	uint64_t start, end;
};

struct btt_live {
	struct btt_live_span *v;	/* disjoint, ascending; only the tail can still grow */
	size_t n, cap;
	size_t fold_at;		/* try folding old spans when n reaches this */
	unsigned long folded;	/* spans that can no longer merge, counted out */
	uint64_t folded_live;
	uint64_t t_end;
};

struct btt_live_info {
	unsigned long nlives;
	double avg_live, avg_lull, p_live;
};

void btt_live_init(struct btt_live *l);
void btt_live_free(struct btt_live *l);

/* btt_live_add() when [dt, ct] does not merely lengthen the last span */
void btt_live_add_slow(struct btt_live *l, uint64_t dt, uint64_t ct);

/*
 * Add [dt, ct]; ct never decreases from one call to the next.  While the
 * device is busy, each completion's [D, C] starts inside the last span and
 * ends at or past it: the span grows, nothing else can be touched (the
 * spans before it end before it starts).  Inline: twice per completion.
 */
static inline void btt_live_add(struct btt_live *l, uint64_t dt, uint64_t ct)
{
	struct btt_live_span *last = l->n ? &l->v[l->n - 1] : NULL;

	if (last && last->start <= dt && dt <= last->end && last->end <= ct) {
		last->end = ct;
		if (ct > l->t_end)
			l->t_end = ct;
		return;
	}
	btt_live_add_slow(l, dt, ct);
}

/* Nothing starting before `horizon` can arrive any more: count out the spans ending before it. */
void btt_live_fold(struct btt_live *l, uint64_t horizon);

static inline int btt_live_wants_fold(const struct btt_live *l)
{
	return l->n >= l->fold_at;
}

void btt_live_get(const struct btt_live *l, struct btt_live_info *out);

/* btt -Z: every live span as a rectangle at height base_y; needs no folding */
void btt_live_write(const struct btt_live *l, FILE *fp, int base_y);

static inline void btt_live_keep_all(struct btt_live *l)
{
	l->fold_at = (size_t)-1;
}

#endif /* BLKSCOPE_BTT_LIVE_H */
