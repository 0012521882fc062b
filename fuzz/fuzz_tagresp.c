// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_tagresp.c - libFuzzer target for the tagging-plugin response parser
 * (tags/host/tag_answer.c and the read/write pump around it, tag_pump.c).
 *
 * The parser is normally fed by a spawned plugin; spawning per input would
 * be far too slow, so this harness builds the host by hand through the
 * host's internal header (tags/host/tag_host_priv.h): the plugin's stdin is /dev/null (every write
 * succeeds at once) and its stdout is a pipe preloaded with the fuzz input
 * and already closed at the far end.  Events are then submitted and
 * finished through the public API, exactly as analysis_tags.c does, so the
 * answers meet the real window / written-bytes bookkeeping.
 *
 * Input: byte 0 = events to submit (1..64), byte 1 = window (1..16),
 * byte 2 = PDU length of each event (0..31), the rest = plugin output.
 * The callbacks check the host's promises (in-order indexes, only declared
 * tags handed back, every event handed back exactly once) and abort if one
 * is broken.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_stream.h"
#include "../tags/host/tag_host_priv.h"

static uint64_t next_expected;
static uint64_t submitted;
static struct tag_host *cur;

static void on_event(void *ctx, const struct tag_host_event *ev)
{
	if (ev->index != next_expected)
		abort();
	next_expected++;
	if (!ev->answered && ev->ntags)
		abort();
	for (int i = 0; i < ev->ntags; i++)
		if (!tag_host_label(cur, ev->tags[i]))
			abort();
	if (ev->t->pdu_len > 31 || *(const uint32_t *)ev->user != (uint32_t)ev->index)
		abort();
}

static void on_new_tag(void *ctx, uint32_t tag, const char *label)
{
	if (strlen(label) >= TAG_LABEL_MAX)
		abort();
}

/* tag_host_start without the spawn: pipes we own stand in for the plugin */
static struct tag_host *fake_start(const uint8_t *answers, size_t len, unsigned int window)
{
	static const struct tag_host_ops ops = {
		.on_event = on_event, .on_new_tag = on_new_tag,
		.user_size = sizeof(uint32_t), .timeout_ms = 50,
	};
	struct sigaction ign = { .sa_handler = SIG_IGN };
	struct tag_host *h = calloc(1, sizeof(*h));
	int p[2];

	if (!h)
		abort();
	h->ops = ops;
	h->ops.window = window;
	h->cap = 1;
	while (h->cap < window)
		h->cap *= 2;
	h->name = strdup("fuzz-plugin");
	h->ends = malloc((size_t)h->cap * sizeof(*h->ends));
	h->users = malloc((size_t)h->cap * h->ops.user_size);
	if (!h->name || !h->ends || !h->users || tag_bytes_reserve(&h->in, TAG_IN_CAP) < 0)
		abort();
	sigaction(SIGPIPE, &ign, &h->old_pipe);
	h->to_fd = open("/dev/null", O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (h->to_fd < 0 || pipe2(p, O_CLOEXEC) < 0)
		abort();
	fcntl(p[1], F_SETPIPE_SZ, TAG_PIPE_SIZE);
	if (len && write(p[1], answers, len) != (ssize_t)len)
		abort();
	close(p[1]);
	h->from_fd = p[0];
	fcntl(h->from_fd, F_SETFL, O_NONBLOCK);
	h->pid = 0;	/* nothing to reap or kill */
	h->ctl_fd = -1;
	h->last_activity = tag_now_ms();
	return h;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	bs_set_progname("fuzz_tagresp");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int nev, window, pdu_len;
	uint8_t pdu[32] = { 0 };

	if (size < 3 || size > 60000)	/* the answers must fit the pipe */
		return 0;
	nev = data[0] % 64 + 1;
	window = data[1] % 16 + 1;
	pdu_len = data[2] % 32;
	next_expected = submitted = 0;
	cur = fake_start(data + 3, size - 3, window);
	for (uint32_t i = 0; i < nev; i++) {
		struct bs_trace t = {
			.magic = BS_TRACE_MAGIC | BS_TRACE_VERSION, .sequence = i,
			.time = 1000 * i, .sector = 8 * i, .bytes = 4096,
			.action = BS_TA_QUEUE | BS_TC_ACT(BS_TC_READ), .pid = 100 + i % 3,
			.device = 7u << 20, .pdu_len = (uint16_t)pdu_len,
		};

		if (tag_host_submit(cur, &t, pdu, &i) < 0)
			abort();
		submitted++;
	}
	tag_host_finish(cur);
	if (next_expected != submitted)	/* every event handed back once */
		abort();
	tag_host_free(cur);
	cur = NULL;
	return 0;
}
