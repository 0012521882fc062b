/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rng.h - the tests' random numbers: xorshift64 (shifts 13, 7, 17), the
 * same sequence on every run and machine, so a failure can be replayed.
 *
 * rnd(bound) and rnd64() draw from the including file's own stream,
 * seeded with RNG_SEED: a test written against another seed defines
 * RNG_SEED before the #include and keeps its sequence; rng_seed() restarts
 * the stream.  rng_next() steps a stream the caller keeps (a generator's
 * context, one loop's), rng_next32() is xorshift32 (13, 17, 5) for tests
 * that draw 32-bit patterns.
 */
#ifndef BLKSCOPE_TESTS_UNIT_RNG_H
#define BLKSCOPE_TESTS_UNIT_RNG_H

#include <stdint.h>

#ifndef RNG_SEED
#define RNG_SEED 88172645463325252ull
#endif

/* the next value of a caller's xorshift64 stream (never 0 from a seed != 0) */
static inline uint64_t rng_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/* the next value of a caller's xorshift32 stream */
static inline uint32_t rng_next32(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

static uint64_t rng_state = RNG_SEED;

static inline void rng_seed(uint64_t seed)
{
	rng_state = seed;
}

/* the next 64 bits of this file's stream */
static inline uint64_t rnd64(void)
{
	return rng_next(&rng_state);
}

/* a number in [0, bound), bound > 0 */
static inline uint64_t rnd(uint64_t bound)
{
	return rnd64() % bound;
}

#endif /* BLKSCOPE_TESTS_UNIT_RNG_H */
