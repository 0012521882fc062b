// SPDX-License-Identifier: GPL-2.0
/* bs_msg.c - errors and warnings handed from library code to its front-end. */
#include <stdio.h>

#include "bs_msg.h"

int bs_err_vset(struct bs_err *err, int code, const char *fmt, va_list ap)
{
	if (!err)
		return -1;
	err->code = code;
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	return -1;
}

int bs_err_set(struct bs_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bs_err_vset(err, code, fmt, ap);
	va_end(ap);
	return -1;
}

void bs_vmsg(const struct bs_msg_sink *sink, enum bs_msg_level level, const char *fmt,
	     va_list ap)
{
	char text[BS_ERR_TEXT_MAX];

	if (!sink || !sink->fn)
		return;
	vsnprintf(text, sizeof(text), fmt, ap);
	sink->fn(sink->arg, level, text);
}

void bs_msg(const struct bs_msg_sink *sink, enum bs_msg_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bs_vmsg(sink, level, fmt, ap);
	va_end(ap);
}
