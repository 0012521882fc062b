/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_arg.h - checking the value of a numeric command-line option, shared
 * by every command (analyze, parse, compare, export, tag-check, record,
 * replay), so that a bad value is refused the same way everywhere: one
 * line that names the option and the valid range and points to --help.
 *
 * Like all of util/, these print nothing (bs_msg.h): a refusal fills the
 * caller's struct bs_err with the line WITHOUT the program's name, e.g.
 *
 *	--seek-values: 'x' is not an integer in 0..1000000000; try 'blkscope analyze --help'
 *
 * and the caller shows it as every message is shown, "PROGRAM: TEXT" on
 * stderr (a front-end prints it; library code hands it to its sink), then
 * returns its "bad command line" status (exit 2, see BS_EXIT_USAGE) and
 * prints nothing else: no usage text.
 *
 *	struct bs_err err;
 *	uint64_t n;
 *	if (bs_arg_uint(prog, "--batch", optarg, 1, 1 << 20, &n, &err)) {
 *		fprintf(stderr, "%s: %s\n", prog, err.text);
 *		return BS_EXIT_USAGE;
 *	}
 *
 * `prog` is only the name in "try 'PROG --help'".  err may be NULL (the
 * reason is then dropped).
 */
#ifndef BLKSCOPE_BS_ARG_H
#define BLKSCOPE_BS_ARG_H

#include <stdint.h>
#include "bs_msg.h"

/* The exit status of every command for a bad command line (option, value). */
#define BS_EXIT_USAGE 2

/*
 * A whole number in [lo, hi], decimal, nothing before or after
 * it: no sign, no blanks, no suffix, no overflow.  0, or -1 with err filled.
 */
int bs_arg_uint(const char *prog, const char *opt, const char *arg, uint64_t lo, uint64_t hi,
		uint64_t *out, struct bs_err *err);

/*
 * A finite number in [lo, hi] (strtod's syntax, no NaN or inf, nothing
 * after it).  `what` names it in the message ("a number of seconds").
 * 0, or -1 with err filled.
 */
int bs_arg_double(const char *prog, const char *opt, const char *arg, double lo, double hi,
		  const char *what, double *out, struct bs_err *err);

/*
 * A number with a unit, without a message (for values inside larger
 * expressions): a decimal number (a fraction allowed, no sign, no blanks)
 * directly followed by its unit.  0 and *out, or -1.
 *   bs_parse_duration: ns, us, ms, s, m (minutes), h -> nanoseconds
 *   bs_parse_size: no unit (bytes), K/k, M/m, G/g, optionally followed by
 *   "iB" or "B" (all binary: 1K = 1024) -> bytes
 */
int bs_parse_duration(const char *arg, uint64_t *out);
int bs_parse_size(const char *arg, uint64_t *out);

/* The same as option values in [lo, hi]: 0, or -1 with err filled. */
int bs_arg_duration(const char *prog, const char *opt, const char *arg, uint64_t lo_ns,
		    uint64_t hi_ns, uint64_t *out, struct bs_err *err);
int bs_arg_size(const char *prog, const char *opt, const char *arg, uint64_t lo, uint64_t hi,
		uint64_t *out, struct bs_err *err);

/*
 * The line for any other bad value: err->text = "OPT: 'ARG' is not WANT;
 * try 'PROG --help'".  Returns -1.
 */
int bs_arg_bad(const char *prog, const char *opt, const char *arg, const char *want,
	       struct bs_err *err);

/*
 * getopt_long() returned '?' (an unknown option) or ':' (an option without
 * its value): its own message would name the program by its path, so the
 * caller sets opterr = 0, starts its option string with ':' (after a '+'),
 * and calls this for the one line: err->text = "unknown option '--x'; try
 * 'PROG --help'" or "-o needs a value; try ...".  Returns -1.
 */
int bs_arg_getopt_error(const char *prog, int c, char *const argv[], struct bs_err *err);

#endif /* BLKSCOPE_BS_ARG_H */
