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
 * Each plot area is framed above and below by a thin strip in a color
 * unique to the chart (svg_signature_rgb) so that a screenshot test can
 * find the plot and check that something was drawn inside it.
 */
#ifndef BLKSCOPE_SVG_H
#define BLKSCOPE_SVG_H

#include <stddef.h>
#include <stdio.h>

struct bs_report;

#define SVG_W 680
#define SVG_H 300

struct chart {
	char name[48];		/* file name stem: "throughput", "offsets-8-0" */
	char title[96];
	int kind;		/* private to svg_charts.c */
	int arg;		/* device index for offset maps */
};

/* The charts this trace gets (offset maps for up to 4 devices; group
 * charts when groups are in use).  Returns the count; fills up to max. */
int svg_charts(struct bs_report *r, struct chart *out, int max);

/* Draw chart c as an <svg> element; sig = signature index (0..). 0 = drew
 * data, 1 = nothing to draw (a "no data" note was drawn instead). */
int svg_draw(struct bs_report *r, FILE *f, const struct chart *c, int sig);

/* The signature strip color of index sig, as 0xRRGGBB. */
unsigned int svg_signature_rgb(int sig);

/* "850ns", "12.5µs", "3.40ms", "1.20s" */
void fmt_ns(char *buf, size_t len, double ns);

/* Group palette (colors per group/tag), cycling. */
const char *svg_group_color(int i);

#endif /* BLKSCOPE_SVG_H */
