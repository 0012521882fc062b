/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_alloc.h - allocation wrappers shared by every blkscope library.
 *
 * Running out of memory while analysing a trace is not something a caller
 * can repair, so these never return NULL: they print one line naming the
 * request and abort().  They never call exit(): library code leaves the
 * process exit to main().  Sizes are checked for overflow (n * size).
 */
#ifndef BLKSCOPE_BS_ALLOC_H
#define BLKSCOPE_BS_ALLOC_H

#include <stddef.h>

void *bs_xmalloc(size_t size);
void *bs_xcalloc(size_t n, size_t size);
void *bs_xrealloc(void *p, size_t size);
/* realloc to n elements of size bytes each, overflow-checked */
void *bs_xreallocarray(void *p, size_t n, size_t size);
char *bs_xstrdup(const char *s);

/*
 * Grow *p (an array of *cap elements of size bytes) so that index `need`
 * fits; doubles, starting at `first`.  For the common append pattern.
 */
void bs_grow(void **p, size_t *cap, size_t need, size_t size, size_t first);
#define BS_GROW(arr, cap, need, first) \
	bs_grow((void **)&(arr), &(cap), (need), sizeof(*(arr)), (first))

#endif /* BLKSCOPE_BS_ALLOC_H */
