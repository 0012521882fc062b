// SPDX-License-Identifier: GPL-2.0
/*
 * btt_live.c - active periods.  btt keeps the [D, C] intervals in an
 * rb-tree and merges a new interval with any it touches (closed ends),
 * which leaves exactly the union of the intervals, whatever the tree's
 * shape.  Completions arrive in time order, so a new interval [dt, ct]
 * can only touch a suffix of the sorted disjoint spans: a stack suffices.
 * Spans that end before every bio still in flight was dispatched can
 * never grow again; btt_live_fold() counts them out to bound memory.
 *
 * btt's quirks kept: the period runs from time 0 (not the first D) to the
 * last C, and one single live span reports Avg. Act 0 and 100 % live.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_numfmt.h"
#include "btt_live.h"
#include "btt_priv.h"

#define LIVE_FOLD_START 4096
#define LIVE_FIRST 4	/* spans; a trace may name 100k devices with one IO each */

void btt_live_init(struct btt_live *l)
{
	memset(l, 0, sizeof(*l));
	l->fold_at = LIVE_FOLD_START;
}

void btt_live_free(struct btt_live *l)
{
	free(l->v);
	l->v = NULL;
}

/*
 * A completion out of time order (only in damaged or unsorted input):
 * merge [dt, ct] into the sorted spans wherever it falls.
 */
static void add_anywhere(struct btt_live *l, uint64_t dt, uint64_t ct)
{
	size_t lo = 0, hi = l->n, k;
	uint64_t start = dt, end = ct;

	while (lo < hi) {	/* first span ending at or after dt */
		size_t mid = lo + (hi - lo) / 2;

		if (l->v[mid].end < dt)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (hi = lo; hi < l->n && l->v[hi].start <= ct; hi++) {
		if (l->v[hi].start < start)
			start = l->v[hi].start;
		if (l->v[hi].end > end)
			end = l->v[hi].end;
	}
	if (hi == lo) {		/* touches nothing: make room */
		if (l->n == l->cap) {
			l->cap = l->cap ? l->cap * 2 : LIVE_FIRST;
			l->v = bs_xreallocarray(l->v, l->cap, sizeof(*l->v));
		}
		memmove(l->v + lo + 1, l->v + lo, (l->n - lo) * sizeof(*l->v));
		l->n++;
	} else {		/* spans lo..hi-1 become one */
		k = hi - lo - 1;
		memmove(l->v + lo + 1, l->v + hi, (l->n - hi) * sizeof(*l->v));
		l->n -= k;
	}
	l->v[lo].start = start;
	l->v[lo].end = end;
	if (end > l->t_end)
		l->t_end = end;
}

void btt_live_add_slow(struct btt_live *l, uint64_t dt, uint64_t ct)
{
	uint64_t start = dt;

	if (l->n && ct < l->v[l->n - 1].end) {
		add_anywhere(l, dt, ct);
		return;
	}
	while (l->n && l->v[l->n - 1].end >= dt) {
		if (l->v[l->n - 1].start < start)
			start = l->v[l->n - 1].start;
		l->n--;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : LIVE_FIRST;
		l->v = bs_xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n].start = start;
	l->v[l->n].end = ct > start ? ct : start;
	if (l->v[l->n].end > l->t_end)
		l->t_end = l->v[l->n].end;
	l->n++;
}

void btt_live_fold(struct btt_live *l, uint64_t horizon)
{
	size_t i = 0;

	while (i < l->n && l->v[i].end < horizon) {
		l->folded++;
		l->folded_live += l->v[i].end - l->v[i].start;
		i++;
	}
	if (i) {
		memmove(l->v, l->v + i, (l->n - i) * sizeof(*l->v));
		l->n -= i;
	}
	/* if little could be folded, wait longer before the next scan */
	if (l->n * 2 >= l->fold_at)
		l->fold_at *= 2;
}

void btt_live_get(const struct btt_live *l, struct btt_live_info *out)
{
	uint64_t tot_live = l->folded_live;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->nlives = l->folded + l->n;
	for (i = 0; i < l->n; i++)
		tot_live += l->v[i].end - l->v[i].start;
	if (out->nlives == 0) {
		return;
	} else if (out->nlives == 1) {
		out->avg_lull = 0.0;
		out->p_live = 100.0;
	} else {
		double t_time = btt_secs(l->t_end);
		double live = btt_secs(tot_live);

		out->p_live = 100.0 * (live / t_time);
		out->avg_live = live / out->nlives;
		out->avg_lull = (t_time - live) / (out->nlives - 1);
	}
}

void btt_live_write(const struct btt_live *l, FILE *fp, int base_y)
{
	float y0 = base_y, y1 = base_y + 0.9;
	char lo[BS_SECS_BUF], hi[BS_SECS_BUF], t0[BS_SECS_BUF], dt[BS_SECS_BUF], ct[BS_SECS_BUF];
	uint64_t last_0 = 0;
	size_t i;

	bs_fmt_tenths(lo, sizeof(lo), y0, 0);
	bs_fmt_tenths(hi, sizeof(hi), y1, 0);
	for (i = 0; i < l->n; i++) {
		bs_fmt_secs(t0, sizeof(t0), last_0, 0);
		bs_fmt_secs(dt, sizeof(dt), l->v[i].start, 0);
		bs_fmt_secs(ct, sizeof(ct), l->v[i].end, 0);
		fprintf(fp, "%s %s\n%s %s\n%s %s\n%s %s\n%s %s\n", t0, lo, dt, lo, dt, hi, ct, hi,
			ct, lo);
		last_0 = l->v[i].end;
	}
}
