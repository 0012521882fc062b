/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt_seek.h - btt's seek statistics (Q2Q and D2D): distance rule, mean,
 * and the rb-tree based "median" and mode with btt's exact quirks.
 */
#ifndef BLKSCOPE_BTT_SEEK_H
#define BLKSCOPE_BTT_SEEK_H

#include <stdint.h>
#include <stdio.h>

/* one distinct |distance|: how often, and when it was first seen */
struct bt_seek_val {
	long long val;
	uint32_t count;
	uint32_t first;		/* index of the seek that first had this distance */
};

struct bt_seek {
	long long nseeks;
	double total_sectors;
	long long last_start, last_end;
	/* the current run of equal distances, not yet logged */
	long long run_val;
	uint32_t run_count, run_first;
	/* runs logged since the last fold, unsorted */
	struct bt_seek_val *log;
	size_t nlog, log_cap;
	/* distinct distances so far, sorted by value */
	struct bt_seek_val *vals;
	size_t nvals, vals_cap;
	uint64_t *budget;	/* distinct values the engine still allows; NULL = no limit */
	uint64_t dropped;	/* seeks whose new distance did not fit the budget */
	FILE *rfp, *wfp, *cfp;	/* -s side files, may be NULL */
};

struct bt_seek_modes {
	int most_seeks;
	int nmds;
	long long *modes;	/* in btt's post-order; free() after use */
};

/* budget: shared count of distinct distances still allowed, or NULL */
void bt_seek_init(struct bt_seek *s, uint64_t *budget);
void bt_seek_free(struct bt_seek *s);
/* absolute: btt -a.  is_read: the IO's READ category. time in ns. */
void bt_seek_add(struct bt_seek *s, uint64_t sector, uint32_t bytes, int absolute,
		 int is_read, uint64_t time);
double bt_seek_mean(const struct bt_seek *s);
long long bt_seek_median(struct bt_seek *s);
int bt_seek_mode(struct bt_seek *s, struct bt_seek_modes *m);

#endif /* BLKSCOPE_BTT_SEEK_H */
