// SPDX-License-Identifier: GPL-2.0
/*
 * replay_opts.c - the command line of `blkscope replay`.  Every value is
 * checked here, before the trace is opened: a bad one is one line naming
 * the option and what it takes (util/bs_arg.c), and main() exits 2.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_arg.h"
#include "bs_defs.h"
#include "replay.h"

#define PROG "blkscope replay"

void replay_usage(FILE *f)
{
	fprintf(f,
"Usage: blkscope replay [OPTIONS] -d DEV TRACE\n"
"       blkscope replay [OPTIONS] -m MAJ,MIN=DEV [-m MAJ,MIN=DEV ...] TRACE\n"
"       blkscope replay -n [OPTIONS] TRACE\n"
"\n"
"Re-issue the queued bios (Q) of a trace onto block devices, each at its\n"
"original time after the first, from as many independent submitters as the\n"
"trace had (one per thread id), with O_DIRECT on io_uring.  TRACE is what\n"
"blkscope parse reads: a base name, a per-CPU file, a directory, a blkparse -d\n"
"dump, - for stdin; version 7 or 8, zstd or not.  Record the replay and run\n"
"blkscope compare ORIGINAL REPLAY to see what changed (docs/replay.md).\n"
"\n"
"Targets:\n"
"  -d, --dev DEV           replay a single-device trace onto DEV\n"
"  -m, --map MAJ,MIN=DEV   replay the I/O of trace device MAJ,MIN onto DEV;\n"
"                          repeatable; the I/O of devices not named is skipped\n"
"      --wrap              fold offsets past the end of a target into it\n"
"                          (default: such a trace is refused before any I/O)\n"
"      --allow-writes      issue writes, flushes, discards and write-zeroes:\n"
"                          they DESTROY the data on the target (refused without)\n"
"      --reads-only        replay only the reads of the trace\n"
"\n"
"Timing:\n"
"  -s, --speed X           X times the trace's pace (default 1; 2 = twice as fast)\n"
"      --max               as fast as the targets allow; each submitter keeps its\n"
"                          order and at most the I/O in flight it had\n"
"  -w, --window START..END only the I/O queued from START to END seconds after\n"
"                          the trace's start (either may be left out: 5.., ..10)\n"
"      --no-deps           ignore what each I/O waited for: issue everything at\n"
"                          its time, whatever is still in flight\n"
"\n"
"Engine and output:\n"
"  -n, --dry-run           print the I/Os that would be issued, one a line\n"
"      --threads N         submitting threads, one io_uring each (default 1)\n"
"      --realtime          run them SCHED_FIFO (priority 1): on a busy host they\n"
"                          then wake up on time, not milliseconds late\n"
"      --depth N           I/O slots per thread (default 1024)\n"
"      --json FILE         the summary as JSON (- = stdout)\n"
"      --log FILE          one CSV line per I/O: schedule, issue, completion\n"
"  -v, --verbose           the plan on stderr\n"
"  -V, --version\n"
"  -h, --help\n"
"\n"
"Examples:\n"
"  blkscope record -d /dev/nvme0n1 -w 60 -D orig            # in production\n"
"  blkscope replay -d /dev/nvme1n1 orig/nvme0n1             # reads only: no flag\n"
"  blkscope replay --allow-writes -d /dev/sdb --json r.json orig/sda\n"
"  blkscope replay -m 8,0=/dev/sdb -m 8,16=/dev/sdc --speed 2 --allow-writes sda\n"
"  blkscope replay -n -w 10..20 orig/nvme0n1 | head           # what would be issued\n");
}

/* "MAJ,MIN=DEV" */
static int parse_map(const char *arg, struct replay_map *m, struct bs_err *err)
{
	static const char want[] =
		"MAJ,MIN=DEV (a trace device and the block device to replay it on)";
	unsigned long ma, mi;
	char *end;

	if (!isdigit((unsigned char)arg[0]))
		return bs_arg_bad(PROG, "--map", arg, want, err);
	errno = 0;
	ma = strtoul(arg, &end, 10);
	if (errno || *end != ',' || !isdigit((unsigned char)end[1]) || ma > 4095)
		return bs_arg_bad(PROG, "--map", arg, want, err);
	mi = strtoul(end + 1, &end, 10);
	if (errno || *end != '=' || !end[1] || mi > BS_MINORMASK)
		return bs_arg_bad(PROG, "--map", arg, want, err);
	m->dev = BS_MKDEV(ma, mi);
	m->path = end + 1;
	return 0;
}

/* one side of START..END: empty, or seconds >= 0 */
static int parse_secs(const char *s, size_t len, double *out)
{
	char buf[64], *end;

	if (!len)
		return 1;
	if (len >= sizeof(buf) || (!isdigit((unsigned char)s[0]) && s[0] != '.'))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	*out = strtod(buf, &end);
	return errno || *end || !isfinite(*out) || *out < 0 ? -1 : 0;
}

static int parse_window(struct replay_opts *o, const char *arg, struct bs_err *err)
{
	static const char want[] =
		"START..END in seconds after the trace's start (START.. or ..END)";
	const char *dots = strstr(arg, "..");
	int a, b;

	if (!dots)
		return bs_arg_bad(PROG, "--window", arg, want, err);
	o->win_start = 0;
	o->win_end = -1;
	a = parse_secs(arg, (size_t)(dots - arg), &o->win_start);
	b = parse_secs(dots + 2, strlen(dots + 2), &o->win_end);
	if (a < 0 || b < 0 || (a && b) || (!b && o->win_end <= o->win_start))
		return bs_arg_bad(PROG, "--window", arg, want, err);
	if (b)
		o->win_end = -1;
	o->window = true;
	return 0;
}

enum {
	OPT_MAX = 256, OPT_NO_DEPS, OPT_ALLOW_WRITES, OPT_READS_ONLY, OPT_WRAP,
	OPT_THREADS, OPT_DEPTH, OPT_JSON, OPT_LOG, OPT_REALTIME,
};

static const struct option longopts[] = {
	{ "dev", required_argument, NULL, 'd' },
	{ "map", required_argument, NULL, 'm' },
	{ "wrap", no_argument, NULL, OPT_WRAP },
	{ "allow-writes", no_argument, NULL, OPT_ALLOW_WRITES },
	{ "reads-only", no_argument, NULL, OPT_READS_ONLY },
	{ "speed", required_argument, NULL, 's' },
	{ "max", no_argument, NULL, OPT_MAX },
	{ "window", required_argument, NULL, 'w' },
	{ "no-deps", no_argument, NULL, OPT_NO_DEPS },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "realtime", no_argument, NULL, OPT_REALTIME },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int add_map(struct replay_opts *o, const char *arg, bool single, struct bs_err *err)
{
	struct replay_map m = { 0, arg };

	if ((single && o->nmaps) || (!single && o->single_dev))
		return bs_err_set(err, 0, "%s: -d names the device of a single-device trace, "
				  "--map one of several: use one or the other; try '%s --help'",
				  single ? "-d" : "--map", PROG);
	if (!single && parse_map(arg, &m, err))
		return -1;
	if (single && !*arg)
		return bs_arg_bad(PROG, "-d", arg, "a block device", err);
	for (int i = 0; i < o->nmaps; i++)
		if (o->maps[i].dev == m.dev)
			return bs_err_set(err, 0, "--map: trace device %u,%u is mapped twice; "
					  "try '%s --help'",
					  BS_DEV_MAJOR(m.dev), BS_DEV_MINOR(m.dev), PROG);
	o->maps = bs_xreallocarray(o->maps, (size_t)o->nmaps + 1, sizeof(*o->maps));
	o->maps[o->nmaps++] = m;
	o->single_dev = single;
	return 0;
}

/* One option: 0, or -1 with err filled. */
static int parse_one(struct replay_opts *o, int c, const char *arg, struct bs_err *err)
{
	uint64_t v;

	switch (c) {
	case 'd': return add_map(o, arg, true, err);
	case 'm': return add_map(o, arg, false, err);
	case 's':
		return bs_arg_double(PROG, "--speed", arg, 0.001, 1000, "a factor", &o->speed, err);
	case 'w': return parse_window(o, arg, err);
	case 'n': o->dry_run = true; return 0;
	case 'v': o->verbose++; return 0;
	case OPT_MAX: o->max = true; return 0;
	case OPT_NO_DEPS: o->no_deps = true; return 0;
	case OPT_ALLOW_WRITES: o->allow_writes = true; return 0;
	case OPT_READS_ONLY: o->reads_only = true; return 0;
	case OPT_WRAP: o->wrap = true; return 0;
	case OPT_REALTIME: o->realtime = true; return 0;
	case OPT_JSON: o->json = arg; return 0;
	case OPT_LOG: o->log = arg; return 0;
	case OPT_THREADS:
		if (bs_arg_uint(PROG, "--threads", arg, 1, 64, &v, err))
			return -1;
		o->threads = (unsigned int)v;
		return 0;
	case OPT_DEPTH:
		if (bs_arg_uint(PROG, "--depth", arg, 1, 32768, &v, err))
			return -1;
		o->depth = (unsigned int)v;
		return 0;
	}
	return bs_err_set(err, 0, "option %d is not handled", c);
}

int replay_parse_args(struct replay_opts *o, int argc, char **argv)
{
	bool speed_given = false;
	struct bs_err err;
	int c;

	memset(o, 0, sizeof(*o));
	o->speed = 1.0;
	o->win_end = -1;
	o->depth = 1024;
	o->threads = 1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":d:m:s:w:nvVh", longopts, NULL)) != -1) {
		if (c == 'h')
			return 1;
		if (c == 'V')
			return 2;
		if ((c == '?' || c == ':') ? bs_arg_getopt_error(PROG, c, argv, &err)
					   : parse_one(o, c, optarg, &err)) {
			fprintf(stderr, "%s: %s\n", PROG, err.text);
			return -1;
		}
		speed_given |= c == 's';
	}
	if (optind >= argc) {
		fprintf(stderr, "%s: no trace given; try '%s --help'\n", PROG, PROG);
		return -1;
	}
	if (speed_given && o->max) {
		fprintf(stderr, "%s: --speed and --max: one or the other; try '%s --help'\n",
			PROG, PROG);
		return -1;
	}
	if (o->reads_only && o->allow_writes) {
		fprintf(stderr, "%s: --reads-only and --allow-writes: one or the other; "
			"try '%s --help'\n", PROG, PROG);
		return -1;
	}
	if (!o->nmaps && !o->dry_run) {
		fprintf(stderr, "%s: no target: name it with -d DEV (or --map MAJ,MIN=DEV), or use "
			"--dry-run; try '%s --help'\n", PROG, PROG);
		return -1;
	}
	o->inputs = (const char *const *)argv + optind;
	o->ninputs = argc - optind;
	return 0;
}

void replay_opts_free(struct replay_opts *o)
{
	free(o->maps);
	o->maps = NULL;
	o->nmaps = 0;
}
