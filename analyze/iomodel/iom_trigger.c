// SPDX-License-Identifier: GPL-2.0
/*
 * iom_trigger.c - a flight-recorder snapshot's trigger notes, and the I/O
 * of the model that fired each one (docs/format.md, "The trigger note").
 *
 * A latency or error trigger's note follows the event that fired it, with
 * that event's time and device: the C (Q2C, D2C, error) or the D (Q2D).
 * The merge hands flagged notes out when it reads them (bs_merge.h), with
 * their absolute time: up to a batch ahead of the events around them, or
 * (an event read in an earlier batch) just after.  So the model keeps the
 * last IOM_RECENT I/Os it emitted (a few words each, written at every
 * emission) and looks there first; a trigger whose I/O has not completed
 * yet waits, and each emission checks the waiting triggers while there
 * are any.  Times become relative once the genesis is known
 * (iom_set_genesis(), before the first event).
 *
 * The I/O is the one whose last C (or lead D) is the note's event, on the
 * note's device, whose sectors overlap the note's; among several (bios
 * merged into one request) the one queued when the recorder says it was.
 * None is found when its Q came before the snapshot's window (the model
 * never saw it queued): the report then gives the recorder's figures alone.
 */
#include <stdlib.h>
#include <string.h>
#include "iom_priv.h"

#define NS BS_NOT_SEEN

static uint64_t relative(const struct iom *m, uint64_t abs)
{
	return abs > m->genesis ? abs - m->genesis : 0;
}

/* The event the note follows is a D (a Q2D trigger), not a C. */
static bool fired_on_issue(const struct bs_trigger_note *n)
{
	return !n->c && n->d;
}

/* When the recorder says the I/O was queued, in our clock; NS if it does not. */
static uint64_t queued_at(const struct iom_trigger *tr)
{
	const struct bs_trigger_note *n = &tr->note;
	uint64_t at = fired_on_issue(n) ? n->d : n->c;

	if (!n->q || !at || at < n->q || tr->time < at - n->q)
		return NS;
	return tr->time - (at - n->q);
}

static bool overlaps(const struct iom_trigger_io *io, const struct bs_trigger_note *n)
{
	uint64_t io_end = io->sector + (io->bytes ? (io->bytes + 511) / 512 : 1);
	uint64_t n_end = n->sector + (n->bytes ? (n->bytes + 511) / 512 : 1);

	return io->sector < n_end && n->sector < io_end;
}

/* 2: the I/O of the trigger, queued when the recorder says; 1: one of its request's; 0: not it. */
static int match(const struct iom_trigger *tr, const struct iom_trigger_io *io)
{
	const struct bs_trigger_note *n = &tr->note;
	uint64_t at = fired_on_issue(n) ? io->t_d : io->t_c;

	if (io->device != n->device || at != tr->time || !overlaps(io, n))
		return 0;
	return io->t_q == queued_at(tr) ? 2 : 1;
}

/* A stage from its two ends, as bs_io_sample_stages() measures it. */
static uint64_t stage(uint64_t from, uint64_t to)
{
	if (from == NS || to == NS || to < from)
		return NS;
	return to > from ? to - from : 1;
}

static void take(struct iom_trigger *tr, const struct iom_trigger_io *io)
{
	tr->io = *io;
	tr->io.q2c = stage(io->t_q, io->t_c);
	tr->io.q2d = stage(io->t_q, io->t_d);
	tr->io.d2c = stage(io->t_d, io->t_c);
	tr->found = true;
	tr->waiting = false;
}

/* The best match among the I/Os emitted last, newest first. */
static void look_back(struct iom *m, struct iom_trigger *tr)
{
	const struct iom_trigger_io *best = NULL;
	int best_score = 0;
	uint32_t k;

	for (k = 0; k < IOM_RECENT && k < m->recent_next; k++) {
		const struct iom_trigger_io *io =
			&m->recent[(m->recent_next - 1 - k) & (IOM_RECENT - 1)];
		int score = match(tr, io);

		if (score > best_score) {
			best = io;
			best_score = score;
			if (score == 2)
				break;
		}
	}
	if (best)
		take(tr, best);
}

void iom_trigger_note(struct iom *m, const struct bs_trace *t, const struct bs_trigger_note *n)
{
	struct iom_trigger *tr;
	uint32_t i;

	/* a signal or exit note is in the file of every traced device: one trigger */
	for (i = 0; i < m->h.ntriggers; i++)
		if (m->h.triggers[i].note.n == n->n)
			return;
	if (n->n > m->max_n)
		m->max_n = n->n;
	if (m->h.ntriggers >= IOM_MAX_TRIGGERS) {
		/* a snapshot numbers its triggers 1, 2, ...: the highest number is their count */
		m->h.triggers_more = m->max_n - m->h.ntriggers;
		return;
	}
	if (!m->h.triggers) {
		m->h.triggers = calloc(IOM_MAX_TRIGGERS, sizeof(*m->h.triggers));
		if (!m->h.triggers) {
			m->h.triggers_more++;
			return;
		}
	}
	tr = &m->h.triggers[m->h.ntriggers++];
	memset(tr, 0, sizeof(*tr));
	tr->note = *n;
	tr->time = t->time;	/* absolute until the genesis is known */
	if (m->genesis_set)
		tr->time = relative(m, tr->time);
	if (!n->has_io || (n->kind != BS_TRIGGER_LATENCY && n->kind != BS_TRIGGER_ERROR))
		return;
	if (m->genesis_set)
		look_back(m, tr);
	if (!tr->found) {	/* read ahead of its I/O's end */
		tr->waiting = true;
		m->triggers_waiting++;
	}
}

void iom_set_genesis(struct iom *m, uint64_t genesis)
{
	uint32_t i;

	if (m->genesis_set)
		return;
	m->genesis = genesis;
	m->genesis_set = true;
	for (i = 0; i < m->h.ntriggers; i++)
		m->h.triggers[i].time = relative(m, m->h.triggers[i].time);
}

/* Every emission, while a trigger waits: is this its I/O? */
void iom_trigger_check(struct iom *m, const struct iom_trigger_io *io)
{
	uint32_t i;

	for (i = 0; i < m->h.ntriggers && m->triggers_waiting; i++) {
		struct iom_trigger *tr = &m->h.triggers[i];

		int score;

		if (!tr->waiting)
			continue;
		score = match(tr, io);
		if (score == 2 || (score == 1 && queued_at(tr) == NS)) {
			take(tr, io);
			m->triggers_waiting--;
		} else if (score == 1 && !tr->candidate) { /* another bio of its request: kept */
			tr->io = *io;
			tr->candidate = true;
		}
	}
}

static int by_number(const void *a, const void *b)
{
	const struct iom_trigger *x = a, *y = b;

	return x->note.n < y->note.n ? -1 : x->note.n > y->note.n;
}

/*
 * The end: a waiting trigger whose exact I/O never came takes a bio of its
 * request; the triggers in the order they fired (each CPU's file is read
 * on its own: notes come in file order).
 */
void iom_trigger_finish(struct iom *m)
{
	uint32_t i;

	for (i = 0; i < m->h.ntriggers; i++) {
		struct iom_trigger *tr = &m->h.triggers[i];

		if (tr->waiting && tr->candidate)
			take(tr, &tr->io);
		tr->waiting = false;
	}
	m->triggers_waiting = 0;
	if (m->h.ntriggers > 1)
		qsort(m->h.triggers, m->h.ntriggers, sizeof(*m->h.triggers), by_number);
}
