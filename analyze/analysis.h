/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - one run of `blkscope analyze` as a library: a context that
 * owns everything the run needs (options, the input set and its merge,
 * the btt engine, the output files, the extensions' states: the report
 * and the tag session), created and destroyed explicitly, so that a
 * program (or a fuzzer) can run any number of analyses in one process.
 *
 *	struct bs_analysis *a = bs_analysis_new(exts, nexts);
 *	switch (bs_analysis_parse_args(a, argc, argv)) { ... }
 *	status = bs_analysis_run(a);
 *	bs_analysis_free(a);
 *
 * Nothing here exits or prints usage: errors are printed once (one line)
 * and returned; main() (analyze_main.c) maps them to exit codes.
 */
#ifndef BLKSCOPE_ANALYSIS_H
#define BLKSCOPE_ANALYSIS_H

#include <stdbool.h>
#include <stdio.h>
#include "analyze.h"

struct btt_engine;

/* What bs_analysis_parse_args() found. */
enum bs_args {
	BS_ARGS_RUN,		/* options fine: call bs_analysis_run() */
	BS_ARGS_HELP,		/* -h: print bs_analysis_usage() on stdout, exit 0 */
	BS_ARGS_VERSION,	/* -V: print bs_analysis_version() on stdout, exit 0 */
	BS_ARGS_USAGE,		/* unknown option (getopt said which): "try --help", exit 2 */
	BS_ARGS_ERROR,		/* bad value (its one-line message printed): exit 2 */
};

/*
 * A new analysis with these extensions (the table must outlive it); each
 * extension's create() is called here, in table order.
 */
struct bs_analysis *bs_analysis_new(const struct bs_analyze_ext *const *exts, int nexts);

/* Frees everything, closes every file the run opened; NULL is fine. */
void bs_analysis_free(struct bs_analysis *a);

/*
 * Parse a command line (argv[0] is the program name).  getopt's state is
 * reset first, so this may be called once per analysis in one process.
 * The strings in argv must outlive the analysis.
 */
enum bs_args bs_analysis_parse_args(struct bs_analysis *a, int argc, char **argv);

void bs_analysis_usage(const struct bs_analysis *a, FILE *f);
void bs_analysis_version(FILE *f);

/*
 * Read the inputs, run the engine and the extensions, write every report.
 * Returns the exit status: 0, or 1 after an error (message printed), an
 * input without events (no report) or a damaged input (the report of what
 * was read is written).  Output paths are checked before any input is
 * opened.  Call once per analysis.
 */
int bs_analysis_run(struct bs_analysis *a);

/* true when the run stopped over its memory budget (--memory-limit; message printed) */
bool bs_analysis_over_memory(const struct bs_analysis *a);

/*
 * For a program that reads the extensions' states after the run (compare):
 * btt's report, ranges and messages go to /dev/null and the extensions
 * print no text sections (as --btt-only).  Call before bs_analysis_run().
 */
void bs_analysis_set_quiet(struct bs_analysis *a);

/*
 * A front-end other than blkscope-analyze (blkscope-export) runs the same
 * inputs, merge, filters and extensions but prints no btt report and owns
 * -o: bs_analysis_set_front() before bs_analysis_parse_args().
 */
struct bs_analysis_front {
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

void bs_analysis_set_front(struct bs_analysis *a, const struct bs_analysis_front *front);

/* -o's argument with a front-end (its output), NULL if none given. */
const char *bs_analysis_output(const struct bs_analysis *a);

/*
 * For the tag session (tag_analyze.c), which feeds the analysis once its
 * plugin answered: an event with its tag (-1 none), a read-time note
 * (PROCESS names, the recorder's end note).
 */
void bs_analysis_feed_tagged(struct bs_analysis *a, const struct bs_event *ev, int tag);
void bs_analysis_note_back(struct bs_analysis *a, const struct bs_trace *t, const uint8_t *pdu, bool foreign);

#endif /* BLKSCOPE_ANALYSIS_H */
