// SPDX-License-Identifier: GPL-2.0
/*
 * bs_readahead.c - the read-ahead thread (bs_readahead.h).
 *
 * Requests are rare (one per chunk of a stream: about five hundred for a
 * 10M-event trace), so one lock and two conditions are all it needs.  A
 * request is taken out of the queue by whoever reads it: the thread, a
 * serving caller, or the stream itself when it needs the chunk first.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "bs_pipe.h"
#include "bs_readahead.h"

struct bs_readahead {
	pthread_mutex_t mu;
	pthread_cond_t work, done;	/* a request queued; a request read */
	struct bs_readahead_req *head, *tail;
	bool threaded;			/* a thread of its own serves the queue */
	bool stopping;
	pthread_t th;
};

ssize_t bs_read_full(int fd, uint8_t *p, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static void read_chunk(struct bs_readahead_req *r)
{
	r->got = bs_read_full(r->fd, r->dst, r->len);
	if (r->got < 0)
		r->err = errno;
}

/* The oldest request, out of the queue (under the lock), or NULL. */
static struct bs_readahead_req *next_req(struct bs_readahead *ra)
{
	struct bs_readahead_req *r = ra->head;

	if (r) {
		ra->head = r->next;
		if (!ra->head)
			ra->tail = NULL;
	}
	return r;
}

/* Read r, taken out of the queue, and say so (called without the lock). */
static void serve(struct bs_readahead *ra, struct bs_readahead_req *r)
{
	read_chunk(r);
	pthread_mutex_lock(&ra->mu);
	r->busy = false;
	pthread_cond_broadcast(&ra->done);
	pthread_mutex_unlock(&ra->mu);
}

static void *readahead_main(void *arg)
{
	struct bs_readahead *ra = arg;
	struct bs_readahead_req *r;

	for (;;) {
		pthread_mutex_lock(&ra->mu);
		while (!ra->head && !ra->stopping)
			pthread_cond_wait(&ra->work, &ra->mu);
		r = next_req(ra);
		pthread_mutex_unlock(&ra->mu);
		if (!r)
			return NULL;
		serve(ra, r);
	}
}

struct bs_readahead *bs_readahead_new(bool thread)
{
	struct bs_readahead *ra;

	if (thread && !bs_pipe_second_cpu())
		return NULL;
	ra = calloc(1, sizeof(*ra));
	if (!ra)
		return NULL;
	pthread_mutex_init(&ra->mu, NULL);
	pthread_cond_init(&ra->work, NULL);
	pthread_cond_init(&ra->done, NULL);
	if (thread && bs_pipe_thread(&ra->th, readahead_main, ra)) {
		bs_readahead_free(ra);	/* not threaded: no thread to stop */
		return NULL;
	}
	ra->threaded = thread;
	return ra;
}

void bs_readahead_free(struct bs_readahead *ra)
{
	if (!ra)
		return;
	if (ra->threaded) {
		pthread_mutex_lock(&ra->mu);
		ra->stopping = true;
		pthread_cond_signal(&ra->work);
		pthread_mutex_unlock(&ra->mu);
		pthread_join(ra->th, NULL);
	}
	pthread_cond_destroy(&ra->done);
	pthread_cond_destroy(&ra->work);
	pthread_mutex_destroy(&ra->mu);
	free(ra);
}

void bs_readahead_submit(struct bs_readahead *ra, struct bs_readahead_req *r)
{
	pthread_mutex_lock(&ra->mu);
	r->busy = true;
	r->got = 0;
	r->err = 0;
	r->next = NULL;
	if (ra->tail)
		ra->tail->next = r;
	else
		ra->head = r;
	ra->tail = r;
	if (ra->threaded)
		pthread_cond_signal(&ra->work);
	pthread_mutex_unlock(&ra->mu);
}

/* Take r out of the queue if nobody has started it (under the lock): true if so. */
static bool unqueue(struct bs_readahead *ra, struct bs_readahead_req *r)
{
	struct bs_readahead_req **p, *prev = NULL;

	for (p = &ra->head; *p; prev = *p, p = &(*p)->next)
		if (*p == r) {
			*p = r->next;
			if (ra->tail == r)
				ra->tail = prev;
			return true;
		}
	return false;
}

/* Wait for r; if nobody started it and steal, read it here first. */
static void finish(struct bs_readahead *ra, struct bs_readahead_req *r, bool steal)
{
	pthread_mutex_lock(&ra->mu);
	if (r->busy && unqueue(ra, r)) {
		pthread_mutex_unlock(&ra->mu);
		if (steal)
			read_chunk(r);
		r->busy = false;
		return;
	}
	while (r->busy)
		pthread_cond_wait(&ra->done, &ra->mu);
	pthread_mutex_unlock(&ra->mu);
}

ssize_t bs_readahead_wait(struct bs_readahead *ra, struct bs_readahead_req *r)
{
	finish(ra, r, true);
	if (r->got < 0)
		errno = r->err;
	return r->got;
}

void bs_readahead_cancel(struct bs_readahead *ra, struct bs_readahead_req *r)
{
	finish(ra, r, false);
}

bool bs_readahead_serve(struct bs_readahead *ra)
{
	struct bs_readahead_req *r;

	pthread_mutex_lock(&ra->mu);
	r = next_req(ra);
	pthread_mutex_unlock(&ra->mu);
	if (!r)
		return false;
	serve(ra, r);
	return true;
}
