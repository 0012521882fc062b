/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse_out_priv.h - the text output buffer of blkscope parse.  Event lines are
 * formatted by hand straight into one large buffer that goes out with
 * write(2) in big chunks: printf per field would cost more than all the
 * rest of the work per event.
 */
#ifndef BLKSCOPE_ANALYZE_PARSE_PARSE_OUT_PRIV_H
#define BLKSCOPE_ANALYZE_PARSE_PARSE_OUT_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "bs_msg.h"

#define PARSE_OUT_CAP	(1u << 20)
#define PARSE_OUT_SLACK	4096	/* room one event line may need without a check */

struct parse_out {
	int fd;
	const char *name;	/* for error messages */
	char *buf;
	size_t len;
	int error;		/* first errno; output is dropped after it */
	const struct bs_msg_sink *msg;	/* where a write error is said */
};

int parse_out_init(struct parse_out *o, int fd, const char *name, const struct bs_msg_sink *msg);
int parse_out_flush(struct parse_out *o);
int parse_out_close(struct parse_out *o);	/* flush, close unless 0-2, free */

/* printf-style append, for the rare lines (summaries, custom formats) */
void parse_out_printf(struct parse_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Make sure n bytes fit; returns the write position. */
static inline char *parse_out_reserve(struct parse_out *o, size_t n)
{
	if (o->len + n > PARSE_OUT_CAP)
		parse_out_flush(o);
	return o->buf + o->len;
}

static inline void parse_out_commit(struct parse_out *o, char *end)
{
	o->len = (size_t)(end - o->buf);
}

static inline void parse_out_write(struct parse_out *o, const void *s, size_t n)
{
	if (n > PARSE_OUT_CAP / 2) {
		parse_out_flush(o);
		/* huge strings are rare enough to go through printf */
		parse_out_printf(o, "%.*s", (int)n, (const char *)s);
		return;
	}
	memcpy(parse_out_reserve(o, n), s, n);
	o->len += n;
}

/* ---- number formatting helpers: p is the write position, return the new one ---- */

extern const char parse_digits2[200];	/* "00" "01" ... "99" */

static inline int parse_ndigits(unsigned long long v)
{
	int n = 1;

	for (;;) {
		if (v < 10)
			return n;
		if (v < 100)
			return n + 1;
		if (v < 1000)
			return n + 2;
		if (v < 10000)
			return n + 3;
		v /= 10000;
		n += 4;
	}
}

/* write exactly n digits of v ending at p + n */
static inline void parse_digits_n(char *p, unsigned long long v, int n)
{
	char *e = p + n;

	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		e -= 2;
		memcpy(e, parse_digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		e -= 2;
		memcpy(e, parse_digits2 + 2 * v, 2);
	} else {
		*--e = (char)('0' + v);
	}
}

/* %llu */
static inline char *parse_put_u(char *p, unsigned long long v)
{
	int n = parse_ndigits(v);

	parse_digits_n(p, v, n);
	return p + n;
}

/* %<w>llu (right-aligned, space padded) */
static inline char *parse_put_u_w(char *p, unsigned long long v, int w)
{
	int n = parse_ndigits(v);

	for (; w > n; w--)
		*p++ = ' ';
	parse_digits_n(p, v, n);
	return p + n;
}

/* %<w>lld, right-aligned, or left-aligned if left */
static inline char *parse_put_d_w(char *p, long long v, int w, int left)
{
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	int n = parse_ndigits(u) + (v < 0);

	if (!left)
		for (; w > n; w--)
			*p++ = ' ';
	if (v < 0)
		*p = '-';
	parse_digits_n(p + (v < 0), u, n - (v < 0));
	p += n;
	if (left)
		for (; w > n; w--)
			*p++ = ' ';
	return p;
}

/* %09lu of a value below 10^9: two independent 4-digit halves after the first digit */
static inline char *parse_put_u09(char *p, unsigned long v)
{
	unsigned int lo = (unsigned int)v % 100000000u, hi = lo / 10000, low = lo % 10000;

	p[0] = (char)('0' + (unsigned int)v / 100000000u);
	memcpy(p + 1, parse_digits2 + 2 * (hi / 100), 2);
	memcpy(p + 3, parse_digits2 + 2 * (hi % 100), 2);
	memcpy(p + 5, parse_digits2 + 2 * (low / 100), 2);
	memcpy(p + 7, parse_digits2 + 2 * (low % 100), 2);
	return p + 9;
}

/* %<w>s right-aligned */
static inline char *parse_put_s_w(char *p, const char *s, size_t n, int w)
{
	for (int i = (int)n; i < w; i++)
		*p++ = ' ';
	memcpy(p, s, n);
	return p + n;
}

#endif /* BLKSCOPE_ANALYZE_PARSE_PARSE_OUT_PRIV_H */
