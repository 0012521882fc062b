/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_numfmt.h - numbers printed byte for byte as printf prints them in
 * btt's outputs, without the cost of printf's floating-point path: times
 * ("%*.9f" of btt's seconds) and plot heights ("%*.1f" of a float).
 */
#ifndef BLKSCOPE_BS_NUMFMT_H
#define BLKSCOPE_BS_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

/* Room for any bs_fmt_secs() output of width up to 16. */
#define BS_SECS_BUF 40

/*
 * Write into buf (size bytes, at least BS_SECS_BUF) what
 * snprintf(buf, size, "%*.9f", width, secs) writes, where secs is the
 * double btt computes from ns: (double)(ns / 10^9) + (ns % 10^9) / 1e9.
 * Returns the length, as snprintf.
 */
int bs_fmt_secs(char *buf, size_t size, uint64_t ns, int width);

/*
 * Write into buf (size bytes, at least BS_SECS_BUF) what
 * snprintf(buf, size, "%*.1f", width, v) writes.  Returns the length.
 */
int bs_fmt_tenths(char *buf, size_t size, float v, int width);

/*
 * Write v in decimal (printf's "%" PRIu64) at p, no terminator; returns
 * the end.  p needs room for 20 bytes.  For writers of many numbers (a
 * CSV or JSON line is built in a buffer and written at once).
 */
static inline char *bs_put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

#endif /* BLKSCOPE_BS_NUMFMT_H */
