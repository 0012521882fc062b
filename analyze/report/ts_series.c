// SPDX-License-Identifier: GPL-2.0
/*
 * ts_series.c - per-interval IOPS, MB/s, latency sketches and in-flight
 * depth, per series (read, write, other, each group), plus a per-device
 * offset map (time x sector bins), all in one streaming pass.
 *
 * Automatic width: the bucket width starts at 1 µs (a power of two in ns)
 * and doubles whenever the trace outgrows 2 x target buckets: adjacent
 * buckets are merged pairwise, which is exact for counts and for the
 * sketches (they are mergeable).  At the end we keep halving until at most
 * 1.5 x target buckets remain, so there are about `target` buckets whatever
 * the trace length and memory never depends on the number of events.
 * With --interval the width is fixed and the bucket array grows instead.
 *
 * Buckets are indexed by completion time (C), counted from the origin
 * (the -t window start, else 0); in-flight time of a bio (from its D to
 * its C: at the device) and its queued time (from its Q to its D: in the
 * block layer, plugged or in the scheduler) are spread over the buckets
 * they overlap; the
 * offset map puts a bio at its issue time (D, else C) and start sector.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_msg.h"
#include "ts_series.h"

#define FIRST_SHIFT	10	/* 1024 ns */
#define FIXED_MAX	20000	/* --interval: more buckets than this and we widen */
#define FIRST_ROW_SHIFT	8	/* 128 KiB per offset-map row */

static void cell_init(struct ts_cell *c)
{
	memset(c, 0, sizeof(*c));
	sketch_init(&c->q2c);
	sketch_init(&c->d2c);
	sketch_init(&c->q2d);
}

static void cell_free(struct ts_cell *c)
{
	sketch_free(&c->q2c);
	sketch_free(&c->d2c);
	sketch_free(&c->q2d);
	cell_init(c);
}

/* dst += src; src is left empty. */
static void cell_absorb(struct ts_cell *dst, struct ts_cell *src)
{
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	dst->inflight_ns += src->inflight_ns;
	dst->queued_ns += src->queued_ns;
	sketch_merge(&dst->q2c, &src->q2c);
	sketch_merge(&dst->d2c, &src->d2c);
	sketch_merge(&dst->q2d, &src->q2d);
	cell_free(src);
}

void ts_init(struct ts_series *ts, uint64_t fixed_width, unsigned int target)
{
	memset(ts, 0, sizeof(*ts));
	memset(ts->series_of, 0xff, sizeof(ts->series_of));	/* all -1 */
	ts->target = target ? target : 100;
	if (fixed_width) {
		ts->fixed = true;
		ts->width = fixed_width;
		ts->cap = 64;
	} else {
		ts->shift = FIRST_SHIFT;
		ts->width = 1ull << FIRST_SHIFT;
		ts->cap = 2 * ts->target;
	}
}

void ts_set_origin(struct ts_series *ts, uint64_t origin)
{
	ts->origin = origin;
}

/* A time relative to the origin (times before it count at it). */
static inline uint64_t rel(const struct ts_series *ts, uint64_t t)
{
	return t > ts->origin ? t - ts->origin : 0;
}

int ts_series_index(struct ts_series *ts, int op_class, int slot)
{
	struct ts_cell *cells;
	size_t b;
	int *idx = &ts->series_of[slot][op_class];

	if (*idx >= 0)
		return *idx;
	cells = bs_xreallocarray(NULL, ts->cap, sizeof(*cells));
	for (b = 0; b < ts->cap; b++)
		cell_init(&cells[b]);
	ts->series = bs_xrealloc(ts->series, (ts->nseries + 1) * sizeof(*ts->series));
	ts->series_op = bs_xrealloc(ts->series_op, (ts->nseries + 1) * sizeof(int));
	ts->series_slot = bs_xrealloc(ts->series_slot, (ts->nseries + 1) * sizeof(int));
	ts->series_lo = bs_xrealloc(ts->series_lo, (ts->nseries + 1) * sizeof(size_t));
	ts->series_hi = bs_xrealloc(ts->series_hi, (ts->nseries + 1) * sizeof(size_t));
	ts->series[ts->nseries] = cells;
	ts->series_op[ts->nseries] = op_class;
	ts->series_slot[ts->nseries] = slot;
	ts->series_lo[ts->nseries] = ts->series_hi[ts->nseries] = 0;
	*idx = (int)ts->nseries;
	return (int)ts->nseries++;
}

static size_t off_cells(const struct ts_series *ts)
{
	return ts->cap * TS_OFF_ROWS * 3;
}

static size_t off_bytes(size_t cap)
{
	return cap * TS_OFF_ROWS * 3 * sizeof(uint32_t);
}

/* Before growing to cap buckets: free the maps (the last made first) that would pass the budget. */
static void off_fit(struct ts_series *ts, size_t cap)
{
	size_t keep = TS_OFFMAP_BUDGET / off_bytes(cap), s;

	for (s = keep; s < ts->noff; s++)
		if (ts->off[s].cnt) {
			free(ts->off[s].cnt);
			ts->off[s].cnt = NULL;
			ts->off_dropped = true;
		}
}

int ts_add_offmap(struct ts_series *ts, uint32_t device)
{
	struct ts_offmap *om;

	if (ts->noff >= TS_MAX_OFFMAPS || ts->off_dropped ||
	    (ts->noff + 1) * off_bytes(ts->cap) > TS_OFFMAP_BUDGET)
		return -1;
	ts->off = bs_xreallocarray(ts->off, ts->noff + 1, sizeof(*ts->off));
	om = &ts->off[ts->noff];
	om->device = device;
	om->row_shift = FIRST_ROW_SHIFT;
	om->max_sector = 0;
	om->b_lo = om->b_hi = 0;
	om->cnt = bs_xcalloc(off_cells(ts), sizeof(uint32_t));
	return (int)ts->noff++;
}

/* Offset-map counts are u32 to halve the cache footprint; they saturate. */
static inline uint32_t sat_add(uint32_t a, uint32_t b)
{
	uint32_t c = a + b;

	return c < a ? UINT32_MAX : c;
}

/* Multiply the width by 2^k (k < 64). */
static size_t span_of(unsigned int k)
{
	return k >= 8 * sizeof(size_t) - 1 ? SIZE_MAX : (size_t)1 << k;
}

/*
 * An offset map's buckets [d * span, (d + 1) * span) merge into bucket d;
 * only its used buckets are read or written (struct ts_offmap: b_lo, b_hi).
 */
static void widen_offmap(struct ts_offmap *om, size_t span)
{
	const size_t per = TS_OFF_ROWS * 3;
	uint32_t *m = om->cnt;
	size_t nlo, nhi, d, b, i;

	if (!m || om->b_hi == 0)
		return;
	nlo = om->b_lo / span;
	nhi = (om->b_hi - 1) / span + 1;
	for (d = nlo; d < nhi; d++) {
		/* d <= every source bucket: sources are read before they are overwritten */
		size_t lo = d * span > om->b_lo ? d * span : om->b_lo;
		size_t hi = om->b_hi - d * span > span ? d * span + span : om->b_hi;

		if (lo != d)
			memcpy(m + d * per, m + lo * per, per * sizeof(uint32_t));
		for (b = lo + 1; b < hi; b++)
			for (i = 0; i < per; i++)
				m[d * per + i] = sat_add(m[d * per + i], m[b * per + i]);
	}
	/*
	 * the old buckets no destination covered: [nhi, b_hi) ([b_lo, nhi) were all destinations)
	 */
	if (om->b_hi > nhi) {
		size_t from = om->b_lo > nhi ? om->b_lo : nhi;

		memset(m + from * per, 0, (om->b_hi - from) * per * sizeof(uint32_t));
	}
	om->b_lo = nlo;
	om->b_hi = nhi;
}

/*
 * Multiply the width by 2^k: buckets [d << k, (d + 1) << k) merge into
 * bucket d in every series and offset map, in one pass whatever k (exact:
 * the same as k pairwise halvings; a hostile time jump costs one pass).
 */
static void widen(struct ts_series *ts, unsigned int k)
{
	size_t span = span_of(k), nnb = ts->nb ? (ts->nb - 1) / span + 1 : 0;
	size_t s, d, b;

	for (s = 0; s < ts->nseries; s++) {
		struct ts_cell *c = ts->series[s];

		for (d = 0; d < nnb; d++) {
			size_t lo = d * span, hi = ts->nb - lo > span ? lo + span : ts->nb;

			if (d) {	/* bucket d was a source of an earlier d: already moved */
				c[d] = c[lo];
				cell_init(&c[lo]);
			}
			for (b = lo + 1; b < hi; b++)
				cell_absorb(&c[d], &c[b]);
		}
		if (ts->series_hi[s]) {
			ts->series_lo[s] /= span;
			ts->series_hi[s] = (ts->series_hi[s] - 1) / span + 1;
		}
	}
	for (s = 0; s < ts->noff; s++)
		widen_offmap(&ts->off[s], span);
	ts->nb = nnb;
	ts->shift += k;
	ts->width = k < 64 && ts->width <= UINT64_MAX >> k ? ts->width << k : UINT64_MAX;
}

/* Fixed width: make room for bucket b (dropping offset maps past the memory budget). */
static void grow(struct ts_series *ts, size_t b)
{
	size_t ncap = ts->cap, s, i;

	while (ncap <= b)
		ncap *= 2;
	off_fit(ts, ncap);
	for (s = 0; s < ts->nseries; s++) {
		ts->series[s] = bs_xreallocarray(ts->series[s], ncap, sizeof(struct ts_cell));
		for (i = ts->cap; i < ncap; i++)
			cell_init(&ts->series[s][i]);
	}
	for (s = 0; s < ts->noff; s++) {
		struct ts_offmap *om = &ts->off[s];
		uint32_t *cnt;

		if (!om->cnt)
			continue;
		/* a fresh zeroed block: only the used buckets are copied (and mapped) */
		cnt = bs_xcalloc(ncap * TS_OFF_ROWS * 3, sizeof(uint32_t));
		if (om->b_hi)
			memcpy(cnt + om->b_lo * TS_OFF_ROWS * 3,
			       om->cnt + om->b_lo * TS_OFF_ROWS * 3,
			       (om->b_hi - om->b_lo) * TS_OFF_ROWS * 3 * sizeof(uint32_t));
		free(om->cnt);
		om->cnt = cnt;
	}
	ts->cap = ncap;
}

/* bucket_of() past the buckets there are: widen (automatic) or grow (--interval). */
static __attribute__((noinline)) size_t bucket_make(struct ts_series *ts, uint64_t t)
{
	unsigned int k = 0;
	size_t b;

	if (ts->fixed) {
		b = t / ts->width;
		if (b >= FIXED_MAX) {
			/* bounded memory even for a too-fine --interval: widen, say so once */
			uint64_t asked = ts->width;

			while (t / ts->width >> k >= FIXED_MAX)
				k++;
			widen(ts, k);
			b = t / ts->width;
			if (!ts->widened)
				bs_msg(ts->msg, BS_MSG_INFO,
				       "note: --interval %" PRIu64 "ns makes more than "
				       "%d buckets; using %" PRIu64 "ns or wider",
				       asked, FIXED_MAX, ts->width);
			ts->widened = true;
		}
		if (b >= ts->cap)
			grow(ts, b);
	} else {
		b = t >> ts->shift;
		if (b >= 2 * ts->target) {
			while (t >> (ts->shift + k) >= 2 * ts->target)
				k++;
			widen(ts, k);
			b = t >> ts->shift;
		}
	}
	if (b >= ts->nb)
		ts->nb = b + 1;
	return b;
}

/* Bucket of time t, making room for it (may widen the buckets); inline: twice per I/O. */
static inline size_t bucket_of(struct ts_series *ts, uint64_t t)
{
	size_t b;

	if (ts->fixed || (b = t >> ts->shift) >= 2 * ts->target)
		return bucket_make(ts, t);
	if (b >= ts->nb)
		ts->nb = b + 1;
	return b;
}

/* Bucket of a time not later than one already placed (no growth). */
static inline size_t bucket_in(const struct ts_series *ts, uint64_t t)
{
	return ts->fixed ? t / ts->width : t >> ts->shift;
}

/* Offset map: multiply the sectors per row by 2^k until `sector` fits (one pass). */
static void widen_rows(struct ts_series *ts, struct ts_offmap *om, uint64_t sector)
{
	unsigned int k = 0;
	size_t span, b, d, r, nrows;

	while (sector >> (om->row_shift + k) >= TS_OFF_ROWS)
		k++;
	span = k >= 8 ? TS_OFF_ROWS : (size_t)1 << k;	/* 8 = log2(TS_OFF_ROWS): all in row 0 */
	nrows = TS_OFF_ROWS / span;
	for (b = om->b_lo; b < om->b_hi; b++) {
		uint32_t *m = om->cnt + b * TS_OFF_ROWS * 3;

		for (d = 0; d < nrows; d++) {
			if (d)
				memcpy(m + d * 3, m + d * span * 3, 3 * sizeof(uint32_t));
			for (r = d * span + 1; r < (d + 1) * span; r++) {
				m[d * 3 + 0] = sat_add(m[d * 3 + 0], m[r * 3 + 0]);
				m[d * 3 + 1] = sat_add(m[d * 3 + 1], m[r * 3 + 1]);
				m[d * 3 + 2] = sat_add(m[d * 3 + 2], m[r * 3 + 2]);
			}
		}
		memset(m + nrows * 3, 0, (TS_OFF_ROWS - nrows) * 3 * sizeof(uint32_t));
	}
	om->row_shift += k;
}

/* Spread the span [t0, t1) (relative times, t1 in bucket bc or earlier) over the buckets' field. */
static inline void add_span(struct ts_series *ts, struct ts_cell *c, uint64_t t0, uint64_t t1,
			    size_t bc, bool queued)
{
	size_t b = bucket_in(ts, t0);

	/* most spans are far shorter than a bucket: all of it in b, if anything */
	if (b <= bc && bucket_in(ts, t1) == b) {
		if (t1 > t0) {
			if (queued)
				c[b].queued_ns += t1 - t0;
			else
				c[b].inflight_ns += t1 - t0;
		}
		return;
	}

	for (; b <= bc; b++) {
		uint64_t lo = b * ts->width, hi = lo + ts->width;

		if (lo < t0)
			lo = t0;
		if (hi > t1)
			hi = t1;
		if (hi <= lo)
			continue;
		if (queued)
			c[b].queued_ns += hi - lo;
		else
			c[b].inflight_ns += hi - lo;
	}
}

/* Series s's cells [from, to] may hold something now. */
static inline void series_used(struct ts_series *ts, int s, size_t from, size_t to)
{
	if (!ts->series_hi[s] || from < ts->series_lo[s])
		ts->series_lo[s] = from;
	if (to >= ts->series_hi[s])
		ts->series_hi[s] = to + 1;
}

void ts_add(struct ts_series *ts, const struct bs_io_sample *s, const struct report_stage_vals *sv,
	    int series, int offmap)
{
	uint64_t rc = rel(ts, s->t_c), rd = rel(ts, s->t_d);	/* each used twice */
	size_t b;

	if (s->t_c != BS_NOT_SEEN) {
		struct ts_cell *c;

		b = bucket_of(ts, rc);
		/* the spans below start at Q or D: the earliest bucket they touch */
		series_used(ts, series,
			    bucket_in(ts,
				      sv->mask & (1u << BS_ST_Q2D)	     ? rel(ts, s->t_q)
					      : sv->mask & (1u << BS_ST_D2C) ? rd
									     : rc),
			    b);
		c = &ts->series[series][b];
		c->ios++;
		c->bytes += s->bytes;
		if (sv->mask & (1u << BS_ST_Q2C))
			sketch_add_at(&c->q2c, sv->ns[BS_ST_Q2C], sv->idx[BS_ST_Q2C]);
		if (sv->mask & (1u << BS_ST_D2C)) {
			sketch_add_at(&c->d2c, sv->ns[BS_ST_D2C], sv->idx[BS_ST_D2C]);
			add_span(ts, ts->series[series], rd, rc, b, false);
		}
		if (sv->mask & (1u << BS_ST_Q2D)) {
			sketch_add_at(&c->q2d, sv->ns[BS_ST_Q2D], sv->idx[BS_ST_Q2D]);
			add_span(ts, ts->series[series], rel(ts, s->t_q), rd, b, true);
		}
	}
	if (offmap >= 0 && ts->off[offmap].cnt) {
		uint64_t t = s->t_d != BS_NOT_SEEN ? s->t_d : s->t_c;
		struct ts_offmap *om = &ts->off[offmap];
		int cls = s->op == BS_OP_READ ? 0 : s->op == BS_OP_WRITE ? 1 : 2;

		if (t == BS_NOT_SEEN)
			return;
		b = bucket_of(ts, s->t_d != BS_NOT_SEEN ? rd : rc);
		if ((s->sector >> om->row_shift) >= TS_OFF_ROWS)
			widen_rows(ts, om, s->sector);
		if (s->sector > om->max_sector)
			om->max_sector = s->sector;
		if (om->b_hi == 0 || b < om->b_lo)	/* the used buckets grow to take b */
			om->b_lo = b;
		if (b >= om->b_hi)
			om->b_hi = b + 1;
		{
			uint32_t *c =
				&om->cnt[(b * TS_OFF_ROWS + (s->sector >> om->row_shift)) * 3 +
					 cls];

			*c += *c != UINT32_MAX;
		}
	}
}

void ts_merge_slot(struct ts_series *ts, int from, int to)
{
	int op;

	for (op = 0; op < TS_OPS; op++) {
		int s = ts->series_of[from][op], t = ts->series_of[to][op];
		size_t b;

		if (s < 0)
			continue;
		if (t < 0) {	/* nothing there yet: the series changes hands */
			ts->series_slot[s] = to;
			ts->series_of[to][op] = s;
			ts->series_of[from][op] = -1;
			continue;
		}
		for (b = ts->series_lo[s]; b < ts->series_hi[s]; b++)
			cell_absorb(&ts->series[t][b], &ts->series[s][b]);
		if (ts->series_hi[s])
			series_used(ts, t, ts->series_lo[s], ts->series_hi[s] - 1);
		ts->series_lo[s] = ts->series_hi[s] = 0;
	}
}

void ts_finish(struct ts_series *ts, uint64_t end_time)
{
	unsigned int k = 0;

	bucket_of(ts, rel(ts, end_time));
	if (!ts->fixed) {
		while (ts->nb > ((size_t)ts->target * 3 / 2) * span_of(k))
			k++;
		if (k)
			widen(ts, k);
	}
}

void ts_cell_free(struct ts_cell *c)
{
	cell_free(c);
}

static void cell_sum(const struct ts_series *ts, size_t b, int op_class, int slot,
		     struct ts_cell *out, bool q2d)
{
	size_t s;

	cell_init(out);
	for (s = 0; s < ts->nseries && b < ts->nb; s++) {
		const struct ts_cell *c = &ts->series[s][b];

		if ((op_class != TS_ANY && ts->series_op[s] != op_class) ||
		    (slot != TS_ANY && ts->series_slot[s] != slot))
			continue;
		out->ios += c->ios;
		out->bytes += c->bytes;
		out->inflight_ns += c->inflight_ns;
		out->queued_ns += c->queued_ns;
		sketch_merge(&out->q2c, &c->q2c);
		sketch_merge(&out->d2c, &c->d2c);
		if (q2d)
			sketch_merge(&out->q2d, &c->q2d);
	}
}

void ts_cell_sum(const struct ts_series *ts, size_t b, int op_class, int slot, struct ts_cell *out)
{
	cell_sum(ts, b, op_class, slot, out, false);
}

void ts_cell_sum_all(const struct ts_series *ts, size_t b, int op_class, int slot,
		     struct ts_cell *out)
{
	cell_sum(ts, b, op_class, slot, out, true);
}

void ts_free(struct ts_series *ts)
{
	size_t s, b;

	for (s = 0; s < ts->nseries; s++) {
		for (b = 0; b < ts->cap; b++)
			cell_free(&ts->series[s][b]);
		free(ts->series[s]);
	}
	free(ts->series);
	free(ts->series_op);
	free(ts->series_slot);
	free(ts->series_lo);
	free(ts->series_hi);
	for (s = 0; s < ts->noff; s++)
		free(ts->off[s].cnt);
	free(ts->off);
	memset(ts, 0, sizeof(*ts));
}
