// SPDX-License-Identifier: GPL-2.0
/*
 * rec_stream.c - `-o -`: the per-CPU stages merged into one time-ordered stream.
 *
 * blkparse reads a pipe in batches of 512 records, sorts each batch by time
 * and releases a record only when it is the next sequence number of its
 * (device, CPU); whatever is still missing at the end becomes a "skip".  A
 * stream written in per-CPU blocks (all of CPU 0's records, then CPU 1's)
 * can hold a record more than a batch behind newer records of its own CPU
 * that were already released, and blkparse then reports a skip that is not
 * in the data.  So the stream is written in time order.
 *
 * Each stage (one per trace and CPU) is already in time order.  After every
 * drain the caller passes a watermark: the time up to which every ring is
 * known complete (all rings were drained after that moment).  Records up to
 * the watermark leave in a k-way merge by (time, stage); newer ones wait for
 * the next drain.  A stage that grows past `limit` bytes anyway (it cannot
 * while every ring is drained each poll, but memory must stay bounded) has
 * its older half released early; those records are counted.
 */
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include "record.h"

struct rec_stream {
	struct rec_stage *stages;
	int nstages;
	struct rec_sink *sink;
	uint64_t *flushed;	/* bytes written per stage (the caller's array) */
	size_t limit;		/* bytes a stage may hold before an early release */
	size_t *take;		/* per stage: leading records that leave this time */
	size_t *pos;		/* per stage: next record to merge */
	uint64_t *head;		/* per stage: the time of that record */
	int *heap;		/* stages with records to merge, earliest head first */
	int nheap;
	uint8_t *out;		/* the merged batch */
	size_t out_cap;
	uint64_t early;		/* records released ahead of the watermark */
	rec_out_fn out_fn;	/* instead of the sink (the flight recorder) */
	void *out_ctx;
};

struct rec_stream *rec_stream_new(struct rec_stage *stages, int nstages, struct rec_sink *sink,
				  uint64_t *flushed, size_t limit)
{
	struct rec_stream *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->stages = stages;
	m->nstages = nstages;
	m->sink = sink;
	m->flushed = flushed;
	m->limit = limit;
	m->take = calloc(nstages, sizeof(*m->take));
	m->pos = calloc(nstages, sizeof(*m->pos));
	m->heap = calloc(nstages, sizeof(*m->heap));
	m->head = calloc(nstages, sizeof(*m->head));
	if (!m->take || !m->pos || !m->heap || !m->head) {
		rec_stream_free(m);
		return NULL;
	}
	return m;
}

void rec_stream_free(struct rec_stream *m)
{
	if (!m)
		return;
	free(m->take);
	free(m->pos);
	free(m->heap);
	free(m->head);
	free(m->out);
	free(m);
}

void rec_stream_set_output(struct rec_stream *m, rec_out_fn fn, void *ctx)
{
	m->out_fn = fn;
	m->out_ctx = ctx;
}

uint64_t rec_stream_early(const struct rec_stream *m)
{
	return m->early;
}

/* Record i's time (records sit at any byte offset: copied, not dereferenced). */
static uint64_t time_at(const struct rec_stage *st, size_t i)
{
	return bs_native_time(st->buf + st->offs[i]);
}

/* Byte offset where record i of the stage ends. */
static size_t end_of(const struct rec_stage *st, size_t i)
{
	return i + 1 < st->n ? st->offs[i + 1] : st->len;
}

/* Heap order: the stage whose next record is earlier; ties by stage index. */
static bool heap_before(const struct rec_stream *m, int a, int b)
{
	uint64_t ta = m->head[a], tb = m->head[b];

	return ta != tb ? ta < tb : a < b;
}

static void sift_down(struct rec_stream *m, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, min = i, tmp;

		if (l < m->nheap && heap_before(m, m->heap[l], m->heap[min]))
			min = l;
		if (r < m->nheap && heap_before(m, m->heap[r], m->heap[min]))
			min = r;
		if (min == i)
			return;
		tmp = m->heap[i];
		m->heap[i] = m->heap[min];
		m->heap[min] = tmp;
		i = min;
	}
}

static int reserve_out(struct rec_stream *m, size_t need)
{
	uint8_t *p;

	if (need <= m->out_cap)
		return 0;
	p = realloc(m->out, need);
	if (!p)
		return -1;
	m->out = p;
	m->out_cap = need;
	return 0;
}

/* Write every staged record with time <= watermark, merged by time. */
static int release(struct rec_stream *m, uint64_t watermark, uint64_t *released)
{
	size_t total = 0, len = 0;
	int i;

	m->nheap = 0;
	for (i = 0; i < m->nstages; i++) {
		const struct rec_stage *st = &m->stages[i];
		size_t k = 0, hi = st->n;

		/* the records up to the watermark: the stage is in time order */
		while (k < hi) {
			size_t mid = k + (hi - k) / 2;

			if (time_at(st, mid) <= watermark)
				k = mid + 1;
			else
				hi = mid;
		}
		m->take[i] = k;
		m->pos[i] = 0;
		if (k) {
			m->head[i] = time_at(st, 0);
			total += k < st->n ? st->offs[k] : st->len;
			m->heap[m->nheap++] = i;
		}
	}
	if (!total)
		return 0;
	if (reserve_out(m, total) < 0)
		return -1;
	for (i = m->nheap / 2 - 1; i >= 0; i--)
		sift_down(m, i);
	while (m->nheap) {
		int s = m->heap[0];
		const struct rec_stage *st = &m->stages[s];
		size_t p = m->pos[s], size = end_of(st, p) - st->offs[p];

		memcpy(m->out + len, st->buf + st->offs[p], size);
		len += size;
		if (++m->pos[s] == m->take[s])
			m->heap[0] = m->heap[--m->nheap];
		else
			m->head[s] = time_at(st, m->pos[s]);
		sift_down(m, 0);
	}
	for (i = 0; i < m->nstages; i++) {
		struct rec_stage *st = &m->stages[i];
		size_t k = m->take[i];

		if (!k)
			continue;
		m->flushed[i] += rec_stage_front_bytes(st, k);
		if (released)
			*released += k;
		rec_stage_drop_front(st, k);
	}
	if (m->out_fn)
		return m->out_fn(m->out_ctx, m->out, len);
	return rec_sink_write(m->sink, m->out, len);
}

int rec_stream_release(struct rec_stream *m, uint64_t watermark)
{
	int err = release(m, watermark, NULL);

	/* bounded memory: an overgrown stage gives up its older half now */
	for (;;) {
		const struct rec_stage *big = NULL;
		int i;

		for (i = 0; i < m->nstages; i++)
			if (m->stages[i].len > m->limit && (!big || m->stages[i].len > big->len))
				big = &m->stages[i];
		if (!big || err < 0)
			return err;
		err = release(m, time_at(big, big->n / 2), &m->early);
	}
}

int rec_stream_flush(struct rec_stream *m)
{
	return release(m, UINT64_MAX, NULL);
}
