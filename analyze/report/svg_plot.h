/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svg_plot.h - drawing primitives shared by the chart builders (internal
 * to the report layer): the plot area's layout, axes, legends, lines,
 * hover text and binned grids (svg_plot.c); the charts themselves are in
 * svg_charts.c (lines, histogram, the chart list) and svg_maps.c
 * (heatmaps, offset maps).
 */
#ifndef BLKSCOPE_SVG_PLOT_H
#define BLKSCOPE_SVG_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "report.h"
#include "svg.h"

#define SVG_LEFT	70
#define SVG_RIGHT	14
#define SVG_TOP	58
#define SVG_BOTTOM	40
#define SVG_PW	(SVG_W - SVG_LEFT - SVG_RIGHT)
#define SVG_PH	(SVG_H - SVG_TOP - SVG_BOTTOM)
#define SVG_MAX_ROWS	64	/* rows of a binned grid */

struct svg_plot {
	double x0, x1, y0, y1;	/* x in seconds; y in log10 units when logy */
	bool logy;
};

/* How tick labels of an axis read. */
enum svg_yfmt { SVG_Y_NUM, SVG_Y_NS, SVG_Y_NONE };

double svg_px(const struct svg_plot *p, double x);
double svg_py(const struct svg_plot *p, double y);
double svg_nice_step(double range, int nticks);
/* "12", "2.5", "150k", "1.2M": a round number without exponent; step sets the decimals */
void svg_fmt_num(char *buf, size_t len, double v, double step);
/* The <svg> element's head: background, title, data attributes (svg.h). */
void svg_open(const struct bs_report *r, FILE *f, const struct svg_chart *c);
/* Data drawn between these is clipped to the plot area (and zoomed with it, for time charts). */
void svg_plot_begin(FILE *f, const struct svg_chart *c);
void svg_plot_end(FILE *f);
/* Axes, grid and tick labels; x is time (s) unless xlabel is given. */
void svg_axes(FILE *f, const struct svg_plot *p, const char *ylabel, enum svg_yfmt yf);
/* y axis of a linear y range from 0 to a round top above hi */
void svg_lin_range(struct svg_plot *p, double hi);
/* y axis of a log10 range covering [lo, hi] */
void svg_log_range(struct svg_plot *p, double lo, double hi);
/* Legend entries in rows under the title; note (may be NULL) follows them. */
void svg_legend(FILE *f, const char *const *labels, const char *const *colors, int n,
		const char *note);
void svg_no_data(FILE *f);
/* A line through the centers of n buckets; NaN values break it; lone points get a marker. */
void svg_line(FILE *f, const struct svg_plot *p, const struct ts_series *ts, const double *y,
	      size_t n, const char *color, const char *dash, const char *title);
/* The charts' time range: the -t/-T window, else the buckets. */
void svg_time_plot(const struct bs_report *r, struct svg_plot *p);
/* x (s) of the center of bucket b */
double svg_bucket_mid(const struct ts_series *ts, size_t b);
/* One transparent column per bucket holding text[b] as its <title> (hover values). */
void svg_hover_cols(FILE *f, const struct svg_plot *p, const struct ts_series *ts,
		    char *const *text, size_t n);
/* Heat level 0..levels-1 of a count (log scale against the largest), -1 if none. */
int svg_heat_level(double v, double max, int levels);
/*
 * lv[col * rows + row] colors a grid of cols x rows cells cw x rh px from x0 (row 0 at the bottom).
 */
void svg_grid_paths(FILE *f, const int *lv, size_t cols, int rows, double x0, double cw, double rh,
		const char *const *palette, int ncolors, char *const *titles);

/* the charts of svg_maps.c */
int svg_heatmap_chart(const struct bs_report *r, FILE *f, const struct svg_chart *c);
int svg_group_heatmap_chart(struct bs_report *r, FILE *f, const struct svg_chart *c);
int svg_offsets_chart(const struct bs_report *r, FILE *f, const struct svg_chart *c);

#endif /* BLKSCOPE_SVG_PLOT_H */
