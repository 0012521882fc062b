// SPDX-License-Identifier: GPL-2.0
/*
 * test_seek_budget.c - btt's seek tables (analyze/btt/btt_seek.c) past a
 * --seek-values budget, against counts taken plainly.
 *
 * A table of more than SEEK_SHARE values, once its budget is spent, keeps
 * counting the values it knows and only counts the others as dropped; a
 * value dropped once never comes back.  So, whatever the folds:
 *  - the kept values' counts plus the dropped seeks are all the seeks;
 *  - every kept value's count is its count in the stream, exactly;
 *  - no more values are kept than the budget allows, and some were dropped;
 *  - the same stream folded by the folding thread keeps the same values
 *    with the same counts and firsts, and drops as many seeks.
 * Streams: distances drawn so that about a third are new, the rest
 * repeats of earlier ones, some very frequent; and a stream of nothing
 * but new distances once the budget is spent.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "btt/btt_seek.h"
#include "btt/btt_seek_folder.h"
#include "check.h"
#include "rng.h"

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* the count of v in sorted[0..n) */
static uint32_t count_of(const long long *sorted, size_t n, long long v)
{
	size_t lo = 0, hi = n, first;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sorted[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (first = lo; lo < n && sorted[lo] == v; lo++)
		;
	return (uint32_t)(lo - first);
}

/* feed d[0..n) as forward distances (-a: from the previous end, 0-byte IOs) */
static void feed(struct btt_seek *s, const long long *d, size_t n)
{
	unsigned long long sector = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		sector += (unsigned long long)d[i];
		btt_seek_add(s, sector, 0, 1, 1, i);
	}
}

static void check_stream(const long long *d, size_t n, uint64_t budget_size, const char *what)
{
	long long *sorted = bs_xreallocarray(NULL, n, sizeof(*sorted));
	uint64_t budget = budget_size, budget2 = budget_size, sum = 0;
	struct btt_seek_folder *folder = btt_seek_folder_new();
	struct btt_seek s, t;
	struct btt_seek_modes m;
	size_t i, bad = 0;

	memcpy(sorted, d, n * sizeof(*d));
	qsort(sorted, n, sizeof(*sorted), cmp_ll);
	btt_seek_init(&s, &budget, NULL);
	btt_seek_init(&t, &budget2, folder);
	feed(&s, d, n);
	feed(&t, d, n);
	btt_seek_mode(&s, &m);
	free(m.modes);
	btt_seek_mode(&t, &m);
	free(m.modes);

	CHECK(s.dropped > 0, "%s: the budget of %llu ran out", what,
	      (unsigned long long)budget_size);
	CHECK(s.nvals <= budget_size, "%s: %zu values kept, budget %llu", what, s.nvals,
	      (unsigned long long)budget_size);
	for (i = 0; i < s.nvals; i++) {
		sum += s.vals[i].count;
		if (i && s.vals[i - 1].val >= s.vals[i].val && bad++ < 3)
			CHECK(0, "%s: values out of order at %zu", what, i);
		if (s.vals[i].count != count_of(sorted, n, s.vals[i].val) && bad++ < 3)
			CHECK(0, "%s: value %lld counted %u times, %u in the stream", what,
			      s.vals[i].val, s.vals[i].count, count_of(sorted, n, s.vals[i].val));
	}
	CHECK(sum + s.dropped == (uint64_t)s.nseeks, "%s: %llu kept + %llu dropped != %lld seeks",
	      what, (unsigned long long)sum, (unsigned long long)s.dropped, s.nseeks);

	/* the folding thread's table: the same values, counts and firsts */
	CHECK(t.nvals == s.nvals && t.dropped == s.dropped,
	      "%s: with the folder %zu values, %llu dropped; inline %zu, %llu", what, t.nvals,
	      (unsigned long long)t.dropped, s.nvals, (unsigned long long)s.dropped);
	for (i = 0; i < s.nvals && i < t.nvals; i++)
		if (memcmp(&s.vals[i], &t.vals[i], sizeof(s.vals[i]))) {
			CHECK(0, "%s: with the folder, value %zu differs", what, i);
			break;
		}
	btt_seek_folder_free(folder);	/* before the table it folds into */
	btt_seek_free(&s);
	btt_seek_free(&t);
	free(sorted);
}

int main(void)
{
	size_t n = 1500000, i, fresh = 0;
	long long *d = bs_xreallocarray(NULL, n, sizeof(*d));

	/* a third new distances, the rest repeats, a few very frequent */
	for (i = 0; i < n; i++) {
		uint64_t r = rnd(100);

		if (r < 33 || !fresh)
			d[i] = 8 * (long long)(++fresh) + 1;
		else if (r < 43)
			d[i] = 8 * (long long)(1 + rnd(16)) + 1;
		else
			d[i] = 8 * (long long)(1 + rnd(fresh)) + 1;
	}
	check_stream(d, n, 200000, "mixed distances");

	/* nothing but new distances: all kept until the budget is spent, then all dropped */
	for (i = 0; i < n; i++)
		d[i] = 8 * (long long)(i + 1) + 3;
	check_stream(d, n, 100000, "new distances only");
	free(d);
	printf("%d checks, %d failed\n", checks, failures);
	return failures != 0;
}
