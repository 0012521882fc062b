// SPDX-License-Identifier: GPL-2.0
/*
 * analysis_reader.c - reading and merging the per-CPU files on a thread of
 * their own, ahead of the engine.
 *
 * Reading, validating and merging the input is about a fifth of the
 * engine thread's work.  With --threads=2 and per-CPU files as input, a
 * reader thread runs the merge and hands its output over in batches
 * (util/bs_pipe.h): each event in one cache line, struct analysis_line
 * (the trace record as the merge gave it and what the merge knows of it,
 * its PDU right behind).  A plain engine takes the record where it lies
 * (btt_engine_record); otherwise the engine's thread turns it back into
 * the struct bs_event the merge gave (the cgroup id comes back from the
 * PDU).  Each note the merge passes at read time goes as a record of its
 * own at the same place in the order.  The engine's thread takes them in
 * that order and applies the notes where the merge would have called
 * on_note, so nothing the analysis sees changes.
 *
 * The per-I/O model (analyze/iomodel/) can take the same batches on a
 * third thread, after the engine (a chained pipe: nothing is copied for
 * it): when every sink keeps to its own state, no sink wants raw events
 * and no plugin tags them.  It applies the PROCESS notes it meets itself.
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

/*
 * Bytes a hand-over (~32000 events) and hand-overs in flight: every
 * hand-over costs the engine's thread a lock and often a wake-up, so
 * fewer, larger ones win, up to where more or larger batches stop
 * helping (the sizes tried: docs/analyze.md, "Measurements").
 */
#define RD_BATCH (2048u << 10)
#define RD_NBATCH 3
/* with the model on its own thread: one more batch, so each of the three has one */
#define RD_NBATCH_CHAINED 4

enum { RD_EVENT = 1, RD_NOTE, RD_DAMAGE };

/*
 * One record in the pipe (struct analysis_line); a note's offset, then
 * the PDU (8-byte padded) follow.  t is as the merge gave it: an event's
 * time relative, a note's absolute.  One cache line, not the 96 bytes of
 * a struct bs_event: the engine's thread reads every byte of it from the
 * other CPU's writes.
 */
_Static_assert(sizeof(struct analysis_line) == 64, "an event's record is one cache line");

struct analysis_reader {
	struct bs_pipe pipe;
	struct bs_merge *m;
	pthread_t th;
	bool running;
	struct iom *model;		/* fed on its own thread (mth), or NULL */
	pthread_t mth;
	bool model_running;
	/* the consumer's place: the batch being read, the event handed out */
	const unsigned char *batch;
	size_t len, off;
	struct bs_event ev;
};

static inline size_t pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Room for a record of kind with extra bytes and the PDU; the PDU copied in behind. */
static inline __attribute__((always_inline)) struct analysis_line *
put(struct analysis_reader *r, uint8_t kind, size_t extra, const uint8_t *pdu, size_t pdu_len)
{
	unsigned char *p =
		bs_pipe_reserve(&r->pipe, sizeof(struct analysis_line) + extra + pad8(pdu_len));
	struct analysis_line *rec = (struct analysis_line *)p;

	rec->kind = kind;
	if (pdu_len)
		memcpy(p + sizeof(*rec) + extra, pdu, pdu_len);
	return rec;
}

/* A note the merge passes while the reader reads: into the pipe, in its place. */
void analysis_reader_note(struct analysis_reader *r, const struct bs_record *note, int dev)
{
	struct analysis_line *rec = put(r, RD_NOTE, sizeof(uint64_t), note->pdu, note->t.pdu_len);

	rec->t = note->t;
	rec->action_hi = note->action_hi;
	rec->dev = dev;
	rec->cpu = 0;
	rec->foreign = note->foreign;
	memcpy(rec + 1, &note->offset, sizeof(note->offset));
}

/*
 * A stream stopped at damage while the reader reads: into the pipe, in
 * its place (the offset, then the name as the PDU; t.time the last good
 * event's).
 */
void analysis_reader_damage(struct analysis_reader *r, const char *name, uint64_t offset,
			    uint64_t last_time)
{
	size_t len = strlen(name);
	struct analysis_line *rec = put(r, RD_DAMAGE, sizeof(uint64_t), (const uint8_t *)name,
					len < 4096 ? len + 1 : 4096);

	memset(&rec->t, 0, sizeof(rec->t));
	rec->t.time = last_time;
	rec->t.pdu_len = (uint16_t)(len < 4096 ? len + 1 : 4096);
	memcpy(rec + 1, &offset, sizeof(offset));
}

/* A note or damage record met by a consumer: what the model takes of it. */
static void model_takes(struct iom *m, const struct analysis_line *rec)
{
	const uint8_t *pdu = analysis_line_pdu(rec) + sizeof(uint64_t);
	uint64_t off;

	if (rec->kind == RD_DAMAGE) {
		memcpy(&off, rec + 1, sizeof(off));
		iom_damage(m, (const char *)pdu, off, rec->t.time);
	} else if (rec->t.action == BS_NOTE_PROCESS) {
		iom_process_note(m, rec->t.pid, (const char *)pdu, rec->t.pdu_len);
	} else {
		iom_message(m, &rec->t, pdu, rec->foreign);
	}
}

static void *reader_main(void *arg)
{
	struct analysis_reader *r = arg;
	uint64_t genesis = bs_merge_genesis(r->m);
	struct bs_event_ref ev;

	/* in place (file mode only: a stream is read without this thread) */
	while (!bs_pipe_abandoned(&r->pipe) && bs_merge_next_ref(r->m, &ev) == 1) {
		struct analysis_line *rec = put(r, RD_EVENT, 0, ev.pdu, ev.t->pdu_len);

		rec->t = *ev.t;
		rec->t.time -= genesis;
		rec->action_hi = ev.action_hi;
		rec->dev = ev.dev;
		rec->cpu = ev.cpu;
		rec->foreign = ev.foreign;
	}
	bs_pipe_end(&r->pipe);
	return NULL;
}

/* The model's thread: every batch after the engine, its notes and events, in order. */
static void *model_main(void *arg)
{
	struct analysis_reader *r = arg;
	const unsigned char *b;
	size_t len, off;

	while ((b = bs_pipe_get_second(&r->pipe, &len))) {
		for (off = 0; off < len;) {
			const struct analysis_line *rec = (const struct analysis_line *)(b + off);
			const uint8_t *pdu = analysis_line_pdu(rec);

			if (rec->kind == RD_EVENT) {
				iom_event(r->model, &rec->t, rec->action_hi, pdu, rec->foreign, -1);
				off += sizeof(*rec) + pad8(rec->t.pdu_len);
				continue;
			}
			model_takes(r->model, rec);
			off += sizeof(*rec) + sizeof(uint64_t) + pad8(rec->t.pdu_len);
		}
		bs_pipe_release_second(&r->pipe);
	}
	return NULL;
}

bool analysis_reader_start(struct analysis *a, bool model_too)
{
	struct analysis_reader *r;

	if (a->threads == 1 || a->o.time_bounded || bs_input_is_stream(&a->in) ||
	    !bs_pipe_second_cpu())
		return false;
	r = bs_xcalloc(1, sizeof(*r));
	if (bs_pipe_init(&r->pipe, RD_BATCH, model_too ? RD_NBATCH_CHAINED : RD_NBATCH)) {
		free(r);
		return false;
	}
	r->m = a->m;
	a->reader = r;	/* from here on the merge's notes go into the pipe */
	if (model_too) {
		bs_pipe_chain(&r->pipe);
		r->model = a->iom;
		if (bs_pipe_thread(&r->mth, model_main, r)) {
			a->reader = NULL;
			bs_pipe_destroy(&r->pipe);
			free(r);
			return false;
		}
		r->model_running = true;
	}
	if (bs_pipe_thread(&r->th, reader_main, r)) {
		bs_pipe_abandon(&r->pipe);
		if (r->model_running)
			pthread_join(r->mth, NULL);
		a->reader = NULL;
		bs_pipe_destroy(&r->pipe);
		free(r);
		return false;
	}
	r->running = true;
	return true;
}

bool analysis_reader_feeds_model(const struct analysis *a)
{
	return a->reader && a->reader->model;
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
static __attribute__((noinline)) void apply_note(struct analysis *a,
						 const struct analysis_line *rec)
{
	struct bs_record note = { .t = rec->t, .action_hi = rec->action_hi,
				  .pdu = (const uint8_t *)(rec + 1) + sizeof(uint64_t),
				  .foreign = rec->foreign };

	memcpy(&note.offset, rec + 1, sizeof(note.offset));
	analysis_apply_note(a, &note, rec->dev);
}

/* The merge's struct bs_event again, in r->ev (the PDU stays in the batch). */
const struct bs_event *analysis_line_event(struct analysis *a, const struct analysis_line *rec)
{
	struct bs_event *ev = &a->reader->ev;

	ev->t = rec->t;
	ev->action_hi = rec->action_hi;
	ev->pdu = analysis_line_pdu(rec);
	ev->dev = rec->dev;
	ev->cpu = rec->cpu;
	ev->foreign = rec->foreign;
	ev->cgroup = bs_cgroup_id(&rec->t, ev->pdu, rec->foreign);
	return ev;
}

/* analysis_reader_next_line() at the end of a batch or at a note */
static __attribute__((noinline)) const struct analysis_line *next_slow(struct analysis *a)
{
	struct analysis_reader *r = a->reader;
	const struct analysis_line *rec;

	for (;;) {
		if (r->off == r->len && !next_batch(r))
			return NULL;
		rec = (const struct analysis_line *)(r->batch + r->off);
		if (__builtin_expect(rec->kind == RD_EVENT, 1))
			break;
		r->off += sizeof(*rec) + sizeof(uint64_t) + pad8(rec->t.pdu_len);
		if (rec->kind == RD_DAMAGE) {
			if (!r->model)	/* else the model's thread takes it */
				model_takes(a->iom, rec);
			continue;
		}
		apply_note(a, rec);
	}
	r->off += sizeof(*rec) + pad8(rec->t.pdu_len);
	return rec;
}

/* An event in the middle of a batch, the common case, calls nothing (no registers to save). */
const struct analysis_line *analysis_reader_next_line(struct analysis *a)
{
	struct analysis_reader *r = a->reader;
	const struct analysis_line *rec;

	if (__builtin_expect(r->off == r->len, 0))
		return next_slow(a);
	rec = (const struct analysis_line *)(r->batch + r->off);
	if (__builtin_expect(rec->kind != RD_EVENT, 0))
		return next_slow(a);
	r->off += sizeof(*rec) + pad8(rec->t.pdu_len);
	return rec;	/* valid until the next call: the batch is released then */
}

const struct bs_event *analysis_reader_next(struct analysis *a)
{
	const struct analysis_line *rec = analysis_reader_next_line(a);

	return rec ? analysis_line_event(a, rec) : NULL;
}

void analysis_reader_stop(struct analysis *a, bool complete)
{
	struct analysis_reader *r = a->reader;

	if (!r)
		return;
	/* read to the end: the model takes what the engine passed it */
	if (complete && r->model_running)
		pthread_join(r->mth, NULL);
	bs_pipe_abandon(&r->pipe);	/* stopped early (memory, -T): the reader stops too */
	if (r->running)
		pthread_join(r->th, NULL);
	if (!complete && r->model_running)
		pthread_join(r->mth, NULL);
	bs_pipe_destroy(&r->pipe);
	free(r);
	a->reader = NULL;
}
