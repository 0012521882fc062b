/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sketch.h - a mergeable latency histogram with bounded relative
 * error (log-linear buckets, in the style of HdrHistogram).
 *
 * Values (ns) below 128 get a bucket each, so they are exact.  Above, each
 * power of two [2^e, 2^(e+1)) is cut into 64 equal buckets, so a bucket is
 * at most 1/64 of its lower bound wide; a quantile is reported as the
 * middle of its bucket, clamped to the exact min/max, so the relative
 * error is at most 1/128 (0.79%).  The maximum and minimum are exact.
 *
 * Counters live in one array covering the blocks of 64 (one block per
 * power of two) between the lowest and highest value seen, grown on
 * demand, so a sketch costs 64 bytes plus 256 bytes per octave spanned.
 * Adding is a count-leading-zeros, a shift and an increment.  Counters are
 * 32-bit to halve the cache footprint (the increment is the hot spot); a
 * counter that wraps records a carry in a small side list, so counts stay
 * exact.  (-DSK_COUNT_BITS=8 makes them 8-bit, to test the carries.)
 *
 * Quantiles use the nearest-rank definition: the value of rank
 * ceil(q * n) (1-based) in the sorted samples.
 *
 * Small sketches are exact and cheap: a trace may name 100k devices or 1M
 * processes with an I/O or two each, and a counter block per stage and
 * slice would cost gigabytes.  Up to SKETCH_SMALL values are kept as they
 * are (none allocated for one or two: they are min and max; above, a
 * sorted array), and only the (SKETCH_SMALL + 1)-th value turns the sketch
 * into counters.  Quantiles, ranges and buckets of a small sketch use the
 * exact values.
 */
#ifndef BLKSCOPE_SKETCH_H
#define BLKSCOPE_SKETCH_H

#include <stdint.h>

#define SKETCH_SUB_BITS	6
#define SKETCH_SUB		(1u << SKETCH_SUB_BITS)	/* buckets per block */
#define SKETCH_LINEAR	(2 * SKETCH_SUB)		/* values below are exact */
#define SKETCH_BLOCKS	(64 - SKETCH_SUB_BITS + 1)	/* enough for any u64 */

#ifndef SKETCH_COUNT_BITS
#define SKETCH_COUNT_BITS 32
#endif
#if SKETCH_COUNT_BITS == 32
typedef uint32_t sketch_count_t;
#elif SKETCH_COUNT_BITS == 8
typedef uint8_t sketch_count_t;
#else
#error "SKETCH_COUNT_BITS must be 32 or 8"
#endif

struct sketch_carry {
	uint32_t idx;		/* bucket index */
	uint32_t wraps;		/* times its counter wrapped */
};

#define SKETCH_SMALL	16	/* up to this many values are kept exactly */

struct sketch {
	union {
		sketch_count_t *c;	/* counters of blocks [lo, lo + nb), low bits */
		uint64_t *raw;	/* nb == 0, 3 <= n <= SKETCH_SMALL: the values, sorted */
	};
	uint32_t lo, nb;	/* nb == 0: small (n <= SKETCH_SMALL) */
	uint64_t n;
	uint64_t sum;		/* ns; wraps only past 584 years of latency */
	uint64_t min, max;
	struct sketch_carry *carry;	/* high bits of counters that wrapped */
	uint32_t ncarry;
};

/* Bucket index of a value. */
static inline unsigned int sketch_index(uint64_t v)
{
	unsigned int shift;

	if (v < SKETCH_LINEAR)
		return (unsigned int)v;
	shift = 63 - __builtin_clzll(v) - SKETCH_SUB_BITS;
	return (shift << SKETCH_SUB_BITS) + (unsigned int)(v >> shift);
}

/* Make block b part of the counter array (of a sketch past SKETCH_SMALL). */
void sketch_cover(struct sketch *s, unsigned int b);
/* sketch_add_at() of a small sketch or of a block not yet covered. */
void sketch_add_slow(struct sketch *s, uint64_t v, unsigned int idx);
/* Counter of bucket idx wrapped `wraps` more times. */
void sketch_carry(struct sketch *s, unsigned int idx, uint32_t wraps);

/* Count v in n, sum, min and max (small sketches and counters alike). */
static inline void sketch_tally(struct sketch *s, uint64_t v)
{
	s->n++;
	s->sum += v;
	if (v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
}

/* Add value v whose index (sketch_index(v)) the caller already computed. */
static inline void sketch_add_at(struct sketch *s, uint64_t v, unsigned int idx)
{
	unsigned int b = idx >> SKETCH_SUB_BITS;

	if (__builtin_expect(b - s->lo >= s->nb, 0)) {	/* also catches b < lo, small */
		sketch_add_slow(s, v, idx);
		return;
	}
	if (__builtin_expect(!++s->c[idx - (s->lo << SKETCH_SUB_BITS)], 0))
		sketch_carry(s, idx, 1);
	sketch_tally(s, v);
}

static inline void sketch_add(struct sketch *s, uint64_t v)
{
	sketch_add_at(s, v, sketch_index(v));
}

void sketch_init(struct sketch *s);
void sketch_free(struct sketch *s);
void sketch_merge(struct sketch *dst, const struct sketch *src);

/* Lowest and highest value that land in bucket idx. */
void sketch_bucket_bounds(unsigned int idx, uint64_t *lo, uint64_t *hi);

/*
 * Value at quantile ppm/1e6 (nearest rank; 1000000 = max).  Returns 0 for
 * an empty sketch: check s->n first.
 */
uint64_t sketch_quantile(const struct sketch *s, uint32_t ppm);

/*
 * Count of values in [lo, hi) ns, attributing each bucket wholly by its
 * middle value (used to redraw the sketch on coarser axes: log2 µs
 * histograms, heatmap rows).
 */
uint64_t sketch_count_range(const struct sketch *s, uint64_t lo, uint64_t hi);

/*
 * Value of rank `rank` (1-based, clamped to 1..n) in the sorted samples,
 * as sketch_quantile() reports it (bucket middle, exact min/max); 0 if empty.
 */
uint64_t sketch_rank_value(const struct sketch *s, uint64_t rank);

/* Call fn for each non-empty bucket, in increasing order. */
void sketch_foreach(const struct sketch *s, void (*fn)(void *ctx, uint64_t mid, uint64_t count),
		    void *ctx);

/* Middle value of bucket idx (what quantiles report before clamping). */
uint64_t sketch_bucket_mid(unsigned int idx);

#endif /* BLKSCOPE_SKETCH_H */
