// SPDX-License-Identifier: GPL-2.0
/*
 * stats_sketch.c - log-linear latency histogram (see stats_sketch.h).
 */
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "stats_sketch.h"

void sk_init(struct sketch *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

void sk_free(struct sketch *s)
{
	free(s->c);
	free(s->carry);
	sk_init(s);
}

void sk_carry(struct sketch *s, unsigned int idx, uint32_t wraps)
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

/* Full count of the i-th counter of the array (bucket (lo << SK_SUB_BITS) + i). */
static uint64_t count_at(const struct sketch *s, size_t i)
{
	uint64_t n = s->c[i];
	uint32_t k, idx = (uint32_t)((s->lo << SK_SUB_BITS) + i);

	for (k = 0; k < s->ncarry; k++)
		if (s->carry[k].idx == idx)
			n += (uint64_t)s->carry[k].wraps << SK_COUNT_BITS;
	return n;
}

void sk_cover(struct sketch *s, unsigned int b)
{
	if (s->nb && b - s->lo < s->nb)
		return;
	uint32_t lo = s->nb ? (b < s->lo ? b : s->lo) : b;
	uint32_t hi = s->nb ? (b >= s->lo + s->nb ? b + 1 : s->lo + s->nb) : b + 1;
	sk_count_t *c = bs_xcalloc((size_t)(hi - lo) * SK_SUB, sizeof(sk_count_t));

	if (s->nb)
		memcpy(c + (size_t)(s->lo - lo) * SK_SUB, s->c, (size_t)s->nb * SK_SUB * sizeof(sk_count_t));
	free(s->c);
	s->c = c;
	s->lo = lo;
	s->nb = hi - lo;
}

void sk_merge(struct sketch *dst, const struct sketch *src)
{
	size_t i, n, off;
	sk_count_t *d;
	uint32_t k;

	if (!src->n)
		return;
	sk_cover(dst, src->lo);
	sk_cover(dst, src->lo + src->nb - 1);
	off = (size_t)(src->lo - dst->lo) * SK_SUB;
	d = dst->c + off;
	n = (size_t)src->nb * SK_SUB;
	for (i = 0; i < n; i++) {
		sk_count_t a = d[i];

		d[i] = (sk_count_t)(a + src->c[i]);
		if (d[i] < a)	/* wrapped */
			sk_carry(dst, (unsigned int)((dst->lo << SK_SUB_BITS) + off + i), 1);
	}
	for (k = 0; k < src->ncarry; k++)
		sk_carry(dst, src->carry[k].idx, src->carry[k].wraps);
	dst->n += src->n;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

void sk_bucket_bounds(unsigned int idx, uint64_t *lo, uint64_t *hi)
{
	unsigned int shift;
	uint64_t mant;

	if (idx < SK_LINEAR) {
		*lo = *hi = idx;
		return;
	}
	shift = (idx >> SK_SUB_BITS) - 1;
	mant = (idx & (SK_SUB - 1)) | SK_SUB;
	*lo = mant << shift;
	*hi = *lo + ((1ull << shift) - 1);
}

uint64_t sk_bucket_mid(unsigned int idx)
{
	uint64_t lo, hi;

	sk_bucket_bounds(idx, &lo, &hi);
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

uint64_t sk_quantile(const struct sketch *s, uint32_t ppm)
{
	unsigned __int128 r;
	uint64_t rank, seen = 0;
	size_t i;

	if (!s->n)
		return 0;
	if (ppm >= 1000000)
		return s->max;
	/* nearest rank: ceil(ppm * n / 1e6), in integers so p99.99 is exact */
	r = ((unsigned __int128)ppm * s->n + 999999) / 1000000;
	rank = r ? (uint64_t)r : 1;
	/* the extremes are known exactly */
	if (rank == 1)
		return s->min;
	if (rank >= s->n)
		return s->max;
	for (i = 0; i < (size_t)s->nb * SK_SUB; i++) {
		seen += s->ncarry ? count_at(s, i) : s->c[i];
		if (seen >= rank)
			return clamp(s, sk_bucket_mid((unsigned int)((s->lo << SK_SUB_BITS) + i)));
	}
	return s->max;
}

void sk_foreach(const struct sketch *s, void (*fn)(void *ctx, uint64_t mid, uint64_t count), void *ctx)
{
	size_t i;

	for (i = 0; s->n && i < (size_t)s->nb * SK_SUB; i++)
		if (s->c[i] || s->ncarry)
			if (count_at(s, i))
				fn(ctx, clamp(s, sk_bucket_mid((unsigned int)((s->lo << SK_SUB_BITS) + i))),
				   count_at(s, i));
}

uint64_t sk_count_range(const struct sketch *s, uint64_t lo, uint64_t hi)
{
	uint64_t n = 0, mid;
	size_t i;

	for (i = 0; s->n && i < (size_t)s->nb * SK_SUB; i++) {
		if (!s->c[i] && !s->ncarry)
			continue;
		mid = clamp(s, sk_bucket_mid((unsigned int)((s->lo << SK_SUB_BITS) + i)));
		if (mid >= lo && mid < hi)
			n += count_at(s, i);
	}
	return n;
}
