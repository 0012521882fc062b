// SPDX-License-Identifier: GPL-2.0
/*
 * replay_load.c - the trace's queued bios, in trace order.
 *
 * The records come through format/ (input set, merge: any per-CPU files,
 * stream or dump, version 7 or 8, zstd).  Every Q becomes one struct
 * rp_io with the whole size the submitter asked for: splits (X) and merges
 * (M/F) are what the block layer made of it and happen again on replay.
 * What a Q does is read from its category bits (classify()).
 *
 * A Q right after a remap (A) of the same bio, by the same pid, is the
 * remapped bio: its A says where the submitter sent it.  On a partition
 * trace (the records carry the partition's dev_t, the sectors the whole
 * disk's) that is the partition-relative sector, the one to replay on a
 * partition; on a stacked trace (dm-0 over sda, both traced) the bio is
 * also queued on the upper device and the plan replays it only there.
 *
 * The completion time of every Q comes from the per-I/O model
 * (analyze/iomodel/), which follows every bio through splits, merges,
 * partial completions, requeues and the flush machinery: one sample per
 * Q, matched back to the Q by its time, device, sector, size and pid.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_codec.h"
#include "bs_merge.h"
#include "bs_stream.h"
#include "iomodel/iom.h"

/* format/'s warnings, printed as before: "PROGRAM: TEXT" */
static void print_format_msg(void *arg, enum bs_msg_level level, const char *text)
{
	(void)arg;
	(void)level;
	fprintf(stderr, "%s: %s\n", bs_progname(), text);
}
#include "replay.h"

/* The last remap (A) of a pid, waiting for its Q. */
struct rp_remap {
	uint64_t sector, from_sector;
	uint32_t dev, from_dev, bytes;
	bool valid;
};

/* What the model's sample says about one Q. */
struct rp_sample {
	uint64_t t_q, t_c;
	uint32_t dev, pid, bytes;
};

struct rp_loader {
	struct rp_trace *t;
	struct bs_hash remap_idx;	/* pid -> index in remaps */
	struct rp_remap *remaps;
	size_t nremaps, remaps_cap;
	struct rp_sample *samples;
	size_t nsamples, samples_cap;
	/* empty flushes waiting for their C, FIFO per (device, sector) */
	struct bs_hash flush_idx;	/* key -> head << 32 | tail (1 + index in flushes), 0 = none */
	struct rp_flush {
		uint32_t io, next;	/* index in t->ios; 1 + next entry, 0 = none */
	} *flushes;
	size_t nflushes, flushes_cap;
	size_t t_c_cap;
};

const char *rp_comm(const struct rp_trace *t, uint32_t pid)
{
	uint64_t *i = bs_hash_get(&t->comm_idx, pid);

	return i ? t->comms[*i] : NULL;
}

static void on_note(void *ctx, const struct bs_record *rec, int dev)
{
	struct rp_loader *l = ctx;
	struct rp_trace *t = l->t;
	const uint8_t *comm;
	bool added;
	size_t len;
	uint64_t *i;

	(void)dev;
	if ((rec->t.action & ~BS_TA_CGROUP) != BS_NOTE_PROCESS)
		return;
	comm = bs_pdu_payload(&rec->t, rec->pdu, &len);
	i = bs_hash_put(&t->comm_idx, rec->t.pid, t->ncomms, &added);
	if (added) {
		BS_GROW(t->comms, t->comms_cap, t->ncomms + 1, 64);
		t->ncomms++;
	}
	len = strnlen((const char *)comm, len < 16 ? len : 16);
	memcpy(t->comms[*i], comm, len);
	t->comms[*i][len] = 0;
}

/*
 * What a Q does: 0 and *op, *flags; or 1 when it is not replayed (the
 * skip counted).
 */
static int classify(struct rp_trace *t, const struct bs_event *ev, uint8_t *op, uint8_t *flags)
{
	uint32_t cats = bs_act_cats(ev->t.action);

	*flags = (cats & BS_TC_FUA ? RP_F_FUA : 0) | (cats & BS_TC_SYNC ? RP_F_SYNC : 0) |
		 (cats & BS_TC_META ? RP_F_META : 0) | (cats & BS_TC_AHEAD ? RP_F_AHEAD : 0);
	if (cats & BS_TC_PC) {
		t->skips.passthrough++;
		return 1;
	}
	if (ev->action_hi & BS_TC_ZONE_MASK_HI) {
		t->skips.zone++;
		return 1;
	}
	if (ev->action_hi & BS_TC_HI(BS_TC_WRITE_ZEROES))
		*op = RP_WZEROES;
	else if (cats & BS_TC_DISCARD)
		*op = RP_DISCARD;
	else if (!ev->t.bytes && (cats & BS_TC_FLUSH))
		*op = RP_FLUSH;
	else if (cats & BS_TC_WRITE)
		*op = RP_WRITE;
	else
		*op = RP_READ;
	if (!ev->t.bytes && *op != RP_FLUSH) {
		t->skips.empty++;
		return 1;
	}
	if (*op == RP_WRITE && (cats & BS_TC_FLUSH))
		*flags |= RP_F_PREFLUSH;
	if (*op == RP_READ)
		*flags &= (uint8_t)~RP_F_FUA;	/* no userspace read bio carries FUA */
	return 0;
}

static void note_device(struct rp_trace *t, uint32_t dev)
{
	bool added;
	uint64_t *i = bs_hash_put(&t->dev_idx, dev, t->ndevs, &added);

	if (added) {
		BS_GROW(t->devs, t->devs_cap, t->ndevs + 1, 4);
		t->devs[t->ndevs++] = (struct rp_dev){ dev, 0 };
	}
	t->devs[*i].nios++;
}

static void on_remap(struct rp_loader *l, const struct bs_event *ev)
{
	struct bs_trace plain = ev->t;
	struct bs_remap r;
	const uint8_t *pdu;
	size_t len;
	bool added;
	uint64_t *i;

	pdu = bs_pdu_payload(&ev->t, ev->pdu, &len);
	plain.pdu_len = (uint16_t)len;
	if (bs_decode_remap(&plain, pdu, &r))
		return;
	i = bs_hash_put(&l->remap_idx, ev->t.pid, l->nremaps, &added);
	if (added) {
		BS_GROW(l->remaps, l->remaps_cap, l->nremaps + 1, 16);
		l->nremaps++;
	}
	l->remaps[*i] = (struct rp_remap){ ev->t.sector, r.sector_from, ev->t.device, r.device_from,
					   ev->t.bytes, true };
}

/*
 * An empty flush completes with the first zero-byte C without the FLUSH
 * category (the original request's, not the flush machinery's FN) at its
 * device and sector after it (the model's sample says the same; this
 * holds also where a sample is missing).
 */
static uint64_t flush_key(uint32_t dev, uint64_t sector)
{
	return bs_hash_mix(sector) ^ dev;
}

static void flush_queued(struct rp_loader *l, uint32_t io)
{
	const struct rp_io *q = &l->t->ios[io];
	uint64_t *v = bs_hash_put(&l->flush_idx, flush_key(q->dev, q->sector), 0, NULL);
	uint32_t e;

	BS_GROW(l->flushes, l->flushes_cap, l->nflushes + 1, 16);
	l->flushes[l->nflushes++] = (struct rp_flush){ io, 0 };
	e = (uint32_t)l->nflushes;
	if (*v)
		l->flushes[(uint32_t)*v - 1].next = e;
	else
		*v = (uint64_t)e << 32;
	*v = (*v & ~0xffffffffull) | e;
}

static void flush_completed(struct rp_loader *l, const struct bs_event *ev)
{
	uint64_t *v = bs_hash_get(&l->flush_idx, flush_key(ev->t.device, ev->t.sector));
	const struct rp_flush *f;

	if (!v || !*v || (bs_act_cats(ev->t.action) & BS_TC_FLUSH))
		return;
	f = &l->flushes[(*v >> 32) - 1];
	if (l->t->ios[f->io].dev != ev->t.device || l->t->ios[f->io].sector != ev->t.sector)
		return;	/* two keys alike: leave it */
	l->t->t_c[f->io] = ev->t.time;
	*v = f->next ? ((uint64_t)f->next << 32 | (*v & 0xffffffffull)) : 0;
}

static void on_queue(struct rp_loader *l, const struct bs_event *ev)
{
	struct rp_trace *t = l->t;
	struct rp_io *io;
	uint64_t *ri;
	uint8_t op, flags;

	if (classify(t, ev, &op, &flags))
		return;
	BS_GROW(t->ios, t->cap, t->n + 1, 4096);
	BS_GROW(t->t_c, l->t_c_cap, t->n + 1, 4096);
	t->t_c[t->n] = UINT64_MAX;
	io = &t->ios[t->n++];
	memset(io, 0, sizeof(*io));
	io->t = ev->t.time;
	io->sector = ev->t.sector;
	io->bytes = ev->t.bytes;
	io->dev = ev->t.device;
	io->sub = ev->t.pid ? ev->t.pid : RP_PID0_CPU | (uint32_t)(ev->cpu & 0xffff);
	io->wait = RP_NO_WAIT;
	io->op = op;
	io->flags = flags;
	ri = bs_hash_get(&l->remap_idx, ev->t.pid);
	if (ri && l->remaps[*ri].valid) {
		struct rp_remap *r = &l->remaps[*ri];

		if (r->dev == io->dev && r->sector == io->sector && r->bytes == io->bytes) {
			if (r->from_dev == io->dev)	/* a partition trace */
				io->sector = r->from_sector;
			else
				io->remap_from = r->from_dev;
		}
		r->valid = false;
	}
	if (op == RP_FLUSH)
		flush_queued(l, (uint32_t)(t->n - 1));
	note_device(t, io->dev);
}

static void on_sample(void *ctx, const struct bs_io_sample *s)
{
	struct rp_loader *l = ctx;

	BS_GROW(l->samples, l->samples_cap, l->nsamples + 1, 4096);
	l->samples[l->nsamples++] = (struct rp_sample){ s->t_q, s->t_c, s->device, s->pid,
							s->bytes };
}

static int cmp_sample(const void *a, const void *b)
{
	const struct rp_sample *x = a, *y = b;

	return (x->t_q > y->t_q) - (x->t_q < y->t_q);
}

/* The first I/O with time >= t (the array is in time order). */
static size_t lower_bound(const struct rp_trace *t, uint64_t time)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->ios[mid].t < time)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Each sample's completion time onto its Q (same time, device, sector, size, pid). */
static void match_samples(struct rp_loader *l)
{
	struct rp_trace *t = l->t;

	qsort(l->samples, l->nsamples, sizeof(*l->samples), cmp_sample);
	for (size_t k = 0; k < l->nsamples; k++) {
		const struct rp_sample *s = &l->samples[k];

		if (s->t_c == BS_NOT_SEEN)
			continue;
		for (size_t i = lower_bound(t, s->t_q); i < t->n && t->ios[i].t == s->t_q; i++) {
			const struct rp_io *io = &t->ios[i];
			uint32_t pid = io->sub & RP_PID0_CPU ? 0 : io->sub;

			if (io->dev == s->dev && io->bytes == s->bytes && pid == s->pid &&
			    t->t_c[i] == UINT64_MAX) {
				t->t_c[i] = s->t_c;
				break;
			}
		}
	}
}

/* time, then the order read: a stable sort */
struct rp_order {
	uint64_t t;
	size_t i;
};

static int cmp_order(const void *a, const void *b)
{
	const struct rp_order *x = a, *y = b;

	if (x->t != y->t)
		return (x->t > y->t) - (x->t < y->t);
	return (x->i > y->i) - (x->i < y->i);
}

/* Stream mode sorts in batches: make sure of the order (the completions move along). */
static void ensure_time_order(struct rp_trace *t)
{
	struct rp_order *ord;
	struct rp_io *ios;
	uint64_t *t_c;
	size_t i;

	for (i = 1; i < t->n && t->ios[i].t >= t->ios[i - 1].t; i++)
		;
	if (i >= t->n)
		return;
	ord = bs_xmalloc(t->n * sizeof(*ord));
	for (i = 0; i < t->n; i++)
		ord[i] = (struct rp_order){ t->ios[i].t, i };
	qsort(ord, t->n, sizeof(*ord), cmp_order);
	ios = bs_xmalloc(t->n * sizeof(*ios));
	t_c = bs_xmalloc(t->n * sizeof(*t_c));
	for (i = 0; i < t->n; i++) {
		ios[i] = t->ios[ord[i].i];
		t_c[i] = t->t_c[ord[i].i];
	}
	free(t->ios);
	free(t->t_c);
	free(ord);
	t->ios = ios;
	t->t_c = t_c;
	t->cap = t->n;
}

static int read_events(struct rp_loader *l, struct bs_merge *m, struct iom *e)
{
	struct bs_event ev;

	while (bs_merge_next(m, &ev) == 1) {
		uint32_t basic = ev.t.action & 0xffu;

		l->t->events++;
		l->t->end_time = ev.t.time;
		if (!(bs_act_cats(ev.t.action) & BS_TC_NOTIFY)) {
			if (basic == BS_TA_QUEUE)
				on_queue(l, &ev);
			else if (basic == BS_TA_REMAP)
				on_remap(l, &ev);
			else if (basic == BS_TA_COMPLETE && !ev.t.bytes)
				flush_completed(l, &ev);
		}
		iom_event(e, &ev.t, ev.action_hi, ev.pdu, ev.foreign, -1);
		if (l->t->n > UINT32_MAX - 2) {
			fprintf(stderr, "%s: more than %u queued bios: replay a part of the trace (--window)\n",
				bs_progname(), UINT32_MAX - 2);
			return -1;
		}
	}
	return 0;
}

int rp_load(struct rp_trace *t, const struct rp_opts *o)
{
	struct bs_input_set in = { 0 };
	struct rp_loader l = { .t = t };
	/* a blkparse -d dump holds genesis-relative times: read it as btt does, in file order */
	struct bs_merge_opts mo = { .on_note = on_note, .ctx = &l, .dumps_in_file_order = true,
				    .msg = { .fn = print_format_msg } };
	struct bs_err err;
	struct bs_sample_sink sink = { .io_done = on_sample, .ctx = &l, .own_state = true };
	struct iom *e = NULL;
	struct bs_merge *m = NULL;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	in.msg = mo.msg;
	for (int i = 0; i < o->ninputs; i++)
		if (bs_input_add(&in, o->inputs[i], NULL, &err)) {
			fprintf(stderr, "%s: %s\n", bs_progname(), err.text);
			goto out;
		}
	m = bs_merge_open(&in, &mo);
	if (!m)
		goto out;
	e = iom_new(&(struct iom_opts){ 0 });
	iom_add_sink(e, &sink);
	if (read_events(&l, m, e))
		goto out;
	iom_finish(e, t->end_time);
	t->damaged = bs_merge_damaged(m);
	if (!t->events) {
		fprintf(stderr, "%s: no events in %s\n", bs_progname(), o->inputs[0]);
		goto out;
	}
	ensure_time_order(t);
	match_samples(&l);
	rc = 0;
out:
	iom_free(e);
	if (m)
		bs_merge_close(m);
	bs_input_free(&in);
	bs_hash_free(&l.remap_idx);
	bs_hash_free(&l.flush_idx);
	free(l.remaps);
	free(l.samples);
	free(l.flushes);
	return rc;
}

void rp_trace_free(struct rp_trace *t)
{
	free(t->ios);
	free(t->t_c);
	free(t->comms);
	free(t->devs);
	bs_hash_free(&t->comm_idx);
	bs_hash_free(&t->dev_idx);
	memset(t, 0, sizeof(*t));
}
