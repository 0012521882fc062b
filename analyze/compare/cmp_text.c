// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_text.c - the terminal report: the headline first (where the latency
 * moved, which changes are significant), then one table per row (total,
 * devices, operations, processes, groups, tags) with every stage's N and
 * percentiles before and after, the change and its interval (the joint
 * one the verdict uses).  A row that holds the same I/Os as one above it
 * (the only device is the total) is named, not printed again; a stage
 * seen on one side only is "new" or "gone", not a change of 0%.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_escape.h"
#include "bs_hash.h"
#include "compare.h"

#define MAX_SIG_LINES 12

static double iops(const struct cmp *c, const struct report_lat *ls, int side)
{
	double d = cmp_duration_s(&c->side[side]);

	return d > 0 ? (double)ls->completed / d : 0;
}

static double mbps(const struct cmp *c, const struct report_lat *ls, int side)
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
	fprintf(out, "  throughput: %.0f -> %.0f IOPS (%+.1f%%), %.2f -> %.2f MB/s (%+.1f%%)\n", ib,
		ia, ib > 0 ? (ia / ib - 1) * 100 : 0.0, mb, ma, mb > 0 ? (ma / mb - 1) * 100 : 0.0);
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
		q2c_sig |= all->st[BS_ST_Q2C].q[p].sig;
	cmp_fmt_ns(w.q2c_delta, d, sizeof(d), true);
	fprintf(out, "  Q2C mean %s (%+.1f%%)", d,
		all->st[BS_ST_Q2C].tmean_b > 0 ? w.q2c_delta / all->st[BS_ST_Q2C].tmean_b * 100
					       : 0.0);
	if (w.top_stage >= 0) {
		cmp_fmt_ns(w.stage_delta[w.top_stage], s, sizeof(s), true);
		fprintf(out, ", of which %s is %s: %s", s, report_stage_names[w.top_stage],
			cmp_stage_blurb(w.top_stage));
	}
	fprintf(out, "%s\n", q2c_sig ? "" : "; no significant change in Q2C's percentiles");
	for (int i = 0; i < w.nshares; i++)
		fprintf(out, "  %s %s: %.1f%% -> %.1f%% of the Q2C time (%+.1f points)\n",
			cmp_kind_names[w.shares[i].row->kind],
			bs_term_safe(safe, sizeof(safe), w.shares[i].row->name),
			w.shares[i].b * 100, w.shares[i].a * 100,
			(w.shares[i].a - w.shares[i].b) * 100);
}

/* Two rows that hold the same I/Os: equal counts and every stage's figures, both sides. */
static bool same_numbers(const struct cmp_row *x, const struct cmp_row *y)
{
	for (int i = 0; i < 2; i++)
		if (x->set[i].ios != y->set[i].ios || x->set[i].completed != y->set[i].completed ||
		    x->set[i].bytes != y->set[i].bytes)
			return false;
	for (int st = 0; st < BS_ST_COUNT; st++) {
		const struct cmp_stage *a = &x->st[st], *b = &y->st[st];

		if (a->n_b != b->n_b || a->n_a != b->n_a || a->max_b != b->max_b ||
		    a->max_a != b->max_a)
			return false;
		for (int p = 0; p < CMP_NPCT; p++)
			if (a->q[p].b != b->q[p].b || a->q[p].a != b->q[p].a)
				return false;
	}
	return true;
}

/* A row's numbers in 64 bits (equal numbers, equal signature): the key of first_of_same()'s map. */
static uint64_t signature(const struct cmp_row *r)
{
	uint64_t h = 0;

	for (int i = 0; i < 2; i++)
		h = bs_hash_mix(h ^ r->set[i].ios ^ r->set[i].bytes << 1 ^
				r->set[i].completed << 2);
	for (int st = 0; st < BS_ST_COUNT; st++)
		h = bs_hash_mix(h ^ r->st[st].q[0].b ^ r->st[st].q[0].a << 1 ^
				r->st[st].max_b << 2 ^ r->st[st].max_a << 3);
	return h;
}

/*
 * first[i]: the first row of another kind with row i's numbers: the same
 * I/Os (rows of one kind hold different I/Os); i itself if none.  Hashed:
 * a trace may give 100k process rows.  Caller frees.
 */
size_t *cmp_first_of_same(const struct cmp *c)
{
	size_t *first = calloc(c->nrows + 1, sizeof(*first));
	struct bs_hash seen = { 0 };

	for (size_t i = 0; first && i < c->nrows; i++) {
		bool fresh;
		uint64_t *j = bs_hash_put(&seen, signature(&c->rows[i]), i, &fresh);

		first[i] = i;
		if (!fresh && c->rows[*j].kind != c->rows[i].kind &&
		    same_numbers(&c->rows[*j], &c->rows[i]))
			first[i] = (size_t)*j;
	}
	bs_hash_free(&seen);
	return first;
}

/* "total (= device 8,0 = operation write)": a row and those with the same numbers */
void cmp_label(const struct cmp *c, const size_t *first, size_t i, char *buf, size_t len)
{
	size_t n;

	row_label(&c->rows[i], buf, len);
	for (size_t j = i + 1; first && j < c->nrows && (n = strlen(buf)) + 8 < len; j++)
		if (first[j] == i) {
			char more[352];

			row_label(&c->rows[j], more, sizeof(more));
			snprintf(buf + n, len - n, " = %s", more);
		}
}

static int sig_order(const void *x, const void *y)
{
	const struct cmp_sig *a = x, *b = y;

	if ((a->row->kind == CK_ALL) != (b->row->kind == CK_ALL))
		return a->row->kind == CK_ALL ? -1 : 1;
	return a->mag < b->mag ? 1 : a->mag > b->mag ? -1 : 0;
}

size_t cmp_significant(const struct cmp *c, const size_t *first, struct cmp_sig **out)
{
	struct cmp_sig *refs = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < c->nrows; i++)
		for (int st = 0; st < BS_ST_COUNT && (!first || first[i] == i); st++)
			for (int p = 0; p < CMP_NPCT; p++) {
				const struct cmp_q *q = &c->rows[i].st[st].q[p];

				if (!q->sig)
					continue;
				if (n == cap) {
					cap = cap ? 2 * cap : 64;
					refs = bs_xreallocarray(refs, cap, sizeof(*refs));
				}
				refs[n++] = (struct cmp_sig){ &c->rows[i], st, p, fabs(q->rel) };
			}
	if (n)
		qsort(refs, n, sizeof(*refs), sig_order);
	*out = refs;
	return n;
}

static void headline_sig(const struct cmp *c, const size_t *first, FILE *out)
{
	struct cmp_sig *refs;
	size_t n = cmp_significant(c, first, &refs);
	char label[400], rel[96], d[32];

	if (!n || refs[0].row->kind != CK_ALL)
		fprintf(out, "  total: no significant change in any stage's percentiles\n");
	for (size_t i = 0; i < n && i < MAX_SIG_LINES; i++) {
		const struct cmp_q *q = &refs[i].row->st[refs[i].st].q[refs[i].p];

		cmp_label(c, first, (size_t)(refs[i].row - c->rows), label, sizeof(label));
		cmp_fmt_rel(q, rel, sizeof(rel));
		cmp_fmt_ns(q->delta, d, sizeof(d), true);
		fprintf(out, "  %s: %s %s %s, %s\n", label, report_stage_names[refs[i].st],
			cmp_pct_names[refs[i].p], rel, d);
	}
	if (n > MAX_SIG_LINES)
		fprintf(out, "  ... and %zu more significant changes (tables below)\n",
			n - MAX_SIG_LINES);
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

/* s right-aligned in w columns (UTF-8: "µs" is one column, two bytes) */
static void rcell(FILE *out, const char *s, int w)
{
	int cols = 0;

	for (const char *p = s; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	fprintf(out, " %*s%s", w > cols ? w - cols : 0, "", s);
}

static void stage_rows(const struct cmp_stage *s, int st, FILE *out)
{
	char b[32], a[32], d[32], nb[24], na[24], nd[24];
	bool both = s->n_b && s->n_a;

	snprintf(nb, sizeof(nb), "%" PRIu64, s->n_b);
	snprintf(na, sizeof(na), "%" PRIu64, s->n_a);
	snprintf(nd, sizeof(nd), "%+" PRId64, (int64_t)s->n_a - (int64_t)s->n_b);
	fprintf(out, "%-5s %-6s", report_stage_names[st], "N");
	rcell(out, nb, 11);
	rcell(out, na, 11);
	rcell(out, nd, 12);
	if (both)
		fprintf(out, " %8.1f%%\n", ((double)s->n_a / (double)s->n_b - 1) * 100);
	else	/* one side only: not a change of 0% */
		fprintf(out, "  %s\n", s->n_a ? "new: only after" : "gone: only before");
	for (int p = 0; p <= CMP_NPCT; p++) {
		const struct cmp_q *q = p < CMP_NPCT ? &s->q[p] : NULL;
		uint64_t vb = q ? q->b : s->max_b, va = q ? q->a : s->max_a;
		double rel = vb ? (double)va / (double)vb - 1 : 0;

		fmt_v(s->n_b, vb, b, sizeof(b));
		fmt_v(s->n_a, va, a, sizeof(a));
		if (both)
			cmp_fmt_ns((double)va - (double)vb, d, sizeof(d), true);
		else
			snprintf(d, sizeof(d), "-");
		fprintf(out, "%-5s %-6s", report_stage_names[st], q ? cmp_pct_names[p] : "max");
		rcell(out, b, 11);
		rcell(out, a, 11);
		rcell(out, d, 12);
		if (both)
			fprintf(out, " %8.1f%%", rel * 100);
		if (q && q->tested)
			fprintf(out, "  %+.1f..%+.1f%%%s", q->jrel_lo * 100, q->jrel_hi * 100,
				q->sig ? "  *" : "");
		else if (q && both)
			fprintf(out, "  (too few samples)");
		fputc('\n', out);
	}
}

static void row_table(const struct cmp *c, const size_t *first, size_t i, FILE *out)
{
	const struct cmp_row *r = &c->rows[i];
	char label[352], same[352];

	row_label(r, label, sizeof(label));
	if (first && first[i] != i) {	/* the one device is the total: one table is enough */
		row_label(&c->rows[first[i]], same, sizeof(same));
		fprintf(out, "\n== %s ==  the same I/Os as %s (table above)\n", label, same);
		return;
	}
	fprintf(out,
		"\n== %s ==  before: %" PRIu64 " I/Os, %.0f IOPS, %.2f MB/s;  after: %" PRIu64
		" I/Os, %.0f IOPS, %.2f MB/s\n",
		label, r->set[0].ios, iops(c, &r->set[0], 0), mbps(c, &r->set[0], 0), r->set[1].ios,
		iops(c, &r->set[1], 1), mbps(c, &r->set[1], 1));
	fprintf(out, "%-5s %-6s %11s %11s %12s %9s  %-22s\n", "STAGE", "STAT", "BEFORE", "AFTER",
		"DELTA", "CHANGE", "JOINT CI / SIGNIFICANT");
	for (int st = 0; st < BS_ST_COUNT; st++)
		if (r->st[st].n_b || r->st[st].n_a)
			stage_rows(&r->st[st], st, out);
}

void cmp_text(const struct cmp *c, FILE *out)
{
	size_t *first;

	for (int i = 0; i < 2; i++) {
		const struct cmp_row *all = cmp_find_row(c, "");

		fprintf(out, "%s %s: %" PRIu64 " I/Os over %.3f s\n",
			i ? "after: " : "before:", c->side[i].path, all ? all->set[i].ios : 0,
			cmp_duration_s(&c->side[i]));
	}
	cmp_health_text(c, out);
	fprintf(out, "\nWhere it moved (means of the lowest 99%%; docs/compare.md):\n");
	headline_where(c, out);
	headline_rate(c, out);
	fprintf(out,
		"\nSignificant percentile changes (CI: 95%% for all %zu compared percentiles "
		"together, "
		"Bonferroni, the interval the verdict uses; '*' = significant: it excludes 0 and "
		"the change is "
		">= %.1f%%):\n",
		c->ntested, 200 * CMP_SKETCH_ERR);
	first = cmp_first_of_same(c);
	headline_sig(c, first, out);
	for (size_t i = 0; i < c->nrows; i++)
		row_table(c, first, i, out);
	free(first);
}
