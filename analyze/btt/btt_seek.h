/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt_seek.h - btt's seek statistics (Q2Q and D2D): distance rule, mean,
 * and the rb-tree based "median" and mode with btt's exact quirks.
 */
#ifndef BLKSCOPE_BTT_SEEK_H
#define BLKSCOPE_BTT_SEEK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* one distinct |distance|: how often, and when it was first seen */
struct btt_seek_val {
	long long val;
	uint32_t count;
	uint32_t first;		/* index of the seek that first had this distance */
};

struct btt_seek_folder;	/* btt_seek_folder.h */

struct btt_seek {
	long long nseeks;
	double total_sectors;
	long long last_start, last_end;
	/* the current run of equal distances, not yet logged */
	long long run_val;
	uint32_t run_count, run_first;
	/* runs logged since the last fold, unsorted */
	struct btt_seek_val *log;
	size_t nlog, log_cap;
	/*
	 * With a folding thread (folder): the full log it folds (nspare
	 * runs), later the next log (spare_cap entries allocated).  folding
	 * and fold_next are under the folder's lock.
	 */
	struct btt_seek_folder *folder;
	struct btt_seek_val *spare;
	size_t nspare, spare_cap;
	bool folding;
	struct btt_seek *fold_next;	/* the folder's queue */
	/* distinct distances so far, sorted by value */
	struct btt_seek_val *vals;
	size_t nvals, vals_cap;
	uint64_t *budget;	/* distinct values the engine still allows; NULL = no limit */
	uint64_t dropped;	/* seeks whose new distance did not fit the budget */
	FILE *rfp, *wfp, *cfp;	/* -s side files, may be NULL */
};

struct btt_seek_modes {
	int most_seeks;
	int nmds;
	long long *modes;	/* in btt's post-order; free() after use */
};

/*
 * A folding thread's: the sort buffer kept from one fold to the next, and
 * whether to yield the CPU every few thousand entries, so that a fold (a
 * burst of ~10 ms) does not hold back the threads the engine waits for.
 */
struct btt_seek_scratch {
	struct btt_seek_val *v;
	size_t cap;
	bool yield;
};

/*
 * budget: shared count of distinct distances still allowed, or NULL;
 * folder: the thread that folds the full logs, or NULL (inline)
 */
void btt_seek_init(struct btt_seek *s, uint64_t *budget, struct btt_seek_folder *folder);
void btt_seek_free(struct btt_seek *s);
double btt_seek_mean(const struct btt_seek *s);
long long btt_seek_median(struct btt_seek *s);

/* btt_seek_add()'s rarer steps (btt_seek.c) */
void btt_seek_log_full(struct btt_seek *s);
/* Sort log[0..n) into the distinct values; scratch may be NULL. */
void btt_seek_fold(struct btt_seek *s, struct btt_seek_val *log, size_t n,
		  struct btt_seek_scratch *scratch);
/* The log's size after the fold of a full log (from the values before it). */
size_t btt_seek_next_log_cap(const struct btt_seek *s);
void btt_seek_print(FILE *fp, FILE *cfp, long long dist, int is_read, uint64_t time);

/* The current run of equal distances to the log (a new distance starts a run). */
static inline void btt_seek_log_run(struct btt_seek *s)
{
	if (!s->run_count)
		return;
	if (s->nlog == s->log_cap)
		btt_seek_log_full(s);
	s->log[s->nlog].val = s->run_val;
	s->log[s->nlog].count = s->run_count;
	s->log[s->nlog].first = s->run_first;
	s->nlog++;
	s->run_count = 0;
}

/*
 * a - b wrapping as btt's arithmetic does in practice: damaged sectors near
 * 2^63 would overflow the signed subtraction (undefined behaviour).
 */
static inline long long btt_sub_wrap(long long a, long long b)
{
	return (long long)((unsigned long long)a - (unsigned long long)b);
}

/*
 * One IO's seek: its distance from the previous IO, logged (inline: two
 * per IO).  absolute: btt -a.  is_read: the IO's READ category.  time in ns.
 */
static inline void btt_seek_add(struct btt_seek *s, uint64_t sector, uint32_t bytes, int absolute,
			       int is_read, uint64_t time)
{
	long long start = (long long)sector, end = (long long)(sector + (bytes >> 9)), dist;
	long long ls = s->last_start, le = s->last_end;
	FILE *fp = is_read ? s->rfp : s->wfp;
	/*
	 * btt: with -a, from the previous end; else 0 when this IO starts or
	 * ends inside the previous one, else from its end (forward) or its
	 * start (backward).  Forward or backward is a coin toss on random
	 * I/O: the tests are combined with & and | and the distance picked
	 * by masks, which gcc keeps free of branches.
	 */
	unsigned long long inside = ((ls <= start) & (start <= le)) | ((ls <= end) & (end <= le));
	unsigned long long from_end = -(unsigned long long)((unsigned)absolute | (start > le));
	unsigned long long keep = -(unsigned long long)((unsigned)absolute | (inside ^ 1));
	unsigned long long base =
		((unsigned long long)le & from_end) | ((unsigned long long)ls & ~from_end);

	dist = (long long)(((unsigned long long)start - base) & keep);
	s->last_start = start;
	s->last_end = end;
	if (__builtin_expect(fp || s->cfp, 0))
		btt_seek_print(fp, s->cfp, dist, is_read, time);
	dist = dist < 0 ? btt_sub_wrap(0, dist) : dist;	/* llabs(LLONG_MIN) is undefined */
	if (s->run_count && s->run_val == dist) {
		s->run_count++;
	} else {
		btt_seek_log_run(s);
		s->run_val = dist;
		s->run_count = 1;
		s->run_first = (uint32_t)s->nseeks;
	}
	s->nseeks++;
	s->total_sectors += dist;
}
int btt_seek_mode(struct btt_seek *s, struct btt_seek_modes *m);

#endif /* BLKSCOPE_BTT_SEEK_H */
