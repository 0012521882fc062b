// SPDX-License-Identifier: GPL-2.0
/*
 * svg.c - chart primitives and the charts of the HTML/SVG reports (see
 * svg.h).  Plain SVG 1.1, no script: lines are <path>s with one point per
 * time bucket; heatmap and offset-map cells are grouped into one <path>
 * per color level, so a chart is a few tens of KiB at most.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "extras.h"
#include "report_json.h"
#include "svg.h"

enum {
	K_THROUGHPUT, K_IOPS, K_LATENCY, K_DEPTH, K_HEATMAP, K_HIST, K_OFFSETS,
	K_G_THROUGHPUT, K_G_IOPS, K_G_LATENCY, K_G_DEPTH,
};

#define LEFT	66
#define RIGHT	14
#define TOP	46
#define BOTTOM	40
#define PW	(SVG_W - LEFT - RIGHT)
#define PH	(SVG_H - TOP - BOTTOM)
#define MAX_GROUP_LINES	8
#define MAX_ROWS	64
#define MAX_OFFMAPS	4

static const char *const group_palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#bcbd22", "#17becf", "#393b79",
};

/* viridis, 8 steps: heat levels, dark = few */
static const char *const heat[] = {
	"#440154", "#46327e", "#365c8d", "#277f8e", "#1fa187", "#4ac16d", "#a0da39", "#fde725",
};

const char *svg_group_color(int i)
{
	return group_palette[i % (int)(sizeof(group_palette) / sizeof(group_palette[0]))];
}

unsigned int svg_signature_rgb(int sig)
{
	/* pale, unsaturated, distinct: never used by any chart content */
	return 0xf0f0a0u + (unsigned int)(sig & 0x3f);
}

void fmt_ns(char *buf, size_t len, double ns)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.0fns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.3gµs", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.3gms", ns / 1e6);
	else
		snprintf(buf, len, "%.3gs", ns / 1e9);
}

struct plot {
	double x0, x1, y0, y1;	/* y in log10 units when logy */
	bool logy;
};

static double px(const struct plot *p, double x)
{
	if (p->x1 <= p->x0)
		return LEFT;
	return LEFT + (x - p->x0) / (p->x1 - p->x0) * PW;
}

static double py(const struct plot *p, double y)
{
	double f;

	if (p->logy)
		y = log10(y > 0 ? y : 1e-300);
	f = p->y1 > p->y0 ? (y - p->y0) / (p->y1 - p->y0) : 0;
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return TOP + PH - f * PH;
}

static double nice_step(double range, int nticks)
{
	double raw = range / nticks, mag, n;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	n = raw / mag;
	return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag;
}

static void svg_open(FILE *f, const char *title, int sig)
{
	unsigned int rgb = svg_signature_rgb(sig);

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n", SVG_W, SVG_H, SVG_W, SVG_H);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", SVG_W, SVG_H);
	fprintf(f, "<text x=\"%d\" y=\"16\" font-size=\"13\" font-weight=\"bold\">", LEFT);
	for (; *title; title++) {	/* titles hold group names: escape */
		if (*title == '<')
			fputs("&lt;", f);
		else if (*title == '&')
			fputs("&amp;", f);
		else
			fputc(*title, f);
	}
	fputs("</text>\n", f);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"3\" fill=\"#%06x\"/>\n", LEFT, TOP - 5, PW, rgb);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"3\" fill=\"#%06x\"/>\n", LEFT, TOP + PH + 2, PW,
		rgb);
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* Axes, grid and tick labels; x in seconds. */
static void axes(FILE *f, const struct plot *p, const char *ylabel, bool y_is_ns)
{
	double step, v;
	char buf[32];

	fprintf(f, "<g stroke=\"#e6e6e6\">\n");
	if (p->logy) {
		for (v = ceil(p->y0); v <= p->y1 + 1e-9; v++)
			fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n", LEFT, LEFT + PW,
				py(p, pow(10, v)), py(p, pow(10, v)));
	} else {
		step = nice_step(p->y1 - p->y0, 5);
		for (v = p->y0; v <= p->y1 + step * 1e-9; v += step)
			fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n", LEFT, LEFT + PW, py(p, v),
				py(p, v));
	}
	fprintf(f, "</g>\n<g fill=\"#333\" text-anchor=\"end\">\n");
	if (p->logy) {
		for (v = ceil(p->y0); v <= p->y1 + 1e-9; v++) {
			fmt_ns(buf, sizeof(buf), pow(10, v));
			fprintf(f, "<text x=\"%d\" y=\"%.1f\">%s</text>\n", LEFT - 4, py(p, pow(10, v)) + 4, buf);
		}
	} else {
		step = nice_step(p->y1 - p->y0, 5);
		for (v = p->y0; v <= p->y1 + step * 1e-9; v += step) {
			if (y_is_ns)
				fmt_ns(buf, sizeof(buf), v);
			else
				snprintf(buf, sizeof(buf), "%g", v);
			fprintf(f, "<text x=\"%d\" y=\"%.1f\">%s</text>\n", LEFT - 4, py(p, v) + 4, buf);
		}
	}
	fprintf(f, "</g>\n<g fill=\"#333\" text-anchor=\"middle\">\n");
	step = nice_step(p->x1 - p->x0, 8);
	for (v = ceil(p->x0 / step) * step; v <= p->x1 + step * 1e-9; v += step)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">%g</text>\n", px(p, v), TOP + PH + 18, v);
	fprintf(f, "<text x=\"%d\" y=\"%d\">time (s)</text>\n</g>\n", LEFT + PW / 2, SVG_H - 6);
	fprintf(f, "<text x=\"14\" y=\"%d\" fill=\"#333\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">",
		TOP + PH / 2, TOP + PH / 2);
	xml_text(f, ylabel);
	fprintf(f, "</text>\n<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#444\"/>\n", LEFT, TOP, TOP + PH,
		LEFT + PW);
}

static void legend(FILE *f, const char *const *labels, const char *const *colors, int n)
{
	int i, x = LEFT;

	for (i = 0; i < n; i++) {
		fprintf(f, "<rect x=\"%d\" y=\"25\" width=\"12\" height=\"4\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"31\" fill=\"#333\">", x, colors[i], x + 15);
		xml_text(f, labels[i]);
		fputs("</text>\n", f);
		x += 22 + 7 * (int)strlen(labels[i]);
		if (x > SVG_W - 60)
			break;
	}
}

static void no_data(FILE *f)
{
	fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#999\" text-anchor=\"middle\" font-size=\"14\">no data</text>\n",
		LEFT + PW / 2, TOP + PH / 2);
}

/* A line through the bucket centers; NaN values break it. */
static void line(FILE *f, const struct plot *p, const double *y, size_t n, const char *color, const char *dash)
{
	const struct timeseries *ts = &extras.ts;
	bool pen = false;
	size_t b;

	fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s%s%s d=\"", color,
		dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
	for (b = 0; b < n; b++) {
		double x = (b + 0.5) * ts->width / 1e9;

		if (isnan(y[b])) {
			pen = false;
			continue;
		}
		fprintf(f, "%c%.1f %.1f", pen ? 'L' : 'M', px(p, x), py(p, y[b]));
		/* a lone point still shows: a short stub */
		if (!pen && (b + 1 >= n || isnan(y[b + 1])))
			fprintf(f, "h2");
		pen = true;
	}
	fputs("\"/>\n", f);
}

/* ---- time-series extraction ---- */

enum metric { M_MBPS, M_IOPS, M_DEPTH, M_Q2C_P50, M_Q2C_P99, M_Q2C_P999, M_D2C_P50, M_D2C_P99, M_Q2C_MAX };

static double bucket_dur(size_t b)
{
	const struct timeseries *ts = &extras.ts;
	uint64_t start = b * ts->width, dur = ts->width;

	if (extras.end_time > start && extras.end_time - start < dur)
		dur = extras.end_time - start;
	return dur ? (double)dur : 1.0;
}

/* values[b] of metric m over series [from, to); NaN for latencies of empty buckets */
static double *metric(enum metric m, int op_class, int slot)
{
	const struct timeseries *ts = &extras.ts;
	double *v = calloc(ts->nb + 1, sizeof(double));
	size_t b;

	if (!v) {
		fprintf(stderr, "blkscope-analyze: out of memory\n");
		exit(1);
	}
	for (b = 0; b < ts->nb; b++) {
		struct ts_cell c;
		double d = bucket_dur(b);

		ts_cell_sum(ts, b, op_class, slot, &c);
		switch (m) {
		case M_MBPS:
			v[b] = c.bytes * 1e3 / d;
			break;
		case M_IOPS:
			v[b] = c.ios * 1e9 / d;
			break;
		case M_DEPTH:
			v[b] = c.inflight_ns / d;
			break;
		case M_Q2C_P50:
			v[b] = c.q2c.n ? (double)sk_quantile(&c.q2c, 500000) : NAN;
			break;
		case M_Q2C_P99:
			v[b] = c.q2c.n ? (double)sk_quantile(&c.q2c, 990000) : NAN;
			break;
		case M_Q2C_P999:
			v[b] = c.q2c.n ? (double)sk_quantile(&c.q2c, 999000) : NAN;
			break;
		case M_Q2C_MAX:
			v[b] = c.q2c.n ? (double)c.q2c.max : NAN;
			break;
		case M_D2C_P50:
			v[b] = c.d2c.n ? (double)sk_quantile(&c.d2c, 500000) : NAN;
			break;
		case M_D2C_P99:
			v[b] = c.d2c.n ? (double)sk_quantile(&c.d2c, 990000) : NAN;
			break;
		}
		sk_free(&c.q2c);
		sk_free(&c.d2c);
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

static void time_plot(struct plot *p)
{
	/* to the end of the last bucket, so binned cells fit the plot */
	p->x0 = 0;
	p->x1 = (double)(extras.ts.nb * extras.ts.width) / 1e9;
	if (p->x1 <= 0)
		p->x1 = 1e-6;
}

/* A line chart of nv series; returns 1 if there was nothing to draw. */
static int line_chart(FILE *f, const char *ylabel, double **vals, const char *const *labels,
		      const char *const *colors, const char *const *dashes, int nv, bool logy, bool y_is_ns)
{
	size_t n = extras.ts.nb;
	struct plot p = { 0 };
	double lo, hi, step;
	int i;

	time_plot(&p);
	range_of(vals, nv, n, &lo, &hi);
	if (!(hi > 0)) {
		p.y0 = 0;
		p.y1 = 1;
		axes(f, &p, ylabel, false);
		no_data(f);
		return 1;
	}
	p.logy = logy;
	if (logy) {
		p.y0 = floor(log10(lo > 0 ? lo : 1));
		p.y1 = ceil(log10(hi));
		if (p.y1 <= p.y0)
			p.y1 = p.y0 + 1;
	} else {
		step = nice_step(hi, 5);
		p.y0 = 0;
		p.y1 = ceil(hi / step) * step;
	}
	axes(f, &p, ylabel, y_is_ns);
	for (i = 0; i < nv; i++)
		line(f, &p, vals[i], n, colors[i], dashes ? dashes[i] : NULL);
	legend(f, labels, colors, nv);
	return 0;
}

/* read / write / other / all lines of one metric */
static int op_chart(FILE *f, enum metric m, const char *ylabel)
{
	static const char *const labels[] = { "all", "read", "write", "other" };
	static const char *const colors[] = { "#333333", "#1f77b4", "#d62728", "#2ca02c" };
	double *v[4];
	int i, rc, nv = 3;

	v[0] = metric(m, TS_ANY, TS_ANY);
	v[1] = metric(m, TS_READ, TS_ANY);
	v[2] = metric(m, TS_WRITE, TS_ANY);
	v[3] = metric(m, TS_OTHER, TS_ANY);
	for (size_t b = 0; b < extras.ts.nb; b++)
		if (v[3][b] > 0)
			nv = 4;
	rc = line_chart(f, ylabel, v, labels, colors, NULL, nv, false, false);
	for (i = 0; i < 4; i++)
		free(v[i]);
	return rc;
}

static int latency_chart(FILE *f)
{
	static const char *const labels[] = { "Q2C p50", "Q2C p99", "Q2C p99.9", "D2C p50", "D2C p99" };
	static const char *const colors[] = { "#1f77b4", "#ff7f0e", "#d62728", "#2ca02c", "#9467bd" };
	static const char *const dashes[] = { NULL, NULL, NULL, "5 3", "5 3" };
	static const enum metric ms[] = { M_Q2C_P50, M_Q2C_P99, M_Q2C_P999, M_D2C_P50, M_D2C_P99 };
	double *v[5];
	int i, rc;

	for (i = 0; i < 5; i++)
		v[i] = metric(ms[i], TS_ANY, TS_ANY);
	rc = line_chart(f, "latency", v, labels, colors, dashes, 5, true, true);
	for (i = 0; i < 5; i++)
		free(v[i]);
	return rc;
}

static int cmp_group_ios(const void *a, const void *b)
{
	uint64_t x = extras.groups[*(const int *)a].set.ios, y = extras.groups[*(const int *)b].set.ios;

	return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

/* Groups with I/O, busiest first, at most MAX_GROUP_LINES. */
static int top_groups(int *idx)
{
	int *all = calloc(extras.ngroup + 1, sizeof(int)), n = 0, i;

	if (!all)
		return 0;
	/* groups past the slot cap share one merged time series: no line of their own */
	for (i = 0; i < (int)extras.ngroup && i < TS_GROUP_SLOTS - 2; i++)
		if (extras.groups[i].set.ios)
			all[n++] = i;
	qsort(all, (size_t)n, sizeof(int), cmp_group_ios);
	if (n > MAX_GROUP_LINES)
		n = MAX_GROUP_LINES;
	memcpy(idx, all, (size_t)n * sizeof(int));
	free(all);
	return n;
}

static int group_chart(FILE *f, enum metric m, const char *ylabel, bool logy)
{
	int idx[MAX_GROUP_LINES], n = top_groups(idx), i, rc;
	double *v[MAX_GROUP_LINES];
	const char *labels[MAX_GROUP_LINES] = { 0 }, *colors[MAX_GROUP_LINES] = { 0 };

	for (i = 0; i < n; i++) {
		v[i] = metric(m, TS_ANY, extras.groups[idx[i]].slot);
		labels[i] = group_name(idx[i]);
		/* a group keeps its color in every chart: color by group index */
		colors[i] = svg_group_color(idx[i]);
	}
	rc = line_chart(f, ylabel, v, labels, colors, NULL, n, logy, logy);
	for (i = 0; i < n; i++)
		free(v[i]);
	return rc;
}

/* ---- binned grids ---- */

/* Heat level 0..levels-1 of a count (log scale against the largest), -1 if none. */
static int level_of(double v, double max, int levels)
{
	int lv;

	if (v <= 0 || max <= 0)
		return -1;
	lv = (int)(levels * log1p(v) / log1p(max));
	return lv >= levels ? levels - 1 : lv;
}

/*
 * lv[col * rows + row] = palette index or -1 (row 0 at the bottom).  One
 * path per color; cells are unit squares in a scaled group and runs of
 * equal color along time become one rectangle, so the output is at most
 * cols x rows small commands whatever the trace.
 */
static void grid_paths(FILE *f, const int *lv, size_t cols, int rows, double cw, double rh,
		       const char *const *palette, int ncolors)
{
	size_t c, c2;
	int r, l;

	fprintf(f, "<g transform=\"translate(%d %d) scale(%.4f %.4f)\" shape-rendering=\"crispEdges\">\n",
		LEFT, TOP + PH, cw, rh);
	for (l = 0; l < ncolors; l++) {
		bool any = false;

		for (r = 0; r < rows; r++) {
			for (c = 0; c < cols;) {
				if (lv[c * rows + r] != l) {
					c++;
					continue;
				}
				for (c2 = c; c2 < cols && lv[c2 * rows + r] == l; c2++)
					;
				if (!any)
					fprintf(f, "<path fill=\"%s\" d=\"", palette[l]);
				any = true;
				fprintf(f, "M%zu %dh%zuv1h-%zuz", c, -(r + 1), c2 - c, c2 - c);
				c = c2;
			}
		}
		if (any)
			fputs("\"/>\n", f);
	}
	fputs("</g>\n", f);
}

struct heat_ctx {
	double *col;
	int rpo, row0, rows;
};

static int lat_row(uint64_t ns, int rpo)
{
	double l = log2(ns > 0 ? (double)ns : 1.0);

	return (int)floor(l * rpo);
}

static void heat_add(void *ctx, uint64_t mid, uint64_t count)
{
	struct heat_ctx *h = ctx;
	int r = lat_row(mid, h->rpo) - h->row0;

	if (r < 0)
		r = 0;
	if (r >= h->rows)
		r = h->rows - 1;
	h->col[r] += (double)count;
}

static int heatmap_chart(FILE *f)
{
	const struct timeseries *ts = &extras.ts;
	struct plot p = { 0 };
	uint64_t lo = UINT64_MAX, hi = 0;
	struct heat_ctx h;
	double *cells;
	bool d2c = true;
	size_t b;
	int k, rows;
	char buf[32];

	time_plot(&p);
	for (k = 0; k < 2; k++) {
		for (b = 0; b < ts->nb; b++) {
			struct ts_cell c;
			const struct sketch *sk;

			ts_cell_sum(ts, b, TS_ANY, TS_ANY, &c);
			sk = d2c ? &c.d2c : &c.q2c;
			if (sk->n) {
				if (sk->min < lo)
					lo = sk->min;
				if (sk->max > hi)
					hi = sk->max;
			}
			sk_free(&c.q2c);
			sk_free(&c.d2c);
		}
		if (hi)
			break;
		d2c = false;	/* no D seen anywhere: fall back to Q2C */
	}
	if (!hi) {
		p.y0 = 0;
		p.y1 = 1;
		axes(f, &p, "latency", false);
		no_data(f);
		return 1;
	}
	/* rows per octave: 4, fewer if the range is wide */
	for (h.rpo = 4; h.rpo > 1; h.rpo /= 2)
		if (lat_row(hi, h.rpo) - lat_row(lo, h.rpo) + 1 <= MAX_ROWS)
			break;
	h.row0 = lat_row(lo, h.rpo);
	rows = lat_row(hi, h.rpo) - h.row0 + 1;
	if (rows > MAX_ROWS)
		rows = MAX_ROWS;
	h.rows = rows;
	cells = calloc(ts->nb * (size_t)rows + 1, sizeof(double));
	if (!cells) {
		fprintf(stderr, "blkscope-analyze: out of memory\n");
		exit(1);
	}
	for (b = 0; b < ts->nb; b++) {
		struct ts_cell c;

		ts_cell_sum(ts, b, TS_ANY, TS_ANY, &c);
		h.col = cells + b * rows;
		sk_foreach(d2c ? &c.d2c : &c.q2c, heat_add, &h);
		sk_free(&c.q2c);
		sk_free(&c.d2c);
	}
	/* y axis: log latency, rows are 2^(1/rpo) apart */
	p.logy = true;
	p.y0 = h.row0 / (double)h.rpo * log10(2.0);
	p.y1 = (h.row0 + rows) / (double)h.rpo * log10(2.0);
	axes(f, &p, d2c ? "D2C latency" : "Q2C latency", true);
	{
		double max = 0;
		int *lv = calloc(ts->nb * (size_t)rows + 1, sizeof(int));

		if (!lv) {
			fprintf(stderr, "blkscope-analyze: out of memory\n");
			exit(1);
		}
		for (b = 0; b < ts->nb * (size_t)rows; b++)
			if (cells[b] > max)
				max = cells[b];
		for (b = 0; b < ts->nb * (size_t)rows; b++)
			lv[b] = level_of(cells[b], max, 8);
		grid_paths(f, lv, ts->nb, rows, (double)PW / ts->nb, (double)PH / rows, heat, 8);
		free(lv);
	}
	fmt_ns(buf, sizeof(buf), (double)lo);
	fprintf(f, "<text x=\"%d\" y=\"31\" fill=\"#333\">%s, I/Os per cell: dark = few, yellow = many "
		"(log scale); min %s", LEFT, d2c ? "D2C" : "Q2C", buf);
	fmt_ns(buf, sizeof(buf), (double)hi);
	fprintf(f, ", max %s</text>\n", buf);
	free(cells);
	return 0;
}

static int offsets_chart(FILE *f, int di)
{
	static const char *const reads[] = { "#c6dbef", "#6baed6", "#2171b5", "#08306b" };
	static const char *const writes[] = { "#fcbba1", "#fb6a4a", "#cb181d", "#67000d" };
	static const char *const others[] = { "#c7e9c0", "#74c476", "#238b45", "#00441b" };
	const struct timeseries *ts = &extras.ts;
	const struct offmap *om = &ts->off[extras.devs[di].offmap];
	int r, rlo = -1, rhi = -1, rows, per, k, cls;
	struct plot p = { 0 };
	double *cells;
	size_t b;

	time_plot(&p);
	for (b = 0; b < ts->nb; b++)
		for (r = 0; r < OFF_ROWS; r++)
			for (k = 0; k < 3; k++)
				if (om->cnt[(b * OFF_ROWS + r) * 3 + k]) {
					if (rlo < 0 || r < rlo)
						rlo = r;
					if (r > rhi)
						rhi = r;
				}
	if (rlo < 0) {
		p.y0 = 0;
		p.y1 = 1;
		axes(f, &p, "offset", false);
		no_data(f);
		return 1;
	}
	/* crop to the rows used, then group rows so at most MAX_ROWS remain */
	per = (rhi - rlo + 1 + MAX_ROWS - 1) / MAX_ROWS;
	rows = (rhi - rlo + 1 + per - 1) / per;
	cells = calloc(ts->nb * (size_t)rows * 3 + 1, sizeof(double));
	if (!cells) {
		fprintf(stderr, "blkscope-analyze: out of memory\n");
		exit(1);
	}
	for (b = 0; b < ts->nb; b++)
		for (r = rlo; r <= rhi; r++)
			for (k = 0; k < 3; k++)
				cells[(k * ts->nb + b) * rows + (r - rlo) / per] +=
					(double)om->cnt[(b * OFF_ROWS + r) * 3 + k];
	/* y axis in GiB of device offset */
	p.y0 = (double)((uint64_t)rlo << om->row_shift) * 512 / (1 << 30);
	p.y1 = (double)((uint64_t)(rlo + rows * per) << om->row_shift) * 512 / (1 << 30);
	axes(f, &p, "offset (GiB)", false);
	/* one color per cell: the dominant class, shaded by the cell's total */
	{
		const char *palette[12];
		size_t ncell = ts->nb * (size_t)rows, i;
		int *lv = calloc(ncell + 1, sizeof(int));
		double max = 0;

		if (!lv) {
			fprintf(stderr, "blkscope-analyze: out of memory\n");
			exit(1);
		}
		for (k = 0; k < 4; k++) {
			palette[k] = reads[k];
			palette[4 + k] = writes[k];
			palette[8 + k] = others[k];
		}
		for (i = 0; i < ncell; i++) {
			double t = cells[i] + cells[ncell + i] + cells[2 * ncell + i];

			if (t > max)
				max = t;
		}
		for (i = 0; i < ncell; i++) {
			double rd = cells[i], wr = cells[ncell + i], ot = cells[2 * ncell + i];
			int l = level_of(rd + wr + ot, max, 4);

			cls = wr > rd && wr >= ot ? 1 : ot > rd && ot > wr ? 2 : 0;
			lv[i] = l < 0 ? -1 : cls * 4 + l;
		}
		grid_paths(f, lv, ts->nb, rows, (double)PW / ts->nb, (double)PH / rows, palette, 12);
		free(lv);
	}
	{
		static const char *const labels[] = { "read", "write", "other" };
		static const char *const colors[] = { "#2171b5", "#cb181d", "#238b45" };

		legend(f, labels, colors, 3);
	}
	free(cells);
	return 0;
}

/* biolatency buckets as bars: D2C and Q2C side by side */
static int hist_chart(FILE *f)
{
	static const char *const labels[] = { "D2C", "Q2C" };
	static const char *const colors[] = { "#2ca02c", "#1f77b4" };
	const struct rollup *r;
	uint64_t cnt[2][54], max = 0;
	int i, k, first = -1, last = -1, n;
	double bw, y0 = TOP + PH;

	r = extras_rollup();
	for (k = 0; k < 2; k++)
		for (i = 0; i < 54; i++) {
			cnt[k][i] = sk_count_range(&r->all.st[k ? ST_Q2C : ST_D2C], i ? 1000ull << i : 0,
						   i < 53 ? 1000ull << (i + 1) : UINT64_MAX);
			if (cnt[k][i]) {
				if (first < 0 || i < first)
					first = i;
				if (i > last)
					last = i;
				if (cnt[k][i] > max)
					max = cnt[k][i];
			}
		}
	fprintf(f, "<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#444\"/>\n", LEFT, TOP, TOP + PH, LEFT + PW);
	if (last < 0) {
		no_data(f);
		return 1;
	}
	n = last - first + 1;
	bw = (double)PW / n;
	fprintf(f, "<g fill=\"#333\" text-anchor=\"middle\">\n");
	for (i = first; i <= last; i++) {
		char buf[32];

		fmt_ns(buf, sizeof(buf), i ? 1000.0 * (double)(1ull << i) : 0);
		if (n <= 16 || (i - first) % 2 == 0)
			fprintf(f, "<text x=\"%.1f\" y=\"%d\">%s</text>\n", LEFT + (i - first + 0.5) * bw,
				TOP + PH + 18, buf);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\">latency bucket (lower bound, log2 µs as biolatency)</text>\n</g>\n",
		LEFT + PW / 2, SVG_H - 6);
	fprintf(f, "<g fill=\"#333\" text-anchor=\"end\"><text x=\"%d\" y=\"%d\">%" PRIu64 "</text>"
		"<text x=\"%d\" y=\"%d\">0</text></g>\n", LEFT - 4, TOP + 4, max, LEFT - 4, TOP + PH);
	for (k = 0; k < 2; k++) {
		fprintf(f, "<path fill=\"%s\" d=\"", colors[k]);
		for (i = first; i <= last; i++) {
			double h = (double)cnt[k][i] / (double)max * PH;

			if (!cnt[k][i])
				continue;
			if (h < 1)
				h = 1;
			fprintf(f, "M%.1f %.1fh%.1fv%.1fh%.1fz", LEFT + (i - first) * bw + bw * (0.1 + 0.4 * k),
				y0 - h, bw * 0.4, h, -bw * 0.4);
		}
		fputs("\"/>\n", f);
	}
	legend(f, labels, colors, 2);
	return 0;
}

/* ---- the chart list ---- */

static void add(struct chart *out, int max, int *n, int kind, int arg, const char *name, const char *title)
{
	if (*n >= max)
		return;
	out[*n].kind = kind;
	out[*n].arg = arg;
	snprintf(out[*n].name, sizeof(out[*n].name), "%s", name);
	snprintf(out[*n].title, sizeof(out[*n].title), "%s", title);
	(*n)++;
}

static int cmp_dev_ios(const void *a, const void *b)
{
	const struct rollup *r = extras_rollup();
	uint64_t x = r->dev[*(const int *)a].ios, y = r->dev[*(const int *)b].ios;

	return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

int svg_charts(struct chart *out, int max)
{
	int n = 0, i, *order;
	char name[48], title[96], dn[32];

	add(out, max, &n, K_THROUGHPUT, 0, "throughput", "Throughput (MB/s, by completion time)");
	add(out, max, &n, K_IOPS, 0, "iops", "IOPS (completions per second)");
	add(out, max, &n, K_LATENCY, 0, "latency", "Latency percentiles per interval (Q2C, D2C)");
	add(out, max, &n, K_DEPTH, 0, "queue-depth", "Queue depth (bios in flight between D and C, average)");
	add(out, max, &n, K_HEATMAP, 0, "heatmap", "Latency heatmap (time x log latency)");
	add(out, max, &n, K_HIST, 0, "histogram", "Latency histogram (all I/Os)");
	order = calloc(extras.ndev + 1, sizeof(int));
	if (!order)
		return n;
	for (i = 0; i < (int)extras.ndev; i++)
		order[i] = i;
	qsort(order, extras.ndev, sizeof(int), cmp_dev_ios);
	for (i = 0; i < (int)extras.ndev && i < MAX_OFFMAPS; i++) {
		dev_name(extras.devs[order[i]].device, dn, sizeof(dn));
		snprintf(name, sizeof(name), "offsets-%u-%u", extras.devs[order[i]].device >> 20,
			 extras.devs[order[i]].device & 0xfffff);
		snprintf(title, sizeof(title), "Offset map of %s (issue time x sector)", dn);
		add(out, max, &n, K_OFFSETS, order[i], name, title);
	}
	free(order);
	if (extras.groups_used) {
		add(out, max, &n, K_G_THROUGHPUT, 0, "throughput-groups", "Throughput by group (MB/s)");
		add(out, max, &n, K_G_IOPS, 0, "iops-groups", "IOPS by group");
		add(out, max, &n, K_G_LATENCY, 0, "latency-groups", "Q2C p99 by group");
		add(out, max, &n, K_G_DEPTH, 0, "queue-depth-groups", "Queue depth by group (D to C)");
	}
	return n;
}

int svg_draw(FILE *f, const struct chart *c, int sig)
{
	int rc = 1;

	svg_open(f, c->title, sig);
	switch (c->kind) {
	case K_THROUGHPUT:
		rc = op_chart(f, M_MBPS, "MB/s");
		break;
	case K_IOPS:
		rc = op_chart(f, M_IOPS, "IOPS");
		break;
	case K_LATENCY:
		rc = latency_chart(f);
		break;
	case K_DEPTH:
		rc = op_chart(f, M_DEPTH, "bios in flight");
		break;
	case K_HEATMAP:
		rc = heatmap_chart(f);
		break;
	case K_HIST:
		rc = hist_chart(f);
		break;
	case K_OFFSETS:
		rc = offsets_chart(f, c->arg);
		break;
	case K_G_THROUGHPUT:
		rc = group_chart(f, M_MBPS, "MB/s", false);
		break;
	case K_G_IOPS:
		rc = group_chart(f, M_IOPS, "IOPS", false);
		break;
	case K_G_LATENCY:
		rc = group_chart(f, M_Q2C_P99, "Q2C p99", true);
		break;
	case K_G_DEPTH:
		rc = group_chart(f, M_DEPTH, "bios in flight", false);
		break;
	}
	fputs("</svg>\n", f);
	return rc;
}
