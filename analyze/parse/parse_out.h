/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse_out.h - the text output buffer of blkscope parse.  Event lines are
 * formatted by hand straight into one large buffer that goes out with
 * write(2) in big chunks: printf per field would cost more than all the
 * rest of the work per event.
 */
#ifndef BS_PARSE_OUT_H
#define BS_PARSE_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define POUT_CAP	(1u << 20)
#define POUT_SLACK	4096	/* room one event line may need without a check */

struct pout {
	int fd;
	const char *name;	/* for error messages */
	char *buf;
	size_t len;
	int error;		/* first errno; output is dropped after it */
};

int pout_init(struct pout *o, int fd, const char *name);
int pout_flush(struct pout *o);
int pout_close(struct pout *o);	/* flush, close unless 0-2, free */

/* printf-style append, for the rare lines (summaries, custom formats) */
void pout_printf(struct pout *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Make sure n bytes fit; returns the write position. */
static inline char *pout_reserve(struct pout *o, size_t n)
{
	if (o->len + n > POUT_CAP)
		pout_flush(o);
	return o->buf + o->len;
}

static inline void pout_commit(struct pout *o, char *end)
{
	o->len = (size_t)(end - o->buf);
}

static inline void pout_write(struct pout *o, const void *s, size_t n)
{
	if (n > POUT_CAP / 2) {
		pout_flush(o);
		/* huge strings are rare enough to go through printf */
		pout_printf(o, "%.*s", (int)n, (const char *)s);
		return;
	}
	memcpy(pout_reserve(o, n), s, n);
	o->len += n;
}

/* ---- number formatting helpers: p is the write position, return the new one ---- */

extern const char pout_digits2[200];	/* "00" "01" ... "99" */

static inline int fmt_ndigits(unsigned long long v)
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
static inline void fmt_digits_n(char *p, unsigned long long v, int n)
{
	char *e = p + n;

	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		e -= 2;
		memcpy(e, pout_digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		e -= 2;
		memcpy(e, pout_digits2 + 2 * v, 2);
	} else {
		*--e = (char)('0' + v);
	}
}

/* %llu */
static inline char *put_u(char *p, unsigned long long v)
{
	int n = fmt_ndigits(v);

	fmt_digits_n(p, v, n);
	return p + n;
}

/* %<w>llu (right-aligned, space padded) */
static inline char *put_u_w(char *p, unsigned long long v, int w)
{
	int n = fmt_ndigits(v);

	for (; w > n; w--)
		*p++ = ' ';
	fmt_digits_n(p, v, n);
	return p + n;
}

/* %<w>lld, right-aligned, or left-aligned if left */
static inline char *put_d_w(char *p, long long v, int w, int left)
{
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	int n = fmt_ndigits(u) + (v < 0);

	if (!left)
		for (; w > n; w--)
			*p++ = ' ';
	if (v < 0)
		*p = '-';
	fmt_digits_n(p + (v < 0), u, n - (v < 0));
	p += n;
	if (left)
		for (; w > n; w--)
			*p++ = ' ';
	return p;
}

/* %09lu of a value below 10^9: two independent 4-digit halves after the first digit */
static inline char *put_u09(char *p, unsigned long v)
{
	unsigned int lo = (unsigned int)v % 100000000u, hi = lo / 10000, low = lo % 10000;

	p[0] = (char)('0' + (unsigned int)v / 100000000u);
	memcpy(p + 1, pout_digits2 + 2 * (hi / 100), 2);
	memcpy(p + 3, pout_digits2 + 2 * (hi % 100), 2);
	memcpy(p + 5, pout_digits2 + 2 * (low / 100), 2);
	memcpy(p + 7, pout_digits2 + 2 * (low % 100), 2);
	return p + 9;
}

/* %<w>s right-aligned */
static inline char *put_s_w(char *p, const char *s, size_t n, int w)
{
	for (int i = (int)n; i < w; i++)
		*p++ = ' ';
	memcpy(p, s, n);
	return p + n;
}

#endif /* BS_PARSE_OUT_H */
