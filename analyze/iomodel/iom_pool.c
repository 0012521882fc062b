// SPDX-License-Identifier: GPL-2.0
/*
 * iom_pool.c - fixed-size objects of the per-I/O model (I/Os, fragments,
 * requests) from slabs, recycled through a free list: one allocation per
 * 256 objects instead of one per event.
 */
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "iom_priv.h"

#define SLAB_OBJECTS 256

void iom_pool_init(struct iom_pool *p, size_t size)
{
	memset(p, 0, sizeof(*p));
	p->size = (size + 15) & ~(size_t)15;
}

static void add_slab(struct iom_pool *p)
{
	char *slab = bs_xmalloc(p->size * SLAB_OBJECTS);
	size_t i;

	BS_GROW(p->slabs, p->cap, p->nslabs + 1, 16);
	p->slabs[p->nslabs++] = slab;
	for (i = SLAB_OBJECTS; i-- > 0;) {
		void *obj = slab + i * p->size;

		*(void **)obj = p->free;
		p->free = obj;
	}
}

void *iom_pool_get(struct iom_pool *p)
{
	void *obj;

	if (!p->free)
		add_slab(p);
	obj = p->free;
	p->free = *(void **)obj;
	return obj;
}

void iom_pool_put(struct iom_pool *p, void *obj)
{
	*(void **)obj = p->free;
	p->free = obj;
}

void iom_pool_free(struct iom_pool *p)
{
	size_t i;

	for (i = 0; i < p->nslabs; i++)
		free(p->slabs[i]);
	free(p->slabs);
	memset(p, 0, sizeof(*p));
}
