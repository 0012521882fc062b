// SPDX-License-Identifier: GPL-2.0
/*
 * svg_charts.c - the line charts (latency percentiles, where the latency
 * comes from (Q2D vs D2C), queue depth with the block layer's share,
 * throughput, IOPS, per op and per group), the latency histogram, the
 * list of charts a trace gets and svg_draw() (svg.h).  Values come from
 * the time series and the rollup of the report state.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_escape.h"
#include "iomodel/iom.h"
#include "report_priv.h"
#include "svg_plot.h"

enum {
	K_THROUGHPUT, K_IOPS, K_LATENCY, K_WAIT, K_DEPTH, K_HEATMAP, K_HIST, K_OFFSETS,
	K_G_THROUGHPUT, K_G_IOPS, K_G_LATENCY, K_G_DEPTH, K_G_HEATMAP,
};

#define MAX_OFFMAPS	4	/* offset-map charts: the busiest devices that have a map */
#define MAX_LINES	8
/* buckets: more get no per-bucket hover columns (the lines keep their titles) */
#define MAX_HOVER	200

enum metric {
	M_MBPS, M_IOPS, M_DEPTH, M_QUEUED, M_PENDING,
	M_Q2C_P50, M_Q2C_P99, M_Q2C_P999, M_D2C_P50, M_D2C_P99, M_Q2D_P50, M_Q2D_P99,
};

static double bucket_dur(const struct bs_report *r, size_t b)
{
	const struct ts_series *ts = &r->ts;
	uint64_t start = ts_bucket_start(ts, b), dur = ts->width;

	if (r->end_time > start && r->end_time - start < dur)
		dur = r->end_time - start;
	return dur ? (double)dur : 1.0;
}

/* A sketch's quantile as a chart value: NaN (a gap in the line) when it is empty. */
static double quantile_or_nan(const struct sketch *sk, uint32_t ppm)
{
	return sk->n ? (double)sketch_quantile(sk, ppm) : NAN;
}

/* values[b] of metric m over the series matching op_class and slot */
static double *metric(const struct bs_report *r, enum metric m, int op_class, int slot)
{
	const struct ts_series *ts = &r->ts;
	double *v = bs_xcalloc(ts->nb + 1, sizeof(double));
	size_t b;

	for (b = 0; b < ts->nb; b++) {
		struct ts_cell c;
		double d = bucket_dur(r, b);

		ts_cell_sum_all(ts, b, op_class, slot, &c);
		switch (m) {
		case M_MBPS: v[b] = c.bytes * 1e3 / d; break;
		case M_IOPS: v[b] = c.ios * 1e9 / d; break;
		case M_DEPTH: v[b] = c.inflight_ns / d; break;
		case M_QUEUED: v[b] = c.queued_ns / d; break;
		case M_PENDING: v[b] = (c.inflight_ns + c.queued_ns) / d; break;
		case M_Q2C_P50: v[b] = quantile_or_nan(&c.q2c, 500000); break;
		case M_Q2C_P99: v[b] = quantile_or_nan(&c.q2c, 990000); break;
		case M_Q2C_P999: v[b] = quantile_or_nan(&c.q2c, 999000); break;
		case M_D2C_P50: v[b] = quantile_or_nan(&c.d2c, 500000); break;
		case M_D2C_P99: v[b] = quantile_or_nan(&c.d2c, 990000); break;
		case M_Q2D_P50: v[b] = quantile_or_nan(&c.q2d, 500000); break;
		case M_Q2D_P99: v[b] = quantile_or_nan(&c.q2d, 990000); break;
		}
		ts_cell_free(&c);
	}
	return v;
}

static void range_of(double **vals, int nv, size_t n, double *lo, double *hi)
{
	int i;
	size_t b;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < nv; i++)
		for (b = 0; b < n; b++)
			if (!isnan(vals[i][b])) {
				if (vals[i][b] < *lo)
					*lo = vals[i][b];
				if (vals[i][b] > *hi)
					*hi = vals[i][b];
			}
}

/* What a line chart draws. */
struct lines {
	const char *ylabel;
	double *v[MAX_LINES];
	const char *label[MAX_LINES], *color[MAX_LINES], *dash[MAX_LINES];
	int n;
	bool logy, ns, hover;
	const char *note;	/* legend note: "8 busiest of 23 groups" */
};

static void value_text(char *buf, size_t len, double v, bool ns)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (ns)
		svg_fmt_ns(buf, len, v);
	else
		svg_fmt_num(buf, len, v, v >= 100 ? 1 : 0.01);
}

/*
 * Per bucket: "120ms-124ms: all 4123, read 2890" (the <title> of its hover
 * column).  Labels are cut at " (" and a label starting like the one
 * before drops the shared word ("Q2C p50 120µs, p99 416µs"): short text,
 * as there is one per bucket and chart.
 */
static char **hover_text(const struct bs_report *r, const struct lines *l)
{
	const struct ts_series *ts = &r->ts;
	char **t = bs_xcalloc(ts->nb + 1, sizeof(*t));
	size_t b, len;
	int i;

	for (b = 0; b < ts->nb; b++) {
		char a[32], z[32], v[32];
		FILE *m = open_memstream(&t[b], &len);

		if (!m)
			bs_xmalloc(SIZE_MAX);	/* out of memory: reported, aborts */
		svg_fmt_ns(a, sizeof(a), (double)ts_bucket_start(ts, b));
		svg_fmt_ns(z, sizeof(z), (double)ts_bucket_start(ts, b + 1));
		fprintf(m, "%s-%s:", a, z);
		for (i = 0; i < l->n; i++) {
			const char *lab = l->label[i], *sp = strchr(lab, ' ');
			int n = (int)strcspn(lab, "(");

			while (n > 0 && lab[n - 1] == ' ')
				n--;
			if (i && sp && !strncmp(lab, l->label[i - 1], (size_t)(sp - lab + 1))) {
				n -= (int)(sp + 1 - lab);
				lab = sp + 1;
			}
			value_text(v, sizeof(v), l->v[i][b], l->ns);
			fprintf(m, "%s %.*s %s", i ? "," : "", n, lab, v);
		}
		fclose(m);
	}
	return t;
}

/*
 * A dashed red line at each flight-recorder trigger in the chart's time range (report_trigger.c).
 */
static void trigger_marks(const struct bs_report *r, FILE *f, const struct svg_plot *p)
{
	const struct iom_health *h = r->health;
	uint32_t i;

	for (i = 0; h && i < h->ntriggers; i++) {
		const struct iom_trigger *tr = &h->triggers[i];
		double x = (double)tr->time / 1e9;
		char title[BS_TRIGGER_EXPR_MAX + 64];

		if (x < p->x0 || x > p->x1)
			continue;
		fprintf(f,
			"<line class=\"trig\" data-trigger=\"%u\" x1=\"%.1f\" y1=\"%d\" "
			"x2=\"%.1f\" y2=\"%d\" "
			"stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\" "
			"vector-effect=\"non-scaling-stroke\"><title>",
			tr->note.n, svg_px(p, x), SVG_TOP, svg_px(p, x), SVG_TOP + SVG_PH);
		snprintf(title, sizeof(title), "trigger #%u %s at %.6f s", tr->note.n,
			 tr->note.expr, x);
		bs_xml_text(f, title);
		fputs("</title></line>\n", f);
	}
}

/* A line chart; returns 1 if there was nothing to draw. */
static int line_chart(const struct bs_report *r, FILE *f, const struct svg_chart *c,
		      struct lines *l)
{
	size_t n = r->ts.nb, b;
	struct svg_plot p = { 0 };
	double lo, hi;
	int i;

	svg_time_plot(r, &p);
	range_of(l->v, l->n, n, &lo, &hi);
	if (!(hi > 0)) {
		p.y0 = 0;
		p.y1 = 1;
		svg_axes(f, &p, l->ylabel, SVG_Y_NUM);
		svg_no_data(f);
		return 1;
	}
	if (l->logy)
		svg_log_range(&p, lo, hi);
	else
		svg_lin_range(&p, hi);
	svg_axes(f, &p, l->ylabel, l->ns ? SVG_Y_NS : SVG_Y_NUM);
	svg_plot_begin(f, c);
	for (i = 0; i < l->n; i++) {
		char title[200], mean[32], top[32];
		double sum = 0, mx = 0;
		size_t k = 0;

		/* the line's own hover text: its mean and peak over the intervals */
		for (b = 0; b < n; b++)
			if (!isnan(l->v[i][b])) {
				sum += l->v[i][b];
				mx = l->v[i][b] > mx ? l->v[i][b] : mx;
				k++;
			}
		value_text(mean, sizeof(mean), k ? sum / k : NAN, l->ns);
		value_text(top, sizeof(top), k ? mx : NAN, l->ns);
		snprintf(title, sizeof(title), "%s: mean %s, peak %s (per interval)", l->label[i],
			 mean, top);
		svg_line(f, &p, &r->ts, l->v[i], n, l->color[i], l->dash[i], title);
	}
	/*
	 * hover columns cost ~130 bytes each: the latency charts only, and not for thousands of
	 * --interval buckets
	 */
	if (l->hover && n <= MAX_HOVER) {
		char **t = hover_text(r, l);

		svg_hover_cols(f, &p, &r->ts, t, n);
		for (b = 0; b < n; b++)
			free(t[b]);
		free(t);
	}
	trigger_marks(r, f, &p);
	svg_plot_end(f);
	svg_legend(f, l->label, l->color, l->n, l->note);
	return 0;
}

static void lines_free(struct lines *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
}

static void add_line(const struct bs_report *r, struct lines *l, enum metric m, int op_class,
		     int slot, const char *label, const char *color, const char *dash)
{
	l->v[l->n] = metric(r, m, op_class, slot);
	l->label[l->n] = label;
	l->color[l->n] = color;
	l->dash[l->n] = dash;
	l->n++;
}

/* all / read / write (/ other, when there is any) lines of one metric */
static int op_chart(const struct bs_report *r, FILE *f, const struct svg_chart *c, enum metric m,
		    const char *ylabel)
{
	struct lines l = { .ylabel = ylabel };
	size_t b;
	int rc;

	add_line(r, &l, m, TS_ANY, TS_ANY, "all", "#333333", NULL);
	add_line(r, &l, m, TS_READ, TS_ANY, "read", "#1f77b4", NULL);
	add_line(r, &l, m, TS_WRITE, TS_ANY, "write", "#d62728", NULL);
	add_line(r, &l, m, TS_OTHER, TS_ANY, "other", "#2ca02c", NULL);
	for (b = 0; b < r->ts.nb && l.n == 4; b++)
		if (l.v[3][b] > 0)
			break;
	if (b == r->ts.nb) {
		free(l.v[3]);
		l.n = 3;
	}
	rc = line_chart(r, f, c, &l);
	lines_free(&l);
	return rc;
}

static int latency_chart(const struct bs_report *r, FILE *f, const struct svg_chart *c)
{
	struct lines l = { .ylabel = "latency", .logy = true, .ns = true, .hover = true };
	int rc;

	add_line(r, &l, M_Q2C_P50, TS_ANY, TS_ANY, "Q2C p50", "#1f77b4", NULL);
	add_line(r, &l, M_Q2C_P99, TS_ANY, TS_ANY, "Q2C p99", "#ff7f0e", NULL);
	add_line(r, &l, M_Q2C_P999, TS_ANY, TS_ANY, "Q2C p99.9", "#d62728", NULL);
	add_line(r, &l, M_D2C_P50, TS_ANY, TS_ANY, "D2C p50", "#2ca02c", "5 3");
	add_line(r, &l, M_D2C_P99, TS_ANY, TS_ANY, "D2C p99", "#9467bd", "5 3");
	rc = line_chart(r, f, c, &l);
	lines_free(&l);
	return rc;
}

/* Where the latency comes from: waiting in the block layer (Q2D) vs the device (D2C). */
static int wait_chart(const struct bs_report *r, FILE *f, const struct svg_chart *c)
{
	struct lines l = { .ylabel = "latency", .logy = true, .ns = true, .hover = true };
	int rc;

	add_line(r, &l, M_Q2D_P50, TS_ANY, TS_ANY, "Q2D p50 (block layer)", "#e377c2", NULL);
	add_line(r, &l, M_Q2D_P99, TS_ANY, TS_ANY, "Q2D p99 (block layer)", "#8c564b", NULL);
	add_line(r, &l, M_D2C_P50, TS_ANY, TS_ANY, "D2C p50 (device)", "#2ca02c", "5 3");
	add_line(r, &l, M_D2C_P99, TS_ANY, TS_ANY, "D2C p99 (device)", "#9467bd", "5 3");
	rc = line_chart(r, f, c, &l);
	lines_free(&l);
	return rc;
}

/* Queue depth: bios in the block layer (Q to D), at the device (D to C), and both. */
static int depth_chart(const struct bs_report *r, FILE *f, const struct svg_chart *c)
{
	struct lines l = { .ylabel = "bios (average)", .hover = true };
	int rc;

	add_line(r, &l, M_PENDING, TS_ANY, TS_ANY, "all (Q to C)", "#333333", NULL);
	add_line(r, &l, M_QUEUED, TS_ANY, TS_ANY, "block layer (Q to D)", "#e377c2", NULL);
	add_line(r, &l, M_DEPTH, TS_ANY, TS_ANY, "device (D to C)", "#2ca02c", NULL);
	rc = line_chart(r, f, c, &l);
	lines_free(&l);
	return rc;
}

/* An index and its measure (I/Os, or --sort's), to sort busiest first (ties: lower index first). */
struct ranked {
	uint64_t ios;
	int idx;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->ios < y->ios ? 1 : x->ios > y->ios ? -1 : x->idx - y->idx;
}

int svg_top_groups(const struct bs_report *r, int *idx)
{
	struct ranked *all = bs_xcalloc(r->ngroup + 1, sizeof(*all));
	int n = 0, i;

	/*
	 * by the --sort measure, among the groups with a series (the slots go by the same measure)
	 */
	for (i = 0; i < (int)r->ngroup; i++)
		if (r->groups[i].set.ios && report_group_has_series(r, (size_t)i))
			all[n++] = (struct ranked){ report_measure(r, &r->groups[i].set), i };
	qsort(all, (size_t)n, sizeof(*all), cmp_ranked);
	if (n > SVG_TOP_GROUPS)
		n = SVG_TOP_GROUPS;
	for (i = 0; i < n; i++)
		idx[i] = all[i].idx;
	free(all);
	return n;
}

/* Groups with I/O at all */
static int groups_with_io(const struct bs_report *r)
{
	int n = 0;
	size_t i;

	for (i = 0; i < r->ngroup; i++)
		n += r->groups[i].set.ios > 0;
	return n;
}

static int group_chart(struct bs_report *r, FILE *f, const struct svg_chart *c, enum metric m,
		       const char *ylabel, bool logy)
{
	int idx[SVG_TOP_GROUPS], n = svg_top_groups(r, idx), i, rc, all = groups_with_io(r);
	struct lines l = { .ylabel = ylabel, .logy = logy, .ns = logy };
	char note[96];

	for (i = 0; i < n; i++)
		/*
		 * colored by rank: distinct in a chart, and the same in every chart and the table
		 */
		add_line(r, &l, m, TS_ANY, r->groups[idx[i]].slot, report_group_name(r, idx[i]),
			 svg_group_color(i), NULL);
	if (all > n) {
		snprintf(note, sizeof(note), "the %d of %d groups with the most %s shown", n, all,
			 report_sort_name(r));
		l.note = note;
	}
	rc = line_chart(r, f, c, &l);
	lines_free(&l);
	return rc;
}

/* Histogram bucket bounds: 1, 2, 5 x 10^k ns, so every label is round. */
static uint64_t hist_bound(int i)
{
	static const uint64_t m[] = { 1, 2, 5 };
	uint64_t v = m[i % 3];
	int k;

	for (k = 0; k < i / 3; k++)
		v *= 10;
	return v;
}

#define HIST_BUCKETS 58	/* 1ns .. 5e18ns */

/* D2C and Q2C latency distributions as bars, log count axis */
static int hist_chart(struct bs_report *r, FILE *f, const struct svg_chart *c)
{
	static const char *const labels[] = { "D2C", "Q2C" };
	static const char *const colors[] = { "#2ca02c", "#1f77b4" };
	const struct report_rollup *ru = report_rollup(r);
	uint64_t cnt[2][HIST_BUCKETS], max = 0;
	int i, k, first = -1, last = -1, n, every, maxlab = 0;
	struct svg_plot p = { 0 };
	struct sketch one;
	double bw, e;
	char buf[48];

	(void)c;
	for (k = 0; k < 2; k++)
		for (i = 0; i < HIST_BUCKETS; i++) {
			cnt[k][i] = sketch_count_range(
				report_lat_stage(&ru->all, k ? BS_ST_Q2C : BS_ST_D2C, &one),
				i ? hist_bound(i) : 0,
				i + 1 < HIST_BUCKETS ? hist_bound(i + 1) : UINT64_MAX);
			if (cnt[k][i]) {
				if (first < 0 || i < first)
					first = i;
				if (i > last)
					last = i;
				if (cnt[k][i] > max)
					max = cnt[k][i];
			}
		}
	fprintf(f, "<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#444\"/>\n", SVG_LEFT, SVG_TOP,
		SVG_TOP + SVG_PH, SVG_LEFT + SVG_PW);
	if (last < 0) {
		svg_no_data(f);
		return 1;
	}
	n = last - first + 1;
	bw = (double)SVG_PW / n;
	/*
	 * log count axis: one I/O still shows next to 60k; bottom at 0.5 so a count of 1 has a bar
	 */
	p.logy = true;
	p.y0 = log10(0.5);
	p.y1 = ceil(log10((double)max) + 1e-9);
	if (p.y1 < 1)
		p.y1 = 1;
	fputs("<g stroke=\"#e6e6e6\">\n", f);
	for (e = 0; e <= p.y1 + 1e-9; e++)
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n", SVG_LEFT,
			SVG_LEFT + SVG_PW, svg_py(&p, pow(10, e)), svg_py(&p, pow(10, e)));
	fputs("</g>\n<g fill=\"#333\" text-anchor=\"end\">\n", f);
	for (e = 0; e <= p.y1 + 1e-9; e++) {
		svg_fmt_num(buf, sizeof(buf), pow(10, e), 1);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\">%s</text>\n", SVG_LEFT - 4,
			svg_py(&p, pow(10, e)) + 4, buf);
	}
	/* x labels: bucket lower bounds, every `every` bucket so that they never overlap */
	for (i = first; i <= last; i++) {
		svg_fmt_ns(buf, sizeof(buf), (double)(i ? hist_bound(i) : 0));
		if ((int)strlen(buf) > maxlab)
			maxlab = (int)strlen(buf);
	}
	every = (int)ceil((maxlab * 6.5 + 8) / bw);
	if (every < 1)
		every = 1;
	fputs("</g>\n<g fill=\"#333\" text-anchor=\"start\">\n", f);
	for (i = first; i <= last; i++) {
		if ((i - first) % every)
			continue;
		svg_fmt_ns(buf, sizeof(buf), (double)(i ? hist_bound(i) : 0));
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">%s</text>\n", SVG_LEFT + (i - first) * bw + 1,
			SVG_TOP + SVG_PH + 16, buf);
	}
	fprintf(f,
		"</g>\n<text x=\"%d\" y=\"%d\" fill=\"#333\" text-anchor=\"middle\">latency "
		"(bucket lower "
		"bound; buckets 1-2-5 per decade)</text>\n",
		SVG_LEFT + SVG_PW / 2, SVG_H - 6);
	fprintf(f,
		"<text x=\"12\" y=\"%d\" fill=\"#333\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 12 %d)\">"
		"I/Os (log scale)</text>\n",
		SVG_TOP + SVG_PH / 2, SVG_TOP + SVG_PH / 2);
	for (k = 0; k < 2; k++) {
		fprintf(f, "<g fill=\"%s\">\n", colors[k]);
		for (i = first; i <= last; i++) {
			double y = svg_py(&p, (double)cnt[k][i]);
			char lo[32], hi[32];

			if (!cnt[k][i])
				continue;
			svg_fmt_ns(lo, sizeof(lo), (double)(i ? hist_bound(i) : 0));
			svg_fmt_ns(hi, sizeof(hi), (double)hist_bound(i + 1));
			fprintf(f,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\"><title>%s %s to %s: %" PRIu64
				" I/Os</title></rect>\n",
				SVG_LEFT + (i - first) * bw + bw * (0.1 + 0.4 * k), y, bw * 0.4,
				SVG_TOP + SVG_PH - y, labels[k], lo, hi, cnt[k][i]);
		}
		fputs("</g>\n", f);
	}
	svg_legend(f, labels, colors, 2, NULL);
	return 0;
}

/* ---- the chart list ---- */

static void add(struct svg_chart *out, int max, int *n, int kind, int arg, const char *name,
		const char *title)
{
	if (*n >= max)
		return;
	out[*n].kind = kind;
	out[*n].arg = arg;
	out[*n].dev = kind == K_OFFSETS ? arg : -1;
	out[*n].time = kind != K_HIST;
	snprintf(out[*n].name, sizeof(out[*n].name), "%s", name);
	snprintf(out[*n].title, sizeof(out[*n].title), "%s", title);
	(*n)++;
}

int svg_charts(struct bs_report *r, struct svg_chart *out, int max)
{
	const struct report_rollup *ru = report_rollup(r);
	struct ranked *order;
	char name[48], title[96], dn[32];
	int n = 0, i, nd = 0;

	/* latency first: how slow, where the time goes, how much was waiting */
	add(out, max, &n, K_LATENCY, 0, "latency", "Latency percentiles per interval (Q2C, D2C)");
	add(out, max, &n, K_WAIT, 0, "q2d-d2c",
	    "Where latency comes from: block layer (Q2D) vs device (D2C)");
	add(out, max, &n, K_DEPTH, 0, "queue-depth",
	    "Queue depth: bios in the block layer and at the device");
	add(out, max, &n, K_HEATMAP, 0, "heatmap", "Latency heatmap (time x log latency)");
	add(out, max, &n, K_HIST, 0, "histogram", "Latency histogram (all I/Os)");
	add(out, max, &n, K_THROUGHPUT, 0, "throughput", "Throughput (MB/s, by completion time)");
	add(out, max, &n, K_IOPS, 0, "iops", "IOPS (completions per second)");
	if (r->groups_used) {
		add(out, max, &n, K_G_HEATMAP, 0, "latency-heatmap-groups",
		    "Q2C p99 per interval, by group");
		add(out, max, &n, K_G_LATENCY, 0, "latency-groups", "Q2C p99 by group");
		add(out, max, &n, K_G_THROUGHPUT, 0, "throughput-groups",
		    "Throughput by group (MB/s)");
		add(out, max, &n, K_G_IOPS, 0, "iops-groups", "IOPS by group");
		add(out, max, &n, K_G_DEPTH, 0, "queue-depth-groups",
		    "Queue depth by group (D to C)");
	}
	/* offset maps of the busiest devices that have one (TS_MAX_OFFMAPS, TS_OFFMAP_BUDGET) */
	order = bs_xcalloc(r->ndev + 1, sizeof(*order));
	for (i = 0; i < (int)r->ndev; i++)
		if (report_dev_has_offmap(r, (size_t)i))
			order[nd++] = (struct ranked){ ru->dev[i].ios, i };
	qsort(order, (size_t)nd, sizeof(*order), cmp_ranked);
	for (i = 0; i < nd && i < MAX_OFFMAPS; i++) {
		uint32_t dev = r->devs[order[i].idx].device;

		report_dev_name(dev, dn, sizeof(dn));
		snprintf(name, sizeof(name), "offsets-%u-%u", dev >> 20, dev & 0xfffff);
		snprintf(title, sizeof(title), "Offset map of %s (issue time x offset)", dn);
		add(out, max, &n, K_OFFSETS, order[i].idx, name, title);
	}
	free(order);
	return n;
}

int svg_draw(struct bs_report *r, FILE *f, const struct svg_chart *c)
{
	int rc = 1;

	svg_open(r, f, c);
	switch (c->kind) {
	case K_THROUGHPUT:
		rc = op_chart(r, f, c, M_MBPS, "MB/s");
		break;
	case K_IOPS:
		rc = op_chart(r, f, c, M_IOPS, "IOPS");
		break;
	case K_LATENCY:
		rc = latency_chart(r, f, c);
		break;
	case K_WAIT:
		rc = wait_chart(r, f, c);
		break;
	case K_DEPTH:
		rc = depth_chart(r, f, c);
		break;
	case K_HEATMAP:
		rc = svg_heatmap_chart(r, f, c);
		break;
	case K_HIST:
		rc = hist_chart(r, f, c);
		break;
	case K_OFFSETS:
		rc = svg_offsets_chart(r, f, c);
		break;
	case K_G_THROUGHPUT:
		rc = group_chart(r, f, c, M_MBPS, "MB/s", false);
		break;
	case K_G_IOPS:
		rc = group_chart(r, f, c, M_IOPS, "IOPS", false);
		break;
	case K_G_LATENCY:
		rc = group_chart(r, f, c, M_Q2C_P99, "Q2C p99", true);
		break;
	case K_G_DEPTH:
		rc = group_chart(r, f, c, M_DEPTH, "bios in flight", false);
		break;
	case K_G_HEATMAP:
		rc = svg_group_heatmap_chart(r, f, c);
		break;
	}
	fputs("</svg>\n", f);
	return rc;
}
