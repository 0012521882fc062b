// SPDX-License-Identifier: GPL-2.0
/*
 * pq_dict.c - a column chunk's dictionary: value -> index in order of
 * first appearance, an open-addressing hash table (linear probing, at most
 * half full) over the values kept by index (they become the dictionary
 * page).  Integers and strings each have their own find function; a
 * dictionary only ever holds one kind.
 */
#include <errno.h>
#include <stdlib.h>
#include "pq_priv.h"

#define INITIAL_SLOTS 256

static inline uint64_t mix(uint64_t h)
{
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ULL;
	h ^= h >> 32;
	return h;
}

static uint64_t hash_int(int64_t v)
{
	return mix((uint64_t)v * 0x9e3779b97f4a7c15ULL);
}

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	return x;
}

static inline uint32_t load32(const uint8_t *p)
{
	uint32_t x;

	memcpy(&x, p, 4);
	return x;
}

/*
 * Short strings (process names, rwbs) are the common case: they are read
 * with two overlapping loads, without a loop or a call.
 */
static inline uint64_t hash_bytes(const uint8_t *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, tail;

	if (len > 8) {
		for (; len > 8; s += 8, len -= 8) {
			h = (h ^ load64(s)) * 0xff51afd7ed558ccdULL;
			h ^= h >> 29;
		}
		tail = load64(s + len - 8);	/* overlaps what was hashed: fine */
	} else if (len >= 4) {
		tail = (uint64_t)load32(s) << 32 | load32(s + len - 4);
	} else if (len) {
		tail = (uint64_t)s[0] << 16 | (uint64_t)s[len / 2] << 8 | s[len - 1];
	} else {
		tail = 0;
	}
	return mix((h ^ tail) * 0xc4ceb9fe1a85ec53ULL);
}

/* equality of two strings of len bytes; short ones without a call */
static inline bool bytes_eq(const uint8_t *a, const uint8_t *b, size_t len)
{
	if (len > 16)
		return !memcmp(a, b, len);
	if (len >= 8)
		return load64(a) == load64(b) && load64(a + len - 8) == load64(b + len - 8);
	if (len >= 4)
		return load32(a) == load32(b) && load32(a + len - 4) == load32(b + len - 4);
	for (size_t i = 0; i < len; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static uint64_t hash_of(const struct pq_dict *d, uint32_t i)
{
	return d->shash ? d->shash[i] : hash_int(d->ival[i]);
}

/* (re)builds the slots for the current entries with room for twice as many */
static int rehash(struct pq_dict *d, uint32_t slots)
{
	struct pq_slot *s = calloc(slots, sizeof(*s));

	if (!s)
		return -ENOMEM;
	free(d->slot);
	d->slot = s;
	d->mask = slots - 1;
	for (uint32_t i = 0; i < d->count; i++) {
		uint32_t k = (uint32_t)hash_of(d, i) & d->mask;

		while (s[k].idx)
			k = (k + 1) & d->mask;
		s[k].key = d->shash ? d->shash[i] : (uint64_t)d->ival[i];
		s[k].idx = i + 1;
	}
	return 0;
}

/* room for one more entry, in the arrays of kind "str" and in the table */
static int make_room(struct pq_dict *d, bool str)
{
	if (d->count == UINT32_MAX - 1)
		return -E2BIG;
	if (d->count + 1 > d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 64;

		if (str) {
			uint32_t *o = realloc(d->soff, (cap + 1) * sizeof(*o));
			uint64_t *h;

			if (!o)
				return -ENOMEM;
			d->soff = o;
			h = realloc(d->shash, cap * sizeof(*h));
			if (!h)
				return -ENOMEM;
			d->shash = h;
			if (!d->count)
				d->soff[0] = 0;
		} else {
			int64_t *v = realloc(d->ival, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			d->ival = v;
		}
		d->cap = cap;
	}
	if (!d->slot || (size_t)(d->count + 1) * 2 > (size_t)d->mask + 1)
		return rehash(d, d->slot ? (d->mask + 1) * 2 : INITIAL_SLOTS);
	return 0;
}

/* returns 1 and the new index, 0 and the existing index, or -errno */
int pq_dict_find_int(struct pq_dict *d, int64_t v, uint32_t *idx)
{
	uint32_t k;
	int err;

	if (d->slot) {
		for (k = (uint32_t)hash_int(v) & d->mask; d->slot[k].idx; k = (k + 1) & d->mask)
			if (d->slot[k].key == (uint64_t)v) {
				*idx = d->slot[k].idx - 1;
				return 0;
			}
	}
	err = make_room(d, false);
	if (err)
		return err;
	for (k = (uint32_t)hash_int(v) & d->mask; d->slot[k].idx; k = (k + 1) & d->mask)
		;
	d->ival[d->count] = v;
	d->slot[k].key = (uint64_t)v;
	d->slot[k].idx = d->count + 1;
	*idx = d->count++;
	return 1;
}

int pq_dict_lookup_str(const struct pq_dict *d, const uint8_t *s, size_t len, uint32_t *idx)
{
	uint64_t h = hash_bytes(s, len);

	if (!d->slot)
		return -ENOENT;
	for (uint32_t k = (uint32_t)h & d->mask; d->slot[k].idx; k = (k + 1) & d->mask) {
		uint32_t i = d->slot[k].idx - 1;

		if (d->slot[k].key == h && d->soff[i + 1] - d->soff[i] == len &&
		    bytes_eq(d->sbytes.p + d->soff[i], s, len)) {
			*idx = i;
			return 0;
		}
	}
	return -ENOENT;
}

int pq_dict_find_str(struct pq_dict *d, const uint8_t *s, size_t len, uint32_t *idx)
{
	uint64_t h = hash_bytes(s, len);
	uint32_t k;
	int err;

	if (d->slot) {
		for (k = (uint32_t)h & d->mask; d->slot[k].idx; k = (k + 1) & d->mask) {
			uint32_t i = d->slot[k].idx - 1;

			if (d->slot[k].key == h && d->soff[i + 1] - d->soff[i] == len &&
			    bytes_eq(d->sbytes.p + d->soff[i], s, len)) {
				*idx = i;
				return 0;
			}
		}
	}
	if (d->sbytes.len + len > UINT32_MAX)
		return -E2BIG;
	err = make_room(d, true);
	if (err)
		return err;
	pq_buf_reserve(&d->sbytes, len + 1);	/* never a NULL base, even if empty */
	pq_put(&d->sbytes, s, len);
	if (d->sbytes.oom)
		return -ENOMEM;
	for (k = (uint32_t)h & d->mask; d->slot[k].idx; k = (k + 1) & d->mask)
		;
	d->shash[d->count] = h;
	d->soff[d->count + 1] = (uint32_t)d->sbytes.len;
	d->slot[k].key = h;
	d->slot[k].idx = d->count + 1;
	*idx = d->count++;
	return 1;
}

int pq_dict_truncate(struct pq_dict *d, uint32_t count)
{
	if (count >= d->count)
		return 0;
	d->count = count;
	if (d->soff)
		d->sbytes.len = d->soff[count];
	return d->slot ? rehash(d, d->mask + 1) : 0;
}

void pq_dict_reset(struct pq_dict *d)
{
	d->count = 0;
	d->sbytes.len = 0;
	if (d->slot)
		memset(d->slot, 0, ((size_t)d->mask + 1) * sizeof(*d->slot));
}

void pq_dict_free(struct pq_dict *d)
{
	free(d->slot);
	free(d->ival);
	free(d->soff);
	free(d->shash);
	pq_buf_free(&d->sbytes);
	memset(d, 0, sizeof(*d));
}
