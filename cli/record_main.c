// SPDX-License-Identifier: GPL-2.0
/*
 * record_main.c - `blkscope record`: options, signals, main(); the recording
 * itself is in the files recorder.h lists.
 *
 * Records arrive per CPU from the BPF rings already complete; this file
 * routes each into the stage of its (trace, CPU), flushes stages to their
 * sinks in large batches, and stops on SIGINT/SIGTERM, -w, the end of
 * `-- COMMAND`, or a write error.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <bpf/libbpf.h>
#include "bs_arg.h"
#include "bs_codec.h"
#include "bs_writer.h"
#include "record.h"
#include "recorder.h"

int rec_verbose;

/* the handlers' only channel to the loop */
static struct rec_signals signals;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig == SIGCHLD) {
		signals.child_exited = 1;
		return;
	}
	if (sig == SIGUSR1) {	/* --trigger signal: a snapshot now */
		signals.usr1 = 1;
		signals.usr1_pid = si && si->si_code == SI_USER ? si->si_pid : 0;
		return;
	}
	signals.stop = sig;
	/* a terminal's ^C reaches the command itself; a kill(1) does not */
	if (si && (si->si_code == SI_USER || si->si_code == SI_QUEUE))
		signals.forward = sig;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: blkscope record -d DEV [-d DEV ...] [-D DIR] [-o BASE | -o -] [-w SECONDS]\n               "
"        [-a MASK ...] [-A HEX] [-b KIB] [-p PID] [--zstd[=LEVEL]] [--format 7|8]\n                "
"       [--lba START:END] [--events LIST] [--cgroup-ids] [--cgroup PATH ...]\n                     "
"  [--files] [--stacks [--stack-entries N]]\n                       [--trace-self] [--force] [-q | "
"-v]\n                       [--user USER | --keep-root] [-- COMMAND ARGS]\n\nRecord block I/O "
"events with eBPF into classic blktrace files\n(<base>.blktrace.<cpu> for every possible CPU), "
"readable by blkparse and btt.\n\n  -d, --dev DEV        block device to trace (disk or "
"partition); repeatable\n  -D, --output-dir DIR directory for the output files (created if "
"missing)\n  -o, --output BASE    base name of the files, no '/' (one device only; default:\n      "
"                 the kernel's device name, e.g. loop0, nvme0n1p1);\n                       '-o -' "
"writes all records to stdout (blkparse -i -)\n  -w, --stopwatch SEC  stop after SEC seconds\n  "
"-a, --act-mask NAME  record only these categories: read write flush sync queue\n                  "
"     requeue issue complete fs pc notify ahead meta discard\n                       drv_data fua; "
"repeatable (an event passes if any matches)\n  -A, --set-mask HEX   the same as a hex mask of "
"BLK_TC_* bits\n  -b, --buffer-size KIB  ring buffer per CPU (default %d, rounded up to a power of "
"2)\n  -p, --pid PID        only events of this thread id\n      --lba START:END  only events in "
"this inclusive sector range (sector 0\n                       always passes); default: the "
"partition or whole disk\n      --zstd[=LEVEL]   write zstd-compressed <base>.blktrace.<cpu>.zst "
"(level 3)\n      --format 7|8     record format: 7 (default; every blkparse/btt reads it) or\n    "
"                   8 (Linux 6.19's 64-byte records: zone operations keep\n                       "
"their categories, zone write plugs show as ZP/ZU)\n      --cgroup-ids     prefix events with "
"their bio's cgroup id, as the kernel's\n                       blk_cgroup option does (btt "
"ignores such records), and\n                       note each id's cgroup path once\n      "
"--events LIST    record only these actions (e.g. Q,D,C: three events per\n                       "
"I/O); the other tracepoints' programs are not loaded;\n                       btt then lacks what "
"the others carry (not blktrace's)\n      --cgroup PATH    only I/O charged to this cgroup or "
"below it (writeback\n                       done on its behalf included); repeatable; PATH is a\n "
"                      directory of the io (blkio) hierarchy or relative to it\n      --files      "
"    note the file each queued bio belongs to (page cache,\n                       direct I/O; "
"else metadata, journal, swap, raw, ...), its\n                       path resolved now, in side "
"files blkparse/btt ignore\n      --stacks         note the kernel and user stack that queued each "
"bio,\n                       symbolized now (user frames need frame pointers)\n      "
"--stack-entries N  stacks each stack table holds (default %u; the\n                       ones "
"that do not fit are counted, not stored)\n      --trace-self     also record the recorder's own "
"I/O (excluded by default)\n      --force          replace output files of our own from an earlier "
"run\n                       (anything else at an output name is always refused)\n  -q, --quiet    "
"      no start line, per-CPU summary or next step; warnings and\n                       errors "
"only\n  -v, --verbose        more messages (twice: libbpf debug log)\n  -- COMMAND ARGS      run "
"COMMAND once tracing is on, stop when it exits, and\n                       exit with its status; "
"it gets only fds 0-2\n      --user USER      run COMMAND as USER (name, UID or UID:GID): its "
"groups,\n                       no capabilities (default under sudo: SUDO_UID/SUDO_GID)\n      "
"--keep-root      run COMMAND as the recorder's user even under sudo\n\nFlight recorder: record "
"into memory, write only the seconds around a trigger\n  (DIR/<UTC "
"time>-<trigger>/<base>.blktrace.<cpu>, one directory per snapshot):\n      --ring SIZE      keep "
"the newest SIZE bytes of records in memory (e.g.\n                       256M; suffix K, M, G) "
"and write nothing until a trigger\n      --trigger SPEC   repeatable; any one fires: "
"[DEV:][OP.]Q2C|D2C|Q2D>TIME\n                       (a completed I/O slower than TIME, e.g. "
"'D2C>100ms',\n                       '8,16:write.Q2C>1s'; OP: read write discard flush sync),\n   "
"                    [DEV:][OP.]error (a completion with an error),\n                       "
"[DEV:]drop (events lost), signal (SIGUSR1)\n      --after TIME     also record TIME after the "
"trigger (default 2s)\n      --hold-off TIME  ignore triggers for TIME after a snapshot's window\n "
"     --max-snapshots N  stop after N snapshots\n      --budget SIZE    snapshots of this run on "
"disk at most (default 16 x\n                       --ring); the oldest are removed to make room\n "
"     --ring-zstd[=L]  compress the history in memory (level 1 by default)\n      --dump-on-exit   "
"write the history when stopped (SIGINT, SIGTERM, -w, the\n                       command's end); "
"otherwise a stop writes nothing new\n\nExamples:\n  blkscope record -d /dev/nvme0n1 -w 10\n  "
"blkscope record -d /dev/sda -d /dev/sdb1 -D traces -- fio job.fio\n  blkscope record -d "
"/dev/loop0 -o - | blkparse -i -\n  blkscope record -d /dev/vda -a write -a sync --zstd -- sync\n  "
"blkscope record -d /dev/nvme0n1 --files --stacks -w 30\n  blkscope record -d /dev/nvme0n1 -D "
"/var/lib/blkscope --ring 256M --trigger 'D2C>100ms' \\\n                  --trigger signal "
"--hold-off 60s --budget 4G\n",
		DEFAULT_RING_KIB, DEFAULT_STACK_ENTRIES);
}



/* "START:END" in sectors, both plain decimal u64, START <= END */
static int parse_lba(const char *arg, uint64_t *start, uint64_t *end)
{
	char *colon, *stop;

	if (strpbrk(arg, "-+ \t"))	/* strtoull would take a sign or blanks */
		return -1;
	errno = 0;
	*start = strtoull(arg, &colon, 10);
	if (colon == arg || *colon != ':')
		return -1;
	*end = strtoull(colon + 1, &stop, 10);
	if (stop == colon + 1 || *stop || errno || *start > *end)
		return -1;
	return 0;
}

static int parse_mask_name(const char *arg, unsigned int *mask)
{
	int bit = bs_mask_from_name(arg);

	if (bit < 0) {
		fprintf(stderr, "blkscope record: unknown action mask '%s'\n", arg);
		return -1;
	}
	*mask |= bit;
	return 0;
}

enum { OPT_ZSTD = 256, OPT_SELF, OPT_LBA, OPT_FORMAT, OPT_USER, OPT_KEEP_ROOT, OPT_FORCE,
       OPT_CGROUP_IDS, OPT_CGROUP, OPT_EVENTS, OPT_FILES, OPT_STACKS, OPT_STACK_ENTRIES };

/*
 * The options that take a number or a choice: returns 0, -1 with err
 * filled, or 1 when c is not one of them.
 */
static int parse_value_opt(int c, struct rec_opts *o, struct bs_err *err)
{
	char *end;
	uint64_t n;

	switch (c) {
	case 'w':
		/* beyond 1.8e10 s would not convert to ns */
		if (bs_arg_double(PROG, "-w", optarg, 0.001, 1.8e10, "a number of seconds",
				  &o->wait_s, err))
			return -1;
		break;
	case 'A': {
		unsigned long m = strtoul(optarg, &end, 16);

		if (!isxdigit((unsigned char)optarg[0]) || *end || !m || m > 0xffff)
			return bs_arg_bad(PROG, "-A", optarg, "a hex mask in 1..ffff", err);
		o->act_mask |= m;
		break;
	}
	case 'b':
		if (bs_arg_uint(PROG, "-b", optarg, 4, 1ul << 21, &n, err))	/* KiB */
			return -1;
		o->ring_kib = n;
		break;
	case 'p':
		/* pids end at 2^22 (PID_MAX_LIMIT) */
		if (bs_arg_uint(PROG, "-p", optarg, 1, 1ul << 22, &n, err))
			return -1;
		o->pid = (uint32_t)n;
		break;
	case OPT_ZSTD:
		o->zstd_level = 3;
		if (optarg && bs_arg_uint(PROG, "--zstd", optarg, 1, 22, &n, err))
			return -1;
		if (optarg)
			o->zstd_level = (int)n;
#ifndef HAVE_ZSTD
		return bs_err_set(err, 0, "built without libzstd; --zstd is unavailable");
#endif
		break;
	case OPT_LBA:
		if (parse_lba(optarg, &o->start_lba, &o->end_lba) < 0)
			return bs_arg_bad(PROG, "--lba", optarg,
					  "START:END in sectors, START <= END", err);
		o->lba_set = true;
		break;
	case OPT_EVENTS:
		if (rec_events_parse(optarg, &o->events) < 0)
			return bs_arg_bad(PROG, "--events", optarg,
					  "a list of actions from Q G P U I D C M F R X A (e.g. "
					  "Q,D,C)", err);
		break;
	case OPT_STACK_ENTRIES:
		/* a BPF stack table: entries are preallocated, up to 1M */
		if (bs_arg_uint(PROG, "--stack-entries", optarg, 64, 1u << 20, &n, err))
			return -1;
		o->stack_entries = (uint32_t)n;
		break;
	case OPT_FORMAT:
		if (strcmp(optarg, "7") && strcmp(optarg, "8"))
			return bs_arg_bad(PROG, "--format", optarg, "7 or 8", err);
		o->format = optarg[0] - '0';
		break;
	default:
		return 1;
	}
	return 0;
}

/* One option from getopt_long: 0, or -1 after a message. */
static int parse_one_opt(int c, struct rec_opts *o)
{
	struct bs_err err;
	int r;

	switch (c) {
	case 'd':
		if (o->ndevs == BR_MAX_TRACES) {
			fprintf(stderr, "blkscope record: at most %d devices\n", BR_MAX_TRACES);
			return -1;
		}
		o->devs[o->ndevs++] = optarg;
		break;
	case 'D':
		o->dir = optarg;
		break;
	case 'o':
		if (!*optarg) {
			fprintf(stderr, "blkscope record: bad -o '' (a base name, or - for "
					"stdout)\n");
			return -1;
		}
		if (!strcmp(optarg, "-"))
			o->to_stdout = true;
		else if (strchr(optarg, '/')) {
			fprintf(stderr, "blkscope record: bad -o '%s' (a base name without '/'; -D "
				"DIR names the directory)\n", optarg);
			return -1;
		} else
			o->base = optarg;
		break;
	case 'a':
		if (parse_mask_name(optarg, &o->act_mask) < 0)
			return -1;
		break;
	case OPT_SELF:
		o->trace_self = true;
		break;
	case OPT_USER:
		o->user = optarg;
		break;
	case OPT_KEEP_ROOT:
		o->keep_root = true;
		break;
	case OPT_FORCE:
		o->force = true;
		break;
	case OPT_CGROUP_IDS:
		o->cgroup_ids = true;
		break;
	case OPT_FILES:
		o->files = true;
		break;
	case OPT_STACKS:
		o->stacks = true;
		break;
	case OPT_CGROUP:
		if (o->ncgroups == BR_MAX_CGROUPS) {
			fprintf(stderr, "blkscope record: at most %d --cgroup\n", BR_MAX_CGROUPS);
			return -1;
		}
		if (!*optarg) {
			fprintf(stderr, "blkscope record: bad --cgroup '' (a cgroup directory)\n");
			return -1;
		}
		o->cgroups[o->ncgroups++] = optarg;
		break;
	case 'v':
		rec_verbose++;
		break;
	case 'q':
		o->quiet = true;
		break;
	case 'h':
		usage(stdout);
		exit(0);
	default:
		r = parse_value_opt(c, o, &err);
		if (r < 0)
			fprintf(stderr, "%s: %s\n", PROG, err.text);
		if (r <= 0)
			return r;
		r = rec_flight_opt(&o->flight, c, optarg);
		if (r <= 0)
			return r;
		/* '?' or ':': one line, not the usage text */
		bs_arg_getopt_error(PROG, c, o->argv, &err);
		fprintf(stderr, "%s: %s\n", PROG, err.text);
		return -1;
	}
	return 0;
}

/* The checks that need every option: 0, or -1 after a message. */
static int check_opts(const struct rec_opts *o)
{
	if (!o->ndevs) {
		fprintf(stderr, "blkscope record: no device given (-d DEV)\n");
		return -1;
	}
	if (o->base && o->ndevs > 1) {
		fprintf(stderr, "blkscope record: -o BASE names one device's files; use -D with "
				"several devices\n");
		return -1;
	}
	if ((o->user || o->keep_root) && !o->cmd) {
		fprintf(stderr, "blkscope record: --user and --keep-root apply to -- COMMAND; none "
				"given\n");
		return -1;
	}
	if (o->user && o->keep_root) {
		fprintf(stderr, "blkscope record: --user and --keep-root contradict each other\n");
		return -1;
	}
	/* a warning, not an error: the process may be about to start */
	if (o->pid && kill((pid_t)o->pid, 0) < 0 && errno == ESRCH)
		fprintf(stderr,
			"%s: warning: -p %u: no such process is running; only a process that gets "
			"this pid later is recorded\n",
			PROG, o->pid);
	if (o->flight.ring && o->to_stdout && o->flight.max_snapshots != 1) {
		fprintf(stderr, "blkscope record: --ring with -o - writes one snapshot to stdout: "
			"add --max-snapshots 1 (or write snapshot directories with -D)\n");
		return -1;
	}
	if ((o->files || o->stacks) && (o->to_stdout || o->flight.ring)) {
		fprintf(stderr,
			"blkscope record: --files and --stacks write side files beside the per-CPU "
			"files; they cannot be combined with %s\n",
			o->to_stdout ? "-o -" : "--ring");
		return -1;
	}
	if (o->stack_entries && !o->stacks) {
		fprintf(stderr, "blkscope record: --stack-entries sizes the tables of --stacks; "
				"none given\n");
		return -1;
	}
	if (o->to_stdout && o->zstd_level) {
		fprintf(stderr, "blkscope record: --zstd writes files; it cannot be combined with "
				"-o -\n");
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct rec_opts *o)
{
	static const struct option longopts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "output-dir", required_argument, NULL, 'D' },
		{ "output", required_argument, NULL, 'o' },
		{ "stopwatch", required_argument, NULL, 'w' },
		{ "act-mask", required_argument, NULL, 'a' },
		{ "set-mask", required_argument, NULL, 'A' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "pid", required_argument, NULL, 'p' },
		{ "zstd", optional_argument, NULL, OPT_ZSTD },
		{ "trace-self", no_argument, NULL, OPT_SELF },
		{ "lba", required_argument, NULL, OPT_LBA },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "user", required_argument, NULL, OPT_USER },
		{ "keep-root", no_argument, NULL, OPT_KEEP_ROOT },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "cgroup-ids", no_argument, NULL, OPT_CGROUP_IDS },
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		{ "events", required_argument, NULL, OPT_EVENTS },
		{ "files", no_argument, NULL, OPT_FILES },
		{ "stacks", no_argument, NULL, OPT_STACKS },
		{ "stack-entries", required_argument, NULL, OPT_STACK_ENTRIES },
		{ "ring", required_argument, NULL, REC_OPT_RING },
		{ "ring-zstd", optional_argument, NULL, REC_OPT_RING_ZSTD },
		{ "trigger", required_argument, NULL, REC_OPT_TRIGGER },
		{ "after", required_argument, NULL, REC_OPT_AFTER },
		{ "hold-off", required_argument, NULL, REC_OPT_HOLDOFF },
		{ "max-snapshots", required_argument, NULL, REC_OPT_MAX_SNAPSHOTS },
		{ "budget", required_argument, NULL, REC_OPT_BUDGET },
		{ "dump-on-exit", no_argument, NULL, REC_OPT_DUMP_ON_EXIT },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	rec_flight_defaults(&o->flight);
	o->ring_kib = DEFAULT_RING_KIB;
	o->format = 7;
	o->argv = argv;
	opterr = 0;	/* bs_arg_getopt_error() says it, in one line */
	while ((c = getopt_long(argc, argv, "+:d:D:o:w:a:A:b:p:vqh", longopts, NULL)) != -1) {
		if (parse_one_opt(c, o) < 0)
			return -1;
	}
	if (optind < argc)
		o->cmd = argv + optind;
	return check_opts(o);
}

static int setup_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;	/* no SA_RESTART: wake the poll */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL) ||
	    sigaction(SIGCHLD, &sa, NULL) || sigaction(SIGUSR1, &sa, NULL))
		return -1;
	signal(SIGPIPE, SIG_IGN);	/* a closed pipe is a write error, not death */
	return 0;
}

int main(int argc, char **argv)
{
	struct rec_recorder r = { .child = -1, .flight_dir = -1, .sig = &signals };
	struct rec_cred cred;
	struct rec_opts o;
	int status = 1;

	if (parse_args(argc, argv, &o) < 0)
		return 2;
	if (rec_command_cred(&o, &cred) < 0) {
		rec_cred_free(&cred);
		return 2;
	}
	if (rec_check_privileges() < 0 || rec_resolve_traces(&r, &o) < 0) {
		rec_cred_free(&cred);
		return 1;
	}
	if (rec_flight_check(&o.flight, r.traces, r.ntraces, o.events) < 0) {
		rec_cred_free(&cred);
		return 2;
	}
	r.ncpus = libbpf_num_possible_cpus();
	r.stream = o.to_stdout;
	r.v8 = o.format == 8;
	r.cgroup_ids = o.cgroup_ids;
	r.cg.mount_fd = -1;
	if ((o.cgroup_ids || o.ncgroups) && rec_cgroups_open(&r.cg) < 0)
		goto out;
	if (r.ncpus <= 0 || rec_alloc_stages(&r) < 0) {
		fprintf(stderr, "blkscope record: out of memory\n");
		goto out;
	}
	if (rec_open_attr(&r, &o) < 0)
		goto out;
	r.bpf = rec_open_bpf(&r, &o);
	if (!r.bpf)
		goto out;
	/* snapshots need fewer write buffers: they are written a part at a time */
	r.io = o.flight.ring ? rec_io_new_pool(256, 8) : rec_io_new(256);
	if (!r.io || rec_open_outputs(&r, &o, r.io) < 0 || setup_signals() < 0)
		goto out;
	/* the TIMESTAMP note first, then the programs, then the command */
	if (rec_add_start_notes(r.stages, r.traces, r.ntraces, r.ncpus) < 0 ||
	    rec_bpf_attach(r.bpf) < 0)
		goto out;
	r.attached = !getrusage(RUSAGE_SELF, &r.ru_attached);
	rec_start_cstat(&r, &o);
	if (rec_verbose)
		rec_say_tracing(&r, &o);
	r.say = (struct rec_say){ .traces = r.traces,
				  .ntraces = r.ntraces,
				  .ncpus = r.ncpus,
				  .dir = o.dir,
				  .base = o.base,
				  .to_stdout = o.to_stdout,
				  .zstd = o.zstd_level != 0,
				  .quiet = o.quiet,
				  .flight = o.flight.ring != 0,
				  .wait_s = o.wait_s,
				  .cmd = o.cmd };
	rec_say_start(&r.say);
	if (o.cmd) {
		r.child = rec_child_start(o.cmd, o.to_stdout, &cred);
		if (r.child < 0)
			goto out;
	}
	rec_drain_loop(&r, o.wait_s);
	rec_stop(&r);
	rec_report(&r);
	status = r.write_failed ? 1 : r.child_done ? r.child_status : 0;
out:
	rec_cleanup(&r);
	rec_cred_free(&cred);
	return status;
}

