// SPDX-License-Identifier: GPL-2.0
/*
 * front_msgs.c - an analysis's messages and progress line on stderr, for
 * the front-ends (front_msgs.h).
 */
#include <stdio.h>
#include <unistd.h>
#include "bs_stream.h"
#include "front_msgs.h"

static void print_msg(void *arg, enum bs_msg_level level, const char *text)
{
	fprintf(stderr, "%s: %s\n", bs_progname(), text);
}

/* "\rPROGRAM: 12.3% 456 events", redrawn in place; blanked at the end */
static void print_progress(void *arg, uint64_t events, double pct, bool last)
{
	if (last)
		fprintf(stderr, "\r%60s\r", "");
	else if (pct >= 0)
		fprintf(stderr, "\r%s: %5.1f%% %llu events", bs_progname(), pct,
			(unsigned long long)events);
	else
		fprintf(stderr, "\r%s: %llu events", bs_progname(), (unsigned long long)events);
}

struct analysis_msgs front_msgs_stderr(void)
{
	return (struct analysis_msgs){
		.sink = { .fn = print_msg },
		.progress = print_progress,
		.progress_tty = isatty(STDERR_FILENO),
	};
}
