/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - the analysis layer (libbsanalysis.a), its one public header:
 * one run of `blkscope analyze` as a library, for the front-ends
 * (analyze, export, compare) and for the report extensions that plug into
 * it.  Its insides (the context struct, the reader thread, the memory
 * budget, the tag session's feeding) are in analysis_priv.h.
 *
 * The context owns everything the run needs (options, the input set and
 * its merge, btt's engine, the output files, the extensions' states: the
 * report and the tag session), created and destroyed explicitly, so that
 * a program (or a fuzzer) can run any number of analyses in one process.
 *
 *	struct analysis *a = analysis_new(exts, nexts);
 *	switch (analysis_parse_args(a, argc, argv)) { ... }
 *	status = analysis_run(a);
 *	analysis_free(a);
 *
 * Nothing here exits or prints: errors are told once (one line, through
 * the sink the front-end sets: analysis_set_msgs()) and returned; main()
 * (analyze_main.c) prints them and maps the results to exit codes.
 *
 * One analysis runs the btt-equivalent engine over the merged event
 * stream and prints btt's report.  Report extensions (percentiles, time
 * series, JSON/CSV/HTML, tags...) add their options, sample sinks and
 * sections.  The front-end lists them in a const table (analyze_main.c)
 * and hands it to analysis_new(); nothing registers itself.
 *
 *	enum { MY_OPT_JSON, MY_OPT_FOO };	// local: 0..n-1
 *	static const struct option my_opts[] = {
 *		{ "json", required_argument, NULL, MY_OPT_JSON },
 *		{ "foo", no_argument, NULL, MY_OPT_FOO }, { 0 } };
 *	const struct analysis_ext my_ext = {
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
#ifndef BLKSCOPE_ANALYSIS_H
#define BLKSCOPE_ANALYSIS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include "bs_msg.h"
#include "iomodel/io_sample.h"

/* ---- report extensions ------------------------------------------------- */

struct analysis;

struct analysis_ext {
	const char *name;
	const struct option *options;	/* NULL-terminated, or NULL; vals local */
	void *(*create)(void);		/* the state (never NULL: bs_x* allocation) */
	void (*destroy)(void *state);	/* frees the state and all it holds */
	/*
	 * 0 = handled, -1 = bad argument with err filled (one line, without
	 * the program's name: the analysis tells it through its sink)
	 */
	int (*parse_opt)(void *state, int val, const char *arg, struct bs_err *err);
	void (*usage)(FILE *f);		/* option lines for --help; may be NULL */
	/*
	 * after the whole command line is read, before any file is touched:
	 * options that contradict each other; 0 or -1 (one line printed: a
	 * bad command line, exit 2); may be NULL
	 */
	int (*check)(void *state, struct analysis *a);
	/* register sinks etc.; 0 or -1 (message printed) */
	int (*start)(void *state, struct analysis *a);
	/*
	 * what the reader must see first, before btt's sections (the trace's health); may be NULL
	 */
	void (*preamble)(void *state, struct analysis *a, FILE *out);
	/* extra sections after btt's, on the text report stream */
	void (*report)(void *state, struct analysis *a, FILE *out);
	/*
	 * true if an output of this extension goes to stdout (--json -): then
	 * stdout holds only that format, btt's report is not printed (unless
	 * -o sends it to NAME.avg) and its messages go to stderr; may be NULL
	 */
	bool (*takes_stdout)(void *state);
	/* write side files; returns 0 or -1 (exit status 1) */
	int (*done)(void *state, struct analysis *a);
};

/* Add a sink (copied); up to 16.  Call from start(). */
int analysis_add_sink(struct analysis *a, const struct bs_sample_sink *sink);

/*
 * The trace's health as the per-I/O model saw it (iomodel/iom.h): lost
 * events, damage, streams cut short, I/Os open or unmatched.  Valid in
 * report()/done().
 */
struct iom_health;
const struct iom_health *analysis_health(struct analysis *a);

/*
 * Queued bios btt's model left uncompleted (its sections' view; 0 when
 * btt's engine did not run), and the I/Os the model saw split, for the
 * one line that says where the two differ.  Valid in report()/done().
 */
uint64_t analysis_btt_never_completed(struct analysis *a);

/* Per-device counters, valid in report()/done(); *n = number of devices. */
const struct bs_dev_counters *analysis_counters(struct analysis *a, int *n);

/*
 * btt's process name for a pid ("kernel" for 0, "pid%09u" if never
 * named); the string is valid until the next call.
 */
const char *analysis_comm(struct analysis *a, uint32_t pid);

/* Time of the last event seen, ns since genesis. */
uint64_t analysis_end_time(struct analysis *a);

/*
 * record --files --stacks: the trace's files and stacks (analyze/attr/
 * attr.h; samples carry their ids in attr), NULL when the input has no
 * attribution side files.  Valid from start() on, read-only: sinks on
 * any thread may read it.  _stats: how many Qs found their record (after
 * the run); false without side files.
 */
struct attr_dict;
struct attr_stats;
const struct attr_dict *analysis_attr(struct analysis *a);
bool analysis_attr_stats(struct analysis *a, struct attr_stats *st);

/*
 * cgroup id -> path, from the trace's cgroup notes (filled while reading;
 * an id's note comes before its first record).  The table lives as long
 * as the analysis.
 */
struct report_cgroup_names;
const struct report_cgroup_names *analysis_cgroups(struct analysis *a);

/*
 * Records with a cgroup id seen: btt's sections ignore them (as btt does),
 * the samples and counters count them as usual.  Valid in report()/done().
 */
uint64_t analysis_cgroup_records(struct analysis *a);

/*
 * The wall clock (ns since the Unix epoch) at time 0 of the analysis (its
 * genesis), from the trace's first TIMESTAMP note; false when the trace
 * has none (a blkparse dump, for one).  Valid from the first event on.
 */
bool analysis_wall_clock(struct analysis *a, uint64_t *genesis_ns);

/* --btt-only was given: extensions print no text sections of their own. */
bool analysis_btt_only(struct analysis *a);

/*
 * --force was given: an output file of an earlier run (a regular file of
 * ours) may be replaced; without it an existing output file is refused.
 * BS_CREATE_REPLACE or 0, the flags for bs_create_output().
 */
unsigned int analysis_create_flags(const struct analysis *a);

/* The -t/-T window in seconds (0 and INFINITY when not given); false when neither was. */
bool analysis_window(struct analysis *a, double *t_start, double *t_end);

/* The state of another extension of this analysis, or NULL if it is not in it. */
void *analysis_ext_state(struct analysis *a, const struct analysis_ext *ext);

/* ---- one run ------------------------------------------------------------ */

/* What analysis_parse_args() found. */
enum analysis_args {
	ANALYSIS_ARGS_RUN,	/* options fine: call analysis_run() */
	ANALYSIS_ARGS_HELP,	/* -h: print analysis_usage() on stdout, exit 0 */
	ANALYSIS_ARGS_VERSION,	/* -V: print analysis_version() on stdout, exit 0 */
	ANALYSIS_ARGS_USAGE,	/* unknown option (getopt said which): "try --help", exit 2 */
	ANALYSIS_ARGS_ERROR,	/* bad value (its one-line message told): exit 2 */
};

/*
 * A new analysis with these extensions (the table must outlive it); each
 * extension's create() is called here, in table order.
 */
struct analysis *analysis_new(const struct analysis_ext *const *exts, int nexts);

/*
 * What a run tells the user on the way: the library prints nothing, the
 * front-end does.  sink: errors and warnings, one line of text each
 * without the program's name (the front-ends print "PROGRAM: TEXT");
 * without a sink they are lost.  progress: the progress line (--progress;
 * by default when progress_tty says the line's terminal is one): events
 * read and the share of the input's bytes in percent (< 0: not known),
 * at most once a second; last: the run is over, take the line away.
 * NULL: no progress line.  Set before analysis_parse_args().
 */
struct analysis_msgs {
	struct bs_msg_sink sink;
	void (*progress)(void *arg, uint64_t events, double pct, bool last);
	void *progress_arg;
	bool progress_tty;
};

void analysis_set_msgs(struct analysis *a, const struct analysis_msgs *msgs);

/* The run's sink, for an extension's warnings and errors (bs_msg(), bs_err in util/bs_msg.h). */
const struct bs_msg_sink *analysis_msg_sink(const struct analysis *a);

/* Frees everything, closes every file the run opened; NULL is fine. */
void analysis_free(struct analysis *a);

/*
 * Parse a command line (argv[0] is the program name).  getopt's state is
 * reset first, so this may be called once per analysis in one process.
 * The strings in argv must outlive the analysis.
 */
enum analysis_args analysis_parse_args(struct analysis *a, int argc, char **argv);

void analysis_usage(const struct analysis *a, FILE *f);
void analysis_version(FILE *f);

/*
 * Read the inputs, run the engine and the extensions, write every report.
 * Returns the exit status: 0, or 1 after an error (message printed), an
 * input without events (no report) or a damaged input (the report of what
 * was read is written).  Output paths are checked before any input is
 * opened.  Call once per analysis.
 */
int analysis_run(struct analysis *a);

/* true when the run stopped over its memory budget (--memory-limit; message printed) */
bool analysis_over_memory(const struct analysis *a);

/*
 * For a program that reads the extensions' states after the run (compare):
 * btt's report, ranges and messages go to /dev/null and the extensions
 * print no text sections (as --btt-only).  Call before analysis_run().
 */
void analysis_set_quiet(struct analysis *a);

/*
 * A front-end other than blkscope-analyze (blkscope-export) runs the same
 * inputs, merge, filters and extensions but prints no btt report and owns
 * -o: analysis_set_front() before analysis_parse_args().
 */
struct analysis_front {
	const char *progname;	/* in messages: "blkscope-export" */
	/* the short options of analyze's it takes ("i:o:D:rt:T:vVh"); the long
	   ones follow their short form; long-only: --input-dir, --batch,
	   --progress, --no-progress */
	const char *short_opts;
	void (*usage)(FILE *f);	/* the text before the extensions' options */
	/*
	 * The front-end and its extensions read only the per-I/O model's
	 * samples (not btt's statistics): btt's engine does not run.
	 */
	bool samples_only;
};

void analysis_set_front(struct analysis *a, const struct analysis_front *front);

/* -o's argument with a front-end (its output), NULL if none given. */
const char *analysis_output(const struct analysis *a);


/* ---- the tags extension (analysis_tags.c) ------------------------------- */

/*
 * `blkscope analyze --tag-plugin`: the glue between the merged event
 * stream, the tagging plugin (tags/host/tag_host.h) and the engine.  Its
 * state is the tag session.  The report (report/report.h) shows tags as
 * groups.
 */
struct analysis_tag_session;

/* The extension: --tag-plugin, --tag-timeout, the "Tags" section. */
extern const struct analysis_ext analysis_tag_ext;

/* --tag-plugin was given (false for NULL: no tags extension). */
bool analysis_tag_enabled(const struct analysis_tag_session *t);

#endif /* BLKSCOPE_ANALYSIS_H */
