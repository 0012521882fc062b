/* SPDX-License-Identifier: GPL-2.0 */
/*
 * u32map.h - a small open-addressing hash map from u32 keys (pids) to u32
 * values, for the plugins' per-pid state.  Grows as needed.
 *
 * Why not util/bs_hash, which every other numeric-keyed table uses: the
 * plugin looks a pid up for every Q and D event, and with bs_hash (64-bit
 * keys and values, splitmix64 mixing) tag-by-pid took 1.037 of the CPU
 * time of this map, 25 paired runs, quartiles 1.019..1.087 (docs/tags.md,
 * "Measurements").  Both give the same answers byte for byte.
 */
#ifndef BLKSCOPE_U32MAP_H
#define BLKSCOPE_U32MAP_H

#include <stdbool.h>
#include <stdint.h>

struct u32map {
	uint32_t *keys, *vals;
	uint8_t *used;
	uint32_t cap, len;	/* cap is a power of two */
};

/* Pointer to the value of key, or NULL. */
uint32_t *u32map_get(const struct u32map *m, uint32_t key);

/* Pointer to the value of key, inserted as `init` if absent; NULL on ENOMEM. */
uint32_t *u32map_put(struct u32map *m, uint32_t key, uint32_t init, bool *inserted);

void u32map_free(struct u32map *m);

#endif /* BLKSCOPE_U32MAP_H */
