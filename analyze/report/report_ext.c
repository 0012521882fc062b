// SPDX-License-Identifier: GPL-2.0
/*
 * report_ext.c - the analyzer extension (analysis.h) behind --stats,
 * --json, --csv, --html, --svg, --group, --group-by and --interval: option
 * parsing, registering the sample sink (report_state.c), and the
 * end-of-trace calls to the writers.  When none of these outputs is asked
 * for no sink is registered and the btt report runs at full speed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "bs_stream.h"
#include "bs_alloc.h"
#include "bs_outfile.h"
#include "bs_writer.h"
#include "report_priv.h"

enum {	/* this extension's option vals (analysis.h: local to it) */
	OPT_STATS,
	OPT_JSON,
	OPT_CSV,
	OPT_HTML,
	OPT_SVG,
	OPT_GROUP,
	OPT_GROUP_BY,
	OPT_INTERVAL,
	OPT_FOLDED,
	OPT_FOLDED_WEIGHT,
	OPT_SORT,
};

static const struct option report_options[] = {
	{ "stats",    no_argument,       NULL, OPT_STATS },
	{ "json",     required_argument, NULL, OPT_JSON },
	{ "csv",      required_argument, NULL, OPT_CSV },
	{ "html",     required_argument, NULL, OPT_HTML },
	{ "svg",      required_argument, NULL, OPT_SVG },
	{ "group",    required_argument, NULL, OPT_GROUP },
	{ "group-by", required_argument, NULL, OPT_GROUP_BY },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "folded", required_argument, NULL, OPT_FOLDED },
	{ "folded-weight", required_argument, NULL, OPT_FOLDED_WEIGHT },
	{ "sort",     required_argument, NULL, OPT_SORT },
	{ NULL, 0, NULL, 0 },
};

/* ---- options ---- */

static int parse_group(struct bs_report *r, const char *arg, struct bs_err *err)
{
	const char *eq = strpbrk(arg, "=:");
	char *name, *list, *tok, *save, *end;
	int g;

	if (!eq || eq == arg || !eq[1]) {
		return bs_err_set(err, 0, "--group wants NAME=PID[,PID...], got '%s'", arg);
	}
	name = bs_xstrdup(arg);
	name[eq - arg] = 0;
	list = bs_xstrdup(eq + 1);
	g = report_group_find(r, name);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long pid;

		errno = 0;
		pid = strtoul(tok, &end, 10);
		if (errno || end == tok || *end || pid > UINT32_MAX) {
			bs_err_set(err, 0, "--group %s: '%s' is not a pid", name, tok);
			free(name);
			free(list);
			return -1;
		}
		/* a pid named twice: the first --group naming it wins */
		bs_hash_put(&r->explicit_pids, pid, (uint64_t)g, NULL);
	}
	free(name);
	free(list);
	r->groups_used = true;
	return 0;
}

/* comm, pid, cgroup, file, dir or dir:DEPTH (1..64) */
static int parse_group_by(struct bs_report *r, const char *arg, struct bs_err *err)
{
	static const char *const names[] = { "comm", "pid", "cgroup", "file", "dir" };
	static const int vals[] = { GROUP_BY_COMM, GROUP_BY_PID, GROUP_BY_CGROUP, GROUP_BY_FILE,
				    GROUP_BY_DIR };
	size_t i;
	char *end;
	unsigned long depth;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i])) {
			r->group_by = vals[i];
			return 0;
		}
	if (!strncmp(arg, "dir:", 4) && arg[4] >= '1' && arg[4] <= '9') {
		errno = 0;
		depth = strtoul(arg + 4, &end, 10);
		if (!errno && !*end && depth <= 64) {
			r->group_by = GROUP_BY_DIR;
			r->attr.dir_depth = (unsigned int)depth;
			return 0;
		}
	}
	return bs_err_set(err, 0,
			  "--group-by wants comm, pid, cgroup, file, dir or dir:DEPTH (1..64), "
			  "got '%s'", arg);
}

static int parse_folded_weight(struct bs_report *r, const char *arg, struct bs_err *err)
{
	static const char *const names[] = { "ios", "bytes", "q2c", "d2c" };
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(arg, names[i])) {
			r->attr.folded_weight = (enum folded_weight)i;
			return 0;
		}
	return bs_err_set(err, 0, "--folded-weight wants ios, bytes, q2c or d2c, got '%s'", arg);
}

/* "0.5" (seconds), "250ms", "100us", "2s", "5000ns" -> ns; 0 on error. */
static uint64_t parse_interval(const char *arg)
{
	char *end;
	double v, mult = 1e9;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg)
		return 0;
	if (!strcmp(end, "ns"))
		mult = 1;
	else if (!strcmp(end, "us"))
		mult = 1e3;
	else if (!strcmp(end, "ms"))
		mult = 1e6;
	else if (*end && strcmp(end, "s"))
		return 0;
	v *= mult;
	if (!(v >= 1) || v > 1e15)
		return 0;
	return (uint64_t)v;
}

static int report_parse_opt(void *state, int val, const char *arg, struct bs_err *err)
{
	struct bs_report *r = state;

	switch (val) {
	case OPT_STATS:
		r->text = true;
		return 0;
	case OPT_JSON:
		r->json_path = arg;
		return 0;
	case OPT_CSV:
		r->csv_dir = arg;
		return 0;
	case OPT_HTML:
		r->html_path = arg;
		return 0;
	case OPT_SVG:
		r->svg_dir = arg;
		return 0;
	case OPT_GROUP:
		return parse_group(r, arg, err);
	case OPT_GROUP_BY:
		if (parse_group_by(r, arg, err))
			return -1;
		r->groups_used = true;
		return 0;
	case OPT_FOLDED:
		r->attr.folded_path = arg;
		return 0;
	case OPT_FOLDED_WEIGHT:
		return parse_folded_weight(r, arg, err);
	case OPT_SORT:
		return report_parse_sort(r, arg, err);
	case OPT_INTERVAL:
		r->interval_ns = parse_interval(arg);
		if (!r->interval_ns)
			return bs_err_set(err, 0, "--interval wants a duration like 1, 0.5s, "
					  "100ms, 250us (at least 1 ns), got '%s'", arg);
		return 0;
	}
	return -1;
}

static void report_usage(FILE *f)
{
	fprintf(f,
		"Beyond btt (percentiles, breakdowns, time series, plots):\n"
		"      --stats               print percentiles (p50 p90 p99 p99.9 p99.99 max) per\n"
		"                            stage, log2 histograms and breakdowns by device,\n"
		"                            operation, process and group after btt's report\n"
		"                            (the default; --btt-only leaves them out)\n"
		"      --json FILE           everything as JSON (schema: docs/json-schema.md)\n"
		"      --csv DIR             tables and time series as CSV files in DIR\n"
		"      --html FILE           one self-contained page with SVG charts\n"
		"      --svg DIR             each chart as DIR/<chart>.svg\n"
		"      --svg CHART=FILE      one chart (throughput, iops, latency, queue-depth,\n"
		"                            heatmap, histogram, offsets-MAJ-MIN, *-groups)\n"
		"      --group NAME=PID[,PID...]  put these pids in group NAME (repeatable)\n"
		"      --group-by comm|pid|cgroup|file|dir[:N]  one group per command name /\n"
		"                            process / cgroup (record --cgroup-ids; named by\n"
		"                            path) / file / directory (its first N path\n"
		"                            components; default: the file's own directory;\n"
		"                            file and dir need record --files)\n"
		"      --interval DUR        time-series bucket width (1, 0.5s, 100ms, 250us);\n"
		"                            default: about 100 buckets over the trace\n"
		"      --folded FILE         the I/O's stacks as folded stacks for flamegraph.pl\n"
		"                            or speedscope: 'process;frame;...;frame N' (a trace\n"
		"                            recorded with --stacks); '-' for stdout\n"
		"      --folded-weight W     N counts ios (default), bytes, or the ns spent in\n"
		"                            q2c or d2c\n"
		"      --sort ios|bytes|time  rank processes and groups (tables, top N, busiest,\n"
		"                            which get a time series) by I/Os (default), bytes\n"
		"                            or summed Q2C time\n"
		"  e.g. blkscope analyze --group-by comm trace\n"
		"       blkscope analyze --group-by file --folded io.folded trace\n"
		"       blkscope analyze --html report.html --json report.json trace\n");
}

/* The outputs besides the text report: each of them reads the time series. */
static bool beyond_text(const struct bs_report *r)
{
	return r->collect || r->json_path || r->csv_dir || r->html_path || r->svg_dir ||
		r->attr.folded_path;
}

static bool report_wanted(const struct bs_report *r)
{
	return r->text || beyond_text(r);
}

void report_collect(struct bs_report *r)
{
	r->collect = true;
}

static void *report_ext_create(void)
{
	struct bs_report *r = bs_xmalloc(sizeof(*r));

	report_init(r);
	return r;
}

static void report_ext_destroy(void *state)
{
	if (state)
		report_free(state);
	free(state);
}

static bool is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

/* --json - / --csv - / --html -: that format alone on stdout (analysis.c). */
static bool report_takes_stdout(void *state)
{
	struct bs_report *r = state;

	return is_stdout(r->json_path) || is_stdout(r->csv_dir) || is_stdout(r->html_path) ||
	       is_stdout(r->attr.folded_path);
}

/*
 * A file to create at the end: can it be (its directory exists and is
 * writable; nothing there, or with --force our own earlier file)?  0 or -1
 * (message printed).
 */
static int check_file(const struct bs_report *r, const char *opt, const char *path)
{
	struct bs_err err;

	if (path && bs_check_output_opt(opt, path, r->create_flags, &err)) {
		bs_msg(&r->msg, BS_MSG_ERROR, "%s", err.text);
		return -1;
	}
	return 0;
}

/*
 * The files a directory output writes (--csv: fixed names; --svg: every *.svg): checked as
 * check_file().
 */
static int check_dir_files(const struct bs_report *r, const char *opt, const char *dir)
{
	static const char *const csv_files[] = { "slices.csv", "stages.csv", "histograms.csv",
						 "timeseries.csv" };
	char path[4096];
	struct dirent *de;
	DIR *d;
	int rc = 0;
	size_t i;

	if (!strcmp(opt, "--csv")) {
		for (i = 0; i < sizeof(csv_files) / sizeof(csv_files[0]) && !rc; i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, csv_files[i]);
			rc = check_file(r, opt, path);
		}
		return rc;
	}
	d = opendir(dir);
	if (!d)
		return 0;	/* made at the end */
	while (!rc && (de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > 4 && !strcmp(de->d_name + n - 4, ".svg")) {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			rc = check_file(r, opt, path);
		}
	}
	closedir(d);
	return rc;
}

/*
 * A directory to fill at the end (created if missing): it, or where it is created, must be
 * writable.
 */
static int check_dir(const struct bs_report *r, const char *opt, const char *dir)
{
	struct stat st;
	char probe[4096];

	if (!dir || is_stdout(dir))
		return 0;
	if (!stat(dir, &st) && S_ISDIR(st.st_mode)) {
		if (!access(dir, W_OK | X_OK))
			return check_dir_files(r, opt, dir);
	} else if (snprintf(probe, sizeof(probe), "%s", dir) < (int)sizeof(probe) &&
		   !bs_check_path(probe)) {
		return 0;	/* missing: its parent can hold it */
	}
	bs_msg(&r->msg, BS_MSG_ERROR, "%s: cannot create files in %s: %s", opt, dir,
	       errno ? strerror(errno) : "not a directory");
	return -1;
}

/* One output at most on stdout: a bad command line (exit 2), said before any input is looked at. */
static int report_check(void *state, struct analysis *a)
{
	struct bs_report *r = state;
	int n = is_stdout(r->json_path) + is_stdout(r->csv_dir) + is_stdout(r->html_path) +
		is_stdout(r->attr.folded_path);

	r->msg = *analysis_msg_sink(a);
	if (n > 1) {
		bs_msg(&r->msg, BS_MSG_ERROR,
		       "only one of --json, --csv, --html and --folded can write to stdout ('-')");
		return -1;
	}
	return 0;
}

/*
 * Every output is checked before the first event is read: a wrong path
 * fails now, not after the whole trace.
 */
static int check_outputs(const struct bs_report *r)
{
	const char *svg_eq = r->svg_dir ? strchr(r->svg_dir, '=') : NULL;

	if (check_file(r, "--json", r->json_path) || check_dir(r, "--csv", r->csv_dir) ||
	    check_file(r, "--html", r->html_path) || check_file(r, "--folded", r->attr.folded_path))
		return -1;
	if (svg_eq)
		return check_file(r, "--svg", svg_eq + 1);
	return r->svg_dir ? check_dir(r, "--svg", r->svg_dir) : 0;
}

static int report_start(void *state, struct analysis *a)
{
	struct bs_report *r = state;
	/* report_on_io() files into r alone: it may run on the sink thread */
	struct bs_sample_sink sink = {
		.io_done = report_on_io, .finish = report_on_finish, .ctx = r, .own_state = true
	};

	r->msg = *analysis_msg_sink(a);
	r->create_flags = analysis_create_flags(a);
	if (check_outputs(r))
		return -1;
	/* the percentile sections are part of the default text report */
	if (!analysis_btt_only(a))
		r->text = true;
	if (!report_wanted(r)) {
		if (r->groups_used || r->interval_ns)
			bs_msg(&r->msg, BS_MSG_WARN, "note: --group/--group-by/--interval only "
			       "shape --stats, --json, --csv, --html and --svg output");
		return 0;
	}
	/* the text report shows a time series only for --interval */
	r->timeline = beyond_text(r) || (r->text && r->interval_ns);
	if (report_begin(r, analysis_cgroups(a), analysis_attr(a), analysis_msg_sink(a)))
		return -1;
	{
		double t0, t1;

		/* charts start and end at the -t/-T window; buckets count from its start */
		if (analysis_window(a, &t0, &t1)) {
			r->win_start = t0 > 0 ? (uint64_t)(t0 * 1e9) : 0;
			r->win_end = t1 < 1.8e10 ? (uint64_t)(t1 * 1e9) : 0;
			ts_set_origin(&r->ts, r->win_start);
		}
	}
	return analysis_add_sink(a, &sink);
}

static void take_counters(struct bs_report *r, struct analysis *a)
{
	const struct bs_dev_counters *c;
	int n;

	c = analysis_counters(a, &n);
	report_take_counters(r, c, n);
	r->cgroup_records = analysis_cgroup_records(a);
	r->health = analysis_health(a);
	r->have_attr_stats = analysis_attr_stats(a, &r->attr_stats);
	r->btt_open = analysis_btt_never_completed(a);
	if (!r->end_time)
		r->end_time = analysis_end_time(a);
}

/*
 * The trace's health (nothing when it is clean) and a snapshot's triggers
 * (nothing for other traces), at the top of the text report.
 */
static void report_preamble(void *state, struct analysis *a, FILE *out)
{
	struct bs_report *r = state;

	if (!r->text)
		return;
	report_health_text(analysis_health(a), out);
	report_triggers_text(analysis_health(a), out);
}

static void report_section(void *state, struct analysis *a, FILE *out)
{
	struct bs_report *r = state;

	if (!r->text)
		return;
	take_counters(r, a);
	report_text(r, out);
}

static int report_done(void *state, struct analysis *a)
{
	struct bs_report *r = state;
	int rc = 0;

	if (!report_wanted(r))
		return 0;
	take_counters(r, a);
	if (r->json_path && report_json(r, r->json_path))
		rc = -1;
	if (r->csv_dir && report_csv(r, r->csv_dir))
		rc = -1;
	if (r->html_path && report_html(r, r->html_path))
		rc = -1;
	if (r->svg_dir && report_svg(r, r->svg_dir))
		rc = -1;
	if (r->attr.folded_path && report_attr_folded(r))
		rc = -1;
	return rc;
}

static const struct option group_options[] = {
	{ "group",    required_argument, NULL, OPT_GROUP },
	{ "group-by", required_argument, NULL, OPT_GROUP_BY },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "sort",     required_argument, NULL, OPT_SORT },
	{ NULL, 0, NULL, 0 },
};

static void group_usage(FILE *f)
{
	fprintf(f,
		"Groups and intervals (as in blkscope analyze):\n"
		"      --group NAME=PID[,PID...]  put these pids in group NAME (repeatable)\n"
		"      --group-by comm|pid|cgroup|file|dir[:N]  one group per command name /\n"
		"                            process / cgroup (record --cgroup-ids) / file /\n"
		"                            directory (its first N path components; file and\n"
		"                            dir need record --files)\n"
		"      --interval DUR        time-series bucket width (1, 0.5s, 100ms, 250us);\n"
		"                            default: about 100 buckets over the trace\n"
		"      --sort ios|bytes|time  rank processes and groups (which get a series of\n"
		"                            their own) by I/Os (default), bytes or Q2C time\n");
}

const struct analysis_ext report_group_ext = {
	.name = "group",
	.options = group_options,
	.create = report_ext_create,
	.destroy = report_ext_destroy,
	.parse_opt = report_parse_opt,
	.usage = group_usage,
};

const struct analysis_ext report_ext = {
	.name = "report",
	.options = report_options,
	.create = report_ext_create,
	.destroy = report_ext_destroy,
	.parse_opt = report_parse_opt,
	.usage = report_usage,
	.check = report_check,
	.start = report_start,
	.preamble = report_preamble,
	.report = report_section,
	.takes_stdout = report_takes_stdout,
	.done = report_done,
};
