// SPDX-License-Identifier: GPL-2.0
/* bs_hash.c - see bs_hash.h. */
#include <stdlib.h>
#include "bs_alloc.h"
#include "bs_hash.h"

static size_t slot_of(const struct bs_hash *h, uint64_t key)
{
	size_t mask = h->cap - 1, i = bs_hash_mix(key) & mask;

	while (h->used[i] && h->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

uint64_t *bs_hash_get(const struct bs_hash *h, uint64_t key)
{
	size_t i;

	if (!h->len)
		return NULL;
	i = slot_of(h, key);
	return h->used[i] ? &h->vals[i] : NULL;
}

static void rehash(struct bs_hash *h, size_t cap)
{
	struct bs_hash n = {
		.keys = bs_xcalloc(cap, sizeof(*n.keys)),
		.vals = bs_xcalloc(cap, sizeof(*n.vals)),
		.used = bs_xcalloc(cap, 1),
		.cap = cap,
		.len = h->len,
	};
	size_t i, j;

	for (i = 0; i < h->cap; i++) {
		if (!h->used[i])
			continue;
		j = slot_of(&n, h->keys[i]);
		n.used[j] = 1;
		n.keys[j] = h->keys[i];
		n.vals[j] = h->vals[i];
	}
	bs_hash_free(h);
	*h = n;
}

uint64_t *bs_hash_put(struct bs_hash *h, uint64_t key, uint64_t init, bool *inserted)
{
	size_t i;

	if ((h->len + 1) * 2 > h->cap)
		rehash(h, h->cap ? h->cap * 2 : 16);
	i = slot_of(h, key);
	if (inserted)
		*inserted = !h->used[i];
	if (!h->used[i]) {
		h->used[i] = 1;
		h->keys[i] = key;
		h->vals[i] = init;
		h->len++;
	}
	return &h->vals[i];
}

bool bs_hash_del(struct bs_hash *h, uint64_t key)
{
	size_t mask = h->cap - 1, i, j, home;

	if (!h->len)
		return false;
	i = slot_of(h, key);
	if (!h->used[i])
		return false;
	/*
	 * pull later entries of the probe run back into the hole when their home slot is not
	 * between the hole and them (cyclically)
	 */
	for (j = (i + 1) & mask; h->used[j]; j = (j + 1) & mask) {
		home = bs_hash_mix(h->keys[j]) & mask;
		if (((j - home) & mask) < ((j - i) & mask))
			continue;
		h->keys[i] = h->keys[j];
		h->vals[i] = h->vals[j];
		i = j;
	}
	h->used[i] = 0;
	h->len--;
	return true;
}

void bs_hash_free(struct bs_hash *h)
{
	free(h->keys);
	free(h->vals);
	free(h->used);
	h->keys = h->vals = NULL;
	h->used = NULL;
	h->cap = h->len = 0;
}

uint64_t bs_hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t x = 0xcbf29ce484222325ULL;

	while (n--) {
		x ^= *s++;
		x *= 0x100000001b3ULL;
	}
	return x;
}
