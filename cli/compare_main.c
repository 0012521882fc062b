// SPDX-License-Identifier: GPL-2.0
/*
 * compare_main.c - blkscope-compare: did a change make block I/O slower,
 * where, and is it real?  The work is in the compare library
 * (compare/compare.h); this maps its results to output and exit codes:
 * 0, 1 on error, 2 for a bad command line, 3 when a --fail-if condition holds.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "analysis.h"
#include "front_msgs.h"
#include "bs_arg.h"
#include "bs_msg.h"
#include "bs_outfile.h"
#include "bs_stream.h"
#include "bs_writer.h"
#include "compare/compare.h"

/*
 * --json/--html FILE: can it be created (an existing one only with --force)?  Checked before
 * either trace is read.
 */
static int check_output(const char *opt, const char *path, bool force)
{
	struct bs_err err;

	if (path && bs_check_output_opt(opt, path, force ? BS_CREATE_REPLACE : 0, &err)) {
		fprintf(stderr, "%s: %s\n", bs_progname(), err.text);
		return -1;
	}
	return 0;
}

/* The library's messages and errors, as every front-end prints them: "PROGRAM: TEXT". */
static void print_msg(void *arg, enum bs_msg_level level, const char *text)
{
	fprintf(stderr, "%s: %s\n", bs_progname(), text);
}

static int run(struct cmp *c)
{
	struct bs_err err = { 0 };
	bool text = true;
	int held;

	if (check_output("--json", c->o.json, c->o.force) ||
	    check_output("--html", c->o.html, c->o.force))
		return 1;

	for (int i = 0; i < 2; i++) {
		int rc = cmp_side_run(c, i);

		if (rc == CMP_SIDE_USAGE)
			fprintf(stderr, "try '%s --help'\n", bs_progname());
		if (rc)
			return rc == -2 || rc == CMP_SIDE_USAGE ? BS_EXIT_USAGE : 1;
	}
	cmp_match(c);
	cmp_compute(c);
	if (c->o.json && !strcmp(c->o.json, "-"))
		text = false;
	if (c->o.html && !strcmp(c->o.html, "-"))
		text = false;
	if (text) {
		cmp_text(c, stdout);
		if (fflush(stdout)) {
			fprintf(stderr, "%s: writing the report: %m\n", bs_progname());
			return 1;
		}
	}
	c->msg.fn = print_msg;	/* the outputs' errors, then the conditions that hold */
	if (c->o.json && cmp_json(c, c->o.json))
		return 1;
	if (c->o.html && cmp_html(c, c->o.html))
		return 1;
	held = cmp_gate(c, &err);
	if (held < 0) {
		print_msg(NULL, BS_MSG_ERROR, err.text);
		return 1;
	}
	return held ? 3 : 0;
}

int main(int argc, char **argv)
{
	struct bs_err err = { 0 };
	struct cmp c;
	int status;

	bs_set_progname("blkscope compare");
	memset(&c, 0, sizeof(c));
	c.an_msgs = front_msgs_stderr();
	switch (cmp_parse_args(&c.o, argc, argv, &err)) {
	case 0:
		status = run(&c);
		break;
	case 1:
		cmp_usage(stdout);
		status = 0;
		break;
	case 2:
		analysis_version(stdout);
		status = 0;
		break;
	default:
		print_msg(NULL, BS_MSG_ERROR, err.text);
		status = BS_EXIT_USAGE;
	}
	cmp_rows_free(&c);
	for (int i = 0; i < 2; i++)
		cmp_side_free(&c.side[i]);
	cmp_opts_free(&c.o);
	return status;
}
