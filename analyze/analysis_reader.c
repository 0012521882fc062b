// SPDX-License-Identifier: GPL-2.0
/*
 * analysis_reader.c - reading and merging the per-CPU files on a thread of
 * their own, ahead of the engine.
 *
 * Reading, validating and merging the input is about a fifth of the
 * engine thread's work.  With --threads=2 and per-CPU files as input, a
 * reader thread runs the merge and hands its output over in batches
 * (util/bs_pipe.h): each event as a 64-byte record (its header, action_hi,
 * device and CPU) followed by its PDU, and each note the merge passes at
 * read time as a record of its own at the same place in the order.  The
 * engine's thread takes them in that order and applies the notes where
 * the merge would have called on_note, so nothing the analysis sees
 * changes.
 *
 * Not used when reading could differ from what the engine takes: with -T
 * (btt stops reading at the first event past it: a reader ahead of it
 * could meet damage the engine never reaches) and on a stream (a pipe:
 * stopping early must not wait for the writer).
 */
#include <stdlib.h>
#include <string.h>
#include "analysis_priv.h"
#include "bs_codec.h"
#include "bs_pipe.h"

#define RD_BATCH (512u << 10)	/* bytes a hand-over: ~8000 events */
#define RD_NBATCH 4

enum { RD_EVENT = 1, RD_NOTE };

/* one record in the pipe; a note's offset, then the PDU (8-byte padded) follow */
struct rd_rec {
	struct bs_trace t;	/* as the merge gave it: an event's time relative, a note's absolute */
	uint32_t action_hi;
	int32_t dev, cpu;
	uint8_t kind, foreign;
	uint16_t pad;
};
_Static_assert(sizeof(struct rd_rec) == 64, "an event is one cache line");

struct analysis_reader {
	struct bs_pipe pipe;
	struct bs_merge *m;
	pthread_t th;
	bool running;
	/* the consumer's place: the batch being read */
	const unsigned char *batch;
	size_t len, off;
};

static inline size_t pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static void put(struct analysis_reader *r, const struct bs_trace *t, uint32_t action_hi, int dev,
		int cpu, bool foreign, const uint8_t *pdu, uint8_t kind, uint64_t offset)
{
	size_t extra = kind == RD_NOTE ? sizeof(uint64_t) : 0;
	unsigned char *p = bs_pipe_reserve(&r->pipe, sizeof(struct rd_rec) + extra + pad8(t->pdu_len));
	struct rd_rec *rec = (struct rd_rec *)p;

	rec->t = *t;
	rec->action_hi = action_hi;
	rec->dev = dev;
	rec->cpu = cpu;
	rec->kind = kind;
	rec->foreign = foreign;
	if (extra)
		memcpy(p + sizeof(*rec), &offset, sizeof(offset));
	if (t->pdu_len)
		memcpy(p + sizeof(*rec) + extra, pdu, t->pdu_len);
}

/* A note the merge passes while the reader reads: into the pipe, in its place. */
void analysis_reader_note(struct analysis_reader *r, const struct bs_record *rec, int dev)
{
	put(r, &rec->t, rec->action_hi, dev, 0, rec->foreign, rec->pdu, RD_NOTE, rec->offset);
}

static void *reader_main(void *arg)
{
	struct analysis_reader *r = arg;
	struct bs_event ev;

	while (!bs_pipe_abandoned(&r->pipe) && bs_merge_next(r->m, &ev) == 1)
		put(r, &ev.t, ev.action_hi, ev.dev, ev.cpu, ev.foreign, ev.pdu, RD_EVENT, 0);
	bs_pipe_end(&r->pipe);
	return NULL;
}

bool analysis_reader_start(struct bs_analysis *a)
{
	struct analysis_reader *r;

	if (a->threads == 1 || a->o.time_bounded || bs_input_is_stream(&a->in) || !bs_pipe_second_cpu())
		return false;
	r = bs_xcalloc(1, sizeof(*r));
	if (bs_pipe_init(&r->pipe, RD_BATCH, RD_NBATCH)) {
		free(r);
		return false;
	}
	r->m = a->m;
	a->reader = r;	/* from here on the merge's notes go into the pipe */
	if (bs_pipe_thread(&r->th, reader_main, r)) {
		a->reader = NULL;
		bs_pipe_destroy(&r->pipe);
		free(r);
		return false;
	}
	r->running = true;
	return true;
}

/* The next batch of the pipe (the previous one released); false at its end. */
static __attribute__((noinline)) bool next_batch(struct analysis_reader *r)
{
	if (r->batch)
		bs_pipe_release(&r->pipe);
	r->off = 0;
	r->batch = bs_pipe_get(&r->pipe, &r->len);
	return r->batch != NULL;
}

/* A note, applied where the merge passed it (notes are rare: out of line). */
static __attribute__((noinline)) void apply_note(struct bs_analysis *a, const struct rd_rec *rec)
{
	struct bs_record note = { .t = rec->t, .action_hi = rec->action_hi,
				  .pdu = (const uint8_t *)(rec + 1) + sizeof(uint64_t),
				  .foreign = rec->foreign };

	memcpy(&note.offset, rec + 1, sizeof(note.offset));
	analysis_apply_note(a, &note, rec->dev);
}

int analysis_reader_next(struct bs_analysis *a, struct bs_event *ev)
{
	struct analysis_reader *r = a->reader;
	const struct rd_rec *rec;

	for (;;) {
		if (r->off == r->len && !next_batch(r))
			return 0;
		rec = (const struct rd_rec *)(r->batch + r->off);
		if (__builtin_expect(rec->kind == RD_EVENT, 1))
			break;
		r->off += sizeof(*rec) + sizeof(uint64_t) + pad8(rec->t.pdu_len);
		apply_note(a, rec);
	}
	r->off += sizeof(*rec) + pad8(rec->t.pdu_len);
	ev->t = rec->t;
	ev->action_hi = rec->action_hi;
	ev->pdu = (const uint8_t *)(rec + 1);
	ev->dev = rec->dev;
	ev->cpu = rec->cpu;
	ev->foreign = rec->foreign;
	ev->cgroup = rec->t.action & BS_TA_CGROUP ? bs_cgroup_id(&rec->t, ev->pdu, rec->foreign) : 0;
	return 1;
}

void analysis_reader_stop(struct bs_analysis *a)
{
	struct analysis_reader *r = a->reader;

	if (!r)
		return;
	bs_pipe_abandon(&r->pipe);	/* stopped early (memory, -T): the reader stops too */
	if (r->running)
		pthread_join(r->th, NULL);
	bs_pipe_destroy(&r->pipe);
	free(r);
	a->reader = NULL;
}
