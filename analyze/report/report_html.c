// SPDX-License-Identifier: GPL-2.0
/*
 * report_html.c - --html FILE: one self-contained page (inline SVG, inline
 * CSS, a small inline script, nothing fetched): a latency summary first
 * (report_summary.c), every chart of svg.h in a grid that reflows to the
 * window's width, then the percentile and breakdown tables; --svg DIR:
 * each chart as its own file, --svg NAME=FILE: chart NAME alone.
 *
 * The script only adds interaction (zoom on time by dragging over a chart,
 * a reset button, a device selector when there are several devices); the
 * page shows everything without it, and hover values are SVG <title>s.
 *
 * Size stays bounded: charts are binned (svg.h), tables list at most
 * MAX_ROWS devices, processes and groups (the rest is counted, and is in
 * --json).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bs_escape.h"
#include "bs_stream.h"
#include "report_priv.h"
#include "svg.h"
#include "bs_stream.h"

#define MAX_CHARTS 24
#define MAX_ROWS 50

static void td_ns(FILE *f, const struct sketch *sk, uint32_t ppm)
{
	char buf[32];

	if (!sk->n) {
		fputs("<td class=na>-</td>", f);
		return;
	}
	svg_fmt_ns(buf, sizeof(buf), (double)sketch_quantile(sk, ppm));
	fprintf(f, "<td>%s</td>", buf);
}

static void stage_table(FILE *f, const struct report_lat *ls)
{
	struct sketch one[BS_ST_COUNT];
	const struct sketch *st = report_lat_stages(ls, one);
	int s, i;
	char buf[32];

	fputs("<div class=tw><table><tr><th>stage</th><th>N</th><th>min</th><th>avg</th>", f);
	for (i = 0; i < REPORT_N_PCT; i++)
		fprintf(f, "<th>%s</th>", report_pct_names[i]);
	fputs("<th>max</th></tr>\n", f);
	for (s = 0; s < BS_ST_COUNT; s++) {
		const struct sketch *sk = &st[s];

		fprintf(f, "<tr><th>%s</th>", report_stage_names[s]);
		if (!sk->n) {
			fprintf(f, "<td>0</td><td class=na colspan=%d>not observed</td></tr>\n",
				REPORT_N_PCT + 3);
			continue;
		}
		fprintf(f, "<td>%" PRIu64 "</td>", sk->n);
		svg_fmt_ns(buf, sizeof(buf), (double)sk->min);
		fprintf(f, "<td>%s</td>", buf);
		svg_fmt_ns(buf, sizeof(buf), (double)sk->sum / sk->n);
		fprintf(f, "<td>%s</td>", buf);
		for (i = 0; i < REPORT_N_PCT; i++)
			td_ns(f, sk, report_pct_ppm[i]);
		td_ns(f, sk, 1000000);
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

void report_html_row_head(FILE *f, const char *first)
{
	fprintf(f,
		"<div class=tw><table><tr><th>%s</th><th>I/Os</th><th>MB</th><th>Q2C "
		"p50</th><th>Q2C p99</th>"
		"<th>Q2C max</th><th>D2C p50</th><th>D2C p99</th><th>D2C max</th><th>merged</th>"
		"<th>requeued</th><th>errors</th></tr>\n",
		first);
}

void report_html_row(FILE *f, const char *name, const char *color, const struct report_lat *ls)
{
	struct sketch one[BS_ST_COUNT];
	const struct sketch *st = report_lat_stages(ls, one);

	fputs("<tr><th>", f);
	if (color)
		fprintf(f, "<span class=sw style=\"background:%s\"></span>", color);
	bs_xml_text(f, name);
	fprintf(f, "</th><td>%" PRIu64 "</td><td>%.3f</td>", ls->ios, ls->bytes / 1e6);
	td_ns(f, &st[BS_ST_Q2C], 500000);
	td_ns(f, &st[BS_ST_Q2C], 990000);
	td_ns(f, &st[BS_ST_Q2C], 1000000);
	td_ns(f, &st[BS_ST_D2C], 500000);
	td_ns(f, &st[BS_ST_D2C], 990000);
	td_ns(f, &st[BS_ST_D2C], 1000000);
	fprintf(f, "<td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td></tr>\n",
		ls->merged, ls->requeued, ls->errors);
}

/* Per-device percentiles and rows: the first MAX_ROWS devices (the rest is in --json). */
static void device_tables(const struct bs_report *r, const struct report_rollup *ru, FILE *f)
{
	char name[64];
	size_t k;

	for (k = 0; r->ndev > 1 && k < r->ndev && k < MAX_ROWS; k++) {
		report_dev_name(r->devs[k].device, name, sizeof(name));
		fprintf(f, "<div data-dev=\"%s\"><h2>Latency percentiles, %s</h2>\n", name, name);
		stage_table(f, &ru->dev[k]);
		fputs("</div>\n", f);
	}
	fputs("<h2>By device</h2>\n", f);
	report_html_row_head(f, "device");
	for (k = 0; k < r->ndev && k < MAX_ROWS; k++) {
		report_dev_name(r->devs[k].device, name, sizeof(name));
		report_html_row(f, name, NULL, &ru->dev[k]);
	}
	fputs("</table></div>\n", f);
	if (r->ndev > MAX_ROWS)
		fprintf(f, "<p class=note>%zu more devices: see --json or --csv.</p>\n",
			r->ndev - MAX_ROWS);
}

/*
 * Charts take the width they get: as many columns of at least 520 px as
 * fit (one on a narrow screen), the SVGs scale to them (viewBox); wide
 * tables scroll inside their box, so the page itself never scrolls
 * sideways.
 */
const char svg_page_css[] =
	"body{font-family:sans-serif;margin:16px;color:#222;background:#fff}"
	"h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:18px 0 6px}"
	".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,520px),1fr));"
	"gap:10px}"
	"figure{margin:0;min-width:0}figure svg{display:block;width:100%;height:auto}"
	".tw{max-width:100%;overflow-x:auto}"
	"table{border-collapse:collapse;font-size:12px;margin-bottom:8px}"
	"td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}"
	"th{background:#f4f4f4}td.na{color:#999;text-align:center}"
	".sw{display:inline-block;width:10px;height:10px;margin-right:4px}"
	".note{color:#555;font-size:12px}"
	"#summary{border:1px solid #ccc;border-radius:4px;padding:8px 12px;margin:10px "
	"0;max-width:1100px}"
	"#summary p{margin:4px 0}.bar{display:flex;height:16px;margin:4px 0;max-width:600px}"
	".bar span{display:block;height:100%}"
	"#controls{margin:6px 0;font-size:13px}"
	".hv rect:hover{fill-opacity:.07}.brush{fill:#1f77b4;fill-opacity:.15}"
	".health{border:2px solid #c00;background:#fff0f0;border-radius:4px;padding:4px "
	"12px;margin:10px 0;"
	"max-width:1100px}.health h2{color:#c00;margin:6px 0}"
	".trigger{border:2px solid #d62728;border-radius:4px;padding:4px 12px;margin:10px "
	"0;max-width:1100px}"
	".trigger h2{margin:6px 0}.trigger li{margin:4px 0}";

/*
 * Zoom: drag across a time chart to show that time range in every time
 * chart (the data groups .zm get a horizontal scale, the time labels are
 * redrawn), Reset to go back; the device selector hides the per-device
 * parts of other devices.  No script: everything is shown, unzoomed.
 */
static const char script[] =
	"(function(){var "
	"S=[].slice.call(document.querySelectorAll('svg[data-t0]'));if(!S.length)return;"
	"var c=document.getElementById('controls');c.hidden=false;"
	"var T0=+S[0].dataset.t0,T1=+S[0].dataset.t1,A=T0,B=T1;"
	"function fx(v,d){var s=v.toFixed(d);return s.indexOf('.')<0?s:s.replace(/\\.?0+$/,'');}"
	"function step(r){var x=r/8,m=Math.pow(10,Math.floor(Math.log10(x))),n=x/m;"
	"return (n<=1?1:n<=2?2:n<=5?5:10)*m;}"
	"function draw(a,b){A=a;B=b;S.forEach(function(s){var p=s.dataset.plot.split(' "
	"').map(Number),"
	"t0=+s.dataset.t0,t1=+s.dataset.t1,X=function(t){return p[0]+(t-t0)/(t1-t0)*p[2];},"
	"k=p[2]/(X(b)-X(a)),e=p[0]-k*X(a),z=s.querySelector('g.zm');"
	"if(z)z.setAttribute('transform','matrix('+k+' 0 0 1 '+e+' 0)');"
	"var g=s.querySelector('g.xt');if(!g)return;var u=+g.dataset.unit,st=step((b-a)/u),"
	"d=st>=1?0:Math.ceil(-Math.log10(st)-1e-9),y=g.firstElementChild?g.firstElementChild."
	"getAttribute('y'):0;"
	"while(g.firstChild)g.removeChild(g.firstChild);"
	"for(var v=Math.ceil(a/u/st-1e-9)*st;v<=b/u+st*1e-6;v+=st){"
	"var t=document.createElementNS('http://www.w3.org/2000/svg','text');"
	"t.setAttribute('x',(p[0]+(v*u-a)/(b-a)*p[2]).toFixed(1));t.setAttribute('y',y);"
	"t.textContent=fx(Math.abs(v)<st*1e-6?0:v,d);g.appendChild(t);}});}"
	"function at(s,ev){var "
	"m=s.getScreenCTM().inverse(),q=s.createSVGPoint();q.x=ev.clientX;q.y=ev.clientY;"
	"return q.matrixTransform(m).x;}"
	"S.forEach(function(s){var p=s.dataset.plot.split(' ').map(Number),x0=null,r=null;"
	"function T(x){return A+(Math.min(Math.max(x,p[0]),p[0]+p[2])-p[0])/p[2]*(B-A);}"
	"s.addEventListener('mousedown',function(ev){var x=at(s,ev);if(x<p[0]||x>p[0]+p[2])return;"
	"ev.preventDefault();x0=x;r=document.createElementNS('http://www.w3.org/2000/svg','rect');"
	"r.setAttribute('class','brush');r.setAttribute('y',p[1]);r.setAttribute('height',p[3]);"
	"r.setAttribute('x',x);r.setAttribute('width',0);s.appendChild(r);});"
	"s.addEventListener('mousemove',function(ev){if(x0===null)return;var x=at(s,ev);"
	"r.setAttribute('x',Math.min(x,x0));r.setAttribute('width',Math.abs(x-x0));});"
	"function up(ev){if(x0===null)return;var "
	"x=at(s,ev),a=T(Math.min(x,x0)),b=T(Math.max(x,x0));"
	"s.removeChild(r);x0=null;if(b-a>(B-A)/200)draw(a,b);}"
	"s.addEventListener('mouseup',up);s.addEventListener('mouseleave',up);});"
	"document.getElementById('reset').addEventListener('click',function(){draw(T0,T1);});"
	"var d=document.getElementById('devsel');if(d)d.addEventListener('change',function(){"
	"[].forEach.call(document.querySelectorAll('[data-dev]'),function(e){"
	"e.style.display=d.value===''||e.dataset.dev===d.value?'':'none';});});})();";

static void controls(const struct bs_report *r, FILE *f)
{
	char name[64];
	size_t k;

	/* hidden until the script runs: without it they would do nothing */
	fputs("<div id=controls hidden><button id=reset type=button>Reset zoom</button> "
	      "<span class=note>drag across a time chart to zoom; hover for values</span>", f);
	if (r->ndev > 1) {
		fputs(" <label>device <select id=devsel><option value=\"\">all</option>", f);
		for (k = 0; k < r->ndev && k < MAX_ROWS; k++) {
			report_dev_name(r->devs[k].device, name, sizeof(name));
			fprintf(f, "<option>%s</option>", name);
		}
		fputs("</select></label>", f);
	}
	fputs("</div>\n", f);
}

/*
 * The process or group table: ranked (report_rank.c), MAX_ROWS rows, the
 * one-I/O ones of a name folded into a row when there are more than that;
 * a group drawn in the charts gets its chart color.
 */
static void ranked_table(struct bs_report *r, FILE *f, bool groups)
{
	int top[SVG_TOP_GROUPS], ntop = groups ? svg_top_groups(r, top) : 0, i;
	size_t k, n = groups ? r->ngroup : r->nproc, shown = 0, nfold = 0;
	struct rank_rows rows;

	if (groups)
		report_group_rows(r, MAX_ROWS, &rows);
	else
		report_proc_rows(r, MAX_ROWS, &rows);
	report_html_row_head(f, groups ? "group" : "process");
	for (k = 0; k < rows.n && k < MAX_ROWS; k++) {
		const char *color = NULL;

		for (i = 0; groups && rows.v[k].folded == 1 && i < ntop; i++)
			if (&r->groups[top[i]].set == rows.v[k].set)
				color = svg_group_color(i);
		report_html_row(f, rows.v[k].label, color, rows.v[k].set);
		shown += rows.v[k].folded;
		nfold += rows.v[k].folded > 1;
	}
	fputs("</table></div>\n", f);
	if (nfold)
		fprintf(f,
			"<p class=note>NAME (N %s): N %s of that name with one I/O each, as one "
			"row.</p>\n",
			groups ? "groups" : "pids", groups ? "groups" : "processes");
	if (shown < n)
		fprintf(f, "<p class=note>%zu more %s: see --json or --csv.</p>\n", n - shown,
			groups ? "groups" : "processes");
	report_rank_rows_free(&rows);
}

int report_html(struct bs_report *r, const char *path)
{
	struct svg_chart charts[MAX_CHARTS];
	FILE *f = report_create_file(path, r->create_flags, &r->msg);
	int nc, i;
	const struct report_rollup *ru;
	char name[64], buf[32];

	if (!f)
		return -1;
	ru = report_rollup(r);
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
		"<title>blkscope analyze</title><style>%s</style></head><body>\n", svg_page_css);
	svg_fmt_ns(buf, sizeof(buf), (double)r->end_time);
	fprintf(f,
		"<h1>blkscope analyze</h1>\n<p class=note>%" PRIu64 " I/Os (queued bios), %" PRIu64
		" completed, %zu device(s), trace length %s; time series: %zu buckets of ",
		ru->all.ios, ru->all.completed, r->ndev, buf, r->ts.nb);
	svg_fmt_ns(buf, sizeof(buf), (double)r->ts.width);
	fprintf(f, "%s. Percentiles: nearest rank, relative error &le; 0.8%%.", buf);
	if (report_devs_without_offmap(r))
		fprintf(f,
			" Offset maps are kept for the first devices seen only, to bound memory: "
			"%zu of %zu devices have none.",
			report_devs_without_offmap(r), r->ndev);
	fputs("</p>\n", f);
	report_health_html(r->health, f);
	report_triggers_html(r->health, f);
	report_summary(r, f);
	controls(r, f);
	fputs("<div class=grid>\n", f);
	nc = svg_charts(r, charts, MAX_CHARTS);
	for (i = 0; i < nc; i++) {
		fprintf(f, "<figure id=\"chart-%s\" data-chart=\"%s\"", charts[i].name,
			charts[i].name);
		if (charts[i].dev >= 0) {
			report_dev_name(r->devs[charts[i].dev].device, name, sizeof(name));
			fprintf(f, " data-dev=\"%s\"", name);
		}
		fputc('>', f);
		svg_draw(r, f, &charts[i]);
		fputs("</figure>\n", f);
	}
	fputs("</div>\n<h2>Latency percentiles, all devices</h2>\n", f);
	stage_table(f, &ru->all);
	device_tables(r, ru, f);
	fputs("<h2>By operation</h2>\n", f);
	report_html_row_head(f, "op");
	for (i = 0; i < BS_OP_COUNT; i++)
		if (ru->op[i].ios)
			report_html_row(f, report_op_names[i], NULL, &ru->op[i]);
	fprintf(f, "</table></div>\n<h2>By process (the Q's pid; most %s first)</h2>\n",
		report_sort_name(r));
	ranked_table(r, f, false);
	if (r->groups_used) {
		fprintf(f, "<h2>By group (most %s first)</h2>\n", report_sort_name(r));
		ranked_table(r, f, true);
	}
	report_attr_html(r, f);	/* record --files --stacks: the flame graph, files */
	fprintf(f, "<script>%s</script>\n</body></html>\n", script);
	return report_close_file(f, path, &r->msg);
}

/* --svg NAME=FILE: one chart to one file. */
/* --svg NAME=FILE named no chart: say which there are, in one line */
static int svg_no_chart(struct bs_report *r, const struct svg_chart *charts, int nc,
			const char *arg, const char *eq)
{
	char list[2048];
	size_t len = 0;
	int i;

	list[0] = '\0';
	for (i = 0; i < nc && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, " %s", charts[i].name);
	bs_msg(&r->msg, BS_MSG_ERROR, "--svg %s: no chart '%.*s' in this trace; charts:%s", arg,
	       (int)(eq - arg), arg, list);
	return -1;
}

static int svg_one(struct bs_report *r, const struct svg_chart *charts, int nc, const char *arg,
		   const char *eq)
{
	const char *path = eq + 1;
	FILE *f;
	int i;

	for (i = 0; i < nc; i++) {
		if (strlen(charts[i].name) != (size_t)(eq - arg) ||
		    strncmp(charts[i].name, arg, (size_t)(eq - arg)))
			continue;
		f = report_create_file(path, r->create_flags, &r->msg);
		if (!f)
			return -1;
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
		svg_draw(r, f, &charts[i]);
		return report_close_file(f, path, &r->msg);
	}
	return svg_no_chart(r, charts, nc, arg, eq);
}

int report_svg(struct bs_report *r, const char *dir)
{
	struct svg_chart charts[MAX_CHARTS];
	char path[4096];
	const char *eq = strchr(dir, '=');
	int nc, i, rc = 0;

	nc = svg_charts(r, charts, MAX_CHARTS);
	if (eq)
		return svg_one(r, charts, nc, dir, eq);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		bs_msg(&r->msg, BS_MSG_ERROR, "cannot create directory %s: %s", dir,
		       strerror(errno));
		return -1;
	}
	for (i = 0; i < nc; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.svg", dir, charts[i].name);
		f = report_create_file(path, r->create_flags, &r->msg);
		if (!f)
			return -1;
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
		svg_draw(r, f, &charts[i]);
		if (report_close_file(f, path, &r->msg))
			rc = -1;
	}
	return rc;
}
