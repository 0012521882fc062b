// SPDX-License-Identifier: GPL-2.0
/*
 * btt_seek.c - seek distances as btt measures them (seek.c in btt):
 *
 *  - distance 0 when the new IO's start or end lies within the previous
 *    IO's [start, end]; else start - last_end when moving forward; else
 *    start - last_start.  With -a: always start - last_end.  The first
 *    IO is measured from [0, 0].
 *  - btt counts |distance| values in a red-black tree, one node per
 *    distinct value, inserted on first appearance.  Its "median" is the
 *    first node, in a root-first walk, whose OWN count reaches nseeks/2
 *    (btt never advances its running sum), or 0; its modes are collected
 *    in post-order.  Both can depend on the tree's shape.
 *
 * Looking a random distance up in any big table costs a cache miss per
 * IO, so distances are only appended to a log (runs of equal distances
 * collapsed), and the log is sorted (radix) and folded into a sorted
 * array of distinct values when it fills up: sequential memory traffic
 * only.  Each distinct value keeps its count and its first appearance.
 * Most reports need no tree: the median candidates and the modes follow
 * from the counts unless there are ties; then btt's tree is rebuilt from
 * the first appearances (btt_seek_tree.c) and the tied values are put in
 * the order btt's walks meet them.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "btt_seek.h"
#include "btt_seek_folder.h"
#include "btt_seek_tree.h"

#define LOG_FIRST 4
#define SMALL_SORT 32	/* log entries sorted by insertion, not radix */
#define LOG_MIN 65536
/*
 * 8 MiB of unsorted runs at most: a folding thread doubles the logs (two
 * tables, two logs each, and the sort buffer), so a larger cap costs
 * peak memory for little time; --threads=1 folds twice as often with it
 * (docs/analyze.md, "Measurements").
 */
#define LOG_MAX (1u << 19)
#define SEEK_SHARE 65536	/* distinct values any table may keep, budget or not */

/*
 * A folding thread (btt_seek_folder.c) gives its CPU away every so many
 * entries in a fold's long loops, a fraction of a millisecond: see
 * btt_seek_scratch.yield.
 */
#define YIELD_EVERY 32768
static inline void maybe_yield(bool yield, size_t i)
{
	if (yield && !(i % YIELD_EVERY))
		sched_yield();
}

void btt_seek_init(struct btt_seek *s, uint64_t *budget, struct btt_seek_folder *folder)
{
	memset(s, 0, sizeof(*s));
	s->budget = budget;
	s->folder = folder;
}

/* The folding thread is stopped first (btt_seek_folder_free): no fold in flight. */
void btt_seek_free(struct btt_seek *s)
{
	free(s->log);
	free(s->spare);
	free(s->vals);
	s->log = s->spare = s->vals = NULL;
}

/* LSD radix sort of v[0..n) by val (non-negative), using tmp of n entries */
static void radix_sort(struct btt_seek_val *v, struct btt_seek_val *tmp, size_t n)
{
	unsigned long long maxv = 0;
	size_t i;
	int shift;

	for (i = 0; i < n; i++)
		if ((unsigned long long)v[i].val > maxv)
			maxv = v[i].val;
	for (shift = 0; shift < 64 && (maxv >> shift); shift += 11) {
		size_t count[2048] = { 0 }, sum = 0;
		struct btt_seek_val *x;

		for (i = 0; i < n; i++)
			count[((unsigned long long)v[i].val >> shift) & 2047]++;
		for (i = 0; i < 2048; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[((unsigned long long)v[i].val >> shift) & 2047]++] = v[i];
		x = v;
		v = tmp;
		tmp = x;
	}
	/* an odd number of passes left the result in the other buffer */
	if (shift / 11 % 2)
		memcpy(tmp, v, n * sizeof(*v));
}

/*
 * The same order for a big log (n >= RADIX_WIDE): as few passes of at most
 * 16 bits as the largest value needs, the digits as narrow as those passes
 * allow (distances below 2^24 take two passes of 12 bits: a pass scatters
 * into 4096 places, not 65536, and stays in the cache), all histograms
 * from one read of the log, and no pass for a digit every value shares.
 * The counters (up to 1 MiB) would dominate a small log.
 */
#define RADIX_WIDE 65536
static void radix_sort_wide(struct btt_seek_val *v, struct btt_seek_val *tmp, size_t n, bool yield)
{
	struct btt_seek_val *src = v, *dst = tmp, *x;
	unsigned long long maxv = 0;
	int d, bits, passes, width;
	uint32_t *count, mask;
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned long long)v[i].val > maxv)
			maxv = v[i].val;
	if (!maxv)
		return;
	bits = 64 - __builtin_clzll(maxv);
	passes = (bits + 15) / 16;
	width = (bits + passes - 1) / passes;
	mask = (1u << width) - 1;
	count = bs_xcalloc((size_t)passes << width, sizeof(*count));
	for (i = 0; i < n; i++) {
		unsigned long long k = (unsigned long long)v[i].val;

		maybe_yield(yield, i);
		for (d = 0; d < passes; d++)
			count[((size_t)d << width) + ((k >> (d * width)) & mask)]++;
	}
	for (d = 0; d < passes; d++) {
		uint32_t *c = count + ((size_t)d << width), sum = 0;
		int shift = width * d;

		if (c[((unsigned long long)src[0].val >> shift) & mask] == n)
			continue;	/* one digit for all: this pass would not move anything */
		for (i = 0; i <= mask; i++) {
			uint32_t k = c[i];

			c[i] = sum;
			sum += k;
		}
		for (i = 0; i < n; i++) {
			maybe_yield(yield, i);
			dst[c[((unsigned long long)src[i].val >> shift) & mask]++] = src[i];
		}
		x = src;
		src = dst;
		dst = x;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(count);
}

/*
 * Stable insertion sort for short logs: a radix pass clears and scans
 * 2048 counters, which dominated for 100k devices with a seek or two each.
 */
static void small_sort(struct btt_seek_val *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct btt_seek_val x = v[i];

		for (j = i; j > 0 && v[j - 1].val > x.val; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* most frequent first, the smaller value first among equals (no reliance on a stable qsort) */
static int by_count_desc(const void *a, const void *b)
{
	const struct btt_seek_val *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->val < y->val ? -1 : x->val > y->val;
}

static int by_val(const void *a, const void *b)
{
	const struct btt_seek_val *x = a, *y = b;

	return x->val < y->val ? -1 : x->val > y->val;
}

/*
 * Memory stays bounded: the engine allows so many distinct values over all
 * devices.  When the new values of the sorted, collapsed log[0..n) do not
 * fit, the most frequent ones are kept and the others only counted as
 * dropped (NSEEKS and MEAN stay exact; MEDIAN and MODE come from the
 * values kept).  Returns the new n.
 */
static size_t fit_budget(struct btt_seek *s, struct btt_seek_val *log, size_t n, size_t nnew)
{
	size_t i, j, kept = 0, room = *s->budget;

	/* every table may hold a first share, so frequent early values always count */
	if (s->nvals < SEEK_SHARE && room < SEEK_SHARE - s->nvals)
		room = SEEK_SHARE - s->nvals;

	if (nnew <= room) {
		*s->budget -= nnew < *s->budget ? nnew : *s->budget;
		return n;
	}
	/* known values stay; new ones go to the back, most frequent first */
	{
		struct btt_seek_val *fresh = bs_xrealloc(NULL, nnew * sizeof(*fresh));
		size_t f = 0;

		for (i = j = 0; j < n; j++) {
			while (i < s->nvals && s->vals[i].val < log[j].val)
				i++;
			if (i < s->nvals && s->vals[i].val == log[j].val)
				log[kept++] = log[j];
			else
				fresh[f++] = log[j];
		}
		qsort(fresh, nnew, sizeof(*fresh), by_count_desc);
		for (f = 0; f < nnew; f++) {
			if (f < room)
				log[kept++] = fresh[f];
			else
				s->dropped += fresh[f].count;
		}
		free(fresh);
	}
	*s->budget = 0;
	qsort(log, kept, sizeof(*log), by_val);
	return kept;
}

/* New distinct values the budget takes without dropping any (fit_budget's room). */
static size_t budget_room(const struct btt_seek *s)
{
	size_t room;

	if (!s->budget)
		return SIZE_MAX;
	room = *s->budget;
	if (s->nvals < SEEK_SHARE && room < SEEK_SHARE - s->nvals)
		room = SEEK_SHARE - s->nvals;
	return room;
}

/*
 * Merge the sorted, collapsed log[0..n) into vals from the back, into
 * vals grown in place to total entries (realloc of a big block remaps
 * rather than copies): no second copy of the distinct values.
 */
static void merge_log(struct btt_seek *s, const struct btt_seek_val *log, size_t n, size_t total,
		      bool yield)
{
	struct btt_seek_val *out;
	size_t i, j, k;

	if (total > s->vals_cap) {
		s->vals_cap = total + total / 2;
		s->vals = bs_xrealloc(s->vals, s->vals_cap * sizeof(*s->vals));
	}
	out = s->vals;
	i = s->nvals;
	j = n;
	k = total;
	while (j > 0) {
		maybe_yield(yield, k);
		if (i > 0 && out[i - 1].val > log[j - 1].val) {
			out[--k] = out[--i];
		} else if (i > 0 && out[i - 1].val == log[j - 1].val) {
			out[--k] = out[--i];
			out[k].count += log[--j].count;
		} else {
			out[--k] = log[--j];
		}
	}
	s->nvals = total;
}

/*
 * The same when vals has room for all n values new and the budget takes
 * them: merged as if none were known, counting those that were; the
 * merged tail then closes the gap they leave.  The budget is charged as
 * fit_budget() would.
 */
static void merge_counting(struct btt_seek *s, const struct btt_seek_val *log, size_t n, bool yield)
{
	struct btt_seek_val *out = s->vals;
	size_t i = s->nvals, j = n, k = s->nvals + n, end = k, common = 0, nnew;

	while (j > 0) {
		maybe_yield(yield, k);
		if (i > 0 && out[i - 1].val > log[j - 1].val) {
			out[--k] = out[--i];
		} else if (i > 0 && out[i - 1].val == log[j - 1].val) {
			out[--k] = out[--i];
			out[k].count += log[--j].count;
			common++;
		} else {
			out[--k] = log[--j];
		}
	}
	if (common)
		memmove(out + i, out + k, (end - k) * sizeof(*out));
	s->nvals = end - common;
	nnew = n - common;
	if (s->budget)
		*s->budget -= nnew < *s->budget ? nnew : *s->budget;
}

/*
 * The budget spent (it stays spent): the counts of the known values of the
 * sorted, collapsed log[0..n) added in one pass, the new ones only counted
 * as dropped: one pass, where a fold had gone over the values three
 * times (the count of the known ones, fit_budget(), the merge) and sorted
 * what it dropped (docs/analyze.md, "Measurements").
 */
static void add_known(struct btt_seek *s, const struct btt_seek_val *log, size_t n, bool yield)
{
	struct btt_seek_val *v = s->vals;
	size_t i = 0, j;

	for (j = 0; j < n; j++) {
		maybe_yield(yield, j);
		while (i < s->nvals && v[i].val < log[j].val)
			i++;
		if (i < s->nvals && v[i].val == log[j].val)
			v[i].count += log[j].count;
		else
			s->dropped += log[j].count;
	}
}

/*
 * Sort log[0..nlog) and merge it into the distinct values.  scratch: a
 * sort buffer kept between folds (grown here), or NULL for a passing one.
 */
void btt_seek_fold(struct btt_seek *s, struct btt_seek_val *log, size_t nlog,
		  struct btt_seek_scratch *scratch)
{
	bool yield = scratch && scratch->yield;
	struct btt_seek_val *tmp;
	size_t i, j, n, room, common = 0;

	if (!nlog)
		return;
	if (nlog <= SMALL_SORT) {
		small_sort(log, nlog);
	} else {
		if (scratch &&
		    scratch->cap < nlog) { /* grown in place: see btt_seek_folder_hand_over() */
			scratch->v = bs_xreallocarray(scratch->v, nlog, sizeof(*tmp));
			scratch->cap = nlog;
		}
		tmp = scratch ? scratch->v : bs_xreallocarray(NULL, nlog, sizeof(*tmp));
		if (nlog >= RADIX_WIDE)
			radix_sort_wide(log, tmp, nlog, yield);
		else
			radix_sort(log, tmp, nlog);
		if (!scratch)
			free(tmp);
	}
	/* collapse equal values: stable sort keeps the earliest first */
	for (i = 1, n = 1; i < nlog; i++) {
		if (log[i].val == log[n - 1].val) {
			log[n - 1].count += log[i].count;
			if (log[i].first < log[n - 1].first)
				log[n - 1].first = log[i].first;
		} else {
			log[n++] = log[i];
		}
	}
	room = budget_room(s);
	if (!room) {
		add_known(s, log, n, yield);
		return;
	}
	if (room >= n) {
		/*
		 * One pass, no count of the known values first: room for all n
		 * as new (a count pass was a fifth of a fold on random I/O,
		 * where vals grows at every fold).
		 */
		if (s->nvals + n > s->vals_cap) {
			s->vals_cap = (s->nvals + n) + (s->nvals + n) / 2;
			s->vals = bs_xrealloc(s->vals, s->vals_cap * sizeof(*s->vals));
		}
		merge_counting(s, log, n, yield);
		return;
	}
	/* values already known: the merge below and the budget need their number */
	for (i = j = 0; i < s->nvals && j < n;) {
		if (s->vals[i].val < log[j].val)
			i++;
		else if (log[j].val < s->vals[i].val)
			j++;
		else
			common++, i++, j++;
	}
	/*
	 * Memory stays bounded: past the engine's budget of distinct values,
	 * new values are only counted as dropped (NSEEKS and MEAN stay exact;
	 * MEDIAN and MODE then come from the values kept).  The known values
	 * are all kept: common stays.
	 */
	if (s->budget)
		n = fit_budget(s, log, n, n - common);
	merge_log(s, log, n, s->nvals + n - common, yield);
}

/*
 * The size of the log after a fold: it grows with the distinct values so
 * that a fold's cost stays linear.  Read from the values before the fold,
 * which a folding thread has not changed yet (btt_seek_folder.c): both
 * ways fold at the same seeks, so a --seek-values budget keeps the same
 * values.
 */
size_t btt_seek_next_log_cap(const struct btt_seek *s)
{
	size_t want = s->nvals / 2 < LOG_MAX ? s->nvals / 2 : LOG_MAX;

	return want > s->log_cap ? want : s->log_cap;
}

/* The log is full: grow it (a device with few seeks gets a small one) or fold it. */
void btt_seek_log_full(struct btt_seek *s)
{
	size_t cap;

	/*
	 * A device with few seeks (a trace may name 100k devices) gets
	 * a small log; it grows to LOG_MIN before folding starts.
	 */
	if (s->log_cap < LOG_MIN) {
		s->log_cap = s->log_cap ? s->log_cap * 2 : LOG_FIRST;
		s->log = bs_xrealloc(s->log, s->log_cap * sizeof(*s->log));
		return;
	}
	if (s->folder) {
		btt_seek_folder_hand_over(s->folder, s);
		return;
	}
	cap = btt_seek_next_log_cap(s);
	btt_seek_fold(s, s->log, s->nlog, NULL);
	s->nlog = 0;
	if (cap > s->log_cap) {
		s->log_cap = cap;
		s->log = bs_xrealloc(s->log, s->log_cap * sizeof(*s->log));
	}
}

void btt_seek_print(FILE *fp, FILE *cfp, long long dist, int is_read, uint64_t time)
{
	double ts = (double)(time / 1000000000ull) + (double)(time % 1000000000ull) / 1.0e9;

	if (fp)
		fprintf(fp, "%15.9lf %13lld %c\n", ts, dist, is_read ? 'r' : 'w');
	if (cfp)
		fprintf(cfp, "%15.9lf %13lld %c\n", ts, dist, is_read ? 'r' : 'w');
}

double btt_seek_mean(const struct btt_seek *s)
{
	return s->total_sectors / s->nseeks;
}

/* Every seek folded into vals: the folding thread's work first, in its order. */
static void settle(struct btt_seek *s)
{
	btt_seek_log_run(s);
	if (s->folder)
		btt_seek_folder_drain(s->folder);
	btt_seek_fold(s, s->log, s->nlog, NULL);
	s->nlog = 0;
}

/* ---- btt's tree, rebuilt on demand (btt_seek_tree.c) -------------------- */

long long btt_seek_median(struct btt_seek *s)
{
	long long target = s->nseeks / 2, cand = 0;
	size_t k, ncand = 0;
	uint32_t *v;

	settle(s);
	for (k = 0; k < s->nvals; k++)
		if ((long long)s->vals[k].count >= target) {
			cand = s->vals[k].val;
			ncand++;
		}
	if (ncand <= 1)
		return ncand ? cand : 0;
	/* several qualify: the first met in btt's root-first walk wins */
	v = bs_xreallocarray(NULL, ncand, sizeof(*v));
	for (k = 0, ncand = 0; k < s->nvals; k++)
		if ((long long)s->vals[k].count >= target)
			v[ncand++] = (uint32_t)(k + 1);
	{
		struct btt_stree t;

		btt_stree_build(&t, s->vals, s->nvals, s->folder ? 2 : 1);
		cand = s->vals[btt_stree_pre_first(&t, v, ncand) - 1].val;
		btt_stree_free(&t);
	}
	free(v);
	return cand;
}

int btt_seek_mode(struct btt_seek *s, struct btt_seek_modes *m)
{
	uint32_t most = 0, *v;
	size_t k, nmost = 0;

	memset(m, 0, sizeof(*m));
	settle(s);
	if (!s->nvals)
		return 0;
	for (k = 0; k < s->nvals; k++) {
		uint32_t c = s->vals[k].count;

		if (c > most) {
			most = c;
			nmost = 1;
		} else if (c == most) {
			nmost++;
		}
	}
	m->most_seeks = (int)most;
	m->modes = bs_xreallocarray(NULL, nmost, sizeof(*m->modes));
	v = bs_xreallocarray(NULL, nmost, sizeof(*v));
	for (k = 0, nmost = 0; k < s->nvals; k++)
		if (s->vals[k].count == most)
			v[nmost++] = (uint32_t)(k + 1);
	if (nmost > 1) {	/* btt lists them in its tree's post-order */
		struct btt_stree t;

		btt_stree_build(&t, s->vals, s->nvals, s->folder ? 2 : 1);
		btt_stree_post_order(&t, v, nmost);
		btt_stree_free(&t);
	}
	for (k = 0; k < nmost; k++)
		m->modes[k] = s->vals[v[k] - 1].val;
	free(v);
	m->nmds = (int)nmost;
	return m->nmds;
}
