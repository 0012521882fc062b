// SPDX-License-Identifier: GPL-2.0
/*
 * tag_host.c - run a tagging plugin next to the analysis.  See tag_host.h.
 *
 * Data flow: submit() appends the record to `out`, which holds every
 * record not yet answered: written ones first, then those still to write.
 * pump_until() moves bytes both ways with non-blocking pipes; it blocks
 * in poll() only when the window of events in flight is full, or at
 * finish.  Answers are parsed as they arrive; each END pops the oldest
 * record and hands it back with the TAG_IOs that preceded the END.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bs_stream.h"
#include "tag_host.h"

extern char **environ;

#define DEFAULT_WINDOW	(64u << 10)	/* events in flight */
#define OUT_FLUSH	(64u << 10)	/* bytes queued before we try to write */
#define IN_CAP		(256u << 10)	/* answer buffer; must exceed 12 + TAG_LABEL_MAX */
#define PIPE_SIZE	(1 << 20)	/* ask the kernel for large pipes */
#define EXIT_GRACE_MS	2000		/* how long a plugin may take to exit */
#define TAG_MAX_PER_EVENT (1 << 16)	/* TAG_IOs kept for one event: a runaway plugin's limit */

/* A growable byte FIFO: data lives in buf[head, head + len). */
struct bytes {
	uint8_t *buf;
	size_t head, len, cap;
};

struct declared {
	uint32_t *keys;
	char **labels;		/* NULL = free slot */
	int *order;		/* declaration order of the tag in the slot */
	uint32_t cap, len;
};

struct tag_host {
	char *name;		/* the plugin's command line, for messages */
	pid_t pid;		/* 0 once reaped */
	int to_fd, from_fd;	/* plugin's stdin (we write), stdout (we read) */
	struct tag_host_ops ops;

	/*
	 * Every record whose END has not arrived, oldest first, as sent: the
	 * bytes up to `written` are in the pipe, the rest still to write.  One
	 * copy serves both the pipe and the hand-back.
	 */
	struct bytes out;
	uint64_t out_base;	/* stream offset of out.buf[out.head] */
	uint64_t written;	/* stream bytes written so far */
	uint64_t queued;	/* stream bytes submitted so far (out_base + out.len) */

	struct bytes in;	/* answer bytes not yet parsed */
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
	struct declared tags;
	uint32_t last_tag;	/* last tag seen in a valid TAG_IO */
	bool last_tag_valid;	/* last_tag holds a declared tag (0 is not one by default) */

	uint64_t last_activity;	/* ms, monotonic: last byte moved */
	bool failed;
	char err[512];
	struct sigaction old_pipe;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- byte FIFOs ---------------------------------------------------- */

static int bytes_reserve(struct bytes *b, size_t more)
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

static void bytes_drop(struct bytes *b, size_t len)
{
	b->head += len;
	b->len -= len;
	if (!b->len)
		b->head = 0;
}

/* ---- declared tags (open addressing on the tag number) ------------- */

static char **tag_slot(const struct declared *d, uint32_t tag)
{
	uint32_t i;

	if (!d->cap)
		return NULL;
	for (i = (tag * 2654435761u) & (d->cap - 1); d->labels[i]; i = (i + 1) & (d->cap - 1))
		if (d->keys[i] == tag)
			return &d->labels[i];
	return &d->labels[i];	/* the free slot where it would go */
}

static int tag_add(struct declared *d, uint32_t tag, char *label)
{
	char **slot;

	if ((d->len + 1) * 2 > d->cap) {
		struct declared bigger = { .cap = d->cap ? d->cap * 2 : 64 };
		uint32_t i;

		bigger.keys = calloc(bigger.cap, sizeof(*bigger.keys));
		bigger.labels = calloc(bigger.cap, sizeof(*bigger.labels));
		bigger.order = calloc(bigger.cap, sizeof(*bigger.order));
		if (!bigger.keys || !bigger.labels || !bigger.order) {
			free(bigger.keys);
			free(bigger.labels);
			free(bigger.order);
			return -1;
		}
		for (i = 0; i < d->cap; i++)
			if (d->labels[i]) {
				slot = tag_slot(&bigger, d->keys[i]);
				*slot = d->labels[i];
				bigger.keys[slot - bigger.labels] = d->keys[i];
				bigger.order[slot - bigger.labels] = d->order[i];
			}
		bigger.len = d->len;
		free(d->keys);
		free(d->labels);
		free(d->order);
		*d = bigger;
	}
	slot = tag_slot(d, tag);
	*slot = label;
	d->keys[slot - d->labels] = tag;
	d->order[slot - d->labels] = d->len;
	d->len++;
	return 0;
}

const char *tag_host_label(const struct tag_host *h, uint32_t tag)
{
	char **slot = tag_slot(&h->tags, tag);

	return slot ? *slot : NULL;
}

int tag_host_index(const struct tag_host *h, uint32_t tag)
{
	char **slot = tag_slot(&h->tags, tag);

	return slot && *slot ? h->tags.order[slot - h->tags.labels] : -1;
}

/* ---- failure ------------------------------------------------------- */

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Wait up to ms for the plugin to exit; 1 = reaped (*status), 0 = still running. */
static int reap_within(struct tag_host *h, unsigned int ms, int *status)
{
	uint64_t deadline = now_ms() + ms;

	for (;;) {
		pid_t r = waitpid(h->pid, status, WNOHANG);

		if (r == h->pid || (r < 0 && errno == ECHILD)) {
			if (r < 0)
				*status = 0;	/* reaped behind our back (SIGCHLD ignored): unknown */
			h->pid = 0;
			return 1;
		}
		if (now_ms() >= deadline)
			return 0;
		usleep(2000);
	}
}

static void kill_and_reap(struct tag_host *h)
{
	int status;

	if (!h->pid)
		return;
	kill(h->pid, SIGKILL);
	while (waitpid(h->pid, &status, 0) < 0 && errno == EINTR)
		;
	h->pid = 0;
}

/* Oldest event without its END: the one an error is about. */
static uint64_t current_index(const struct tag_host *h)
{
	return h->next_index - h->count;
}

static void deliver_head(struct tag_host *h, bool answered)
{
	const uint8_t *rec = h->out.buf + h->out.head;
	struct bs_trace t;
	struct tag_host_event ev = {
		.index = current_index(h),
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
	bytes_drop(&h->out, size);
	h->out_base += size;
	h->head = (h->head + 1) & (h->cap - 1);
	h->count--;
	h->ncur = 0;
}

/*
 * The plugin failed: print the one error line, stop it, and hand back every
 * pending event untagged.  Later submits are handed back at once.
 */
static void __attribute__((format(printf, 2, 3))) fail(struct tag_host *h, const char *fmt, ...)
{
	va_list ap;

	if (h->failed)
		return;
	h->failed = true;
	va_start(ap, fmt);
	vsnprintf(h->err, sizeof(h->err), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: tag plugin '%s': event %llu: %s; tags are incomplete\n",
		bs_progname(), h->name, (unsigned long long)current_index(h), h->err);
	close_fd(&h->to_fd);
	close_fd(&h->from_fd);
	kill_and_reap(h);
	while (h->count)	/* every record in h->out is one of these */
		deliver_head(h, false);
	h->written = h->queued;
}

/* Describe how a reaped plugin ended into buf. */
static void describe_status(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
}

/* The plugin's stdout ended (or its stdin broke) while answers were due. */
static void plugin_gone(struct tag_host *h, const char *how)
{
	char st[128];
	int status;

	close_fd(&h->to_fd);	/* a plugin blocked on reading gets EOF */
	if (reap_within(h, EXIT_GRACE_MS, &status)) {
		describe_status(status, st, sizeof(st));
		fail(h, "plugin %s before answering it (%s)", st, how);
	} else {
		fail(h, "plugin stopped answering (%s) but did not exit; killed", how);
	}
}

/* ---- answers ------------------------------------------------------- */

static uint32_t get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void on_label(struct tag_host *h, uint32_t tag, const uint8_t *label, uint32_t len)
{
	char **slot = tag_slot(&h->tags, tag);
	char *copy;

	if (slot && *slot) {
		if (strcmp(*slot, (const char *)label))
			fprintf(stderr, "%s: tag plugin '%s': event %llu: warning: tag %u declared again as '%s', keeping '%s'\n",
				bs_progname(), h->name, (unsigned long long)current_index(h), tag,
				(const char *)label, *slot);
		return;
	}
	if (h->tags.len >= TAG_MAX_TAGS) {
		fail(h, "NEW_TAG %u: more than %d tags declared", tag, TAG_MAX_TAGS);
		return;
	}
	copy = strndup((const char *)label, len);
	if (!copy || tag_add(&h->tags, tag, copy) < 0) {
		free(copy);
		fail(h, "out of memory for tag labels");
		return;
	}
	if (h->ops.on_new_tag)
		h->ops.on_new_tag(h->ops.ctx, tag, copy);
}

static int add_cur_tag(struct tag_host *h, uint32_t tag)
{
	if (h->ncur == h->cur_cap) {
		if (h->cur_cap >= TAG_MAX_PER_EVENT)
			return 1;
		int cap = h->cur_cap ? h->cur_cap * 2 : 8;
		uint32_t *p = realloc(h->cur_tags, cap * sizeof(*p));

		if (!p)
			return -1;
		h->cur_tags = p;
		h->cur_cap = cap;
	}
	h->cur_tags[h->ncur++] = tag;
	return 0;
}

/* Parse every complete answer in h->in. */
static void parse_answers(struct tag_host *h)
{
	while (!h->failed && h->in.len >= 4) {
		const uint8_t *p = h->in.buf + h->in.head;
		uint32_t type = get_u32(p), tag, len;
		size_t need;

		/* An answer is only valid once its event has been fully sent. */
		if (!h->count || h->ends[h->head] > h->written) {
			if (h->input_closed && !h->count)
				fail(h, "response (type %u) after the END of the last event", type);
			else
				fail(h, "response (type %u) for an event not sent yet: the plugin must read an event before answering it",
				     type);
			return;
		}
		switch (type) {
		case TAG_RESP_END:
			bytes_drop(&h->in, 4);
			deliver_head(h, true);
			break;
		case TAG_RESP_TAG_IO:
			if (h->in.len < 8)
				return;
			tag = get_u32(p + 4);
			/* most answers repeat the previous tag: skip the lookup then */
			if ((tag != h->last_tag || !h->last_tag_valid) && !tag_host_label(h, tag)) {
				fail(h, "TAG_IO for undeclared tag %u", tag);
				return;
			}
			h->last_tag = tag;
			h->last_tag_valid = true;
			switch (add_cur_tag(h, tag)) {
			case 0:
				break;
			case 1:
				fail(h, "more than %d TAG_IO answers for one event", TAG_MAX_PER_EVENT);
				return;
			default:
				fail(h, "out of memory");
				return;
			}
			bytes_drop(&h->in, 8);
			break;
		case TAG_RESP_NEW_TAG:
			if (h->in.len < 12)
				return;
			tag = get_u32(p + 4);
			len = get_u32(p + 8);
			if (len > TAG_LABEL_MAX) {
				fail(h, "NEW_TAG %u: label of %u bytes, over the %d-byte limit", tag, len,
				     TAG_LABEL_MAX);
				return;
			}
			if (len == 0) {
				fail(h, "NEW_TAG %u: empty label (the NUL must be counted in len)", tag);
				return;
			}
			need = 12 + (size_t)len;
			if (h->in.len < need)
				return;
			if (p[need - 1] != '\0') {
				fail(h, "NEW_TAG %u: label of %u bytes does not end with a NUL", tag, len);
				return;
			}
			on_label(h, tag, p + 12, len);
			bytes_drop(&h->in, need);
			break;
		default:
			fail(h, "unknown response type %u", type);
			return;
		}
	}
}

/* ---- moving bytes -------------------------------------------------- */

static void read_some(struct tag_host *h);

/*
 * The plugin closed its stdin (usually: it exited).  What it wrote before
 * is still in the pipe: parse it first, so that the error reported is the
 * first thing that went wrong (a bad answer, a truncated one, an exit).
 */
static void drain_after_epipe(struct tag_host *h)
{
	uint64_t deadline = now_ms() + EXIT_GRACE_MS;

	close_fd(&h->to_fd);
	while (!h->failed && h->from_fd >= 0 && now_ms() < deadline) {
		struct pollfd pfd = { .fd = h->from_fd, .events = POLLIN };

		read_some(h);
		if (h->failed || h->from_fd < 0)
			return;
		poll(&pfd, 1, deadline - now_ms());
	}
	if (!h->failed)
		plugin_gone(h, "its input pipe is closed");
}

/* Write what the pipe takes; never blocks. */
static void write_some(struct tag_host *h)
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
				plugin_gone(h, strerror(errno));
			return;
		}
		h->written += n;
		h->last_activity = now_ms();
	}
}

/* Read and parse what the plugin has written; never blocks. */
static void read_some(struct tag_host *h)
{
	while (h->from_fd >= 0 && !h->failed) {
		ssize_t n;

		if (bytes_reserve(&h->in, IN_CAP / 2) < 0) {
			fail(h, "out of memory");
			return;
		}
		n = read(h->from_fd, h->in.buf + h->in.head + h->in.len,
			 h->in.cap - h->in.head - h->in.len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				plugin_gone(h, strerror(errno));
			return;
		}
		if (n == 0) {
			close_fd(&h->from_fd);
			h->eof = true;
			if (h->in.len) {
				/* a truncated answer (or extra bytes) at the very end */
				if (!h->count)
					fail(h, "%zu bytes of output after the last event's END", h->in.len);
				else
					plugin_gone(h, "its output ends inside a response");
			} else if (h->count) {
				plugin_gone(h, "its output closed");
			}
			return;
		}
		h->in.len += n;
		h->last_activity = now_ms();
		parse_answers(h);
		if ((size_t)n < h->in.cap / 4)
			return;	/* drained: the pipe had less than we offered */
	}
}

/*
 * Move bytes until done(h) holds, blocking in poll() meanwhile.  The
 * timeout counts from the last byte moved in either direction.
 */
static void pump_until(struct tag_host *h, bool (*done)(struct tag_host *))
{
	for (;;) {
		struct pollfd pfd[2];
		int n = 0, r;
		uint64_t idle;

		write_some(h);
		read_some(h);
		if (h->failed || done(h))
			return;
		if (h->queued > h->written && h->to_fd >= 0)
			pfd[n++] = (struct pollfd){ .fd = h->to_fd, .events = POLLOUT };
		if (h->from_fd >= 0)
			pfd[n++] = (struct pollfd){ .fd = h->from_fd, .events = POLLIN };
		if (!n)
			return;
		idle = now_ms() - h->last_activity;
		if (idle >= h->ops.timeout_ms) {
			fail(h, "no answer for %.1f s (the tag timeout)",
			     h->ops.timeout_ms / 1000.0);
			return;
		}
		r = poll(pfd, n, h->poll_slice_ms && h->poll_slice_ms < h->ops.timeout_ms - idle ?
				 h->poll_slice_ms : h->ops.timeout_ms - idle);
		if (r < 0 && errno != EINTR) {
			fail(h, "poll: %s", strerror(errno));
			return;
		}
	}
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

static char *join_argv(char *const argv[])
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (i = 0; argv[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

static int spawn_plugin(struct tag_host *h, char *const argv[])
{
	int in_pipe[2] = { -1, -1 }, out_pipe[2] = { -1, -1 };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t def, none;
	int err;

	if (pipe2(in_pipe, O_CLOEXEC) < 0 || pipe2(out_pipe, O_CLOEXEC) < 0) {
		err = errno;
		goto fail_pipes;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in_pipe[0], STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, out_pipe[1], STDOUT_FILENO);
	posix_spawnattr_init(&attr);
	/* we ignore SIGPIPE; the plugin must get the default back */
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigemptyset(&none);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	err = posix_spawnp(&h->pid, argv[0], &fa, &attr, argv, environ);
	if (err == ENOENT && !strchr(argv[0], '/')) {
		/* not in PATH: the plugins installed next to our own binary */
		char self[4096], path[8192];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (n > 0) {
			self[n] = '\0';
			*strrchr(self, '/') = '\0';
			snprintf(path, sizeof(path), "%s/%s", self, argv[0]);
			if (access(path, X_OK) == 0)
				err = posix_spawn(&h->pid, path, &fa, &attr, argv, environ);
		}
	}
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(in_pipe[0]);
	close(out_pipe[1]);
	if (err) {
		h->pid = 0;
		close(in_pipe[1]);
		close(out_pipe[0]);
		goto fail_msg;
	}
	h->to_fd = in_pipe[1];
	h->from_fd = out_pipe[0];
	fcntl(h->to_fd, F_SETPIPE_SZ, PIPE_SIZE);	/* best effort */
	fcntl(h->from_fd, F_SETPIPE_SZ, PIPE_SIZE);
	fcntl(h->to_fd, F_SETFL, O_NONBLOCK);
	fcntl(h->from_fd, F_SETFL, O_NONBLOCK);
	return 0;

fail_pipes:
	if (in_pipe[0] >= 0) {
		close(in_pipe[0]);
		close(in_pipe[1]);
	}
fail_msg:
	fprintf(stderr, "%s: tag plugin '%s': cannot start: %s\n", bs_progname(), h->name, strerror(err));
	return -1;
}

struct tag_host *tag_host_start(char *const argv[], const struct tag_host_ops *ops)
{
	struct tag_host *h = calloc(1, sizeof(*h));
	struct sigaction ign = { .sa_handler = SIG_IGN };

	if (!h || !argv || !argv[0])
		goto oom;
	h->ops = *ops;
	if (!h->ops.timeout_ms)
		h->ops.timeout_ms = TAG_DEFAULT_TIMEOUT_MS;
	h->cap = 1;
	while (h->cap < (h->ops.window ? h->ops.window : DEFAULT_WINDOW))
		h->cap *= 2;
	h->to_fd = h->from_fd = -1;
	h->name = join_argv(argv);
	h->ends = malloc((size_t)h->cap * sizeof(*h->ends));
	h->users = malloc((size_t)h->cap * (h->ops.user_size ? h->ops.user_size : 1));
	if (!h->name || !h->ends || !h->users || bytes_reserve(&h->in, IN_CAP) < 0)
		goto oom;
	/* a plugin that dies must show up as EPIPE, not kill us */
	sigaction(SIGPIPE, &ign, &h->old_pipe);
	if (spawn_plugin(h, argv) < 0) {
		tag_host_free(h);
		return NULL;
	}
	h->last_activity = now_ms();
	return h;
oom:
	fprintf(stderr, "%s: tag plugin: out of memory\n", bs_progname());
	if (h) {
		free(h->name);
		free(h->ends);
		free(h->users);
		free(h->in.buf);
		free(h);
	}
	return NULL;
}

int tag_host_submit(struct tag_host *h, const struct bs_trace *t, const uint8_t *pdu, const void *user)
{
	uint32_t slot;
	uint8_t *dst;
	size_t size;

	if (!h->failed && !window_has_room(h))
		pump_until(h, window_has_room);
	if (h->failed) {	/* hand it straight back */
		struct tag_host_event ev = {
			.index = h->next_index++, .t = t, .pdu = pdu, .user = user,
		};

		h->ops.on_event(h->ops.ctx, &ev);
		return 0;
	}
	size = sizeof(*t) + t->pdu_len;
	if (h->out.head + h->out.len + size > h->out.cap && bytes_reserve(&h->out, size) < 0)
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
	if (h->queued - h->written >= OUT_FLUSH) {
		write_some(h);
		read_some(h);
	}
	return 0;
}

int tag_host_finish(struct tag_host *h)
{
	char st[128];
	int status;

	if (!h->failed)
		pump_until(h, all_written);
	close_fd(&h->to_fd);	/* end of events: the plugin should now exit */
	h->input_closed = true;
	h->poll_slice_ms = 50;	/* all_answered() also watches the plugin exit */
	if (!h->failed)
		pump_until(h, all_answered);
	if (!h->failed && !h->eof) {
		/*
		 * It exited while something else (a process it left behind)
		 * holds its stdout: take what it wrote, as at EOF.
		 */
		read_some(h);
		if (!h->failed && h->in.len)
			fail(h, "%zu bytes of output after the last event's END", h->in.len);
	}
	if (!h->failed && h->exited) {
		status = h->exit_status;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			describe_status(status, st, sizeof(st));
			fail(h, "after the last event: plugin %s", st);
		}
	} else if (!h->failed && h->pid) {
		if (!reap_within(h, EXIT_GRACE_MS, &status)) {
			fail(h, "plugin did not exit within %d ms after its input ended; killed",
			     EXIT_GRACE_MS);
		} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			describe_status(status, st, sizeof(st));
			fail(h, "after the last event: plugin %s", st);
		}
	}
	kill_and_reap(h);
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
	uint32_t i;

	if (!h)
		return;
	close_fd(&h->to_fd);
	close_fd(&h->from_fd);
	kill_and_reap(h);
	sigaction(SIGPIPE, &h->old_pipe, NULL);
	for (i = 0; i < h->tags.cap; i++)
		free(h->tags.labels[i]);
	free(h->tags.keys);
	free(h->tags.labels);
	free(h->tags.order);
	free(h->out.buf);
	free(h->in.buf);
	free(h->ends);
	free(h->users);
	free(h->cur_tags);
	free(h->name);
	free(h);
}

/* ---- --tag-plugin command lines ------------------------------------- */

void tag_argv_free(char **argv)
{
	char **p;

	if (!argv)
		return;
	for (p = argv; *p; p++)
		free(*p);
	free(argv);
}

char **tag_split_argv(const char *cmd, char *err, size_t errlen)
{
	size_t n = strlen(cmd);
	char **argv = calloc(n / 2 + 2, sizeof(*argv));	/* at most this many words */
	char *word = malloc(n + 1);
	int argc = 0;
	const char *p = cmd;

	if (!argv || !word) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (;;) {
		size_t len = 0;
		bool in_word = false;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			in_word = true;
			if (*p == '\'') {
				const char *q = strchr(p + 1, '\'');

				if (!q) {
					snprintf(err, errlen, "unterminated ' quote");
					goto fail;
				}
				memcpy(word + len, p + 1, q - p - 1);
				len += q - p - 1;
				p = q + 1;
			} else if (*p == '"') {
				for (p++; *p != '"'; p++) {
					if (!*p) {
						snprintf(err, errlen, "unterminated \" quote");
						goto fail;
					}
					if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
						p++;
					word[len++] = *p;
				}
				p++;
			} else if (*p == '\\') {
				if (!p[1]) {
					snprintf(err, errlen, "trailing backslash");
					goto fail;
				}
				word[len++] = p[1];
				p += 2;
			} else {
				word[len++] = *p++;
			}
		}
		if (in_word) {
			argv[argc] = strndup(word, len);
			if (!argv[argc++]) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
		}
	}
	if (!argc) {
		snprintf(err, errlen, "empty plugin command");
		goto fail;
	}
	free(word);
	return argv;
fail:
	free(word);
	tag_argv_free(argv);
	return NULL;
}
