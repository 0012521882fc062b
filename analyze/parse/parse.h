/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - libbsparse: the blkparse (Debian 1.2.0) compatible printer
 * as a library.  A front-end (cli/parse_main.c: `blkscope parse`)
 * fills a struct parse_opts, calls parse_run() and exits with what
 * it returns; the fuzz harness does the same without a command line.
 *
 * One run = one struct parse_ctx, created and destroyed explicitly; it owns
 * the inputs, the merge, the outputs, the per-device / per-CPU / per-process
 * statistics, the name tables and the tagging-plugin session.  The library
 * never exits and never prints: every line for the user's stderr goes to
 * the message sink the caller sets (opts.msg), and a failure comes back as
 * a non-zero status.  It does not set the locale: blkparse groups the
 * summary numbers ("%'") under setlocale(LC_NUMERIC, "en_US"), which is
 * the caller's to call.
 */
#ifndef BLKSCOPE_ANALYZE_PARSE_PARSE_H
#define BLKSCOPE_ANALYZE_PARSE_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include "bs_msg.h"

#define PARSE_BLKPARSE_COMPAT "1.2.0"
#define PARSE_MAX_INPUTS 256		/* more are ignored, as before */

/*
 * The messages of a run, one line each without the newline, reach
 * opts.msg.  BS_MSG_ERROR and BS_MSG_WARN are blkscope's own lines, printed
 * as "PROGRAM: TEXT"; PARSE_MSG_BLKPARSE marks the lines blkparse itself
 * prints on stderr ("Bad fs action 4", "merge not found for (8,0): 2048"),
 * kept word for word and printed as they are.
 */
#define PARSE_MSG_BLKPARSE BS_MSG_INFO

/* What the options of blkparse say; parse_opts_init() gives its defaults. */
struct parse_opts {
	const char *inputs[PARSE_MAX_INPUTS];	/* -i and bare arguments */
	int ninputs;
	const char *input_dir;		/* -D */
	const char *output_name;	/* -o; NULL = stdout */
	const char *dump_name;		/* -d; "-" = stdout; NULL = no dump */
	bool text;			/* !-O */
	bool dev_stats;			/* !-q */
	bool dump_msgs;			/* !-M */
	bool track;			/* -t */
	bool per_process;		/* -s */
	bool by_name;			/* -h */
	int verbose;			/* -v */
	unsigned int act_mask;		/* -a / -A categories; 0 = all */
	uint64_t stop_start, stop_end;	/* -w in ns since the first event; end ~0 = none */
	unsigned int batch;		/* -b; 0 = 512 */
	const char *formats[256];	/* -f / -F by action letter (copied by the run) */
	const char *tag_plugin;		/* --tag-plugin command, or NULL */
	unsigned int tag_timeout_ms;	/* --tag-timeout; 0 = the host's default */
	bool force;			/* --force: -o/-d may replace an earlier run's file */
	struct bs_msg_sink msg;		/* where the run's stderr lines go; none: dropped */
};

void parse_opts_init(struct parse_opts *o);

/*
 * Option values, parsed as blkparse parses them.  Each returns 0, or -1
 * with blkparse's line for a bad value in err (printed as it is: blkparse
 * names no program there).
 */
int parse_opt_mask(struct parse_opts *o, const char *name, struct bs_err *err);	/* -a NAME */
int parse_opt_set_mask(struct parse_opts *o, const char *hex, struct bs_err *err);	/* -A HEX */
/* -w [S:]E */
int parse_opt_stopwatch(struct parse_opts *o, const char *arg, struct bs_err *err);
/* -F X,FMT */
int parse_opt_format_spec(struct parse_opts *o, const char *spec, struct bs_err *err);
void parse_opt_format(struct parse_opts *o, const char *fmt);		/* -f FMT */
void parse_opt_tag_timeout(struct parse_opts *o, double secs);		/* --tag-timeout */
int parse_opt_input(struct parse_opts *o, const char *name);		/* -i: -1 when full */

struct parse_ctx;

/*
 * Resolve the inputs, open the outputs, start the plugin and the merge.
 * Returns the run, or NULL after giving the reason to o->msg (nothing is
 * left open).
 */
struct parse_ctx *parse_create(const struct parse_opts *o);

/*
 * Read every event, print, dump, print the summaries, close the outputs.
 * Returns the exit status blkparse would have: 0, or 1 on errors (a fatal
 * format error, damaged input it refuses, an output that failed, tags
 * incomplete).  Call once.
 */
int parse_exec(struct parse_ctx *ps);

/* Free everything the run holds; closes what exec did not close. */
void parse_destroy(struct parse_ctx *ps);

/* create + exec + destroy: the exit status (1 if create failed). */
int parse_run(const struct parse_opts *o);

#endif /* BLKSCOPE_ANALYZE_PARSE_PARSE_H */
