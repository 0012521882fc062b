// SPDX-License-Identifier: GPL-2.0
/*
 * export_main.c - blkscope-export: the analysis of `blkscope analyze`
 * (same inputs, filters, groups and tags) with the export extension
 * (export/export.h) instead of the reports: every I/O, or every interval,
 * as a row of a Parquet, CSV or JSON-lines table.
 */
#include <stdio.h>
#include "analysis.h"
#include "front_msgs.h"
#include "bs_arg.h"
#include "bs_stream.h"
#include "export/export.h"
#include "report/report.h"

/* Order: the tag session starts its plugin first; the groups before the export reads them. */
static const struct analysis_ext *const extensions[] = {
	&analysis_tag_ext,
	&report_group_ext,
	&export_ext,
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: blkscope export [OPTIONS] INPUT... -o FILE\n"
		"\n"
		"Every I/O of a trace as btt follows it from Q to C (or the time series of\n"
		"the HTML report) as one table: Parquet for engines such as DuckDB, Spark,\n"
		"Trino, ClickHouse; CSV or JSON lines for quick use.  INPUT is what\n"
		"blkscope analyze takes: a base name (sda), a per-CPU file, a directory, a\n"
		"blkparse -d dump, or - for stdin.\n"
		"\n"
		"Inputs and filters (as blkscope analyze):\n"
		"  -i, --input=INPUT          add an input (like a bare argument)\n"
		"  -D, --devices=M,m;M,m      only these devices\n"
		"  -r, --no-remaps            ignore remap (A) events\n"
		"  -t, --time-start=SECS      ignore events before SECS\n"
		"  -T, --time-end=SECS        stop at the first event after SECS\n"
		"      --input-dir=DIR        directory for relative inputs (blkparse -D)\n"
		"      --batch=N              per-CPU read batch, as blkparse -b (512)\n"
		"      --progress / --no-progress  progress on stderr (default: if a terminal)\n"
		"      --memory-limit=SIZE    stop when the analysis needs more memory (512M, 4G;\n"
		"                             0 = no limit; default: half of RAM)\n"
		"      --force                replace an output file an earlier run left "
		"(without it\n"
		"                             an existing -o FILE is refused)\n"
		"  -v, --verbose              events read and the rate, on stderr\n"
		"  -V, --version\n"
		"  -h, --help\n");
}

static const struct analysis_front front = {
	.progname = "blkscope export",
	.short_opts = "i:o:D:rt:T:vVh",
	.usage = usage,
	.samples_only = true,	/* rows are samples; the report layer's groups and series too */
};

int main(int argc, char **argv)
{
	struct analysis_msgs msgs = front_msgs_stderr();
	struct analysis *a;
	int status = 1;

	bs_set_progname("blkscope export");
	a = analysis_new(extensions, sizeof(extensions) / sizeof(extensions[0]));
	analysis_set_front(a, &front);
	analysis_set_msgs(a, &msgs);
	switch (analysis_parse_args(a, argc, argv)) {
	case ANALYSIS_ARGS_RUN:
		status = analysis_run(a);
		break;
	case ANALYSIS_ARGS_HELP:
		analysis_usage(a, stdout);
		status = 0;
		break;
	case ANALYSIS_ARGS_VERSION:
		printf("blkscope-export %s (table schema %d)\n", BLKSCOPE_VERSION,
		       EXPORT_SCHEMA_VERSION);
		status = 0;
		break;
	case ANALYSIS_ARGS_USAGE:	/* getopt named the option; one line, no usage text */
		fprintf(stderr, "try '%s --help'\n", bs_progname());
		status = BS_EXIT_USAGE;
		break;
	case ANALYSIS_ARGS_ERROR:	/* the one-line message is printed */
		status = BS_EXIT_USAGE;
		break;
	}
	analysis_free(a);
	return status;
}
