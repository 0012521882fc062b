/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rng.h - the unit tests' random numbers: xorshift64, the same sequence on
 * every run and machine, so a failure can be replayed.
 */
#ifndef BLKSCOPE_TEST_RNG_H
#define BLKSCOPE_TEST_RNG_H

#include <stdint.h>

static uint64_t rng_state = 88172645463325252ull;

/* a number in [0, bound), bound > 0 */
static inline uint64_t rnd(uint64_t bound)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state % bound;
}

#endif /* BLKSCOPE_TEST_RNG_H */
