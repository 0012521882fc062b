// SPDX-License-Identifier: GPL-2.0
/*
 * svg_plot.c - chart primitives of the HTML/SVG reports (svg_plot.h).
 * Plain SVG 1.1, no script: lines are <path>s with one point per time
 * bucket; grid cells are grouped into one <path> per color level, so a
 * chart is a few tens of KiB at most.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_escape.h"
#include "svg_plot.h"

static const char *const group_palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#bcbd22", "#17becf", "#393b79",
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

double px(const struct plot *p, double x)
{
	if (p->x1 <= p->x0)
		return LEFT;
	return LEFT + (x - p->x0) / (p->x1 - p->x0) * PW;
}

double py(const struct plot *p, double y)
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

double nice_step(double range, int nticks)
{
	double raw = range / nticks, mag, n;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	n = raw / mag;
	return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag;
}

void svg_open(FILE *f, const char *title, int sig)
{
	unsigned int rgb = svg_signature_rgb(sig);

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n", SVG_W, SVG_H, SVG_W, SVG_H);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", SVG_W, SVG_H);
	fprintf(f, "<text x=\"%d\" y=\"16\" font-size=\"13\" font-weight=\"bold\">", LEFT);
	bs_xml_text(f, title);	/* titles hold group names */
	fputs("</text>\n", f);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"3\" fill=\"#%06x\"/>\n", LEFT, TOP - 5, PW, rgb);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"3\" fill=\"#%06x\"/>\n", LEFT, TOP + PH + 2, PW,
		rgb);
}

void axes(FILE *f, const struct plot *p, const char *ylabel, bool y_is_ns)
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
	bs_xml_text(f, ylabel);
	fprintf(f, "</text>\n<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#444\"/>\n", LEFT, TOP, TOP + PH,
		LEFT + PW);
}

void legend(FILE *f, const char *const *labels, const char *const *colors, int n)
{
	int i, x = LEFT;

	for (i = 0; i < n; i++) {
		fprintf(f, "<rect x=\"%d\" y=\"25\" width=\"12\" height=\"4\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"31\" fill=\"#333\">", x, colors[i], x + 15);
		bs_xml_text(f, labels[i]);
		fputs("</text>\n", f);
		x += 22 + 7 * (int)strlen(labels[i]);
		if (x > SVG_W - 60)
			break;
	}
}

void no_data(FILE *f)
{
	fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#999\" text-anchor=\"middle\" font-size=\"14\">no data</text>\n",
		LEFT + PW / 2, TOP + PH / 2);
}

/* A line through the bucket centers; NaN values break it. */
void line(FILE *f, const struct plot *p, const double *y, size_t n, uint64_t width, const char *color,
	  const char *dash)
{
	bool pen = false;
	size_t b;

	fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s%s%s d=\"", color,
		dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
	for (b = 0; b < n; b++) {
		double x = (b + 0.5) * width / 1e9;

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


void time_plot(const struct timeseries *ts, struct plot *p)
{
	/* to the end of the last bucket, so binned cells fit the plot */
	p->x0 = 0;
	p->x1 = (double)(ts->nb * ts->width) / 1e9;
	if (p->x1 <= 0)
		p->x1 = 1e-6;
}

/* ---- binned grids ---- */

int level_of(double v, double max, int levels)
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
 * cols x rows small commands whatever the trace.  One pass over the
 * cells: each color's commands collect in their own buffer (rows, then
 * columns, ascending), printed color by color at the end.
 */
void grid_paths(FILE *f, const int *lv, size_t cols, int rows, double cw, double rh,
		const char *const *palette, int ncolors)
{
	char **buf = bs_xcalloc((size_t)ncolors, sizeof(*buf));
	size_t *len = bs_xcalloc((size_t)ncolors, sizeof(*len));
	FILE **path = bs_xcalloc((size_t)ncolors, sizeof(*path));
	size_t c, c2;
	int r, l;

	fprintf(f, "<g transform=\"translate(%d %d) scale(%.4f %.4f)\" shape-rendering=\"crispEdges\">\n",
		LEFT, TOP + PH, cw, rh);
	for (r = 0; r < rows; r++) {
		for (c = 0; c < cols; c = c2) {
			l = lv[c * rows + r];
			for (c2 = c + 1; c2 < cols && lv[c2 * rows + r] == l; c2++)
				;
			if (l < 0 || l >= ncolors)
				continue;
			if (!path[l] && !(path[l] = open_memstream(&buf[l], &len[l])))
				bs_xmalloc(SIZE_MAX);	/* out of memory: reported, aborts */
			fprintf(path[l], "M%zu %dh%zuv1h-%zuz", c, -(r + 1), c2 - c, c2 - c);
		}
	}
	for (l = 0; l < ncolors; l++) {
		if (!path[l])
			continue;
		fclose(path[l]);
		fprintf(f, "<path fill=\"%s\" d=\"", palette[l]);
		fwrite(buf[l], 1, len[l], f);
		fputs("\"/>\n", f);
		free(buf[l]);
	}
	fputs("</g>\n", f);
	free(buf);
	free(len);
	free(path);
}
