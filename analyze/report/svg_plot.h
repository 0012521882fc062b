/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svg_plot.h - drawing primitives shared by the chart builders (internal
 * to the report layer): the plot area's layout, axes, legends, lines and
 * binned grids (svg_plot.c); the charts themselves are in svg_charts.c
 * (lines, histogram, the chart list) and svg_maps.c (heatmap, offset maps).
 */
#ifndef BLKSCOPE_SVG_PLOT_H
#define BLKSCOPE_SVG_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "report.h"
#include "svg.h"

#define LEFT	66
#define RIGHT	14
#define TOP	46
#define BOTTOM	40
#define PW	(SVG_W - LEFT - RIGHT)
#define PH	(SVG_H - TOP - BOTTOM)
#define MAX_ROWS	64	/* rows of a binned grid */

struct plot {
	double x0, x1, y0, y1;	/* y in log10 units when logy */
	bool logy;
};

double px(const struct plot *p, double x);
double py(const struct plot *p, double y);
double nice_step(double range, int nticks);
/* The <svg> element's head: background, title, signature strips. */
void svg_open(FILE *f, const char *title, int sig);
/* Axes, grid and tick labels; x in seconds. */
void axes(FILE *f, const struct plot *p, const char *ylabel, bool y_is_ns);
void legend(FILE *f, const char *const *labels, const char *const *colors, int n);
void no_data(FILE *f);
/* A line through the centers of n buckets `width` ns wide; NaN values break it. */
void line(FILE *f, const struct plot *p, const double *y, size_t n, uint64_t width, const char *color,
	  const char *dash);
/* x from 0 to the end of the last time bucket */
void time_plot(const struct timeseries *ts, struct plot *p);
/* Heat level 0..levels-1 of a count (log scale against the largest), -1 if none. */
int level_of(double v, double max, int levels);
void grid_paths(FILE *f, const int *lv, size_t cols, int rows, double cw, double rh,
		const char *const *palette, int ncolors);

/* the charts of svg_maps.c */
int heatmap_chart(const struct bs_report *r, FILE *f);
int offsets_chart(const struct bs_report *r, FILE *f, int di);

#endif /* BLKSCOPE_SVG_PLOT_H */
