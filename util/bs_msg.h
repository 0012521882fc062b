/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_msg.h - how library code tells the user something without printing.
 *
 * Libraries never write to stderr themselves (like liburing): the program
 * around them decides where text goes and how it looks.  Two channels:
 *
 *  - struct bs_err: the one error a failing call returns, with its context
 *    already in the text ("sda.blktrace.0: offset 4096: bad magic"); the
 *    caller prints it (or adds its own context first) and stops.
 *  - struct bs_msg_sink: warnings and notes that arise while work goes on
 *    (a damaged CPU file, a lost event count): a callback the front-end sets.
 *    A NULL sink or NULL callback drops the message.
 *
 * The front-ends print both as "PROGRAM: TEXT" on stderr.
 */
#ifndef BLKSCOPE_BS_MSG_H
#define BLKSCOPE_BS_MSG_H

#include <stdarg.h>

#define BS_ERR_TEXT_MAX 1024

struct bs_err {
	int code;			/* an errno value, 0 when none applies */
	char text[BS_ERR_TEXT_MAX];	/* empty: no error */
};

enum bs_msg_level {
	BS_MSG_ERROR,
	BS_MSG_WARN,
	BS_MSG_INFO,
};

typedef void (*bs_msg_fn)(void *arg, enum bs_msg_level level, const char *text);

struct bs_msg_sink {
	bs_msg_fn fn;
	void *arg;
};

/* Fills err (when not NULL) and returns -1, so `return bs_err_set(...)` reads well. */
int bs_err_set(struct bs_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int bs_err_vset(struct bs_err *err, int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Formats the text and hands it to the sink; nothing when there is none. */
void bs_msg(const struct bs_msg_sink *sink, enum bs_msg_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void bs_vmsg(const struct bs_msg_sink *sink, enum bs_msg_level level, const char *fmt,
	     va_list ap) __attribute__((format(printf, 3, 0)));

#endif /* BLKSCOPE_BS_MSG_H */
