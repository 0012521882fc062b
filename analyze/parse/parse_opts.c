// SPDX-License-Identifier: GPL-2.0
/*
 * parse_opts.c - the values of blkparse's options, checked and converted
 * as blkparse does (same messages), into a struct parse_opts.  The
 * command line itself (getopt, usage) is the front-end's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_codec.h"
#include "parse.h"

/* the actions a -f format applies to (blkparse's VALID_SPECS) */
#define VALID_SPECS "ABCDFGIMPQRSTUWX"

/* beyond this many seconds the time in ns does not fit 64 bits */
#define STOPWATCH_MAX_SECS 1.8e10

void parse_opts_init(struct parse_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->text = o->dev_stats = o->dump_msgs = true;
	o->stop_end = ~0ULL;
}

int parse_opt_input(struct parse_opts *o, const char *name)
{
	if (o->ninputs >= PARSE_MAX_INPUTS)
		return -1;
	o->inputs[o->ninputs++] = name;
	return 0;
}

int parse_opt_mask(struct parse_opts *o, const char *name, struct bs_err *err)
{
	int bit = bs_mask_from_name(name);

	if (bit < 0)
		return bs_err_set(err, EINVAL, "Invalid action mask %s", name);
	o->act_mask |= (unsigned int)bit;
	return 0;
}

int parse_opt_set_mask(struct parse_opts *o, const char *hex, struct bs_err *err)
{
	/* all hex digits (after an optional 0x): sscanf took "-1", "1z" */
	const char *digits = strncasecmp(hex, "0x", 2) ? hex : hex + 2;
	unsigned int v = 0;

	if (!digits[0] || digits[strspn(digits, "0123456789abcdefABCDEF")] ||
	    sscanf(hex, "%x", &v) != 1 || !v || v > 0xffff) {
		return bs_err_set(err, EINVAL, "Invalid set action mask %s/0x%x", hex, v);
	}
	o->act_mask = v;
	return 0;
}

int parse_opt_stopwatch(struct parse_opts *o, const char *arg, struct bs_err *err)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || errno)
		return bs_err_set(err, EINVAL, "Invalid stopwatch timer: %s", arg);
	if (!(v >= 0 && v < STOPWATCH_MAX_SECS))	/* keeps the ns conversion defined */
		return bs_err_set(err, EINVAL, "Invalid stopwatch timer: %s", arg);
	if (*end == ':') {
		const char *s = end + 1;

		o->stop_start = (unsigned long long)(v * 1000000000);
		v = strtod(s, &end);
		if (end == s || *end || !(v >= 0 && v < STOPWATCH_MAX_SECS))
			return bs_err_set(err, EINVAL, "Invalid stopwatch duration time: %s", s);
	} else if (*end) {
		return bs_err_set(err, EINVAL, "Invalid stopwatch start timer: %s", arg);
	}
	o->stop_end = (unsigned long long)(v * 1000000000);
	if (o->stop_end <= o->stop_start)
		return bs_err_set(err, EINVAL, "Invalid stopwatch interval: %llu -> %llu",
				  (unsigned long long)o->stop_start,
				  (unsigned long long)o->stop_end);
	return 0;
}

/* -f: every action that has no format yet (a later -F still wins) */
void parse_opt_format(struct parse_opts *o, const char *fmt)
{
	for (const char *p = VALID_SPECS; *p; p++)
		if (!o->formats[(unsigned char)*p])
			o->formats[(unsigned char)*p] = fmt;
}

int parse_opt_format_spec(struct parse_opts *o, const char *spec, struct bs_err *err)
{
	if (!spec[0] || !strchr(VALID_SPECS, spec[0]))
		return bs_err_set(err, EINVAL, "Bad format specifier %c", spec[0]);
	if (spec[1] != ',')
		return bs_err_set(err, EINVAL, "Bad format specifier - need ',' %s", spec);
	o->formats[(unsigned char)spec[0]] = spec + 2;
	return 0;
}

/* secs: checked by the front-end (bs_arg_double, 0.001 to 86400) */
void parse_opt_tag_timeout(struct parse_opts *o, double secs)
{
	unsigned int ms = (unsigned int)(secs * 1000 + 0.5);

	o->tag_timeout_ms = ms ? ms : 1;
}
