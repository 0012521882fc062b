// SPDX-License-Identifier: GPL-2.0
/*
 * analyze_main.c - blkscope-analyze: btt's analysis in one streaming pass
 * over blktrace per-CPU files, plus the report extensions listed below.
 * All the work is in the analysis library (analysis.h); this is the
 * command line's front door: usage, version, exit codes.
 */
#include <stdio.h>
#include "analysis.h"
#include "front_msgs.h"
#include "bs_arg.h"
#include "bs_stream.h"
#include "report/report.h"

/*
 * The extensions of this program, in the order of their options in
 * --help, of their start() (the tag session starts its plugin first, and
 * may switch the report's text sections on) and of their sections.
 */
static const struct analysis_ext *const extensions[] = {
	&analysis_tag_ext,
	&report_ext,
};

int main(int argc, char **argv)
{
	struct analysis_msgs msgs = front_msgs_stderr();
	struct analysis *a;
	int status = 1;

	bs_set_progname("blkscope analyze");
	a = analysis_new(extensions, sizeof(extensions) / sizeof(extensions[0]));
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
		analysis_version(stdout);
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
