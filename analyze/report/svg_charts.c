// SPDX-License-Identifier: GPL-2.0
/*
 * svg_charts.c - the line charts (throughput, IOPS, latency percentiles,
 * queue depth, per op and per group), the latency histogram, the list of
 * charts a trace gets and svg_draw() (svg.h).  Values come from the time
 * series and the rollup of the report state.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "svg_plot.h"

enum {
	K_THROUGHPUT, K_IOPS, K_LATENCY, K_DEPTH, K_HEATMAP, K_HIST, K_OFFSETS,
	K_G_THROUGHPUT, K_G_IOPS, K_G_LATENCY, K_G_DEPTH,
};

#define MAX_GROUP_LINES	8
#define MAX_OFFMAPS	4	/* offset-map charts: the busiest devices that have a map */

enum metric { M_MBPS, M_IOPS, M_DEPTH, M_Q2C_P50, M_Q2C_P99, M_Q2C_P999, M_D2C_P50, M_D2C_P99, M_Q2C_MAX };

static double bucket_dur(const struct bs_report *r, size_t b)
{
	const struct timeseries *ts = &r->ts;
	uint64_t start = b * ts->width, dur = ts->width;

	if (r->end_time > start && r->end_time - start < dur)
		dur = r->end_time - start;
	return dur ? (double)dur : 1.0;
}

/* values[b] of metric m over series [from, to); NaN for latencies of empty buckets */
static double *metric(const struct bs_report *r, enum metric m, int op_class, int slot)
{
	const struct timeseries *ts = &r->ts;
	double *v = bs_xcalloc(ts->nb + 1, sizeof(double));
	size_t b;

	for (b = 0; b < ts->nb; b++) {
		struct ts_cell c;
		double d = bucket_dur(r, b);

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

/* A line chart of nv series; returns 1 if there was nothing to draw. */
static int line_chart(const struct bs_report *r, FILE *f, const char *ylabel, double **vals, const char *const *labels,
		      const char *const *colors, const char *const *dashes, int nv, bool logy, bool y_is_ns)
{
	size_t n = r->ts.nb;
	struct plot p = { 0 };
	double lo, hi, step;
	int i;

	time_plot(&r->ts, &p);
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
		line(f, &p, vals[i], n, r->ts.width, colors[i], dashes ? dashes[i] : NULL);
	legend(f, labels, colors, nv);
	return 0;
}

/* read / write / other / all lines of one metric */
static int op_chart(const struct bs_report *r, FILE *f, enum metric m, const char *ylabel)
{
	static const char *const labels[] = { "all", "read", "write", "other" };
	static const char *const colors[] = { "#333333", "#1f77b4", "#d62728", "#2ca02c" };
	double *v[4];
	int i, rc, nv = 3;

	v[0] = metric(r, m, TS_ANY, TS_ANY);
	v[1] = metric(r, m, TS_READ, TS_ANY);
	v[2] = metric(r, m, TS_WRITE, TS_ANY);
	v[3] = metric(r, m, TS_OTHER, TS_ANY);
	for (size_t b = 0; b < r->ts.nb; b++)
		if (v[3][b] > 0)
			nv = 4;
	rc = line_chart(r, f, ylabel, v, labels, colors, NULL, nv, false, false);
	for (i = 0; i < 4; i++)
		free(v[i]);
	return rc;
}

static int latency_chart(const struct bs_report *r, FILE *f)
{
	static const char *const labels[] = { "Q2C p50", "Q2C p99", "Q2C p99.9", "D2C p50", "D2C p99" };
	static const char *const colors[] = { "#1f77b4", "#ff7f0e", "#d62728", "#2ca02c", "#9467bd" };
	static const char *const dashes[] = { NULL, NULL, NULL, "5 3", "5 3" };
	static const enum metric ms[] = { M_Q2C_P50, M_Q2C_P99, M_Q2C_P999, M_D2C_P50, M_D2C_P99 };
	double *v[5];
	int i, rc;

	for (i = 0; i < 5; i++)
		v[i] = metric(r, ms[i], TS_ANY, TS_ANY);
	rc = line_chart(r, f, "latency", v, labels, colors, dashes, 5, true, true);
	for (i = 0; i < 5; i++)
		free(v[i]);
	return rc;
}

/* An index and its I/O count, to sort busiest first (ties: lower index first). */
struct ranked {
	uint64_t ios;
	int idx;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->ios < y->ios ? 1 : x->ios > y->ios ? -1 : x->idx - y->idx;
}

/* Groups with I/O, busiest first, at most MAX_GROUP_LINES. */
static int top_groups(const struct bs_report *r, int *idx)
{
	struct ranked *all = bs_xcalloc(r->ngroup + 1, sizeof(*all));
	int n = 0, i;

	/* groups past the slot cap share one merged time series: no line of their own */
	for (i = 0; i < (int)r->ngroup && i < TS_GROUP_SLOTS - 2; i++)
		if (r->groups[i].set.ios)
			all[n++] = (struct ranked){ r->groups[i].set.ios, i };
	qsort(all, (size_t)n, sizeof(*all), cmp_ranked);
	if (n > MAX_GROUP_LINES)
		n = MAX_GROUP_LINES;
	for (i = 0; i < n; i++)
		idx[i] = all[i].idx;
	free(all);
	return n;
}

static int group_chart(struct bs_report *r, FILE *f, enum metric m, const char *ylabel, bool logy)
{
	int idx[MAX_GROUP_LINES], n = top_groups(r, idx), i, rc;
	double *v[MAX_GROUP_LINES];
	const char *labels[MAX_GROUP_LINES] = { 0 }, *colors[MAX_GROUP_LINES] = { 0 };

	for (i = 0; i < n; i++) {
		v[i] = metric(r, m, TS_ANY, r->groups[idx[i]].slot);
		labels[i] = report_group_name(r, idx[i]);
		/* a group keeps its color in every chart: color by group index */
		colors[i] = svg_group_color(idx[i]);
	}
	rc = line_chart(r, f, ylabel, v, labels, colors, NULL, n, logy, logy);
	for (i = 0; i < n; i++)
		free(v[i]);
	return rc;
}

/* biolatency buckets as bars: D2C and Q2C side by side */
static int hist_chart(struct bs_report *r, FILE *f)
{
	static const char *const labels[] = { "D2C", "Q2C" };
	static const char *const colors[] = { "#2ca02c", "#1f77b4" };
	const struct rollup *ru;
	uint64_t cnt[2][54], max = 0;
	int i, k, first = -1, last = -1, n;
	double bw, y0 = TOP + PH;

	ru = report_rollup(r);
	for (k = 0; k < 2; k++)
		for (i = 0; i < 54; i++) {
			cnt[k][i] = sk_count_range(&ru->all.st[k ? ST_Q2C : ST_D2C], i ? 1000ull << i : 0,
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

int svg_charts(struct bs_report *r, struct chart *out, int max)
{
	const struct rollup *ru = report_rollup(r);
	struct ranked *order;
	char name[48], title[96], dn[32];
	int n = 0, i, nd = 0;

	add(out, max, &n, K_THROUGHPUT, 0, "throughput", "Throughput (MB/s, by completion time)");
	add(out, max, &n, K_IOPS, 0, "iops", "IOPS (completions per second)");
	add(out, max, &n, K_LATENCY, 0, "latency", "Latency percentiles per interval (Q2C, D2C)");
	add(out, max, &n, K_DEPTH, 0, "queue-depth", "Queue depth (bios in flight between D and C, average)");
	add(out, max, &n, K_HEATMAP, 0, "heatmap", "Latency heatmap (time x log latency)");
	add(out, max, &n, K_HIST, 0, "histogram", "Latency histogram (all I/Os)");
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
		snprintf(title, sizeof(title), "Offset map of %s (issue time x sector)", dn);
		add(out, max, &n, K_OFFSETS, order[i].idx, name, title);
	}
	free(order);
	if (r->groups_used) {
		add(out, max, &n, K_G_THROUGHPUT, 0, "throughput-groups", "Throughput by group (MB/s)");
		add(out, max, &n, K_G_IOPS, 0, "iops-groups", "IOPS by group");
		add(out, max, &n, K_G_LATENCY, 0, "latency-groups", "Q2C p99 by group");
		add(out, max, &n, K_G_DEPTH, 0, "queue-depth-groups", "Queue depth by group (D to C)");
	}
	return n;
}

int svg_draw(struct bs_report *r, FILE *f, const struct chart *c, int sig)
{
	int rc = 1;

	svg_open(f, c->title, sig);
	switch (c->kind) {
	case K_THROUGHPUT:
		rc = op_chart(r, f, M_MBPS, "MB/s");
		break;
	case K_IOPS:
		rc = op_chart(r, f, M_IOPS, "IOPS");
		break;
	case K_LATENCY:
		rc = latency_chart(r, f);
		break;
	case K_DEPTH:
		rc = op_chart(r, f, M_DEPTH, "bios in flight");
		break;
	case K_HEATMAP:
		rc = heatmap_chart(r, f);
		break;
	case K_HIST:
		rc = hist_chart(r, f);
		break;
	case K_OFFSETS:
		rc = offsets_chart(r, f, c->arg);
		break;
	case K_G_THROUGHPUT:
		rc = group_chart(r, f, M_MBPS, "MB/s", false);
		break;
	case K_G_IOPS:
		rc = group_chart(r, f, M_IOPS, "IOPS", false);
		break;
	case K_G_LATENCY:
		rc = group_chart(r, f, M_Q2C_P99, "Q2C p99", true);
		break;
	case K_G_DEPTH:
		rc = group_chart(r, f, M_DEPTH, "bios in flight", false);
		break;
	}
	fputs("</svg>\n", f);
	return rc;
}

