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

int bs_arg_bad(const char *prog, const char *opt, const char *arg, const char *want,
	       struct bs_err *err)
{
	/* the value is the user's: quote it as given, it names nothing we trust */
	return bs_err_set(err, EINVAL, "%s: '%s' is not %s; try '%s --help'", opt, arg, want,
			  prog);
}

int bs_arg_getopt_error(const char *prog, int c, char *const argv[], struct bs_err *err)
{
	char shortopt[3] = { '-', (char)optopt, 0 };
	const char *opt = argv[optind - 1];
	int len = (int)strcspn(opt, "=");

	/*
	 * a short option in a group (-vZ): optopt is the letter; a long one: optopt is 0 or its val
	 */
	if (optopt > ' ' && optopt < 127 && opt[0] == '-' && opt[1] != '-') {
		opt = shortopt;
		len = 2;
	}
	if (c == ':')
		return bs_err_set(err, EINVAL, "%.*s needs a value; try '%s --help'", len, opt,
				  prog);
	return bs_err_set(err, EINVAL, "unknown option '%.*s'; try '%s --help'", len, opt, prog);
}

int bs_arg_uint(const char *prog, const char *opt, const char *arg, uint64_t lo, uint64_t hi,
		uint64_t *out, struct bs_err *err)
{
	char want[96], *end;
	unsigned long long v;

	snprintf(want, sizeof(want), "an integer in %llu..%llu", (unsigned long long)lo,
		 (unsigned long long)hi);
	if (!isdigit((unsigned char)arg[0]))	/* no sign, no blanks, not empty */
		return bs_arg_bad(prog, opt, arg, want, err);
	errno = 0;
	v = strtoull(arg, &end, 10);	/* decimal: "010" is ten, as a user means it */
	if (errno || *end || v < lo || v > hi)
		return bs_arg_bad(prog, opt, arg, want, err);
	*out = v;
	return 0;
}

int bs_arg_double(const char *prog, const char *opt, const char *arg, double lo, double hi,
		  const char *what, double *out, struct bs_err *err)
{
	char want[128], *end;
	double v;

	snprintf(want, sizeof(want), "%s in %g..%g", what, lo, hi);
	if (!arg[0] || isspace((unsigned char)arg[0]))
		return bs_arg_bad(prog, opt, arg, want, err);
	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v < lo || v > hi)
		return bs_arg_bad(prog, opt, arg, want, err);
	*out = v;
	return 0;
}

/* "<number><unit>" with a unit from units[] (scales alongside): 0 or -1. */
static int parse_scaled(const char *arg, const char *const *units, const double *scale,
			uint64_t *out)
{
	char *end;
	double v;
	int i;

	if (!isdigit((unsigned char)arg[0]))
		return -1;	/* no sign, blank, "inf" or "nan" */
	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg)
		return -1;
	for (i = 0; units[i]; i++) {
		if (strcmp(end, units[i]))
			continue;
		v *= scale[i];
		if (!(v < 1.8e19))
			return -1;
		*out = (uint64_t)(v + 0.5);
		return 0;
	}
	return -1;
}

int bs_parse_duration(const char *arg, uint64_t *out)
{
	static const char *const units[] = { "ns", "us", "ms", "s", "m", "h", NULL };
	static const double scale[] = { 1, 1e3, 1e6, 1e9, 60e9, 3600e9 };

	return parse_scaled(arg, units, scale, out);
}

int bs_parse_size(const char *arg, uint64_t *out)
{
	static const char *const units[] = { "", "B", "K", "k", "KB", "KiB", "M", "m", "MB", "MiB",
					     "G", "g", "GB", "GiB", NULL };
	static const double scale[] = { 1, 1, 1024, 1024, 1024, 1024, 1048576, 1048576, 1048576,
					1048576, 1073741824.0, 1073741824.0, 1073741824.0,
					1073741824.0 };

	return parse_scaled(arg, units, scale, out);
}

int bs_arg_duration(const char *prog, const char *opt, const char *arg, uint64_t lo_ns,
		    uint64_t hi_ns, uint64_t *out, struct bs_err *err)
{
	char want[96];

	if (!bs_parse_duration(arg, out) && *out >= lo_ns && *out <= hi_ns)
		return 0;
	snprintf(want, sizeof(want), "a duration in %.9g..%.9g s with a unit (ns, us, ms, s, m, h)",
		 lo_ns / 1e9, hi_ns / 1e9);
	return bs_arg_bad(prog, opt, arg, want, err);
}

int bs_arg_size(const char *prog, const char *opt, const char *arg, uint64_t lo, uint64_t hi,
		uint64_t *out, struct bs_err *err)
{
	char want[96];

	if (!bs_parse_size(arg, out) && *out >= lo && *out <= hi)
		return 0;
	snprintf(want, sizeof(want), "a size in %llu..%llu bytes (suffix K, M or G: KiB, MiB, GiB)",
		 (unsigned long long)lo, (unsigned long long)hi);
	return bs_arg_bad(prog, opt, arg, want, err);
}
