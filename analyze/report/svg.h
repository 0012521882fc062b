/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svg.h - the charts of the HTML report, each a standalone SVG document
 * fragment, built from the report state (svg_charts.c, svg_maps.c, on the
 * primitives of svg_plot.c).  --html inlines them in one page, --svg
 * writes each to its own file.
 *
 * Every chart's output is bounded whatever the trace length: lines have
 * one point per time bucket, heatmaps and offset maps are fixed grids
 * (time buckets x at most 64 rows) drawn as one path per color level.
 *
 * Offset maps: for the busiest devices among the first TS_MAX_OFFMAPS seen.
 *
 * Each <svg> names itself (data-chart) and its plot area (data-plot="x y
 * w h"); time charts also carry their time range (data-t0, data-t1, s) and
 * put their data in a clipped <g class="zm"> group, so that the page's
 * script can zoom them together.  Every chart has <title> hover text.
 */
#ifndef BLKSCOPE_SVG_H
#define BLKSCOPE_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct bs_report;

#define SVG_W 680
#define SVG_H 300

struct svg_chart {
	char name[48];		/* file name stem: "throughput", "offsets-8-0" */
	char title[96];
	int kind;		/* private to svg_charts.c */
	int arg;		/* device index for offset maps */
	bool time;		/* x is time: zoomable */
	int dev;		/* device index it belongs to, -1 = all */
};

/* The charts this trace gets (offset maps for up to 4 devices; group
 * charts when groups are in use).  Returns the count; fills up to max. */
int svg_charts(struct bs_report *r, struct svg_chart *out, int max);

/* Draw chart c as an <svg> element. 0 = drew data, 1 = nothing to draw
 * (a "no data" note was drawn instead). */
int svg_draw(struct bs_report *r, FILE *f, const struct svg_chart *c);

/* "850ns", "12.5µs", "3.4ms", "1.2s": three significant digits at most, never an exponent */
void svg_fmt_ns(char *buf, size_t len, double ns);

/*
 * The page's style: the chart grid (as many columns as fit, none wider than
 * the window), tables, notes.  Also blkscope compare's page (report_html.c).
 */
extern const char svg_page_css[];

/* Group palette: color of the i-th drawn group (distinct for i < SVG_NCOLORS). */
#define SVG_NCOLORS 12
const char *svg_group_color(int i);

/* Groups drawn in group charts: the busiest, at most SVG_TOP_GROUPS; idx[] gets their indexes. */
#define SVG_TOP_GROUPS 8
int svg_top_groups(const struct bs_report *r, int *idx);

#endif /* BLKSCOPE_SVG_H */
