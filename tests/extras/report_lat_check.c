// SPDX-License-Identifier: GPL-2.0
/*
 * report_lat_check.c - unit test of analyze/report/report_lat.c: a set of one
 * sample keeps its stage values (struct report_lat_one), the second sample or a
 * merge turns it into sketches, a move hands the latencies over.  Every
 * set built by adds, merges and moves in any order must read (through
 * report_lat_stages) exactly as plain sketches fed the same values: counts, sum,
 * min, max, every rank, ranges and buckets.  Built with -DSK_COUNT_BITS=8
 * too (tests/t-analyze-lat-set.sh), where counters wrap all the time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/report_lat.h"
#include "../unit/check.h"
#define RNG_SEED 0x9E3779B97F4A7C15ull
#include "../unit/rng.h"

#define MAXS 1200

/* A list of samples and the plain sketches they must give. */
struct ref {
	struct bs_io_sample s[MAXS];
	int n;
};


/*
 * A sample: kind 0 all stages, 1 no G/I (bio-based), 2 queued only (no
 * stage), 3 random; equal != 0 gives every stage that latency (wraps).
 */
static struct bs_io_sample sample(int kind, uint64_t equal)
{
	struct bs_io_sample s;
	uint64_t t = 1000000 + rnd64() % 1000000, d[5];
	int i;

	memset(&s, 0, sizeof(s));
	for (i = 0; i < 5; i++)
		d[i] = equal ? equal : (rnd64() % 4 ? rnd64() % 200 : rnd64() % 50000000000ull);
	s.t_q = t;
	s.t_g = t + d[0];
	s.t_i = s.t_g + d[1];
	s.t_d = s.t_i + d[2];
	s.t_c = s.t_d + d[3];
	s.t_m = BS_NOT_SEEN;
	s.bytes = 4096 * (uint32_t)(1 + rnd64() % 8);
	s.error = rnd64() % 5 == 0;
	s.requeues = rnd64() % 7 == 0;
	if (kind == 3)
		kind = (int)(rnd64() % 4);
	if (kind == 1)
		s.t_g = s.t_i = BS_NOT_SEEN;
	if (kind == 2)
		s.t_g = s.t_i = s.t_d = s.t_c = BS_NOT_SEEN;
	if (kind == 3) {	/* merged into a request: Q2M, M2D */
		s.t_m = s.t_g;
		s.t_g = s.t_i = BS_NOT_SEEN;
	}
	s.status = s.t_c != BS_NOT_SEEN ? BS_IO_DONE : BS_IO_OPEN;
	bs_io_sample_stages(&s);
	return s;
}

static void set_add(struct report_lat *ls, struct ref *r, const struct bs_io_sample *s)
{
	struct report_stage_vals sv;

	report_stage_vals_of(s, &sv);
	report_lat_add(ls, s, &sv);
	if (r && r->n < MAXS)
		r->s[r->n++] = *s;
}

/* The plain sketches and counts of a list of samples. */
static void ref_build(const struct ref *r, struct sketch st[BS_ST_COUNT], struct report_lat *cnt)
{
	struct report_stage_vals sv;
	int i, k;

	memset(cnt, 0, sizeof(*cnt));
	for (k = 0; k < BS_ST_COUNT; k++)
		sketch_init(&st[k]);
	for (i = 0; i < r->n; i++) {
		const struct bs_io_sample *s = &r->s[i];

		report_stage_vals_of(s, &sv);
		for (k = 0; k < BS_ST_COUNT; k++)
			if (sv.mask & (1u << k))
				sketch_add(&st[k], sv.ns[k]);
		cnt->ios++;
		if (s->status == BS_IO_DONE) {
			cnt->completed++;
			cnt->bytes += s->bytes;
			cnt->errors += s->error != 0;
		} else {
			cnt->open++;
		}
		cnt->merged += s->t_m != BS_NOT_SEEN;
		cnt->requeued += s->requeues > 0;
	}
}

struct fe {
	uint64_t mid[4096], cnt[4096];
	int n;
};

static void fe_put(void *ctx, uint64_t mid, uint64_t count)
{
	struct fe *f = ctx;

	if (f->n < 4096) {
		f->mid[f->n] = mid;
		f->cnt[f->n] = count;
	}
	f->n++;
}

static void same_sketch(const char *what, int k, const struct sketch *a, const struct sketch *b)
{
	static struct fe fa, fb;
	static const uint64_t bounds[] = { 0, 1, 50, 128, 1000, 100000, 10000000, 1000000000,
					   UINT64_MAX };
	uint64_t r;
	size_t i;

	CHECK(a->n == b->n, "%s %s: n %llu != %llu", what, report_stage_names[k],
	      (unsigned long long)a->n,
	      (unsigned long long)b->n);
	if (a->n != b->n || !a->n)
		return;
	CHECK(a->sum == b->sum && a->min == b->min && a->max == b->max, "%s %s: sum/min/max", what,
	      report_stage_names[k]);
	for (r = 1; r <= a->n; r += 1 + a->n / 50)
		CHECK(sketch_rank_value(a, r) == sketch_rank_value(b, r), "%s %s: rank %llu", what,
		      report_stage_names[k], (unsigned long long)r);
	for (i = 0; i < REPORT_N_PCT; i++)
		CHECK(sketch_quantile(a, report_pct_ppm[i]) ==
		      sketch_quantile(b, report_pct_ppm[i]),
		      "%s %s: %s", what, report_stage_names[k], report_pct_names[i]);
	for (i = 0; i + 1 < sizeof(bounds) / sizeof(bounds[0]); i++)
		CHECK(sketch_count_range(a, bounds[i], bounds[i + 1]) ==
		      sketch_count_range(b, bounds[i], bounds[i + 1]),
		      "%s %s: range %zu", what, report_stage_names[k], i);
	/* report_lat_us_hist (one pass) = biolatency's buckets counted range by range */
	{
		uint64_t h[REPORT_LAT_US_BUCKETS];

		report_lat_us_hist(a, h);
		for (i = 0; i < REPORT_LAT_US_BUCKETS; i++)
			CHECK(h[i] == sketch_count_range(a, i ? 1000ull << i : 0,
						     i < 53 ? 1000ull << (i + 1) : UINT64_MAX),
			      "%s %s: us bucket %zu", what, report_stage_names[k], i);
	}
	fa.n = fb.n = 0;
	sketch_foreach(a, fe_put, &fa);
	sketch_foreach(b, fe_put, &fb);
	size_t nb = (size_t)(fa.n < 4096 ? fa.n : 4096);

	CHECK(fa.n == fb.n && !memcmp(fa.mid, fb.mid, sizeof(fa.mid[0]) * nb) &&
	      !memcmp(fa.cnt, fb.cnt, sizeof(fa.cnt[0]) * nb),
	      "%s %s: buckets", what, report_stage_names[k]);
}

/* ls must read exactly as the samples of r. */
static void same(const char *what, const struct report_lat *ls, const struct ref *r)
{
	struct sketch want[BS_ST_COUNT], buf[BS_ST_COUNT], one;
	const struct sketch *got = report_lat_stages(ls, buf);
	struct report_lat c;
	int k;

	ref_build(r, want, &c);
	CHECK(ls->ios == c.ios && ls->completed == c.completed && ls->bytes == c.bytes &&
	      ls->open == c.open && ls->merged == c.merged && ls->requeued == c.requeued &&
	      ls->errors == c.errors,
	      "%s: counts (ios %llu, want %llu)", what, (unsigned long long)ls->ios,
	      (unsigned long long)c.ios);
	for (k = 0; k < BS_ST_COUNT; k++) {
		same_sketch(what, k, &got[k], &want[k]);
		same_sketch(what, k, report_lat_stage(ls, k, &one), &want[k]);
		sketch_free(&want[k]);
	}
}

static void ref_cat(struct ref *dst, const struct ref *src)
{
	int i;

	for (i = 0; i < src->n && dst->n < MAXS; i++)
		dst->s[dst->n++] = src->s[i];
}

/* A set of n samples (its ref in r); equal != 0: all stages that value. */
static void make(struct report_lat *ls, struct ref *r, int n, int kind, uint64_t equal)
{
	struct bs_io_sample s;
	int i;

	report_lat_init(ls);
	r->n = 0;
	for (i = 0; i < n; i++) {
		s = sample(kind, equal);
		set_add(ls, r, &s);
	}
}

static struct ref ra, rb, rab;

static void one_value(void)
{
	struct report_lat a, b;
	struct sketch buf[BS_ST_COUNT];
	const struct sketch *st;

	make(&a, &ra, 0, 0, 0);
	same("empty", &a, &ra);
	CHECK(a.st == report_lat_no_stages, "empty: the shared empty stages");

	make(&a, &ra, 1, 0, 0);
	same("one sample", &a, &ra);
	CHECK(a.ios == 1 && a.one &&
	      a.one->mask == (((1u << BS_ST_COUNT) - 1) & ~(1u << BS_ST_Q2M | 1u << BS_ST_M2D)),
	      "one sample: kept as struct report_lat_one");
	st = report_lat_stages(&a, buf);
	CHECK(st[BS_ST_Q2C].n == 1 &&
	      sketch_quantile(&st[BS_ST_Q2C], 500000) == st[BS_ST_Q2C].max &&
	      sketch_quantile(&st[BS_ST_Q2C], 999900) == st[BS_ST_Q2C].min,
	      "one sample: every percentile is the value");
	report_lat_free(&a);
	report_lat_free(&a);	/* twice: harmless */

	make(&a, &ra, 1, 1, 0);
	same("one bio-based sample", &a, &ra);
	CHECK(a.one && !(a.one->mask & (1u << BS_ST_Q2G)), "bio-based: no Q2G");
	report_lat_free(&a);

	make(&a, &ra, 1, 2, 0);
	same("one sample without stages", &a, &ra);
	CHECK(a.ios == 1 && !a.one, "no stage: nothing allocated");
	set_add(&a, &ra, &(struct bs_io_sample){ 0 });	/* a second one, all times 0 */
	same("two samples, the first without stages", &a, &ra);
	report_lat_free(&a);

	make(&a, &ra, 2, 0, 0);
	same("two samples", &a, &ra);
	CHECK(a.ios == 2 && a.st != report_lat_no_stages, "two samples: sketches");
	report_lat_free(&a);

	make(&b, &rb, 2, 2, 0);
	same("two samples without stages", &b, &rb);
	CHECK(b.st == report_lat_no_stages, "no stage: still the shared empty stages");
	report_lat_free(&b);
}

/* Merge and move every pair of sizes both ways against the union's sketches. */
static void merges(uint64_t equal)
{
	static const int sizes[] = { 0, 1, 2, 3, 16, 17, 40, 600 };
	const int ns = (int)(sizeof(sizes) / sizeof(sizes[0]));
	struct report_lat a, b, c;
	char what[96];
	int i, j, kind, mv;

	for (i = 0; i < ns; i++)
		for (j = 0; j < ns; j++)
			for (kind = 0; kind < 4; kind++)
				for (mv = 0; mv < 2; mv++) {
					make(&a, &ra, sizes[i], kind, equal);
					make(&b, &rb, sizes[j], (kind + 1) % 4, equal);
					rab = ra;
					ref_cat(&rab, &rb);
					snprintf(what, sizeof(what),
						 "%s %d into %d (kinds %d, %d, equal %llu)",
						 mv ? "move" : "merge", sizes[j], sizes[i], kind,
						 (kind + 1) % 4, (unsigned long long)equal);
					if (mv) {
						struct report_lat_one *taken =
							b.ios == 1 ? b.one : NULL;

						report_lat_move(&a, &b);
						same(what, &a, &rab);
						if (!sizes[i] && taken)
							CHECK(a.one == taken,
							      "%s: into an empty set, "
							      "taken over", what);
						/* b keeps its counts, not its latencies */
						CHECK(report_lat_stage(&b, BS_ST_Q2C,
								&(struct sketch){ 0 })->n == 0,
						      "%s: the source has no latencies left", what);
						CHECK(b.ios == (uint64_t)sizes[j],
						      "%s: the source keeps its counts", what);
					} else {
						report_lat_merge(&a, &b);
						same(what, &a, &rab);
						same("merge source unchanged", &b, &rb);
					}
					report_lat_free(&a);
					report_lat_free(&b);
				}
	/* a chain: one sample after another merged into an empty set */
	report_lat_init(&c);
	rab.n = 0;
	for (i = 0; i < 40; i++) {
		make(&a, &ra, 1, i % 4, equal);
		report_lat_merge(&c, &a);
		ref_cat(&rab, &ra);
		snprintf(what, sizeof(what), "chain of %d one-sample merges", i + 1);
		same(what, &c, &rab);
		report_lat_free(&a);
	}
	report_lat_free(&c);
}

/* the µs histogram at the top of the range: the last bucket runs on to UINT64_MAX (exclusive) */
static void us_hist_edges(void)
{
	static const uint64_t vals[] = { 0, 1999, 2000, 1000ull << 53, (1000ull << 53) * 2 - 1,
					 1000ull << 54, UINT64_MAX - 1, UINT64_MAX };
	uint64_t h[REPORT_LAT_US_BUCKETS];
	struct sketch sk;
	size_t i, k;

	for (k = 1; k <= sizeof(vals) / sizeof(vals[0]); k++) {
		for (int big = 0; big < 2; big++) {	/* small (exact values) and counters */
			sketch_init(&sk);
			for (i = 0; i < k; i++)
				sketch_add(&sk, vals[i]);
			for (i = 0; big && i < SKETCH_SMALL + 1; i++)
				sketch_add(&sk, 5000);
			report_lat_us_hist(&sk, h);
			for (i = 0; i < REPORT_LAT_US_BUCKETS; i++)
				CHECK(h[i] == sketch_count_range(&sk, i ? 1000ull << i : 0,
							     i < 53 ? 1000ull << (i + 1) :
								      UINT64_MAX),
				      "us edges %zu values%s: bucket %zu", k,
				      big ? " + counters" : "", i);
			sketch_free(&sk);
		}
	}
}

int main(void)
{
	us_hist_edges();
	one_value();
	merges(0);
	merges(1000);		/* equal values: with 8-bit counters they wrap */
	merges(5);		/* exact (linear) buckets */
	printf("lat_set: %d checks, %d failures (%d-bit counters)\n", checks, failures,
	       SKETCH_COUNT_BITS);
	return failures != 0;
}
