// SPDX-License-Identifier: GPL-2.0
/*
 * parse_main.c - `blkscope parse` (blkscope-parse): the command line of the
 * blkparse (Debian 1.2.0) compatible printer.  Options and usage live here;
 * the work is libbsparse.a's (analyze/parse/parse.h).
 */
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_arg.h"
#include "bs_stream.h"
#include "parse/parse.h"

#define COMPAT PARSE_BLKPARSE_COMPAT

/* getopt_long values of the long-only options */
enum { OPT_HELP = 1, OPT_TAG_PLUGIN = 0x2100, OPT_TAG_TIMEOUT, OPT_FORCE };

static const struct option long_opts[] = {
	{ "act-mask", required_argument, NULL, 'a' },
	{ "set-mask", required_argument, NULL, 'A' },
	{ "batch", required_argument, NULL, 'b' },
	{ "input-directory", required_argument, NULL, 'D' },
	{ "dump-binary", required_argument, NULL, 'd' },
	{ "format", required_argument, NULL, 'f' },
	{ "format-spec", required_argument, NULL, 'F' },
	{ "hash-by-name", no_argument, NULL, 'h' },
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "no-text-output", no_argument, NULL, 'O' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "per-program-stats", no_argument, NULL, 's' },
	{ "track-ios", no_argument, NULL, 't' },
	{ "stopwatch", required_argument, NULL, 'w' },
	{ "no-msgs", no_argument, NULL, 'M' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "tag-plugin", required_argument, NULL, OPT_TAG_PLUGIN },
	{ "tag-timeout", required_argument, NULL, OPT_TAG_TIMEOUT },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ 0 }
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: blkscope parse [OPTIONS] [-i] INPUT...\n"
		"\n"
		"Print a blktrace trace as text, exactly as blkparse " COMPAT " does, and/or dump\n"
		"it merged into one file for btt and iowatcher.  INPUT is a base name (sda ->\n"
		"sda.blktrace.0, .1, ...), a per-CPU file, a directory, a dump, a FIFO or -\n"
		"for stdin; per-CPU files may be zstd-compressed (.zst).\n"
		"\n"
		"  -i, --input=FILE         input (repeatable; bare arguments work too)\n"
		"  -D, --input-directory=D  directory to prepend to relative input names\n"
		"  -o, --output=FILE        text to FILE instead of stdout\n"
		"  -O, --no-text-output     no text (use with -d)\n"
		"  -d, --dump-binary=FILE   write the merged records to FILE (- = stdout)\n"
		"      --force              -o/-d replace an earlier run's file (without it an\n"
		"                           existing file is refused; blkparse overwrites)\n"
		"  -M, --no-msgs            leave messages out of the dump\n"
		"  -a, --act-mask=NAME      only these categories (repeatable): read write flush\n"
		"                           sync queue requeue issue complete fs pc notify ahead\n"
		"                           meta discard drv_data fua\n"
		"  -A, --set-mask=HEX       the category mask as one hex value\n"
		"  -b, --batch=N            records read per batch (default 512)\n"
		"  -f, --format=FMT         line format for every action "
		"(%%a %%c %%C %%d %%D %%e %%M %%m\n"
		"                           "
		"%%n %%N %%p %%P %%s %%S %%t %%T %%u %%U %%z; \\n \\t \\r \\b)\n"
		"  -F, --format-spec=X,FMT  line format for action X (UT uses U)\n"
		"  -q, --quiet              no per-device/CPU statistics at the end\n"
		"  -s, --per-program-stats  per-process statistics\n"
		"  -h, --hash-by-name       -s groups processes by name, not pid\n"
		"  -t, --track-ios          show I-G, D-I and C-D times (ns) on I, D and C lines\n"
		"  -w, --stopwatch=[S:]E    only events between S and E seconds into the trace\n"
		"  -v, --verbose            report tracking misses and sequence skips\n"
		"  -V, --version\n"
		"      --help\n"
		"\n"
		"Compatibility: output equals blkparse " COMPAT "'s, including its bugs (messages\n"
		"show pid 0; cgroup-flagged records print \"Bad fs action\"; PC read KiB count as\n"
		"normal reads; 'T' is skipped in size suffixes).  See docs/parse.md.\n"
		"\n"
		"Examples:\n"
		"  blkscope parse sda                       # sda.blktrace.* as text\n"
		"  blkscope parse -t -s -i sda -o sda.txt   "
		"# with I/O tracking and per-process stats\n"
		"  blkscope parse -O -d sda.dump sda        "
		"# merged dump for btt -i / iowatcher -t\n"
		"  blkscope parse -a complete -f '%%T.%%t %%S %%n\\n' sda\n"
		"  blkscope record -o - ... | blkscope parse -i -\n"
		"\n"
		"Tagging plugins (docs/tags.md):\n"
		"      --tag-plugin='PROG ARG...'  "
		"run PROG (no shell) over the trace and end each\n"
		"                           event line with its tag: \" [tag T: LABEL]\"\n"
		"      --tag-timeout=SECS   give up on a plugin silent this long (30)\n"
		"  e.g. blkscope parse --tag-plugin 'tag-by-pid -g db:812,813' sda\n");
}

/* parse_options(): an option blkparse checks was refused, as blkparse does (exit 1) */
#define BLKPARSE_ERROR (-3)

/* An option value blkparse checks: its line, as blkparse prints it (no program name). */
static int blkparse_said(int rc, const struct bs_err *err)
{
	if (rc < 0)
		fprintf(stderr, "%s\n", err->text);
	return rc;
}

/* A value bs_arg refused (or a getopt error): "PROGRAM: TEXT" as every message of ours. */
static int arg_refused(const struct bs_err *err)
{
	fprintf(stderr, "%s: %s\n", bs_progname(), err->text);
	return -1;
}

/*
 * The library's messages: blkparse's own lines as they are, ours as
 * "PROGRAM: TEXT" (parse.h).
 */
static void print_msg(void *arg, enum bs_msg_level level, const char *text)
{
	if (level == PARSE_MSG_BLKPARSE)
		fprintf(stderr, "%s\n", text);
	else
		fprintf(stderr, "%s: %s\n", bs_progname(), text);
}

/* One option with its value; 0 = go on, 1 = exit successfully, -1 = error. */
static int one_option(struct parse_opts *o, int c, char *arg)
{
	struct bs_err err;
	double secs;

	switch (c) {
	case 'a':
		return blkparse_said(parse_opt_mask(o, arg, &err), &err);
	case 'A':
		return blkparse_said(parse_opt_set_mask(o, arg, &err), &err);
	case 'b': {
		uint64_t n;

		if (bs_arg_uint(bs_progname(), "-b", arg, 1, 1u << 20, &n, &err))
			return arg_refused(&err);
		o->batch = (unsigned int)n;
		return 0;
	}
	case 'D':
		o->input_dir = arg;
		return 0;
	case 'd':
		o->dump_name = arg;
		return 0;
	case 'f':
		parse_opt_format(o, arg);
		return 0;
	case 'F':
		return blkparse_said(parse_opt_format_spec(o, arg, &err), &err);
	case 'h':
		o->by_name = true;
		return 0;
	case 'i':
		parse_opt_input(o, arg);	/* beyond the limit: ignored, as before */
		return 0;
	case 'o':
		o->output_name = arg;
		return 0;
	case 'O':
		o->text = false;
		return 0;
	case 'q':
		o->dev_stats = false;
		return 0;
	case 's':
		o->per_process = true;
		return 0;
	case 't':
		o->track = true;
		return 0;
	case 'w':
		return blkparse_said(parse_opt_stopwatch(o, arg, &err), &err);
	case 'M':
		o->dump_msgs = false;
		return 0;
	case 'v':
		o->verbose++;
		return 0;
	case 'V':
		printf("blkscope parse version %s (blkparse %s compatible)\n", BLKSCOPE_VERSION,
		       COMPAT);
		return 1;
	case OPT_HELP:
		usage(stdout);
		return 1;
	case OPT_TAG_PLUGIN:
		o->tag_plugin = arg;
		return 0;
	case OPT_TAG_TIMEOUT:
		if (bs_arg_double(bs_progname(), "--tag-timeout", arg, 0.001, 86400,
				  "a number of seconds", &secs, &err))
			return arg_refused(&err);
		parse_opt_tag_timeout(o, secs);
		return 0;
	case OPT_FORCE:
		o->force = true;
		return 0;
	default:
		return -1;
	}
}

/* Options; returns 0 to go on, 1 to exit successfully (--help, -V), -1 on errors. */
static int parse_options(struct parse_opts *o, int argc, char **argv)
{
	struct bs_err err;
	int c, rc;

	opterr = 0;	/* bs_arg_getopt_error() says it, in one line */
	while ((c = getopt_long(argc, argv, ":a:A:b:D:d:f:F:hi:o:Oqstw:vVM", long_opts,
				NULL)) != -1) {
		if (c == '?' || c == ':') {	/* one line, not the usage text */
			bs_arg_getopt_error(bs_progname(), c, argv, &err);
			return arg_refused(&err);
		}
		rc = one_option(o, c, optarg);
		/* blkparse's own checks keep its message and its exit status 1 */
		if (rc < 0 && c < 0x100 && strchr("aAwF", c))
			return BLKPARSE_ERROR;
		if (rc)
			return rc;
	}
	while (optind < argc && parse_opt_input(o, argv[optind]) == 0)
		optind++;
	if (!o->ninputs) {
		fprintf(stderr, "%s: no input given; try '%s --help'\n", bs_progname(),
			bs_progname());
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct parse_opts o;
	int rc;

	parse_opts_init(&o);
	o.msg.fn = print_msg;
	bs_set_progname("blkscope parse");
	rc = parse_options(&o, argc, argv);
	if (rc)
		return rc == BLKPARSE_ERROR ? 1 : rc < 0 ? BS_EXIT_USAGE : 0;
	/* blkparse does this; "%'" groups thousands only if en_US exists */
	setlocale(LC_NUMERIC, "en_US");
	return parse_run(&o);
}
