// SPDX-License-Identifier: GPL-2.0
/*
 * svg_maps.c - the binned-grid charts: the latency heatmap (time x log
 * latency), the per-group latency heatmap (time x group, color = Q2C
 * p99) and the per-device offset maps (issue time x offset, reads and
 * writes in separate half rows).  All are at most (time buckets) x
 * SVG_MAX_ROWS cells, drawn by svg_grid_paths().
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_escape.h"
#include "report_priv.h"
#include "svg_plot.h"

/* viridis, 8 steps: heat levels, dark = few */
static const char *const heat[] = {
	"#440154", "#46327e", "#365c8d", "#277f8e", "#1fa187", "#4ac16d", "#a0da39", "#fde725",
};

/* offset-map rows on screen: each is two half rows (reads, writes) */
#define OFF_HALF_ROWS	48

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

/* x of bucket 0 and the width of a bucket, in px */
static void bucket_px(const struct bs_report *r, const struct svg_plot *p, double *x0, double *cw)
{
	*x0 = svg_px(p, (double)r->ts.origin / 1e9);
	*cw = svg_px(p, (double)r->ts.origin / 1e9 + (double)r->ts.width / 1e9) - *x0;
}

/* Titles of the count levels of svg_heat_level(v, max, 8): "I/Os per cell: 12 to 40". */
static void level_titles(char **t, double max, const char *what)
{
	int l;

	for (l = 0; l < 8; l++) {
		/* level l holds v with l <= 8 log1p(v) / log1p(max) < l + 1 */
		double lo = ceil(expm1(l * log1p(max) / 8)),
		       hi = floor(expm1((l + 1) * log1p(max) / 8));

		if (lo < 1)
			lo = 1;
		if (l == 7 || hi > max)
			hi = max;
		if (asprintf(&t[l], "%s: %.0f to %.0f", what, lo, hi) < 0)
			t[l] = NULL;
	}
}

int svg_heatmap_chart(const struct bs_report *r, FILE *f, const struct svg_chart *c)
{
	const struct ts_series *ts = &r->ts;
	struct svg_plot p = { 0 };
	uint64_t lo = UINT64_MAX, hi = 0;
	struct heat_ctx h;
	double *cells, x0, cw, max = 0;
	bool d2c = true;
	size_t b;
	int k, rows, *lv;
	char buf[32], *titles[8] = { 0 };

	svg_time_plot(r, &p);
	for (k = 0; k < 2; k++) {
		for (b = 0; b < ts->nb; b++) {
			struct ts_cell cell;
			const struct sketch *sk;

			ts_cell_sum(ts, b, TS_ANY, TS_ANY, &cell);
			sk = d2c ? &cell.d2c : &cell.q2c;
			if (sk->n) {
				if (sk->min < lo)
					lo = sk->min;
				if (sk->max > hi)
					hi = sk->max;
			}
			ts_cell_free(&cell);
		}
		if (hi)
			break;
		d2c = false;	/* no D seen anywhere: fall back to Q2C */
	}
	if (!hi) {
		p.y0 = 0;
		p.y1 = 1;
		svg_axes(f, &p, "latency", SVG_Y_NONE);
		svg_no_data(f);
		return 1;
	}
	/* rows per octave: 4, fewer if the range is wide */
	for (h.rpo = 4; h.rpo > 1; h.rpo /= 2)
		if (lat_row(hi, h.rpo) - lat_row(lo, h.rpo) + 1 <= SVG_MAX_ROWS)
			break;
	h.row0 = lat_row(lo, h.rpo);
	rows = lat_row(hi, h.rpo) - h.row0 + 1;
	if (rows > SVG_MAX_ROWS)
		rows = SVG_MAX_ROWS;
	if (rows < 8) {	/* at least two octaves: room for round ticks around equal latencies */
		h.row0 -= (8 - rows) / 2;
		rows = 8;
	}
	h.rows = rows;
	cells = bs_xcalloc(ts->nb * (size_t)rows + 1, sizeof(double));
	for (b = 0; b < ts->nb; b++) {
		struct ts_cell cell;

		ts_cell_sum(ts, b, TS_ANY, TS_ANY, &cell);
		h.col = cells + b * rows;
		sketch_foreach(d2c ? &cell.d2c : &cell.q2c, heat_add, &h);
		ts_cell_free(&cell);
	}
	/* y axis: log latency, rows are 2^(1/rpo) apart */
	p.logy = true;
	p.y0 = h.row0 / (double)h.rpo * log10(2.0);
	p.y1 = (h.row0 + rows) / (double)h.rpo * log10(2.0);
	svg_axes(f, &p, d2c ? "D2C latency" : "Q2C latency", SVG_Y_NS);
	lv = bs_xcalloc(ts->nb * (size_t)rows + 1, sizeof(int));
	for (b = 0; b < ts->nb * (size_t)rows; b++)
		if (cells[b] > max)
			max = cells[b];
	for (b = 0; b < ts->nb * (size_t)rows; b++)
		lv[b] = svg_heat_level(cells[b], max, 8);
	level_titles(titles, max, "I/Os per cell");
	bucket_px(r, &p, &x0, &cw);
	svg_plot_begin(f, c);
	svg_grid_paths(f, lv, ts->nb, rows, x0, cw, (double)SVG_PH / rows, heat, 8, titles);
	svg_plot_end(f);
	for (k = 0; k < 8; k++)
		free(titles[k]);
	free(lv);
	svg_fmt_ns(buf, sizeof(buf), (double)lo);
	fprintf(f,
		"<text x=\"8\" y=\"31\" fill=\"#333\">%s, I/Os per cell: dark = few, yellow = many "
		"(log scale); min %s",
		d2c ? "D2C" : "Q2C", buf);
	svg_fmt_ns(buf, sizeof(buf), (double)hi);
	fprintf(f, ", max %s</text>\n", buf);
	free(cells);
	return 0;
}

/*
 * Time x group: each cell colored by the group's Q2C p99 in that interval
 * (log scale between the smallest and largest cell), the busiest groups.
 */
int svg_group_heatmap_chart(struct bs_report *r, FILE *f, const struct svg_chart *c)
{
	const struct ts_series *ts = &r->ts;
	int idx[SVG_TOP_GROUPS], n = svg_top_groups(r, idx), g, l, *lv, all = 0;
	double *v, lo = INFINITY, hi = 0, x0, cw, rh;
	struct svg_plot p = { 0 };
	char *titles[8] = { 0 }, a[32], z[32];
	size_t b;

	svg_time_plot(r, &p);
	p.y0 = 0;
	p.y1 = 1;
	svg_axes(f, &p, "", SVG_Y_NONE);
	if (!n) {
		svg_no_data(f);
		return 1;
	}
	v = bs_xcalloc(ts->nb * (size_t)n + 1, sizeof(double));
	for (g = 0; g < n; g++)
		for (b = 0; b < ts->nb; b++) {
			struct ts_cell cell;
			double x;

			ts_cell_sum(ts, b, TS_ANY, r->groups[idx[g]].slot, &cell);
			x = cell.q2c.n ? (double)sketch_quantile(&cell.q2c, 990000) : 0;
			ts_cell_free(&cell);
			v[b * n + (n - 1 - g)] = x;	/* the busiest on top */
			if (x > 0 && x < lo)
				lo = x;
			if (x > hi)
				hi = x;
		}
	lv = bs_xcalloc(ts->nb * (size_t)n + 1, sizeof(int));
	for (b = 0; b < ts->nb * (size_t)n; b++) {
		if (!(v[b] > 0)) {
			lv[b] = -1;
			continue;
		}
		l = hi > lo ? (int)(8 * (log(v[b]) - log(lo)) / (log(hi) - log(lo))) : 7;
		lv[b] = l > 7 ? 7 : l;
	}
	for (l = 0; l < 8; l++) {
		svg_fmt_ns(a, sizeof(a), hi > lo ? lo * pow(hi / lo, l / 8.0) : lo);
		svg_fmt_ns(z, sizeof(z), hi > lo ? lo * pow(hi / lo, (l + 1) / 8.0) : hi);
		if (asprintf(&titles[l], "Q2C p99 %s to %s", a, z) < 0)
			titles[l] = NULL;
	}
	bucket_px(r, &p, &x0, &cw);
	rh = (double)SVG_PH / n;
	svg_plot_begin(f, c);
	svg_grid_paths(f, lv, ts->nb, n, x0, cw, rh, heat, 8, titles);
	svg_plot_end(f);
	/* row labels: the group's name in its color, its overall p99 as hover text */
	for (g = 0; g < n; g++) {
		struct sketch one;
		const struct sketch *sk = report_lat_stage(&r->groups[idx[g]].set, BS_ST_Q2C, &one);
		const char *name = report_group_name(r, idx[g]);

		svg_fmt_ns(a, sizeof(a), sk->n ? (double)sketch_quantile(sk, 990000) : 0);
		fprintf(f,
			"<text x=\"%d\" y=\"%.1f\" fill=\"%s\" text-anchor=\"end\" "
			"font-size=\"10\"><title>",
			SVG_LEFT - 4, SVG_TOP + (g + 0.5) * rh + 4, svg_group_color(g));
		bs_xml_text(f, name);
		fprintf(f, ": Q2C p99 %s overall</title>", a);
		/* at most 11 characters fit left of the plot */
		if (strlen(name) > 11) {
			char s[12];

			snprintf(s, sizeof(s), "%.10s", name);
			bs_xml_text(f, s);
			fputs("…", f);
		} else {
			bs_xml_text(f, name);
		}
		fputs("</text>\n", f);
	}
	for (b = 0; b < r->ngroup; b++)
		all += r->groups[b].set.ios > 0;
	svg_fmt_ns(a, sizeof(a), lo);
	svg_fmt_ns(z, sizeof(z), hi);
	fprintf(f, "<text x=\"8\" y=\"31\" fill=\"#333\">dark = %s, yellow = %s (log scale)", a, z);
	if (all > n)
		fprintf(f,
			"; <tspan class=\"note\" font-style=\"italic\">the %d of %d groups with "
			"the most %s "
			"shown</tspan>",
			n, all, report_sort_name(r));
	fputs("</text>\n", f);
	for (l = 0; l < 8; l++)
		free(titles[l]);
	free(lv);
	free(v);
	return 0;
}

/* Offset axis unit: MiB, GiB or TiB by the largest offset shown. */
static double off_unit(double top_bytes, const char **name)
{
	if (top_bytes >= 4.0 * (1ull << 40)) {
		*name = "offset (TiB)";
		return (double)(1ull << 40);
	}
	if (top_bytes >= 4.0 * (1ull << 30)) {
		*name = "offset (GiB)";
		return (double)(1ull << 30);
	}
	*name = "offset (MiB)";
	return (double)(1ull << 20);
}

int svg_offsets_chart(const struct bs_report *r, FILE *f, const struct svg_chart *c)
{
	static const char *const palette[] = {
		"#c6dbef", "#6baed6", "#2171b5", "#08306b",	/* reads */
		"#fcbba1", "#fb6a4a", "#cb181d", "#67000d",	/* writes */
		"#c7e9c0", "#74c476", "#238b45", "#00441b",	/* other */
	};
	const struct ts_series *ts = &r->ts;
	const struct ts_offmap *om = &ts->off[r->devs[c->arg].offmap];
	int row, rlo = -1, rhi = -1, rows, per, k, *lv;
	struct svg_plot p = { 0 };
	double *cells, max = 0, x0, cw, unit;
	uint64_t tot[3] = { 0, 0, 0 };
	const char *uname;
	size_t b, ncell, i;
	char note[96];

	svg_time_plot(r, &p);
	for (b = 0; b < ts->nb; b++)
		for (row = 0; row < TS_OFF_ROWS; row++)
			for (k = 0; k < 3; k++)
				if (om->cnt[(b * TS_OFF_ROWS + row) * 3 + k]) {
					tot[k] += om->cnt[(b * TS_OFF_ROWS + row) * 3 + k];
					if (rlo < 0 || row < rlo)
						rlo = row;
					if (row > rhi)
						rhi = row;
				}
	if (rlo < 0) {
		p.y0 = 0;
		p.y1 = 1;
		svg_axes(f, &p, "offset", SVG_Y_NONE);
		svg_no_data(f);
		return 1;
	}
	/*
	 * crop to the rows used, then group rows so at most OFF_HALF_ROWS / 2 remain: each is two
	 * half rows
	 */
	per = (rhi - rlo + 1 + OFF_HALF_ROWS / 2 - 1) / (OFF_HALF_ROWS / 2);
	rows = (rhi - rlo + 1 + per - 1) / per;
	ncell = ts->nb * (size_t)rows;
	cells = bs_xcalloc(ncell * 3 + 1, sizeof(double));
	for (b = 0; b < ts->nb; b++)
		for (row = rlo; row <= rhi; row++)
			for (k = 0; k < 3; k++)
				cells[k * ncell + b * rows + (row - rlo) / per] +=
					(double)om->cnt[(b * TS_OFF_ROWS + row) * 3 + k];
	/* y axis in MiB/GiB/TiB of device offset */
	p.y0 = (double)((uint64_t)rlo << om->row_shift) * 512;
	p.y1 = (double)((uint64_t)(rlo + rows * per) << om->row_shift) * 512;
	unit = off_unit(p.y1, &uname);
	p.y0 /= unit;
	p.y1 /= unit;
	svg_axes(f, &p, uname, SVG_Y_NUM);
	/*
	 * Reads in the lower half of each row, writes (or other ops, whichever
	 * is more) in the upper half, each shaded by its own count: a 30%
	 * write share shows as red in the rows it touches, not hidden under
	 * the dominant reads.
	 */
	lv = bs_xcalloc(ncell * 2 + 1, sizeof(int));
	for (i = 0; i < ncell * 3; i++)
		if (cells[i] > max)
			max = cells[i];
	for (b = 0; b < ts->nb; b++)
		for (row = 0; row < rows; row++) {
			size_t ci = b * rows + row;
			double rd = cells[ci], wr = cells[ncell + ci], ot = cells[2 * ncell + ci];
			int lr = svg_heat_level(rd, max, 4),
			    lw = svg_heat_level(wr >= ot ? wr : ot, max, 4);

			lv[b * rows * 2 + row * 2] = lr < 0 ? -1 : lr;
			lv[b * rows * 2 + row * 2 + 1] = lw < 0 ? -1 : (wr >= ot ? 4 : 8) + lw;
		}
	bucket_px(r, &p, &x0, &cw);
	svg_plot_begin(f, c);
	{
		char *titles[12] = { 0 };
		static const char *const cls[] = { "reads", "writes", "other" };

		for (k = 0; k < 12; k++) {
			double lo = ceil(expm1((k % 4) * log1p(max) / 4)),
			       hi = floor(expm1((k % 4 + 1) * log1p(max) / 4));

			if (asprintf(&titles[k], "%s: %.0f to %.0f I/Os per cell", cls[k / 4],
				     lo < 1 ? 1 : lo, k % 4 == 3 || hi > max ? max : hi) < 0)
				titles[k] = NULL;
		}
		svg_grid_paths(f, lv, ts->nb, rows * 2, x0, cw, (double)SVG_PH / (rows * 2),
			       palette, 12, titles);
		for (k = 0; k < 12; k++)
			free(titles[k]);
	}
	svg_plot_end(f);
	{
		static const char *const labels[] = { "read", "write", "other" };
		static const char *const colors[] = { "#2171b5", "#cb181d", "#238b45" };
		uint64_t all = tot[0] + tot[1] + tot[2];

		snprintf(note, sizeof(note),
			 "reads %.0f%%, writes %.0f%%%s (lower/upper half of each row)",
			 100.0 * tot[0] / all, 100.0 * tot[1] / all, tot[2] ? ", other" : "");
		svg_legend(f, labels, colors, tot[2] ? 3 : 2, note);
	}
	free(lv);
	free(cells);
	return 0;
}
