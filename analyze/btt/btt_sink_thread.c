// SPDX-License-Identifier: GPL-2.0
/*
 * btt_sink_thread.c - the engine's samples filed by a second thread.
 *
 * Filing a sample in the reports (slices, percentiles, time series) is
 * a fifth to a quarter of an analysis, and a report sink reads nothing
 * but its samples.  So when every sink says so (bs_sample_sink.own_state) and none
 * wants raw events, the engine hands its samples to one sink of ours
 * instead: it copies them into batches that a worker thread passes, in
 * the engine's order, to the real sinks.  One consumer in the same order:
 * the reports come out byte for byte as when filed inline, while the
 * engine goes on with the next events on the other CPU.
 *
 * Memory stays bounded: ST_NBATCH batches of ST_BATCH samples; the engine
 * waits when the worker is that far behind.  Batches are large because
 * the worker, faster than the engine, catches up and sleeps: each wake-up
 * costs the engine a system call (256-sample batches cost 0.2 s of system
 * time on 11M events; docs/performance.md).  The sinks' finish() runs on
 * the engine's thread after the worker is joined, so what the worker
 * wrote is visible to the report writers that follow.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "btt_internal.h"

#define ST_BATCH 2048	/* samples a hand-over: the worker is woken (a system call) rarely */
#define ST_NBATCH 4	/* batches in flight: 1.4 MiB */

struct st_sample {
	struct bs_io_sample s;
	char comm[BT_PROC_NAME_LEN];	/* s.comm points here: the engine's names move */
};

struct st_batch {
	struct st_sample v[ST_BATCH];
	int n;
};

struct bt_sink_thread {
	struct bs_sample_sink sinks[BT_MAX_SINKS];	/* the real ones, filed by the worker */
	int nsinks;
	struct st_batch *batch;		/* ST_NBATCH of them, used in turn */
	struct st_batch *fill;		/* the one the engine fills: batch[head % ST_NBATCH] */
	/* under mu: batches handed over and batches filed (they wrap) */
	unsigned int head, tail;
	bool ending;			/* no more batches: the worker drains and stops */
	bool abandon;			/* the run failed: stop without filing */
	bool running;
	pthread_mutex_t mu;
	pthread_cond_t ready, room;
	pthread_t th;
};

static void file_batch(struct bt_sink_thread *st, const struct st_batch *b)
{
	int i, k;

	for (i = 0; i < b->n; i++)
		for (k = 0; k < st->nsinks; k++)
			st->sinks[k].io_done(st->sinks[k].ctx, &b->v[i].s);
}

static void *worker(void *arg)
{
	struct bt_sink_thread *st = arg;

	pthread_mutex_lock(&st->mu);
	for (;;) {
		while (st->tail == st->head && !st->ending && !st->abandon)
			pthread_cond_wait(&st->ready, &st->mu);
		if (st->abandon || st->tail == st->head)
			break;
		pthread_mutex_unlock(&st->mu);
		file_batch(st, &st->batch[st->tail % ST_NBATCH]);
		pthread_mutex_lock(&st->mu);
		st->tail++;
		pthread_cond_signal(&st->room);
	}
	pthread_mutex_unlock(&st->mu);
	return NULL;
}

/* The filled batch to the worker; the next one once the worker has freed it. */
static void hand_over(struct bt_sink_thread *st)
{
	pthread_mutex_lock(&st->mu);
	st->head++;
	pthread_cond_signal(&st->ready);
	while (st->head - st->tail == ST_NBATCH)
		pthread_cond_wait(&st->room, &st->mu);
	pthread_mutex_unlock(&st->mu);
	st->fill = &st->batch[st->head % ST_NBATCH];
	st->fill->n = 0;
}

struct bs_io_sample *bt_sink_thread_slot(struct bt_sink_thread *st, char **comm)
{
	struct st_sample *slot = &st->fill->v[st->fill->n];

	*comm = slot->comm;
	return &slot->s;
}

void bt_sink_thread_put(struct bt_sink_thread *st)
{
	if (++st->fill->n == ST_BATCH)
		hand_over(st);
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
	bt_sink_thread_put(st);
}

/* Stop the worker (after it filed everything, unless abandoning). */
static void stop(struct bt_sink_thread *st, bool abandon)
{
	if (!st->running)
		return;
	pthread_mutex_lock(&st->mu);
	if (!abandon && st->fill->n)
		st->head++;	/* the last, partial batch */
	st->ending = true;
	st->abandon = abandon;
	pthread_cond_signal(&st->ready);
	pthread_mutex_unlock(&st->mu);
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

static int start_worker(struct bt_sink_thread *st)
{
	sigset_t all, old;
	int rc;

	/* signals stay with the main thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&st->th, NULL, worker, st);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int bt_engine_thread_sinks(struct bt_engine *e)
{
	struct bs_sample_sink one = { .io_done = on_io, .finish = on_finish };
	struct bt_sink_thread *st;
	int i;

	if (!e->nsinks || e->event_sinks || e->sink_thread || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return -1;
	for (i = 0; i < e->nsinks; i++)
		if (!e->sinks[i].own_state || !e->sinks[i].io_done)
			return -1;
	st = bs_xcalloc(1, sizeof(*st));
	st->batch = bs_xcalloc(ST_NBATCH, sizeof(*st->batch));
	st->fill = &st->batch[0];
	pthread_mutex_init(&st->mu, NULL);
	pthread_cond_init(&st->ready, NULL);
	pthread_cond_init(&st->room, NULL);
	if (start_worker(st)) {	/* no thread: the samples stay inline */
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

void bt_sink_thread_free(struct bt_sink_thread *st)
{
	if (!st)
		return;
	stop(st, true);
	pthread_cond_destroy(&st->room);
	pthread_cond_destroy(&st->ready);
	pthread_mutex_destroy(&st->mu);
	free(st->batch);
	free(st);
}
