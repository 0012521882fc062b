/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_parse.h - libbsparse: the blkparse (Debian 1.2.0) compatible printer
 * as a library.  A front-end (cli/parse_main.c: `blkscope parse`)
 * fills a struct bs_parse_opts, calls bs_parse_run() and exits with what
 * it returns; the fuzz harness does the same without a command line.
 *
 * One run = one struct bs_parse, created and destroyed explicitly; it owns
 * the inputs, the merge, the outputs, the per-device / per-CPU / per-process
 * statistics, the name tables and the tagging-plugin session.  The library
 * never exits: errors go to stderr as blkparse prints them and come back as
 * a non-zero status.  It does not set the locale: blkparse groups the
 * summary numbers ("%'") under setlocale(LC_NUMERIC, "en_US"), which is
 * the caller's to call.
 */
#ifndef BS_PARSE_API_H
#define BS_PARSE_API_H

#include <stdbool.h>
#include <stdint.h>

#define BS_PARSE_BLKPARSE_COMPAT "1.2.0"
#define BS_PARSE_MAX_INPUTS 256		/* more are ignored, as before */

/* What the options of blkparse say; bs_parse_opts_init() gives its defaults. */
struct bs_parse_opts {
	const char *inputs[BS_PARSE_MAX_INPUTS];	/* -i and bare arguments */
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
};

void bs_parse_opts_init(struct bs_parse_opts *o);

/*
 * Option values, parsed as blkparse parses them.  Each returns 0, or -1
 * after printing blkparse's message for a bad value.
 */
int bs_parse_opt_mask(struct bs_parse_opts *o, const char *name);	/* -a NAME (adds) */
int bs_parse_opt_set_mask(struct bs_parse_opts *o, const char *hex);	/* -A HEX */
int bs_parse_opt_stopwatch(struct bs_parse_opts *o, const char *arg);	/* -w [S:]E */
void bs_parse_opt_format(struct bs_parse_opts *o, const char *fmt);	/* -f FMT */
int bs_parse_opt_format_spec(struct bs_parse_opts *o, const char *spec);	/* -F X,FMT */
int bs_parse_opt_tag_timeout(struct bs_parse_opts *o, const char *secs);	/* --tag-timeout */
int bs_parse_opt_input(struct bs_parse_opts *o, const char *name);	/* -i: -1 when full */

struct bs_parse;

/*
 * Resolve the inputs, open the outputs, start the plugin and the merge.
 * Returns the run, or NULL after printing why (nothing is left open).
 */
struct bs_parse *bs_parse_create(const struct bs_parse_opts *o);

/*
 * Read every event, print, dump, print the summaries, close the outputs.
 * Returns the exit status blkparse would have: 0, or 1 on errors (a fatal
 * format error, damaged input it refuses, an output that failed, tags
 * incomplete).  Call once.
 */
int bs_parse_exec(struct bs_parse *ps);

/* Free everything the run holds; closes what exec did not close. */
void bs_parse_destroy(struct bs_parse *ps);

/* create + exec + destroy: the exit status (1 if create failed). */
int bs_parse_run(const struct bs_parse_opts *o);

#endif /* BS_PARSE_API_H */
