// SPDX-License-Identifier: GPL-2.0
/*
 * rec_inflight.c - I/Os between queue (Q), issue (D) and completion (C), for
 * the flight recorder's latency triggers (record --ring --trigger 'D2C>..').
 *
 * One entry per queued bio, keyed by (trace, start sector) in a hash map.
 * A request's D and C name its whole range, which covers one or more bios
 * (back and front merges); a split bio (X) is issued and completed in
 * pieces.  So D and C walk the entries of their range, bio after bio
 * (each entry says where the next one starts), splitting an entry that
 * reaches past the range's end.  D stamps the issue time, C takes the
 * entries out.  A D whose range has no entry (its Q was not recorded, or
 * only D2C is asked for) adds one for the request.  Each entry is touched
 * a constant number of times: amortised O(1) per event.
 *
 * Memory is fixed: at most `cap` entries.  An entry whose C never comes
 * (a lost event) would stay forever, so when the table is full the entry
 * under a clock hand is evicted and counted.
 */
#include <stdlib.h>
#include <string.h>
#include "bs_hash.h"
#include "record.h"

#define WALK_MAX	4096	/* bios per request walked, at most */

struct entry {
	uint64_t sector;
	uint64_t q, d;		/* ns, 0: not seen */
	uint32_t bytes;
	uint8_t trace;
	bool used;
};

struct rec_inflight {
	struct entry *e;
	uint32_t *free;		/* free entry indexes */
	size_t cap, nfree, hand;
	struct bs_hash map;	/* key(trace, sector) -> entry index */
	uint64_t evicted;
};

static uint64_t key_of(int trace, uint64_t sector)
{
	return sector << 4 | (uint64_t)(trace & 15);
}

struct rec_inflight *rec_inflight_new(size_t cap)
{
	struct rec_inflight *f = calloc(1, sizeof(*f));
	size_t i;

	if (!f)
		return NULL;
	f->e = calloc(cap, sizeof(*f->e));
	f->free = malloc(cap * sizeof(*f->free));
	if (!f->e || !f->free) {
		rec_inflight_free(f);
		return NULL;
	}
	f->cap = f->nfree = cap;
	for (i = 0; i < cap; i++)
		f->free[i] = (uint32_t)(cap - 1 - i);
	return f;
}

void rec_inflight_free(struct rec_inflight *f)
{
	if (!f)
		return;
	free(f->e);
	free(f->free);
	bs_hash_free(&f->map);
	free(f);
}

uint64_t rec_inflight_evicted(const struct rec_inflight *f)
{
	return f->evicted;
}

size_t rec_inflight_len(const struct rec_inflight *f)
{
	return f->cap - f->nfree;
}

static void release(struct rec_inflight *f, struct entry *e)
{
	bs_hash_del(&f->map, key_of(e->trace, e->sector));
	e->used = false;
	f->free[f->nfree++] = (uint32_t)(e - f->e);
}

/* A free entry; the one under the clock hand is evicted when none is. */
static struct entry *take(struct rec_inflight *f)
{
	while (!f->nfree) {
		struct entry *e = &f->e[f->hand];

		f->hand = (f->hand + 1) % f->cap;
		if (e->used) {
			release(f, e);
			f->evicted++;
		}
	}
	return &f->e[f->free[--f->nfree]];
}

static struct entry *lookup(struct rec_inflight *f, int trace, uint64_t sector)
{
	uint64_t *v = bs_hash_get(&f->map, key_of(trace, sector));

	return v ? &f->e[*v] : NULL;
}

static struct entry *add(struct rec_inflight *f, int trace, uint64_t sector, uint32_t bytes,
			 uint64_t q, uint64_t d)
{
	struct entry *e = lookup(f, trace, sector);

	if (e) {	/* same start sector again (a split's remainder re-queued) */
		if (q && (!e->q || q < e->q))
			e->q = q;
		e->bytes = bytes;
		if (d)
			e->d = d;
		return e;
	}
	e = take(f);
	*e = (struct entry){ .sector = sector,
			     .q = q,
			     .d = d,
			     .bytes = bytes,
			     .trace = (uint8_t)trace,
			     .used = true };
	*bs_hash_put(&f->map, key_of(trace, sector), (uint64_t)(e - f->e), NULL) =
		(uint64_t)(e - f->e);
	return e;
}

void rec_inflight_queue(struct rec_inflight *f, int trace, uint64_t sector, uint32_t bytes,
			uint64_t time)
{
	add(f, trace, sector, bytes, time, 0);
}

/*
 * The entries of [sector, sector + bytes): each gets `d` (issue) or is
 * taken out (completion); *q is the earliest queue time among them, *dmax
 * the latest issue time.  Returns the number of entries walked.
 */
static int walk(struct rec_inflight *f, int trace, uint64_t sector, uint32_t bytes, uint64_t d,
		bool complete, uint64_t *q, uint64_t *dmax)
{
	uint64_t pos = sector, end = sector + (bytes >> 9);
	int n = 0;

	*q = *dmax = 0;
	while (n < WALK_MAX) {
		struct entry *e = lookup(f, trace, pos);
		uint64_t e_end;

		if (!e)
			break;
		n++;
		e_end = e->sector + (e->bytes >> 9);
		if (e_end > end && end > pos) {	/* a split: the rest stays queued */
			uint64_t eq = e->q, ed = e->d;
			uint32_t rest = (uint32_t)((e_end - end) << 9);

			e->bytes -= rest;
			add(f, trace, end, rest, eq, ed);
			e = lookup(f, trace, pos);	/* add() may have evicted it */
			if (!e)
				break;
			e_end = end;
		}
		if (e->q && (!*q || e->q < *q))
			*q = e->q;
		if (d)
			e->d = d;
		if (e->d > *dmax)
			*dmax = e->d;
		if (complete)
			release(f, e);
		if (e_end <= pos || e_end >= end)
			break;
		pos = e_end;
	}
	return n;
}

void rec_inflight_issue(struct rec_inflight *f, int trace, uint64_t sector, uint32_t bytes,
			uint64_t time, uint64_t *q)
{
	uint64_t dmax;

	if (!walk(f, trace, sector, bytes, time, false, q, &dmax))
		add(f, trace, sector, bytes, 0, time);
}

bool rec_inflight_complete(struct rec_inflight *f, int trace, uint64_t sector, uint32_t bytes,
			   uint64_t *q, uint64_t *d)
{
	return walk(f, trace, sector, bytes, 0, true, q, d) > 0;
}
