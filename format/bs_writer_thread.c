// SPDX-License-Identifier: GPL-2.0
/*
 * bs_writer_thread.c - a writer's buffers written by a thread of its own.
 *
 * Dumping a trace is mostly the kernel copying the buffers into the file
 * (`parse -O -d` to tmpfs: half of its time is system time in write()).
 * With the writing on a second thread the records of the next buffer are
 * made while the previous one is copied.  The writer's buffer is then the
 * batch being filled of a bounded pipe (util/bs_pipe.h: four buffers); a
 * flush hands it over.  The thread writes the buffers in order with
 * bs_write_whole(), the same write as a synchronous flush (a full disk
 * still cuts the file back to whole records); its first error reaches the
 * writer at the next flush or at close.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "bs_pipe.h"
#include "bs_readahead.h"
#include "bs_writer.h"

#define NBUF 4

struct bs_writer_thread {
	struct bs_pipe pipe;
	pthread_t th;
	/* fd; hdr is fixed by the first record, before the first buffer */
	const struct bs_writer *w;
	uint64_t written;		/* the thread's until joined */
	int error;			/* first errno (atomic: the engine's side polls it) */
	struct bs_readahead *ra;	/* reads to serve between writes, or NULL (atomic) */
};

static void *writer_main(void *arg)
{
	struct bs_writer_thread *t = arg;
	struct bs_readahead *ra;
	const unsigned char *b;
	size_t len;
	int err;

	while ((b = bs_pipe_get(&t->pipe, &len))) {
		if (!__atomic_load_n(&t->error, __ATOMIC_RELAXED)) {
			err = bs_write_whole(t->w->fd, b, len, t->w->hdr, &t->written);
			/* later buffers are dropped, as a failed flush stops the writer */
			if (err)
				__atomic_store_n(&t->error, err, __ATOMIC_RELAXED);
		}
		bs_pipe_release(&t->pipe);
		/* a read only while no buffer waits: the writing stays first */
		ra = __atomic_load_n(&t->ra, __ATOMIC_ACQUIRE);
		if (ra && !bs_pipe_pending(&t->pipe))
			bs_readahead_serve(ra);
	}
	return NULL;
}

int bs_writer_start_thread(struct bs_writer *w)
{
	struct bs_writer_thread *t;
	struct stat st;

	if (w->thread || w->error || w->len || !bs_pipe_second_cpu())
		return -1;
	/* a write to /dev/null or a terminal costs nothing worth a thread */
	if (fstat(w->fd, &st) || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)))
		return -1;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	t->w = w;
	t->written = w->written;
	if (bs_pipe_init(&t->pipe, w->cap, NBUF)) {
		free(t);
		return -1;
	}
	if (bs_pipe_thread(&t->th, writer_main, t)) {
		bs_pipe_destroy(&t->pipe);
		free(t);
		return -1;
	}
	free(w->buf);
	w->buf = bs_pipe_batch(&t->pipe);
	w->thread = t;
	return 0;
}

bool bs_writer_serve_reads(struct bs_writer *w, struct bs_readahead *ra)
{
	if (!w->thread)
		return false;
	__atomic_store_n(&w->thread->ra, ra, __ATOMIC_RELEASE);
	return true;
}

int bs_writer_thread_flush(struct bs_writer *w)
{
	struct bs_writer_thread *t = w->thread;
	int err;

	bs_pipe_set_used(&t->pipe, w->len);
	bs_pipe_hand_over(&t->pipe);
	w->buf = bs_pipe_batch(&t->pipe);
	w->len = 0;
	err = __atomic_load_n(&t->error, __ATOMIC_RELAXED);
	if (err) {
		w->error = err;
		return -1;
	}
	return 0;
}

void bs_writer_thread_close(struct bs_writer *w)
{
	struct bs_writer_thread *t = w->thread;

	bs_pipe_set_used(&t->pipe, w->error ? 0 : w->len);	/* after an error: nothing more */
	bs_pipe_end(&t->pipe);
	pthread_join(t->th, NULL);
	w->written = t->written;
	if (t->error && !w->error)
		w->error = t->error;
	bs_pipe_destroy(&t->pipe);	/* the buffers are the pipe's */
	free(t);
	w->thread = NULL;
	w->buf = NULL;
	w->len = 0;
}
