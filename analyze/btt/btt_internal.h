/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btt_internal.h - what the engine's files share: the device, process and Q-tree operations, sinks and side files.  The hot
 * lookups are inline here.
 */
#ifndef BLKSCOPE_BTT_INTERNAL_H
#define BLKSCOPE_BTT_INTERNAL_H

#include <stdio.h>
#include <stdlib.h>
#include "bs_alloc.h"
#include "bs_codec.h"
#include "btt_engine.h"

/* which of btt's trace types an event is, for pre-culling */
enum bt_type { T_Q, T_A, T_G, T_S, T_I, T_M, T_D, T_C, T_R, T_MSG };

/* btt_devs.c */
struct bt_dev *bt_dev_setup(struct bt_engine *e, uint32_t device, enum bt_type type, uint64_t time);
void bt_dev_q2d_add(struct bt_dev *d, uint64_t q2d_ns);

/* bt_dev_setup() for the common case: the previous event's device, past pre-culling */
static inline struct bt_dev *dev_setup(struct bt_engine *e, uint32_t device, enum bt_type type,
				       uint64_t time)
{
	struct bt_dev *d = e->last_dev;

	if (d && d->device == device && !d->pre_culling) {
		d->end_ns = time;
		return d;
	}
	return bt_dev_setup(e, device, type, time);
}

/* btt_procs.c */
struct bt_proc *bt_add_process(struct bt_engine *e, uint32_t pid, const char *name, bool named);
struct bt_proc *bt_find_process_slow(struct bt_engine *e, uint32_t pid);
/* A PROCESS note (btt: pid 0 is "kernel", the name cut at '/'). */
void bt_process_note(struct bt_engine *e, uint32_t pid, const char *comm, size_t len);

static inline struct bt_proc *find_process(struct bt_engine *e, uint32_t pid)
{
	if (!e->last_proc || e->last_pid != pid) {
		e->last_proc = bt_find_process_slow(e, pid);
		e->last_pid = pid;
	}
	return e->last_proc;
}

/* Whether bt_engine_event may take its short way (the conditions of bt_engine.plain). */
static inline void bt_engine_check_plain(struct bt_engine *e)
{
	e->plain = !e->done && !e->o.time_bounded && !e->iostat.fp;
}

/* btt_qtree.c */
struct bt_q *bt_q_alloc(struct bt_engine *e);
struct bt_q *bt_q_insert(struct bt_dev *d, struct bt_q *q);
void bt_q_collect(const struct bt_rb_node *n, uint64_t s, uint64_t e, struct q_list *out);
void bt_q_list_grow(struct q_list *out);
void bt_q_remove(struct bt_dev *d, struct bt_q *q);

static inline void q_free(struct bt_engine *e, struct bt_q *q)
{
	q->next_free = e->free_q;
	e->free_q = q;
}

static inline uint64_t q_end(const struct bt_q *q)
{
	return q->end;
}

/*
 * Built with -DBT_QINDEX_CHECK (CFLAGS=-DBT_QINDEX_CHECK make BUILD=build-chk,
 * then the tests with BUILD=build-chk), every answer of the start-sector
 * index is checked against the tree's and the run aborts on a difference;
 * tests/unit/test_qindex.c makes the same comparison on random steps.
 */
#ifdef BT_QINDEX_CHECK
#define QINDEX_CHECK(cond) do { if (!(cond)) abort(); } while (0)
#else
#define QINDEX_CHECK(cond) do { } while (0)
#endif

/* btt's rb_find_sec(): the Q met first whose [start, end) holds sec */
static inline struct bt_q *q_find_sec_tree(const struct bt_dev *d, uint64_t sec)
{
	const struct bt_rb_node *n = d->qtree.node;

	while (n) {
		struct bt_q *q = bt_rb_entry(n, struct bt_q, rb);

		if (sec < q->sector)
			n = n->left;
		else if (sec >= q_end(q))
			n = n->right;
		else
			return q;
	}
	return NULL;
}

/*
 * With ranges overlapping somewhere on the device the index may still
 * answer for q, the bio starting at s, when no other queued range reaches
 * s from before it: btt's descent and walk then pass every other node on
 * the way to q by its start alone, whatever the tree's shape.  A range
 * reaching s starts less than the longest range ever queued before s;
 * the bios starting there are q's predecessors in start order, looked at
 * up to a few (else the tree answers).  On 10M random events of seed 8 a
 * bio left queued by btt's rules overlapped others for over half of the
 * run, and the tree had answered 55% of the lookups.
 */
#define Q_ALONE_STEPS 4
static inline bool q_alone_from_left(const struct bt_dev *d, const struct bt_q *q, uint64_t s)
{
	const struct bt_rb_node *n = &q->rb;
	int k;

	if (d->qidx.off || d->qidx.odd)
		return false;
	for (k = 0; k < Q_ALONE_STEPS; k++) {
		const struct bt_q *p;

		n = bt_rb_prev(n);
		if (!n)
			return true;
		p = bt_rb_entry(n, const struct bt_q, rb);
		if (s - p->sector >= d->qidx.max_len)	/* p starts before s */
			return true;	/* it and all before it end by s */
		if (p->end > s)
			return false;
	}
	return false;
}

/* q, the bio starting at s, is the only one in [s, e): none starts inside after it, none reaches s */
static inline bool q_alone(const struct bt_dev *d, const struct bt_q *q, uint64_t s, uint64_t e)
{
	const struct bt_rb_node *n;

	if (bt_qindex_exact(&d->qidx))
		return true;
	n = bt_rb_next(&q->rb);
	return (!n || bt_rb_entry(n, const struct bt_q, rb)->sector >= e) && q_alone_from_left(d, q, s);
}

/* the bio starting at sec, from the start-sector index, or NULL (off, none there, merged) */
static inline struct bt_q *q_at(const struct bt_dev *d, uint64_t sec)
{
	return bt_qindex_get(&d->qidx, sec);
}

/* the same, through the start-sector index when it may answer */
static inline struct bt_q *q_find_sec(const struct bt_dev *d, uint64_t sec)
{
	struct bt_q *q = q_at(d, sec);

	/* no other range holding sec: the one starting there is btt's answer */
	if (q && (bt_qindex_exact(&d->qidx) || q_alone_from_left(d, q, sec))) {
		QINDEX_CHECK(q == q_find_sec_tree(d, sec));
		return q;
	}
	return q_find_sec_tree(d, sec);
}

/*
 * The Qs within [s, e), in btt's walk order (bt_q_collect), into out.
 * With disjoint, non-empty ranges a Q spanning exactly [s, e) is the only
 * one inside it: the request of one bio, the common case.
 */
static inline void q_collect(const struct bt_dev *d, uint64_t s, uint64_t e, struct q_list *out)
{
	out->n = 0;
	struct bt_q *q = q_at(d, s);

	if (q && q->end == e && q_alone(d, q, s, e)) {
		if (!out->cap)
			bt_q_list_grow(out);
#ifdef BT_QINDEX_CHECK
		bt_q_collect(d->qtree.node, s, e, out);
		QINDEX_CHECK(out->n == 1 && out->v[0] == q);
		out->n = 0;
#endif
		out->v[out->n++] = q;
		return;
	}
	bt_q_collect(d->qtree.node, s, e, out);
}

/* btt_sidefiles.c */
void bt_open_latency_files(struct bt_engine *e, struct bt_dev *d);
void bt_per_io_track(FILE *fp, const struct bt_q *q, uint64_t t_c, uint64_t c_sec, uint32_t c_nblks);
void bt_side_issue(struct bt_dev *d, const struct bs_trace *t);	/* -B, -Q at a D */
void bt_side_complete(struct bt_dev *d, uint64_t time);		/* -Q at a C */
void bt_side_unplug(struct bt_dev *d, const struct bs_trace *t, const uint8_t *pdu);	/* -u */
void bt_close_side_files(struct bt_engine *e, struct bt_dev *d);	/* writes -u */

void bt_plat_add(struct bt_plat *p, double freq, uint64_t stamp, uint64_t latency);
void bt_pit_line(FILE *fp, uint64_t d_time, uint64_t c_time);	/* -P */

static inline void latency_out(FILE *fp, uint64_t stamp, uint64_t latency)
{
	if (fp)
		fprintf(fp, "%lf %lf\n", (double)stamp / 1.0e9, (double)latency / 1.0e9);
}

/* one per-IO latency: the -l/-q/-z file and the -L averages */
static inline void latency_x2c(struct bt_engine *e, FILE *fp, struct bt_plat *p, uint64_t stamp,
			       uint64_t latency)
{
	latency_out(fp, stamp, latency);
	if (p->fp)
		bt_plat_add(p, e->o.plat_freq, stamp, latency);
}

#endif /* BLKSCOPE_BTT_INTERNAL_H */
