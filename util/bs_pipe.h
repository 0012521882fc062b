/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_pipe.h - records handed from one thread to another in batches.
 *
 * One producer appends records (bs_pipe_reserve), one consumer takes whole
 * batches in the same order (bs_pipe_get/bs_pipe_release).  A fixed
 * number of fixed-size batches: memory is bounded and the producer waits
 * when all are full.  The lock is taken once a batch, not once a record;
 * batches are large because a sleeping consumer costs the producer a
 * system call to wake.  Either side may abandon the pipe (an error, a
 * stop): both are woken and the producer's records go nowhere from then on.
 *
 * Chained (bs_pipe_chain): two consumers take every batch in turn, the
 * first with bs_pipe_get/bs_pipe_release, then the second with
 * bs_pipe_get_second/bs_pipe_release_second; a batch is refilled only
 * once both are done with it.  No record is copied for the second.
 */
#ifndef BLKSCOPE_BS_PIPE_H
#define BLKSCOPE_BS_PIPE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct bs_pipe {
	unsigned char *mem;		/* nbatch batches of batch_bytes */
	size_t *used;			/* bytes in each batch handed over */
	size_t batch_bytes;
	unsigned int nbatch;
	unsigned char *fill;		/* producer: the batch being filled */
	size_t fill_used;
	/* under mu: batches handed over and batches released (both wrap) */
	unsigned int head, tail;
	unsigned int mid;		/* chained: batches the first consumer released */
	bool chained;
	bool ended, abandoned;
	pthread_mutex_t mu;
	pthread_cond_t ready, room, ready2;
};

/* 0, or -1 (out of memory).  Records are at most batch_bytes; keep them 8-byte multiples. */
int bs_pipe_init(struct bs_pipe *p, size_t batch_bytes, unsigned int nbatch);
void bs_pipe_destroy(struct bs_pipe *p);

/* Producer: the batch being filled to the consumer (waits for a free one). */
void bs_pipe_hand_over(struct bs_pipe *p);

/* Producer: room for a record of len bytes, in order after the previous one. */
static inline void *bs_pipe_reserve(struct bs_pipe *p, size_t len)
{
	void *r;

	if (p->fill_used + len > p->batch_bytes)
		bs_pipe_hand_over(p);
	r = p->fill + p->fill_used;
	p->fill_used += len;
	return r;
}

/*
 * Producer that assembles a batch itself (a buffered writer): the batch
 * being filled, and its length set before bs_pipe_hand_over()/bs_pipe_end().
 */
static inline unsigned char *bs_pipe_batch(struct bs_pipe *p)
{
	return p->fill;
}

static inline void bs_pipe_set_used(struct bs_pipe *p, size_t len)
{
	p->fill_used = len;
}

/* Producer: no more records (the partial batch is handed over). */
void bs_pipe_end(struct bs_pipe *p);

/* Either side: stop; the consumer gets nothing more, the producer's records are dropped. */
void bs_pipe_abandon(struct bs_pipe *p);
bool bs_pipe_abandoned(struct bs_pipe *p);

/* Consumer: the next batch (waits for it); NULL once ended and drained, or abandoned. */
const unsigned char *bs_pipe_get(struct bs_pipe *p, size_t *len);
/* Consumer: done with the batch bs_pipe_get() gave. */
void bs_pipe_release(struct bs_pipe *p);
/* Two consumers, one after the other (before the first batch). */
void bs_pipe_chain(struct bs_pipe *p);
/* The second consumer: the next batch the first released (waits); NULL at the end. */
const unsigned char *bs_pipe_get_second(struct bs_pipe *p, size_t *len);
void bs_pipe_release_second(struct bs_pipe *p);

/* Consumer, between batches: is the next one handed over already? */
bool bs_pipe_pending(struct bs_pipe *p);

/* A second CPU for a helper thread to run on (else the work stays inline). */
bool bs_pipe_second_cpu(void);

/*
 * Start a helper thread with every signal blocked (signals stay with the
 * main thread), at SCHED_BATCH: its wake-ups do not preempt (bs_pipe.c).
 */
int bs_pipe_thread(pthread_t *th, void *(*fn)(void *), void *arg);

#endif /* BLKSCOPE_BS_PIPE_H */
