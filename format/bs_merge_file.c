// SPDX-License-Identifier: GPL-2.0
/*
 * bs_merge_file.c - merging per-CPU files, as blkparse's file mode does.
 *
 * Each CPU stream holds a batch of up to opts.batch events (headers and
 * PDUs copied out of the reader's buffer).  Notes met while a batch is
 * read are handed to on_note at once, so they come out ahead of the
 * batch's events, exactly where blkparse -d writes them.
 *
 * blkparse keeps the streams in a list sorted by the time of their next
 * event (ms_sort): a stream put back after its event was taken goes
 * behind every stream with an earlier time and ahead of those with the
 * same time.  That order is a key: (time, seq), equal times broken by the
 * larger seq, where a stream gets a new, larger seq each time its event is
 * taken.  So the streams sit in a loser tree (bs_merge_tree.h) by that
 * key, and taking an event costs log2(streams) compares instead of a walk
 * of the list.  Only the first insertions differ (start_tree()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_codec.h"
#include "bs_merge_priv.h"

/*
 * The read buffers of all files together: 1 MiB each for up to 16 files,
 * less for more (down to BS_STREAM_BUF_MIN), so that the memory and the
 * data in the caches do not grow with the host's CPUs as fast (smaller
 * and faster with many files: docs/format.md, "Measurements").
 */
#define READ_BUFFERS (16u << 20)

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
	uint64_t last_time;	/* of the last event read (absolute) */
	bool damage_pending;	/* damaged before genesis was known: told at the end of open */
};

static uint64_t head_time(const struct file_stream *fs)
{
	return fs->ev[fs->head].time;
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

static void tell_damage(struct bs_merge *m, struct file_stream *fs)
{
	uint64_t t = fs->last_time > m->genesis ? fs->last_time - m->genesis : 0;

	if (m->opts.on_damage)
		m->opts.on_damage(m->opts.ctx, bs_stream_name(fs->s), bs_stream_damage_offset(fs->s), t);
}

static void stream_stop(struct bs_merge *m, struct file_stream *fs)
{
	if (fs->n)
		fs->last_time = fs->ev[fs->n - 1].time;
	if (bs_stream_damaged(fs->s)) {
		m->damaged = 1;
		if (m->started)
			tell_damage(m, fs);
		else
			fs->damage_pending = true;
	}
	if (!fs->damage_pending) {
		bs_stream_close(fs->s);
		fs->s = NULL;
	}
}

/* Hand a note read into a batch slot to the consumer (notes are rare). */
static void pass_note(struct bs_merge *m, struct file_stream *fs, const struct bs_trace *t,
		      uint32_t action_hi, const uint8_t *pdu, uint64_t off)
{
	struct bs_record rec = { .t = *t, .action_hi = action_hi, .pdu = pdu, .offset = off,
				 .foreign = bs_stream_foreign(fs->s) };

	bs_merge_note(m, &rec, fs->dev);
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
		if (bs_merge_is_read_time_note(t->action)) {
			pass_note(m, fs, t, fs->hi[fs->n], pdu, off);
			continue;
		}
		fs->pdu_off[fs->n++] = fs->arena_len;
		if (!t->pdu_len)
			continue;
		if (arena_reserve(fs, t->pdu_len)) {
			bs_msg(&m->opts.msg, BS_MSG_ERROR, "out of memory");
			fs->n--;
			stream_stop(m, fs);
			break;
		}
		memcpy(fs->arena + fs->arena_len, pdu, t->pdu_len);
		fs->arena_len += t->pdu_len;
	}
	return fs->n;
}

/* a stream's first head time and its place in blkparse's insertion order */
struct first_head {
	uint64_t time;
	uint32_t k;
};

static int by_time_then_k(const void *a, const void *b)
{
	const struct first_head *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/*
 * One group of streams with equal first times (g[0..len), in insertion
 * order) into out[0..len) in blkparse's list order: the first member heads
 * the group; a later one takes the group's front, the old front moving
 * into second place, or, when it tied with the list head on insertion,
 * second place itself.  The last one put in second place ends up there.
 */
static void order_group(const struct first_head *g, uint32_t len, const uint8_t *tie_head,
			uint32_t *out)
{
	uint32_t first = g[0].k, nsecond = 0, k;

	/* out[1..]: the members put in second place, oldest first */
	for (k = 1; k < len; k++) {
		if (tie_head[g[k].k]) {
			out[1 + nsecond++] = g[k].k;
		} else {
			out[1 + nsecond++] = first;
			first = g[k].k;
		}
	}
	out[0] = first;
	for (k = 0; k < nsecond / 2; k++) {	/* newest first */
		uint32_t x = out[1 + k];

		out[1 + k] = out[nsecond - k];
		out[nsecond - k] = x;
	}
}

/*
 * The tree, with the streams that have events in the order blkparse's
 * first ms_sort()s leave its list.  Streams are inserted in input order,
 * each behind every earlier time and ahead of its equals, as a stream put
 * back later, except that one whose time equals the list head's (the
 * least time so far) goes right behind the head.  The seqs number that
 * list from the back.  0, or -1 (out of memory).
 */
static int start_tree(struct bs_merge *m)
{
	size_t ns = (size_t)m->nstreams + 1;
	struct first_head *fh = bs_xreallocarray(NULL, ns, sizeof(*fh));
	uint8_t *tie_head = bs_xcalloc(ns, sizeof(*tie_head));	/* by stream */
	uint32_t *order = bs_xreallocarray(NULL, ns, sizeof(*order));
	bs_merge_key *keys = bs_xreallocarray(NULL, ns, sizeof(*keys));
	uint32_t n = 0, k, a, b;
	int rc;

	for (int i = 0; i < m->nstreams; i++) {
		struct file_stream *fs = &m->streams[i];

		keys[i] = BS_MERGE_KEY_FINISHED;
		if (!fs->n)
			continue;	/* nothing in it: blkparse never lists it */
		fh[n] = (struct first_head){ .time = head_time(fs), .k = (uint32_t)i };
		tie_head[i] = n && fh[n].time == fh[0].time;	/* fh[0]: the least so far */
		if (fh[n].time < fh[0].time) {
			struct first_head x = fh[0];

			fh[0] = fh[n];
			fh[n] = x;
		}
		n++;
	}
	qsort(fh, n, sizeof(*fh), by_time_then_k);
	for (a = 0; a < n; a = b) {
		for (b = a + 1; b < n && fh[b].time == fh[a].time; b++)
			;
		order_group(fh + a, b - a, tie_head, order + a);
	}
	for (k = 0; k < n; k++)
		keys[order[k]] = bs_merge_key_of(head_time(&m->streams[order[k]]), n - k);
	m->seq = n;
	rc = bs_merge_tree_init(&m->tree, keys, (uint32_t)m->nstreams);
	free(keys);
	free(order);
	free(tie_head);
	free(fh);
	return rc;
}

int bs_merge_file_open(struct bs_merge *m, const struct bs_input_set *in)
{
	int total = 0, first;
	char err[512];

	for (int d = 0; d < in->ndevs; d++)
		total += in->devs[d].ncpus;
	m->streams = calloc(total ? total : 1, sizeof(*m->streams));
	if (!m->streams)
		return -1;
	/* each stream's buffer doubles: only while they have the largest (at most 36 MiB) */
	if (total <= (int)(READ_BUFFERS / BS_STREAM_BUF_MAX))
		m->ra = m->opts.read_ahead;	/* NULL: each stream reads for itself */
	for (int d = 0; d < in->ndevs; d++) {
		for (int c = 0; c < in->devs[d].ncpus; c++) {
			const struct bs_input_cpu *ic = &in->devs[d].cpus[c];
			struct file_stream *fs = &m->streams[m->nstreams];

			fs->s = bs_stream_open_sized(ic->path, ic->cpu, READ_BUFFERS / (size_t)total,
						     err, sizeof(err));
			if (!fs->s) {
				bs_msg(&m->opts.msg, BS_MSG_ERROR, "%s", err);
				m->damaged = 1;
				continue;
			}
			bs_stream_set_msg(fs->s, &m->opts.msg);
			bs_stream_read_ahead(fs->s, m->ra);	/* -1: it reads for itself */
			fs->dev = d;
			fs->cpu = ic->cpu;
			fs->ev = malloc(m->opts.batch * sizeof(*fs->ev));
			fs->pdu_off = malloc(m->opts.batch * sizeof(*fs->pdu_off));
			fs->hi = malloc(m->opts.batch * sizeof(*fs->hi));
			if (!fs->ev || !fs->pdu_off || !fs->hi)
				return -1;
			m->nstreams++;
			prime(m, fs);
		}
	}
	if (start_tree(m))
		return -1;
	first = bs_merge_tree_winner(&m->tree);
	if (first >= 0) {
		m->genesis = head_time(&m->streams[first]);
		m->started = true;
	}
	for (int i = 0; i < m->nstreams; i++) {	/* damage met while opening: told now */
		struct file_stream *fs = &m->streams[i];

		if (!fs->damage_pending)
			continue;
		tell_damage(m, fs);
		fs->damage_pending = false;
		bs_stream_close(fs->s);
		fs->s = NULL;
	}
	return 0;
}

/*
 * The head stream's next event, or NULL at the end.  The previous event
 * is released only now (blkparse's ms_deq(): advance the head stream,
 * refill or drop it, re-sort): its consumer ran before the next batch's
 * notes.
 */
static inline struct file_stream *next_head(struct bs_merge *m)
{
	struct file_stream *fs = m->pending;
	int w;

	if (fs) {
		if (++fs->head < fs->n || prime(m, fs)) {
			bs_merge_key key = bs_merge_key_of(head_time(fs), ++m->seq);

			if (bs_merge_tree_still_wins(&m->tree, key))
				return fs;
			bs_merge_tree_replay(&m->tree, key);
		} else {
			bs_merge_tree_replay(&m->tree, BS_MERGE_KEY_FINISHED);
		}
	}
	w = bs_merge_tree_winner(&m->tree);
	m->pending = w >= 0 ? &m->streams[w] : NULL;
	return m->pending;
}

/* a batch without PDUs has no arena, and NULL + 0 is undefined */
static inline const uint8_t *head_pdu(const struct file_stream *fs)
{
	return fs->arena_len ? fs->arena + fs->pdu_off[fs->head] : (const uint8_t *)"";
}

int bs_merge_file_next(struct bs_merge *m, struct bs_event *ev)
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

/* bs_merge_file_next() in place: the batch slot itself, time not made relative */
int bs_merge_file_next_ref(struct bs_merge *m, struct bs_event_ref *r)
{
	struct file_stream *fs = next_head(m);

	if (!fs)
		return 0;
	r->t = &fs->ev[fs->head];
	r->action_hi = fs->hi[fs->head];
	r->pdu = head_pdu(fs);
	r->dev = fs->dev;
	r->cpu = fs->cpu;
	r->foreign = fs->foreign;
	return 1;
}

void bs_merge_file_free(struct bs_merge *m)
{
	for (int i = 0; i < m->nstreams; i++) {
		bs_stream_close(m->streams[i].s);
		free(m->streams[i].ev);
		free(m->streams[i].pdu_off);
		free(m->streams[i].hi);
		free(m->streams[i].arena);
	}
	free(m->streams);
	m->ra = NULL;	/* the caller's */
	bs_merge_tree_free(&m->tree);
	m->streams = NULL;
	m->nstreams = 0;
}
