// SPDX-License-Identifier: GPL-2.0
/*
 * parse_track.c - -t: follow each request by its start sector, as
 * blkparse's rb_track tree does, to print I-G, D-I and C-D times and to
 * feed the per-process "wait" figures.  A hash table gives the same exact
 * sector lookups.  Reproduced blkparse behaviour: inserting a sector that
 * is already tracked prints "sector alias" and drops the new node; G and
 * I create nodes, D and C only find them; C forgets the node.  blkparse
 * leaves the times of a new node uninitialised (malloc): a node recycled
 * from a completed request keeps that request's times, which shows when a
 * flow lacks a G (I prints I - old G), an I (D prints D - old I) or a D.
 * We model glibc's reuse of those nodes (tcache of 7, then a LIFO fastbin,
 * refilled into the tcache) and start fresh nodes at 0.  What blkparse
 * reads from other recycled 80-byte buffers (notes, PDUs) is not modelled.
 */
#include <stdio.h>
#include <stdlib.h>
#include "bs_alloc.h"
#include "parse_priv.h"

struct parse_iot {
	uint64_t sector;
	uint32_t pid;
	unsigned long long allocation_time, queue_time, dispatch_time;
	struct parse_iot *next;
};

struct parse_track_tab {
	struct parse_iot **b;
	size_t mask, count;
};

/*
 * glibc's reuse order for freed nodes of one small size class; the pool is
 * the run's (ps->track_pool).
 */
static void node_free(struct parse_track_pool *pool, struct parse_iot *n)
{
	if (pool->tcache_n < PARSE_TCACHE_COUNT) {
		pool->tcache[pool->tcache_n++] = n;
	} else {
		n->next = pool->fastbin;
		pool->fastbin = n;
	}
}

static struct parse_iot *node_alloc(struct parse_track_pool *pool)
{
	struct parse_iot *n;

	if (pool->tcache_n)
		return pool->tcache[--pool->tcache_n];
	if (pool->fastbin) {
		n = pool->fastbin;
		pool->fastbin = n->next;
		/* malloc moves what is left of the fastbin into the tcache */
		while (pool->fastbin && pool->tcache_n < PARSE_TCACHE_COUNT) {
			pool->tcache[pool->tcache_n++] = pool->fastbin;
			pool->fastbin = pool->fastbin->next;
		}
		return n;
	}
	return bs_xcalloc(1, sizeof(*n));
}

/* nodes blkparse keeps using after failing to insert them (kept reachable) */
static void keep_lost(struct parse_track_pool *pool, struct parse_iot *n)
{
	n->next = pool->lost;
	pool->lost = n;
}

static void free_list(struct parse_iot *n)
{
	while (n) {
		struct parse_iot *next = n->next;

		free(n);
		n = next;
	}
}

void parse_track_pool_free(struct parse_track_pool *pool)
{
	while (pool->tcache_n)
		free(pool->tcache[--pool->tcache_n]);
	free_list(pool->fastbin);
	free_list(pool->lost);
	pool->fastbin = pool->lost = NULL;
}

static size_t sector_hash(uint64_t s)
{
	s *= 0x9E3779B97F4A7C15ULL;
	return (size_t)(s >> 20);
}

static struct parse_track_tab *tab_get(struct parse_dev *d)
{
	if (!d->track) {
		d->track = bs_xcalloc(1, sizeof(*d->track));
		d->track->mask = 1023;
		d->track->b = bs_xcalloc(1024, sizeof(*d->track->b));
	}
	return d->track;
}

void parse_track_free(struct parse_dev *d)
{
	struct parse_track_tab *tt = d->track;
	size_t b;

	for (b = 0; tt && b <= tt->mask; b++)
		while (tt->b[b]) {
			struct parse_iot *n = tt->b[b];

			tt->b[b] = n->next;
			free(n);
		}
	if (tt)
		free(tt->b);
	free(tt);
	d->track = NULL;
}

static struct parse_iot *tab_find(struct parse_track_tab *tt, uint64_t sector)
{
	struct parse_iot *n = tt->b[sector_hash(sector) & tt->mask];

	for (; n; n = n->next)
		if (n->sector == sector)
			return n;
	return NULL;
}

static void tab_grow(struct parse_track_tab *tt)
{
	size_t nmask = tt->mask * 2 + 1;
	struct parse_iot **nb = bs_xcalloc(nmask + 1, sizeof(*nb));

	for (size_t i = 0; i <= tt->mask; i++) {
		struct parse_iot *n = tt->b[i], *next;

		for (; n; n = next) {
			size_t h = sector_hash(n->sector) & nmask;

			next = n->next;
			n->next = nb[h];
			nb[h] = n;
		}
	}
	free(tt->b);
	tt->b = nb;
	tt->mask = nmask;
}

/* blkparse's track_rb_insert(): refuses duplicates loudly */
static int tab_insert(struct parse_ctx *ps, struct parse_track_tab *tt, struct parse_dev *d,
		      struct parse_iot *n)
{
	size_t h;

	if (tab_find(tt, n->sector)) {
		bs_msg(&ps->msg, PARSE_MSG_BLKPARSE, "sector alias (%llu) on device %u,%u!",
		       (unsigned long long)n->sector, BS_DEV_MAJOR(d->dev), BS_DEV_MINOR(d->dev));
		return 1;
	}
	if (tt->count > tt->mask)
		tab_grow(tt);
	h = sector_hash(n->sector) & tt->mask;
	n->next = tt->b[h];
	tt->b[h] = n;
	tt->count++;
	return 0;
}

static void tab_erase(struct parse_track_tab *tt, struct parse_iot *n)
{
	struct parse_iot **pp = &tt->b[sector_hash(n->sector) & tt->mask];

	for (; *pp; pp = &(*pp)->next) {
		if (*pp == n) {
			*pp = n->next;
			tt->count--;
			return;
		}
	}
}

/* find_track(): find or create; a new node registers "unknown" for a nameless pid */
static struct parse_iot *find_track(struct parse_ctx *ps, struct parse_dev *d, uint32_t pid,
				    uint64_t sector)
{
	struct parse_track_tab *tt = tab_get(d);
	struct parse_iot *n = tab_find(tt, sector);

	if (n)
		return n;
	n = node_alloc(&ps->track_pool);
	if (!parse_names_find(ps, pid))
		parse_names_add(ps, pid, "unknown", 7);
	n->pid = pid;
	n->sector = sector;
	if (tab_insert(ps, tt, d, n))
		keep_lost(&ps->track_pool, n);
	return n;
}

static int is_write(const struct bs_trace *t)
{
	return (t->action & BS_TC_ACT(BS_TC_WRITE)) != 0;
}

void parse_track_queue(struct parse_ctx *ps, struct parse_dev *d, const struct bs_trace *t)
{
	unsigned int major = BS_DEV_MAJOR(d->dev);

	/* md/dm: Q -> C is the interesting cycle, so Q counts as dispatch */
	if (!ps->track || (major != 253 && major != 9))
		return;
	find_track(ps, d, t->pid, t->sector)->dispatch_time = t->time;
}

void parse_track_getrq(struct parse_ctx *ps, struct parse_dev *d, const struct bs_trace *t)
{
	if (!ps->track)
		return;
	find_track(ps, d, t->pid, t->sector)->allocation_time = t->time;
}

void parse_track_frontmerge(struct parse_ctx *ps, struct parse_dev *d, const struct bs_trace *t)
{
	struct parse_track_tab *tt;
	struct parse_iot *n;

	if (!ps->track)
		return;
	tt = tab_get(d);
	n = tab_find(tt, t->sector + parse_t_sectors(t));
	if (!n) {
		if (ps->verbose)
			bs_msg(&ps->msg, PARSE_MSG_BLKPARSE, "merge not found for (%u,%u): %llu",
				BS_DEV_MAJOR(t->device), BS_DEV_MINOR(t->device),
				(unsigned long long)(t->sector + parse_t_sectors(t)));
		return;
	}
	tab_erase(tt, n);
	n->sector -= parse_t_sectors(t);
	if (tab_insert(ps, tt, d, n))
		keep_lost(&ps->track_pool, n);
}

unsigned long long parse_track_insert(struct parse_ctx *ps, struct parse_dev *d,
				      const struct bs_trace *t)
{
	struct parse_iot *n;
	unsigned long long elapsed;

	if (!ps->track)
		return PARSE_NO_ELAPSED;
	n = find_track(ps, d, t->pid, t->sector);
	n->queue_time = t->time;
	if (!n->allocation_time)
		return PARSE_NO_ELAPSED;
	elapsed = n->queue_time - n->allocation_time;
	if (ps->per_process)
		parse_proc_note_wait(ps, n->pid, 0, is_write(t), elapsed);
	return elapsed;
}

unsigned long long parse_track_issue(struct parse_ctx *ps, struct parse_dev *d,
				     const struct bs_trace *t)
{
	struct parse_iot *n;
	unsigned long long elapsed;

	if (!ps->track || !(t->action & BS_TC_ACT(BS_TC_FS)))
		return PARSE_NO_ELAPSED;
	n = tab_find(tab_get(d), t->sector);
	if (!n) {
		if (ps->verbose)
			bs_msg(&ps->msg, PARSE_MSG_BLKPARSE, "issue not found for (%u,%u): %llu",
				BS_DEV_MAJOR(t->device), BS_DEV_MINOR(t->device),
				(unsigned long long)t->sector);
		return PARSE_NO_ELAPSED;
	}
	n->dispatch_time = t->time;
	elapsed = n->dispatch_time - n->queue_time;
	if (ps->per_process)
		parse_proc_note_wait(ps, n->pid, 1, is_write(t), elapsed);
	return elapsed;
}

unsigned long long parse_track_complete(struct parse_ctx *ps, struct parse_dev *d,
					const struct bs_trace *t)
{
	struct parse_track_tab *tt;
	struct parse_iot *n;
	unsigned long long elapsed;

	if (!ps->track)
		return PARSE_NO_ELAPSED;
	tt = tab_get(d);
	n = tab_find(tt, t->sector);
	if (!n) {
		if (ps->verbose)
			bs_msg(&ps->msg, PARSE_MSG_BLKPARSE, "complete not found for (%u,%u): %llu",
				BS_DEV_MAJOR(t->device), BS_DEV_MINOR(t->device),
				(unsigned long long)t->sector);
		return PARSE_NO_ELAPSED;
	}
	elapsed = t->time - n->dispatch_time;
	if (ps->per_process)
		parse_proc_note_wait(ps, n->pid, 2, is_write(t), elapsed);
	tab_erase(tt, n);
	node_free(&ps->track_pool, n);
	return elapsed;
}
