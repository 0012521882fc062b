/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tag_host_priv.h - what the plugin host's files share (not installed):
 *
 *   tag_host.c    the public calls, failure and the hand-back of events
 *   tag_spawn.c   starting the plugin under its reaper, ending it
 *   tag_pump.c    moving bytes through the pipes, waiting for the plugin
 *   tag_answer.c  parsing the answers, the declared tags
 *   tag_argv.c    --tag-plugin command lines
 *
 * Data flow: submit() appends the record to `out`, which holds every
 * record not yet answered: written ones first, then those still to write.
 * tag_pump_until() moves bytes both ways with non-blocking pipes; it blocks
 * in poll() only when the window of events in flight is full, or at
 * finish.  Answers are parsed as they arrive; each END pops the oldest
 * record and hands it back with the TAG_IOs that preceded the END.
 */
#ifndef BLKSCOPE_TAGS_HOST_TAG_HOST_PRIV_H
#define BLKSCOPE_TAGS_HOST_TAG_HOST_PRIV_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include "bs_hash.h"
#include "tag_host.h"

#define TAG_DEFAULT_WINDOW	(64u << 10)	/* events in flight */
#define TAG_OUT_FLUSH	(64u << 10)	/* bytes queued before we try to write */
#define TAG_IN_CAP		(256u << 10)	/* answer buffer; must exceed 12 + TAG_LABEL_MAX */
#define TAG_PIPE_SIZE	(1 << 20)	/* ask the kernel for large pipes */
#define TAG_EXIT_GRACE_MS	2000		/* how long a plugin may take to exit */
#define TAG_MAX_PER_EVENT (1 << 16)	/* TAG_IOs kept for one event: a runaway plugin's limit */

/* A growable byte FIFO: data lives in buf[head, head + len). */
struct tag_bytes {
	uint8_t *buf;
	size_t head, len, cap;
};

/* The tags a plugin declared (at most TAG_MAX_TAGS): labels in declaration order. */
struct tag_declared {
	struct bs_hash index;	/* tag number -> its index in labels */
	char **labels;
	uint32_t cap, len;
};

struct tag_host {
	char *name;		/* the plugin's command line, for messages */
	pid_t pid;		/* the plugin's reaper (tag_spawn.c); 0 once reaped */
	int ctl_fd;		/* closing it tells the reaper to end the plugin */
	int to_fd, from_fd;	/* plugin's stdin (we write), stdout (we read) */
	struct tag_host_ops ops;

	/*
	 * Every record whose END has not arrived, oldest first, as sent: the
	 * bytes up to `written` are in the pipe, the rest still to write.  One
	 * copy serves both the pipe and the hand-back.
	 */
	struct tag_bytes out;
	uint64_t out_base;	/* stream offset of out.buf[out.head] */
	uint64_t written;	/* stream bytes written so far */
	uint64_t queued;	/* stream bytes submitted so far (out_base + out.len) */

	struct tag_bytes in;	/* answer bytes not yet parsed */
	bool eof;		/* the plugin closed its stdout */
	bool exited;		/* reaped by all_answered(); exit_status holds its status */
	int exit_status;
	unsigned int poll_slice_ms;	/* 0, or the longest poll() before re-checking done() */
	bool input_closed;	/* every event sent, its stdin closed */

	uint64_t *ends;		/* ring: stream offset just past each pending record */
	uint8_t *users;		/* ring of the callers' bytes, user_size each */
	uint32_t cap, head, count;
	uint64_t next_index;	/* index of the next event submitted */

	uint32_t *cur_tags;	/* TAG_IOs for the oldest pending event */
	int ncur, cur_cap;
	struct tag_declared tags;
	uint32_t last_tag;	/* last tag seen in a valid TAG_IO */
	bool last_tag_valid;	/* last_tag holds a declared tag (0 is not one by default) */

	uint64_t last_activity;	/* ms, monotonic: last byte moved */
	bool failed;
	char err[512];
	struct sigaction old_pipe;
};

static inline uint64_t tag_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Oldest event without its END: the one an error is about. */
static inline uint64_t tag_current_index(const struct tag_host *h)
{
	return h->next_index - h->count;
}

/* tag_host.c */
void tag_close_fd(int *fd);
void tag_deliver_head(struct tag_host *h, bool answered);
void __attribute__((format(printf, 2, 3))) tag_fail(struct tag_host *h, const char *fmt, ...);

/* tag_spawn.c */
/* 0, or -1 with "tag plugin 'X': cannot start: ..." in why */
int tag_spawn(struct tag_host *h, char *const argv[], struct bs_err *why);
/* Wait up to ms for the plugin to exit; 1 = reaped (*status), 0 = still running. */
int tag_reap_within(struct tag_host *h, unsigned int ms, int *status);
/* End the plugin and everything it started; reap. */
void tag_kill_and_reap(struct tag_host *h);
void tag_describe_status(int status, char *buf, size_t len);
char *tag_join_argv(char *const argv[]);

/* tag_pump.c */
int tag_bytes_reserve(struct tag_bytes *b, size_t more);
void tag_bytes_drop(struct tag_bytes *b, size_t len);
void tag_plugin_gone(struct tag_host *h, const char *how);
void tag_write_some(struct tag_host *h);
void tag_read_some(struct tag_host *h);
void tag_pump_until(struct tag_host *h, bool (*done)(struct tag_host *));

/* tag_answer.c */
void tag_parse_answers(struct tag_host *h);
void tag_declared_free(struct tag_declared *d);

#endif /* BLKSCOPE_TAGS_HOST_TAG_HOST_PRIV_H */
