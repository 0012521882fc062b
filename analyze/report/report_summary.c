// SPDX-License-Identifier: GPL-2.0
/*
 * report_summary.c - the latency summary that opens the HTML page: the
 * worst interval (highest Q2C p99 of a time bucket), the slowest group
 * (or process, without groups) by Q2C p99 among those that account for 1%
 * of the summed Q2C time, and where the time goes: every completed I/O's
 * Q2C split once into its parts (report.h, enum time_part), each part's
 * share of the summed Q2C.
 *
 * The figures are also data attributes of the panel (data-worst-start-ns,
 * data-worst-q2c-p99-ns, data-share-q2g, ...), derived from the same
 * state as --json (timeseries "all" q2c.p99, stages' n x avg), so a test
 * can check one against the other.
 */
#include <inttypes.h>
#include <stdlib.h>
#include "bs_escape.h"
#include "report_priv.h"
#include "svg.h"

/* The parts of a Q2C (enum time_part), their colors in the share bar. */
static const char *const share_color[TP_COUNT] = {
	"#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#ff7f0e",
	"#17becf", "#7f7f7f", "#2ca02c", "#d62728",
};
#define NSHARE TP_COUNT

/* The bucket with the highest Q2C p99 (the first of equals), -1 if none completed. */
static long worst_bucket(const struct bs_report *r, struct ts_cell *out)
{
	const struct ts_series *ts = &r->ts;
	uint64_t best = 0;
	long worst = -1;
	size_t b;

	for (b = 0; b < ts->nb; b++) {
		struct ts_cell c;
		uint64_t p;

		ts_cell_sum_all(ts, b, TS_ANY, TS_ANY, &c);
		p = c.q2c.n ? sketch_quantile(&c.q2c, 990000) : 0;
		if (c.q2c.n && (worst < 0 || p > best)) {
			best = p;
			worst = (long)b;
			ts_cell_free(out);
			*out = c;
			continue;
		}
		ts_cell_free(&c);
	}
	return worst;
}

/*
 * Of the slices that account for at least 1% of the summed Q2C time (the
 * time a group contributes, not its share of the I/O count: a kworker's
 * few 26 ms writebacks weigh more than many fast reads), the highest Q2C p99.
 */
static bool slower(const struct report_lat *ls, uint64_t min_time, uint64_t *best)
{
	struct sketch buf;
	const struct sketch *q2c = report_lat_stage(ls, BS_ST_Q2C, &buf);
	uint64_t p;

	if (!q2c->n || q2c->sum < min_time)
		return false;
	p = sketch_quantile(q2c, 990000);
	if (p <= *best)
		return false;
	*best = p;
	return true;
}

static void slowest(struct bs_report *r, const struct report_rollup *ru, FILE *f)
{
	struct sketch one;
	uint64_t min_n = report_lat_stage(&ru->all, BS_ST_Q2C, &one)->sum / 100, best = 0;
	const struct report_lat *set = NULL;
	char name[64] = "", buf[32];
	size_t k;

	if (!min_n)
		min_n = 1;
	if (r->groups_used) {
		for (k = 0; k < r->ngroup; k++)
			if (slower(&r->groups[k].set, min_n, &best)) {
				set = &r->groups[k].set;
				snprintf(name, sizeof(name), "%s", report_group_name(r, (int)k));
			}
	} else {
		for (k = 0; k < r->nproc; k++)
			if (slower(report_proc_set(r->proc_list[k]), min_n, &best)) {
				set = report_proc_set(r->proc_list[k]);
				snprintf(name, sizeof(name), "%s (%u)",
					 r->proc_list[k]->comm[0] ? r->proc_list[k]->comm : "?",
					 r->proc_list[k]->pid);
			}
	}
	if (!set)
		return;
	svg_fmt_ns(buf, sizeof(buf), (double)best);
	fprintf(f,
		"<p id=slowest><b>Slowest %s</b> (Q2C p99, of those with at least 1%% of the "
		"summed Q2C time): ",
		r->groups_used ? "group" : "process");
	bs_xml_text(f, name);
	fprintf(f, ", Q2C p99 %s over %" PRIu64 " I/Os.</p>\n", buf,
		report_lat_stage(set, BS_ST_Q2C, &one)->n);
}

void report_summary(struct bs_report *r, FILE *f)
{
	const struct report_rollup *ru = report_rollup(r);
	const struct ts_series *ts = &r->ts;
	struct ts_cell w;
	double sum[NSHARE], total = 0;
	char a[32], z[32], v[32], q[32], d[32];
	long wb;
	int i, k;

	ts_cell_sum_all(ts, ts->nb, TS_ANY, TS_ANY, &w);	/* empty */
	wb = worst_bucket(r, &w);
	for (i = 0; i < NSHARE; i++) {
		sum[i] = (double)r->part_ns[i];
		total += sum[i];
	}
	fputs("<section id=summary", f);
	if (wb >= 0)
		fprintf(f,
			" data-worst-start-ns=\"%" PRIu64 "\" data-worst-q2c-p99-ns=\"%" PRIu64
			"\"",
			ts_bucket_start(ts, (size_t)wb), sketch_quantile(&w.q2c, 990000));
	for (i = 0; i < NSHARE && total > 0; i++)
		if (sum[i] > 0)
			fprintf(f, " data-share-%c%c%c=\"%.1f\"",
				report_time_part_names[i][0] | 0x20, report_time_part_names[i][1],
				report_time_part_names[i][2] | 0x20, 100 * sum[i] / total);
	fputs(">\n<h2>Latency summary</h2>\n", f);
	if (wb < 0) {
		fputs("<p>No I/O completed: nothing to summarize.</p>\n</section>\n", f);
		ts_cell_free(&w);
		return;
	}
	svg_fmt_ns(a, sizeof(a), (double)ts_bucket_start(ts, (size_t)wb));
	svg_fmt_ns(z, sizeof(z), (double)ts_bucket_start(ts, (size_t)wb + 1));
	svg_fmt_ns(v, sizeof(v), (double)sketch_quantile(&w.q2c, 990000));
	fprintf(f, "<p id=worst><b>Worst interval</b>: %s to %s, Q2C p99 %s over %" PRIu64 " I/Os",
		a, z, v, w.q2c.n);
	if (w.q2d.n && w.d2c.n) {
		svg_fmt_ns(q, sizeof(q), (double)sketch_quantile(&w.q2d, 990000));
		svg_fmt_ns(d, sizeof(d), (double)sketch_quantile(&w.d2c, 990000));
		fprintf(f, " (p99 in the block layer, Q2D: %s; at the device, D2C: %s)", q, d);
	}
	fputs(".</p>\n", f);
	ts_cell_free(&w);
	slowest(r, ru, f);
	if (total > 0) {
		fputs("<p id=shares><b>Where the time goes</b> (each completed I/O's Q2C split "
		      "once into the "
		      "parts it went through; shares of the summed Q2C): ",
		      f);
		for (i = 0, k = 0; i < NSHARE; i++)
			if (sum[i] > 0)
				fprintf(f,
					"%s<span class=sw style=\"background:%s\"></span>%s %.1f%%",
					k++ ? ", " : "", share_color[i], report_time_part_names[i],
					100 * sum[i] / total);
		fputs(".</p>\n<div class=bar>", f);
		for (i = 0; i < NSHARE; i++)
			if (sum[i] > 0)
				fprintf(f,
					"<span style=\"width:%.2f%%;background:%s\" title=\"%s "
					"%.1f%%\"></span>",
					100 * sum[i] / total, share_color[i],
					report_time_part_names[i], 100 * sum[i] / total);
		fputs("</div>\n<p class=note>btt's Device Overhead (the text report) divides each "
		      "stage's total "
		      "over every bio that has it by the Q2C total: its columns need not add up to "
		      "100% and "
		      "differ from these shares.</p>\n",
		      f);
	}
	fputs("</section>\n", f);
}
