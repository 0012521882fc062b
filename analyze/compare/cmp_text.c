// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_text.c - the terminal report: the headline first (where the latency
 * moved, which changes are significant), then one table per row (total,
 * devices, operations, processes, groups, tags) with every stage's N and
 * percentiles before and after, the change and its interval.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include "bs_escape.h"
#include "compare.h"

#define MAX_SIG_LINES 12

static double iops(const struct cmp *c, const struct lat_set *ls, int side)
{
	double d = cmp_duration_s(&c->side[side]);

	return d > 0 ? (double)ls->completed / d : 0;
}

static double mbps(const struct cmp *c, const struct lat_set *ls, int side)
{
	double d = cmp_duration_s(&c->side[side]);

	return d > 0 ? (double)ls->bytes / d / 1e6 : 0;
}

/* Names come from the traces: terminal-safe (no control characters). */
static void row_label(const struct cmp_row *r, char *buf, size_t len)
{
	char n[256], na[64];	/* as long as cmp_row's names */

	bs_term_safe(n, sizeof(n), r->name);
	bs_term_safe(na, sizeof(na), r->name_a);
	if (r->kind == CK_ALL)
		snprintf(buf, len, "total");
	else if (r->name_a[0])
		snprintf(buf, len, "%s %s (after: %s)", cmp_kind_names[r->kind], n, na);
	else
		snprintf(buf, len, "%s %s", cmp_kind_names[r->kind], n);
}

/* IOPS and MB/s of the total, both sides (no interval: one number per trace). */
static void headline_rate(const struct cmp *c, FILE *out)
{
	const struct cmp_row *all = cmp_find_row(c, "");
	double ib, ia, mb, ma;

	if (!all)
		return;
	ib = iops(c, &all->set[0], 0);
	ia = iops(c, &all->set[1], 1);
	mb = mbps(c, &all->set[0], 0);
	ma = mbps(c, &all->set[1], 1);
	fprintf(out, "  throughput: %.0f -> %.0f IOPS (%+.1f%%), %.2f -> %.2f MB/s (%+.1f%%)\n", ib, ia,
		ib > 0 ? (ia / ib - 1) * 100 : 0.0, mb, ma, mb > 0 ? (ma / mb - 1) * 100 : 0.0);
}

static void headline_where(const struct cmp *c, FILE *out)
{
	const struct cmp_row *all = cmp_find_row(c, "");
	struct cmp_where w;
	char d[32], s[32], safe[256];
	bool q2c_sig = false;

	cmp_where(c, &w);
	if (!w.have) {
		fprintf(out, "  no Q2C on one side: nothing to split\n");
		return;
	}
	for (int p = 0; p < CMP_NPCT; p++)
		q2c_sig |= all->st[ST_Q2C].q[p].sig;
	cmp_fmt_ns(w.q2c_delta, d, sizeof(d), true);
	fprintf(out, "  Q2C mean %s (%+.1f%%)", d,
		all->st[ST_Q2C].tmean_b > 0 ? w.q2c_delta / all->st[ST_Q2C].tmean_b * 100 : 0.0);
	if (w.top_stage >= 0) {
		cmp_fmt_ns(w.stage_delta[w.top_stage], s, sizeof(s), true);
		fprintf(out, ", of which %s is %s: %s", s, stage_names[w.top_stage],
			cmp_stage_blurb(w.top_stage));
	}
	fprintf(out, "%s\n", q2c_sig ? "" : "; no significant change in Q2C's percentiles");
	for (int i = 0; i < w.nshares; i++)
		fprintf(out, "  %s %s: %.1f%% -> %.1f%% of the Q2C time (%+.1f points)\n",
			cmp_kind_names[w.shares[i].row->kind],
			bs_term_safe(safe, sizeof(safe), w.shares[i].row->name), w.shares[i].b * 100,
			w.shares[i].a * 100, (w.shares[i].a - w.shares[i].b) * 100);
}

struct sig_ref {
	const struct cmp_row *row;
	int st, p;
	double mag;
};

static int sig_order(const void *x, const void *y)
{
	const struct sig_ref *a = x, *b = y;

	if ((a->row->kind == CK_ALL) != (b->row->kind == CK_ALL))
		return a->row->kind == CK_ALL ? -1 : 1;
	return a->mag < b->mag ? 1 : a->mag > b->mag ? -1 : 0;
}

static void headline_sig(const struct cmp *c, FILE *out)
{
	struct sig_ref *refs = NULL;
	size_t n = 0, cap = 0;
	bool total_sig = false;
	char label[352], rel[96], d[32];

	for (size_t i = 0; i < c->nrows; i++)
		for (int st = 0; st < ST_COUNT; st++)
			for (int p = 0; p < CMP_NPCT; p++) {
				const struct cmp_q *q = &c->rows[i].st[st].q[p];

				if (!q->sig)
					continue;
				if (n == cap) {
					cap = cap ? 2 * cap : 64;
					refs = realloc(refs, cap * sizeof(*refs));
					if (!refs)
						return;
				}
				refs[n++] = (struct sig_ref){ &c->rows[i], st, p, fabs(q->rel) };
				total_sig |= c->rows[i].kind == CK_ALL;
			}
	if (!total_sig)
		fprintf(out, "  total: no significant change in any stage's percentiles\n");
	if (n)
		qsort(refs, n, sizeof(*refs), sig_order);
	for (size_t i = 0; i < n && i < MAX_SIG_LINES; i++) {
		const struct cmp_q *q = &refs[i].row->st[refs[i].st].q[refs[i].p];

		row_label(refs[i].row, label, sizeof(label));
		cmp_fmt_rel(q, rel, sizeof(rel));
		cmp_fmt_ns(q->delta, d, sizeof(d), true);
		fprintf(out, "  %s: %s %s %s, %s\n", label, stage_names[refs[i].st], cmp_pct_names[refs[i].p],
			rel, d);
	}
	if (n > MAX_SIG_LINES)
		fprintf(out, "  ... and %zu more significant changes (tables below)\n", n - MAX_SIG_LINES);
	if (!n)
		fprintf(out, "  no significant change in any breakdown either\n");
	free(refs);
}

static void fmt_v(uint64_t n, uint64_t v, char *buf, size_t len)
{
	if (!n)
		snprintf(buf, len, "-");
	else
		cmp_fmt_ns((double)v, buf, len, false);
}

static void row_table(const struct cmp *c, const struct cmp_row *r, FILE *out)
{
	char label[352], b[32], a[32], d[32];

	row_label(r, label, sizeof(label));
	fprintf(out, "\n== %s ==  before: %" PRIu64 " I/Os, %.0f IOPS, %.2f MB/s;  after: %" PRIu64
		" I/Os, %.0f IOPS, %.2f MB/s\n", label, r->set[0].ios, iops(c, &r->set[0], 0),
		mbps(c, &r->set[0], 0), r->set[1].ios, iops(c, &r->set[1], 1), mbps(c, &r->set[1], 1));
	fprintf(out, "%-5s %-6s %11s %11s %12s %9s  %-22s\n", "STAGE", "STAT", "BEFORE", "AFTER", "DELTA",
		"CHANGE", "95% CI / SIGNIFICANT");
	for (int st = 0; st < ST_COUNT; st++) {
		const struct cmp_stage *s = &r->st[st];

		if (!s->n_b && !s->n_a)
			continue;
		fprintf(out, "%-5s %-6s %11" PRIu64 " %11" PRIu64 " %+12" PRId64 " %8.1f%%\n", stage_names[st],
			"N", s->n_b, s->n_a, (int64_t)s->n_a - (int64_t)s->n_b,
			s->n_b ? ((double)s->n_a / (double)s->n_b - 1) * 100 : 0.0);
		for (int p = 0; p <= CMP_NPCT; p++) {
			const struct cmp_q *q = p < CMP_NPCT ? &s->q[p] : NULL;
			uint64_t vb = q ? q->b : s->max_b, va = q ? q->a : s->max_a;
			double rel = vb ? (double)va / (double)vb - 1 : 0;

			fmt_v(s->n_b, vb, b, sizeof(b));
			fmt_v(s->n_a, va, a, sizeof(a));
			if (s->n_b && s->n_a)
				cmp_fmt_ns((double)va - (double)vb, d, sizeof(d), true);
			else
				snprintf(d, sizeof(d), "-");
			fprintf(out, "%-5s %-6s %11s %11s %12s", stage_names[st], q ? cmp_pct_names[p] : "max",
				b, a, d);
			if (s->n_b && s->n_a)
				fprintf(out, " %8.1f%%", rel * 100);
			if (q && q->tested)
				fprintf(out, "  %+.1f..%+.1f%%%s", q->rel_lo * 100, q->rel_hi * 100,
					q->sig ? "  *" : "");
			else if (q && s->n_b && s->n_a)
				fprintf(out, "  (too few samples)");
			fprintf(out, "\n");
		}
	}
}

void cmp_text(const struct cmp *c, FILE *out)
{
	for (int i = 0; i < 2; i++) {
		const struct cmp_row *all = cmp_find_row(c, "");

		fprintf(out, "%s %s: %" PRIu64 " I/Os over %.3f s\n", i ? "after: " : "before:", c->side[i].path,
			all ? all->set[i].ios : 0, cmp_duration_s(&c->side[i]));
	}
	cmp_health_text(c, out);
	fprintf(out, "\nWhere it moved (means of the lowest 99%%; docs/compare.md):\n");
	headline_where(c, out);
	headline_rate(c, out);
	fprintf(out, "\nSignificant percentile changes (95%% intervals; '*' = significant after "
		"Bonferroni over %zu comparisons and >= %.1f%%):\n", c->ntested, 200 * CMP_SKETCH_ERR);
	headline_sig(c, out);
	for (size_t i = 0; i < c->nrows; i++)
		row_table(c, &c->rows[i], out);
}
