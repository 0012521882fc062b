// SPDX-License-Identifier: GPL-2.0
/*
 * test_qindex.c - the start-sector index beside btt's Q tree
 * (analyze/btt/btt_qindex.c) against the tree itself.
 *
 * Random inserts (new starts, starts already queued, empty and wrapped
 * ranges, overlapping and disjoint ranges, runs of sequential bios that
 * take btt_q_insert's short cut), merges (of the bio queued last, which
 * then never takes a slot, and of older ones, which leave theirs) and
 * removals on one device; after every step the index's counts are
 * recomputed from the tree (neighbours that overlap, odd ranges, bios
 * indexed: all but the merged ones, none of those), and lookups of
 * random sectors and ranges through the index (q_find_sec, q_collect)
 * must give what the tree walks alone give.  Then sectors crafted to
 * share one home slot must turn the index off, with the answers unchanged.
 * The tree's containment walk is also checked against btt's walk written
 * plainly, and bs_op_of()'s table against the tests it replaced.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "btt/btt_priv.h"
#include "iomodel/io_sample.h"
#include "check.h"
#include "rng.h"

struct model {
	struct btt_q **live;	/* the bios in the tree */
	size_t n, cap;
};

static struct btt_q *new_q(uint64_t sector, uint64_t blocks)
{
	struct btt_q *q = bs_xcalloc(1, sizeof(*q));

	q->sector = sector;
	q->end = sector + blocks;
	q->t_m = BTT_NONE;
	return q;
}

static void model_drop(struct model *m, struct btt_q *q)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->live[i] == q) {
			m->live[i] = m->live[--m->n];
			return;
		}
	CHECK(0, "bio %llu not in the model", (unsigned long long)q->sector);
}

static void insert(struct btt_dev *d, struct model *m, struct btt_q *q)
{
	struct btt_q *old = btt_q_insert(d, q);

	if (old) {
		model_drop(m, old);
		free(old);
	}
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 64;
		m->live = bs_xrealloc(m->live, m->cap * sizeof(*m->live));
	}
	m->live[m->n++] = q;
}

/* the engine's M or F: the first merge takes the bio out of the index */
static void merge(struct btt_dev *d, struct btt_q *q)
{
	if (q->t_m == BTT_NONE)
		btt_qindex_merged(&d->qidx, q);
	q->t_m = 1;
}

static void remove_at(struct btt_dev *d, struct model *m, size_t i)
{
	struct btt_q *q = m->live[i];

	btt_q_remove(d, q);
	m->live[i] = m->live[--m->n];
	free(q);
}

/* the index's counts, recomputed from the tree in start order */
static void check_counts(const struct btt_dev *d, const struct model *m)
{
	const struct btt_rb_node *n;
	const struct btt_q *prev = NULL;
	uint64_t overlaps = 0, odd = 0, count = 0, indexed = 0;

	if (d->qidx.off)
		return;
	for (n = btt_rb_first(&d->qtree); n; n = btt_rb_next(n)) {
		const struct btt_q *q = btt_rb_entry(n, const struct btt_q, rb);

		/* a bio in the wrong link (the sequential short cut) breaks the order */
		CHECK(!prev || prev->sector < q->sector, "tree out of order at %llu",
		      (unsigned long long)q->sector);
		overlaps += prev && prev->end > q->sector;
		odd += q->end <= q->sector;
		if (q->t_m == BTT_NONE) {
			CHECK(btt_qindex_get(&d->qidx, q->sector) == q, "bio at %llu not indexed",
			      (unsigned long long)q->sector);
			indexed++;
		} else {
			CHECK(!btt_qindex_get(&d->qidx, q->sector), "merged bio at %llu indexed",
			      (unsigned long long)q->sector);
		}
		prev = q;
		count++;
	}
	CHECK(count == m->n, "tree holds %llu bios, model %zu", (unsigned long long)count, m->n);
	CHECK(d->qidx.n + !!d->qidx.pending == indexed,
	      "index holds %u bios and %d pending, %llu unmerged", d->qidx.n, !!d->qidx.pending,
	      (unsigned long long)indexed);
	CHECK(d->qidx.overlaps == overlaps, "overlaps %llu, recomputed %llu",
	      (unsigned long long)d->qidx.overlaps, (unsigned long long)overlaps);
	CHECK(d->qidx.n_empty_or_wrapped == odd, "odd %llu, recomputed %llu",
	      (unsigned long long)d->qidx.n_empty_or_wrapped, (unsigned long long)odd);
}

/*
 * btt's rb_foreach() as btt writes it, with plain branches and recursion
 * on both sides: the reference for btt_q_collect's branch-free walk.
 */
static void ref_collect(const struct btt_rb_node *n, uint64_t s, uint64_t e, struct btt_q_list *out)
{
	const struct btt_q *q;

	if (!n)
		return;
	q = btt_rb_entry(n, const struct btt_q, rb);
	if (s <= q->sector && q->end <= e) {
		if (out->n == out->cap)
			btt_q_list_grow(out);
		out->v[out->n++] = (struct btt_q *)q;
	}
	if (s < q->sector)
		ref_collect(n->left, s, e, out);
	if (q->end < e)
		ref_collect(n->right, s, e, out);
}

static void check_same(const struct btt_q_list *a, const struct btt_q_list *b, const char *what,
		       uint64_t s, uint64_t e)
{
	size_t i;

	CHECK(a->n == b->n, "%s [%llu, %llu): %zu bios against %zu", what, (unsigned long long)s,
	      (unsigned long long)e, a->n, b->n);
	for (i = 0; i < a->n && i < b->n; i++)
		CHECK(a->v[i] == b->v[i], "%s [%llu, %llu): bio %zu differs", what,
		      (unsigned long long)s, (unsigned long long)e, i);
}

static void check_lookup(const struct btt_dev *d, uint64_t s, uint64_t e)
{
	struct btt_q_list fast = { 0 }, tree = { 0 }, ref = { 0 };

	CHECK(q_find_sec(d, s) == q_find_sec_tree(d, s), "find %llu", (unsigned long long)s);
	q_collect(d, s, e, &fast);
	btt_q_collect(d->qtree.node, s, e, &tree);
	ref_collect(d->qtree.node, s, e, &ref);
	check_same(&fast, &tree, "index and tree collect", s, e);
	check_same(&tree, &ref, "tree collect and btt's walk", s, e);
	free(fast.v);
	free(tree.v);
	free(ref.v);
}

/* a bio: on an 8-sector grid (disjoint, starts queued twice), or messy */
static struct btt_q *random_q(int messy)
{
	uint64_t s, len;

	if (!messy)
		return new_q(8 * rnd(64), 8);
	s = rnd(520);
	len = rnd(10) ? rnd(24) : 0;	/* now and then an empty range */
	if (!rnd(50))
		s = UINT64_MAX - rnd(8);	/* a range that wraps */
	return new_q(s, len);
}

/*
 * Mostly the bio after the last one inserted (btt_q_insert's short cut for
 * sequential I/O), now and then a jump back or ahead, or a start queued
 * already: the short cut and the descent alternate, and removals take the
 * last bio or its successor.
 */
static struct btt_q *sequential_q(uint64_t *next)
{
	uint64_t s = *next;

	if (!rnd(8))
		s = 8 * rnd(80);
	*next = s + 8;
	return new_q(s, 8);
}

static void random_steps(struct btt_dev *d, struct model *m, int steps)
{
	uint64_t next = 0;
	int i, mode = 0;

	for (i = 0; i < steps; i++) {
		if (i % 2000 == 0)
			mode = (mode + 1) % 3;	/* messy, sequential, on the grid */
		if (m->n && (rnd(2) || m->n > 80)) {
			remove_at(d, m, rnd(m->n));
		} else if (mode == 1) {
			insert(d, m, sequential_q(&next));
		} else {
			insert(d, m, random_q(mode == 0));
		}
		if (m->n && !rnd(4))	/* the bio queued last, as a back merge follows its Q */
			merge(d, m->live[m->n - 1]);
		if (m->n && !rnd(16))	/* any other: merged again, or after later bios */
			merge(d, m->live[rnd(m->n)]);
		check_counts(d, m);
		if (m->n && rnd(2)) {
			const struct btt_q *q = m->live[rnd(m->n)];

			check_lookup(d, q->sector, q->end);
			check_lookup(d, q->sector, q->end + rnd(16));
		}
		check_lookup(d, rnd(540), rnd(540));
	}
}

/* the inverse of an odd multiplier modulo 2^64 (Newton's iteration) */
static uint64_t inverse(uint64_t a)
{
	uint64_t x = a;
	int i;

	for (i = 0; i < 6; i++)
		x *= 2 - a * x;
	return x;
}

/* sectors whose hash is 0 in any table of up to 256 slots: the index must give up */
static void colliding_sectors(struct btt_dev *d, struct model *m)
{
	uint64_t inv = inverse(0x9e3779b97f4a7c15ull);
	uint64_t k;

	for (k = 1; k <= 3 * BTT_QINDEX_PROBES; k++)
		insert(d, m, new_q((k << 40) * inv, 1));
	CHECK(d->qidx.off, "%zu colliding sectors did not turn the index off", m->n);
	for (k = 0; k < m->n; k++)
		check_lookup(d, m->live[k]->sector, m->live[k]->end);
	while (m->n)
		remove_at(d, m, 0);
}

/*
 * bs_op_of()'s table against the order of tests it stands for: discard,
 * then write, flush, read, else other; every combination of categories.
 */
static void op_classes(void)
{
	uint32_t cats;

	for (cats = 0; cats < 65536; cats++) {
		enum bs_op want = (cats & BS_TC_DISCARD) ? BS_OP_DISCARD :
				  (cats & BS_TC_WRITE)   ? BS_OP_WRITE :
				  (cats & BS_TC_FLUSH)   ? BS_OP_FLUSH :
				  (cats & BS_TC_READ)    ? BS_OP_READ : BS_OP_OTHER;

		CHECK(bs_op_of(cats << 16 | 0x1234) == want, "categories 0x%04x", cats);
	}
}

int main(void)
{
	struct btt_dev d;
	struct model m = { 0 };

	memset(&d, 0, sizeof(d));
	random_steps(&d, &m, 200000);
	while (m.n)
		remove_at(&d, &m, 0);
	check_counts(&d, &m);
	colliding_sectors(&d, &m);
	op_classes();
	btt_qindex_free(&d.qidx);
	free(m.live);
	printf("%d checks, %d failed\n", checks, failures);
	return failures != 0;
}
