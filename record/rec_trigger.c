// SPDX-License-Identifier: GPL-2.0
/*
 * rec_trigger.c - the flight recorder's triggers (record --ring --trigger SPEC):
 * parsing, and evaluation on the time-ordered records as they stream in.
 *
 *   SPEC := signal | [DEV ':'] [OP '.'] ( METRIC '>' DURATION | error | drop )
 *   DEV := MAJOR,MINOR or a traced device's kernel name (sdb, loop1)
 *   OP := read | write | discard | flush | sync
 *   METRIC := Q2C | D2C | Q2D
 *
 * Latency triggers pair each completion with its issue and queue events
 * (rec_inflight.c); error triggers look at a completion's error; drop
 * triggers at the sequence numbers of each (trace, CPU): the kernel side
 * uses up a number for every event it drops, so a gap is a loss.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_arg.h"
#include "bs_codec.h"
#include "record.h"

#define INFLIGHT_MAX	(1u << 15)	/* I/Os tracked at once (latency triggers) */

static const struct {
	const char *name;
	unsigned int op;
} ops[] = {
	{ "read", REC_OP_READ }, { "write", REC_OP_WRITE }, { "discard", REC_OP_DISCARD },
	{ "flush", REC_OP_FLUSH }, { "sync", REC_OP_SYNC },
};

static int fail(char *why, size_t len, const char *msg)
{
	snprintf(why, len, "%s", msg);
	return -1;
}

/* "Q2C>100ms" (after any DEV: and OP.) */
static int parse_latency(const char *s, struct rec_trigger *t, char *why, size_t len)
{
	static const char *const metrics[] = { [REC_Q2C] = "Q2C", [REC_D2C] = "D2C",
					       [REC_Q2D] = "Q2D" };
	int m;

	for (m = REC_Q2C; m <= REC_Q2D; m++)
		if (!strncasecmp(s, metrics[m], 3) && s[3] == '>')
			break;
	if (m > REC_Q2D)
		return fail(why, len, "expected signal, error, drop or Q2C|D2C|Q2D>DURATION");
	if (bs_parse_duration(s + 4, &t->threshold) < 0 || !t->threshold)
		return fail(why, len,
			    "the threshold is a duration above 0 with a unit (ns, us, ms, s)");
	t->kind = BS_TRIGGER_LATENCY;
	t->metric = m;
	return 0;
}

int rec_trigger_parse(const char *spec, struct rec_trigger *t, char *why, size_t len)
{
	const char *s = spec, *colon, *dot;
	size_t i;

	memset(t, 0, sizeof(*t));
	t->trace = -1;
	if (strlen(spec) >= sizeof(t->expr))
		return fail(why, len, "too long");
	for (i = 0; spec[i]; i++)
		if (!isalnum((unsigned char)spec[i]) && !strchr(".,:>_-", spec[i]))
			return fail(why, len, "only letters, digits and . , : > _ - may appear");
	snprintf(t->expr, sizeof(t->expr), "%s", spec);
	if (!strcmp(s, "signal")) {
		t->kind = BS_TRIGGER_SIGNAL;
		return 0;
	}
	colon = strchr(s, ':');
	if (colon) {
		if (colon == s || (size_t)(colon - s) >= sizeof(t->dev))
			return fail(why, len, "a device before ':' (MAJOR,MINOR or a name)");
		memcpy(t->dev, s, colon - s);
		s = colon + 1;
	}
	dot = strchr(s, '.');
	if (dot) {
		for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			if (strlen(ops[i].name) == (size_t)(dot - s) &&
			    !strncmp(s, ops[i].name, dot - s))
				t->op = ops[i].op;
		if (!t->op)
			return fail(why, len,
				    "the operation is read, write, discard, flush or sync");
		s = dot + 1;
	}
	if (!strcmp(s, "error"))
		t->kind = BS_TRIGGER_ERROR;
	else if (!strcmp(s, "drop"))
		t->kind = BS_TRIGGER_DROP;
	else
		return parse_latency(s, t, why, len);
	if (t->kind == BS_TRIGGER_DROP && t->op)
		return fail(why, len, "drop takes no operation (a lost event has none)");
	return 0;
}

int rec_trigger_resolve(struct rec_trigger *t, const struct rec_trace *traces, int ntraces)
{
	unsigned int ma, mi;
	int i, used = 0;

	if (!t->dev[0])
		return 0;
	if (sscanf(t->dev, "%u,%u%n", &ma, &mi, &used) == 2 && !t->dev[used]) {
		for (i = 0; i < ntraces; i++)
			if (traces[i].dev == BS_MKDEV(ma, mi))
				return t->trace = i, 0;
		return -1;
	}
	for (i = 0; i < ntraces; i++)
		if (!strcmp(traces[i].name, t->dev))
			return t->trace = i, 0;
	return -1;
}

/* ------------------------------------------------------------------ */

struct rec_trig_eval *rec_trig_eval_new(const struct rec_trigger *t, int n, int ntraces, int ncpus)
{
	struct rec_trig_eval *e = calloc(1, sizeof(*e));
	int i;

	if (!e)
		return NULL;
	e->t = t;
	e->n = n;
	e->ncpus = ncpus;
	e->last_seq = calloc((size_t)ntraces * ncpus, sizeof(*e->last_seq));
	for (i = 0; i < n; i++) {
		e->on_events |= t[i].kind != BS_TRIGGER_SIGNAL;
		if (t[i].kind != BS_TRIGGER_LATENCY)
			continue;
		e->latency = true;
		e->need_q |= t[i].metric != REC_D2C;
	}
	if (e->latency)
		e->inflight = rec_inflight_new(INFLIGHT_MAX);
	if (!e->last_seq || (e->latency && !e->inflight)) {
		rec_trig_eval_free(e);
		return NULL;
	}
	return e;
}

void rec_trig_eval_free(struct rec_trig_eval *e)
{
	if (!e)
		return;
	rec_inflight_free(e->inflight);
	free(e->last_seq);
	free(e);
}

static bool op_matches(unsigned int op, uint32_t action)
{
	unsigned int cats = bs_act_cats(action);

	switch (op) {
	case 0:
		return true;
	case REC_OP_READ:
		return !(cats & BS_TC_WRITE);
	case REC_OP_WRITE:
		return (cats & BS_TC_WRITE) && !(cats & BS_TC_DISCARD);
	case REC_OP_DISCARD:
		return cats & BS_TC_DISCARD;
	case REC_OP_FLUSH:
		return cats & BS_TC_FLUSH;
	default:
		return cats & BS_TC_SYNC;
	}
}

/* The I/O of event t into the note. */
static void note_io(struct bs_trigger_note *n, const struct bs_trace *t)
{
	n->has_io = true;
	n->device = t->device;
	n->sector = t->sector;
	n->bytes = t->bytes;
	bs_rwbs(n->rwbs, t->action, t->bytes);
}

/* The latency trigger i measures on this event, or 0. */
static uint64_t measured(const struct rec_trigger *tr, const struct bs_trace *t, uint64_t q,
			 uint64_t d)
{
	unsigned int a = t->action & 0xff;	/* no cgroup flag, no v8 stash */

	switch (tr->metric) {
	case REC_Q2C:
		return a == BS_TA_COMPLETE && q ? t->time - q : 0;
	case REC_D2C:
		return a == BS_TA_COMPLETE && d ? t->time - d : 0;
	default:
		return a == BS_TA_ISSUE && q ? t->time - q : 0;
	}
}

/* Pair the event with its I/O; *q and *d: its queue and issue times. */
static void pair(struct rec_trig_eval *e, int trace, const struct bs_trace *t, uint64_t *q,
		 uint64_t *d)
{
	unsigned int a = t->action & 0xff;	/* no cgroup flag, no v8 stash */

	*q = *d = 0;
	if (a == BS_TA_QUEUE && e->need_q)
		rec_inflight_queue(e->inflight, trace, t->sector, t->bytes, t->time);
	else if (a == BS_TA_ISSUE) {
		rec_inflight_issue(e->inflight, trace, t->sector, t->bytes, t->time, q);
		*d = t->time;
	} else if (a == BS_TA_COMPLETE)
		rec_inflight_complete(e->inflight, trace, t->sector, t->bytes, q, d);
}

/* The first trigger whose device matches and that this event fires. */
static int first_fired(struct rec_trig_eval *e, int trace, const struct bs_trace *t, uint64_t q,
		       uint64_t d, uint64_t lost, uint64_t *value)
{
	unsigned int a = t->action & 0xff;	/* no cgroup flag, no v8 stash */
	int i;

	for (i = 0; i < e->n; i++) {
		const struct rec_trigger *tr = &e->t[i];

		if (tr->trace >= 0 && tr->trace != trace)
			continue;
		if (tr->kind == BS_TRIGGER_DROP && lost)
			return *value = lost, i;
		if (tr->kind == BS_TRIGGER_ERROR && a == BS_TA_COMPLETE && t->error &&
		    op_matches(tr->op, t->action))
			return *value = t->error, i;
		if (tr->kind == BS_TRIGGER_LATENCY && op_matches(tr->op, t->action)) {
			*value = measured(tr, t, q, d);
			if (*value > tr->threshold)
				return i;
		}
	}
	return -1;
}

int rec_trig_event(struct rec_trig_eval *e, int trace, const struct bs_trace *t,
		   struct bs_trigger_note *fired)
{
	uint32_t *last = &e->last_seq[trace * e->ncpus + (int)t->cpu];
	uint64_t q = 0, d = 0, lost = 0, value;
	int i;

	/* a gap in this (trace, CPU)'s numbers: the kernel side dropped events */
	if (t->sequence != *last + 1 && t->sequence - *last < 0x80000000u)
		lost = t->sequence - *last - 1;
	*last = t->sequence;
	if (e->latency)
		pair(e, trace, t, &q, &d);
	i = first_fired(e, trace, t, q, d, lost, &value);
	if (i < 0)
		return -1;
	memset(fired, 0, sizeof(*fired));
	fired->kind = e->t[i].kind;
	snprintf(fired->expr, sizeof(fired->expr), "%s", e->t[i].expr);
	note_io(fired, t);
	if (fired->kind == BS_TRIGGER_DROP) {
		fired->lost = value;
	} else {
		fired->q = q;
		fired->d = d;
		if ((t->action & 0xff) == BS_TA_COMPLETE)
			fired->c = t->time;
		if (fired->kind == BS_TRIGGER_LATENCY)
			fired->latency = value;
		else
			fired->error = t->error;
	}
	return i;
}
