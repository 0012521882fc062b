/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recorder.h - one recording's options and run state, shared by the
 * files of `blkscope record` (private to record/):
 *
 *   cli/record_main.c  the front-end: options, signals, main()
 *   rec_setup.c     devices, stages, attribution, BPF programs, the command's user
 *   rec_outputs.c   per-CPU files, stdout, or the flight recorder
 *   rec_route.c     each ring record into the stage of its (trace, CPU)
 *   rec_drain.c     the drain-and-write loop
 *   rec_stop.c      stopping and writing everything out
 *   rec_summary.c   the end-of-run summary
 */
#ifndef BLKSCOPE_RECORD_RECORDER_H
#define BLKSCOPE_RECORD_RECORDER_H

#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/types.h>
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
 * of order (see rec_stage.c) can still be sorted in.
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

/* What the signal handlers saw (set by cli/record_main.c's handler, read by the loop). */
struct rec_signals {
	volatile sig_atomic_t stop;		/* SIGINT/SIGTERM: its number */
	volatile sig_atomic_t forward;		/* a signal sent by kill(1): pass it on */
	volatile sig_atomic_t child_exited;	/* SIGCHLD */
	volatile sig_atomic_t usr1;		/* SIGUSR1: a snapshot now */
	volatile sig_atomic_t usr1_pid;		/* its sender */
};

struct rec_opts {
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
struct rec_recorder {
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
	/* the start line, files written, next command (rec_say.c) */
	struct rec_say say;
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
	/* what the signal handlers saw (cli/record_main.c owns it) */
	struct rec_signals *sig;
};

static inline uint64_t rec_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* rec_setup.c */
int rec_alloc_stages(struct rec_recorder *r);
int rec_resolve_traces(struct rec_recorder *r, const struct rec_opts *o);
int rec_open_attr(struct rec_recorder *r, const struct rec_opts *o);
struct rec_bpf *rec_open_bpf(struct rec_recorder *r, const struct rec_opts *o);
int rec_command_cred(const struct rec_opts *o, struct rec_cred *cred);
void rec_start_cstat(struct rec_recorder *r, const struct rec_opts *o);
void rec_say_tracing(const struct rec_recorder *r, const struct rec_opts *o);
void rec_cleanup(struct rec_recorder *r);
/* rec_outputs.c */
int rec_open_outputs(struct rec_recorder *r, const struct rec_opts *o, struct rec_io *io);
/* rec_route.c: the rings' callbacks, and the stages to their files */
int rec_route_record(void *ctx, int cpu, const void *data, size_t size);
int rec_route_attr(void *ctx, int cpu, const struct br_attr_slot *s);
void rec_flush_stages(struct rec_recorder *r, bool force);
/* rec_drain.c */
void rec_drain_loop(struct rec_recorder *r, double wait_s);
/* rec_stop.c */
void rec_stop(struct rec_recorder *r);
/* rec_summary.c */
void rec_report(struct rec_recorder *r);

#endif /* BLKSCOPE_RECORD_RECORDER_H */
