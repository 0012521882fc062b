/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - the pieces of `blkscope record` and how they fit:
 *
 *   devices.c   -d paths -> traced dev_t, whole disk, LBA window, base name
 *   bpf_load.c  probe kernel/BTF, load bpf/blkrecord.bpf.c, per-CPU rings
 *   stage.c     per (trace, CPU) record staging, kept in time order
 *   stream.c    -o -: the stages merged by time into one stream
 *   sink.c      output files or stdout, written with io_uring (+ zstd)
 *   v8.c        --format 8: staged v7 records rewritten as version 8
 *   child.c     `-- COMMAND`: only fds 0-2, as --user / SUDO_UID
 *   user.c      who the command runs as (uid, gid, groups; no capabilities)
 *   outfiles.c  the output directory and files (O_EXCL, never followed)
 *   cstat.c     completions the disk counted vs. C events recorded
 *   cgroup.c    --cgroup-ids / --cgroup: cgroup paths <-> ids, notes
 *   say.c       the start line, the files written, the command to run next
 *   main.c      options, main loop, stop, summary
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
#include "blkrecord.h"

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

/* say.c: what the recorder tells its user (besides errors and warnings) */
struct rec_say {
	const struct rec_trace *traces;
	int ntraces, ncpus;
	const char *dir;	/* -D, or NULL */
	const char *base;	/* -o BASE, or NULL: the device names */
	bool to_stdout;		/* -o - */
	bool zstd;
	bool quiet;		/* --quiet: none of it */
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

/* devices.c */
int rec_resolve_device(const char *path, struct rec_trace *t);

/* bpf_load.c */
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
};

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

/* cstat.c: completions the disk counted that no C event was recorded for. */
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

/* sink.c: where bytes go (a per-CPU file or stdout), written with io_uring. */
struct rec_sink;
struct rec_io;

struct rec_io *rec_io_new(unsigned int entries);
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

/* stage.c: records of one (trace, CPU) waiting to be written. */
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

/* stream.c: -o -, every stage's records up to a watermark, merged by time. */
struct rec_stream;

/* flushed[nstages] counts the bytes written per stage; a stage holding more
 * than `limit` bytes releases its older half early (counted). */
struct rec_stream *rec_stream_new(struct rec_stage *stages, int nstages, struct rec_sink *sink,
				  uint64_t *flushed, size_t limit);
void rec_stream_free(struct rec_stream *m);
/* Write the records with time <= watermark (every ring complete up to it). */
int rec_stream_release(struct rec_stream *m, uint64_t watermark);
/* Write everything still staged (at the end). */
int rec_stream_flush(struct rec_stream *m);
/* Records written before the watermark reached them (memory bound). */
uint64_t rec_stream_early(const struct rec_stream *m);

/* v8.c: whole host-order v7 records (action_hi stashed at BR_HI_SHIFT) -> v8
 * records into out[cap]; returns the bytes written, *used the bytes taken. */
size_t rec_to_v8(uint8_t *out, size_t cap, const uint8_t *in, size_t len, size_t *used);

/* user.c: the identity `-- COMMAND` runs as. */
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

/* cgroup.c: the io controller's hierarchy and the ids announced so far. */
#define BR_CGROUP_NOTE_MAX	1024	/* PDU of a cgroup note: id + "cgroup ID PATH" */

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
/* The note announcing id to trace's CPU file cpu (before event ev) into
 * note: its size, 0 if announced there before, -1 without memory. */
int rec_cgroup_note(struct rec_cgroups *c, uint64_t id, int trace, uint32_t cpu,
		    const struct bs_trace *ev, void *note);

/* outfiles.c: the per-CPU files, created with bs_create_at(). */
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

/* child.c: cred NULL or !cred->set keeps the recorder's identity */
pid_t rec_child_start(char **argv, bool stdout_to_stderr, const struct rec_cred *cred);
/* shell-style exit status of a wait() status: code, or 128 + signal */
int rec_child_status(int wstatus);

#endif /* BLKSCOPE_RECORD_H */
