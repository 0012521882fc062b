// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_gate.c - --fail-if for CI.  A condition holds when the percentile's
 * change passes the threshold (relative: after/before - 1; absolute: after
 * - before, in ns) AND the change is significant (cmp_stats.c): noise never
 * fails a build.  Each condition that holds is one message (c->msg: stderr).  A
 * condition naming a breakdown neither trace has cannot be evaluated: that
 * is an error (exit 1), not a pass.
 */
#include "bs_stream.h"
#include "compare.h"

int cmp_cond_holds(const struct cmp *c, const struct cmp_cond *k, const struct cmp_q **qp)
{
	const struct cmp_row *row = cmp_find_row(c, k->prefix);
	const struct cmp_q *q;
	double x;

	if (!row)
		return -1;
	q = &row->st[k->stage].q[k->pct];
	*qp = q;
	if (!row->st[k->stage].n_b || !row->st[k->stage].n_a)
		return 0;
	x = k->relative ? q->rel : q->delta;
	return (k->less ? x < k->value : x > k->value) && q->sig;
}

int cmp_gate(const struct cmp *c, struct bs_err *err)
{
	int held = 0;
	char rel[96], d[32];

	if (c->o.nconds && c->no_verdict) {
		return bs_err_set(err, 0,
				  "--fail-if cannot judge: events were lost or an input is damaged "
				  "(the report says which side)");
	}

	for (int i = 0; i < c->o.nconds; i++) {
		const struct cmp_cond *k = &c->o.conds[i];
		const struct cmp_q *q = NULL;
		int h = cmp_cond_holds(c, k, &q);

		if (h < 0)
			return bs_err_set(err, 0,
					  "--fail-if '%s': no breakdown named '%s' in either trace",
					  k->text, k->prefix);
		if (!h)
			continue;
		cmp_fmt_rel(q, rel, sizeof(rel));
		cmp_fmt_ns(q->delta, d, sizeof(d), true);
		bs_msg(&c->msg, BS_MSG_INFO, "fail-if '%s' holds: %s%s%s %s %s, %s", k->text,
		       k->prefix, k->prefix[0] ? " " : "", report_stage_names[k->stage],
		       cmp_pct_names[k->pct], rel, d);
		held++;
	}
	return held;
}
