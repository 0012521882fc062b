// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_html.c - one self-contained page: the headline, per stage the two
 * sides' CDFs overlaid (log latency axis, drawn from the sketches), the
 * total's Q2C p50 and p99 over time for both sides aligned at their first
 * event, and the total's delta table.  Plain inline SVG, no script.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bs_escape.h"
#include "bs_outfile.h"
#include "compare.h"
#include "report/report.h"
#include "report/report.h"
#include "report/timeseries.h"

#define W 640
#define H 260
#define ML 60	/* left margin */
#define MB 30	/* bottom margin */

static const char *const side_color[2] = { "#1f77b4", "#e6550d" };

struct cdf_ctx {
	FILE *f;
	double n, cum, lx0, lx1;
	bool first;
};

static double xpos(double lx, double lx0, double lx1)
{
	return ML + (lx - lx0) / (lx1 - lx0) * (W - ML - 10);
}

static void cdf_point(void *ctx, uint64_t mid, uint64_t count)
{
	struct cdf_ctx *c = ctx;
	double x = xpos(log10((double)(mid ? mid : 1)), c->lx0, c->lx1);

	/* a step: up at this value */
	fprintf(c->f, "%s%.1f,%.1f ", c->first ? "" : "L", x, (H - MB) - c->cum / c->n * (H - MB - 10));
	c->cum += (double)count;
	fprintf(c->f, "L%.1f,%.1f ", x, (H - MB) - c->cum / c->n * (H - MB - 10));
	c->first = false;
}

static void log_axis(FILE *f, double lx0, double lx1)
{
	for (int e = (int)floor(lx0); e <= (int)ceil(lx1); e++) {
		char lab[32];
		double x;

		if (e < lx0 || e > lx1)
			continue;
		x = xpos(e, lx0, lx1);
		cmp_fmt_ns(pow(10, e), lab, sizeof(lab), false);
		fprintf(f, "<line x1='%.1f' y1='10' x2='%.1f' y2='%d' stroke='#ddd'/>"
			"<text x='%.1f' y='%d' font-size='10' text-anchor='middle'>%s</text>\n",
			x, x, H - MB, x, H - MB + 14, lab);
	}
}

static void cdf_svg(FILE *f, const struct cmp_row *all, int st)
{
	struct sketch one[2];
	const struct sketch *s[2] = { lat_stage(&all->set[0], st, &one[0]), lat_stage(&all->set[1], st, &one[1]) };
	double lo = 1e300, hi = 0;

	for (int i = 0; i < 2; i++)
		if (s[i]->n) {
			lo = fmin(lo, (double)(s[i]->min ? s[i]->min : 1));
			hi = fmax(hi, (double)s[i]->max);
		}
	if (hi <= 0)
		return;
	if (hi <= lo * 1.01)
		hi = lo * 10;
	fprintf(f, "<h3>%s</h3>\n<svg width='%d' height='%d' xmlns='http://www.w3.org/2000/svg'>\n"
		"<rect x='%d' y='10' width='%d' height='%d' fill='none' stroke='#999'/>\n",
		stage_names[st], W, H, ML, W - ML - 10, H - MB - 10);
	log_axis(f, log10(lo), log10(hi));
	for (int y = 0; y <= 4; y++)
		fprintf(f, "<text x='%d' y='%.1f' font-size='10' text-anchor='end'>%d%%</text>\n", ML - 4,
			(H - MB) - y / 4.0 * (H - MB - 10) + 3, y * 25);
	for (int i = 0; i < 2; i++) {
		struct cdf_ctx c = { f, (double)s[i]->n, 0, log10(lo), log10(hi), true };

		if (!s[i]->n)
			continue;
		fprintf(f, "<path fill='none' stroke='%s' stroke-width='1.5' d='M", side_color[i]);
		sk_foreach(s[i], cdf_point, &c);
		fprintf(f, "'/>\n");
	}
	fprintf(f, "</svg>\n");
}

/* Q2C p50 and p99 per time bucket, x = seconds since the side's first busy bucket. */
static void time_svg(FILE *f, const struct cmp *c)
{
	double tmax = 0, lo = 1e300, hi = 0;
	size_t first[2] = { 0, 0 };

	for (int i = 0; i < 2; i++) {
		const struct timeseries *ts = &c->side[i].r->ts;
		bool seen = false;

		for (size_t b = 0; b < ts->nb; b++) {
			struct ts_cell cell;

			ts_cell_sum(ts, b, TS_ANY, TS_ANY, &cell);
			if (cell.q2c.n) {
				if (!seen)
					first[i] = b;
				seen = true;
				tmax = fmax(tmax, (double)(b + 1 - first[i]) * (double)ts->width / 1e9);
				lo = fmin(lo, (double)sk_quantile(&cell.q2c, 500000));
				hi = fmax(hi, (double)sk_quantile(&cell.q2c, 990000));
			}
			ts_cell_free(&cell);
		}
	}
	if (hi <= 0 || tmax <= 0)
		return;
	lo = fmax(lo, 1);
	if (hi <= lo * 1.01)
		hi = lo * 10;
	fprintf(f, "<h2>Q2C over time (p50 solid, p99 dashed), aligned at each trace's start</h2>\n"
		"<svg width='%d' height='%d' xmlns='http://www.w3.org/2000/svg'>\n"
		"<rect x='%d' y='10' width='%d' height='%d' fill='none' stroke='#999'/>\n"
		"<text x='%d' y='%d' font-size='10'>0 s</text><text x='%d' y='%d' font-size='10' "
		"text-anchor='end'>%.3g s</text>\n<text x='%d' y='20' font-size='10' text-anchor='end'>%.3g ms</text>"
		"<text x='%d' y='%d' font-size='10' text-anchor='end'>%.3g ms</text>\n",
		W, H, ML, W - ML - 10, H - MB - 10, ML, H - MB + 14, W - 10, H - MB + 14, tmax, ML - 4,
		hi / 1e6, ML - 4, H - MB, lo / 1e6);
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 2; k++) {
			const struct timeseries *ts = &c->side[i].r->ts;
			bool pen = false;

			fprintf(f, "<path fill='none' stroke='%s' stroke-width='1.2'%s d='", side_color[i],
				k ? " stroke-dasharray='4 3'" : "");
			for (size_t b = first[i]; b < ts->nb; b++) {
				struct ts_cell cell;

				ts_cell_sum(ts, b, TS_ANY, TS_ANY, &cell);
				if (cell.q2c.n) {
					double v = fmax((double)sk_quantile(&cell.q2c, k ? 990000 : 500000), lo);
					double t = (double)(b + 0.5 - (double)first[i]) * (double)ts->width / 1e9;
					double x = ML + t / tmax * (W - ML - 10);
					double y = (H - MB) - (log10(v) - log10(lo)) / (log10(hi) - log10(lo)) *
							      (H - MB - 20);

					fprintf(f, "%c%.1f,%.1f ", pen ? 'L' : 'M', x, y);
					pen = true;
				}
				ts_cell_free(&cell);
			}
			fprintf(f, "'/>\n");
		}
	fprintf(f, "</svg>\n");
}

static void table(FILE *f, const struct cmp_row *r)
{
	char b[32], a[32], d[32];

	fprintf(f, "<table><tr><th>stage</th><th>stat</th><th>before</th><th>after</th><th>delta</th>"
		"<th>change</th><th>95%% CI</th><th>significant</th></tr>\n");
	for (int st = 0; st < ST_COUNT; st++) {
		const struct cmp_stage *s = &r->st[st];

		if (!s->n_b || !s->n_a)
			continue;
		fprintf(f, "<tr><td>%s</td><td>N</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td></td><td></td>"
			"<td></td><td></td></tr>\n", stage_names[st], s->n_b, s->n_a);
		for (int p = 0; p < CMP_NPCT; p++) {
			const struct cmp_q *q = &s->q[p];

			cmp_fmt_ns((double)q->b, b, sizeof(b), false);
			cmp_fmt_ns((double)q->a, a, sizeof(a), false);
			cmp_fmt_ns(q->delta, d, sizeof(d), true);
			fprintf(f, "<tr%s><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%+.1f%%</td>",
				q->sig ? " class='sig'" : "", stage_names[st], cmp_pct_names[p], b, a, d,
				q->rel * 100);
			if (q->tested)
				fprintf(f, "<td>%+.1f..%+.1f%%</td>", q->rel_lo * 100, q->rel_hi * 100);
			else
				fprintf(f, "<td>too few samples</td>");
			fprintf(f, "<td>%s</td></tr>\n", q->sig ? "yes" : "no");
		}
	}
	fprintf(f, "</table>\n");
}

int cmp_html(const struct cmp *c, const char *path)
{
	const struct cmp_row *all = cmp_find_row(c, "");
	char *buf = NULL, *tables;
	size_t len = 0;
	FILE *mem, *f;

	f = report_create_file(path, c->o.force ? BS_CREATE_REPLACE : 0);
	if (!f)
		return -1;
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>blkscope compare</title>\n"
		"<style>body{font-family:sans-serif;margin:20px}table{border-collapse:collapse}"
		"td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}tr.sig{background:#fde0d0}"
		"pre{background:#f6f6f6;padding:8px;white-space:pre-wrap}</style></head><body>\n<h1>blkscope compare</h1>\n<p>"
		"<span style='color:%s'>&#9632; before</span>: ", side_color[0]);
	bs_xml_text(f, c->side[0].path);
	fprintf(f, " &nbsp; <span style='color:%s'>&#9632; after</span>: ", side_color[1]);
	bs_xml_text(f, c->side[1].path);
	fprintf(f, "</p>\n<h2>Headline</h2>\n<pre>");
	/* the text report: its headline here, its tables after the charts */
	mem = open_memstream(&buf, &len);
	if (mem) {
		cmp_text(c, mem);
		fclose(mem);
	}
	tables = buf ? strstr(buf, "\n== ") : NULL;
	if (tables)
		*tables++ = 0;
	if (buf)
		bs_xml_text(f, buf);
	fprintf(f, "</pre>\n");
	if (all) {
		fprintf(f, "<h2>Total: changes per stage</h2>\n");
		table(f, all);
		time_svg(f, c);
		fprintf(f, "<h2>Latency CDFs per stage (total)</h2>\n");
		for (int st = 0; st < ST_COUNT; st++)
			cdf_svg(f, all, st);
	}
	if (tables) {
		fprintf(f, "<h2>Every breakdown</h2>\n<pre>");
		bs_xml_text(f, tables);
		fprintf(f, "</pre>\n");
	}
	free(buf);
	fprintf(f, "</body></html>\n");
	return report_close_file(f, path);
}
