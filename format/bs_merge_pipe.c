// SPDX-License-Identifier: GPL-2.0
/*
 * bs_merge_pipe.c - one stream (stdin, FIFO, dump file) ordered as
 * blkparse's pipe mode orders it (do_pipe(), sort_entries(),
 * show_entries_rb(), check_sequence()):
 *
 * - read up to `batch` events (notes are consumed as they are read);
 * - genesis = smallest time of the first batch; events outside the -w
 *   window are dropped before sorting;
 * - pending events sit in a heap ordered by (time, device, sequence);
 *   equal keys leave in insertion order, and blkparse inserts a batch in
 *   reverse read order;
 * - the smallest event leaves when it is the next sequence number of its
 *   (device, cpu) or that cpu's first; otherwise the next batch is read.
 *   At the end everything leaves, and sequence gaps become "skips" with
 *   blkparse's bookkeeping (including its range-splitting slip).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_codec.h"
#include "bs_hash.h"
#include "bs_merge_priv.h"

struct pipe_entry {
	struct bs_trace t;
	uint32_t action_hi;
	uint64_t tie;		/* batch number << 32 | reverse index in batch */
	uint8_t pdu[];
};

struct skip_range {
	unsigned long start, end;
};

struct pipe_cpu {
	uint32_t cpu;
	unsigned long last_seq;		/* (unsigned long)-1 before the first event */
	struct skip_range *skips;	/* in insertion order; searched from the tail */
	size_t nskips, cap;
};

/*
 * A device and the CPUs it was seen on.  Both are found through hashes
 * (device -> index in devs, (device, cpu) -> index in cpus): a hostile
 * stream may name 100k devices, each on CPUs up to 65535, and a lookup per
 * event must not scan them, nor may a device hold a table of 65536 CPUs.
 */
struct pipe_dev {
	uint32_t device;
	uint32_t *cpu_idx;		/* indexes into pipe_state.cpus, in order seen */
	size_t ncpus, cap;
};

struct pipe_state {
	struct bs_stream *s;
	bool eof, force, foreign;
	struct pipe_entry **heap;
	size_t n, cap;
	struct pipe_entry **batch;	/* the batch being read */
	uint64_t batch_no;
	struct pipe_dev *devs;
	int ndevs;
	size_t devs_cap;
	struct bs_hash dev_index;	/* device -> index in devs */
	struct pipe_cpu *cpus;		/* every (device, cpu) seen */
	size_t ncpus, cpus_cap;
	struct bs_hash cpu_index;	/* device << 32 | cpu -> index in cpus */
	struct pipe_entry *out;		/* handed out last; freed on the next call */
	enum { ORDER_UNKNOWN, ORDER_FILE, ORDER_SORTED } order;
	struct pipe_entry *held;	/* first event, read to choose the order */
};

static int entry_before(const struct pipe_entry *a, const struct pipe_entry *b)
{
	if (a->t.time != b->t.time)
		return a->t.time < b->t.time;
	if (a->t.device != b->t.device)
		return a->t.device < b->t.device;
	if (a->t.sequence != b->t.sequence)
		return a->t.sequence < b->t.sequence;
	return a->tie < b->tie;
}

static int heap_push(struct pipe_state *p, struct pipe_entry *e)
{
	size_t i;

	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 1024;
		struct pipe_entry **h = realloc(p->heap, cap * sizeof(*h));

		if (!h)
			return -1;
		p->heap = h;
		p->cap = cap;
	}
	for (i = p->n++; i && entry_before(e, p->heap[(i - 1) / 2]); i = (i - 1) / 2)
		p->heap[i] = p->heap[(i - 1) / 2];
	p->heap[i] = e;
	return 0;
}

static struct pipe_entry *heap_pop(struct pipe_state *p)
{
	struct pipe_entry *top = p->heap[0], *last = p->heap[--p->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= p->n)
			break;
		if (c + 1 < p->n && entry_before(p->heap[c + 1], p->heap[c]))
			c++;
		if (!entry_before(p->heap[c], last))
			break;
		p->heap[i] = p->heap[c];
		i = c;
	}
	if (p->n)
		p->heap[i] = last;
	return top;
}

static struct pipe_dev *get_dev(struct pipe_state *p, uint32_t device)
{
	bool added;
	uint64_t *i = bs_hash_put(&p->dev_index, device, (uint64_t)p->ndevs, &added);
	struct pipe_dev *d;

	if (!added)
		return &p->devs[*i];
	BS_GROW(p->devs, p->devs_cap, (size_t)p->ndevs, 64);
	d = &p->devs[p->ndevs++];
	memset(d, 0, sizeof(*d));
	d->device = device;
	return d;
}

static struct pipe_cpu *get_cpu(struct pipe_state *p, struct pipe_dev *d, uint32_t cpu)
{
	bool added;
	uint64_t *i;
	struct pipe_cpu *c;

	/* a damaged record's cpu: no sequence tracking for it (as before) */
	if (cpu >= (1u << 16))
		return NULL;
	i = bs_hash_put(&p->cpu_index, (uint64_t)d->device << 32 | cpu, p->ncpus, &added);
	if (!added)
		return &p->cpus[*i];
	BS_GROW(p->cpus, p->cpus_cap, p->ncpus, 64);
	BS_GROW(d->cpu_idx, d->cap, d->ncpus, 4);
	d->cpu_idx[d->ncpus++] = (uint32_t)p->ncpus;
	c = &p->cpus[p->ncpus++];
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->last_seq = (unsigned long)-1;
	return c;
}

/* blkparse insert_skip(): extend a neighbouring range, else append one. */
static void insert_skip(struct pipe_cpu *c, unsigned long start, unsigned long end)
{
	for (size_t i = c->nskips; i-- > 0;) {
		struct skip_range *r = &c->skips[i];

		if (end == r->start - 1) {
			r->start = start;
			return;
		}
		if (start == r->end + 1) {
			r->end = end;
			return;
		}
	}
	if (c->nskips == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 8;
		struct skip_range *s = realloc(c->skips, cap * sizeof(*s));

		if (!s)
			return;
		c->skips = s;
		c->cap = cap;
	}
	c->skips[c->nskips++] = (struct skip_range){ start, end };
}

/*
 * blkparse check_current_skips(): a late event fills a hole.  Splitting a
 * range reproduces blkparse exactly: it shortens the range first and then
 * inserts (seq + 1, new end), which loses the upper part of the hole.
 */
static bool fill_skip(struct pipe_cpu *c, unsigned long seq)
{
	for (size_t i = c->nskips; i-- > 0;) {
		struct skip_range *r = &c->skips[i];

		if (seq < r->start || seq > r->end)
			continue;
		if (r->start == seq) {
			if (r->end == seq) {
				memmove(r, r + 1, (c->nskips - i - 1) * sizeof(*r));
				c->nskips--;
			} else {
				r->start++;
			}
		} else if (r->end == seq) {
			r->end--;
		} else {
			r->end = seq - 1;
			insert_skip(c, seq + 1, r->end);
		}
		return true;
	}
	return false;
}

/* May e leave now?  At the end (force) it always may, recording any gap. */
static bool sequence_ready(struct pipe_state *p, const struct pipe_entry *e)
{
	struct pipe_cpu *c = get_cpu(p, get_dev(p, e->t.device), e->t.cpu);
	unsigned long expected, seq = e->t.sequence;

	if (!c || e->t.action == BS_NOTE_MESSAGE)
		return true;	/* messages carry no sequence number and never wait */
	expected = c->last_seq + 1;
	if (expected == 0 || seq == expected)
		return true;
	if (!p->force)
		return false;
	if (!fill_skip(c, seq) && expected < seq)
		insert_skip(c, expected, seq - 1);
	return true;
}

static void release(struct pipe_state *p, const struct pipe_entry *e)
{
	struct pipe_cpu *c = get_cpu(p, get_dev(p, e->t.device), e->t.cpu);

	if (c && e->t.action != BS_NOTE_MESSAGE)
		c->last_seq = e->t.sequence;
}

/* blkparse read_events() + sort_entries(); returns the events read. */
/* The one stream stopped at damage: nothing follows it (the time: "the end"). */
static void pipe_damaged(struct bs_merge *m)
{
	m->damaged = 1;
	if (m->opts.on_damage)
		m->opts.on_damage(m->opts.ctx, bs_stream_name(m->pipe->s),
				  bs_stream_damage_offset(m->pipe->s), UINT64_MAX);
}

static unsigned int read_batch(struct bs_merge *m)
{
	struct pipe_state *p = m->pipe;
	unsigned int n = 0;
	uint64_t youngest = 0;
	struct bs_record rec;

	if (p->held) {
		p->batch[n++] = p->held;
		p->held = NULL;
	}
	while (n < m->opts.batch) {
		struct pipe_entry *e;

		if (bs_stream_next(p->s, &rec) != BS_STREAM_RECORD) {
			if (bs_stream_damaged(p->s))
				pipe_damaged(m);
			p->eof = true;
			break;
		}
		if (bs_merge_is_read_time_note(rec.t.action)) {
			bs_merge_note(m, &rec, -1);
			continue;
		}
		e = malloc(sizeof(*e) + rec.t.pdu_len);
		if (!e) {
			p->eof = true;
			break;
		}
		e->t = rec.t;
		e->action_hi = rec.action_hi;
		memcpy(e->pdu, rec.pdu, rec.t.pdu_len);
		p->foreign = rec.foreign;
		get_dev(p, rec.t.device);	/* blkparse creates devices in read order */
		p->batch[n++] = e;
	}
	if (!n)
		return 0;
	/* blkparse tests "!genesis_time": a genesis of 0 is recomputed every batch */
	if (!m->started || !m->genesis) {
		m->genesis = UINT64_MAX;
		for (unsigned int i = 0; i < n; i++)
			if (p->batch[i]->t.time < m->genesis)
				m->genesis = p->batch[i]->t.time;
		m->started = true;
	}
	p->batch_no++;
	for (unsigned int i = n; i-- > 0;) {	/* blkparse walks its batch newest first */
		struct pipe_entry *e = p->batch[i];

		e->t.time -= m->genesis;
		if (e->t.time < youngest || !youngest)
			youngest = e->t.time;
		if (e->t.time >= m->opts.window_end || e->t.time < m->opts.window_start) {
			free(e);
			continue;
		}
		e->tie = p->batch_no << 32 | (n - i);
		if (heap_push(p, e))
			free(e);
	}
	if (youngest > m->opts.window_end)
		p->eof = true;		/* blkparse stops reading; what is queued still prints */
	return n;
}

int bs_merge_pipe_open(struct bs_merge *m, const char *path)
{
	char err[512];

	m->stream_mode = true;
	m->pipe = calloc(1, sizeof(*m->pipe));
	if (!m->pipe)
		return -1;
	m->pipe->order = m->opts.dumps_in_file_order ? ORDER_UNKNOWN : ORDER_SORTED;
	m->pipe->batch = malloc(m->opts.batch * sizeof(*m->pipe->batch));
	m->pipe->s = bs_stream_open(path, -1, err, sizeof(err));
	if (!m->pipe->s) {
		bs_msg(&m->opts.msg, BS_MSG_ERROR, "%s", err);
		return -1;
	}
	bs_stream_set_msg(m->pipe->s, &m->opts.msg);
	return m->pipe->batch ? 0 : -1;
}

/*
 * The next event in file order (notes go to on_note as they are read);
 * 0 at the end.  rec's PDU stays valid until the next read.
 */
static int next_in_file_order(struct bs_merge *m, struct bs_record *rec)
{
	struct pipe_state *p = m->pipe;

	for (;;) {
		if (bs_stream_next(p->s, rec) != BS_STREAM_RECORD) {
			if (bs_stream_damaged(p->s))
				pipe_damaged(m);
			p->eof = true;
			return 0;
		}
		if (!bs_merge_is_read_time_note(rec->t.action))
			break;
		bs_merge_note(m, rec, -1);
	}
	p->foreign = rec->foreign;
	get_dev(p, rec->t.device);
	return 1;
}

/*
 * Read the first event and choose: time 0 means blkparse wrote this file
 * (a dump), and btt reads a dump in file order; anything else is a raw
 * stream for the pipe merge, which gets the event back through `held`.
 */
static void choose_order(struct bs_merge *m, struct bs_record *rec, bool *have)
{
	struct pipe_state *p = m->pipe;

	*have = next_in_file_order(m, rec);
	if (*have && rec->t.time == 0) {
		p->order = ORDER_FILE;
		m->started = true;	/* genesis 0: the times are already relative */
		return;
	}
	p->order = ORDER_SORTED;
	if (*have) {
		p->held = malloc(sizeof(*p->held) + rec->t.pdu_len);
		if (!p->held) {
			p->eof = true;
			return;
		}
		p->held->t = rec->t;
		p->held->action_hi = rec->action_hi;
		memcpy(p->held->pdu, rec->pdu, rec->t.pdu_len);
	}
	*have = false;
}

static void fill_event(struct bs_event *ev, const struct bs_trace *t, uint32_t action_hi, const uint8_t *pdu,
		       bool foreign)
{
	ev->t = *t;
	ev->action_hi = action_hi;
	ev->pdu = pdu;
	ev->dev = -1;
	ev->cpu = t->cpu;
	ev->foreign = foreign;
	ev->cgroup = bs_cgroup_id(t, pdu, foreign);
}

int bs_merge_pipe_next(struct bs_merge *m, struct bs_event *ev)
{
	struct pipe_state *p = m->pipe;
	struct bs_record rec;
	bool have = false;

	if (p->order == ORDER_UNKNOWN)
		choose_order(m, &rec, &have);
	if (p->order == ORDER_FILE) {
		if (!have && !next_in_file_order(m, &rec))
			return 0;
		fill_event(ev, &rec.t, rec.action_hi, rec.pdu, rec.foreign);
		return 1;
	}
	free(p->out);
	p->out = NULL;
	for (;;) {
		if (p->n && sequence_ready(p, p->heap[0]))
			break;
		if (p->eof) {
			if (!p->n)
				return 0;
			p->force = true;
			continue;
		}
		read_batch(m);
	}
	p->out = heap_pop(p);
	release(p, p->out);
	fill_event(ev, &p->out->t, p->out->action_hi, p->out->pdu, p->foreign);
	return 1;
}

int bs_merge_devices(const struct bs_merge *m, uint32_t *out, int max)
{
	if (!m->pipe)
		return 0;
	for (int i = 0; i < m->pipe->ndevs && i < max; i++)
		out[i] = m->pipe->devs[i].device;
	return m->pipe->ndevs;
}

struct bs_skip_stats bs_merge_skips(const struct bs_merge *m, uint32_t device)
{
	struct bs_skip_stats st = { .device = device };
	const struct pipe_dev *d;
	uint64_t *i;

	if (!m->pipe || !(i = bs_hash_get(&m->pipe->dev_index, device)))
		return st;
	d = &m->pipe->devs[*i];
	for (size_t k = 0; k < d->ncpus; k++) {
		const struct pipe_cpu *c = &m->pipe->cpus[d->cpu_idx[k]];

		for (size_t j = 0; j < c->nskips; j++) {
			st.skips++;
			st.seq_skips += c->skips[j].end - c->skips[j].start + 1;
		}
	}
	return st;
}

static const struct pipe_cpu *sort_base;

static int by_cpu(const void *a, const void *b)
{
	uint32_t x = sort_base[*(const uint32_t *)a].cpu, y = sort_base[*(const uint32_t *)b].cpu;

	return (x > y) - (x < y);
}

/* Per device in creation order, its CPUs in ascending order, as blkparse. */
void bs_merge_print_skips(const struct bs_merge *m, void *file)
{
	if (!m->pipe)
		return;
	for (int i = 0; i < m->pipe->ndevs; i++) {
		const struct pipe_dev *d = &m->pipe->devs[i];
		uint32_t *order;

		if (!d->ncpus)
			continue;
		order = memcpy(bs_xmalloc(d->ncpus * sizeof(*order)), d->cpu_idx, d->ncpus * sizeof(*order));
		sort_base = m->pipe->cpus;
		qsort(order, d->ncpus, sizeof(*order), by_cpu);
		for (size_t k = 0; k < d->ncpus; k++) {
			const struct pipe_cpu *c = &m->pipe->cpus[order[k]];

			for (size_t j = 0; j < c->nskips; j++)
				fprintf(file, "(%u,%u): skipping %lu -> %lu\n", BS_DEV_MAJOR(d->device),
					BS_DEV_MINOR(d->device), c->skips[j].start, c->skips[j].end);
		}
		free(order);
	}
}

void bs_merge_pipe_free(struct bs_merge *m)
{
	struct pipe_state *p = m->pipe;

	if (!p)
		return;
	bs_stream_close(p->s);
	while (p->n)
		free(heap_pop(p));
	free(p->heap);
	free(p->batch);
	free(p->out);
	free(p->held);
	for (int i = 0; i < p->ndevs; i++)
		free(p->devs[i].cpu_idx);
	for (size_t c = 0; c < p->ncpus; c++)
		free(p->cpus[c].skips);
	free(p->devs);
	free(p->cpus);
	bs_hash_free(&p->dev_index);
	bs_hash_free(&p->cpu_index);
	free(p);
	m->pipe = NULL;
}
