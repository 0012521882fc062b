// SPDX-License-Identifier: GPL-2.0
/*
 * bs_readahead.c - the read-ahead thread (bs_readahead.h).
 *
 * Requests are rare (one per chunk of a stream: about a thousand for a
 * 10M-event trace), so one lock and two conditions are all it needs.
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
	bool stopping;
	pthread_t th;
};

/* read() until len bytes or the end of the file */
static void read_chunk(struct bs_readahead_req *r)
{
	size_t got = 0;

	while (got < r->len) {
		ssize_t n = read(r->fd, r->dst + got, r->len - got);

		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			r->err = errno;
			r->got = -1;
			return;
		}
		got += (size_t)n;
	}
	r->got = (ssize_t)got;
}

static void *readahead_main(void *arg)
{
	struct bs_readahead *ra = arg;
	struct bs_readahead_req *r;

	pthread_mutex_lock(&ra->mu);
	for (;;) {
		while (!ra->head && !ra->stopping)
			pthread_cond_wait(&ra->work, &ra->mu);
		r = ra->head;
		if (!r)
			break;
		ra->head = r->next;
		if (!ra->head)
			ra->tail = NULL;
		pthread_mutex_unlock(&ra->mu);
		read_chunk(r);
		pthread_mutex_lock(&ra->mu);
		r->busy = false;
		pthread_cond_broadcast(&ra->done);
	}
	pthread_mutex_unlock(&ra->mu);
	return NULL;
}

struct bs_readahead *bs_readahead_new(void)
{
	struct bs_readahead *ra;

	if (!bs_pipe_second_cpu())
		return NULL;
	ra = calloc(1, sizeof(*ra));
	if (!ra)
		return NULL;
	pthread_mutex_init(&ra->mu, NULL);
	pthread_cond_init(&ra->work, NULL);
	pthread_cond_init(&ra->done, NULL);
	if (bs_pipe_thread(&ra->th, readahead_main, ra)) {
		pthread_cond_destroy(&ra->done);
		pthread_cond_destroy(&ra->work);
		pthread_mutex_destroy(&ra->mu);
		free(ra);
		return NULL;
	}
	return ra;
}

void bs_readahead_free(struct bs_readahead *ra)
{
	if (!ra)
		return;
	pthread_mutex_lock(&ra->mu);
	ra->stopping = true;
	pthread_cond_signal(&ra->work);
	pthread_mutex_unlock(&ra->mu);
	pthread_join(ra->th, NULL);
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
	pthread_cond_signal(&ra->work);
	pthread_mutex_unlock(&ra->mu);
}

ssize_t bs_readahead_wait(struct bs_readahead *ra, struct bs_readahead_req *r)
{
	ssize_t got;

	pthread_mutex_lock(&ra->mu);
	while (r->busy)
		pthread_cond_wait(&ra->done, &ra->mu);
	got = r->got;
	pthread_mutex_unlock(&ra->mu);
	if (got < 0)
		errno = r->err;
	return got;
}
