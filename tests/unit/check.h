/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h - the unit tests' one assertion: CHECK(cond, fmt, ...) counts the
 * check, and on failure prints file, line, the condition and a message,
 * and counts the failure; the test goes on and exits 1 at the end.
 */
#ifndef BLKSCOPE_TEST_CHECK_H
#define BLKSCOPE_TEST_CHECK_H

#include <stdio.h>

#ifdef CHECK_SHARED_COUNTS
/* a test program of several files: one of them defines the counters */
extern int failures, checks;
#else
static int failures, checks;
#endif

#define CHECK(cond, ...) do {						\
	checks++;							\
	if (!(cond)) {							\
		failures++;						\
		fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
	}								\
} while (0)

#endif /* BLKSCOPE_TEST_CHECK_H */
