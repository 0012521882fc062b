// SPDX-License-Identifier: GPL-2.0
/*
 * tag_pump.c - moving bytes between the host and the plugin: records out
 * through its stdin, answers in from its stdout, both pipes non-blocking;
 * poll() only when the window is full or at the end, with the tag timeout
 * counted from the last byte moved either way.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tag_host_priv.h"

/* ---- byte FIFOs ---------------------------------------------------- */

int tag_bytes_reserve(struct tag_bytes *b, size_t more)
{
	if (b->head + b->len + more <= b->cap)
		return 0;
	/*
	 * Slide the live data to the front if it fills at most half the
	 * buffer, so that each byte is moved O(1) times; else grow.
	 */
	if (b->head && (b->len + more) * 2 <= b->cap) {
		memmove(b->buf, b->buf + b->head, b->len);
		b->head = 0;
		return 0;
	}
	size_t cap = b->cap ? b->cap : 64 << 10;

	while (cap < (b->len + more) * 2)
		cap *= 2;
	if (b->head) {
		memmove(b->buf, b->buf + b->head, b->len);
		b->head = 0;
	}
	uint8_t *p = realloc(b->buf, cap);

	if (!p)
		return -1;
	b->buf = p;
	b->cap = cap;
	return 0;
}

void tag_bytes_drop(struct tag_bytes *b, size_t len)
{
	b->head += len;
	b->len -= len;
	if (!b->len)
		b->head = 0;
}

/* The plugin's stdout ended (or its stdin broke) while answers were due. */
void tag_plugin_gone(struct tag_host *h, const char *how)
{
	char st[128];
	int status;

	tag_close_fd(&h->to_fd);	/* a plugin blocked on reading gets EOF */
	if (tag_reap_within(h, TAG_EXIT_GRACE_MS, &status)) {
		tag_describe_status(status, st, sizeof(st));
		tag_fail(h, "plugin %s before answering it (%s)", st, how);
	} else {
		tag_fail(h, "plugin stopped answering (%s) but did not exit; killed", how);
	}
}

/* ---- moving bytes -------------------------------------------------- */

/*
 * The plugin closed its stdin (usually: it exited).  What it wrote before
 * is still in the pipe: parse it first, so that the error reported is the
 * first thing that went wrong (a bad answer, a truncated one, an exit).
 */
static void drain_after_epipe(struct tag_host *h)
{
	uint64_t deadline = tag_now_ms() + TAG_EXIT_GRACE_MS;

	tag_close_fd(&h->to_fd);
	while (!h->failed && h->from_fd >= 0 && tag_now_ms() < deadline) {
		struct pollfd pfd = { .fd = h->from_fd, .events = POLLIN };

		tag_read_some(h);
		if (h->failed || h->from_fd < 0)
			return;
		poll(&pfd, 1, deadline - tag_now_ms());
	}
	if (!h->failed)
		tag_plugin_gone(h, "its input pipe is closed");
}

/* Write what the pipe takes; never blocks. */
void tag_write_some(struct tag_host *h)
{
	while (h->queued > h->written && h->to_fd >= 0 && !h->failed) {
		ssize_t n = write(h->to_fd, h->out.buf + h->out.head + (h->written - h->out_base),
				  h->queued - h->written);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return;
			if (errno == EPIPE)
				drain_after_epipe(h);
			else
				tag_plugin_gone(h, strerror(errno));
			return;
		}
		h->written += n;
		h->last_activity = tag_now_ms();
	}
}

/* Read and parse what the plugin has written; never blocks. */
void tag_read_some(struct tag_host *h)
{
	while (h->from_fd >= 0 && !h->failed) {
		ssize_t n;

		if (tag_bytes_reserve(&h->in, TAG_IN_CAP / 2) < 0) {
			tag_fail(h, "out of memory");
			return;
		}
		n = read(h->from_fd, h->in.buf + h->in.head + h->in.len,
			 h->in.cap - h->in.head - h->in.len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				tag_plugin_gone(h, strerror(errno));
			return;
		}
		if (n == 0) {
			tag_close_fd(&h->from_fd);
			h->eof = true;
			if (h->in.len) {
				/* a truncated answer (or extra bytes) at the very end */
				if (!h->count)
					tag_fail(h,
						 "%zu bytes of output after the last event's END",
						 h->in.len);
				else
					tag_plugin_gone(h, "its output ends inside a response");
			} else if (h->count) {
				tag_plugin_gone(h, "its output closed");
			}
			return;
		}
		h->in.len += n;
		h->last_activity = tag_now_ms();
		tag_parse_answers(h);
		if ((size_t)n < h->in.cap / 4)
			return;	/* drained: the pipe had less than we offered */
	}
}

/*
 * Move bytes until done(h) holds, blocking in poll() meanwhile.  The
 * timeout counts from the last byte moved in either direction.
 */
void tag_pump_until(struct tag_host *h, bool (*done)(struct tag_host *))
{
	for (;;) {
		struct pollfd pfd[2];
		int n = 0, r;
		uint64_t idle;

		tag_write_some(h);
		tag_read_some(h);
		if (h->failed || done(h))
			return;
		if (h->queued > h->written && h->to_fd >= 0)
			pfd[n++] = (struct pollfd){ .fd = h->to_fd, .events = POLLOUT };
		if (h->from_fd >= 0)
			pfd[n++] = (struct pollfd){ .fd = h->from_fd, .events = POLLIN };
		if (!n)
			return;
		idle = tag_now_ms() - h->last_activity;
		if (idle >= h->ops.timeout_ms) {
			tag_fail(h, "no answer for %.1f s (the tag timeout)",
			     h->ops.timeout_ms / 1000.0);
			return;
		}
		r = poll(pfd, n, h->poll_slice_ms && h->poll_slice_ms < h->ops.timeout_ms - idle ?
				 h->poll_slice_ms : h->ops.timeout_ms - idle);
		if (r < 0 && errno != EINTR) {
			tag_fail(h, "poll: %s", strerror(errno));
			return;
		}
	}
}
