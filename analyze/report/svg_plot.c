// SPDX-License-Identifier: GPL-2.0
/*
 * svg_plot.c - chart primitives of the HTML/SVG reports (svg_plot.h).
 * Plain SVG 1.1: lines are <path>s with one point per time bucket; grid
 * cells are grouped into one <path> per color level, so a chart is a few
 * tens of KiB at most.  Tick labels are round numbers printed without an
 * exponent (svg_fmt_num, svg_fmt_ns), whatever the range.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_escape.h"
#include "report_priv.h"
#include "svg_plot.h"

/* distinct hues first (Tableau 10 + 2): SVG_NCOLORS colors, none repeated */
static const char *const group_palette[SVG_NCOLORS] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
};

const char *svg_group_color(int i)
{
	return group_palette[i % SVG_NCOLORS];
}

/* Print v with d decimals, trailing zeros (and the point) dropped. */
static void fixed(char *buf, size_t len, double v, int d)
{
	char *dot;
	size_t n;

	snprintf(buf, len, "%.*f", d < 0 ? 0 : d > 9 ? 9 : d, v);
	dot = strchr(buf, '.');
	if (!dot)
		return;
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
}

/* Decimals that show value steps of `step` (in the unit printed). */
static int decimals(double step)
{
	int d;

	if (!(step > 0) || step >= 1)
		return 0;
	d = (int)ceil(-log10(step) - 1e-9);
	return d > 9 ? 9 : d;
}

void svg_fmt_ns(char *buf, size_t len, double ns)
{
	static const char *const unit[] = { "ns", "µs", "ms", "s" };
	double v = ns < 0 ? 0 : ns;
	int u = 0;
	char num[40];

	while (u < 3 && v >= 999.5) {
		v /= 1e3;
		u++;
	}
	/* three significant digits at most: 850ns, 12.5µs, 3.4ms, 1380s */
	fixed(num, sizeof(num), v, v < 9.995 ? 2 : v < 99.95 ? 1 : 0);
	snprintf(buf, len, "%s%s", num, unit[u]);
}

void svg_fmt_num(char *buf, size_t len, double v, double step)
{
	static const char *const sfx[] = { "", "k", "M", "G", "T" };
	double a = fabs(v) > fabs(step) ? fabs(v) : fabs(step), div = 1;
	int k = 0;
	char num[48];

	/* a suffix once values reach 10000: ticks read 150k, not 150000 */
	while (k < 4 && a / div >= 1e4) {
		div *= 1e3;
		k++;
	}
	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	fixed(num, sizeof(num), v / div, step > 0 ? decimals(step / div) : 2);
	snprintf(buf, len, "%s%s", num, sfx[k]);
}

double svg_px(const struct svg_plot *p, double x)
{
	if (p->x1 <= p->x0)
		return SVG_LEFT;
	return SVG_LEFT + (x - p->x0) / (p->x1 - p->x0) * SVG_PW;
}

double svg_py(const struct svg_plot *p, double y)
{
	double f;

	if (p->logy)
		y = log10(y > 0 ? y : 1e-300);
	f = p->y1 > p->y0 ? (y - p->y0) / (p->y1 - p->y0) : 0;
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return SVG_TOP + SVG_PH - f * SVG_PH;
}

double svg_nice_step(double range, int nticks)
{
	double raw = range / nticks, mag, n;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	n = raw / mag;
	return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag;
}

void svg_time_plot(const struct bs_report *r, struct svg_plot *p)
{
	const struct ts_series *ts = &r->ts;

	/* from the window start (the origin) to the end of the last bucket, or -T */
	p->x0 = (double)ts->origin / 1e9;
	p->x1 = (double)ts_bucket_start(ts, ts->nb) / 1e9;
	if (r->win_end > ts->origin)
		p->x1 = (double)r->win_end / 1e9;
	if (p->x1 <= p->x0)
		p->x1 = p->x0 + 1e-6;
}

double svg_bucket_mid(const struct ts_series *ts, size_t b)
{
	return ((double)ts_bucket_start(ts, b) + ts->width / 2.0) / 1e9;
}

void svg_open(const struct bs_report *r, FILE *f, const struct svg_chart *c)
{
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 "
		"0 %d %d\" "
		"font-family=\"sans-serif\" font-size=\"11\" data-chart=\"%s\" data-plot=\"%d %d "
		"%d %d\"",
		SVG_W, SVG_H, SVG_W, SVG_H, c->name, SVG_LEFT, SVG_TOP, SVG_PW, SVG_PH);
	if (c->time) {
		struct svg_plot p;

		svg_time_plot(r, &p);
		fprintf(f, " data-t0=\"%.9f\" data-t1=\"%.9f\"", p.x0, p.x1);
	}
	fprintf(f, ">\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", SVG_W, SVG_H);
	fprintf(f, "<text x=\"%d\" y=\"16\" font-size=\"13\" font-weight=\"bold\">", 8);
	bs_xml_text(f, c->title);	/* titles hold group names */
	fputs("</text>\n", f);
}

void svg_plot_begin(FILE *f, const struct svg_chart *c)
{
	/* chart names are unique in a page: so are the clip ids */
	fprintf(f,
		"<clipPath id=\"clip-%s\"><rect x=\"%d\" y=\"%d\" width=\"%d\" "
		"height=\"%d\"/></clipPath>\n"
		"<g clip-path=\"url(#clip-%s)\"><g class=\"zm\">\n",
		c->name, SVG_LEFT, SVG_TOP - 4, SVG_PW, SVG_PH + 8, c->name);
}

void svg_plot_end(FILE *f)
{
	fputs("</g></g>\n", f);
}

void svg_lin_range(struct svg_plot *p, double hi)
{
	double step = svg_nice_step(hi, 5);

	p->logy = false;
	p->y0 = 0;
	p->y1 = hi > 0 ? ceil(hi / step - 1e-9) * step : 1;
	if (p->y1 <= 0)
		p->y1 = step;
}

void svg_log_range(struct svg_plot *p, double lo, double hi)
{
	p->logy = true;
	p->y0 = floor(log10(lo > 0 ? lo : 1));
	p->y1 = ceil(log10(hi > 0 ? hi : 1));
	if (p->y1 <= p->y0)
		p->y1 = p->y0 + 1;
}

static void ylabel_text(FILE *f, double v, enum svg_yfmt yf, double step)
{
	char buf[48];

	if (yf == SVG_Y_NS)
		svg_fmt_ns(buf, sizeof(buf), v);
	else
		svg_fmt_num(buf, sizeof(buf), v, step);
	fputs(buf, f);
}

/* Log axis ticks: decades, plus 2 and 5 (or every digit) when the range is short. */
static int log_ticks(FILE *f, const struct svg_plot *p, enum svg_yfmt yf, bool labels)
{
	static const int all[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, few[] = { 1, 2, 5 };
	double span = p->y1 - p->y0;
	const int *m = span <= 1.01 ? all : span <= 2.01 ? few : all;
	int nm = span <= 1.01 ? 9 : span <= 2.01 ? 3 : 1, n = 0;
	double e;
	int i;

	for (e = floor(p->y0); e <= p->y1 + 1e-9; e++)
		for (i = 0; i < nm; i++) {
			double v = m[i] * pow(10, e), y;

			if (log10(v) < p->y0 - 1e-9 || log10(v) > p->y1 + 1e-9)
				continue;
			n++;
			if (!f)
				continue;
			y = svg_py(p, v);
			if (!labels) {
				fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
					SVG_LEFT, SVG_LEFT + SVG_PW, y, y);
				continue;
			}
			fprintf(f, "<text x=\"%d\" y=\"%.1f\">", SVG_LEFT - 4, y + 4);
			ylabel_text(f, v, yf, v);
			fputs("</text>\n", f);
		}
	return n;
}

/* A range too short for two round ticks (a heatmap of equal latencies): label both ends. */
static void end_ticks(FILE *f, const struct svg_plot *p, enum svg_yfmt yf, bool labels)
{
	double v[2] = { pow(10, p->y0), pow(10, p->y1) };
	int i;

	for (i = 0; i < 2; i++) {
		double y = svg_py(p, v[i]);

		if (!labels) {
			fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
				SVG_LEFT, SVG_LEFT + SVG_PW, y, y);
			continue;
		}
		fprintf(f, "<text x=\"%d\" y=\"%.1f\">", SVG_LEFT - 4, y + 4);
		ylabel_text(f, v[i], yf, v[i] / 100);
		fputs("</text>\n", f);
	}
}

static void log_axis(FILE *f, const struct svg_plot *p, enum svg_yfmt yf, bool labels)
{
	if (log_ticks(NULL, p, yf, labels) >= 2)
		log_ticks(f, p, yf, labels);
	else
		end_ticks(f, p, yf, labels);
}

static void lin_ticks(FILE *f, const struct svg_plot *p, enum svg_yfmt yf, bool labels)
{
	double step = svg_nice_step(p->y1 - p->y0, 5), v;

	for (v = ceil(p->y0 / step - 1e-9) * step; v <= p->y1 + step * 1e-6; v += step) {
		double y = svg_py(p, v);

		if (!labels) {
			fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
				SVG_LEFT, SVG_LEFT + SVG_PW, y, y);
			continue;
		}
		fprintf(f, "<text x=\"%d\" y=\"%.1f\">", SVG_LEFT - 4, y + 4);
		ylabel_text(f, fabs(v) < step * 1e-6 ? 0 : v, yf, step);
		fputs("</text>\n", f);
	}
}

/* The time axis' unit: by the largest label, so labels stay short. */
static double time_unit(const struct svg_plot *p, const char **name)
{
	double m = fabs(p->x1) > fabs(p->x0) ? fabs(p->x1) : fabs(p->x0);

	if (m >= 1) {
		*name = "s";
		return 1;
	}
	if (m >= 1e-3) {
		*name = "ms";
		return 1e-3;
	}
	*name = "µs";
	return 1e-6;
}

void svg_axes(FILE *f, const struct svg_plot *p, const char *ylabel, enum svg_yfmt yf)
{
	double step, v, u;
	const char *uname;
	char buf[48];

	fputs("<g stroke=\"#e6e6e6\">\n", f);
	if (yf == SVG_Y_NONE)
		;
	else if (p->logy)
		log_axis(f, p, yf, false);
	else
		lin_ticks(f, p, yf, false);
	fputs("</g>\n<g fill=\"#333\" text-anchor=\"end\">\n", f);
	if (yf == SVG_Y_NONE)
		;
	else if (p->logy)
		log_axis(f, p, yf, true);
	else
		lin_ticks(f, p, yf, true);
	/* x: the page's zoom script rewrites the <g class="xt"> labels */
	u = time_unit(p, &uname);
	fprintf(f, "</g>\n<g class=\"xt\" fill=\"#333\" text-anchor=\"middle\" data-unit=\"%g\">\n",
		u);
	step = svg_nice_step((p->x1 - p->x0) / u, 8);
	for (v = ceil(p->x0 / u / step - 1e-9) * step; v <= p->x1 / u + step * 1e-6; v += step) {
		fixed(buf, sizeof(buf), fabs(v) < step * 1e-6 ? 0 : v, decimals(step));
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">%s</text>\n", svg_px(p, v * u),
			SVG_TOP + SVG_PH + 16, buf);
	}
	fprintf(f,
		"</g>\n<text x=\"%d\" y=\"%d\" fill=\"#333\" text-anchor=\"middle\">time "
		"(%s)</text>\n",
		SVG_LEFT + SVG_PW / 2, SVG_H - 6, uname);
	fprintf(f,
		"<text x=\"12\" y=\"%d\" fill=\"#333\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 12 %d)\">",
		SVG_TOP + SVG_PH / 2, SVG_TOP + SVG_PH / 2);
	bs_xml_text(f, ylabel);
	fprintf(f, "</text>\n<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#444\"/>\n", SVG_LEFT,
		SVG_TOP, SVG_TOP + SVG_PH, SVG_LEFT + SVG_PW);
}

void svg_legend(FILE *f, const char *const *labels, const char *const *colors, int n,
		const char *note)
{
	int i, x = 8, y = 31, w;

	for (i = 0; i < n; i++) {
		w = 22 + 6 * (int)strlen(labels[i]);
		if (x + w > SVG_W - 8 && x > 8) {	/* next row */
			x = 8;
			y += 13;
		}
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"6\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\" fill=\"#333\">", x, y - 6, colors[i], x + 15, y);
		bs_xml_text(f, labels[i]);
		fputs("</text>\n", f);
		x += w;
	}
	if (note) {
		if (x + 6 * (int)strlen(note) > SVG_W - 8 && x > 8) {
			x = 8;
			y += 13;
		}
		fprintf(f,
			"<text class=\"note\" x=\"%d\" y=\"%d\" fill=\"#666\" "
			"font-style=\"italic\">",
			x, y);
		bs_xml_text(f, note);
		fputs("</text>\n", f);
	}
}

void svg_no_data(FILE *f)
{
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" fill=\"#999\" text-anchor=\"middle\" font-size=\"14\">no "
		"data</text>\n",
		SVG_LEFT + SVG_PW / 2, SVG_TOP + SVG_PH / 2);
}

void svg_line(FILE *f, const struct svg_plot *p, const struct ts_series *ts, const double *y,
	      size_t n, const char *color, const char *dash, const char *title)
{
	bool pen = false;
	size_t b;

	fprintf(f,
		"<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
		"vector-effect=\"non-scaling-stroke\"%s%s%s d=\"",
		color, dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
	for (b = 0; b < n; b++) {
		if (isnan(y[b])) {
			pen = false;
			continue;
		}
		fprintf(f, "%c%.1f %.1f", pen ? 'L' : 'M', svg_px(p, svg_bucket_mid(ts, b)),
			svg_py(p, y[b]));
		pen = true;
	}
	fputs("\">", f);
	if (title) {
		fputs("<title>", f);
		bs_xml_text(f, title);
		fputs("</title>", f);
	}
	fputs("</path>\n", f);
	/* a point with no neighbour draws no line: give it a marker */
	for (b = 0; b < n; b++)
		if (!isnan(y[b]) && (b == 0 || isnan(y[b - 1])) && (b + 1 >= n || isnan(y[b + 1])))
			fprintf(f,
				"<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
				"fill=\"%s\"/>\n",
				svg_px(p, svg_bucket_mid(ts, b)), svg_py(p, y[b]), color);
}

void svg_hover_cols(FILE *f, const struct svg_plot *p, const struct ts_series *ts,
		    char *const *text, size_t n)
{
	size_t b;
	double w = svg_px(p, (double)ts->width / 1e9) - svg_px(p, 0);

	/* unit-high paths in a group scaled to the plot's height: the smallest markup per column */
	fprintf(f,
		"<g class=\"hv\" fill=\"#000\" fill-opacity=\"0\" transform=\"translate(0 %d) "
		"scale(1 %d)\">\n",
		SVG_TOP, SVG_PH);
	for (b = 0; b < n; b++) {
		if (!text[b])
			continue;
		fprintf(f, "<path d=\"M%.1f 0h%.1fv1H%.1fz\"><title>",
			svg_px(p, (double)ts_bucket_start(ts, b) / 1e9), w,
			svg_px(p, (double)ts_bucket_start(ts, b) / 1e9));
		bs_xml_text(f, text[b]);
		fputs("</title></path>\n", f);
	}
	fputs("</g>\n", f);
}

/* ---- binned grids ---- */

int svg_heat_level(double v, double max, int levels)
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
void svg_grid_paths(FILE *f, const int *lv, size_t cols, int rows, double x0, double cw, double rh,
		const char *const *palette, int ncolors, char *const *titles)
{
	char **buf = bs_xcalloc((size_t)ncolors, sizeof(*buf));
	size_t *len = bs_xcalloc((size_t)ncolors, sizeof(*len));
	FILE **path = bs_xcalloc((size_t)ncolors, sizeof(*path));
	size_t c, c2;
	int r, l;

	fprintf(f,
		"<g transform=\"translate(%.2f %d) scale(%.4f %.4f)\" "
		"shape-rendering=\"crispEdges\">\n",
		x0, SVG_TOP + SVG_PH, cw, rh);
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
		fputs("\">", f);
		if (titles && titles[l]) {	/* hover: what this color means */
			fputs("<title>", f);
			bs_xml_text(f, titles[l]);
			fputs("</title>", f);
		}
		fputs("</path>\n", f);
		free(buf[l]);
	}
	fputs("</g>\n", f);
	free(buf);
	free(len);
	free(path);
}
