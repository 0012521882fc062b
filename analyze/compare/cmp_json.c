// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_json.c - the comparison as JSON (schema "blkscope-compare", version
 * CMP_SCHEMA_VERSION, described in docs/compare.md): the method's
 * parameters, both sides, where it moved, every row with every stage's
 * percentiles, changes and intervals, and the --fail-if conditions.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "bs_escape.h"
#include "bs_outfile.h"
#include "compare.h"
#include "report/report.h"

/* finite doubles only: JSON has no NaN */
static void jnum(FILE *f, double v)
{
	if (v != v || v > 1e300 || v < -1e300)
		fprintf(f, "null");
	else
		fprintf(f, "%.6g", v);
}

static void side_counts(FILE *f, const struct cmp *c, const struct report_lat *ls, int side)
{
	double d = cmp_duration_s(&c->side[side]);

	fprintf(f, "{\"ios\":%" PRIu64 ",\"completed\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"iops\":",
		ls->ios, ls->completed, ls->bytes);
	jnum(f, d > 0 ? (double)ls->completed / d : 0);
	fprintf(f, ",\"mb_per_s\":");
	jnum(f, d > 0 ? (double)ls->bytes / d / 1e6 : 0);
	fputc('}', f);
}

static void stage_json(FILE *f, const struct cmp_stage *s)
{
	fprintf(f, "{\"n\":[%" PRIu64 ",%" PRIu64 "],\"mean_ns\":[", s->n_b, s->n_a);
	jnum(f, s->mean_b);
	fputc(',', f);
	jnum(f, s->mean_a);
	fprintf(f, "],\"trimmed_mean_ns\":[");
	jnum(f, s->tmean_b);
	fputc(',', f);
	jnum(f, s->tmean_a);
	fprintf(f, "],\"max_ns\":[%" PRIu64 ",%" PRIu64 "]", s->max_b, s->max_a);
	for (int p = 0; p < CMP_NPCT; p++) {
		const struct cmp_q *q = &s->q[p];

		fprintf(f,
			",\"%s\":{\"before_ns\":%" PRIu64 ",\"after_ns\":%" PRIu64 ",\"delta_ns\":",
			cmp_pct_names[p], q->b, q->a);
		jnum(f, q->delta);
		fprintf(f, ",\"rel\":");
		jnum(f, q->rel);
		if (q->tested) {
			fprintf(f, ",\"ci\":[");
			jnum(f, q->rel_lo);
			fputc(',', f);
			jnum(f, q->rel_hi);
			fprintf(f, "],\"joint_ci\":[");
			jnum(f, q->jrel_lo);
			fputc(',', f);
			jnum(f, q->jrel_hi);
			fputc(']', f);
		} else {
			fprintf(f, ",\"ci\":null,\"joint_ci\":null");
		}
		fprintf(f, ",\"significant\":%s}", q->sig ? "true" : "false");
	}
	fputc('}', f);
}

static void row_json(FILE *f, const struct cmp *c, const struct cmp_row *r)
{
	bool first = true;

	fprintf(f, "{\"kind\":\"%s\",\"name\":", cmp_kind_names[r->kind]);
	bs_json_string(f, r->name);
	if (r->name_a[0]) {
		fprintf(f, ",\"after_name\":");
		bs_json_string(f, r->name_a);
	}
	fprintf(f, ",\"before\":");
	side_counts(f, c, &r->set[0], 0);
	fprintf(f, ",\"after\":");
	side_counts(f, c, &r->set[1], 1);
	fprintf(f, ",\"stages\":{");
	for (int st = 0; st < BS_ST_COUNT; st++) {
		if (!r->st[st].n_b && !r->st[st].n_a)
			continue;
		fprintf(f, "%s\"%s\":", first ? "" : ",", report_stage_names[st]);
		stage_json(f, &r->st[st]);
		first = false;
	}
	fprintf(f, "}}");
}

static void where_json(FILE *f, const struct cmp *c)
{
	struct cmp_where w;

	cmp_where(c, &w);
	fprintf(f, "\"where\":{\"trim\":");
	jnum(f, CMP_TRIM);
	fprintf(f, ",\"q2c_mean_delta_ns\":");
	if (w.have)
		jnum(f, w.q2c_delta);
	else
		fprintf(f, "null");
	fprintf(f, ",\"stage_mean_delta_ns\":{");
	for (int st = 0; st < BS_ST_COUNT; st++) {
		fprintf(f, "%s\"%s\":", st ? "," : "", report_stage_names[st]);
		jnum(f, w.stage_delta[st]);
	}
	fprintf(f, "},\"top_stage\":");
	if (w.top_stage >= 0)
		fprintf(f, "\"%s\"", report_stage_names[w.top_stage]);
	else
		fprintf(f, "null");
	fprintf(f, ",\"shares\":[");
	for (int i = 0; i < w.nshares; i++) {
		fprintf(f, "%s{\"kind\":\"%s\",\"name\":", i ? "," : "",
			cmp_kind_names[w.shares[i].row->kind]);
		bs_json_string(f, w.shares[i].row->name);
		fprintf(f, ",\"before\":");
		jnum(f, w.shares[i].b);
		fprintf(f, ",\"after\":");
		jnum(f, w.shares[i].a);
		fputc('}', f);
	}
	fprintf(f, "]}");
}

int cmp_json(const struct cmp *c, const char *path)
{
	FILE *f = report_create_file(path, c->o.force ? BS_CREATE_REPLACE : 0, &c->msg);

	if (!f)
		return -1;
	fprintf(f,
		"{\"schema\":\"blkscope-compare\",\"version\":%d,\"method\":{\"interval\":\"order-"
		"statistic\","
		"\"confidence\":0.95,\"sketch_relative_error\":",
		CMP_SCHEMA_VERSION);
	jnum(f, CMP_SKETCH_ERR);
	fprintf(f, ",\"min_effect\":");
	jnum(f, 2 * CMP_SKETCH_ERR);
	fprintf(f, ",\"comparisons\":%zu,\"z_ci\":", c->ntested);
	jnum(f, c->z_ci);
	fprintf(f, ",\"z_significance\":");
	jnum(f, c->z_sig);
	fprintf(f, ",\"verdict\":%s", c->no_verdict ? "false" : "true");
	fprintf(f, "},\"sides\":[");
	for (int i = 0; i < 2; i++) {
		const struct cmp_side *s = &c->side[i];

		fprintf(f, "%s{\"role\":\"%s\",\"input\":", i ? "," : "", i ? "after" : "before");
		bs_json_string(f, s->path);
		fprintf(f,
			",\"first_ns\":%" PRIu64 ",\"last_ns\":%" PRIu64 ",\"batch_means_phi\":{",
			s->t0, s->t1);
		for (int p = 0; p < CMP_NPCT; p++) {
			fprintf(f, "%s\"%s\":", p ? "," : "", cmp_pct_names[p]);
			jnum(f, s->phi[p]);
		}
		fputc('}', f);
		cmp_health_json(s, f);
		fputc('}', f);
	}
	fprintf(f, "],");
	where_json(f, c);
	fprintf(f, ",\"rows\":[");
	for (size_t i = 0; i < c->nrows; i++) {
		if (i)
			fputc(',', f);
		row_json(f, c, &c->rows[i]);
	}
	fprintf(f, "],\"fail_if\":[");
	for (int i = 0; i < c->o.nconds; i++) {
		const struct cmp_q *q = NULL;
		int h = cmp_cond_holds(c, &c->o.conds[i], &q);

		fprintf(f, "%s{\"expr\":", i ? "," : "");
		bs_json_string(f, c->o.conds[i].text);
		fprintf(f, ",\"holds\":%s}", h < 0 ? "null" : h ? "true" : "false");
	}
	fprintf(f, "]}\n");
	return report_close_file(f, path, &c->msg);
}
