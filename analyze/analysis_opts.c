// SPDX-License-Identifier: GPL-2.0
/*
 * analysis_opts.c - the command line of `blkscope analyze`: btt's options,
 * blkscope's own, and the long options of every extension (analysis.h),
 * gathered into one getopt table; the usage text.
 *
 * Extension options carry their extension's own `val`; in the table they
 * get ANALYSIS_OPT_EXT + their position, which ext_opts maps back to
 * (extension, val), so no two extensions need to agree on numbers.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis_priv.h"
#include "bs_alloc.h"
#include "bs_arg.h"
#include "bs_stream.h"

/* blkscope analyze --help: btt's options, ours, then every extension's, then examples */
static const char analyze_usage_text[] =
	"Usage: blkscope analyze [OPTIONS] INPUT...\n"
	"\n"
	"btt's latency analysis (Q2Q Q2G G2I Q2M I2D M2D D2C Q2C, merges, seeks, plugs,\n"
	"active periods) straight from blktrace per-CPU files, in one pass.  INPUT is\n"
	"what blkparse -i takes: a base name (sda), a per-CPU file, a directory, a\n"
	"blkparse -d dump, or - for stdin; .zst compressed files are read too.\n"
	"\n"
	"btt options:\n"
	"  -i, --input=INPUT          add an input (like a bare argument)\n"
	"  -o, --output=NAME          report to NAME.avg, ranges to NAME.dat, messages to "
	"NAME.msg,\n"
	"                             Q/D size histograms to NAME_qhist.dat, NAME_dhist.dat\n"
	"  -X, --easy-parse-avgs      with -o: NAME.xvg, the numbers as one record per line\n"
	"  -A, --all-data             also per-process/per-device tables and the Q2D histogram\n"
	"  -a, --seek-absolute        seek distance is always start - previous end\n"
	"  -d, --range-delta=SECS     coalesce activity closer than SECS (0.1)\n"
	"  -D, --devices=M,m;M,m      report only these devices, in this order\n"
	"  -e, --exes=NAME,NAME       per-process output only for these processes\n"
	"  -r, --no-remaps            ignore remap (A) events\n"
	"  -t, --time-start=SECS      ignore events before SECS\n"
	"  -T, --time-end=SECS        stop at the first event after SECS\n"
	"  -l, --d2c-latencies=NAME   per-IO D2C to NAME_<maj>,<min>_d2c.dat\n"
	"  -q, --q2c-latencies=NAME   per-IO Q2C to NAME_<maj>,<min>_q2c.dat\n"
	"  -z, --q2d-latencies=NAME   per-IO Q2D to NAME_<maj>,<min>_q2d.dat\n"
	"  -p, --per-io-dump=FILE     every completed IO's Q/G/I/M/D/C to FILE\n"
	"  -s, --seeks=NAME           every seek to NAME_<maj>,<min>_{q2q,d2d}_{r,w,c}.dat\n"
	"  -B, --dump-blocknos=NAME   every D's blocks to NAME_<maj>,<min>_{r,w,c}.dat\n"
	"  -Q, --active-queue-depth=NAME  issued-not-completed count to NAME_<maj>,<min>_aqd.dat\n"
	"  -u, --unplug-hist=NAME     IO unplug depths (buckets of 5) to NAME_<maj>,<min>.dat\n"
	"  -L, --periodic-latencies=SECS  Q2D/Q2C/D2C averaged over SECS into\n"
	"                             <maj>,<min>_{q2d,q2c,d2c}_plat.dat (current directory)\n"
	"  -Z, --do-active            active periods to <maj>,<min>_live.dat, sys_live.dat\n"
	"  -P, --per-io-trees=X       per C: its bios' Q times | D | C to <maj>,<min>_pit.dat\n"
	"  -I, --iostat=FILE          iostat-style lines to FILE\n"
	"  -S, --iostat-interval=SECS interval of -I lines (1)\n"
	"\n"
	"blkscope options:\n"
	"      --input-dir=DIR        directory for relative inputs (blkparse -D)\n"
	"      --batch=N              per-CPU read batch, as blkparse -b (512)\n"
	"      --btt-only             print only btt's sections (no percentile sections)\n"
	"      --seek-values=N        distinct seek distances kept for MEDIAN/MODE, all devices\n"
	"                             together (3000000, ~48 MiB; 0 = no limit, as btt)\n"
	"      --progress / --no-progress  progress on stderr (default: if a terminal)\n"
	"      --memory-limit=SIZE    stop with a message when the analysis needs more memory\n"
	"                             than SIZE (512M, 4G; 0 = no limit; default: half of RAM)\n"
	"      --threads=N            1: all on one thread; 2: per-CPU files read, the reports\n"
	"                             filed and btt's seek logs sorted on threads of their\n"
	"                             own, alongside btt's engine (default: 2 with two or\n"
	"                             more CPUs)\n"
	"      --force                replace output files of an earlier run (regular files of\n"
	"                             ours); without it an existing output file is refused\n"
	"  -v, --verbose              events read and the rate (and threads used), on stderr\n"
	"  -V, --version\n"
	"  -h, --help\n";

static const char analyze_usage_examples[] =
	"\n"
	"Examples:\n"
	"  blkscope analyze sda                      # btt's report for sda.blktrace.*\n"
	"  blkscope analyze -A -l lat -q lat sda     # plus per-process tables, latency files\n"
	"  blkscope analyze -I iostat.txt -S 5 trace.dump\n"
	"  blkscope record -o - ... | blkscope analyze -\n";

void analysis_usage(const struct analysis *a, FILE *f)
{
	int i;

	if (a->front) {
		a->front->usage(f);
		for (i = 0; i < a->nexts; i++)
			if (a->exts[i]->usage)
				a->exts[i]->usage(f);
		return;
	}
	fputs(analyze_usage_text, f);
	for (i = 0; i < a->nexts; i++)
		if (a->exts[i]->usage)
			a->exts[i]->usage(f);
	fputs(analyze_usage_examples, f);
}

void analysis_version(FILE *f)
{
	fprintf(f, "blkscope-analyze %s (btt 2.09 compatible)\n", BLKSCOPE_VERSION);
}

enum {
	OPT_INPUT_DIR = 0x100,
	OPT_BATCH,
	OPT_BTT_ONLY,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
	OPT_SEEK_VALUES,
	OPT_MEMORY_LIMIT,
	OPT_THREADS,
	OPT_FORCE,
};

static const struct option base_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "output-file", required_argument, NULL, 'o' },
	{ "all-data", no_argument, NULL, 'A' },
	{ "seek-absolute", no_argument, NULL, 'a' },
	{ "range-delta", required_argument, NULL, 'd' },
	{ "devices", required_argument, NULL, 'D' },
	{ "exes", required_argument, NULL, 'e' },
	{ "no-remaps", no_argument, NULL, 'r' },
	{ "time-start", required_argument, NULL, 't' },
	{ "time-end", required_argument, NULL, 'T' },
	{ "d2c-latencies", required_argument, NULL, 'l' },
	{ "q2c-latencies", required_argument, NULL, 'q' },
	{ "q2d-latencies", required_argument, NULL, 'z' },
	{ "per-io-dump", required_argument, NULL, 'p' },
	{ "seeks", required_argument, NULL, 's' },
	{ "dump-blocknos", required_argument, NULL, 'B' },
	{ "active-queue-depth", required_argument, NULL, 'Q' },
	{ "unplug-hist", required_argument, NULL, 'u' },
	{ "periodic-latencies", required_argument, NULL, 'L' },
	{ "do-active", no_argument, NULL, 'Z' },
	{ "per-io-trees", required_argument, NULL, 'P' },
	{ "iostat", required_argument, NULL, 'I' },
	{ "iostat-interval", required_argument, NULL, 'S' },
	{ "input-dir", required_argument, NULL, OPT_INPUT_DIR },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "btt-only", no_argument, NULL, OPT_BTT_ONLY },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "seek-values", required_argument, NULL, OPT_SEEK_VALUES },
	{ "memory-limit", required_argument, NULL, OPT_MEMORY_LIMIT },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "verbose", no_argument, NULL, 'v' },
	{ "easy-parse-avgs", no_argument, NULL, 'X' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
};

void analysis_build_options(struct analysis *a)
{
	size_t nbase = sizeof(base_opts) / sizeof(base_opts[0]), n = nbase, k = 0;
	const struct option *o;
	int i;

	for (i = 0; i < a->nexts; i++)
		for (o = a->exts[i]->options; o && o->name; o++)
			n++;
	a->opts = bs_xcalloc(n + 1, sizeof(*a->opts));
	a->ext_opts = bs_xcalloc(n - nbase + 1, sizeof(*a->ext_opts));
	memcpy(a->opts, base_opts, sizeof(base_opts));
	n = nbase;
	for (i = 0; i < a->nexts; i++)
		for (o = a->exts[i]->options; o && o->name; o++, k++) {
			a->ext_opts[k] = (struct analysis_ext_opt){ .ext = i, .val = o->val };
			a->opts[n] = *o;
			a->opts[n].flag = NULL;
			a->opts[n++].val = ANALYSIS_OPT_EXT + (int)k;
		}
}

/* A refused option (bs_arg's line): told through the run's sink; -1. */
static int arg_refused(struct analysis *a, const struct bs_err *err)
{
	bs_msg(&a->msgs.sink, BS_MSG_ERROR, "%s", err->text);
	return -1;
}

/* Seconds in [lo, hi] (the upper bounds keep the ns conversions defined). */
static int parse_secs(struct analysis *a, const char *opt, const char *arg, double lo, double hi,
		      double *out)
{
	struct bs_err err;

	if (bs_arg_double(bs_progname(), opt, arg, lo, hi, "a number of seconds", out, &err))
		return arg_refused(a, &err);
	return 0;
}

/* A whole number in [lo, hi] (each batch is allocated per CPU: bounded). */
static int parse_count(struct analysis *a, const char *opt, const char *arg,
		       unsigned long long lo, unsigned long long hi, unsigned long long *out)
{
	struct bs_err err;
	uint64_t v;

	if (bs_arg_uint(bs_progname(), opt, arg, lo, hi, &v, &err))
		return arg_refused(a, &err);
	*out = v;
	return 0;
}

/* A front-end takes only some of analyze's options (analysis.h). */
static bool front_takes(const struct analysis *a, int c)
{
	if (!a->front)
		return true;
	if (c == OPT_INPUT_DIR || c == OPT_BATCH || c == OPT_PROGRESS || c == OPT_NO_PROGRESS ||
	    c == OPT_MEMORY_LIMIT || c == OPT_FORCE)
		return true;
	return c > 0 && c < 0x100 && c != ':' && strchr(a->front->short_opts, c);
}

/*
 * One of btt's or blkscope's own options.  A switch over every option, as
 * btt's handle_args() (long on purpose: one case per option).
 */
static enum analysis_args parse_base_opt(struct analysis *a, int c, const char *arg)
{
	struct btt_opts *o = &a->o;
	unsigned long long n;
	struct bs_err err;

	switch (c) {
	case 'i':
		a->inputs[a->ninputs++] = arg;
		break;
	case 'o':
		a->output = arg;
		break;
	case 'A':
		o->all_data = true;
		break;
	case 'a':
		o->seek_absolute = true;
		break;
	case 'd':
		if (parse_secs(a, "-d", arg, 0, 1e9, &o->range_delta))
			return ANALYSIS_ARGS_ERROR;
		break;
	case 'D':
		o->devices = arg;
		break;
	case 'e':
		o->exes = arg;
		break;
	case 'r':
		o->ignore_remaps = true;
		break;
	case 't':
		if (parse_secs(a, "-t", arg, 0, 1.8e10, &o->t_start))
			return ANALYSIS_ARGS_ERROR;
		o->time_bounded = true;
		break;
	case 'T':
		if (parse_secs(a, "-T", arg, 0, 1.8e10, &o->t_end))
			return ANALYSIS_ARGS_ERROR;
		o->time_bounded = true;
		break;
	case 'l':
		o->d2c_name = arg;
		break;
	case 'q':
		o->q2c_name = arg;
		break;
	case 'z':
		o->q2d_name = arg;
		break;
	case 'p':
		a->per_io = arg;
		break;
	case 's':
		o->seek_name = arg;
		break;
	case 'B':
		o->bno_name = arg;
		break;
	case 'Q':
		o->aqd_name = arg;
		break;
	case 'u':
		o->uhist_name = arg;
		break;
	case 'L':
		if (parse_secs(a, "-L", arg, 0, 1e9, &o->plat_freq))
			return ANALYSIS_ARGS_ERROR;
		break;
	case 'Z':
		o->live_files = true;
		break;
	case 'P':
		o->pit_files = true;
		break;
	case 'I':
		a->iostat = arg;
		break;
	case 'S':
		/* whole seconds; the upper bound keeps the ns conversion defined */
		if (parse_count(a, "-S", arg, 1, 1000000000, &n))
			return ANALYSIS_ARGS_ERROR;
		o->iostat_interval = n * 1000000000ull;
		break;
	case OPT_INPUT_DIR:
		a->input_dir = arg;
		break;
	case OPT_BATCH:
		if (parse_count(a, "--batch", arg, 1, 1u << 20, &n))
			return ANALYSIS_ARGS_ERROR;
		a->mo.batch = (unsigned int)n;
		break;
	case OPT_BTT_ONLY:
		a->btt_only = true;
		break;
	case OPT_PROGRESS:
		a->progress = 1;
		break;
	case OPT_NO_PROGRESS:
		a->progress = 0;
		break;
	case OPT_SEEK_VALUES:
		/* 0 = no limit (btt's behaviour) must be asked for as 0, not as "x" */
		if (parse_count(a, "--seek-values", arg, 0, 1000000000, &n))
			return ANALYSIS_ARGS_ERROR;
		o->seek_values = n;
		break;
	case OPT_MEMORY_LIMIT:
		if (analysis_parse_memory_limit(arg, &a->mem_limit, &err)) {
			arg_refused(a, &err);
			return ANALYSIS_ARGS_ERROR;
		}
		break;
	case OPT_FORCE:
		a->force = true;
		break;
	case OPT_THREADS:
		if (parse_count(a, "--threads", arg, 1, 2, &n))
			return ANALYSIS_ARGS_ERROR;
		a->threads = (int)n;
		break;
	case 'v':
		a->verbose = true;
		break;
	case 'X':
		a->easy = true;
		break;
	case 'V':
		return ANALYSIS_ARGS_VERSION;
	case 'h':
		return ANALYSIS_ARGS_HELP;
	default:
		return ANALYSIS_ARGS_USAGE;
	}
	return ANALYSIS_ARGS_RUN;
}

/*
 * Options that contradict each other: a bad command line too (exit 2), said before any input is
 * read.
 */
static enum analysis_args check_args(struct analysis *a)
{
	const struct btt_opts *o = &a->o;
	int i;

	if (o->t_end < o->t_start) {
		bs_msg(&a->msgs.sink, BS_MSG_ERROR,
		       "-T %g is before -t %g: the time window is empty", o->t_end, o->t_start);
		return ANALYSIS_ARGS_ERROR;
	}
	for (i = 0; i < a->nexts; i++)
		if (a->exts[i]->check && a->exts[i]->check(a->ext_state[i], a))
			return ANALYSIS_ARGS_ERROR;
	return ANALYSIS_ARGS_RUN;
}

enum analysis_args analysis_parse_args(struct analysis *a, int argc, char **argv)
{
	enum analysis_args r;
	struct bs_err err;
	int c, i;

	free(a->inputs);
	a->inputs = bs_xcalloc((size_t)argc + 1, sizeof(*a->inputs));
	a->ninputs = 0;
	optind = 0;	/* GNU: reinitialize, in case of an earlier parse in this process */
	opterr = 0;	/* bs_arg_getopt_error() says it, in one line */
	while ((c = getopt_long(argc, argv, ":i:o:Aad:D:e:rt:T:l:q:z:p:I:S:s:B:Q:u:L:ZP:vVXh",
				a->opts, NULL)) != -1) {
		if (c >= ANALYSIS_OPT_EXT) {
			const struct analysis_ext_opt *eo = &a->ext_opts[c - ANALYSIS_OPT_EXT];
			const struct analysis_ext *ext = a->exts[eo->ext];

			bs_err_set(&err, 0, "option '%s' is not handled", argv[optind - 1]);
			if (!ext->parse_opt ||
			    ext->parse_opt(a->ext_state[eo->ext], eo->val, optarg, &err)) {
				arg_refused(a, &err);	/* its one line */
				return ANALYSIS_ARGS_ERROR;
			}
			continue;
		}
		if (c == '?' || c == ':') {
			bs_arg_getopt_error(bs_progname(), c, argv, &err);
			arg_refused(a, &err);
			return ANALYSIS_ARGS_ERROR;
		}
		if (!front_takes(a, c)) {
			bs_msg(&a->msgs.sink, BS_MSG_ERROR,
			       "option '%s' is not one of this command's; try '%s --help'",
			       argv[optind - 1], bs_progname());
			return ANALYSIS_ARGS_ERROR;
		}
		r = parse_base_opt(a, c, optarg);
		if (r != ANALYSIS_ARGS_RUN)
			return r;
	}
	for (i = optind; i < argc; i++)
		a->inputs[a->ninputs++] = argv[i];
	if (!a->ninputs) {
		bs_msg(&a->msgs.sink, BS_MSG_ERROR, "no input given; try '%s --help'",
		       bs_progname());
		return ANALYSIS_ARGS_ERROR;
	}
	return check_args(a);
}
