// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_html.c - one self-contained page, laid out as analyze's (its style:
 * a grid of charts as wide as the window allows, report/svg.h), drawn with
 * analyze's chart primitives (report/svg_plot.h: the same axes, round
 * ticks, "850ns 12.5µs 3.4ms" labels): the headline (where the latency
 * moved), the total's Q2C p50 and p99 over time for both sides aligned at
 * their first event, per stage the two CDFs overlaid on a log latency
 * axis, the significant changes with the interval the verdict uses, and
 * every breakdown's table (a row holding the same I/Os as one above is
 * named, not repeated).  No script.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bs_escape.h"
#include "bs_outfile.h"
#include "compare.h"
#include "report/report.h"
#include "report/svg_plot.h"
#include "report/ts_series.h"

static const char *const side_color[2] = { "#1f77b4", "#e6550d" };
static const char *const side_name[2] = { "before", "after" };

static void chart_open(FILE *f, const char *name, const char *title)
{
	struct svg_chart ch = { .dev = -1 };

	snprintf(ch.name, sizeof(ch.name), "%s", name);
	snprintf(ch.title, sizeof(ch.title), "%s", title);
	fprintf(f, "<figure id=\"chart-%s\">", name);
	svg_open(NULL, f, &ch);	/* not a time chart: no zoom, no report needed */
	svg_plot_begin(f, &ch);
}

static void chart_close(FILE *f)
{
	fputs("</svg></figure>\n", f);
}

/* ---- per stage: the two CDFs, x = latency (log), y = share of the I/Os ---- */

struct cdf_ctx {
	FILE *f;
	const struct svg_plot *p;
	double n, cum;
	bool first;
};

static void cdf_point(void *ctx, uint64_t mid, uint64_t count)
{
	struct cdf_ctx *c = ctx;
	double x = svg_px(c->p, log10((double)(mid ? mid : 1)));

	/* a step: up at this value */
	fprintf(c->f, "%s%.1f %.1f ", c->first ? "M" : "L", x, svg_py(c->p, c->cum / c->n));
	c->cum += (double)count;
	fprintf(c->f, "L%.1f %.1f ", x, svg_py(c->p, c->cum / c->n));
	c->first = false;
}

/*
 * Latency axis (x, log10 units): decades, plus 2 and 5 when the range is short; a share axis (y).
 */
static void cdf_axes(FILE *f, const struct svg_plot *p)
{
	static const int few[] = { 1, 2, 5 };
	int nm = p->x1 - p->x0 <= 2.01 ? 3 : 1;
	char buf[32];

	fputs("<g stroke=\"#e6e6e6\">\n", f);
	for (int k = 0; k <= 4; k++)
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n", SVG_LEFT,
			SVG_LEFT + SVG_PW, svg_py(p, k / 4.0), svg_py(p, k / 4.0));
	for (double e = floor(p->x0); e <= p->x1 + 1e-9; e++)
		for (int i = 0; i < nm; i++) {
			double lv = log10(few[i]) + e;

			if (lv >= p->x0 - 1e-9 && lv <= p->x1 + 1e-9)
				fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>\n",
					svg_px(p, lv), svg_px(p, lv), SVG_TOP, SVG_TOP + SVG_PH);
		}
	fputs("</g>\n<g fill=\"#333\" text-anchor=\"end\">\n", f);
	for (int k = 0; k <= 4; k++)
		fprintf(f, "<text x=\"%d\" y=\"%.1f\">%d%%</text>\n", SVG_LEFT - 4,
			svg_py(p, k / 4.0) + 4, k * 25);
	fputs("</g>\n<g fill=\"#333\" text-anchor=\"middle\">\n", f);
	for (double e = floor(p->x0); e <= p->x1 + 1e-9; e++)
		for (int i = 0; i < nm; i++) {
			double lv = log10(few[i]) + e;

			if (lv < p->x0 - 1e-9 || lv > p->x1 + 1e-9)
				continue;
			svg_fmt_ns(buf, sizeof(buf), pow(10, lv));
			fprintf(f, "<text x=\"%.1f\" y=\"%d\">%s</text>\n", svg_px(p, lv),
				SVG_TOP + SVG_PH + 16, buf);
		}
	fprintf(f,
		"</g>\n<text x=\"%d\" y=\"%d\" fill=\"#333\" text-anchor=\"middle\">latency (log "
		"scale)</text>\n"
		"<text x=\"12\" y=\"%d\" fill=\"#333\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 12 %d)\">"
		"I/Os at or below</text>\n",
		SVG_LEFT + SVG_PW / 2, SVG_H - 6, SVG_TOP + SVG_PH / 2, SVG_TOP + SVG_PH / 2);
}

static void cdf_chart(FILE *f, const struct cmp_row *all, int st)
{
	struct sketch one[2];
	const struct sketch *s[2] = { report_lat_stage(&all->set[0], st, &one[0]),
				      report_lat_stage(&all->set[1], st, &one[1]) };
	struct svg_plot p = { .y0 = 0, .y1 = 1 };
	double lo = INFINITY, hi = 0;
	char name[32], title[96];

	for (int i = 0; i < 2; i++)
		if (s[i]->n) {
			lo = fmin(lo, (double)(s[i]->min ? s[i]->min : 1));
			hi = fmax(hi, (double)s[i]->max);
		}
	if (!(hi > 0))
		return;
	/*
	 * whole decades around the values, with room: a step at a decade is not drawn on the axis
	 */
	p.x0 = floor(log10(lo * 0.9));
	p.x1 = ceil(log10(hi * 1.1));
	if (p.x1 <= p.x0)
		p.x1 = p.x0 + 1;
	snprintf(name, sizeof(name), "cdf-%s", report_stage_names[st]);
	snprintf(title, sizeof(title), "%s: latency CDF, before and after (total)",
		 report_stage_names[st]);
	chart_open(f, name, title);
	svg_plot_end(f);	/* the axes outside the clip */
	cdf_axes(f, &p);
	fprintf(f, "<g clip-path=\"url(#clip-%s)\">\n", name);
	for (int i = 0; i < 2; i++) {
		struct cdf_ctx c = { f, &p, (double)s[i]->n, 0, true };

		if (!s[i]->n)
			continue;
		fprintf(f,
			"<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
			"vector-effect=\"non-scaling-stroke\" d=\"",
			side_color[i]);
		sketch_foreach(s[i], cdf_point, &c);
		fprintf(f, "\"><title>%s: %" PRIu64 " I/Os</title></path>\n", side_name[i],
			s[i]->n);
	}
	fputs("</g>\n", f);
	svg_legend(f, side_name, side_color, 2, NULL);
	chart_close(f);
}

/* ---- the total's Q2C p50 and p99 per interval, x = s since each side's first busy one ---- */

/* side i's first interval with a completion; false if none */
static bool first_busy(const struct ts_series *ts, size_t *first)
{
	for (size_t b = 0; b < ts->nb; b++) {
		struct ts_cell cell;
		bool busy;

		ts_cell_sum(ts, b, TS_ANY, TS_ANY, &cell);
		busy = cell.q2c.n > 0;
		ts_cell_free(&cell);
		if (busy) {
			*first = b;
			return true;
		}
	}
	return false;
}

static void time_line(FILE *f, const struct svg_plot *p, const struct ts_series *ts, size_t first,
		      uint32_t ppm, const char *color, const char *dash)
{
	bool pen = false;

	fprintf(f,
		"<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
		"vector-effect=\"non-scaling-stroke\"%s%s%s d=\"",
		color, dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
	for (size_t b = first; b < ts->nb; b++) {
		struct ts_cell cell;

		ts_cell_sum(ts, b, TS_ANY, TS_ANY, &cell);
		if (cell.q2c.n) {
			double t = ((double)(b - first) + 0.5) * (double)ts->width / 1e9;

			fprintf(f, "%c%.1f %.1f ", pen ? 'L' : 'M', svg_px(p, t),
				svg_py(p, (double)sketch_quantile(&cell.q2c, ppm)));
			pen = true;
		} else {
			pen = false;
		}
		ts_cell_free(&cell);
	}
	fputs("\"/>\n", f);
}

static void time_chart(FILE *f, const struct cmp *c)
{
	static const char *const labels[4] = { "before p50", "before p99", "after p50",
					       "after p99" };
	const char *colors[4] = { side_color[0], side_color[0], side_color[1], side_color[1] };
	struct svg_plot p = { 0 };
	double lo = INFINITY, hi = 0, tmax = 0;
	size_t first[2] = { 0, 0 };
	bool any[2];

	for (int i = 0; i < 2; i++) {
		const struct ts_series *ts = report_series(c->side[i].r);

		any[i] = first_busy(ts, &first[i]);
		for (size_t b = first[i]; any[i] && b < ts->nb; b++) {
			struct ts_cell cell;

			ts_cell_sum(ts, b, TS_ANY, TS_ANY, &cell);
			if (cell.q2c.n) {
				tmax = fmax(tmax,
					    (double)(b + 1 - first[i]) * (double)ts->width / 1e9);
				lo = fmin(lo, (double)sketch_quantile(&cell.q2c, 500000));
				hi = fmax(hi, (double)sketch_quantile(&cell.q2c, 990000));
			}
			ts_cell_free(&cell);
		}
	}
	if (!(hi > 0) || !(tmax > 0))
		return;
	p.x1 = tmax;
	svg_log_range(&p, lo, hi);
	chart_open(f, "q2c-time",
		   "Q2C p50 (solid) and p99 (dashed) per interval, from each trace's start");
	for (int i = 0; i < 2; i++)
		if (any[i]) {
			time_line(f, &p, report_series(c->side[i].r), first[i], 500000,
				  side_color[i], NULL);
			time_line(f, &p, report_series(c->side[i].r), first[i], 990000,
				  side_color[i], "5 3");
		}
	svg_plot_end(f);
	svg_axes(f, &p, "Q2C", SVG_Y_NS);
	svg_legend(f, labels, colors, 4, NULL);
	chart_close(f);
}

/* ---- the headline and the tables ---- */

static void headline(FILE *f, const struct cmp *c)
{
	const struct cmp_row *all = cmp_find_row(c, "");
	struct cmp_where w;
	char d[32];

	cmp_where(c, &w);
	fputs("<section id=summary>\n<h2>Where it moved</h2>\n<ul>\n", f);
	if (w.have) {
		cmp_fmt_ns(w.q2c_delta, d, sizeof(d), true);
		fprintf(f, "<li>Q2C mean (of the lowest 99%%) %s (%+.1f%%)", d,
			all && all->st[BS_ST_Q2C].tmean_b > 0
				? w.q2c_delta / all->st[BS_ST_Q2C].tmean_b * 100
				: 0.0);
		if (w.top_stage >= 0) {
			cmp_fmt_ns(w.stage_delta[w.top_stage], d, sizeof(d), true);
			fprintf(f, ", of which %s is <b>%s</b>: %s", d,
				report_stage_names[w.top_stage], cmp_stage_blurb(w.top_stage));
		}
		fputs(".</li>\n", f);
	} else {
		fputs("<li>No Q2C on one side: nothing to split.</li>\n", f);
	}
	for (int i = 0; i < w.nshares; i++) {
		fprintf(f, "<li>%s ", cmp_kind_names[w.shares[i].row->kind]);
		bs_xml_text(f, w.shares[i].row->name);
		fprintf(f, ": %.1f%% &rarr; %.1f%% of the Q2C time (%+.1f points)</li>\n",
			w.shares[i].b * 100, w.shares[i].a * 100,
			(w.shares[i].a - w.shares[i].b) * 100);
	}
	if (all) {
		double d0 = cmp_duration_s(&c->side[0]), d1 = cmp_duration_s(&c->side[1]);
		double ib = d0 > 0 ? (double)all->set[0].completed / d0 : 0,
		       ia = d1 > 0 ? (double)all->set[1].completed / d1 : 0;
		double mb = d0 > 0 ? (double)all->set[0].bytes / d0 / 1e6 : 0,
		       ma = d1 > 0 ? (double)all->set[1].bytes / d1 / 1e6 : 0;

		fprintf(f,
			"<li>Throughput: %.0f &rarr; %.0f IOPS (%+.1f%%), %.2f &rarr; %.2f MB/s "
			"(%+.1f%%).</li>\n",
			ib, ia, ib > 0 ? (ia / ib - 1) * 100 : 0.0, mb, ma,
			mb > 0 ? (ma / mb - 1) * 100 : 0.0);
	}
	fputs("</ul>\n</section>\n", f);
}

/*
 * Every significant change, total first, then by size, with the interval the verdict is read from.
 */
static void significant(FILE *f, const struct cmp *c, const size_t *first)
{
	struct cmp_sig *sig;
	size_t n = cmp_significant(c, first, &sig);
	char a[32], b[32], d[32], label[400];

	fprintf(f,
		"<h2>Significant changes</h2>\n<p class=note>Intervals: 95%% for all %zu compared "
		"percentiles "
		"together (Bonferroni), the interval the verdict is read from; a change is "
		"significant when its "
		"interval excludes 0 and it is at least %.1f%% (docs/compare.md).</p>\n",
		c->ntested, 200 * CMP_SKETCH_ERR);
	if (!n) {
		fputs("<p>No significant change in any breakdown.</p>\n", f);
		return;
	}
	fputs("<div "
	      "class=tw><table><tr><th>where</th><th>stage</th><th>stat</th><th>before</"
	      "th><th>after</th>"
	      "<th>delta</th><th>change</th><th>interval</th></tr>\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		const struct cmp_q *q = &sig[i].row->st[sig[i].st].q[sig[i].p];

		cmp_label(c, first, (size_t)(sig[i].row - c->rows), label, sizeof(label));
		cmp_fmt_ns((double)q->b, b, sizeof(b), false);
		cmp_fmt_ns((double)q->a, a, sizeof(a), false);
		cmp_fmt_ns(q->delta, d, sizeof(d), true);
		fputs("<tr><th>", f);
		bs_xml_text(f, label);
		fprintf(f,
			"</th><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%+.1f%%</"
			"td>"
			"<td>%+.1f..%+.1f%%</td></tr>\n",
			report_stage_names[sig[i].st], cmp_pct_names[sig[i].p], b, a, d,
			q->rel * 100, q->jrel_lo * 100, q->jrel_hi * 100);
	}
	fputs("</table></div>\n", f);
	free(sig);
}

static void stage_table_rows(FILE *f, const struct cmp_stage *s, int st)
{
	char b[32], a[32], d[32];

	fprintf(f,
		"<tr><th>%s</th><td>N</td><td>%" PRIu64 "</td><td>%" PRIu64
		"</td><td></td><td>%s</td>"
		"<td></td></tr>\n",
		report_stage_names[st], s->n_b, s->n_a,
		!s->n_b		  ? "new: only after"
			: !s->n_a ? "gone: only before"
				  : "");
	if (!s->n_b || !s->n_a)
		return;
	for (int p = 0; p < CMP_NPCT; p++) {
		const struct cmp_q *q = &s->q[p];

		cmp_fmt_ns((double)q->b, b, sizeof(b), false);
		cmp_fmt_ns((double)q->a, a, sizeof(a), false);
		cmp_fmt_ns(q->delta, d, sizeof(d), true);
		fprintf(f,
			"<tr%s><th>%s</th><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%+.1f%%</"
			"td>",
			q->sig ? " class=sig" : "", report_stage_names[st], cmp_pct_names[p], b, a,
			d, q->rel * 100);
		if (q->tested)
			fprintf(f, "<td>%+.1f..%+.1f%%%s</td></tr>\n", q->jrel_lo * 100,
				q->jrel_hi * 100, q->sig ? " *" : "");
		else
			fputs("<td class=na>too few samples</td></tr>\n", f);
	}
}

static void row_tables(FILE *f, const struct cmp *c, const size_t *first)
{
	char label[400];

	fputs("<h2>Every breakdown</h2>\n", f);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (first && first[i] != i)
			continue;	/* named in its equal's heading */
		cmp_label(c, first, i, label, sizeof(label));
		fputs("<h3>", f);
		bs_xml_text(f, label);
		fprintf(f,
			"</h3>\n<p class=note>before: %" PRIu64 " I/Os; after: %" PRIu64
			" I/Os</p>\n",
			r->set[0].ios, r->set[1].ios);
		fputs("<div "
		      "class=tw><table><tr><th>stage</th><th>stat</th><th>before</th><th>after</th>"
		      "<th>delta</th><th>change</th><th>interval / significant</th></tr>\n",
		      f);
		for (int st = 0; st < BS_ST_COUNT; st++)
			if (r->st[st].n_b || r->st[st].n_a)
				stage_table_rows(f, &r->st[st], st);
		fputs("</table></div>\n", f);
	}
}

int cmp_html(const struct cmp *c, const char *path)
{
	const struct cmp_row *all = cmp_find_row(c, "");
	size_t *first;
	FILE *f;

	f = report_create_file(path, c->o.force ? BS_CREATE_REPLACE : 0, &c->msg);
	if (!f)
		return -1;
	first = cmp_first_of_same(c);
	fprintf(f,
		"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
		"<title>blkscope compare</title><style>%str.sig td{background:#fde0d0}"
		"h3{font-size:14px;margin:12px 0 4px}</style></head><body>\n<h1>blkscope "
		"compare</h1>\n<p class=note>",
		svg_page_css);
	for (int i = 0; i < 2; i++) {
		fprintf(f, "%s<span class=sw style=\"background:%s\"></span>%s: ", i ? "; " : "",
			side_color[i], side_name[i]);
		bs_xml_text(f, c->side[i].path);
		fprintf(f, " (%" PRIu64 " I/Os over %.3f s)", all ? all->set[i].ios : 0,
			cmp_duration_s(&c->side[i]));
	}
	fputs("</p>\n", f);
	cmp_health_html(c, f);
	headline(f, c);
	if (all) {
		/* latency first: the whole Q to C, the device, the block layer, then its parts */
		static const int order[BS_ST_COUNT] = { BS_ST_Q2C, BS_ST_D2C, BS_ST_Q2D,
							BS_ST_Q2G, BS_ST_G2I, BS_ST_I2D };

		fputs("<div class=grid>\n", f);
		time_chart(f, c);
		for (int k = 0; k < BS_ST_COUNT; k++)
			cdf_chart(f, all, order[k]);
		fputs("</div>\n", f);
	}
	significant(f, c, first);
	row_tables(f, c, first);
	free(first);
	fputs("</body></html>\n", f);
	return report_close_file(f, path, &c->msg);
}
