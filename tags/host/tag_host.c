// SPDX-License-Identifier: GPL-2.0
/*
 * tag_host.c - run a tagging plugin next to the analysis (tag_host.h):
 * the public calls, the hand-back of answered events, and failure.  The
 * other files are listed in tag_host_priv.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bs_stream.h"
#include "tag_host_priv.h"

void tag_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void tag_deliver_head(struct tag_host *h, bool answered)
{
	const uint8_t *rec = h->out.buf + h->out.head;
	struct bs_trace t;
	struct tag_host_event ev = {
		.index = tag_current_index(h),
		.t = &t,
		.pdu = rec + sizeof(t),
		.user = h->users + (size_t)h->head * h->ops.user_size,
		.tags = h->cur_tags,
		.ntags = answered ? h->ncur : 0,
		.answered = answered,
	};
	size_t size;

	memcpy(&t, rec, sizeof(t));	/* the buffer has no alignment */
	size = sizeof(t) + t.pdu_len;
	h->ops.on_event(h->ops.ctx, &ev);
	tag_bytes_drop(&h->out, size);
	h->out_base += size;
	h->head = (h->head + 1) & (h->cap - 1);
	h->count--;
	h->ncur = 0;
}

/*
 * The plugin failed: hand the one error line to the sink, stop it, and hand back every
 * pending event untagged.  Later submits are handed back at once.
 */
void tag_fail(struct tag_host *h, const char *fmt, ...)
{
	va_list ap;

	if (h->failed)
		return;
	h->failed = true;
	va_start(ap, fmt);
	vsnprintf(h->err, sizeof(h->err), fmt, ap);
	va_end(ap);
	bs_msg(&h->ops.msg, BS_MSG_ERROR, "tag plugin '%s': event %llu: %s; tags are incomplete",
	       h->name, (unsigned long long)tag_current_index(h), h->err);
	tag_close_fd(&h->to_fd);
	tag_close_fd(&h->from_fd);
	tag_kill_and_reap(h);
	while (h->count)	/* every record in h->out is one of these */
		tag_deliver_head(h, false);
	h->written = h->queued;
}

static bool window_has_room(struct tag_host *h)
{
	return h->count < h->cap;
}

static bool all_written(struct tag_host *h)
{
	return h->queued == h->written;
}

/*
 * Every answer is in once the plugin closed its stdout, or, with nothing
 * left to answer, once it has exited: a process it left behind may hold
 * its stdout open forever.
 */
static bool all_answered(struct tag_host *h)
{
	if (h->eof)
		return true;
	if (h->count || !h->pid)
		return false;
	if (waitpid(h->pid, &h->exit_status, WNOHANG) != h->pid)
		return false;
	h->pid = 0;
	h->exited = true;
	return true;
}

/* ---- public -------------------------------------------------------- */

struct tag_host *tag_host_start(char *const argv[], const struct tag_host_ops *ops,
				struct bs_err *err)
{
	struct tag_host *h = calloc(1, sizeof(*h));
	struct sigaction ign = { .sa_handler = SIG_IGN };

	if (!h || !argv || !argv[0])
		goto oom;
	h->ops = *ops;
	if (!h->ops.timeout_ms)
		h->ops.timeout_ms = TAG_DEFAULT_TIMEOUT_MS;
	h->cap = 1;
	while (h->cap < (h->ops.window ? h->ops.window : TAG_DEFAULT_WINDOW))
		h->cap *= 2;
	h->to_fd = h->from_fd = h->ctl_fd = -1;
	h->name = tag_join_argv(argv);
	h->ends = malloc((size_t)h->cap * sizeof(*h->ends));
	h->users = malloc((size_t)h->cap * (h->ops.user_size ? h->ops.user_size : 1));
	if (!h->name || !h->ends || !h->users || tag_bytes_reserve(&h->in, TAG_IN_CAP) < 0)
		goto oom;
	/* a plugin that dies must show up as EPIPE, not kill us */
	sigaction(SIGPIPE, &ign, &h->old_pipe);
	if (tag_spawn(h, argv, err) < 0) {
		tag_host_free(h);
		return NULL;
	}
	h->last_activity = tag_now_ms();
	return h;
oom:
	bs_err_set(err, ENOMEM, "tag plugin: out of memory");
	if (h) {
		free(h->name);
		free(h->ends);
		free(h->users);
		free(h->in.buf);
		free(h);
	}
	return NULL;
}

int tag_host_submit(struct tag_host *h, const struct bs_trace *t, const uint8_t *pdu,
		    const void *user)
{
	uint32_t slot;
	uint8_t *dst;
	size_t size;

	if (!h->failed && !window_has_room(h))
		tag_pump_until(h, window_has_room);
	if (h->failed) {	/* hand it straight back */
		struct tag_host_event ev = {
			.index = h->next_index++, .t = t, .pdu = pdu, .user = user,
		};

		h->ops.on_event(h->ops.ctx, &ev);
		return 0;
	}
	size = sizeof(*t) + t->pdu_len;
	if (h->out.head + h->out.len + size > h->out.cap && tag_bytes_reserve(&h->out, size) < 0)
		return -1;
	dst = h->out.buf + h->out.head + h->out.len;
	memcpy(dst, t, sizeof(*t));
	if (t->pdu_len)
		memcpy(dst + sizeof(*t), pdu, t->pdu_len);
	h->out.len += size;
	slot = (h->head + h->count) & (h->cap - 1);
	h->queued += size;
	h->ends[slot] = h->queued;
	if (h->ops.user_size)
		memcpy(h->users + (size_t)slot * h->ops.user_size, user, h->ops.user_size);
	h->count++;
	h->next_index++;
	if (h->queued - h->written >= TAG_OUT_FLUSH) {
		tag_write_some(h);
		tag_read_some(h);
	}
	return 0;
}

int tag_host_finish(struct tag_host *h)
{
	char st[128];
	int status;

	if (!h->failed)
		tag_pump_until(h, all_written);
	tag_close_fd(&h->to_fd);	/* end of events: the plugin should now exit */
	h->input_closed = true;
	h->poll_slice_ms = 50;	/* all_answered() also watches the plugin exit */
	if (!h->failed)
		tag_pump_until(h, all_answered);
	if (!h->failed && !h->eof) {
		/*
		 * It exited while something else (a process it left behind)
		 * holds its stdout: take what it wrote, as at EOF.
		 */
		tag_read_some(h);
		if (!h->failed && h->in.len)
			tag_fail(h, "%zu bytes of output after the last event's END", h->in.len);
	}
	if (!h->failed && h->exited) {
		status = h->exit_status;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			tag_describe_status(status, st, sizeof(st));
			tag_fail(h, "after the last event: plugin %s", st);
		}
	} else if (!h->failed && h->pid) {
		if (!tag_reap_within(h, TAG_EXIT_GRACE_MS, &status)) {
			tag_fail(h,
				 "plugin did not exit within %d ms after its input ended; killed",
				 TAG_EXIT_GRACE_MS);
		} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			tag_describe_status(status, st, sizeof(st));
			tag_fail(h, "after the last event: plugin %s", st);
		}
	}
	tag_kill_and_reap(h);
	/* no more writes to the plugin: a closed stdout may kill us again */
	sigaction(SIGPIPE, &h->old_pipe, NULL);
	return h->failed ? -1 : 0;
}

bool tag_host_failed(const struct tag_host *h)
{
	return h->failed;
}

const char *tag_host_error(const struct tag_host *h)
{
	return h->err;
}

void tag_host_free(struct tag_host *h)
{
	if (!h)
		return;
	tag_close_fd(&h->to_fd);
	tag_close_fd(&h->from_fd);
	tag_kill_and_reap(h);
	sigaction(SIGPIPE, &h->old_pipe, NULL);
	tag_declared_free(&h->tags);
	free(h->out.buf);
	free(h->in.buf);
	free(h->ends);
	free(h->users);
	free(h->cur_tags);
	free(h->name);
	free(h);
}
