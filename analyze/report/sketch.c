// SPDX-License-Identifier: GPL-2.0
/*
 * sketch.c - log-linear latency histogram (see sketch.h).
 */
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "sketch.h"

void sketch_init(struct sketch *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

void sketch_free(struct sketch *s)
{
	free(s->c);
	free(s->carry);
	sketch_init(s);
}

/* ---- small sketches: the values themselves ---- */

/* Capacity of the value array of a small sketch of n values. */
static uint32_t small_cap(uint64_t n)
{
	if (n <= 2)
		return 0;	/* min and max are the values */
	return n <= 4 ? 4 : n <= 8 ? 8 : SKETCH_SMALL;
}

/* The sorted values of a small sketch (buf: room for SKETCH_SMALL). */
static const uint64_t *small_vals(const struct sketch *s, uint64_t *buf)
{
	if (s->n > 2)
		return s->raw;
	buf[0] = s->min;
	buf[1] = s->max;
	return buf;
}

/* Add v to a small sketch with room for it (n < SKETCH_SMALL). */
static void small_put(struct sketch *s, uint64_t v)
{
	uint64_t i;

	if (s->n == 2) {
		s->raw = bs_xcalloc(small_cap(3), sizeof(*s->raw));
		s->raw[0] = s->min;
		s->raw[1] = s->max;
	} else if (s->n > 2 && small_cap(s->n + 1) != small_cap(s->n)) {
		s->raw = bs_xreallocarray(s->raw, small_cap(s->n + 1), sizeof(*s->raw));
	}
	if (s->n >= 2) {	/* insertion: the array stays sorted */
		for (i = s->n; i && s->raw[i - 1] > v; i--)
			s->raw[i] = s->raw[i - 1];
		s->raw[i] = v;
	}
	sketch_tally(s, v);
}

/*
 * Take the values out of a small sketch and leave it empty (counters not
 * yet allocated); returns how many there were.
 */
static uint64_t small_take(struct sketch *s, uint64_t *buf)
{
	uint64_t n = s->n;

	if (n > 2)
		memcpy(buf, s->raw, n * sizeof(*buf));
	else
		small_vals(s, buf);
	sketch_free(s);
	return n;
}

static void cover_range(struct sketch *s, unsigned int blo, unsigned int bhi);

void sketch_add_slow(struct sketch *s, uint64_t v, unsigned int idx)
{
	uint64_t buf[SKETCH_SMALL], i, n;

	if (!s->nb && s->n < SKETCH_SMALL) {
		small_put(s, v);
		return;
	}
	if (!s->nb) {	/* the (SKETCH_SMALL + 1)-th value: now counters, allocated once */
		unsigned int lo = idx >> SKETCH_SUB_BITS, hi = lo;

		n = small_take(s, buf);	/* sorted: its ends are the extremes */
		if (n) {
			unsigned int a = sketch_index(buf[0]) >> SKETCH_SUB_BITS,
				     z = sketch_index(buf[n - 1]) >> SKETCH_SUB_BITS;

			lo = a < lo ? a : lo;
			hi = z > hi ? z : hi;
		}
		cover_range(s, lo, hi);
		for (i = 0; i < n; i++)
			sketch_add_at(s, buf[i], sketch_index(buf[i]));
	}
	sketch_cover(s, idx >> SKETCH_SUB_BITS);
	sketch_add_at(s, v, idx);
}

/* ---- counters ---- */

void sketch_carry(struct sketch *s, unsigned int idx, uint32_t wraps)
{
	uint32_t i;

	for (i = 0; i < s->ncarry; i++)
		if (s->carry[i].idx == idx) {
			s->carry[i].wraps += wraps;
			return;
		}
	s->carry = bs_xreallocarray(s->carry, s->ncarry + 1, sizeof(*s->carry));
	s->carry[s->ncarry].idx = idx;
	s->carry[s->ncarry].wraps = wraps;
	s->ncarry++;
}

/* Full count of the i-th counter of the array (bucket (lo << SKETCH_SUB_BITS) + i). */
static uint64_t count_at(const struct sketch *s, size_t i)
{
	uint64_t n = s->c[i];
	uint32_t k, idx = (uint32_t)((s->lo << SKETCH_SUB_BITS) + i);

	for (k = 0; k < s->ncarry; k++)
		if (s->carry[k].idx == idx)
			n += (uint64_t)s->carry[k].wraps << SKETCH_COUNT_BITS;
	return n;
}

/* Make blocks [blo, bhi] part of the counter array, in one allocation. */
static void cover_range(struct sketch *s, unsigned int blo, unsigned int bhi)
{
	if (s->nb && blo - s->lo < s->nb && bhi - s->lo < s->nb)
		return;
	uint32_t lo = s->nb ? (blo < s->lo ? blo : s->lo) : blo;
	uint32_t hi = s->nb ? (bhi >= s->lo + s->nb ? bhi + 1 : s->lo + s->nb) : bhi + 1;
	sketch_count_t *c = bs_xcalloc((size_t)(hi - lo) * SKETCH_SUB, sizeof(sketch_count_t));

	if (s->nb)
		memcpy(c + (size_t)(s->lo - lo) * SKETCH_SUB, s->c,
		       (size_t)s->nb * SKETCH_SUB * sizeof(sketch_count_t));
	free(s->c);
	s->c = c;
	s->lo = lo;
	s->nb = hi - lo;
}

void sketch_cover(struct sketch *s, unsigned int b)
{
	cover_range(s, b, b);
}

void sketch_merge(struct sketch *dst, const struct sketch *src)
{
	uint64_t buf[SKETCH_SMALL], nd = 0;
	const uint64_t *v;
	size_t i, n, off;
	sketch_count_t *d;
	uint32_t k;

	if (!src->n)
		return;
	if (!src->nb) {	/* small: add its values */
		v = small_vals(src, buf);
		for (i = 0; i < src->n; i++)
			sketch_add(dst, v[i]);
		return;
	}
	if (!dst->nb)	/* small into counters: counters first, then its values */
		nd = small_take(dst, buf);
	cover_range(dst, src->lo, src->lo + src->nb - 1);
	off = (size_t)(src->lo - dst->lo) * SKETCH_SUB;
	d = dst->c + off;
	n = (size_t)src->nb * SKETCH_SUB;
	for (i = 0; i < n; i++) {
		sketch_count_t a = d[i];

		d[i] = (sketch_count_t)(a + src->c[i]);
		if (d[i] < a)	/* wrapped */
			sketch_carry(dst, (unsigned int)((dst->lo << SKETCH_SUB_BITS) + off + i),
				     1);
	}
	for (k = 0; k < src->ncarry; k++)
		sketch_carry(dst, src->carry[k].idx, src->carry[k].wraps);
	dst->n += src->n;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (i = 0; i < nd; i++)
		sketch_add(dst, buf[i]);
}

void sketch_bucket_bounds(unsigned int idx, uint64_t *lo, uint64_t *hi)
{
	unsigned int shift;
	uint64_t mant;

	if (idx < SKETCH_LINEAR) {
		*lo = *hi = idx;
		return;
	}
	shift = (idx >> SKETCH_SUB_BITS) - 1;
	mant = (idx & (SKETCH_SUB - 1)) | SKETCH_SUB;
	*lo = mant << shift;
	*hi = *lo + ((1ull << shift) - 1);
}

uint64_t sketch_bucket_mid(unsigned int idx)
{
	uint64_t lo, hi;

	sketch_bucket_bounds(idx, &lo, &hi);
	return lo + (hi - lo) / 2;
}

static uint64_t clamp(const struct sketch *s, uint64_t v)
{
	if (v < s->min)
		return s->min;
	if (v > s->max)
		return s->max;
	return v;
}

uint64_t sketch_rank_value(const struct sketch *s, uint64_t rank)
{
	uint64_t seen = 0;
	size_t i;

	if (!s->n)
		return 0;
	/* the extremes are known exactly */
	if (rank <= 1)
		return s->min;
	if (rank >= s->n)
		return s->max;
	if (!s->nb)	/* small: n > 2, the values are kept */
		return s->raw[rank - 1];
	for (i = 0; i < (size_t)s->nb * SKETCH_SUB; i++) {
		seen += s->ncarry ? count_at(s, i) : s->c[i];
		if (seen >= rank)
			return clamp(
				s,
				sketch_bucket_mid((unsigned int)((s->lo << SKETCH_SUB_BITS) + i)));
	}
	return s->max;
}

uint64_t sketch_quantile(const struct sketch *s, uint32_t ppm)
{
	unsigned __int128 r;

	if (!s->n)
		return 0;
	if (ppm >= 1000000)
		return s->max;
	/* nearest rank: ceil(ppm * n / 1e6), in integers so p99.99 is exact */
	r = ((unsigned __int128)ppm * s->n + 999999) / 1000000;
	return sketch_rank_value(s, r ? (uint64_t)r : 1);
}

void sketch_foreach(const struct sketch *s, void (*fn)(void *ctx, uint64_t mid, uint64_t count),
		    void *ctx)
{
	uint64_t buf[SKETCH_SMALL], j;
	const uint64_t *v;
	size_t i;

	if (s->n && !s->nb) {	/* small: each distinct value, exactly */
		v = small_vals(s, buf);
		for (i = 0; i < s->n; i = j) {
			for (j = i + 1; j < s->n && v[j] == v[i]; j++)
				;
			fn(ctx, v[i], j - i);
		}
		return;
	}

	for (i = 0; s->n && i < (size_t)s->nb * SKETCH_SUB; i++)
		if (s->c[i] || s->ncarry)
			if (count_at(s, i))
				fn(ctx,
				   clamp(s,
					 sketch_bucket_mid(
						 (unsigned int)((s->lo << SKETCH_SUB_BITS) + i))),
				   count_at(s, i));
}

uint64_t sketch_count_range(const struct sketch *s, uint64_t lo, uint64_t hi)
{
	uint64_t n = 0, mid, buf[SKETCH_SMALL];
	const uint64_t *v;
	size_t i;

	if (s->n && !s->nb) {	/* small: the values themselves */
		v = small_vals(s, buf);
		for (i = 0; i < s->n; i++)
			n += v[i] >= lo && v[i] < hi;
		return n;
	}

	for (i = 0; s->n && i < (size_t)s->nb * SKETCH_SUB; i++) {
		if (!s->c[i] && !s->ncarry)
			continue;
		mid = clamp(s, sketch_bucket_mid((unsigned int)((s->lo << SKETCH_SUB_BITS) + i)));
		if (mid >= lo && mid < hi)
			n += count_at(s, i);
	}
	return n;
}
