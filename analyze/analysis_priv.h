/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis_priv.h - the analysis layer's insides, for analyze/analysis*.c
 * only (analysis.h is what front-ends and extensions see): the context
 * struct, and what the layer's files share (the options table, the memory
 * budget, side-file checks, health, the reader thread, attribution, the
 * tag session).
 */
#ifndef BLKSCOPE_ANALYSIS_PRIV_H
#define BLKSCOPE_ANALYSIS_PRIV_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include "analysis.h"
#include "bs_input.h"
#include "bs_merge.h"
#include "btt/btt.h"
#include "attr/attr.h"
#include "iomodel/iom.h"
#include "report/report_cgroup_names.h"

struct analysis_tag_session;

/* Which extension an entry of the getopt table belongs to, and its own val. */
struct analysis_ext_opt {
	int ext;
	int val;
};

struct analysis {
	/* extensions, in table order, and their states */
	const struct analysis_ext *const *exts;
	int nexts;
	void **ext_state;
	struct analysis_tag_session *tags;	/* the tags extension's state, or NULL */

	/* the getopt table: the base options, then every extension's */
	struct option *opts;
	struct analysis_ext_opt *ext_opts;	/* [i] for val ANALYSIS_OPT_EXT + i */

	const struct analysis_front *front;	/* NULL: blkscope-analyze */

	/* options */
	struct btt_opts o;
	struct bs_merge_opts mo;
	const char *input_dir, *output, *per_io, *iostat;
	const char **inputs;
	int ninputs;
	bool btt_only, verbose, easy;
	bool quiet;			/* analysis_set_quiet(): btt's text to /dev/null */
	bool stdout_taken; /* --json - etc.: btt's text to /dev/null, messages to stderr */
	int progress;			/* -1 = if msgs.progress_tty */
	struct analysis_msgs msgs;	/* what the run tells, and where (analysis_set_msgs()) */
	uint64_t mem_limit;		/* bytes, 0 = none (--memory-limit; analysis_mem.c) */
	int threads;			/* --threads: 1 or 2, 0 = 2 if there are CPUs for it */
	bool force;			/* --force: replace our own earlier output files */

	/* the run */
	struct bs_input_set in;
	struct bs_merge *m;
	struct btt_engine *e;		/* btt's sections; NULL for a front-end without them */
	struct iom *iom;		/* the per-I/O model: the samples, counters, health */
	bool has_sinks;			/* some extension reads the model's samples */
	bool model_events;		/* some of them wants every event too */
	FILE *avgs, *ranges;		/* stdout unless -o */
	uint64_t nevents;
	uint64_t mem_ticks;		/* records seen, for analysis_mem_tick() */
	bool mem_over;			/* stopped: over the memory budget */
	char comm_buf[32];		/* analysis_comm()'s answer */
	/* the first TIMESTAMP note: its absolute time and wall clock (ns) */
	bool have_wall, wall_known;
	uint64_t wall_note_time, wall_note_ns, wall_genesis;
	struct report_cgroup_names cgroups;	/* from the cgroup notes */
	struct analysis_reader *reader;	/* the reader thread (analysis_reader.c), or NULL */
	/* record --files --stacks: the trace's files and stacks, NULL without side files */
	struct attr_dict *attr;
	struct attr_src *attr_src;	/* their per-CPU records, read at each Q */
};

/* getopt vals of extension options: ANALYSIS_OPT_EXT + index into ext_opts */
#define ANALYSIS_OPT_EXT 0x10000

/* analysis_mem.c: the memory budget */
uint64_t analysis_default_memory_limit(void);
int analysis_parse_memory_limit(const char *arg, uint64_t *out, struct bs_err *err);
bool analysis_measure_memory(struct analysis *a);

/*
 * Called every record (event or note): every 65536th measures (out of
 * line).  true when the run is over its budget (the message is printed
 * once).  Inline: it runs for every record, where a call shows in the
 * run's time (docs/analyze.md, "Measurements").
 */
static inline bool analysis_mem_tick(struct analysis *a)
{
	if (__builtin_expect(a->mem_over, 0))
		return true;
	if (__builtin_expect(++a->mem_ticks & 0xffff, 1) || !a->mem_limit)
		return false;
	return analysis_measure_memory(a);
}

/*
 * analysis_outfiles.c: btt's side files (-l -q -z -s -B -Q -u -L -Z -P,
 * -o's histograms) are named at a device's first event or at the end:
 * their directories, and without --force files of theirs from an earlier
 * run, are checked before any input is read; 0 or -1 (one line printed).
 */
int analysis_check_side_files(const struct analysis *a);

/* analysis.c: a note the merge passed, applied (in the merge's order) */
void analysis_apply_note(struct analysis *a, const struct bs_record *rec, int dev);

/* analysis_health.c */
void analysis_probe_tails(struct analysis *a);
void analysis_on_damage(void *ctx, const char *name, uint64_t offset, uint64_t last_time);
void analysis_warn_health(struct analysis *a);
bool analysis_nothing_to_report(struct analysis *a);

/*
 * analysis_reader.c: the merge on a reader thread.  start: true if it
 * runs (--threads, per-CPU files, no -T, two CPUs); next: the next
 * event as the merge gave it (valid until the next call; NULL at the
 * end), applying the notes met on the way; note: the merge's
 * note callback while the reader runs; stop: joins it (at once if the
 * run stops early).  The merge is the reader's from start to stop.
 */
struct analysis_reader;
bool analysis_reader_start(struct analysis *a, bool model_too);
const struct bs_event *analysis_reader_next(struct analysis *a);
void analysis_reader_note(struct analysis_reader *r, const struct bs_record *rec, int dev);
void analysis_reader_damage(struct analysis_reader *r, const char *name, uint64_t offset,
			    uint64_t last_time);
/* complete: the input was read to its end (the model's thread drains first) */
void analysis_reader_stop(struct analysis *a, bool complete);
/* The model runs on a thread of its own (model_too was granted). */
bool analysis_reader_feeds_model(const struct analysis *a);

/*
 * An event as the reader thread hands it over: one cache line, its PDU
 * (8-byte padded) right behind it.  next_line: the next one where it lies
 * (notes applied on the way; valid until the next call, NULL at the end);
 * line_event: the struct bs_event the merge gave for it (in the reader's
 * context, valid as long).  A record with the cgroup flag needs the
 * latter: its id is in struct bs_event only.
 */
struct analysis_line {
	struct bs_trace t;
	uint32_t action_hi;
	int32_t dev;		/* struct bs_event's */
	int32_t cpu;
	uint8_t kind;		/* the reader's: an event or a note */
	bool foreign;
};
const struct analysis_line *analysis_reader_next_line(struct analysis *a);
const struct bs_event *analysis_line_event(struct analysis *a, const struct analysis_line *l);

static inline const uint8_t *analysis_line_pdu(const struct analysis_line *l)
{
	return (const uint8_t *)(l + 1);
}

/*
 * analysis_attr.c: record --files --stacks.  load: the side files of the
 * inputs (before the extensions start); start: the model asks them at
 * each Q (after the merge is open: genesis is known); free.
 */
void analysis_attr_load(struct analysis *a);
void analysis_attr_start(struct analysis *a);
void analysis_attr_free(struct analysis *a);

/* analysis_opts.c: build the getopt table (in analysis_new) */
void analysis_build_options(struct analysis *a);

/*
 * analysis_tags.c: the tag session.  With a plugin, the analysis hands
 * every note and event to analysis_tag_note() / analysis_tag_event() instead of the
 * engine; each comes back, in the same order, once the plugin has
 * answered it, and is then applied to the engine and the model with its
 * tag (analysis_feed_tagged, analysis_note_back), so that the model
 * can attach the tag to the I/O the event belongs to (Q through C).
 */
/* A PROCESS/TIMESTAMP note at read time, and an event of the merged stream. */
void analysis_tag_note(struct analysis_tag_session *t, const struct bs_record *rec);
/* 0, or -1 when out of memory (message printed): stop feeding. */
int analysis_tag_event(struct analysis_tag_session *t, const struct bs_event *ev);

/* After the last event: collect the remaining answers; 0, or -1 = tags incomplete. */
int analysis_tag_end(struct analysis_tag_session *t);

/* The session's answers back into the run: an event with its tag (-1 none), a read-time note. */
void analysis_feed_tagged(struct analysis *a, const struct bs_event *ev, int tag);
void analysis_note_back(struct analysis *a, const struct bs_trace *t, const uint8_t *pdu,
			bool foreign);

#endif /* BLKSCOPE_ANALYSIS_PRIV_H */
