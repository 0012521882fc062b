// SPDX-License-Identifier: GPL-2.0
/*
 * bs_numfmt.c - btt's "%*.9f" seconds and "%*.1f" plot heights without
 * printf's floating-point path.
 *
 * btt prints times as the double S + F / 1e9 (S whole seconds, F the
 * nanoseconds left) with nine decimals.  Below 2^22 s (48 days) the
 * double's spacing is at most 2^-31 s, so the sum lies within a quarter
 * of a nanosecond of the exact S.F (the division's own error is ~1e-16):
 * rounding it to nine decimals gives back F exactly, and the digits can be
 * written from the integers.  Longer times go through snprintf on the same
 * double, so the output is the same for every input.  Why bother: glibc's
 * %f is ~250 ns a number, and btt's range data of a trace naming 1M
 * processes is 4M numbers, over a third of that analysis.
 */
#include <stdio.h>
#include <string.h>
#include "bs_numfmt.h"

#define NS_PER_SEC 1000000000ull
#define EXACT_BELOW_NS ((1ull << 22) * NS_PER_SEC)

/* "whole.frac", right-aligned in width (frac: the decimals as text) */
static int put_fixed(char *buf, uint64_t whole, const char *frac, int width)
{
	char digits[32], *p = digits + sizeof(digits);
	int i, len, pad;

	for (i = (int)strlen(frac); i > 0; i--)
		*--p = frac[i - 1];
	*--p = '.';
	do {
		*--p = (char)('0' + whole % 10);
		whole /= 10;
	} while (whole);
	len = (int)(digits + sizeof(digits) - p);
	pad = width > len ? width - len : 0;
	memset(buf, ' ', (size_t)pad);
	memcpy(buf + pad, p, (size_t)len);
	buf[pad + len] = '\0';
	return pad + len;
}

int bs_fmt_secs(char *buf, size_t size, uint64_t ns, int width)
{
	uint64_t s = ns / NS_PER_SEC;
	uint32_t f = (uint32_t)(ns % NS_PER_SEC);
	char frac[10];
	int i;

	if (ns >= EXACT_BELOW_NS || size < BS_SECS_BUF || width > 16)
		return snprintf(buf, size, "%*.9f", width, (double)s + (double)f / 1.0e9);
	for (i = 8; i >= 0; i--) {
		frac[i] = (char)('0' + f % 10);
		f /= 10;
	}
	frac[9] = '\0';
	return put_fixed(buf, s, frac, width);
}

/*
 * A float has 24 significant bits, so v * 10 is exact in a double (28
 * bits), and so is its fractional part; printf rounds that exact value to
 * one decimal, ties to even.
 */
int bs_fmt_tenths(char *buf, size_t size, float v, int width)
{
	double tenths = (double)v * 10.0, rest;
	uint64_t n;
	char frac[2];

	if (!(v >= 0.0f && v < 1e15f) || size < BS_SECS_BUF || width > 16)
		return snprintf(buf, size, "%*.1f", width, v);
	n = (uint64_t)tenths;
	rest = tenths - (double)n;
	if (rest > 0.5 || (rest == 0.5 && (n & 1)))
		n++;
	frac[0] = (char)('0' + n % 10);
	frac[1] = '\0';
	return put_fixed(buf, n / 10, frac, width);
}
