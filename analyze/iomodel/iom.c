// SPDX-License-Identifier: GPL-2.0
/*
 * iom.c - the per-I/O model's life cycle and its door: every record of
 * the merged stream comes in here (iom.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_codec.h"
#include "bs_notes.h"
#include "iom_priv.h"

static void check_plain(struct iom *m)
{
	m->plain = !m->o.health_only && !m->o.time_bounded && !m->h.damaged;
}

struct iom *iom_new(const struct iom_opts *o)
{
	struct iom *m = bs_xcalloc(1, sizeof(*m));

	m->o = *o;
	check_plain(m);
	iom_tab_init(&m->pending);
	iom_tab_init(&m->by_pos);
	iom_tab_init(&m->by_end);
	iom_pool_init(&m->io_pool, sizeof(struct iom_io));
	iom_pool_init(&m->frag_pool, sizeof(struct iom_frag));
	iom_pool_init(&m->rq_pool, sizeof(struct iom_rq));
	return m;
}

void iom_set_opts(struct iom *m, const struct iom_opts *o)
{
	m->o = *o;
	check_plain(m);
}

void iom_free(struct iom *m)
{
	size_t i;

	if (!m)
		return;
	iom_tab_free(&m->pending);
	iom_tab_free(&m->by_pos);
	iom_tab_free(&m->by_end);
	iom_pool_free(&m->io_pool);
	iom_pool_free(&m->frag_pool);
	iom_pool_free(&m->rq_pool);
	for (i = 0; i < m->ndevs; i++) {
		bs_dev_counters_free(&m->ctrs[i]);
		free(m->devs[i]);
	}
	free(m->devs);
	free(m->ctrs);
	bs_hash_free(&m->dev_idx);
	for (i = 0; i < m->ncpus; i++)
		free(m->cpus[i]);
	free(m->cpus);
	bs_hash_free(&m->cpu_idx);
	bs_hash_free(&m->pid_name);
	free(m->names);
	free(m->h.cpus);
	free(m->h.triggers);
	free(m);
}

int iom_add_sink(struct iom *m, const struct bs_sample_sink *sink)
{
	if (m->nsinks == IOM_MAX_SINKS)
		return -1;
	m->sinks[m->nsinks++] = *sink;
	if (sink->event)
		m->event_sinks = true;
	return 0;
}

void iom_set_attr(struct iom *m, iom_attr_fn fn, void *ctx)
{
	m->attr_fn = fn;
	m->attr_ctx = ctx;
}

bool iom_sinks_own_state(const struct iom *m)
{
	int i;

	for (i = 0; i < m->nsinks; i++)
		if (!m->sinks[i].own_state)
			return false;
	return true;
}

bool iom_wants_events(const struct iom *m)
{
	return m->event_sinks;
}

/* ---- names ---------------------------------------------------------------- */

void iom_process_note(struct iom *m, uint32_t pid, const char *comm, size_t len)
{
	bool fresh;
	char *name;
	size_t k;

	bs_hash_put(&m->pid_name, pid, m->nnames, &fresh);
	if (!fresh)	/* as btt: a pid keeps its first name */
		return;
	memset(m->name_cache, 0, sizeof(m->name_cache));	/* the names may move */
	BS_GROW(m->names, m->names_cap, m->nnames + 1, 64);
	name = m->names[m->nnames++];
	if (!pid) {	/* btt: pid 0 is "kernel" */
		snprintf(name, sizeof(m->names[0]), "kernel");
		return;
	}
	if (len > BS_COMM_LEN)
		len = BS_COMM_LEN;
	for (k = 0; k < len && comm[k] && comm[k] != '/'; k++) /* btt: "kworker/1:1" is "kworker" */
		name[k] = comm[k];
	name[k] = 0;
}

const char *iom_comm(const struct iom *m, uint32_t pid)
{
	const uint64_t *i = bs_hash_get(&m->pid_name, pid);

	return i ? m->names[*i] : NULL;
}

const char *iom_comm_cached(struct iom *m, uint32_t pid)
{
	struct iom_name_slot *c = &m->name_cache[pid & 63];

	if (c->name && c->pid == pid)
		return c->name;
	c->pid = pid;
	return c->name = iom_comm(m, pid);
}

uint64_t iom_last_time(const struct iom *m)
{
	return m->last_time;
}

uint64_t iom_followed(const struct iom *m)
{
	return m->followed;
}

const struct bs_dev_counters *iom_counters(const struct iom *m, int *n)
{
	*n = (int)m->ndevs;
	return m->ctrs;
}

/* ---- the stream ------------------------------------------------------------ */

/* The recorder's end note closes one (device, cpu) stream: its counts. */
void iom_message(struct iom *m, const struct bs_trace *t, const uint8_t *pdu, bool foreign)
{
	struct bs_trigger_note tn;
	struct bs_end_note en;
	struct iom_dev *d;
	struct iom_cpu *c;

	if (!bs_end_note_parse(t, pdu, foreign, &en)) {
		if (bs_trigger_note_parse(t, pdu, foreign, &tn))
			iom_trigger_note(m, t, &tn);
		return;
	}
	d = iom_dev_of(m, t->device, t->time);
	c = iom_cpu_get(m, t->device, t->cpu, d->index);
	c->c.end_note = true;
	c->c.rec_events = en.events;
	c->c.rec_drops = en.drops;
	m->h.any_end_note = true;
}

void iom_cut(struct iom *m, const char *file, uint64_t size, uint64_t last_time)
{
	if (m->h.damaged && m->h.damage_time <= last_time)
		return;
	iom_damage(m, file, size, last_time);
	m->h.cut = true;
}

void iom_damage(struct iom *m, const char *file, uint64_t offset, uint64_t last_time)
{
	if (m->h.damaged && m->h.damage_time <= last_time)
		return;	/* the earliest damage decides */
	m->h.damaged = true;
	m->h.cut = false;
	check_plain(m);
	m->h.damage_time = last_time;
	snprintf(m->h.damage_file, sizeof(m->h.damage_file), "%s", file);
	m->h.damage_offset = offset;
}

/* An I/O record without a cgroup id, note or passthrough bit, in a plain model. */
static inline void event_plain(struct iom *m, const struct bs_trace *t, uint32_t action_hi,
			       const uint8_t *pdu, int tag)
{
	struct iom_dev *d = iom_dev_of(m, t->device, t->time);

	iom_stream_event(m, d, t);
	m->last_time = t->time;
	m->followed++;
	iom_model_event(m, d, t, action_hi, pdu, tag);
}

static void event_gated(struct iom *m, const struct bs_trace *t, uint32_t action_hi,
			const uint8_t *pdu, bool foreign, int tag);

void iom_event(struct iom *m, const struct bs_trace *t, uint32_t action_hi, const uint8_t *pdu,
	       bool foreign, int tag)
{
	if (__builtin_expect(m->plain && !(t->action & (BS_TA_CGROUP | BS_TC_ACT(BS_TC_NOTIFY) |
							 BS_TC_ACT(BS_TC_PC))), 1))
		event_plain(m, t, action_hi, pdu, tag);
	else
		event_gated(m, t, action_hi, pdu, foreign, tag);
}

/* Every other record: notes, the damage and -t/-T gates, passthrough, cgroup ids. */
static __attribute__((noinline)) void event_gated(struct iom *m, const struct bs_trace *t,
						  uint32_t action_hi, const uint8_t *pdu,
						  bool foreign, int tag)
{
	unsigned int act = t->action & 0xffff & ~BS_TA_CGROUP;
	struct iom_dev *d;
	uint64_t cgroup = 0;

	if (t->action & BS_TC_ACT(BS_TC_NOTIFY)) {
		iom_message(m, t, pdu, foreign);
		return;
	}
	if (m->h.damaged && t->time > m->h.damage_time) {	/* past the damage: not followed */
		m->h.after_damage++;
		return;
	}
	d = iom_dev_of(m, t->device, t->time);
	iom_stream_event(m, d, t);
	m->last_time = t->time;
	if (m->o.health_only)
		return;
	if (m->o.time_bounded && (t->time < m->o.t_start || t->time > m->o.t_end))
		return;
	m->followed++;
	if (t->action &
	    BS_TC_ACT(BS_TC_PC)) { /* passthrough: no bio, not the disk's I/O statistics */
		iom_count_event(m, d, t, action_hi, act);
		m->h.passthrough++;
		return;
	}
	if (t->action & BS_TA_CGROUP)
		cgroup = bs_cgroup_id(t, pdu, foreign);
	m->cur_cgroup = cgroup;
	iom_model_event(m, d, t, action_hi, pdu, tag);
	m->cur_cgroup = 0;
}

void iom_event_ev(struct iom *m, const struct bs_event *ev, int tag)
{
	int i;

	if (m->event_sinks)	/* MESSAGE notes too: they are events of the merged stream */
		for (i = 0; i < m->nsinks; i++)
			if (m->sinks[i].event)
				m->sinks[i].event(m->sinks[i].ctx, ev);
	iom_event(m, &ev->t, ev->action_hi, ev->pdu, ev->foreign, tag);
}

/* ---- the end ---------------------------------------------------------------- */

/* Lost events: per stream, the larger of the numbers missing and the recorder's drops. */
static void sum_losses(struct iom *m)
{
	size_t i;

	m->h.lost_events = 0;
	free(m->h.cpus);
	m->h.cpus = bs_xcalloc(m->ncpus ? m->ncpus : 1, sizeof(*m->h.cpus));
	for (i = 0; i < m->ncpus; i++) {
		struct iom_cpu_cover *c = &m->cpus[i]->c;

		if (c->first_time == UINT64_MAX)
			c->first_time = c->last_time = 0;
		if (!c->first_seq)	/* no numbers: none last */
			c->last_seq = 0;
		m->h.lost_events += c->rec_drops > c->missing ? c->rec_drops : c->missing;
		m->h.cpus[i] = *c;
	}
	m->h.ncpus = (uint32_t)m->ncpus;
	if (m->h.damaged && m->h.damage_time == UINT64_MAX)	/* the one stream ended there */
		m->h.damage_time = m->last_time;
}

void iom_finish(struct iom *m, uint64_t end_time)
{
	int i;

	iom_flush_open(m);
	iom_trigger_finish(m);
	sum_losses(m);
	for (i = 0; i < m->nsinks; i++)
		if (m->sinks[i].finish)
			m->sinks[i].finish(m->sinks[i].ctx, end_time);
}

const struct iom_health *iom_health(const struct iom *m)
{
	return &m->h;
}

static bool cut_short(const struct iom_health *h)
{
	uint32_t i;

	for (i = 0; i < h->ncpus; i++)
		if (iom_cover_cut(h, &h->cpus[i]))
			return true;
	return false;
}

bool iom_health_off(const struct iom_health *h)
{
	return h->lost_events || h->damaged || cut_short(h) || h->open_stale.ios || h->loss.ios ||
	       h->c_unmatched.late || h->d_unmatched.late || h->other_unmatched.late ||
	       h->superseded || h->evicted;
}
