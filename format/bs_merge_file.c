// SPDX-License-Identifier: GPL-2.0
/*
 * bs_merge_file.c - merging per-CPU files, as blkparse's file mode does.
 *
 * Each CPU stream holds a batch of up to opts.batch events (headers and
 * PDUs copied out of the reader's buffer).  Notes met while a batch is
 * read are handed to on_note at once, so they come out ahead of the
 * batch's events, exactly where blkparse -d writes them.  The streams sit
 * in a singly linked list sorted by the time of their next event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_codec.h"
#include "bs_merge_impl.h"

struct file_stream {
	struct bs_stream *s;	/* NULL once drained or damaged */
	int dev, cpu;
	bool foreign;
	struct bs_trace *ev;	/* the current batch */
	uint32_t *hi;		/* each event's action_hi */
	uint32_t *pdu_off;	/* offset of each event's PDU in arena */
	uint8_t *arena;
	size_t arena_len, arena_cap;
	unsigned int n, head;	/* events in the batch, next to hand out */
	struct file_stream *next;
};

static uint64_t head_time(const struct file_stream *fs)
{
	return fs->ev[fs->head].time;
}

/*
 * blkparse's ms_sort(): before the list head only if strictly earlier;
 * otherwise after every stream whose head is strictly earlier, i.e. ahead
 * of later streams with an equal time (but behind an equal head).
 */
static void list_insert(struct bs_merge *m, struct file_stream *fs)
{
	uint64_t t = head_time(fs);
	struct file_stream *p = m->head;

	fs->next = NULL;
	if (!p) {
		m->head = fs;
	} else if (t < head_time(p)) {
		fs->next = p;
		m->head = fs;
	} else {
		while (p->next && head_time(p->next) < t)
			p = p->next;
		fs->next = p->next;
		p->next = fs;
	}
}

static int arena_reserve(struct file_stream *fs, size_t len)
{
	if (fs->arena_len + len <= fs->arena_cap)
		return 0;
	size_t cap = fs->arena_cap ? fs->arena_cap * 2 : 4096;

	while (cap < fs->arena_len + len)
		cap *= 2;
	uint8_t *a = realloc(fs->arena, cap);

	if (!a)
		return -1;
	fs->arena = a;
	fs->arena_cap = cap;
	return 0;
}

static void stream_stop(struct bs_merge *m, struct file_stream *fs)
{
	if (bs_stream_damaged(fs->s))
		m->damaged = 1;
	bs_stream_close(fs->s);
	fs->s = NULL;
}

/* Hand a note read into a batch slot to the consumer (notes are rare). */
static void pass_note(struct bs_merge *m, struct file_stream *fs, const struct bs_trace *t,
		      uint32_t action_hi, const uint8_t *pdu, uint64_t off)
{
	struct bs_record rec = { .t = *t, .action_hi = action_hi, .pdu = pdu, .offset = off,
				 .foreign = bs_stream_foreign(fs->s) };

	merge_note(m, &rec, fs->dev);
}

/* Read the next batch of events; returns how many (0 = stream finished). */
static unsigned int prime(struct bs_merge *m, struct file_stream *fs)
{
	const uint8_t *pdu;
	uint64_t off;

	fs->n = fs->head = 0;
	fs->arena_len = 0;
	while (fs->s && fs->n < m->opts.batch) {
		struct bs_trace *t = &fs->ev[fs->n];
		unsigned int k = bs_stream_read_plain_run(fs->s, t, m->opts.batch - fs->n), i;

		if (k) {	/* the common records, many at a time: no PDU, native */
			memset(fs->hi + fs->n, 0, k * sizeof(*fs->hi));
			if (!fs->arena_len)
				memset(fs->pdu_off + fs->n, 0, k * sizeof(*fs->pdu_off));
			else
				for (i = fs->n; i < fs->n + k; i++)
					fs->pdu_off[i] = (uint32_t)fs->arena_len;
			if (!fs->n)
				fs->foreign = false;
			fs->n += k;
			continue;
		}
		if (bs_stream_read(fs->s, t, &fs->hi[fs->n], &pdu, &off) != BS_STREAM_RECORD) {
			stream_stop(m, fs);
			break;
		}
		/* here: at the end of the file the stream is closed in this loop */
		if (!fs->n)
			fs->foreign = bs_stream_foreign(fs->s);	/* known from the first record on */
		if (merge_is_read_time_note(t->action)) {
			pass_note(m, fs, t, fs->hi[fs->n], pdu, off);
			continue;
		}
		fs->pdu_off[fs->n++] = fs->arena_len;
		if (!t->pdu_len)
			continue;
		if (arena_reserve(fs, t->pdu_len)) {
			fprintf(stderr, "%s: out of memory\n", bs_progname());
			fs->n--;
			stream_stop(m, fs);
			break;
		}
		memcpy(fs->arena + fs->arena_len, pdu, t->pdu_len);
		fs->arena_len += t->pdu_len;
	}
	return fs->n;
}

int file_merge_open(struct bs_merge *m, const struct bs_input_set *in)
{
	int total = 0;
	char err[512];

	for (int d = 0; d < in->ndevs; d++)
		total += in->devs[d].ncpus;
	m->streams = calloc(total ? total : 1, sizeof(*m->streams));
	if (!m->streams)
		return -1;
	for (int d = 0; d < in->ndevs; d++) {
		for (int c = 0; c < in->devs[d].ncpus; c++) {
			const struct bs_input_cpu *ic = &in->devs[d].cpus[c];
			struct file_stream *fs = &m->streams[m->nstreams];

			fs->s = bs_stream_open(ic->path, ic->cpu, err, sizeof(err));
			if (!fs->s) {
				fprintf(stderr, "%s: %s\n", bs_progname(), err);
				m->damaged = 1;
				continue;
			}
			fs->dev = d;
			fs->cpu = ic->cpu;
			fs->ev = malloc(m->opts.batch * sizeof(*fs->ev));
			fs->pdu_off = malloc(m->opts.batch * sizeof(*fs->pdu_off));
			fs->hi = malloc(m->opts.batch * sizeof(*fs->hi));
			if (!fs->ev || !fs->pdu_off || !fs->hi)
				return -1;
			m->nstreams++;
			if (prime(m, fs))
				list_insert(m, fs);
		}
	}
	if (m->head) {
		m->genesis = head_time(m->head);
		m->started = true;
	}
	return 0;
}

/* blkparse's ms_deq(): advance the head stream, refill or drop it, re-sort. */
static void advance_head(struct bs_merge *m)
{
	struct file_stream *fs = m->pending;

	m->pending = NULL;
	if (++fs->head == fs->n && !prime(m, fs)) {
		m->head = fs->next;
		fs->next = NULL;
		return;
	}
	if (fs->next && head_time(fs) > head_time(fs->next)) {
		m->head = fs->next;
		list_insert(m, fs);
	}
}

/*
 * The head stream's next event, or NULL at the end.  The previous event
 * is released only now: its consumer ran before the next batch's notes.
 */
static inline struct file_stream *next_head(struct bs_merge *m)
{
	struct file_stream *fs;

	if (m->pending)
		advance_head(m);
	fs = m->head;
	m->pending = fs;
	return fs;
}

/* a batch without PDUs has no arena, and NULL + 0 is undefined */
static inline const uint8_t *head_pdu(const struct file_stream *fs)
{
	return fs->arena_len ? fs->arena + fs->pdu_off[fs->head] : (const uint8_t *)"";
}

int file_merge_next(struct bs_merge *m, struct bs_event *ev)
{
	struct file_stream *fs = next_head(m);

	if (!fs)
		return 0;
	ev->t = fs->ev[fs->head];
	ev->t.time -= m->genesis;
	ev->action_hi = fs->hi[fs->head];
	ev->pdu = head_pdu(fs);
	ev->dev = fs->dev;
	ev->cpu = fs->cpu;
	ev->foreign = fs->foreign;
	ev->cgroup = ev->t.action & BS_TA_CGROUP ? bs_cgroup_id(&ev->t, ev->pdu, ev->foreign) : 0;
	return 1;
}

/* file_merge_next() in place: the batch slot itself, time not made relative */
int file_merge_next_ref(struct bs_merge *m, struct bs_event_ref *r)
{
	struct file_stream *fs = next_head(m);

	if (!fs)
		return 0;
	r->t = &fs->ev[fs->head];
	r->action_hi = fs->hi[fs->head];
	r->pdu = head_pdu(fs);
	r->dev = fs->dev;
	r->cpu = fs->cpu;
	return 1;
}

void file_merge_free(struct bs_merge *m)
{
	for (int i = 0; i < m->nstreams; i++) {
		bs_stream_close(m->streams[i].s);
		free(m->streams[i].ev);
		free(m->streams[i].pdu_off);
		free(m->streams[i].hi);
		free(m->streams[i].arena);
	}
	free(m->streams);
	m->streams = NULL;
	m->nstreams = 0;
}
