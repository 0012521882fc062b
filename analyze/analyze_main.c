// SPDX-License-Identifier: GPL-2.0
/*
 * analyze_main.c - blkscope-analyze: btt's analysis in one streaming pass
 * over blktrace per-CPU files, plus the report extensions listed below.
 * All the work is in the analysis library (analysis.h); this is the
 * command line's front door: usage, version, exit codes.
 */
#include <stdio.h>
#include "analysis.h"
#include "bs_arg.h"
#include "bs_stream.h"
#include "report/report.h"
#include "tag_analyze.h"

/*
 * The extensions of this program, in the order of their options in
 * --help, of their start() (the tag session starts its plugin first, and
 * may switch the report's text sections on) and of their sections.
 */
static const struct bs_analyze_ext *const extensions[] = {
	&bs_tag_ext,
	&report_ext,
};

int main(int argc, char **argv)
{
	struct bs_analysis *a;
	int status = 1;

	bs_set_progname("blkscope analyze");
	a = bs_analysis_new(extensions, sizeof(extensions) / sizeof(extensions[0]));
	switch (bs_analysis_parse_args(a, argc, argv)) {
	case BS_ARGS_RUN:
		status = bs_analysis_run(a);
		break;
	case BS_ARGS_HELP:
		bs_analysis_usage(a, stdout);
		status = 0;
		break;
	case BS_ARGS_VERSION:
		bs_analysis_version(stdout);
		status = 0;
		break;
	case BS_ARGS_USAGE:	/* getopt named the option; one line, no usage text */
		fprintf(stderr, "try '%s --help'\n", bs_progname());
		status = BS_EXIT_USAGE;
		break;
	case BS_ARGS_ERROR:	/* the one-line message is printed */
		status = BS_EXIT_USAGE;
		break;
	}
	bs_analysis_free(a);
	return status;
}
