// SPDX-License-Identifier: GPL-2.0
/*
 * iom_tab.c - the sector index of the per-I/O model (iom_tab.h).
 */
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>
#include "bs_alloc.h"
#include "iom_tab.h"

#define FIRST_BUCKETS 64

void iom_tab_init(struct iom_tab *t)
{
	t->b = bs_xcalloc(FIRST_BUCKETS, sizeof(*t->b));
	t->mask = FIRST_BUCKETS - 1;
	t->shift = 64 - __builtin_ctzll(FIRST_BUCKETS);
	t->len = 0;
	if (getrandom(&t->seed, sizeof(t->seed), GRND_NONBLOCK) != sizeof(t->seed))
		t->seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)t;
	t->seed |= 1;
}

void iom_tab_free(struct iom_tab *t)
{
	free(t->b);
	t->b = NULL;
	t->mask = 0;
	t->len = 0;
}

/* Twice the buckets; each chain keeps its order (newest first). */
void iom_tab_grow(struct iom_tab *t)
{
	size_t nb = (t->mask + 1) * 2, i;
	struct iom_hnode **old = t->b;
	struct iom_tab nt = { .b = bs_xcalloc(nb, sizeof(*t->b)), .seed = t->seed, .mask = nb - 1,
			      .shift = t->shift - 1, .len = t->len };
	struct iom_hnode ***tails = bs_xcalloc(nb, sizeof(*tails));

	for (i = 0; i < nb; i++)
		tails[i] = &nt.b[i];
	for (i = 0; i <= t->mask; i++) {
		struct iom_hnode *n = old[i], *next;

		for (; n; n = next) {
			size_t s = iom_tab_slot(&nt, n->dev, n->sector);

			next = n->next;
			n->next = NULL;
			n->pprev = tails[s];
			*tails[s] = n;
			tails[s] = &n->next;
		}
	}
	free(tails);
	free(old);
	*t = nt;
}

void iom_tab_each(struct iom_tab *t, void (*fn)(struct iom_hnode *n, void *ctx), void *ctx)
{
	size_t i;

	for (i = 0; i <= t->mask; i++) {
		struct iom_hnode *n = t->b[i], *next;

		for (; n; n = next) {
			next = n->next;
			fn(n, ctx);
		}
	}
}
