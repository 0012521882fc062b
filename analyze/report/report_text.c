// SPDX-License-Identifier: GPL-2.0
/*
 * report_text.c - the --stats sections printed after btt's report:
 * per-stage percentiles, biolatency-style log2 histograms, breakdowns by
 * device, operation, process and group, event counts (merges, requeues,
 * splits) and, with --interval, the time series.  Latencies in µs.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "bs_escape.h"
#include "report_priv.h"

#define MAX_PROC_ROWS 20
#define MAX_GROUP_ROWS 50

static void title(FILE *out, const char *t)
{
	fprintf(out, "==================== %s ====================\n\n", t);
}

static void us(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%.3f", ns / 1000.0);
}

static void stage_table(FILE *out, const struct report_lat *ls)
{
	struct sketch buf[BS_ST_COUNT];
	const struct sketch *st = report_lat_stages(ls, buf);
	char v[REPORT_N_PCT + 3][24];
	int s, i;

	fprintf(out, "%-5s %10s %12s %12s", "STAGE", "N", "MIN", "AVG");
	for (i = 0; i < REPORT_N_PCT; i++)
		fprintf(out, " %12s", report_pct_names[i]);
	fprintf(out, " %12s   (µs)\n", "MAX");
	for (s = 0; s < BS_ST_COUNT; s++) {
		const struct sketch *sk = &st[s];

		if (!sk->n) {
			fprintf(out, "%-5s %10s   not observed\n", report_stage_names[s], "0");
			continue;
		}
		us(v[0], sizeof(v[0]), sk->min);
		us(v[1], sizeof(v[1]), report_lat_avg_ns(sk));
		for (i = 0; i < REPORT_N_PCT; i++)
			us(v[2 + i], sizeof(v[0]), sketch_quantile(sk, report_pct_ppm[i]));
		us(v[2 + REPORT_N_PCT], sizeof(v[0]), sk->max);
		fprintf(out, "%-5s %10" PRIu64, report_stage_names[s], sk->n);
		for (i = 0; i < REPORT_N_PCT + 3; i++)
			fprintf(out, " %12s", v[i]);
		fputc('\n', out);
	}
	fputc('\n', out);
}

/* biolatency's print_log2_hist(): usecs buckets [2^i, 2^(i+1)), 0 and 1 together. */
static void log2_hist(FILE *out, const char *what, const struct sketch *sk)
{
	uint64_t cnt[64], max = 0;
	int i, last = -1;
	bool wide;

	for (i = 0; i < 64; i++) {
		uint64_t lo = i ? 1000ull << i : 0, hi = i < 53 ? 1000ull << (i + 1) : UINT64_MAX;

		cnt[i] = sketch_count_range(sk, lo, hi);
		if (cnt[i]) {
			last = i;
			if (cnt[i] > max)
				max = cnt[i];
		}
		if (i >= 53)
			break;
	}
	fprintf(out, "%s:\n", what);
	if (last < 0) {
		fprintf(out, "    not observed\n\n");
		return;
	}
	/* biolatency widens the columns and halves the bars past 32 buckets */
	wide = last > 32;
	fprintf(out, "%*s%-*s : count    distribution\n", wide ? 15 : 5, "", wide ? 29 : 19,
		"usecs");
	for (i = 0; i <= last; i++) {
		uint64_t lo = i ? (uint64_t)1 << i : 0, hi = ((uint64_t)1 << (i + 1)) - 1;
		int width = wide ? 20 : 10, bars = wide ? 20 : 40;
		int stars = (int)(cnt[i] * (uint64_t)bars / max);
		char bar[41];

		memset(bar, '*', (size_t)stars);
		bar[stars] = 0;
		fprintf(out, "%*" PRIu64 " -> %-*" PRIu64 " : %-8" PRIu64 " |%-*s|\n", width, lo,
			width, hi, cnt[i], bars, bar);
	}
	fputc('\n', out);
}

void report_text_row_head(FILE *out, const char *first)
{
	fprintf(out, "%-22s %10s %10s %11s %11s %11s %11s %11s %11s %8s %8s %7s\n", first, "IOs",
		"MB", "Q2C p50", "Q2C p99", "Q2C max", "D2C p50", "D2C p99", "D2C max", "merged",
		"requeued", "errors");
}

static void cell(char *buf, size_t len, const struct sketch *sk, uint32_t ppm)
{
	if (!sk->n)
		snprintf(buf, len, "-");
	else
		us(buf, len, sketch_quantile(sk, ppm));
}


/* name may come from the trace (a process name, a group): terminal-safe. */
void report_text_row(FILE *out, const char *name, const struct report_lat *ls)
{
	struct sketch buf[BS_ST_COUNT];
	const struct sketch *st = report_lat_stages(ls, buf);
	char c[6][24], safe[256], path[32];

	cell(c[0], sizeof(c[0]), &st[BS_ST_Q2C], 500000);
	cell(c[1], sizeof(c[0]), &st[BS_ST_Q2C], 990000);
	cell(c[2], sizeof(c[0]), &st[BS_ST_Q2C], 1000000);
	cell(c[3], sizeof(c[0]), &st[BS_ST_D2C], 500000);
	cell(c[4], sizeof(c[0]), &st[BS_ST_D2C], 990000);
	cell(c[5], sizeof(c[0]), &st[BS_ST_D2C], 1000000);
	/*
	 * cut at a character, not a byte: a UTF-8 name stays whole and
	 * aligned; a long path (--group-by file, dir) keeps its end, where
	 * the file's name is
	 */
	if (name[0] == '/' && strlen(name) > 22) {
		const char *tail = name + strlen(name) - 21;

		while (((unsigned char)*tail & 0xc0) == 0x80)	/* not inside a character */
			tail++;
		snprintf(path, sizeof(path), "...%s", tail + 2);
		name = path;
	}
	fprintf(out,
		"%s %10" PRIu64 " %10.3f %11s %11s %11s %11s %11s %11s %8" PRIu64 " %8" PRIu64
		" %7" PRIu64 "\n",
		bs_term_cell(safe, sizeof(safe), name, 22), ls->ios, ls->bytes / 1e6, c[0], c[1],
		c[2], c[3], c[4], c[5], ls->merged, ls->requeued, ls->errors);
}

/*
 * A ranked table (processes or groups, report_rank.c): at most max rows,
 * the one-I/O ones of a name folded when there are more than that, and
 * what was left out counted.
 */
static void ranked_rows(struct bs_report *r, FILE *out, const char *head, bool groups, size_t max)
{
	struct rank_rows rows;
	size_t i, n = groups ? r->ngroup : r->nproc, shown = 0;
	bool folded = false;

	if (groups)
		report_group_rows(r, max, &rows);
	else
		report_proc_rows(r, max, &rows);
	report_text_row_head(out, head);
	for (i = 0; i < rows.n && i < max; i++) {
		report_text_row(out, rows.v[i].label, rows.v[i].set);
		shown += rows.v[i].folded;
		folded |= rows.v[i].folded > 1;
	}
	if (shown < n)
		fprintf(out, "... %zu more %s (see --json or --csv)\n", n - shown,
			groups ? "groups" : "processes");
	if (folded)
		fprintf(out, "(NAME (N %s): N %s of that name with one I/O each, as one row)\n",
			groups ? "groups" : "pids", groups ? "groups" : "processes");
	report_rank_rows_free(&rows);
	fputc('\n', out);
}

static void counters_table(const struct bs_report *r, FILE *out)
{
	int i, o, w = 8;
	char dn[32];

	if (!r->ncounters)
		return;
	/* zone operations (v8 input) have longer names: widen OP only then */
	for (i = 0; i < r->ncounters; i++)
		for (o = BS_OP_V7_COUNT; o < BS_OP_COUNT; o++)
			if (bs_dev_op(&r->counters[i], o)->queued ||
			    bs_dev_op(&r->counters[i], o)->issued ||
			    bs_dev_op(&r->counters[i], o)->completed)
				w = 14;
	title(out, "Merges, Requeues, Splits (beyond btt), counts of I/Os");
	fprintf(out, "%-10s %-*s %10s %10s %10s %10s %10s\n", "DEV", w, "OP", "Queued", "Merged",
		"Requeued", "Issued", "Completed");
	for (i = 0; i < r->ncounters; i++) {
		const struct bs_dev_counters *c = &r->counters[i];

		report_dev_name(c->device, dn, sizeof(dn));
		for (o = 0; o < BS_OP_COUNT; o++) {
			const struct bs_op_counts *oc = bs_dev_op(c, o);

			if (!oc->queued && !oc->merges && !oc->requeues && !oc->issued &&
			    !oc->completed)
				continue;
			fprintf(out,
				"%-10s %-*s %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
				" %10" PRIu64 "\n",
				dn, w, report_op_names[o], oc->queued, oc->merges, oc->requeues,
				oc->issued, oc->completed);
		}
		fprintf(out,
			"%-10s %-*s splits %" PRIu64 ", remaps %" PRIu64 ", errors %" PRIu64 "\n",
			dn, w, "", c->splits, c->remaps, c->errors);
	}
	fputc('\n', out);
}

static void timeseries_table(const struct bs_report *r, FILE *out)
{
	const struct ts_series *ts = &r->ts;
	size_t b;

	title(out, "Time Series (all devices), time in s, latencies in µs");
	fprintf(out, "%12s %10s %10s %11s %11s %11s %11s %8s\n", "TIME(s)", "IOPS", "MB/s",
		"Q2C p50", "Q2C p99", "D2C p50", "D2C p99", "depth");
	for (b = 0; b < ts->nb; b++) {
		struct ts_cell c;
		uint64_t start = ts_bucket_start(ts, b), dur = ts->width;
		char v[4][24];

		if (r->end_time > start && r->end_time - start < dur)
			dur = r->end_time - start;
		if (!dur)
			dur = 1;
		ts_cell_sum(ts, b, TS_ANY, TS_ANY, &c);
		cell(v[0], sizeof(v[0]), &c.q2c, 500000);
		cell(v[1], sizeof(v[0]), &c.q2c, 990000);
		cell(v[2], sizeof(v[0]), &c.d2c, 500000);
		cell(v[3], sizeof(v[0]), &c.d2c, 990000);
		fprintf(out, "%12.6f %10.1f %10.3f %11s %11s %11s %11s %8.2f\n", start / 1e9,
			c.ios * 1e9 / dur, c.bytes * 1e3 / dur, v[0], v[1], v[2], v[3],
			(double)c.inflight_ns / dur);
		sketch_free(&c.q2c);
		sketch_free(&c.d2c);
	}
	fputc('\n', out);
}

/* Each completed I/O's Q2C split once (report.h, enum time_part): shares that add up. */
static void time_parts(const struct bs_report *r, FILE *out)
{
	uint64_t total = 0;
	int i, k = 0;

	for (i = 0; i < TP_COUNT; i++)
		total += r->part_ns[i];
	if (!total)
		return;
	fprintf(out,
		"Where the time goes (each completed I/O's Q2C split once into the parts it went "
		"through): ");
	for (i = 0; i < TP_COUNT; i++)
		if (r->part_ns[i])
			fprintf(out, "%s%s %.1f%%", k++ ? ", " : "", report_time_part_names[i],
				100.0 * (double)r->part_ns[i] / (double)total);
	fprintf(out,
		".\n(btt's Device Overhead above divides each stage's total over every bio that "
		"has "
		"it by the Q2C total: its columns need not add up to 100%%.)\n\n");
}

void report_text(struct bs_report *r, FILE *out)
{
	const struct report_rollup *ru;
	struct sketch one;
	char name[96];	/* a device's name, or a title */
	size_t i;
	int o;

	ru = report_rollup(r);
	if (r->cgroup_records)	/* btt dispatches on the whole action word: the flag hides them */
		fprintf(out,
			"Note: btt's sections above ignore the %" PRIu64
			" records with a cgroup id "
			"(as btt does); the sections below count them.\n\n",
			r->cgroup_records);
	report_btt_differs(r->health, r->btt_open, out);
	title(out, "Latency Percentiles (all devices), in µs");
	fprintf(out, "%" PRIu64 " I/Os (queued bios), %" PRIu64 " completed", ru->all.ios,
		ru->all.completed);
	if (ru->all.open)
		fprintf(out, ", %" PRIu64 " still in flight at the end", ru->all.open);
	if (ru->all.lossy)
		fprintf(out, ", %" PRIu64 " touched by lost events (in no latency below)",
			ru->all.lossy);
	fprintf(out, "; percentiles: nearest rank, relative error <= 0.8%%\n\n");
	stage_table(out, &ru->all);
	time_parts(r, out);
	for (i = 0; r->ndev > 1 && i < r->ndev; i++) {
		char t[160];

		report_dev_name(r->devs[i].device, name, sizeof(name));
		snprintf(t, sizeof(t), "Latency Percentiles (%s), in µs", name);
		title(out, t);
		stage_table(out, &ru->dev[i]);
	}

	title(out, "Latency Histograms (all devices), in µs");
	log2_hist(out, "D2C (issue to completion)", report_lat_stage(&ru->all, BS_ST_D2C, &one));
	log2_hist(out, "Q2C (queue to completion)", report_lat_stage(&ru->all, BS_ST_Q2C, &one));

	title(out, "Breakdown by Device (latencies in µs)");
	report_text_row_head(out, "DEV");
	for (i = 0; i < r->ndev; i++) {
		report_dev_name(r->devs[i].device, name, sizeof(name));
		report_text_row(out, name, &ru->dev[i]);
	}
	fputc('\n', out);

	title(out, "Breakdown by Operation (latencies in µs)");
	report_text_row_head(out, "OP");
	for (o = 0; o < BS_OP_COUNT; o++)
		if (ru->op[o].ios)
			report_text_row(out, report_op_names[o], &ru->op[o]);
	fputc('\n', out);

	snprintf(name, sizeof(name),
		 "Breakdown by Process (Q's pid; latencies in µs; most %s first)",
		 report_sort_name(r));
	title(out, name);
	ranked_rows(r, out, "PROCESS", false, MAX_PROC_ROWS);
	if (r->groups_used) {
		snprintf(name, sizeof(name), "Breakdown by Group (latencies in µs; most %s first)",
			 report_sort_name(r));
		title(out, name);
		ranked_rows(r, out, "GROUP", true, MAX_GROUP_ROWS);
	}

	report_attr_text(r, out);	/* record --files --stacks */
	counters_table(r, out);
	if (r->interval_ns)
		timeseries_table(r, out);
}
