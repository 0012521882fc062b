// SPDX-License-Identifier: GPL-2.0
/* bs_alloc.c - see bs_alloc.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"

static void __attribute__((noreturn)) out_of_memory(size_t size)
{
	fprintf(stderr, "blkscope: out of memory (allocating %zu bytes)\n", size);
	abort();
}

void *bs_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		out_of_memory(size);
	return p;
}

void *bs_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory(n * size);
	return p;
}

void *bs_xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

void *bs_xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return bs_xrealloc(p, n * size);
}

char *bs_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(bs_xmalloc(n), s, n);
}

void bs_grow(void **p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t c = *cap ? *cap : first;

	if (need < *cap)
		return;
	while (c <= need) {
		if (c > SIZE_MAX / 2)
			out_of_memory(SIZE_MAX);
		c *= 2;
	}
	*p = bs_xreallocarray(*p, c, size);
	*cap = c;
}
