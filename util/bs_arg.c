// SPDX-License-Identifier: GPL-2.0
/*
 * bs_arg.c - numeric option values, checked one way for every command
 * (bs_arg.h).  strtoull alone would take "-5" (as 2^64-5), " 7", "7x"
 * read as 7 by atoi, or an overflow clamped to ULLONG_MAX: each of these
 * once removed a limit silently, so each is refused here.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_arg.h"

int bs_arg_bad(const char *prog, const char *opt, const char *arg, const char *want)
{
	/* the value is the user's: print it as given, it names nothing we trust */
	fprintf(stderr, "%s: %s: '%s' is not %s; try '%s --help'\n", prog, opt, arg, want, prog);
	return -1;
}

int bs_arg_getopt_error(const char *prog, int c, char *const argv[])
{
	char shortopt[3] = { '-', (char)optopt, 0 };
	const char *opt = argv[optind - 1];
	int len = (int)strcspn(opt, "=");

	/* a short option in a group (-vZ): optopt is the letter; a long one: optopt is 0 or its val */
	if (optopt > ' ' && optopt < 127 && opt[0] == '-' && opt[1] != '-') {
		opt = shortopt;
		len = 2;
	}
	if (c == ':')
		fprintf(stderr, "%s: %.*s needs a value; try '%s --help'\n", prog, len, opt, prog);
	else
		fprintf(stderr, "%s: unknown option '%.*s'; try '%s --help'\n", prog, len, opt, prog);
	return -1;
}

int bs_arg_uint(const char *prog, const char *opt, const char *arg, uint64_t lo, uint64_t hi,
		uint64_t *out)
{
	char want[96], *end;
	unsigned long long v;

	snprintf(want, sizeof(want), "an integer in %llu..%llu", (unsigned long long)lo,
		 (unsigned long long)hi);
	if (!isdigit((unsigned char)arg[0]))	/* no sign, no blanks, not empty */
		return bs_arg_bad(prog, opt, arg, want);
	errno = 0;
	v = strtoull(arg, &end, 10);	/* decimal: "010" is ten, as a user means it */
	if (errno || *end || v < lo || v > hi)
		return bs_arg_bad(prog, opt, arg, want);
	*out = v;
	return 0;
}

int bs_arg_double(const char *prog, const char *opt, const char *arg, double lo, double hi,
		  const char *what, double *out)
{
	char want[128], *end;
	double v;

	snprintf(want, sizeof(want), "%s in %g..%g", what, lo, hi);
	if (!arg[0] || isspace((unsigned char)arg[0]))
		return bs_arg_bad(prog, opt, arg, want);
	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v < lo || v > hi)
		return bs_arg_bad(prog, opt, arg, want);
	*out = v;
	return 0;
}
