// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_where.c - where the latency moved.  Means add up (a bio's Q2C is the
 * sum of its Q2G, G2I, I2D and D2C when it went through all of them), so
 * the total's mean Q2C change is split into the stages' mean changes and
 * the stage with the largest change of the same sign is named; quantiles
 * do not add, which is why this uses means.  The means are trimmed (the
 * lowest 99% of each stage): a handful of absurd latencies must not pick
 * the stage; trimmed means add up nearly, not exactly.  Then the processes
 * and groups whose share of the total (trimmed) Q2C time changed most.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

const char *cmp_stage_blurb(int stage)
{
	switch (stage) {
	case BS_ST_Q2G:
		return "waiting for a request (tags, allocation)";
	case BS_ST_G2I:
		return "plugging and merging before insert";
	case BS_ST_I2D:
		return "the I/O scheduler's queue, not the device";
	case BS_ST_D2C:
		return "after dispatch: the driver and device, with their own queueing, not the "
		       "scheduler's queue";
	}
	return "";
}

void cmp_fmt_ns(double ns, char *buf, size_t len, bool sign)
{
	double a = fabs(ns);
	const char *s = sign ? (ns < 0 ? "-" : "+") : (ns < 0 ? "-" : "");

	if (a < 1e3)
		snprintf(buf, len, "%s%.0f ns", s, a);
	else if (a < 1e6)
		snprintf(buf, len, "%s%.1f \u00b5s", s, a / 1e3);
	else if (a < 1e9)
		snprintf(buf, len, "%s%.2f ms", s, a / 1e6);
	else
		snprintf(buf, len, "%s%.3f s", s, a / 1e9);
}

/* "+38.0% (CI +31.2..+45.1%)": the joint (Bonferroni) interval, the one the verdict uses */
void cmp_fmt_rel(const struct cmp_q *q, char *buf, size_t len)
{
	if (!q->tested)
		snprintf(buf, len, "%+.1f%% (too few samples for an interval)", q->rel * 100);
	else
		snprintf(buf, len, "%+.1f%% (CI %+.1f..%+.1f%%)", q->rel * 100, q->jrel_lo * 100,
			 q->jrel_hi * 100);
}

static int share_order(const void *x, const void *y)
{
	const struct cmp_share *a = x, *b = y;
	double da = fabs(a->a - a->b), db = fabs(b->a - b->b);

	return da < db ? 1 : da > db ? -1 : 0;
}

void cmp_where(const struct cmp *c, struct cmp_where *w)
{
	static const int parts[] = { BS_ST_Q2G, BS_ST_G2I, BS_ST_I2D, BS_ST_D2C };
	const struct cmp_row *all = cmp_find_row(c, "");
	struct cmp_share *sh;
	size_t nsh = 0;
	double tb, ta;

	memset(w, 0, sizeof(*w));
	w->top_stage = -1;
	if (!all || !all->st[BS_ST_Q2C].n_b || !all->st[BS_ST_Q2C].n_a)
		return;
	w->have = true;
	w->q2c_delta = all->st[BS_ST_Q2C].tmean_a - all->st[BS_ST_Q2C].tmean_b;
	for (int st = 0; st < BS_ST_COUNT; st++)
		if (all->st[st].n_b && all->st[st].n_a)
			w->stage_delta[st] = all->st[st].tmean_a - all->st[st].tmean_b;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		double d = w->stage_delta[parts[i]];

		if (d * w->q2c_delta > 0 &&
		    (w->top_stage < 0 || fabs(d) > fabs(w->stage_delta[w->top_stage])))
			w->top_stage = parts[i];
	}
	/* shares of the total (trimmed) Q2C time */
	tb = all->st[BS_ST_Q2C].tmean_b * (double)all->st[BS_ST_Q2C].n_b;
	ta = all->st[BS_ST_Q2C].tmean_a * (double)all->st[BS_ST_Q2C].n_a;
	sh = calloc(c->nrows ? c->nrows : 1, sizeof(*sh));
	if (!sh)
		return;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (r->kind != CK_PROC && r->kind != CK_GROUP && r->kind != CK_TAG &&
		    r->kind != CK_FILE)
			continue;
		sh[nsh].row = r;
		sh[nsh].b =
			tb > 0 ? r->st[BS_ST_Q2C].tmean_b * (double)r->st[BS_ST_Q2C].n_b / tb : 0;
		sh[nsh].a =
			ta > 0 ? r->st[BS_ST_Q2C].tmean_a * (double)r->st[BS_ST_Q2C].n_a / ta : 0;
		nsh++;
	}
	qsort(sh, nsh, sizeof(*sh), share_order);
	for (size_t i = 0; i < nsh && w->nshares < 3; i++)
		if (fabs(sh[i].a - sh[i].b) >= 0.005)	/* half a point: less is not worth a line */
			w->shares[w->nshares++] = sh[i];
	free(sh);
}
