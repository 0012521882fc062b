/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - `blkscope replay`: re-issue the queued bios (Q) of a trace
 * onto block devices with their timing, on io_uring.  docs/replay.md
 * describes the rules (what is replayed, who is a submitter, when an I/O
 * waits for earlier ones, lateness); this header holds the types the
 * stages share:
 *
 *	replay_load()    the trace (through format/) -> struct replay_trace: every Q,
 *	             in trace order, with its completion time from the per-I/O
 *	             model's samples (replay_load.c)
 *	replay_plan()    window, devices, operations, submitters, the dependency
 *	             of each I/O on its submitter's earlier ones, the schedule,
 *	             the threads (replay_plan.c)
 *	replay_targets_open()  the devices written to: checks and O_DIRECT opens
 *	             (replay_target.c)
 *	replay_run()     the io_uring engine, one ring per thread (replay_engine.c)
 *	replay_report_*  summary text, JSON, per-I/O log, --dry-run (replay_report.c)
 *
 * Nothing here exits or prints usage: errors are one line on stderr and a
 * -1 return; main() (replay_main.c) maps them to exit codes.
 */
#ifndef BLKSCOPE_REPLAY_H
#define BLKSCOPE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "bs_hash.h"

/* What an I/O does on the target. */
enum replay_op {
	REPLAY_READ,
	REPLAY_WRITE,
	REPLAY_FLUSH,	/* an empty PREFLUSH bio (fsync of the device) */
	REPLAY_DISCARD,
	REPLAY_WZEROES,	/* write zeroes (version-8 traces name it) */
	REPLAY_NOPS
};

/* Flags of the Q, as far as they matter or are reported. */
#define REPLAY_F_FUA	0x01u	/* issued with RWF_DSYNC (a FUA bio) */
#define REPLAY_F_PREFLUSH	0x02u	/* a flush is issued, linked, before the write */
#define REPLAY_F_SYNC	0x04u	/* shown only: every O_DIRECT write is REQ_SYNC */
#define REPLAY_F_META	0x08u	/* shown only: userspace cannot set it */
#define REPLAY_F_AHEAD	0x10u	/* shown only: userspace cannot set it */

/* replay_io.wait when the I/O waits for nothing */
#define REPLAY_NO_WAIT	UINT32_MAX
/* replay_io.sub at load time: pid 0 is one submitter per CPU (bit 31 + cpu) */
#define REPLAY_PID0_CPU	0x80000000u

/* One queued bio to replay (40 bytes: with replay_result, the only per-I/O state kept). */
struct replay_io {
	uint64_t t;		/* load: Q time, ns since genesis; plan: scheduled ns after
				 * the start */
	uint64_t sector;	/* on the trace device (partition traces: partition-relative) */
	uint32_t bytes;
	uint32_t dev;		/* trace dev_t */
	uint32_t sub;		/* load: pid (REPLAY_PID0_CPU | cpu for pid 0); plan:
				 * submitter index */
	/*
	 * Issued only once at most this many of its submitter's earlier I/Os
	 * are still in flight (its queue depth in the trace - 1: 0 for a
	 * synchronous submitter); REPLAY_NO_WAIT: no condition.
	 */
	uint32_t wait;
	uint32_t remap_from;	/* load: dev_t the bio was remapped from (A before the Q),
				 * 0 = none */
	uint16_t target;	/* plan: index in the target table */
	uint8_t op;		/* enum replay_op */
	uint8_t flags;		/* REPLAY_F_* */
};

/* I/Os of the trace that are not replayed, and why. */
struct replay_skips {
	uint64_t passthrough;	/* PC requests: no bio to re-issue */
	uint64_t zone;		/* zone management and appends (version 8) */
	uint64_t empty;		/* zero bytes and not a flush */
	uint64_t stacked;	/* remapped from another traced device: replayed there */
	uint64_t unmapped;	/* on a device no --map names */
	uint64_t window;	/* outside --window */
	uint64_t writes;	/* --reads-only */
};

/* The trace as loaded: every Q in trace order. */
struct replay_trace {
	struct replay_io *ios;
	size_t n, cap;
	uint64_t *t_c;		/* per I/O: trace completion time (UINT64_MAX: never),
				 * until the plan */
	struct bs_hash comm_idx;	/* pid -> index in comms */
	char (*comms)[17];
	size_t ncomms, comms_cap;
	struct replay_dev {
		uint32_t dev;
		uint64_t nios;
	} *devs;		/* devices with replayable Qs, in order of first Q */
	size_t ndevs, devs_cap;
	struct bs_hash dev_idx;	/* dev_t -> index in devs */
	struct replay_skips skips;
	uint64_t events;	/* records read */
	uint64_t end_time;	/* last event, ns since genesis */
	bool damaged;		/* a stream stopped at damage (the message is printed) */
};

/* One --map (or -d): a trace device and the device it is replayed on. */
struct replay_map {
	uint32_t dev;		/* trace dev_t; with -d: 0 until the trace names its one device */
	const char *path;
};

struct replay_opts {
	const char *const *inputs;	/* the trace names (argv) */
	int ninputs;
	struct replay_map *maps;
	int nmaps;
	bool single_dev;	/* -d: maps[0] is for the trace's only device */
	double speed;		/* 1.0 = the trace's pace */
	bool max;		/* as fast as the target allows */
	bool window;
	double win_start, win_end;	/* seconds since the trace's start; win_end < 0: none */
	bool no_deps;
	bool dry_run;
	bool allow_writes;
	bool reads_only;
	bool wrap;
	bool realtime;		/* SCHED_FIFO submitting threads */
	unsigned int threads;	/* 0 = one */
	unsigned int depth;	/* I/O slots per thread */
	const char *json;	/* summary as JSON ("-" = stdout) */
	const char *log;	/* per-I/O CSV log */
	int verbose;
};

/* A submitter: the I/O of one thread (or of one CPU's pid 0). */
struct replay_sub {
	uint32_t key;		/* pid, or REPLAY_PID0_CPU | cpu */
	uint32_t nios;
	uint32_t local;		/* index among its thread's submitters */
	uint32_t depth;		/* most of its I/Os in flight at once in the trace (0: async) */
	uint16_t worker;
	bool async;		/* kernel worker or pid 0: its I/O waits for nothing */
};

/* The plan: what is replayed, by whom, when. */
struct replay_plan {
	struct replay_io *ios;	/* the trace's array, filtered in place, in trace order */
	size_t n;
	struct replay_sub *subs;
	size_t nsubs;
	unsigned int nworkers;
	uint32_t **worker_ios;	/* per worker: indexes into ios, in trace order */
	size_t *worker_n;
	uint32_t *worker_subs;	/* per worker: how many submitters */
	/*
	 * Per worker: the process name all its submitters share (its thread
	 * takes it, so that a recording of the replay names the I/O as the
	 * original did), or "" when they differ or are unnamed.
	 */
	char (*worker_name)[17];
	uint64_t first_t;	/* trace time of the first replayed Q (ns since genesis) */
	uint64_t span;		/* scheduled time of the last one (ns after the start) */
	uint64_t trace_span;	/* the same unscaled */
	uint64_t ops[REPLAY_NOPS], op_bytes[REPLAY_NOPS];
	uint64_t with_wait;	/* I/Os with a wait condition (not REPLAY_NO_WAIT) */
	uint64_t sync_ios;	/* of these, the ones waiting for every earlier I/O */
	uint64_t not_reproduced[3];	/* SYNC on reads/non-sync writes, META, AHEAD flags */
	uint64_t preflush_writes;	/* issued as a flush + the write */
	uint32_t max_read, max_write;	/* largest read/write (bytes) */
};

/* A device replayed onto. */
struct replay_target {
	const char *path;
	uint32_t trace_dev;	/* first trace device mapped to it */
	uint32_t rdev;		/* its dev_t (kernel encoding) */
	int fd;
	bool writable;
	uint64_t size;		/* bytes */
	uint32_t lbs;		/* logical block size */
	uint32_t queue_depth;	/* its request queue's nr_requests (0: unknown) */
	uint64_t split_bytes;	/* a read or write larger than this is split (0: unknown) */
	uint64_t chunk_bytes;	/* one crossing a multiple of this too (0: none) */
	uint64_t wrapped;	/* I/Os folded by --wrap */
};

struct replay_targets {
	struct replay_target *v;
	size_t n;
	struct bs_hash by_dev;	/* trace dev_t -> index in v */
};

/* Per-I/O results of a run (parallel to plan.ios). */
struct replay_result {
	uint64_t issued;	/* ns after the start, 0 = not issued */
	uint64_t ready;		/* when its wait for earlier I/Os ended (= its schedule if none) */
	uint64_t done;		/* completion, ns after the start */
	int32_t res;		/* 0 or -errno; a short transfer is -EIO */
	uint32_t held;		/* 1: waited for a dependency; 2: waited for a free slot */
};

/* What a run did. */
struct replay_run_stats {
	uint64_t issued, completed, errors, short_io;
	uint64_t held_dep, held_slot;
	uint64_t duration;	/* ns: start to last completion */
	uint64_t first_issue, last_issue;
	uint64_t cpu_ns;	/* CPU time of the submitting threads (user + system) */
	bool interrupted;
	int first_err;		/* errno of the first failed I/O */
	size_t first_err_io;	/* its index */
};

/* replay_opts.c: 0 run, 1 --help, 2 --version, -1 bad command line (line printed). */
int replay_parse_args(struct replay_opts *o, int argc, char **argv);
void replay_usage(FILE *f);
void replay_opts_free(struct replay_opts *o);

/* replay_load.c: 0, or -1 (message printed); a damaged trace sets t->damaged. */
int replay_load(struct replay_trace *t, const struct replay_opts *o);
void replay_trace_free(struct replay_trace *t);
/* The process name of a pid from the trace's notes, or NULL. */
const char *replay_comm(const struct replay_trace *t, uint32_t pid);

/* replay_plan.c: 0, or -1 (message printed: e.g. -d on a multi-device trace). */
int replay_plan(struct replay_plan *p, struct replay_trace *t, struct replay_opts *o);
void replay_plan_free(struct replay_plan *p);
const char *replay_op_name(unsigned int op);

/* replay_target.c: open and check every mapped device; 0 or -1 (one line). */
int replay_targets_open(struct replay_targets *tg, struct replay_plan *p,
			const struct replay_opts *o);
void replay_targets_close(struct replay_targets *tg);
/* Offset in bytes on the target of I/O io (after --wrap). */
uint64_t replay_target_offset(const struct replay_targets *tg, const struct replay_io *io);
/* Will the block layer split I/O io at offset (so it must not be issued non-blocking)? */
bool replay_target_splits(const struct replay_targets *tg, const struct replay_io *io,
			  uint64_t offset);

/*
 * replay_engine.c: replay the plan on one thread per worker; res[] gets
 * one entry per I/O.  SIGINT and SIGTERM are blocked in the calling thread
 * for the run and taken by it: the first ends the run early (no new I/O,
 * the issued ones are waited for; st->interrupted).  0, or -1 when the
 * engine could not start (message printed); I/O errors are counted in st.
 */
int replay_run(const struct replay_plan *p, const struct replay_targets *tg,
	       const struct replay_opts *o, struct replay_result *res, struct replay_run_stats *st);

/* replay_report.c */
void replay_report_dry_run(FILE *f, const struct replay_plan *p, const struct replay_trace *t,
			   const struct replay_targets *tg);
void replay_report_text(FILE *f, const struct replay_plan *p, const struct replay_trace *t,
			const struct replay_targets *tg, const struct replay_opts *o,
			const struct replay_result *res, const struct replay_run_stats *st);
/* st == NULL (and res): the plan of a dry run */
int replay_report_json(const char *path, const struct replay_plan *p, const struct replay_trace *t,
		       const struct replay_targets *tg, const struct replay_opts *o,
		       const struct replay_result *res, const struct replay_run_stats *st);
int replay_report_log(const char *path, const struct replay_plan *p, const struct replay_trace *t,
		      const struct replay_targets *tg, const struct replay_result *res);

#endif /* BLKSCOPE_REPLAY_H */
