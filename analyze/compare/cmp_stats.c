// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_stats.c - is a percentile change real?  (docs/compare.md)
 *
 * For quantile q of n samples, the ranks l = floor(nq - z*sqrt(nq(1-q)))
 * and u = ceil(nq + z*sqrt(nq(1-q))) + 1 bracket the true quantile with
 * probability about 1 - alpha, whatever the distribution, if the samples
 * are independent (the order statistics' binomial argument).  The sketch
 * gives those ranks' values within its relative error, so each bound is
 * widened by it.  I/O latencies are not independent (bursts), so z is
 * inflated by sqrt(phi), phi a batch-means estimate over the time series'
 * buckets of how much more the count below the quantile varies than the
 * binomial says.  The change's interval is the ratio of the two sides'
 * intervals (each at 97.5%: >= 95% together).  A change is significant when
 * the ratio interval computed with Bonferroni's z for all the percentiles
 * compared excludes 1, and the change is at least twice the sketch error.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "compare.h"
#include "report/report.h"
#include "report/ts_series.h"

/* z with P(|Z| > z) = alpha, by bisection on erfc (monotone). */
double cmp_z_of(double alpha)
{
	double lo = 0, hi = 40;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / M_SQRT2) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double cmp_duration_s(const struct cmp_side *s)
{
	return s->t1 > s->t0 ? (double)(s->t1 - s->t0) / 1e9 : 0;
}

/* ---- trimmed means (where it moved) ------------------------------------- */

struct trim {
	double limit, taken, sum;
};

static void trim_add(void *ctx, uint64_t mid, uint64_t count)
{
	struct trim *t = ctx;
	double take = fmin((double)count, t->limit - t->taken);

	if (take > 0) {
		t->sum += take * (double)mid;
		t->taken += take;
	}
}

/*
 * Mean of the lowest `keep` of the values (bucket middles): a few absurd
 * latencies (an I/O whose completion was lost, paired with a late one)
 * would otherwise decide which stage "moved".
 */
double cmp_trimmed_mean(const struct sketch *s, double keep)
{
	struct trim t = { ceil((double)s->n * keep), 0, 0 };

	if (!s->n)
		return 0;
	sketch_foreach(s, trim_add, &t);
	return t.taken > 0 ? t.sum / t.taken : 0;
}

/* ---- batch means over the time-series buckets --------------------------- */

#define BM_MIN_BUCKETS 8

void cmp_batch_means(struct cmp_side *s)
{
	const struct ts_series *ts = report_series(s->r);
	const struct report_rollup *ru = report_rollup(s->r);	/* done by cmp_side_run() */
	static const int stages[2] = { BS_ST_Q2C, BS_ST_D2C };
	double *n_b[2], *below[2][CMP_NPCT];
	uint64_t v[2][CMP_NPCT];
	size_t nb = ts->nb, used = 0;
	struct sketch one;

	for (int p = 0; p < CMP_NPCT; p++)
		s->phi[p] = 1;
	if (nb < BM_MIN_BUCKETS)
		return;
	for (int k = 0; k < 2; k++)
		for (int p = 0; p < CMP_NPCT; p++)
			v[k][p] = sketch_quantile(report_lat_stage(&ru->all, stages[k], &one),
						  cmp_pct_ppm[p]);
	for (int k = 0; k < 2; k++) {
		n_b[k] = bs_xcalloc(nb, sizeof(double));
		for (int p = 0; p < CMP_NPCT; p++)
			below[k][p] = bs_xcalloc(nb, sizeof(double));
	}
	for (size_t b = 0; b < nb; b++) {
		struct ts_cell cell;

		ts_cell_sum(ts, b, TS_ANY, TS_ANY, &cell);
		for (int k = 0; k < 2; k++) {
			const struct sketch *sk = k ? &cell.d2c : &cell.q2c;

			n_b[k][b] = (double)sk->n;
			for (int p = 0; p < CMP_NPCT; p++)
				below[k][p][b] =
					sk->n ? (double)sketch_count_range(sk, 0, v[k][p] + 1) : 0;
		}
		used += cell.q2c.n > 0;
		ts_cell_free(&cell);
	}
	for (int k = 0; used >= BM_MIN_BUCKETS && k < 2; k++)
		for (int p = 0; p < CMP_NPCT; p++) {
			double n = 0, m = 0, ss = 0, pr;

			for (size_t b = 0; b < nb; b++) {
				n += n_b[k][b];
				m += below[k][p][b];
			}
			if (n <= 0 || m <= 0 || m >= n)
				continue;
			pr = m / n;
			for (size_t b = 0; b < nb; b++) {
				double d = below[k][p][b] - n_b[k][b] * pr;

				ss += d * d;
			}
			ss /= n * pr * (1 - pr);
			if (ss > s->phi[p])
				s->phi[p] = ss;
		}
	for (int k = 0; k < 2; k++) {
		free(n_b[k]);
		for (int p = 0; p < CMP_NPCT; p++)
			free(below[k][p]);
	}
}

/* ---- one quantile's interval -------------------------------------------- */

/* Bounds of quantile ppm of sk at normal quantile z; false if n is too small for them. */
static bool q_interval(const struct sketch *sk, uint32_t ppm, double z, double *lo, double *hi)
{
	double n = (double)sk->n, q = ppm / 1e6, m = n * q, h = z * sqrt(n * q * (1 - q));
	double l = floor(m - h), u = ceil(m + h) + 1;
	bool ok = l >= 1 && u <= n;

	if (l < 1)
		l = 1;
	if (u > n)
		u = n;
	if (!sk->n) {
		*lo = *hi = 0;
		return false;
	}
	*lo = (double)sketch_rank_value(sk, (uint64_t)l) * (1 - CMP_SKETCH_ERR);
	*hi = (double)sketch_rank_value(sk, (uint64_t)u) * (1 + CMP_SKETCH_ERR);
	return ok;
}

static bool q_ratio(const struct cmp *c, const struct cmp_row *row, int st, int p, double z,
		    double *lo_b, double *hi_b, double *lo_a, double *hi_a)
{
	struct sketch one[2];
	bool ok_b, ok_a;

	ok_b = q_interval(report_lat_stage(&row->set[0], st, &one[0]), cmp_pct_ppm[p],
			  z * sqrt(c->side[0].phi[p]), lo_b, hi_b);
	ok_a = q_interval(report_lat_stage(&row->set[1], st, &one[1]), cmp_pct_ppm[p],
			  z * sqrt(c->side[1].phi[p]), lo_a, hi_a);
	return ok_b && ok_a && *lo_b > 0;
}

static void stage_points(struct cmp_row *row, int st)
{
	struct sketch one[2];
	const struct sketch *b = report_lat_stage(&row->set[0], st, &one[0]),
			    *a = report_lat_stage(&row->set[1], st, &one[1]);
	struct cmp_stage *cs = &row->st[st];

	cs->n_b = b->n;
	cs->n_a = a->n;
	cs->max_b = b->n ? b->max : 0;
	cs->max_a = a->n ? a->max : 0;
	cs->sum_b = (double)b->sum;
	cs->sum_a = (double)a->sum;
	cs->mean_b = b->n ? (double)b->sum / (double)b->n : 0;
	cs->mean_a = a->n ? (double)a->sum / (double)a->n : 0;
	cs->tmean_b = cmp_trimmed_mean(b, CMP_TRIM);
	cs->tmean_a = cmp_trimmed_mean(a, CMP_TRIM);
	for (int p = 0; p < CMP_NPCT; p++) {
		struct cmp_q *q = &cs->q[p];

		q->b = sketch_quantile(b, cmp_pct_ppm[p]);
		q->a = sketch_quantile(a, cmp_pct_ppm[p]);
		q->delta = (double)q->a - (double)q->b;
		q->rel = q->b ? (double)q->a / (double)q->b - 1 : 0;
	}
}

void cmp_compute(struct cmp *c)
{
	c->z_ci = cmp_z_of(0.025);
	c->ntested = 0;
	for (size_t i = 0; i < c->nrows; i++)
		for (int st = 0; st < BS_ST_COUNT; st++) {
			struct cmp_row *row = &c->rows[i];

			stage_points(row, st);
			for (int p = 0; p < CMP_NPCT; p++) {
				struct cmp_q *q = &row->st[st].q[p];

				q->tested = q_ratio(c, row, st, p, c->z_ci, &q->lo_b, &q->hi_b,
						    &q->lo_a, &q->hi_a);
				if (q->tested) {
					q->rel_lo = q->lo_a / q->hi_b - 1;
					q->rel_hi = q->hi_a / q->lo_b - 1;
					c->ntested++;
				}
			}
		}
	/* Bonferroni over every compared percentile: each side at 1 - 0.025/m */
	c->z_sig = cmp_z_of(0.025 / (double)(c->ntested ? c->ntested : 1));
	cmp_health_check(c);
	if (c->no_verdict)	/* lost events: no change is evidence */
		return;
	for (size_t i = 0; i < c->nrows; i++)
		for (int st = 0; st < BS_ST_COUNT; st++)
			for (int p = 0; p < CMP_NPCT; p++) {
				struct cmp_row *row = &c->rows[i];
				struct cmp_q *q = &row->st[st].q[p];
				double lb, hb, la, ha;

				if (!q->tested ||
				    !q_ratio(c, row, st, p, c->z_sig, &lb, &hb, &la, &ha)) {
					q->jrel_lo = q->rel_lo;	/* not tested: not printed */
					q->jrel_hi = q->rel_hi;
					continue;
				}
				q->jrel_lo = la / hb - 1;
				q->jrel_hi = ha / lb - 1;
				if (fabs(q->rel) < 2 * CMP_SKETCH_ERR)
					continue;
				q->sig = la / hb > 1 || ha / lb < 1;
			}
}
