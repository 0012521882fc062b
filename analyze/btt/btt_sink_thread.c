// SPDX-License-Identifier: GPL-2.0
/*
 * btt_sink_thread.c - the engine's samples filed by a second thread.
 *
 * Filing a sample in the reports (slices, percentiles, time series) is
 * a fifth to a quarter of an analysis, and a report sink reads nothing
 * but its samples.  So when every sink says so (bs_sample_sink.own_state)
 * and none wants raw events, the engine writes its samples straight into
 * batches (bt_sink_thread_slot) that a worker thread passes, in the
 * engine's order, to the real sinks.  One consumer in the same order:
 * the reports come out byte for byte as when filed inline, while the
 * engine goes on with the next events on the other CPU.
 *
 * Memory stays bounded: ST_NBATCH batches of ST_BATCH samples; the engine
 * waits when the worker is that far behind.  Batches are large because
 * the worker, faster than the engine, catches up and sleeps: each wake-up
 * costs the engine a system call (256-sample batches cost 0.2 s of system
 * time on 11M events; docs/analyze.md).  The sinks' finish() runs on
 * the engine's thread after the worker is joined, so what the worker
 * wrote is visible to the report writers that follow.
 */
#include <stdlib.h>
#include <string.h>
#include "bs_pipe.h"
#include "btt_internal.h"

#define ST_BATCH 2048	/* samples a hand-over: the worker is woken (a system call) rarely */
#define ST_NBATCH 4	/* batches in flight: 1.4 MiB */

struct st_sample {
	struct bs_io_sample s;
	char comm[BT_PROC_NAME_LEN];	/* s.comm points here: the engine's names move */
};

struct bt_sink_thread {
	struct bs_sample_sink sinks[BT_MAX_SINKS];	/* the real ones, filed by the worker */
	int nsinks;
	struct bs_pipe pipe;		/* struct st_sample records */
	bool running;
	pthread_t th;
};

static void file_batch(struct bt_sink_thread *st, const unsigned char *b, size_t len)
{
	const struct st_sample *v = (const struct st_sample *)b;
	size_t i, n = len / sizeof(*v);
	int k;

	for (i = 0; i < n; i++)
		for (k = 0; k < st->nsinks; k++)
			st->sinks[k].io_done(st->sinks[k].ctx, &v[i].s);
}

static void *worker(void *arg)
{
	struct bt_sink_thread *st = arg;
	const unsigned char *b;
	size_t len;

	while ((b = bs_pipe_get(&st->pipe, &len))) {
		file_batch(st, b, len);
		bs_pipe_release(&st->pipe);
	}
	return NULL;
}

struct bs_io_sample *bt_sink_thread_slot(struct bt_sink_thread *st, char **comm)
{
	struct st_sample *slot = bs_pipe_reserve(&st->pipe, sizeof(*slot));

	*comm = slot->comm;
	return &slot->s;
}

/* A sample from the sample engine (btt_samples.c), which has no slots of its own. */
static void on_io(void *ctx, const struct bs_io_sample *s)
{
	struct bt_sink_thread *st = ctx;
	char *comm;
	struct bs_io_sample *slot = bt_sink_thread_slot(st, &comm);

	*slot = *s;
	if (s->comm) {
		size_t n = strnlen(s->comm, BT_PROC_NAME_LEN - 1);

		memcpy(comm, s->comm, n);
		comm[n] = '\0';
		slot->comm = comm;
	}
}

/* Stop the worker: after it filed everything, or at once (abandon). */
static void stop(struct bt_sink_thread *st, bool abandon)
{
	if (!st->running)
		return;
	if (abandon)
		bs_pipe_abandon(&st->pipe);
	else
		bs_pipe_end(&st->pipe);
	pthread_join(st->th, NULL);
	st->running = false;
}

static void on_finish(void *ctx, uint64_t end_time)
{
	struct bt_sink_thread *st = ctx;
	int k;

	stop(st, false);
	for (k = 0; k < st->nsinks; k++)
		if (st->sinks[k].finish)
			st->sinks[k].finish(st->sinks[k].ctx, end_time);
}

int bt_engine_thread_sinks(struct bt_engine *e)
{
	struct bs_sample_sink one = { .io_done = on_io, .finish = on_finish };
	struct bt_sink_thread *st;
	int i;

	if (!e->nsinks || e->event_sinks || e->sink_thread || !bs_pipe_second_cpu())
		return -1;
	for (i = 0; i < e->nsinks; i++)
		if (!e->sinks[i].own_state || !e->sinks[i].io_done)
			return -1;
	st = bs_xcalloc(1, sizeof(*st));
	if (bs_pipe_init(&st->pipe, ST_BATCH * sizeof(struct st_sample), ST_NBATCH)) {
		free(st);
		return -1;
	}
	if (bs_pipe_thread(&st->th, worker, st)) {	/* no thread: the samples stay inline */
		bt_sink_thread_free(st);
		return -1;
	}
	st->running = true;
	memcpy(st->sinks, e->sinks, sizeof(e->sinks));
	st->nsinks = e->nsinks;
	one.ctx = st;
	e->sinks[0] = one;
	e->nsinks = 1;
	e->sink_thread = st;
	return 0;
}

void bt_engine_stop_sink_thread(struct bt_engine *e)
{
	if (e && e->sink_thread)
		stop(e->sink_thread, true);
}

void bt_sink_thread_free(struct bt_sink_thread *st)
{
	if (!st)
		return;
	stop(st, true);
	bs_pipe_destroy(&st->pipe);
	free(st);
}
