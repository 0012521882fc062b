// SPDX-License-Identifier: GPL-2.0
/* u32map.c - see u32map.h. */
#include <stdlib.h>
#include "u32map.h"

static uint32_t slot_of(uint32_t key, uint32_t cap)
{
	return (key * 2654435761u) & (cap - 1);	/* Knuth's multiplicative hash */
}

uint32_t *u32map_get(const struct u32map *m, uint32_t key)
{
	uint32_t i;

	if (!m->cap)
		return NULL;
	for (i = slot_of(key, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return &m->vals[i];
	return NULL;
}

static int grow(struct u32map *m)
{
	struct u32map bigger = { .cap = m->cap ? m->cap * 2 : 64 };
	uint32_t i;
	bool ins;

	bigger.keys = malloc(bigger.cap * sizeof(uint32_t));
	bigger.vals = malloc(bigger.cap * sizeof(uint32_t));
	bigger.used = calloc(bigger.cap, 1);
	if (!bigger.keys || !bigger.vals || !bigger.used) {
		u32map_free(&bigger);
		return -1;
	}
	for (i = 0; i < m->cap; i++)
		if (m->used[i])
			*u32map_put(&bigger, m->keys[i], m->vals[i], &ins) = m->vals[i];
	u32map_free(m);
	*m = bigger;
	return 0;
}

uint32_t *u32map_put(struct u32map *m, uint32_t key, uint32_t init, bool *inserted)
{
	uint32_t *v = u32map_get(m, key), i;

	*inserted = false;
	if (v)
		return v;
	if ((m->len + 1) * 4 > m->cap * 3 && grow(m) < 0)	/* keep load under 3/4 */
		return NULL;
	for (i = slot_of(key, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1))
		;
	m->used[i] = 1;
	m->keys[i] = key;
	m->vals[i] = init;
	m->len++;
	*inserted = true;
	return &m->vals[i];
}

void u32map_free(struct u32map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	m->keys = m->vals = NULL;
	m->used = NULL;
	m->cap = m->len = 0;
}
