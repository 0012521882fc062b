/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tag_host.h - the host side of the tagging-plugin pipe protocol
 * (docs/tags.md §The protocol).
 *
 * The host starts the plugin (an argv, never a shell), streams every
 * record to it and reads its answers concurrently.  Records are written
 * ahead of the answers, up to a window of events in flight, so the plugin
 * never waits for the host; the host keeps a copy of each event until its
 * END arrives and then hands the event back, in order, with the tags the
 * plugin gave it.  The caller therefore processes event k only once its
 * tags are known.
 *
 * When the plugin misbehaves (crash, early exit, protocol violation,
 * silence beyond the timeout), one error line naming the plugin and the
 * event index goes to the caller's message sink (ops->msg: the host never
 * prints), the plugin is killed and reaped, and every
 * event still pending or submitted later is handed back untagged: the
 * analysis goes on, with tags incomplete.
 */
#ifndef BLKSCOPE_TAGS_HOST_TAG_HOST_H
#define BLKSCOPE_TAGS_HOST_TAG_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bs_defs.h"
#include "bs_msg.h"

/* Response types (TAG_RESP_*), host-order u32. */
enum {
	TAG_RESP_END = 0,
	TAG_RESP_NEW_TAG = 1,
	TAG_RESP_TAG_IO = 2,
};

#define TAG_LABEL_MAX		4096	/* label bytes, NUL included */
#define TAG_MAX_TAGS		65536	/* distinct tags a plugin may declare */
#define TAG_DEFAULT_TIMEOUT_MS	30000

/* An event handed back to the caller. */
struct tag_host_event {
	uint64_t index;		/* 0-based position in the stream sent to the plugin */
	const struct bs_trace *t;
	const uint8_t *pdu;	/* t->pdu_len bytes */
	const void *user;	/* copy of the caller's bytes given to submit */
	const uint32_t *tags;	/* TAG_IO answers for this event, in order */
	int ntags;
	bool answered;		/* false: the plugin failed before answering it */
};

struct tag_host_ops {
	/* every submitted event, in submission order, once answered (or failed) */
	void (*on_event)(void *ctx, const struct tag_host_event *ev);
	/* a tag's first declaration; label is NUL-terminated */
	void (*on_new_tag)(void *ctx, uint32_t tag, const char *label);
	void *ctx;
	size_t user_size;	/* bytes copied from submit's user pointer */
	unsigned int timeout_ms;	/* silence allowed while answers are due; 0 = default */
	unsigned int window;	/* events in flight; 0 = default (64 Ki) */
	/*
	 * The failure line and warnings of a run, without the program's name
	 * ("tag plugin 'X': event N: ...; tags are incomplete"): BS_MSG_ERROR
	 * or BS_MSG_WARN.  No sink: they are dropped (tag_host_error() still
	 * says why).
	 */
	struct bs_msg_sink msg;
};

struct tag_host;

/*
 * Start argv[0] (looked up in PATH when it has no '/').  Returns NULL with
 * the one error line in err (may be NULL) if it cannot be started
 * ("tag plugin 'X': cannot start: ...", "tag plugin: out of memory").
 */
struct tag_host *tag_host_start(char *const argv[], const struct tag_host_ops *ops,
				struct bs_err *err);

/*
 * Hand one record to the plugin.  Callbacks for this and earlier events may
 * run before it returns.  Returns 0, or -1 if out of memory.
 */
int tag_host_submit(struct tag_host *h, const struct bs_trace *t, const uint8_t *pdu,
		    const void *user);

/*
 * Close the plugin's input, collect the remaining answers, reap it.  Every
 * submitted event has been handed back when it returns.  0 = every event
 * answered and the plugin exited 0; -1 = tags incomplete (the error went
 * to ops->msg).
 */
int tag_host_finish(struct tag_host *h);

/* true once the plugin has failed (its error line went to ops->msg) */
bool tag_host_failed(const struct tag_host *h);

/* The error text without the prefix, or "" */
const char *tag_host_error(const struct tag_host *h);

/* Label of a declared tag, or NULL. */
const char *tag_host_label(const struct tag_host *h, uint32_t tag);

/* Declaration order (0, 1, ...) of a declared tag, or -1. */
int tag_host_index(const struct tag_host *h, uint32_t tag);

/* Kill the plugin if still running, reap it, free everything. */
void tag_host_free(struct tag_host *h);

/*
 * Split a --tag-plugin string into an argv (NULL-terminated, free with
 * tag_argv_free).  Words are separated by blanks; '...' quotes literally;
 * "..." quotes with \" and \\ as escapes; a backslash outside quotes takes
 * the next character literally.  No variable, glob or tilde expansion.
 * Returns NULL with a message in err on an empty command, an unterminated
 * quote or a trailing backslash.
 */
char **tag_split_argv(const char *cmd, char *err, size_t errlen);
void tag_argv_free(char **argv);

#endif /* BLKSCOPE_TAGS_HOST_TAG_HOST_H */
