// SPDX-License-Identifier: GPL-2.0
/*
 * rec_stage.c - the records of one (trace, CPU) waiting to be written.
 *
 * Why the stage sorts: a BPF program can be interrupted on its CPU between
 * taking its sequence number, reserving ring space and reading the clock
 * (the kernel's blktrace disables interrupts there; BPF cannot).  The
 * interrupting program's record then sits next to the interrupted one in
 * the ring with times or sequence numbers swapped.  Both records reach us
 * in the same drain pass, so sorting each new record back into place by
 * time (stable) and handing the moved events' sequence numbers out again
 * in ascending order restores what the kernel would have written: every
 * per-CPU file time-ordered, with sequence numbers rising along it, gaps
 * (drops) kept.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "record.h"

#define STAGE_INIT_BYTES	(64u << 10)
#define STAGE_INIT_RECORDS	1024

int rec_stage_init(struct rec_stage *st)
{
	memset(st, 0, sizeof(*st));
	st->cap = STAGE_INIT_BYTES;
	st->ncap = STAGE_INIT_RECORDS;
	st->buf = malloc(st->cap);
	st->offs = malloc(st->ncap * sizeof(*st->offs));
	return st->buf && st->offs ? 0 : -1;
}

void rec_stage_free(struct rec_stage *st)
{
	free(st->buf);
	free(st->offs);
	memset(st, 0, sizeof(*st));
}

void rec_stage_reset(struct rec_stage *st)
{
	st->len = 0;
	st->n = 0;
}

size_t rec_stage_front_bytes(const struct rec_stage *st, size_t n)
{
	return n < st->n ? st->offs[n] : st->len;
}

void rec_stage_drop_front(struct rec_stage *st, size_t n)
{
	size_t bytes, i;

	if (n >= st->n) {
		rec_stage_reset(st);
		return;
	}
	if (!n)
		return;
	bytes = rec_stage_front_bytes(st, n);
	memmove(st->buf, st->buf + bytes, st->len - bytes);
	for (i = n; i < st->n; i++)
		st->offs[i - n] = st->offs[i] - bytes;
	st->len -= bytes;
	st->n -= n;
}

/*
 * Record i's header, copied: records sit at any byte offset (a note's text
 * has any length), so the header is never read through a struct pointer.
 */
static struct bs_trace rec_at(const struct rec_stage *st, size_t i)
{
	struct bs_trace t;

	bs_native_peek(st->buf + st->offs[i], st->len - st->offs[i], &t);
	return t;
}

static void rec_set_sequence(struct rec_stage *st, size_t i, uint32_t seq)
{
	bs_native_set_sequence(st->buf + st->offs[i], seq);
}

static int grow(struct rec_stage *st, size_t need)
{
	if (st->len + need > st->cap) {
		size_t cap = st->cap * 2;
		uint8_t *p;

		while (cap < st->len + need)
			cap *= 2;
		p = realloc(st->buf, cap);
		if (!p)
			return -1;
		st->buf = p;
		st->cap = cap;
	}
	if (st->n == st->ncap) {
		uint32_t *o = realloc(st->offs, st->ncap * 2 * sizeof(*o));

		if (!o)
			return -1;
		st->offs = o;
		st->ncap *= 2;
	}
	return 0;
}

/* Give the events in records [from, n) their sequence numbers in ascending order. */
static void redeal_sequences(struct rec_stage *st, size_t from)
{
	uint32_t seqs[64];
	size_t i, k = 0, j;

	for (i = from; i < st->n && k < 64; i++)
		if (!bs_is_note(rec_at(st, i).action))
			seqs[k++] = rec_at(st, i).sequence;
	if (k == 64)
		return;		/* never happens with interrupt nesting; leave as is */
	for (i = 1; i < k; i++)		/* insertion sort: k is tiny */
		for (j = i; j > 0 && seqs[j - 1] > seqs[j]; j--) {
			uint32_t s = seqs[j];

			seqs[j] = seqs[j - 1];
			seqs[j - 1] = s;
		}
	k = 0;
	for (i = from; i < st->n; i++)
		if (!bs_is_note(rec_at(st, i).action))
			rec_set_sequence(st, i, seqs[k++]);
}

int rec_stage_add(struct rec_stage *st, const struct bs_trace *t, const void *pdu)
{
	size_t size = bs_native_size(t);
	size_t pos = st->n, at, i, lo;

	if (grow(st, size) < 0)
		return -1;
	while (pos > 0 && rec_at(st, pos - 1).time > t->time)
		pos--;
	at = pos < st->n ? st->offs[pos] : st->len;
	if (pos < st->n) {
		memmove(st->buf + at + size, st->buf + at, st->len - at);
		memmove(st->offs + pos + 1, st->offs + pos, (st->n - pos) * sizeof(*st->offs));
		for (i = pos + 1; i <= st->n; i++)
			st->offs[i] += size;
	}
	bs_native_put(st->buf + at, t, pdu);
	st->offs[pos] = at;
	st->len += size;
	st->n++;
	if (bs_is_note(t->action)) {
		st->notes++;
		return 0;
	}
	st->events++;
	/* earliest event, up to our position, numbered above us */
	lo = pos;
	for (i = pos; i > 0; i--) {
		const struct bs_trace prev = rec_at(st, i - 1);

		if (bs_is_note(prev.action))
			continue;
		if (prev.sequence <= t->sequence)
			break;
		lo = i - 1;
	}
	if (lo < st->n - 1)
		redeal_sequences(st, lo);
	return 0;
}

int rec_stage_sector_at(const struct rec_stage *st, uint64_t time, uint64_t *sector)
{
	size_t i, n = 0;

	/* the Q was staged just before its attribution slot: look at the newest few */
	for (i = st->n; i > 0 && n < 16; i--, n++) {
		struct bs_trace t = rec_at(st, i - 1);

		if (t.time == time && (t.action & 0xff) == BS_TA_QUEUE) {
			*sector = t.sector;
			return 0;
		}
	}
	return -1;
}
