// SPDX-License-Identifier: GPL-2.0
/*
 * svg_maps.c - the binned-grid charts: the latency heatmap (time x log
 * latency) and the per-device offset maps (issue time x sector).  Both
 * are at most (time buckets) x MAX_ROWS cells, drawn by grid_paths().
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "svg_plot.h"

/* viridis, 8 steps: heat levels, dark = few */
static const char *const heat[] = {
	"#440154", "#46327e", "#365c8d", "#277f8e", "#1fa187", "#4ac16d", "#a0da39", "#fde725",
};

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

int heatmap_chart(const struct bs_report *r, FILE *f)
{
	const struct timeseries *ts = &r->ts;
	struct plot p = { 0 };
	uint64_t lo = UINT64_MAX, hi = 0;
	struct heat_ctx h;
	double *cells;
	bool d2c = true;
	size_t b;
	int k, rows;
	char buf[32];

	time_plot(ts, &p);
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
	cells = bs_xcalloc(ts->nb * (size_t)rows + 1, sizeof(double));
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
		int *lv = bs_xcalloc(ts->nb * (size_t)rows + 1, sizeof(int));

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

int offsets_chart(const struct bs_report *r, FILE *f, int di)
{
	static const char *const reads[] = { "#c6dbef", "#6baed6", "#2171b5", "#08306b" };
	static const char *const writes[] = { "#fcbba1", "#fb6a4a", "#cb181d", "#67000d" };
	static const char *const others[] = { "#c7e9c0", "#74c476", "#238b45", "#00441b" };
	const struct timeseries *ts = &r->ts;
	const struct offmap *om = &ts->off[r->devs[di].offmap];
	int row, rlo = -1, rhi = -1, rows, per, k, cls;
	struct plot p = { 0 };
	double *cells;
	size_t b;

	time_plot(ts, &p);
	for (b = 0; b < ts->nb; b++)
		for (row = 0; row < OFF_ROWS; row++)
			for (k = 0; k < 3; k++)
				if (om->cnt[(b * OFF_ROWS + row) * 3 + k]) {
					if (rlo < 0 || row < rlo)
						rlo = row;
					if (row > rhi)
						rhi = row;
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
	cells = bs_xcalloc(ts->nb * (size_t)rows * 3 + 1, sizeof(double));
	for (b = 0; b < ts->nb; b++)
		for (row = rlo; row <= rhi; row++)
			for (k = 0; k < 3; k++)
				cells[(k * ts->nb + b) * rows + (row - rlo) / per] +=
					(double)om->cnt[(b * OFF_ROWS + row) * 3 + k];
	/* y axis in GiB of device offset */
	p.y0 = (double)((uint64_t)rlo << om->row_shift) * 512 / (1 << 30);
	p.y1 = (double)((uint64_t)(rlo + rows * per) << om->row_shift) * 512 / (1 << 30);
	axes(f, &p, "offset (GiB)", false);
	/* one color per cell: the dominant class, shaded by the cell's total */
	{
		const char *palette[12];
		size_t ncell = ts->nb * (size_t)rows, i;
		int *lv = bs_xcalloc(ncell + 1, sizeof(int));
		double max = 0;

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
