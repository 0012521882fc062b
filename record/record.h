/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - the pieces of `blkscope record` and how they fit:
 *
 *   rec_devices.c   -d paths -> traced dev_t, whole disk, LBA window, base name
 *   rec_bpf_load.c  probe kernel/BTF, load bpf/blkrecord.bpf.c, per-CPU rings
 *   rec_stage.c     per (trace, CPU) record staging, kept in time order
 *   rec_stream.c    -o -: the stages merged by time into one stream
 *   rec_sink.c      output files or stdout, written with io_uring (+ zstd)
 *   rec_v8.c        --format 8: staged v7 records rewritten as version 8
 *   rec_child.c     `-- COMMAND`: only fds 0-2, as --user / SUDO_UID
 *   rec_user.c      who the command runs as (uid, gid, groups; no capabilities)
 *   rec_outfiles.c  the output directory and files (O_EXCL, never followed)
 *   rec_cstat.c     completions the disk counted vs. C events recorded
 *   rec_cgroup.c    --cgroup-ids / --cgroup: cgroup paths <-> ids, notes
 *   rec_notes.c     TIMESTAMP and host notes first, the end note of every per-CPU file
 *   rec_flight.c    --ring: the flight recorder (history, triggers, snapshots, budget)
 *   rec_history.c   its bounded history of records (optionally zstd blocks)
 *   rec_trigger.c   --trigger: parsing and evaluation on the merged records
 *   rec_inflight.c  Q/D/C pairing for latency triggers (fixed-size table)
 *   rec_pidcomm.c   pid -> comm of every announced task (bounded)
 *   rec_snapshot.c  one snapshot: the window written as a complete file set
 *   attr*.c     --files/--stacks: attribution side files (attr.h lists its files)
 *   rec_say.c       the start line, the files written, the command to run next
 *   cli/record_main.c  the front-end: options, signals, main(); recorder.h lists
 *               rec_setup.c, rec_outputs.c, rec_route.c, rec_drain.c, rec_stop.c, rec_summary.c
 */
#ifndef BLKSCOPE_RECORD_H
#define BLKSCOPE_RECORD_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <sys/types.h>
#include "bs_defs.h"
#include "bs_hash.h"
#include "bs_native.h"
#include "bs_notes.h"
#include "blkrecord.h"
#include "rec_attr.h"

extern int rec_verbose;

/* One -d device. */
struct rec_trace {
	char path[PATH_MAX];	/* as given */
	char name[64];		/* kernel name: loop0, nvme0n1p1 */
	uint32_t dev;		/* traced dev_t, kernel encoding */
	uint32_t disk;		/* its whole disk, kernel encoding */
	uint64_t start_lba;	/* default window: the partition (or disk) */
	uint64_t end_lba;
};

/* rec_say.c: what the recorder tells its user (besides errors and warnings) */
struct rec_say {
	const struct rec_trace *traces;
	int ntraces, ncpus;
	const char *dir;	/* -D, or NULL */
	const char *base;	/* -o BASE, or NULL: the device names */
	bool to_stdout;		/* -o - */
	bool zstd;
	bool quiet;		/* --quiet: none of it */
	bool flight;		/* --ring: snapshots, each announced by rec_flight.c */
	double wait_s;		/* -w, 0 = none */
	char **cmd;		/* -- COMMAND, or NULL */
};
/* "blkscope record: recording /dev/loop0 (7,0) into loop0.blktrace.{0..1} until Ctrl-C ..." */
void rec_say_start(const struct rec_say *s);
/* trace i's line of the summary: its files, their size */
void rec_say_files(const struct rec_say *s, int i, uint64_t bytes);
/* after the summary: "Next: blkscope analyze loop0", or that a device was idle; events[ntraces] */
void rec_say_next(const struct rec_say *s, const uint64_t *events);
/* one or many, by n */
const char *rec_plural(uint64_t n, const char *one, const char *many);

/* rec_devices.c */
int rec_resolve_device(const char *path, struct rec_trace *t);

/* rec_bpf_load.c */
struct br_attr_slot;
typedef int (*rec_attr_fn)(void *ctx, int cpu, const struct br_attr_slot *slot);

struct rec_bpf_config {
	uint32_t self_tgid;
	bool trace_self;
	uint64_t ring_bytes;	/* per CPU, power of two */
	uint16_t act_mask;
	uint32_t pid;
	bool lba_set;
	uint64_t start_lba, end_lba;
	bool v8;		/* --format 8: zone categories, zone-plug events */
	bool cgroup_ids;	/* --cgroup-ids: the blk_cgroup prefix on events */
	int ncgroups;		/* --cgroup filters: ids and their depths */
	uint64_t cgroup_id[BR_MAX_CGROUPS];
	uint32_t cgroup_level[BR_MAX_CGROUPS];
	uint32_t events;	/* --events: REC_EV_* bits, 0 = all */
	/* --files, --stacks (record/rec_attr.h): the BPF side's switches and what they need */
	bool attr_files, attr_stacks;
	uint32_t stack_entries;		/* each stack table's entries */
	struct rec_attr_fns fns;	/* kernel completion functions (0: absent) */
	rec_attr_fn attr_fn;		/* attribution slots go here, not to fn */
};

/*
 * --events LIST: record only these actions (blkparse letters).  The BPF
 * programs of the other tracepoints are not even loaded, so they cost
 * nothing; unlike -a (the kernel's categories) this can keep Q, D and C
 * alone.  Not a blktrace option: btt then lacks what the left-out events
 * carry (G, I: Q2G, G2I, I2D; M, F: merges; P, U: plugs).
 */
enum {
	REC_EV_Q = 1 << 0, REC_EV_G = 1 << 1, REC_EV_P = 1 << 2, REC_EV_U = 1 << 3,
	REC_EV_I = 1 << 4, REC_EV_D = 1 << 5, REC_EV_C = 1 << 6, REC_EV_M = 1 << 7,
	REC_EV_F = 1 << 8, REC_EV_R = 1 << 9, REC_EV_X = 1 << 10, REC_EV_A = 1 << 11,
};
/* "Q,D,C" -> bits: 0, or -1 (unknown letter) */
int rec_events_parse(const char *list, uint32_t *out);

struct rec_bpf;
typedef int (*rec_record_fn)(void *ctx, int cpu, const void *data, size_t size);

int rec_check_privileges(void);
struct rec_bpf *rec_bpf_open(const struct rec_bpf_config *cfg, const struct rec_trace *traces,
			     int ntraces, int ncpus, rec_record_fn fn, void *ctx);
int rec_bpf_attach(struct rec_bpf *b);
void rec_bpf_detach(struct rec_bpf *b);
int rec_bpf_poll(struct rec_bpf *b, int timeout_ms);
int rec_bpf_drain(struct rec_bpf *b);
/* per-CPU drop counts of trace `index` into drops[ncpus]; note drops summed */
int rec_bpf_drops(struct rec_bpf *b, int index, uint64_t *drops, uint64_t *note_drops);
void rec_bpf_prog_stats(struct rec_bpf *b, uint64_t *misses, uint64_t *runs, uint64_t *run_ns);
void rec_bpf_print_prog_stats(struct rec_bpf *b, FILE *f);
/* request completions (C) that reached trace `index`'s rings (kept or dropped), all CPUs */
int rec_bpf_completions(struct rec_bpf *b, int index, uint64_t *completions);
void rec_bpf_close(struct rec_bpf *b);
/* --stacks: the stack tables' map descriptors (kernel, user) */
int rec_bpf_stack_fds(struct rec_bpf *b, int *kfd, int *ufd);
/* --files/--stacks of trace `index`, all CPUs: attribution slots lost, stacks not stored */
int rec_bpf_attr_counts(struct rec_bpf *b, int index, uint64_t *lost, uint64_t *klost,
			uint64_t *ulost);

/* rec_cstat.c: completions the disk counted that no C event was recorded for. */
struct rec_cstat {
	bool checked;		/* comparable, and both snapshots were consistent */
	uint64_t disk0, recorded0;
	uint64_t unrecorded;	/* valid if checked (a lower bound) */
};

/* After attaching; `filtered`: the trace's filters can drop a C event. */
void rec_cstat_begin(struct rec_cstat *c, struct rec_bpf *b, int index,
		     const struct rec_trace *t, bool filtered);
/* Before detaching, with the disk idle if possible. */
void rec_cstat_end(struct rec_cstat *c, struct rec_bpf *b, int index, const struct rec_trace *t);

/* rec_sink.c: where bytes go (a per-CPU file or stdout), written with io_uring. */
struct rec_sink;
struct rec_io;

struct rec_io *rec_io_new(unsigned int entries);
/* With `chunks` 1 MiB write buffers (2..16) instead of 16. */
struct rec_io *rec_io_new_pool(unsigned int entries, unsigned int chunks);
/* Write buffers not queued: a writer that must not wait checks first. */
unsigned int rec_io_free_chunks(const struct rec_io *io);
/* Forget a failed write (the flight recorder goes on after a full disk). */
void rec_io_clear_error(struct rec_io *io);
void rec_io_free(struct rec_io *io);
/* Reap finished writes; wait for all of them if `all`.  -1 on a write error. */
int rec_io_reap(struct rec_io *io, bool all);
/* Times the recorder had to wait for the disk (every write buffer queued). */
uint64_t rec_io_waits(const struct rec_io *io);

struct rec_sink *rec_sink_new(struct rec_io *io, int fd, const char *name, bool stream,
			      int zstd_level);
/* --format 8: the sink writes the v7 records it gets as version-8 records. */
int rec_sink_set_v8(struct rec_sink *s);
/* Queue len bytes of whole records (copied).  -1 if the sink has failed. */
int rec_sink_write(struct rec_sink *s, const void *data, size_t len);
/* Finish: wait for this sink's writes, close. 0 or -1. */
int rec_sink_close(struct rec_sink *s);
void rec_sink_free(struct rec_sink *s);
uint64_t rec_sink_bytes(const struct rec_sink *s);	/* bytes in the file */
int rec_sink_error(const struct rec_sink *s);		/* first errno or 0 */
const char *rec_sink_name(const struct rec_sink *s);

/* rec_stage.c: records of one (trace, CPU) waiting to be written. */
struct rec_stage {
	uint8_t *buf;
	size_t len, cap;
	uint32_t *offs;		/* start of each record in buf */
	size_t n, ncap;
	uint64_t events;	/* event records staged so far (not notes) */
	uint64_t notes;
};

int rec_stage_init(struct rec_stage *st);
void rec_stage_free(struct rec_stage *st);
/* Append one record, keeping the stage in time order. */
int rec_stage_add(struct rec_stage *st, const struct bs_trace *t, const void *pdu);
void rec_stage_reset(struct rec_stage *st);
/* Bytes held by the first n records (all of them if n >= st->n). */
size_t rec_stage_front_bytes(const struct rec_stage *st, size_t n);
/* Forget the first n records (they were written). */
void rec_stage_drop_front(struct rec_stage *st, size_t n);
/* The sector of the Q staged at `time` among the newest records: 0, or -1 if none. */
int rec_stage_sector_at(const struct rec_stage *st, uint64_t time, uint64_t *sector);

/* rec_notes.c: the end note (format/bs_notes.h) of every (trace, CPU) stage at
 * `time`, with the events staged so far and the kernel side's drops.  -1 on
 * failure. */
int rec_add_end_notes(struct rec_stage *stages, const struct rec_trace *traces, int ntraces,
		      int ncpus, struct rec_bpf *b, uint64_t time);

/* Who recorded: the host note's values (docs/format.md, "The host note"). */
struct rec_host {
	char node[65], release[65], boot_id[64];
};

void rec_host_read(struct rec_host *h);
/*
 * The TIMESTAMP note (mono, and real_ns the wall clock then) and the host note into buf: their
 * bytes, 0 if size is too small.
 */
size_t rec_start_notes(void *buf, size_t size, const struct rec_host *h, uint32_t device,
		       uint32_t cpu, uint64_t mono, uint64_t real_ns);
/* Both notes for every trace, into the stage of the CPU we run on. */
int rec_add_start_notes(struct rec_stage *stages, const struct rec_trace *traces, int ntraces,
			int ncpus);

/* rec_inflight.c: I/Os between Q, D and C, for latency triggers (fixed memory). */
struct rec_inflight;

struct rec_inflight *rec_inflight_new(size_t cap);
void rec_inflight_free(struct rec_inflight *f);
void rec_inflight_queue(struct rec_inflight *f, int trace, uint64_t sector, uint32_t bytes,
			uint64_t time);
/* *q: the earliest queue time of the bios the request covers (0: none seen) */
void rec_inflight_issue(struct rec_inflight *f, int trace, uint64_t sector, uint32_t bytes,
			uint64_t time, uint64_t *q);
/* Takes the covered bios out; *q earliest queue, *d latest issue time. */
bool rec_inflight_complete(struct rec_inflight *f, int trace, uint64_t sector, uint32_t bytes,
			   uint64_t *q, uint64_t *d);
uint64_t rec_inflight_evicted(const struct rec_inflight *f);	/* table full: forgotten */
size_t rec_inflight_len(const struct rec_inflight *f);

/* rec_trigger.c: --trigger SPEC, parsed and evaluated. */
#define REC_TRIGGERS_MAX	16

enum rec_metric { REC_Q2C, REC_D2C, REC_Q2D };
enum { REC_OP_READ = 1, REC_OP_WRITE, REC_OP_DISCARD, REC_OP_FLUSH, REC_OP_SYNC };

struct rec_trigger {
	enum bs_trigger_kind kind;
	enum rec_metric metric;		/* latency */
	uint64_t threshold;		/* latency: ns */
	unsigned int op;		/* REC_OP_*, 0: any */
	char dev[32];			/* as given, "" for any device */
	int trace;			/* resolved dev, -1: any */
	char expr[BS_TRIGGER_EXPR_MAX];	/* as given */
};

/* 0, or -1 with the reason in why[len] */
int rec_trigger_parse(const char *spec, struct rec_trigger *t, char *why, size_t len);
/* The trigger's device among the traced ones: 0, or -1 if it is not traced. */
int rec_trigger_resolve(struct rec_trigger *t, const struct rec_trace *traces, int ntraces);

struct rec_trig_eval {
	const struct rec_trigger *t;
	int n, ncpus;
	bool on_events;			/* a trigger looks at events (not only signal) */
	bool latency, need_q;
	struct rec_inflight *inflight;	/* latency triggers only */
	uint32_t *last_seq;		/* per (trace, CPU): drop triggers see gaps */
};

struct rec_trig_eval *rec_trig_eval_new(const struct rec_trigger *t, int n, int ntraces, int ncpus);
void rec_trig_eval_free(struct rec_trig_eval *e);
/*
 * Event t of trace `trace`, in time order: the index of the trigger it
 * fires (and the note naming it in *fired, n left 0), or -1.
 */
int rec_trig_event(struct rec_trig_eval *e, int trace, const struct bs_trace *t,
		   struct bs_trigger_note *fired);

/* rec_history.c: the flight recorder's bounded history of records. */
struct rec_history;

struct rec_history_stats {
	uint64_t records, raw, stored;	/* held now: records, bytes raw and in memory */
	uint64_t t_first, t_last;	/* time span held */
	uint64_t blocks;
	uint64_t evicted_records, evicted_blocks;	/* since the start */
	uint64_t sealed_raw, sealed_stored;		/* since the start: the compression ratio */
};

/* A reader's place: block id, offset in its raw contents, record number. */
struct rec_hist_cursor {
	uint64_t id;
	size_t off;
	uint64_t recno;
};

/* cap bytes of memory; zstd_level > 0 compresses the blocks. NULL on failure. */
struct rec_history *rec_history_new(size_t cap, int zstd_level);
void rec_history_free(struct rec_history *h);
/* Append one whole record (time-ordered); the oldest are evicted. */
int rec_history_add(struct rec_history *h, const void *rec, size_t len, uint64_t time);
const struct rec_history_stats *rec_history_stats(struct rec_history *h);
void rec_history_cursor_oldest(struct rec_history *h, struct rec_hist_cursor *c);
/*
 * The record at the cursor (valid until the next call), advancing it; NULL
 * when there is nothing newer yet.  Records evicted under the cursor are
 * skipped and added to *lost.
 */
const uint8_t *rec_history_next(struct rec_history *h, struct rec_hist_cursor *c, size_t *len,
				uint64_t *lost);

/* rec_pidcomm.c: pid -> comm of every announced task, bounded. */
#define REC_PIDS_MAX	(1u << 16)

struct rec_pidcomm;

struct rec_pidcomm *rec_pidcomm_new(size_t cap);
void rec_pidcomm_free(struct rec_pidcomm *p);
void rec_pidcomm_set(struct rec_pidcomm *p, uint32_t pid, const char comm[BS_COMM_LEN]);
/* 0 and the name (from the table, else /proc), or -1 */
int rec_pidcomm_get(struct rec_pidcomm *p, uint32_t pid, char comm[BS_COMM_LEN]);
uint64_t rec_pidcomm_forgotten(const struct rec_pidcomm *p);

/* rec_snapshot.c: one snapshot, the history around a trigger as a file set. */
struct rec_snap_cfg {
	const struct rec_trace *traces;
	int ntraces, ncpus;
	const char *base;		/* -o BASE, NULL: device names */
	const char *dir;		/* -D DIR as shown in messages */
	int rootfd;			/* -D DIR, O_PATH */
	int zstd_level;			/* --zstd: .zst files */
	bool v8;			/* --format 8 */
	bool stream;			/* -o -: one stream to stream_sink */
	struct rec_sink *stream_sink;
	struct rec_io *io;
	struct rec_pidcomm *pids;
	struct rec_cgroups *cg;		/* --cgroup-ids, else NULL */
	const struct rec_host *host;
};

struct rec_snap_summary {
	uint64_t events, gaps, lost;	/* lost: evicted from the history while writing */
	uint64_t bytes, written;	/* handed to the sinks; in the files */
	uint64_t triggers;
};

struct rec_snapshot;

/*
 * Open a snapshot whose first trigger is `first` (at time, on device/cpu, by pid) and whose window
 * ends at window_end.  NULL after a message.
 */
struct rec_snapshot *rec_snapshot_open(const struct rec_snap_cfg *cfg, struct rec_history *h,
				       const struct bs_trigger_note *first, uint64_t time,
				       uint32_t device, uint32_t cpu, uint32_t pid,
				       uint64_t window_end);
/* Another trigger inside the window (its n is set here). */
void rec_snapshot_add_trigger(struct rec_snapshot *s, const struct bs_trigger_note *n,
			      uint64_t time, uint32_t device, uint32_t cpu, uint32_t pid);
/*
 * Write what the history holds of the window, at most max_bytes, without
 * waiting for the disk.  complete_upto: every record up to that time is in
 * the history.  1 when the window is written, 0 for more later, -1 failed.
 */
int rec_snapshot_step(struct rec_snapshot *s, struct rec_history *h, uint64_t complete_upto,
		      size_t max_bytes);
/* End notes, flush, close the files (waits for their writes).  0 or -1. */
int rec_snapshot_close(struct rec_snapshot *s, uint64_t now);
const char *rec_snapshot_name(const struct rec_snapshot *s);
uint64_t rec_snapshot_window_end(const struct rec_snapshot *s);
void rec_snapshot_summary(const struct rec_snapshot *s, struct rec_snap_summary *out);
/* `remove`: take its files and directory away (a failed snapshot). */
void rec_snapshot_free(struct rec_snapshot *s, bool remove);
/* The files of snapshot directory `name` in rootfd, and the directory. */
int rec_snapshot_remove(int rootfd, const char *name);

/* rec_flight.c: record --ring SIZE --trigger SPEC, the flight recorder. */
#define REC_AFTER_DEFAULT_NS	(2000000000ull)	/* --after: 2 s */
#define REC_BUDGET_RINGS	16		/* --budget default: 16 x --ring */

enum {
	REC_OPT_RING = 400, REC_OPT_RING_ZSTD, REC_OPT_TRIGGER, REC_OPT_AFTER, REC_OPT_HOLDOFF,
	REC_OPT_MAX_SNAPSHOTS, REC_OPT_BUDGET, REC_OPT_DUMP_ON_EXIT,
};

struct rec_flight_opts {
	uint64_t ring;			/* bytes; 0: no flight recorder */
	int ring_zstd;			/* zstd level of the history, 0: raw */
	struct rec_trigger trig[REC_TRIGGERS_MAX];
	int ntrig;
	uint64_t after_ns, holdoff_ns;
	unsigned int max_snapshots;	/* 0: no limit */
	uint64_t budget;		/* bytes of snapshots on disk */
	bool dump_on_exit;
};

struct rec_flight;

void rec_flight_defaults(struct rec_flight_opts *o);
/* One option (REC_OPT_*): 0, -1 after a message, 1 if c is not one of them. */
int rec_flight_opt(struct rec_flight_opts *o, int c, const char *arg);
/* After all options and the devices: 0, or -1 after a message. */
int rec_flight_check(struct rec_flight_opts *o, const struct rec_trace *traces, int ntraces,
		     uint32_t events);
bool rec_flight_has_signal(const struct rec_flight_opts *o);
struct rec_flight *rec_flight_new(const struct rec_flight_opts *o, const struct rec_snap_cfg *cfg);
void rec_flight_free(struct rec_flight *f);
/* rec_out_fn for the merged records (rec_stream_set_output). */
int rec_flight_ingest(void *ctx, const uint8_t *data, size_t len);
/* SIGUSR1 from pid sender (0: unknown). */
void rec_flight_signal(struct rec_flight *f, uint32_t sender, uint64_t now);
/*
 * Write snapshots on; complete_upto: every record up to it was ingested. 1 when --max-snapshots are
 * written (stop).
 */
int rec_flight_step(struct rec_flight *f, uint64_t complete_upto, uint64_t now);
/* A snapshot is being written: poll more often. */
bool rec_flight_busy(const struct rec_flight *f);
/* At the stop, after the last records were ingested. */
void rec_flight_stop(struct rec_flight *f, uint64_t now);
void rec_flight_report(struct rec_flight *f);

/* rec_stream.c: -o -, every stage's records up to a watermark, merged by time. */
struct rec_stream;

/*
 * flushed[nstages] counts the bytes written per stage; a stage holding more than `limit` bytes
 * releases its older half early (counted).
 */
struct rec_stream *rec_stream_new(struct rec_stage *stages, int nstages, struct rec_sink *sink,
				  uint64_t *flushed, size_t limit);
void rec_stream_free(struct rec_stream *m);
/* Hand the merged records (whole, time-ordered) to fn instead of a sink. */
typedef int (*rec_out_fn)(void *ctx, const uint8_t *data, size_t len);
void rec_stream_set_output(struct rec_stream *m, rec_out_fn fn, void *ctx);
/* Write the records with time <= watermark (every ring complete up to it). */
int rec_stream_release(struct rec_stream *m, uint64_t watermark);
/* Write everything still staged (at the end). */
int rec_stream_flush(struct rec_stream *m);
/* Records written before the watermark reached them (memory bound). */
uint64_t rec_stream_early(const struct rec_stream *m);

/*
 * rec_v8.c: whole host-order v7 records (action_hi stashed at BR_HI_SHIFT) -> v8 records into
 * out[cap]; returns the bytes written, *used the bytes taken.
 */
size_t rec_to_v8(uint8_t *out, size_t cap, const uint8_t *in, size_t len, size_t *used);

/* rec_user.c: the identity `-- COMMAND` runs as. */
struct rec_cred {
	bool set;		/* switch to it in the child (else keep ours) */
	uid_t uid;
	gid_t gid;
	gid_t *groups;		/* supplementary groups (the user's own) */
	int ngroups;
	char name[64];		/* user name, "" if none */
};

/* --user USER | UID | UID:GID; -1 after a message */
int rec_cred_from_user(const char *spec, struct rec_cred *c);
/* root started by sudo: the calling user; 1 set, 0 not applicable, -1 after a message */
int rec_cred_from_sudo(struct rec_cred *c);
void rec_cred_free(struct rec_cred *c);
/* In the child: groups, gid, uid, then no capabilities; -1 + errno */
int rec_cred_apply(const struct rec_cred *c);

/* rec_cgroup.c: the io controller's hierarchy and the ids announced so far. */

struct rec_cgroups {
	char root[PATH_MAX];	/* its mount point */
	int mount_fd;
	/*
	 * (id, trace, cpu) triples announced so far: every per-CPU file gets
	 * the note before its own first record of the id, so that the note
	 * precedes that record in any merge (a note in another CPU's file may
	 * carry a later time).  Hashed: records are checked per event.
	 */
	struct rec_cgroup_seen {
		uint64_t id;
		uint32_t trace, cpu;
		size_t next;	/* next triple with the same hash key, + 1 (0: none) */
	} *seen;
	size_t nseen, cap, last;
	struct bs_hash index;	/* key of the triple -> its first entry + 1 */
};

/* -1 after one line on stderr */
int rec_cgroups_open(struct rec_cgroups *c);
void rec_cgroups_close(struct rec_cgroups *c);
/* --cgroup PATH -> id and depth below the root; -1 after one line on stderr */
int rec_cgroup_resolve(struct rec_cgroups *c, const char *arg, uint64_t *id, uint32_t *level);
/*
 * The note announcing id to trace's CPU file cpu (before event ev) into note: its size, 0 if
 * announced there before, -1 without memory.
 */
int rec_cgroup_note(struct rec_cgroups *c, uint64_t id, int trace, uint32_t cpu,
		    const struct bs_trace *ev, void *note);

/* rec_outfiles.c: the per-CPU files, created with bs_create_at(). */
struct rec_outdir {
	int fd;			/* the -D directory (or "."), O_PATH */
	const char *dir;	/* as given, NULL for the current directory */
	bool replace;		/* --force: replace files of our own */
	char **created;		/* names created so far (removed on failure) */
	int ncreated, cap;
};

/* -1 after one line on stderr */
int rec_outdir_open(struct rec_outdir *d, const char *dir, bool replace);
/* Create one file; fd, or -1 after one line on stderr. */
int rec_outdir_create(struct rec_outdir *d, const char *name);
/* Done creating: close the directory; `failed` removes what we created. */
void rec_outdir_close(struct rec_outdir *d, bool failed);
/*
 * Files BASE.blktrace.<cpu> in the other form than this run writes (.zst
 * when zst is false, plain when true), from an earlier run: a reader
 * would find both forms of one CPU.  Refused (-1 after a message) unless
 * --force, which removes them (regular files of our own only).  0 if none.
 */
int rec_outdir_other_form(struct rec_outdir *d, const char *base, int ncpus, bool zst);
/*
 * Attribution side files of BASE from an earlier run (record --files or
 * --stacks) that this run does not write (keep: the form it writes, 0
 * plain, 1 .zst, -1 none): the analyzer could read them with this run's
 * trace.  Refused (-1 after a message) unless --force, which removes them
 * (regular files of our own only).  0 if none.
 */
int rec_outdir_stale_side(struct rec_outdir *d, const char *base, int ncpus, int keep);

/* rec_child.c: cred NULL or !cred->set keeps the recorder's identity */
pid_t rec_child_start(char **argv, bool stdout_to_stderr, const struct rec_cred *cred);
/* shell-style exit status of a wait() status: code, or 128 + signal */
int rec_child_status(int wstatus);

#endif /* BLKSCOPE_RECORD_H */
