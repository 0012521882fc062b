// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - `blkscope record`: options, the drain-and-write loop, stopping,
 * and the end-of-run summary.
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

#define DEFAULT_RING_KIB	4096
#define DEFAULT_STACK_ENTRIES	8192
#define PROG			"blkscope record"	/* in messages */
#define FLUSH_BYTES		(256u << 10)	/* a file's write batch */
/*
 * Files: a stage holding this much is written during the drain pass
 * instead of after it, so draining rings that filled during a stall does
 * not grow the stages (nor the recorder's memory, which malloc keeps).
 * The newest STAGE_KEEP records stay behind, where a record committed out
 * of order (see stage.c) can still be sorted in.
 */
#define STAGE_WRITE_BYTES	(512u << 10)
#define STAGE_KEEP		64
/*
 * -o -: records wait this long behind the drain before they are merged into
 * the stream, so one stamped just before a drain but committed just after
 * it (reserve, clock read and commit are not atomic in BPF) still lands in
 * time order.  And the most a stage may hold before it is released early.
 */
#define STREAM_HOLD_NS		1000000ull
#define STREAM_STAGE_LIMIT	(64u << 20)
#define FLUSH_INTERVAL_NS	1000000000ull
#define POLL_MS			100
#define IDLE_WAIT_NS		1000000000ull	/* after the command: disks idle */

int rec_verbose;

struct opts {
	char **argv;			/* for bs_arg_getopt_error() */
	const char *devs[BR_MAX_TRACES];
	int ndevs;
	const char *dir;
	const char *base;
	bool to_stdout;
	double wait_s;
	unsigned int act_mask;
	unsigned long ring_kib;
	uint32_t pid;
	int zstd_level;
	int format;		/* 7 (default) or 8 */
	bool trace_self;
	bool lba_set;
	uint64_t start_lba, end_lba;
	char **cmd;
	const char *user;	/* --user: who the command runs as */
	bool keep_root;		/* --keep-root: ignore SUDO_UID */
	bool force;		/* --force: replace our own earlier files */
	bool quiet;		/* -q: no start line, summary or suggestion; warnings stay */
	bool cgroup_ids;	/* --cgroup-ids */
	const char *cgroups[BR_MAX_CGROUPS];	/* --cgroup PATH */
	int ncgroups;
	uint32_t events;		/* --events: REC_EV_* bits, 0 = all */
	struct rec_flight_opts flight;	/* --ring and its triggers */
	bool files, stacks;		/* --files, --stacks: attribution side files */
	uint32_t stack_entries;		/* --stack-entries */
};

/* Everything the ring callback needs. */
struct recorder {
	struct rec_trace traces[BR_MAX_TRACES];
	struct rec_cstat cstat[BR_MAX_TRACES];	/* completions nobody recorded */
	int ntraces;
	int ncpus;
	struct rec_stage *stages;	/* [trace * ncpus + cpu] */
	struct rec_sink **sinks;	/* same index; one shared sink with -o - */
	uint64_t *flushed;		/* bytes handed to the sink, per stage */
	struct rec_stream *merge;	/* -o -: the stages merged by time */
	uint64_t foreign;		/* records for no known trace (should be 0) */
	bool stream;
	bool v8;			/* --format 8: sinks write 16 bytes more per record */
	int last;			/* trace of the previous record */
	bool cgroup_ids;		/* --cgroup-ids: announce each id's path */
	struct rec_cgroups cg;
	struct rec_say say;		/* the start line, files written, next command (say.c) */
	/* run state */
	struct rec_bpf *bpf;
	struct rec_io *io;
	pid_t child;
	bool child_done;
	int child_status;
	bool write_failed;
	/* CPU time spent before tracing began: loading, verifying, attaching */
	struct rusage ru_attached;
	bool attached;
	/* --ring: the flight recorder, and the directory of its snapshots */
	struct rec_flight *flight;
	int flight_dir;
	struct rec_sink *flight_stdout;
	/* --files/--stacks: the attribution side files (attr.h), NULL without */
	struct rec_attr *attr;
};

static volatile sig_atomic_t stop_signal, forward_signal, child_exited, usr1, usr1_pid;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig == SIGCHLD) {
		child_exited = 1;
		return;
	}
	if (sig == SIGUSR1) {	/* --trigger signal: a snapshot now */
		usr1 = 1;
		usr1_pid = si && si->si_code == SI_USER ? si->si_pid : 0;
		return;
	}
	stop_signal = sig;
	/* a terminal's ^C reaches the command itself; a kill(1) does not */
	if (si && (si->si_code == SI_USER || si->si_code == SI_QUEUE))
		forward_signal = sig;
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: blkscope record -d DEV [-d DEV ...] [-D DIR] [-o BASE | -o -] [-w SECONDS]\n"
"                       [-a MASK ...] [-A HEX] [-b KIB] [-p PID] [--zstd[=LEVEL]] [--format 7|8]\n"
"                       [--lba START:END] [--events LIST] [--cgroup-ids] [--cgroup PATH ...]\n"
"                       [--files] [--stacks [--stack-entries N]]\n"
"                       [--trace-self] [--force] [-q | -v]\n"
"                       [--user USER | --keep-root] [-- COMMAND ARGS]\n"
"\n"
"Record block I/O events with eBPF into classic blktrace files\n"
"(<base>.blktrace.<cpu> for every possible CPU), readable by blkparse and btt.\n"
"\n"
"  -d, --dev DEV        block device to trace (disk or partition); repeatable\n"
"  -D, --output-dir DIR directory for the output files (created if missing)\n"
"  -o, --output BASE    base name of the files, no '/' (one device only; default:\n"
"                       the kernel's device name, e.g. loop0, nvme0n1p1);\n"
"                       '-o -' writes all records to stdout (blkparse -i -)\n"
"  -w, --stopwatch SEC  stop after SEC seconds\n"
"  -a, --act-mask NAME  record only these categories: read write flush sync queue\n"
"                       requeue issue complete fs pc notify ahead meta discard\n"
"                       drv_data fua; repeatable (an event passes if any matches)\n"
"  -A, --set-mask HEX   the same as a hex mask of BLK_TC_* bits\n"
"  -b, --buffer-size KIB  ring buffer per CPU (default %d, rounded up to a power of 2)\n"
"  -p, --pid PID        only events of this thread id\n"
"      --lba START:END  only events in this inclusive sector range (sector 0\n"
"                       always passes); default: the partition or whole disk\n"
"      --zstd[=LEVEL]   write zstd-compressed <base>.blktrace.<cpu>.zst (level 3)\n"
"      --format 7|8     record format: 7 (default; every blkparse/btt reads it) or\n"
"                       8 (Linux 6.19's 64-byte records: zone operations keep\n"
"                       their categories, zone write plugs show as ZP/ZU)\n"
"      --cgroup-ids     prefix events with their bio's cgroup id, as the kernel's\n"
"                       blk_cgroup option does (btt ignores such records), and\n"
"                       note each id's cgroup path once\n"
"      --events LIST    record only these actions (e.g. Q,D,C: three events per\n"
"                       I/O); the other tracepoints' programs are not loaded;\n"
"                       btt then lacks what the others carry (not blktrace's)\n"
"      --cgroup PATH    only I/O charged to this cgroup or below it (writeback\n"
"                       done on its behalf included); repeatable; PATH is a\n"
"                       directory of the io (blkio) hierarchy or relative to it\n"
"      --files          note the file each queued bio belongs to (page cache,\n"
"                       direct I/O; else metadata, journal, swap, raw, ...), its\n"
"                       path resolved now, in side files blkparse/btt ignore\n"
"      --stacks         note the kernel and user stack that queued each bio,\n"
"                       symbolized now (user frames need frame pointers)\n"
"      --stack-entries N  stacks each stack table holds (default %u; the\n"
"                       ones that do not fit are counted, not stored)\n"
"      --trace-self     also record the recorder's own I/O (excluded by default)\n"
"      --force          replace output files of our own from an earlier run\n"
"                       (anything else at an output name is always refused)\n"
"  -q, --quiet          no start line, per-CPU summary or next step; warnings and\n"
"                       errors only\n"
"  -v, --verbose        more messages (twice: libbpf debug log)\n"
"  -- COMMAND ARGS      run COMMAND once tracing is on, stop when it exits, and\n"
"                       exit with its status; it gets only fds 0-2\n"
"      --user USER      run COMMAND as USER (name, UID or UID:GID): its groups,\n"
"                       no capabilities (default under sudo: SUDO_UID/SUDO_GID)\n"
"      --keep-root      run COMMAND as the recorder's user even under sudo\n"
"\n"
"Flight recorder: record into memory, write only the seconds around a trigger\n"
"  (DIR/<UTC time>-<trigger>/<base>.blktrace.<cpu>, one directory per snapshot):\n"
"      --ring SIZE      keep the newest SIZE bytes of records in memory (e.g.\n"
"                       256M; suffix K, M, G) and write nothing until a trigger\n"
"      --trigger SPEC   repeatable; any one fires: [DEV:][OP.]Q2C|D2C|Q2D>TIME\n"
"                       (a completed I/O slower than TIME, e.g. 'D2C>100ms',\n"
"                       '8,16:write.Q2C>1s'; OP: read write discard flush sync),\n"
"                       [DEV:][OP.]error (a completion with an error),\n"
"                       [DEV:]drop (events lost), signal (SIGUSR1)\n"
"      --after TIME     also record TIME after the trigger (default 2s)\n"
"      --hold-off TIME  ignore triggers for TIME after a snapshot's window\n"
"      --max-snapshots N  stop after N snapshots\n"
"      --budget SIZE    snapshots of this run on disk at most (default 16 x\n"
"                       --ring); the oldest are removed to make room\n"
"      --ring-zstd[=L]  compress the history in memory (level 1 by default)\n"
"      --dump-on-exit   write the history when stopped (SIGINT, SIGTERM, -w, the\n"
"                       command's end); otherwise a stop writes nothing new\n"
"\n"
"Examples:\n"
"  blkscope record -d /dev/nvme0n1 -w 10\n"
"  blkscope record -d /dev/sda -d /dev/sdb1 -D traces -- fio job.fio\n"
"  blkscope record -d /dev/loop0 -o - | blkparse -i -\n"
"  blkscope record -d /dev/vda -a write -a sync --zstd -- sync\n"
"  blkscope record -d /dev/nvme0n1 --files --stacks -w 30\n"
"  blkscope record -d /dev/nvme0n1 -D /var/lib/blkscope --ring 256M --trigger 'D2C>100ms' \\\n"
"                  --trigger signal --hold-off 60s --budget 4G\n",
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
 * The options that take a number or a choice: returns 0 or -1 after a
 * message, or 1 when c is not one of them.
 */
static int parse_value_opt(int c, struct opts *o)
{
	char *end;
	uint64_t n;

	switch (c) {
	case 'w':
		/* beyond 1.8e10 s would not convert to ns */
		if (bs_arg_double(PROG, "-w", optarg, 0.001, 1.8e10, "a number of seconds", &o->wait_s))
			return -1;
		break;
	case 'A': {
		unsigned long m = strtoul(optarg, &end, 16);

		if (!isxdigit((unsigned char)optarg[0]) || *end || !m || m > 0xffff)
			return bs_arg_bad(PROG, "-A", optarg, "a hex mask in 1..ffff");
		o->act_mask |= m;
		break;
	}
	case 'b':
		if (bs_arg_uint(PROG, "-b", optarg, 4, 1ul << 21, &n))	/* KiB */
			return -1;
		o->ring_kib = n;
		break;
	case 'p':
		/* pids end at 2^22 (PID_MAX_LIMIT) */
		if (bs_arg_uint(PROG, "-p", optarg, 1, 1ul << 22, &n))
			return -1;
		o->pid = (uint32_t)n;
		break;
	case OPT_ZSTD:
		o->zstd_level = 3;
		if (optarg && bs_arg_uint(PROG, "--zstd", optarg, 1, 22, &n))
			return -1;
		if (optarg)
			o->zstd_level = (int)n;
#ifndef HAVE_ZSTD
		fprintf(stderr, "blkscope record: built without libzstd; --zstd is unavailable\n");
		return -1;
#endif
		break;
	case OPT_LBA:
		if (parse_lba(optarg, &o->start_lba, &o->end_lba) < 0)
			return bs_arg_bad(PROG, "--lba", optarg, "START:END in sectors, START <= END");
		o->lba_set = true;
		break;
	case OPT_EVENTS:
		if (rec_events_parse(optarg, &o->events) < 0)
			return bs_arg_bad(PROG, "--events", optarg,
					  "a list of actions from Q G P U I D C M F R X A (e.g. Q,D,C)");
		break;
	case OPT_STACK_ENTRIES:
		/* a BPF stack table: entries are preallocated, up to 1M */
		if (bs_arg_uint(PROG, "--stack-entries", optarg, 64, 1u << 20, &n))
			return -1;
		o->stack_entries = (uint32_t)n;
		break;
	case OPT_FORMAT:
		if (strcmp(optarg, "7") && strcmp(optarg, "8"))
			return bs_arg_bad(PROG, "--format", optarg, "7 or 8");
		o->format = optarg[0] - '0';
		break;
	default:
		return 1;
	}
	return 0;
}

/* One option from getopt_long: 0, or -1 after a message. */
static int parse_one_opt(int c, struct opts *o)
{
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
			fprintf(stderr, "blkscope record: bad -o '' (a base name, or - for stdout)\n");
			return -1;
		}
		if (!strcmp(optarg, "-"))
			o->to_stdout = true;
		else if (strchr(optarg, '/')) {
			fprintf(stderr, "blkscope record: bad -o '%s' (a base name without '/'; "
				"-D DIR names the directory)\n", optarg);
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
		r = parse_value_opt(c, o);
		if (r <= 0)
			return r;
		r = rec_flight_opt(&o->flight, c, optarg);
		if (r <= 0)
			return r;
		/* '?' or ':': one line, not the usage text */
		return bs_arg_getopt_error(PROG, c, o->argv);
	}
	return 0;
}

/* The checks that need every option: 0, or -1 after a message. */
static int check_opts(const struct opts *o)
{
	if (!o->ndevs) {
		fprintf(stderr, "blkscope record: no device given (-d DEV)\n");
		return -1;
	}
	if (o->base && o->ndevs > 1) {
		fprintf(stderr, "blkscope record: -o BASE names one device's files; use -D with several devices\n");
		return -1;
	}
	if ((o->user || o->keep_root) && !o->cmd) {
		fprintf(stderr, "blkscope record: --user and --keep-root apply to -- COMMAND; none given\n");
		return -1;
	}
	if (o->user && o->keep_root) {
		fprintf(stderr, "blkscope record: --user and --keep-root contradict each other\n");
		return -1;
	}
	/* a warning, not an error: the process may be about to start */
	if (o->pid && kill((pid_t)o->pid, 0) < 0 && errno == ESRCH)
		fprintf(stderr, "%s: warning: -p %u: no such process is running; only a process that "
			"gets this pid later is recorded\n", PROG, o->pid);
	if (o->flight.ring && o->to_stdout && o->flight.max_snapshots != 1) {
		fprintf(stderr, "blkscope record: --ring with -o - writes one snapshot to stdout: "
			"add --max-snapshots 1 (or write snapshot directories with -D)\n");
		return -1;
	}
	if ((o->files || o->stacks) && (o->to_stdout || o->flight.ring)) {
		fprintf(stderr, "blkscope record: --files and --stacks write side files beside the per-CPU "
			"files; they cannot be combined with %s\n", o->to_stdout ? "-o -" : "--ring");
		return -1;
	}
	if (o->stack_entries && !o->stacks) {
		fprintf(stderr, "blkscope record: --stack-entries sizes the tables of --stacks; none given\n");
		return -1;
	}
	if (o->to_stdout && o->zstd_level) {
		fprintf(stderr, "blkscope record: --zstd writes files; it cannot be combined with -o -\n");
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
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

/* ------------------------------------------------------------------ */

static int trace_of_device(struct recorder *r, uint32_t dev)
{
	int i;

	if (r->traces[r->last].dev == dev)
		return r->last;
	for (i = 0; i < r->ntraces; i++)
		if (r->traces[i].dev == dev)
			return r->last = i;
	return -1;
}

/* Files: the first n records of stage k to its file. */
static void write_stage_front(struct recorder *r, int k, size_t n)
{
	struct rec_stage *st = &r->stages[k];
	size_t bytes = rec_stage_front_bytes(st, n);

	rec_sink_write(r->sinks[k], st->buf, bytes);
	r->flushed[k] += bytes;
	rec_stage_drop_front(st, n);
}

/* Stage one record of trace i from CPU `cpu`. */
static int add_record(struct recorder *r, int i, int cpu, const struct bs_trace *t,
		      const void *pdu)
{
	int k = i * r->ncpus + cpu;
	struct rec_stage *st = &r->stages[k];

	if (!r->stream && st->n > STAGE_KEEP &&
	    st->len + bs_native_size(t) > STAGE_WRITE_BYTES)
		write_stage_front(r, k, st->n - STAGE_KEEP);
	return rec_stage_add(st, t, pdu);
}

/*
 * A remap with a cgroup id has a 24-byte PDU, more than a ring slot holds:
 * the BPF side leaves out device_to (always the trace's whole disk) and
 * passes device_from in the cpu field (bpf/blkrecord.bpf.c:record()).
 */
static const struct bs_trace *unpack_remap(struct recorder *r, int cpu, const struct bs_trace *t,
					   size_t *size, void *buf)
{
	const uint8_t *pdu = bs_native_pdu(t);
	uint8_t payload[sizeof(struct bs_trace_remap)], newpdu[BS_CGROUP_LEN + sizeof(payload)];
	struct bs_trace out = *t;
	struct bs_remap rm;
	int i;

	if (!(t->action & BS_TA_CGROUP) || (t->action & 0xff) != BS_TA_REMAP ||
	    t->pdu_len != BS_CGROUP_LEN + sizeof(payload) || *size < BS_TRACE_SIZE + 16)
		return t;
	i = trace_of_device(r, t->device);
	if (i < 0)
		return t;
	rm.device_from = t->cpu;
	rm.device_to = r->traces[i].disk;
	rm.sector_from = bs_get_be64(pdu + BS_CGROUP_LEN);	/* the slot keeps it big-endian */
	bs_encode_remap(payload, &rm);
	out.cpu = cpu;
	out.pdu_len = (uint16_t)bs_native_put_cgroup_pdu(newpdu, bs_cgroup_id(t, pdu, false),
							 payload, sizeof(payload));
	*size = bs_native_put(buf, &out, newpdu);
	return buf;
}

/* --cgroup-ids: the note naming a cgroup before its first record in trace i's CPU file. */
static int announce_cgroup(struct recorder *r, int i, int cpu, const struct bs_trace *t)
{
	uint8_t note[BS_CGROUP_NOTE_MAX];
	struct bs_trace h;
	uint64_t id;
	int n;

	if (!r->cgroup_ids || !(t->action & BS_TA_CGROUP) || t->pdu_len < BS_CGROUP_LEN)
		return 0;
	id = bs_cgroup_id(t, bs_native_pdu(t), false);
	n = rec_cgroup_note(&r->cg, id, i, (uint32_t)cpu, t, note);
	if (n <= 0)
		return n;
	bs_native_peek(note, (size_t)n, &h);
	return add_record(r, i, cpu, &h, bs_native_pdu(note));
}

/* Ring callback: one complete record from CPU `cpu`. */
static int on_record(void *ctx, int cpu, const void *data, size_t size)
{
	struct recorder *r = ctx;
	const struct bs_trace *t = data;
	_Alignas(struct bs_trace) uint8_t remap[BS_TRACE_SIZE + BS_CGROUP_LEN +
						sizeof(struct bs_trace_remap)];
	int i;

	if (size >= BS_TRACE_SIZE && r->cgroup_ids)
		t = unpack_remap(r, cpu, t, &size, remap);

	if (size < BS_TRACE_SIZE || size < BS_TRACE_SIZE + (size_t)t->pdu_len ||
	    t->magic != BS_TRACE_MAGIC_V7 || cpu >= r->ncpus) {
		r->foreign++;
		return 0;
	}
	if (t->action == BS_NOTE_PROCESS) {
		/* trace_note_tsk() announces a task to every running trace */
		for (i = 0; i < r->ntraces; i++) {
			struct bs_trace note = *t;

			note.device = r->traces[i].dev;
			if (add_record(r, i, cpu, &note, bs_native_pdu(t)) < 0)
				return -ENOMEM;
		}
		return 0;
	}
	i = trace_of_device(r, t->device);
	if (i < 0) {
		r->foreign++;
		return 0;
	}
	if (announce_cgroup(r, i, cpu, t) < 0)
		return -ENOMEM;
	return add_record(r, i, cpu, t, bs_native_pdu(t)) < 0 ? -ENOMEM : 0;
}

/* Ring callback of --files/--stacks: an attribution slot, after its Q (attr.c). */
static int on_attr(void *ctx, int cpu, const struct br_attr_slot *s)
{
	struct recorder *r = ctx;
	int i = trace_of_device(r, s->device);
	uint64_t sector = 0;

	if (i < 0 || cpu >= r->ncpus || !r->attr) {
		r->foreign++;
		return 0;
	}
	rec_stage_sector_at(&r->stages[i * r->ncpus + cpu], s->time, &sector);
	return rec_attr_slot(r->attr, i, cpu, s, sector) < 0 ? -ENOMEM : 0;
}

/* Files: each stage to its own file (blkparse merges the files by time). */
static void flush_stages(struct recorder *r, bool force)
{
	int i;

	for (i = 0; i < r->ntraces * r->ncpus; i++) {
		struct rec_stage *st = &r->stages[i];

		if (!st->len || (!force && st->len < FLUSH_BYTES))
			continue;
		write_stage_front(r, i, st->n);
	}
}

/* Files: one per (trace, CPU), all created in the -D directory (outfiles.c). */
static int open_files(struct recorder *r, const struct opts *o, struct rec_io *io)
{
	struct rec_outdir d;
	char name[NAME_MAX + 1], shown[PATH_MAX];
	int i, cpu;

	if (rec_outdir_open(&d, o->dir, o->force) < 0)
		return -1;
	for (i = 0; i < r->ntraces; i++)	/* before any file is created: a refusal leaves nothing */
		if (rec_outdir_other_form(&d, o->base ? o->base : r->traces[i].name, r->ncpus,
					  o->zstd_level != 0) < 0)
			goto fail;
	for (i = 0; i < r->ntraces; i++) {
		const char *base = o->base ? o->base : r->traces[i].name;

		for (cpu = 0; cpu < r->ncpus; cpu++) {
			int fd;

			if (bs_percpu_path(name, sizeof(name) - 4, NULL, base, cpu) < 0) {
				fprintf(stderr, "blkscope record: output file name too long\n");
				goto fail;
			}
			if (o->zstd_level)
				strcat(name, ".zst");
			fd = rec_outdir_create(&d, name);
			if (fd < 0)
				goto fail;
			snprintf(shown, sizeof(shown), "%s%s%s", o->dir ? o->dir : "", o->dir ? "/" : "",
				 name);
			r->sinks[i * r->ncpus + cpu] = rec_sink_new(io, fd, shown, false, o->zstd_level);
			if (!r->sinks[i * r->ncpus + cpu])
				goto fail;
			if (o->format == 8 && rec_sink_set_v8(r->sinks[i * r->ncpus + cpu]) < 0)
				goto fail;
		}
		if (rec_outdir_stale_side(&d, base, r->ncpus, r->attr ? o->zstd_level != 0 : -1) < 0 ||
		    (r->attr && rec_attr_create(r->attr, &d, i, base, io) < 0))
			goto fail;
	}
	rec_outdir_close(&d, false);
	return 0;
fail:
	rec_outdir_close(&d, true);
	return -1;
}

/* --ring: no files now; the stages merged by time into the flight recorder. */
static int open_flight(struct recorder *r, const struct opts *o, struct rec_io *io)
{
	struct rec_snap_cfg cfg = {
		.traces = r->traces, .ntraces = r->ntraces, .ncpus = r->ncpus, .base = o->base,
		.dir = o->dir ? o->dir : ".", .zstd_level = o->zstd_level, .v8 = o->format == 8,
		.stream = o->to_stdout, .io = io, .cg = o->cgroup_ids ? &r->cg : NULL,
	};
	struct rec_outdir d;

	if (o->to_stdout) {
		r->flight_stdout = rec_sink_new(io, STDOUT_FILENO, "<stdout>", true, 0);
		if (!r->flight_stdout || (o->format == 8 && rec_sink_set_v8(r->flight_stdout) < 0))
			return -1;
		cfg.stream_sink = r->flight_stdout;
	} else {
		if (rec_outdir_open(&d, o->dir, false) < 0)
			return -1;
		r->flight_dir = cfg.rootfd = d.fd;	/* kept open: snapshots are made in it */
	}
	r->flight = rec_flight_new(&o->flight, &cfg);
	r->merge = rec_stream_new(r->stages, r->ntraces * r->ncpus, NULL, r->flushed,
				  STREAM_STAGE_LIMIT);
	if (!r->flight || !r->merge)
		return -1;
	rec_stream_set_output(r->merge, rec_flight_ingest, r->flight);
	r->stream = true;	/* the stages are drained through the merge */
	return 0;
}

static int open_outputs(struct recorder *r, const struct opts *o, struct rec_io *io)
{
	int i;

	if (o->flight.ring)
		return open_flight(r, o, io);
	if (o->to_stdout) {
		struct rec_sink *s = rec_sink_new(io, STDOUT_FILENO, "<stdout>", true, 0);

		if (!s || (o->format == 8 && rec_sink_set_v8(s) < 0))
			return -1;
		for (i = 0; i < r->ntraces * r->ncpus; i++)
			r->sinks[i] = s;
		r->merge = rec_stream_new(r->stages, r->ntraces * r->ncpus, s, r->flushed,
					  STREAM_STAGE_LIMIT);
		return r->merge ? 0 : -1;
	}
	return open_files(r, o, io);
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

/*
 * Per-device, per-CPU summary (not with --quiet), the files written, the
 * command to run next; returns the total of dropped events.
 */
static uint64_t print_summary(struct recorder *r, struct rec_bpf *b)
{
	uint64_t *drops = calloc(r->ncpus, sizeof(*drops));
	uint64_t all_drops = 0, events[BR_MAX_TRACES];
	bool say = !r->say.quiet;
	int i, cpu;

	if (!drops)
		return 0;
	for (i = 0; i < r->ntraces; i++) {
		uint64_t ev = 0, bytes = 0, dr = 0, note_drops = 0;

		if (rec_bpf_drops(b, i, drops, &note_drops) < 0)
			memset(drops, 0, r->ncpus * sizeof(*drops));
		if (say)
			fprintf(stderr, "=== %s ===\n", r->traces[i].name);
		for (cpu = 0; cpu < r->ncpus; cpu++) {
			int k = i * r->ncpus + cpu;
			uint64_t by = r->flight ? 0 : r->stream ? r->flushed[k] : rec_sink_bytes(r->sinks[k]);

			/* flushed[] counts the v7 records staged; the stream got them as v8 */
			if (r->stream && r->v8)
				by += (BS_TRACE2_SIZE - BS_TRACE_SIZE) * (r->stages[k].events + r->stages[k].notes);

			if (say && r->flight)	/* nothing written but snapshots (below) */
				fprintf(stderr, "  CPU%3d: %20llu events, %10llu drops\n", cpu,
					(unsigned long long)r->stages[k].events,
					(unsigned long long)drops[cpu]);
			else if (say)
				fprintf(stderr, "  CPU%3d: %20llu events, %8llu KiB data, %10llu drops\n", cpu,
					(unsigned long long)r->stages[k].events,
					(unsigned long long)(by + 1023) >> 10,
					(unsigned long long)drops[cpu]);
			ev += r->stages[k].events;
			bytes += by;
			dr += drops[cpu];
		}
		if (say && r->flight)
			fprintf(stderr, "  Total:  %20llu events, %10llu drops\n", (unsigned long long)ev,
				(unsigned long long)dr);
		else if (say)
			fprintf(stderr, "  Total:  %20llu events, %8llu KiB data, %10llu drops\n",
				(unsigned long long)ev, (unsigned long long)(bytes + 1023) >> 10,
				(unsigned long long)dr);
		if (note_drops && say)
			fprintf(stderr, "  (%llu PROCESS %s dropped and retried)\n", (unsigned long long)note_drops,
				rec_plural(note_drops, "note", "notes"));
		if (r->cstat[i].checked && r->cstat[i].unrecorded)
			fprintf(stderr, "  Unrecorded: %16llu request %s the disk counted "
				"(BPF programs did not run for them)\n",
				(unsigned long long)r->cstat[i].unrecorded,
				rec_plural(r->cstat[i].unrecorded, "completion", "completions"));
		rec_say_files(&r->say, i, bytes);
		events[i] = ev;
		all_drops += dr;
	}
	free(drops);
	rec_say_next(&r->say, events);
	return all_drops;
}

static int alloc_recorder(struct recorder *r)
{
	int n = r->ntraces * r->ncpus, i;

	r->stages = calloc(n, sizeof(*r->stages));
	r->sinks = calloc(n, sizeof(*r->sinks));
	r->flushed = calloc(n, sizeof(*r->flushed));
	if (!r->stages || !r->sinks || !r->flushed)
		return -1;
	for (i = 0; i < n; i++)
		if (rec_stage_init(&r->stages[i]) < 0)
			return -1;
	return 0;
}

static uint64_t round_pow2(uint64_t v)
{
	uint64_t p = 4096;

	while (p < v)
		p <<= 1;
	return p;
}

/* Wait for the command; a second signal while waiting kills it. */
static int wait_child(pid_t child, bool terminate)
{
	int wstatus;

	if (terminate)
		kill(child, SIGTERM);
	stop_signal = 0;
	while (waitpid(child, &wstatus, 0) < 0) {
		if (errno != EINTR)
			return 1;
		if (stop_signal)
			kill(child, SIGKILL);
	}
	return rec_child_status(wstatus);
}

/* -d paths -> traces; two traces on one disk are refused, as in blktrace. */
static int resolve_traces(struct recorder *r, const struct opts *o)
{
	int i, j;

	r->ntraces = o->ndevs;
	for (i = 0; i < o->ndevs; i++) {
		if (rec_resolve_device(o->devs[i], &r->traces[i]) < 0)
			return -1;
		/* recording goes on (a loop device may be bound meanwhile), but say why it may stay empty */
		if (r->traces[i].end_lba == r->traces[i].start_lba)
			fprintf(stderr, "%s: warning: %s has size 0 (an unbound loop device?): no I/O can "
				"reach it until it has a size\n", PROG, o->devs[i]);
		for (j = 0; j < i; j++)
			if (r->traces[j].disk == r->traces[i].disk) {
				fprintf(stderr, "blkscope record: %s and %s are on the same disk; "
					"trace one of them (like blktrace, one trace per queue)\n",
					o->devs[j], o->devs[i]);
				return -1;
			}
	}
	return 0;
}

/* --files/--stacks: kallsyms (the BPF side's addresses), tables; before the BPF programs load */
static int open_attr(struct recorder *r, const struct opts *o)
{
	struct rec_attr_cfg cfg = {
		.files = o->files, .stacks = o->stacks,
		.stack_entries = o->stack_entries ? o->stack_entries : DEFAULT_STACK_ENTRIES,
		.traces = r->traces, .ntraces = r->ntraces, .ncpus = r->ncpus, .zstd_level = o->zstd_level,
	};

	if (!o->files && !o->stacks)
		return 0;
	r->attr = rec_attr_new(&cfg);
	return r->attr ? 0 : -1;
}

static struct rec_bpf *open_bpf(struct recorder *r, const struct opts *o)
{
	struct rec_bpf_config cfg = {
		.self_tgid = getpid(),
		.trace_self = o->trace_self,
		.ring_bytes = round_pow2((uint64_t)o->ring_kib << 10),
		.act_mask = o->act_mask,
		.pid = o->pid,
		.lba_set = o->lba_set,
		.start_lba = o->start_lba,
		.end_lba = o->end_lba,
		.v8 = o->format == 8,
		.cgroup_ids = o->cgroup_ids,
		.ncgroups = o->ncgroups,
		.events = o->events,
		.attr_files = o->files,
		.attr_stacks = o->stacks,
		.stack_entries = o->stack_entries ? o->stack_entries : DEFAULT_STACK_ENTRIES,
		.attr_fn = r->attr ? on_attr : NULL,
	};
	struct rec_bpf *b;
	int i, kfd, ufd;

	for (i = 0; i < o->ncgroups; i++)
		if (rec_cgroup_resolve(&r->cg, o->cgroups[i], &cfg.cgroup_id[i],
				       &cfg.cgroup_level[i]) < 0)
			return NULL;

	if (r->attr)
		rec_attr_fns(r->attr, &cfg.fns);
	b = rec_bpf_open(&cfg, r->traces, r->ntraces, r->ncpus, on_record, r);
	if (b && r->attr && (rec_bpf_stack_fds(b, &kfd, &ufd) < 0 || rec_attr_start(r->attr, kfd, ufd) < 0)) {
		rec_bpf_close(b);
		return NULL;
	}
	return b;
}

/* Who the command runs as: --user, else the sudo caller unless --keep-root. */
static int command_cred(const struct opts *o, struct rec_cred *cred)
{
	memset(cred, 0, sizeof(*cred));
	if (!o->cmd || o->keep_root)
		return 0;
	if (o->user)
		return rec_cred_from_user(o->user, cred);
	if (rec_cred_from_sudo(cred) < 0)
		return -1;
	if (cred->set)
		fprintf(stderr, "blkscope record: running %s as %s, uid %u (from SUDO_UID; "
			"--keep-root runs it as root)\n", o->cmd[0], *cred->name ? cred->name : "a user without a name",
			(unsigned int)cred->uid);
	return 0;
}

/* The disks' completion counts at the start, for the traces that can be compared. */
static void start_cstat(struct recorder *r, const struct opts *o)
{
	const unsigned int rw = BS_TC_READ | BS_TC_WRITE;	/* every event has one */
	bool filtered = (o->act_mask && (o->act_mask & rw) != rw) || o->pid || o->lba_set ||
			o->ncgroups || (o->events && !(o->events & REC_EV_C));
	int i;

	for (i = 0; i < r->ntraces; i++)
		rec_cstat_begin(&r->cstat[i], r->bpf, i, &r->traces[i], filtered);
}

static double tv_secs(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/*
 * -v: each device's sectors, first and last, as the filter sees them: --lba
 * as given (inclusive), else the partition or disk (its window ends where
 * the kernel's does, one past the last sector: not shown).
 */
static void say_tracing(const struct recorder *r, const struct opts *o)
{
	const struct rec_trace *t;
	int i;

	for (i = 0; i < r->ntraces; i++) {
		t = &r->traces[i];
		if (o->lba_set)
			fprintf(stderr, "blkscope record: tracing %s (%u,%u), sectors %llu..%llu (--lba)\n", t->path,
				BS_DEV_MAJOR(t->dev), BS_DEV_MINOR(t->dev), (unsigned long long)o->start_lba,
				(unsigned long long)o->end_lba);
		else if (t->end_lba > t->start_lba)
			fprintf(stderr, "blkscope record: tracing %s (%u,%u), sectors %llu..%llu (%llu sectors)\n",
				t->path, BS_DEV_MAJOR(t->dev), BS_DEV_MINOR(t->dev),
				(unsigned long long)t->start_lba, (unsigned long long)t->end_lba - 1,
				(unsigned long long)(t->end_lba - t->start_lba));
		else
			fprintf(stderr, "blkscope record: tracing %s (%u,%u), no sectors (size 0)\n", t->path,
				BS_DEV_MAJOR(t->dev), BS_DEV_MINOR(t->dev));
	}
}

/* Drain and write until a signal, -w, the command's end or a write error. */
static void record_loop(struct recorder *r, double wait_s)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC), last_flush = start, now;
	uint64_t deadline = wait_s ? start + (uint64_t)(wait_s * 1e9) : 0;

	while (!stop_signal) {
		/* a snapshot being written: come back soon for its next part */
		if (rec_bpf_poll(r->bpf, r->flight && rec_flight_busy(r->flight) ? 5 : POLL_MS) < 0) {
			fprintf(stderr, "blkscope record: reading the ring buffers failed\n");
			return;
		}
		now = now_ns(CLOCK_MONOTONIC);
		if (r->stream) {
			/* every ring drained after `now`: all complete up to it */
			rec_bpf_drain(r->bpf);
			rec_stream_release(r->merge, now - STREAM_HOLD_NS);
		} else {
			flush_stages(r, now - last_flush >= FLUSH_INTERVAL_NS);
			if (r->attr)
				rec_attr_flush(r->attr, now - last_flush >= FLUSH_INTERVAL_NS ?
					       REC_ATTR_TICK : REC_ATTR_FULL);
		}
		if (now - last_flush >= FLUSH_INTERVAL_NS)
			last_flush = now;
		if (r->flight) {	/* the flight recorder handles its own write errors */
			if (usr1) {
				usr1 = 0;
				rec_flight_signal(r->flight, (uint32_t)usr1_pid, now);
			}
			if (rec_flight_step(r->flight, now - STREAM_HOLD_NS, now) > 0)
				return;		/* --max-snapshots written */
		} else if (rec_io_reap(r->io, false) < 0) {
			r->write_failed = true;
			return;
		}
		if (r->child > 0 && child_exited) {
			int wstatus;

			child_exited = 0;
			if (waitpid(r->child, &wstatus, WNOHANG) == r->child) {
				r->child_status = rec_child_status(wstatus);
				r->child_done = true;
				return;
			}
		}
		if (deadline && now >= deadline)
			return;
	}
}

/* Requests in flight on the traced disks (/sys/dev/block/M:m/inflight). */
static unsigned long disks_in_flight(const struct recorder *r)
{
	unsigned long total = 0, rd, wr;
	char path[64];
	int i;

	for (i = 0; i < r->ntraces; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/inflight",
			 BS_DEV_MAJOR(r->traces[i].disk), BS_DEV_MINOR(r->traces[i].disk));
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fscanf(f, "%lu %lu", &rd, &wr) == 2)
			total += rd + wr;
		fclose(f);
	}
	return total;
}

/*
 * The command has exited, but its I/O may not have: io_uring tears a ring
 * down asynchronously, so requests it submitted can still be completing.
 * Keep recording until the traced disks are idle (at most a second).
 */
static void wait_disks_idle(struct recorder *r)
{
	uint64_t until = now_ns(CLOCK_MONOTONIC) + IDLE_WAIT_NS;

	while (disks_in_flight(r) && now_ns(CLOCK_MONOTONIC) < until && !stop_signal)
		rec_bpf_poll(r->bpf, 5);
}

/* No new events, then everything still in the rings, out to the files. */
static void stop_recording(struct recorder *r)
{
	int i;

	if (r->child_done && !r->write_failed)
		wait_disks_idle(r);
	for (i = 0; i < r->ntraces; i++)
		rec_cstat_end(&r->cstat[i], r->bpf, i, &r->traces[i]);
	rec_bpf_detach(r->bpf);
	rec_bpf_drain(r->bpf);
	/* every record is in: each (trace, CPU) file ends with its count */
	if (!r->flight && rec_add_end_notes(r->stages, r->traces, r->ntraces, r->ncpus, r->bpf,
					    now_ns(CLOCK_MONOTONIC)) < 0)
		fprintf(stderr, "blkscope record: out of memory for the end notes\n");
	if (r->flight) {
		rec_stream_flush(r->merge);
		rec_flight_stop(r->flight, now_ns(CLOCK_MONOTONIC));
	} else if (r->stream)
		rec_stream_flush(r->merge);
	else
		flush_stages(r, true);
	if (r->attr && rec_attr_close(r->attr, r->bpf) < 0)	/* everything staged, the counters */
		r->write_failed = true;
	if (rec_io_reap(r->io, true) < 0)
		r->write_failed = true;
	for (i = 0; i < r->ntraces * r->ncpus; i++) {
		if (!r->sinks[i] || (r->stream && i))
			continue;
		if (rec_sink_close(r->sinks[i]) < 0)
			r->write_failed = true;
	}
	if (r->flight_stdout && rec_sink_close(r->flight_stdout) < 0)
		r->write_failed = true;
	if (r->child > 0 && !r->child_done) {
		if (forward_signal)
			kill(r->child, forward_signal);
		/* -w or a write error: end the command; a signal already reached it */
		r->child_status = wait_child(r->child, !stop_signal);
		r->child_done = true;
	}
}

static void report(struct recorder *r)
{
	uint64_t dropped, misses, runs, run_ns, unrecorded = 0;
	struct rusage ru;
	int i;

	dropped = print_summary(r, r->bpf);
	if (r->attr)
		rec_attr_report(r->attr, stderr);
	if (r->flight)
		rec_flight_report(r->flight);
	if (dropped)
		fprintf(stderr, "You have %llu dropped %s; consider a larger ring buffer (-b)\n",
			(unsigned long long)dropped, rec_plural(dropped, "event", "events"));
	if (rec_io_waits(r->io))
		fprintf(stderr, "blkscope record: the output disk did not keep up: the recorder "
			"waited %llu %s for its write queue to drain\n",
			(unsigned long long)rec_io_waits(r->io), rec_plural(rec_io_waits(r->io), "time", "times"));
	for (i = 0; i < r->ntraces; i++)
		unrecorded += r->cstat[i].checked ? r->cstat[i].unrecorded : 0;
	if (unrecorded)
		fprintf(stderr, "blkscope record: the %s completed %llu %s whose completion "
			"(C) was not recorded: the kernel did not run the BPF program (see "
			"docs/record.md, \"Unrecorded completions\")\n", rec_plural(r->ntraces, "disk", "disks"),
			(unsigned long long)unrecorded, rec_plural(unrecorded, "request", "requests"));
	rec_bpf_prog_stats(r->bpf, &misses, &runs, &run_ns);
	if (misses)
		fprintf(stderr, "blkscope record: %llu %s not seen: a program was already "
			"running on that CPU (BPF recursion protection)\n", (unsigned long long)misses,
			rec_plural(misses, "event was", "events were"));
	if (runs) {	/* only with sysctl kernel.bpf_stats_enabled=1 */
		fprintf(stderr, "BPF programs: %llu runs, %.0f ns per run\n", (unsigned long long)runs,
			(double)run_ns / runs);
		if (rec_verbose)
			rec_bpf_print_prog_stats(r->bpf, stderr);
	}
	getrusage(RUSAGE_SELF, &ru);
	if (!r->say.quiet)
		fprintf(stderr, "CPU time of the recorder: %ld.%03ld s user, %ld.%03ld s system\n",
		(long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec / 1000,
		(long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec / 1000);
	if (r->attached && !r->say.quiet)	/* the start-up (mostly the kernel's BPF verifier) apart */
		fprintf(stderr, "CPU time while tracing: %.3f s user, %.3f s system\n",
			tv_secs(&ru.ru_utime) - tv_secs(&r->ru_attached.ru_utime),
			tv_secs(&ru.ru_stime) - tv_secs(&r->ru_attached.ru_stime));
	if (r->foreign)
		fprintf(stderr, "blkscope record: %llu malformed %s ignored\n",
			(unsigned long long)r->foreign, rec_plural(r->foreign, "record", "records"));
	if (r->merge && rec_stream_early(r->merge))
		fprintf(stderr, "blkscope record: %llu %s to stdout before every CPU was "
			"drained up to their time (a CPU's queue passed %u MiB); blkparse -i - may "
			"count skips that are not in the stream\n",
			(unsigned long long)rec_stream_early(r->merge),
			rec_plural(rec_stream_early(r->merge), "record went", "records went"), STREAM_STAGE_LIMIT >> 20);
	if (r->write_failed)
		fprintf(stderr, "blkscope record: stopped after a write error; every file ends at its last whole record\n");
}

static void cleanup(struct recorder *r)
{
	int i, n = r->ntraces * r->ncpus;

	if (r->child > 0 && !r->child_done) {
		kill(r->child, SIGTERM);
		waitpid(r->child, NULL, 0);
	}
	rec_bpf_close(r->bpf);
	rec_flight_free(r->flight);
	rec_sink_free(r->flight_stdout);
	if (r->flight_dir >= 0)
		close(r->flight_dir);
	rec_stream_free(r->merge);
	for (i = 0; r->sinks && i < n; i++)
		if (r->sinks[i] && !(r->stream && i))
			rec_sink_free(r->sinks[i]);
	rec_io_free(r->io);
	for (i = 0; r->stages && i < n; i++)
		rec_stage_free(&r->stages[i]);
	free(r->stages);
	free(r->sinks);
	free(r->flushed);
	rec_cgroups_close(&r->cg);
	rec_attr_free(r->attr);
}

int main(int argc, char **argv)
{
	struct recorder r = { .child = -1, .flight_dir = -1 };
	struct rec_cred cred;
	struct opts o;
	int status = 1;

	if (parse_args(argc, argv, &o) < 0)
		return 2;
	if (command_cred(&o, &cred) < 0) {
		rec_cred_free(&cred);
		return 2;
	}
	if (rec_check_privileges() < 0 || resolve_traces(&r, &o) < 0) {
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
	if (r.ncpus <= 0 || alloc_recorder(&r) < 0) {
		fprintf(stderr, "blkscope record: out of memory\n");
		goto out;
	}
	if (open_attr(&r, &o) < 0)
		goto out;
	r.bpf = open_bpf(&r, &o);
	if (!r.bpf)
		goto out;
	/* snapshots need fewer write buffers: they are written a part at a time */
	r.io = o.flight.ring ? rec_io_new_pool(256, 8) : rec_io_new(256);
	if (!r.io || open_outputs(&r, &o, r.io) < 0 || setup_signals() < 0)
		goto out;
	/* the TIMESTAMP note first, then the programs, then the command */
	if (rec_add_start_notes(r.stages, r.traces, r.ntraces, r.ncpus) < 0 || rec_bpf_attach(r.bpf) < 0)
		goto out;
	r.attached = !getrusage(RUSAGE_SELF, &r.ru_attached);
	start_cstat(&r, &o);
	if (rec_verbose)
		say_tracing(&r, &o);
	r.say = (struct rec_say){ .traces = r.traces, .ntraces = r.ntraces, .ncpus = r.ncpus, .dir = o.dir,
				  .base = o.base, .to_stdout = o.to_stdout, .zstd = o.zstd_level != 0,
				  .quiet = o.quiet, .flight = o.flight.ring != 0, .wait_s = o.wait_s,
				  .cmd = o.cmd };
	rec_say_start(&r.say);
	if (o.cmd) {
		r.child = rec_child_start(o.cmd, o.to_stdout, &cred);
		if (r.child < 0)
			goto out;
	}
	record_loop(&r, o.wait_s);
	stop_recording(&r);
	report(&r);
	status = r.write_failed ? 1 : r.child_done ? r.child_status : 0;
out:
	cleanup(&r);
	rec_cred_free(&cred);
	return status;
}
