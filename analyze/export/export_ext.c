// SPDX-License-Identifier: GPL-2.0
/*
 * export_ext.c - the export extension (analysis.h): --table, --format,
 * --host, --row-group; creates the output at start() (before any event is
 * read), registers the sample sink that writes one row per I/O (the ios
 * table) or, for the intervals table, files the samples into the report
 * layer's time series and writes the rows at the end.
 *
 * Groups (--group, --group-by, --tag-plugin) are the report layer's
 * (report/report.h, report_group_ext): when they are asked for, the report's
 * sink runs before ours and leaves the sample's group in last_group, so
 * the group column holds exactly what `analyze` reports.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "analysis.h"
#include "bs_alloc.h"
#include "bs_arg.h"
#include "bs_stream.h"
#include "bs_outfile.h"
#include "bs_writer.h"
#include "export.h"
#include "iomodel/iom.h"
#include "report/report.h"

enum { OPT_TABLE, OPT_FORMAT, OPT_HOST, OPT_ROW_GROUP, OPT_DEVICE_NAME };

static const struct option export_options[] = {
	{ "table",     required_argument, NULL, OPT_TABLE },
	{ "format",    required_argument, NULL, OPT_FORMAT },
	{ "host",      required_argument, NULL, OPT_HOST },
	{ "row-group", required_argument, NULL, OPT_ROW_GROUP },
	{ "device-name", required_argument, NULL, OPT_DEVICE_NAME },
	{ NULL, 0, NULL, 0 },
};

struct bs_export {
	enum export_table table;
	enum export_format fmt;
	const char *host_opt;
	uint32_t row_group;

	const char *path;	/* created by us (removed on failure); NULL for stdout */
	struct export_rows *rows;
	struct bs_report *report;	/* the groups / time series, or NULL */
	char host[256];
	bool host_known;
	bool wall_checked;	/* ios.wall is set */
	char **gname;		/* group index -> label (copied) */
	size_t ngname;
	struct export_ios ios;
	struct export_devnames devnames;	/* --device-name */
	struct export_iv iv;	/* the intervals table's device and process series */
	bool iv_on, iv_finished;
	struct export_stacks stacks;	/* --table stacks */
	struct analysis *a;
};

static void *export_create(void)
{
	struct bs_export *x = bs_xcalloc(1, sizeof(*x));

	export_ios_init(&x->ios, &x->devnames);
	x->row_group = EXPORT_ROW_GROUP;
	return x;
}

static void export_destroy(void *state)
{
	struct bs_export *x = state;
	size_t i;

	if (!x)
		return;
	if (x->rows) {	/* not finished: the run failed; leave no half file */
		export_rows_abort(x->rows);
		if (x->path)
			unlink(x->path);
	}
	for (i = 0; i < x->ngname; i++)
		free(x->gname[i]);
	free(x->gname);
	export_devnames_free(&x->devnames);
	if (x->iv_on)
		export_iv_free(&x->iv);
	export_stacks_free(&x->stacks);
	free(x);
}

static int export_parse_opt(void *state, int val, const char *arg, struct bs_err *err)
{
	struct bs_export *x = state;
	char opt[32];
	uint64_t n;

	switch (val) {
	case OPT_TABLE:
		if (!strcmp(arg, "ios"))
			x->table = EXPORT_IOS;
		else if (!strcmp(arg, "intervals"))
			x->table = EXPORT_INTERVALS;
		else if (!strcmp(arg, "stacks"))
			x->table = EXPORT_STACKS;
		else
			break;
		return 0;
	case OPT_FORMAT:
		if (!strcmp(arg, "parquet"))
			x->fmt = EXPORT_PARQUET;
		else if (!strcmp(arg, "csv"))
			x->fmt = EXPORT_CSV;
		else if (!strcmp(arg, "jsonl"))
			x->fmt = EXPORT_JSONL;
		else
			break;
		return 0;
	case OPT_HOST:
		if (!*arg || strlen(arg) >= sizeof(x->host))
			break;
		x->host_opt = arg;
		return 0;
	case OPT_ROW_GROUP:
		if (bs_arg_uint(bs_progname(), "--row-group", arg, 1024, 1u << 24, &n, err))
			return -1;
		x->row_group = (uint32_t)n;
		return 0;
	case OPT_DEVICE_NAME:
		if (export_devnames_add(&x->devnames, arg))
			return bs_arg_bad(bs_progname(), "--device-name", arg, "MAJ,MIN=NAME", err);
		return 0;
	}
	snprintf(opt, sizeof(opt), "--%s", export_options[val].name);
	return bs_arg_bad(bs_progname(), opt, arg, "one of the values --help lists", err);
}

static void export_usage(FILE *f)
{
	fprintf(f,
		"Export:\n"
		"  -o, --output FILE          write the table to FILE (required; - = stdout);\n"
		"                             an existing FILE is never overwritten\n"
		"      --table ios|intervals|stacks  one row per I/O (default), per interval\n"
		"                             and breakdown (all, op, group, device, process),\n"
		"                             or per stack (record --stacks: the ids of the ios\n"
		"                             table's stack_id, their frames and I/Os)\n"
		"      --format parquet|csv|jsonl  file format (parquet)\n"
		"      --host NAME            the host column (default: from the trace's host\n"
		"                             note, written by blkscope record)\n"
		"      --row-group N          Parquet rows per row group (262144; 1024..16777216)\n"
		"      --device-name MAJ,MIN=NAME  the device_name column of that device (sda);\n"
		"                             repeatable; without it the column is null\n"
		"\n"
		"Columns, types and units: docs/export.md.  Examples:\n"
		"  blkscope export -o sda.parquet sda\n"
		"  blkscope export --group-by comm --format csv -o - sda | head\n"
		"  blkscope export --table intervals --interval 100ms -o iv.parquet sda\n"
		"  blkscope export --table stacks --format csv -o stacks.csv sda\n");
}

/*
 * bs_create_output (format/bs_writer.h): O_CREAT|O_EXCL|O_NOFOLLOW in its
 * directory, so an existing file (unless --force, and then only a regular
 * file of ours), FIFO or planted symlink is refused, never opened; a
 * character device (/dev/null) is written.
 */
static int create_output(struct bs_export *x, const char *path)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-"))
		return STDOUT_FILENO;
	fd = bs_create_output(path, analysis_create_flags(x->a));
	if (fd < 0) {
		struct bs_err err;

		bs_create_err(&err, path, errno);
		bs_msg(analysis_msg_sink(x->a), BS_MSG_ERROR, "%s", err.text);
		return -1;
	}
	/* removed if the export fails; /dev/null is not */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		x->path = path;
	return fd;
}

/* The label of group g, copied once (report_group_name's buffers rotate). */
static const char *group_label(struct bs_export *x, int g)
{
	if (g < 0)
		return NULL;
	if ((size_t)g >= x->ngname) {
		size_t n = (size_t)g + 16;

		x->gname = bs_xreallocarray(x->gname, n, sizeof(*x->gname));
		memset(x->gname + x->ngname, 0, (n - x->ngname) * sizeof(*x->gname));
		x->ngname = n;
	}
	if (!x->gname[g])
		x->gname[g] = bs_xstrdup(report_group_name(x->report, g));
	return x->gname[g];
}

static void on_io(void *ctx, const struct bs_io_sample *s)
{
	struct bs_export *x = ctx;

	if (!x->wall_checked) {	/* known from the first event on */
		if (!analysis_wall_clock(x->a, &x->ios.wall))
			x->ios.wall = 0;
		x->wall_checked = true;
	}
	export_ios_fill(&x->ios, s,
			x->report ? group_label(x, report_last_group(x->report)) : NULL);
	export_rows_put(x->rows, x->ios.v);	/* an error is sticky: reported at the end */
}

static void on_io_stacks(void *ctx, const struct bs_io_sample *s)
{
	export_stacks_add(&((struct bs_export *)ctx)->stacks, s);
}

static void on_io_iv(void *ctx, const struct bs_io_sample *s)
{
	export_iv_add(&((struct bs_export *)ctx)->iv, s);
}

static void on_finish_iv(void *ctx, uint64_t end_time)
{
	struct bs_export *x = ctx;

	export_iv_finish(&x->iv, end_time);
	x->iv_finished = true;
}

/* The host note, when no --host was given. */
static void on_event(void *ctx, const struct bs_event *ev)
{
	struct bs_export *x = ctx;

	if (ev->t.action != BS_NOTE_MESSAGE || x->host_known || !ev->t.pdu_len)
		return;
	if (export_host_note((const char *)ev->pdu, ev->t.pdu_len, x->host, sizeof(x->host))) {
		x->host_known = true;
		export_ios_set_host(&x->ios, x->host);
	}
}

static int export_start(void *state, struct analysis *a)
{
	struct bs_export *x = state;
	struct bs_report *r = analysis_ext_state(a, &report_group_ext);
	struct bs_sample_sink sink = { .ctx = x };
	const char *path = analysis_output(a);
	struct bs_err err = { 0 };
	int fd;

	x->a = a;
	x->ios.attr = analysis_attr(a);
	if (x->table == EXPORT_STACKS && export_stacks_init(&x->stacks, x->ios.attr, &err)) {
		bs_msg(analysis_msg_sink(a), BS_MSG_ERROR, "%s", err.text);
		return -1;
	}
	if (!path) {
		bs_msg(analysis_msg_sink(a), BS_MSG_ERROR,
		       "no output given: -o FILE (or -o - for stdout)");
		return -1;
	}
	if (x->host_opt) {
		snprintf(x->host, sizeof(x->host), "%s", x->host_opt);
		x->host_known = true;
		export_ios_set_host(&x->ios, x->host);
	}
	/* the report's sink files the sample (group, time series) before ours reads it */
	if (r &&
	    (x->table == EXPORT_INTERVALS || report_groups_used(r) ||
	     analysis_tag_enabled(analysis_ext_state(a, &analysis_tag_ext)))) {
		struct bs_sample_sink rs = { .io_done = report_on_io,
					     .finish = report_on_finish,
					     .ctx = r };

		/*
		 * rows need the group, not the report's slices; the intervals table, the time
		 * series
		 */
		report_set_groups_only(r, x->table == EXPORT_IOS);
		report_set_timeline(r, x->table == EXPORT_INTERVALS);
		if (report_begin(r, analysis_cgroups(a), analysis_attr(a), analysis_msg_sink(a)))
			return -1;
		if (analysis_add_sink(a, &rs))
			return -1;
		x->report = r;
	}
	fd = create_output(x, path);
	if (fd < 0)
		return -1;
	if (x->table == EXPORT_IOS)
		x->rows = export_rows_open(x->fmt, fd, export_ios_cols, EXPORT_IOS_NCOLS,
					   x->row_group, "ios", analysis_msg_sink(a));
	else if (x->table == EXPORT_STACKS)
		x->rows = export_rows_open(x->fmt, fd, export_stacks_cols, export_stacks_ncols,
					   x->row_group, "stacks", analysis_msg_sink(a));
	else
		x->rows = export_rows_open(x->fmt, fd, export_intervals_cols,
					   export_intervals_ncols, x->row_group, "intervals",
					   analysis_msg_sink(a));
	if (!x->rows) {
		if (fd != STDOUT_FILENO)
			close(fd);
		if (x->path)
			unlink(x->path);
		return -1;
	}
	if (x->table == EXPORT_IOS) {
		sink.io_done = on_io;
	} else if (x->table == EXPORT_STACKS) {
		sink.io_done = on_io_stacks;
		sink.own_state = true;
	} else {
		export_iv_init(&x->iv, report_interval_ns(r), report_sort(r));
		x->iv_on = true;
		sink.io_done = on_io_iv;
		sink.finish = on_finish_iv;
	}
	if (!x->host_known)
		sink.event = on_event;
	return analysis_add_sink(a, &sink);
}

/*
 * The trace's health in the file's metadata (Parquet): "blkscope.clean"
 * (true/false) and "blkscope.health" (the analyze JSON's health object);
 * on stderr too when it is not clean (CSV and JSON lines have no
 * metadata: their rows carry status and lost_events).
 */
static int health_meta(struct export_rows *w, struct analysis *a)
{
	const struct iom_health *h = analysis_health(a);
	char *json = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	if (!h)
		return 0;
	mem = open_memstream(&json, &len);
	if (!mem)
		return -1;
	fputc('{', mem);
	report_health_json(h, analysis_btt_never_completed(a), mem);
	fputc('}', mem);
	fclose(mem);
	rc = export_rows_meta(w, "blkscope.clean", iom_health_off(h) ? "false" : "true") ||
	     export_rows_meta(w, "blkscope.health", json);
	free(json);
	return rc ? -1 : 0;
}

static int export_done(void *state, struct analysis *a)
{
	struct bs_export *x = state;
	struct export_rows *w = x->rows;
	int rc = 0;

	if (!w)
		return -1;
	if (x->table == EXPORT_INTERVALS) {
		uint64_t wall;

		if (!analysis_wall_clock(a, &wall))
			wall = 0;
		report_take_counters(x->report, NULL, 0);
		if (!report_end_time(x->report))
			report_set_end_time(x->report, analysis_end_time(a));
		if (!x->iv_finished)
			export_iv_finish(&x->iv, report_end_time(x->report));
		rc = export_intervals_write(x->report, &x->iv, w, x->host_known ? x->host : NULL,
					    wall);
	}
	if (x->table == EXPORT_STACKS)
		rc = export_stacks_write(&x->stacks, w);
	x->rows = NULL;
	if (health_meta(w, a))
		rc = -1;
	if (export_rows_close(w))
		rc = -1;
	if (rc && x->path)
		unlink(x->path);
	return rc;
}

const struct analysis_ext export_ext = {
	.name = "export",
	.options = export_options,
	.create = export_create,
	.destroy = export_destroy,
	.parse_opt = export_parse_opt,
	.usage = export_usage,
	.start = export_start,
	.done = export_done,
};
