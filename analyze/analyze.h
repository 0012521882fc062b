/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analyze.h - how report extensions plug into `blkscope analyze`.
 *
 * One analysis (struct bs_analysis, analysis.h) runs the btt-equivalent
 * engine over the merged event stream and prints btt's report.  Report
 * extensions (percentiles, time series, JSON/CSV/HTML, tags...) add their
 * options, sample sinks and sections.  The front-end lists them in a
 * const table (analyze_main.c) and hands it to bs_analysis_new(); nothing
 * registers itself.
 *
 *	enum { MY_OPT_JSON, MY_OPT_FOO };	// local: 0..n-1
 *	static const struct option my_opts[] = {
 *		{ "json", required_argument, NULL, MY_OPT_JSON },
 *		{ "foo", no_argument, NULL, MY_OPT_FOO }, { 0 } };
 *	const struct bs_analyze_ext my_ext = {
 *		.name = "mine", .options = my_opts, .create = my_create,
 *		.destroy = my_destroy, .parse_opt = my_parse_opt, ... };
 *
 * Extension options are long-only; their `val`s are the extension's own
 * (any int, conventionally 0..n-1): the front-end builds one getopt table
 * from all extensions and hands each option back to its extension with
 * its own val.  Each extension keeps its state in the object create()
 * returns (no globals), which every other callback receives.
 *
 * Order of calls: create -> parse_opt (per option) -> start (register
 * sinks) -> events -> sinks' finish -> report (after the btt sections,
 * only when the text report is printed) -> done -> destroy.  destroy()
 * is always called, also when the run failed before start() or done(),
 * and frees everything the state holds.
 */
#ifndef BLKSCOPE_ANALYZE_H
#define BLKSCOPE_ANALYZE_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include "iomodel/io_sample.h"

struct bs_analysis;

struct bs_analyze_ext {
	const char *name;
	const struct option *options;	/* NULL-terminated, or NULL; vals local */
	void *(*create)(void);		/* the state (never NULL: bs_x* allocation) */
	void (*destroy)(void *state);	/* frees the state and all it holds */
	/* 0 = handled, -1 = bad argument (message printed) */
	int (*parse_opt)(void *state, int val, const char *arg);
	void (*usage)(FILE *f);		/* option lines for --help; may be NULL */
	/*
	 * after the whole command line is read, before any file is touched:
	 * options that contradict each other; 0 or -1 (one line printed: a
	 * bad command line, exit 2); may be NULL
	 */
	int (*check)(void *state, struct bs_analysis *a);
	/* register sinks etc.; 0 or -1 (message printed) */
	int (*start)(void *state, struct bs_analysis *a);
	/* what the reader must see first, before btt's sections (the trace's health); may be NULL */
	void (*preamble)(void *state, struct bs_analysis *a, FILE *out);
	/* extra sections after btt's, on the text report stream */
	void (*report)(void *state, struct bs_analysis *a, FILE *out);
	/*
	 * true if an output of this extension goes to stdout (--json -): then
	 * stdout holds only that format, btt's report is not printed (unless
	 * -o sends it to NAME.avg) and its messages go to stderr; may be NULL
	 */
	bool (*takes_stdout)(void *state);
	/* write side files; returns 0 or -1 (exit status 1) */
	int (*done)(void *state, struct bs_analysis *a);
};

/* Add a sink (copied); up to 16.  Call from start(). */
int bs_analysis_add_sink(struct bs_analysis *a, const struct bs_sample_sink *sink);

/*
 * The trace's health as the per-I/O model saw it (iomodel/iom.h): lost
 * events, damage, streams cut short, I/Os open or unmatched.  Valid in
 * report()/done().
 */
struct iom_health;
const struct iom_health *bs_analysis_health(struct bs_analysis *a);

/*
 * Queued bios btt's model left uncompleted (its sections' view; 0 when
 * btt's engine did not run), and the I/Os the model saw split, for the
 * one line that says where the two differ.  Valid in report()/done().
 */
uint64_t bs_analysis_btt_never_completed(struct bs_analysis *a);

/* Per-device counters, valid in report()/done(); *n = number of devices. */
const struct bs_dev_counters *bs_analysis_counters(struct bs_analysis *a, int *n);

/*
 * btt's process name for a pid ("kernel" for 0, "pid%09u" if never
 * named); the string is valid until the next call.
 */
const char *bs_analysis_comm(struct bs_analysis *a, uint32_t pid);

/* Time of the last event seen, ns since genesis. */
uint64_t bs_analysis_end_time(struct bs_analysis *a);

/*
 * record --files --stacks: the trace's files and stacks (analyze/attr/
 * attr.h; samples carry their ids in attr), NULL when the input has no
 * attribution side files.  Valid from start() on, read-only: sinks on
 * any thread may read it.  _stats: how many Qs found their record (after
 * the run); false without side files.
 */
struct bs_attr_dict;
struct bs_attr_stats;
const struct bs_attr_dict *bs_analysis_attr(struct bs_analysis *a);
bool bs_analysis_attr_stats(struct bs_analysis *a, struct bs_attr_stats *st);

/*
 * cgroup id -> path, from the trace's cgroup notes (filled while reading;
 * an id's note comes before its first record).  The table lives as long
 * as the analysis.
 */
struct report_cgroup_names;
const struct report_cgroup_names *bs_analysis_cgroups(struct bs_analysis *a);

/*
 * Records with a cgroup id seen: btt's sections ignore them (as btt does),
 * the samples and counters count them as usual.  Valid in report()/done().
 */
uint64_t bs_analysis_cgroup_records(struct bs_analysis *a);

/*
 * The wall clock (ns since the Unix epoch) at time 0 of the analysis (its
 * genesis), from the trace's first TIMESTAMP note; false when the trace
 * has none (a blkparse dump, for one).  Valid from the first event on.
 */
bool bs_analysis_wall_clock(struct bs_analysis *a, uint64_t *genesis_ns);

/* --btt-only was given: extensions print no text sections of their own. */
bool bs_analysis_btt_only(struct bs_analysis *a);

/*
 * --force was given: an output file of an earlier run (a regular file of
 * ours) may be replaced; without it an existing output file is refused.
 * BS_CREATE_REPLACE or 0, the flags for bs_create_output().
 */
unsigned int bs_analysis_create_flags(const struct bs_analysis *a);

/* The -t/-T window in seconds (0 and INFINITY when not given); false when neither was. */
bool bs_analysis_window(struct bs_analysis *a, double *t_start, double *t_end);

/* The state of another extension of this analysis, or NULL if it is not in it. */
void *bs_analysis_ext_state(struct bs_analysis *a, const struct bs_analyze_ext *ext);

#endif /* BLKSCOPE_ANALYZE_H */
