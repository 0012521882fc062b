// SPDX-License-Identifier: GPL-2.0
/*
 * bs_pipe.c - the batch hand-over between two threads (bs_pipe.h).
 */
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include "bs_pipe.h"

int bs_pipe_init(struct bs_pipe *p, size_t batch_bytes, unsigned int nbatch)
{
	p->mem = malloc(batch_bytes * nbatch);
	p->used = calloc(nbatch, sizeof(*p->used));
	if (!p->mem || !p->used) {
		free(p->mem);
		free(p->used);
		return -1;
	}
	p->batch_bytes = batch_bytes;
	p->nbatch = nbatch;
	p->fill = p->mem;
	p->fill_used = 0;
	p->head = p->tail = p->mid = 0;
	p->chained = false;
	p->ended = p->abandoned = false;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->ready, NULL);
	pthread_cond_init(&p->room, NULL);
	pthread_cond_init(&p->ready2, NULL);
	return 0;
}

void bs_pipe_destroy(struct bs_pipe *p)
{
	pthread_cond_destroy(&p->ready2);
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->ready);
	pthread_mutex_destroy(&p->mu);
	free(p->mem);
	free(p->used);
	p->mem = NULL;
	p->used = NULL;
}

void bs_pipe_hand_over(struct bs_pipe *p)
{
	pthread_mutex_lock(&p->mu);
	if (!p->abandoned) {
		p->used[p->head % p->nbatch] = p->fill_used;
		p->head++;
		pthread_cond_signal(&p->ready);
		while (p->head - p->tail == p->nbatch && !p->abandoned)
			pthread_cond_wait(&p->room, &p->mu);
	}
	/* abandoned: the records are dropped, the same batch is filled again */
	if (!p->abandoned)
		p->fill = p->mem + (size_t)(p->head % p->nbatch) * p->batch_bytes;
	pthread_mutex_unlock(&p->mu);
	p->fill_used = 0;
}

void bs_pipe_end(struct bs_pipe *p)
{
	if (p->fill_used)
		bs_pipe_hand_over(p);
	pthread_mutex_lock(&p->mu);
	p->ended = true;
	pthread_cond_signal(&p->ready);
	pthread_cond_signal(&p->ready2);
	pthread_mutex_unlock(&p->mu);
}

void bs_pipe_abandon(struct bs_pipe *p)
{
	pthread_mutex_lock(&p->mu);
	__atomic_store_n(&p->abandoned, true, __ATOMIC_RELAXED);	/* read without the lock */
	pthread_cond_broadcast(&p->ready);
	pthread_cond_broadcast(&p->ready2);
	pthread_cond_broadcast(&p->room);
	pthread_mutex_unlock(&p->mu);
}

bool bs_pipe_abandoned(struct bs_pipe *p)
{
	/* a producer asks once a record: no lock (the consumer's stop reaches it soon enough) */
	return __atomic_load_n(&p->abandoned, __ATOMIC_RELAXED);
}

const unsigned char *bs_pipe_get(struct bs_pipe *p, size_t *len)
{
	const unsigned char *b = NULL;
	unsigned int at;

	pthread_mutex_lock(&p->mu);
	while ((p->chained ? p->mid : p->tail) == p->head && !p->ended && !p->abandoned)
		pthread_cond_wait(&p->ready, &p->mu);
	at = p->chained ? p->mid : p->tail;
	if (!p->abandoned && at != p->head) {
		b = p->mem + (size_t)(at % p->nbatch) * p->batch_bytes;
		*len = p->used[at % p->nbatch];
	}
	pthread_mutex_unlock(&p->mu);
	return b;
}

void bs_pipe_release(struct bs_pipe *p)
{
	pthread_mutex_lock(&p->mu);
	if (p->chained) {
		p->mid++;
		pthread_cond_signal(&p->ready2);
	} else {
		p->tail++;
		pthread_cond_signal(&p->room);
	}
	pthread_mutex_unlock(&p->mu);
}

void bs_pipe_chain(struct bs_pipe *p)
{
	p->chained = true;
}

const unsigned char *bs_pipe_get_second(struct bs_pipe *p, size_t *len)
{
	const unsigned char *b = NULL;

	pthread_mutex_lock(&p->mu);
	/* the end: handed over, and every batch through the first consumer */
	while (p->tail == p->mid && !(p->ended && p->mid == p->head) && !p->abandoned)
		pthread_cond_wait(&p->ready2, &p->mu);
	if (!p->abandoned && p->tail != p->mid) {
		b = p->mem + (size_t)(p->tail % p->nbatch) * p->batch_bytes;
		*len = p->used[p->tail % p->nbatch];
	}
	pthread_mutex_unlock(&p->mu);
	return b;
}

void bs_pipe_release_second(struct bs_pipe *p)
{
	pthread_mutex_lock(&p->mu);
	p->tail++;
	pthread_cond_signal(&p->room);
	pthread_mutex_unlock(&p->mu);
}

bool bs_pipe_pending(struct bs_pipe *p)
{
	bool pending;

	pthread_mutex_lock(&p->mu);
	pending = p->head != (p->chained ? p->mid : p->tail);
	pthread_mutex_unlock(&p->mu);
	return pending;
}

bool bs_pipe_second_cpu(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

struct helper_start {
	void *(*fn)(void *);
	void *arg;
};

/*
 * A helper runs at SCHED_BATCH: same share of the CPU, but its wake-up
 * does not preempt the running thread.  At SCHED_OTHER the engine that
 * handed a batch over was often preempted right there by the helper it
 * woke, on its own CPU (perf sched_switch: three quarters of its
 * switches; docs/format.md, "Measurements").  No privilege is needed; if
 * it fails the helper runs as before.
 */
static void *helper_main(void *p)
{
	struct helper_start st = *(struct helper_start *)p;
	struct sched_param none = { 0 };

	free(p);
	(void)sched_setscheduler(0, SCHED_BATCH, &none);
	return st.fn(st.arg);
}

int bs_pipe_thread(pthread_t *th, void *(*fn)(void *), void *arg)
{
	struct helper_start *st = malloc(sizeof(*st));
	sigset_t all, old;
	int rc;

	if (!st)
		return -1;
	st->fn = fn;
	st->arg = arg;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(th, NULL, helper_main, st);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		free(st);
	return rc;
}
