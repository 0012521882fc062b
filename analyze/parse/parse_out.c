// SPDX-License-Identifier: GPL-2.0
/* parse_out.c - buffered text output of blkscope parse. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "parse_out_priv.h"

const char parse_digits2[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

int parse_out_init(struct parse_out *o, int fd, const char *name, const struct bs_msg_sink *msg)
{
	o->msg = msg;
	o->fd = fd;
	o->name = name;
	o->len = 0;
	o->error = 0;
	/* PARSE_OUT_SLACK past the capacity: a line reserved at the edge still fits */
	o->buf = malloc(PARSE_OUT_CAP + PARSE_OUT_SLACK);
	return o->buf ? 0 : -1;
}

int parse_out_flush(struct parse_out *o)
{
	size_t off = 0;

	while (off < o->len && !o->error) {
		ssize_t n = write(o->fd, o->buf + off, o->len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			o->error = errno;
			bs_msg(o->msg, BS_MSG_ERROR, "%s: %s", o->name, strerror(errno));
			break;
		}
		off += (size_t)n;
	}
	o->len = 0;
	return o->error ? -1 : 0;
}

int parse_out_close(struct parse_out *o)
{
	int ret = parse_out_flush(o);

	if (o->fd > 2 && close(o->fd) < 0 && !ret) {
		bs_msg(o->msg, BS_MSG_ERROR, "%s: %s", o->name, strerror(errno));
		ret = -1;
	}
	free(o->buf);
	o->buf = NULL;
	return ret;
}

void parse_out_printf(struct parse_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, PARSE_OUT_CAP + PARSE_OUT_SLACK - o->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (o->len + (size_t)n < PARSE_OUT_CAP + PARSE_OUT_SLACK) {
		o->len += (size_t)n;
		if (o->len > PARSE_OUT_CAP)
			parse_out_flush(o);
		return;
	}
	/* did not fit: flush and format again, into a temporary if need be */
	parse_out_flush(o);
	if ((size_t)n < PARSE_OUT_CAP) {
		va_start(ap, fmt);
		vsnprintf(o->buf, PARSE_OUT_CAP, fmt, ap);
		va_end(ap);
		o->len = (size_t)n;
		return;
	}
	char *tmp = malloc((size_t)n + 1);

	if (!tmp)
		return;
	va_start(ap, fmt);
	vsnprintf(tmp, (size_t)n + 1, fmt, ap);
	va_end(ap);
	for (size_t off = 0; off < (size_t)n; off += PARSE_OUT_CAP / 2) {
		size_t chunk = (size_t)n - off < PARSE_OUT_CAP / 2 ? (size_t)n - off :
								      PARSE_OUT_CAP / 2;

		memcpy(o->buf + o->len, tmp + off, chunk);
		o->len += chunk;
		parse_out_flush(o);
	}
	free(tmp);
}
