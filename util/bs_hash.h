/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_hash.h - an open-addressing hash map from 64-bit keys to 64-bit values
 * (pids, device numbers, (device, pid) pairs, string hashes -> indexes).
 *
 * Per-event lookups in the analyzer must not be linear in what a trace
 * holds (a hostile trace can name 100k devices or 1M processes), so every
 * table keyed by a number goes through this.  Linear probing, power-of-two
 * capacity, at most 1/2 full; keys are mixed (splitmix64) so sequential
 * pids and dev_t values spread.  Values are often indexes into an array
 * the caller owns (stable when the map grows).
 */
#ifndef BLKSCOPE_BS_HASH_H
#define BLKSCOPE_BS_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bs_hash {
	uint64_t *keys;
	uint64_t *vals;
	uint8_t *used;
	size_t cap;		/* 0 or a power of two */
	size_t len;
};

static inline uint64_t bs_hash_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* Pointer to the value of key, or NULL when absent. */
uint64_t *bs_hash_get(const struct bs_hash *h, uint64_t key);

/*
 * Pointer to the value of key; inserted with value `init` when absent
 * (then *inserted is set, if given).  Pointers are valid until the next put.
 */
uint64_t *bs_hash_put(struct bs_hash *h, uint64_t key, uint64_t init, bool *inserted);

/*
 * Remove key (backward-shift deletion: no tombstones, so a table that
 * sees as many removals as insertions keeps its probe lengths).  Returns
 * whether it was there.  Value pointers are invalid afterwards.
 */
bool bs_hash_del(struct bs_hash *h, uint64_t key);

void bs_hash_free(struct bs_hash *h);

/* FNV-1a of a byte string, for keying strings (compare on hit). */
uint64_t bs_hash_bytes(const void *p, size_t n);

#endif /* BLKSCOPE_BS_HASH_H */
