// SPDX-License-Identifier: GPL-2.0
/*
 * btt_seek_folder.c - the thread that folds full seek logs (btt_seek_folder.h).
 *
 * Each table has two log buffers: the engine fills one while the folder
 * sorts the other into the table's distinct values.  A table is in the
 * queue at most once (its folding flag), so the queue is a list through
 * the tables themselves and needs no memory of its own.  The engine
 * touches a table's values only after btt_seek_folder_drain(), or reads
 * their number when the table's last fold is done, under the lock the
 * folder released them with.  Folds are rare (a few dozen in 10M events),
 * so one lock and two conditions are all the traffic there is.
 */
#include <pthread.h>
#include <stdlib.h>
#include "bs_alloc.h"
#include "bs_pipe.h"
#include "btt_seek_folder.h"

struct btt_seek_folder {
	pthread_mutex_t mu;
	pthread_cond_t work, done;	/* a log queued; a fold finished */
	struct btt_seek *head, *tail;	/* logs handed over, oldest first */
	size_t in_flight;		/* queued or being folded */
	bool stopping;
	struct btt_seek_scratch scratch;	/* the folder's sort buffer */
	pthread_t th;
};

static struct btt_seek *next_log(struct btt_seek_folder *f)
{
	struct btt_seek *s;

	while (!f->head && !f->stopping)
		pthread_cond_wait(&f->work, &f->mu);
	s = f->head;
	if (s) {
		f->head = s->fold_next;
		if (!f->head)
			f->tail = NULL;
	}
	return s;
}

static void *folder_main(void *arg)
{
	struct btt_seek_folder *f = arg;
	struct btt_seek *s;

	pthread_mutex_lock(&f->mu);
	while ((s = next_log(f))) {
		bool skip = f->stopping;	/* freed: nobody reads the values */

		pthread_mutex_unlock(&f->mu);
		if (!skip)
			btt_seek_fold(s, s->spare, s->nspare, &f->scratch);
		pthread_mutex_lock(&f->mu);
		s->folding = false;
		f->in_flight--;
		pthread_cond_broadcast(&f->done);
	}
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

struct btt_seek_folder *btt_seek_folder_new(void)
{
	struct btt_seek_folder *f;

	if (!bs_pipe_second_cpu())
		return NULL;
	f = bs_xcalloc(1, sizeof(*f));
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->work, NULL);
	pthread_cond_init(&f->done, NULL);
	/*
	 * A fold is a burst of ~10 ms.  Left to itself it takes the second
	 * CPU from the reader and the sink thread and the engine waits for
	 * events and for room; at SCHED_IDLE it gives way to them but starves
	 * behind any other busy process (the engine then waits for folds that
	 * never run).  Yielding the CPU every few thousand entries gives way
	 * as well and competes as an equal with other processes
	 * (docs/analyze.md, "Measurements").
	 */
	f->scratch.yield = true;
	if (bs_pipe_thread(&f->th, folder_main, f)) {
		pthread_cond_destroy(&f->done);
		pthread_cond_destroy(&f->work);
		pthread_mutex_destroy(&f->mu);
		free(f);
		return NULL;
	}
	return f;
}

void btt_seek_folder_free(struct btt_seek_folder *f)
{
	if (!f)
		return;
	pthread_mutex_lock(&f->mu);
	f->stopping = true;
	pthread_cond_signal(&f->work);
	pthread_mutex_unlock(&f->mu);
	pthread_join(f->th, NULL);
	pthread_cond_destroy(&f->done);
	pthread_cond_destroy(&f->work);
	pthread_mutex_destroy(&f->mu);
	free(f->scratch.v);
	free(f);
}

void btt_seek_folder_hand_over(struct btt_seek_folder *f, struct btt_seek *s)
{
	struct btt_seek_val *next;
	size_t cap, next_alloc;

	pthread_mutex_lock(&f->mu);
	while (s->folding)
		pthread_cond_wait(&f->done, &f->mu);
	cap = btt_seek_next_log_cap(s);	/* reads the values: the last fold is done */
	next = s->spare;
	next_alloc = s->spare_cap;
	s->spare = s->log;
	s->spare_cap = s->log_cap;
	s->nspare = s->nlog;
	s->folding = true;
	s->fold_next = NULL;
	if (f->tail)
		f->tail->fold_next = s;
	else
		f->head = s;
	f->tail = s;
	f->in_flight++;
	pthread_cond_signal(&f->work);
	pthread_mutex_unlock(&f->mu);

	/*
	 * Grown, not freed and allocated anew, though nothing in it is kept:
	 * glibc maps a buffer this size on its own, and a fresh one faults in every
	 * page again as the engine fills it (the logs grow at most folds).  With
	 * realloc the pages stay and only the growth is new (as for the
	 * folder's sort buffer, btt_seek_fold()): fewer page faults for a
	 * slightly higher peak (docs/analyze.md, "Measurements").
	 */
	if (next_alloc < cap)
		next = bs_xreallocarray(next, cap, sizeof(*next));
	s->log = next;
	s->log_cap = cap;
	s->nlog = 0;
}

void btt_seek_folder_drain(struct btt_seek_folder *f)
{
	pthread_mutex_lock(&f->mu);
	while (f->in_flight)
		pthread_cond_wait(&f->done, &f->mu);
	pthread_mutex_unlock(&f->mu);
}
