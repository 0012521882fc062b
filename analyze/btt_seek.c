// SPDX-License-Identifier: GPL-2.0
/*
 * btt_seek.c - seek distances as btt measures them (seek.c in btt):
 *
 *  - distance 0 when the new IO's start or end lies within the previous
 *    IO's [start, end]; else start - last_end when moving forward; else
 *    start - last_start.  With -a: always start - last_end.  The first
 *    IO is measured from [0, 0].
 *  - |distance| values are counted in a red-black tree (one node per
 *    distinct value).  The "median" is the first node, in a root-first
 *    walk, whose OWN count reaches nseeks/2 (btt never advances its
 *    running sum); the modes are collected in post-order.  Both depend on
 *    the tree's shape, hence the Linux-identical tree.
 */
#include <stdlib.h>
#include <string.h>
#include "btt_seek.h"

struct bt_seek_bkt {
	struct bt_rb_node rb;
	long long sectors;
	int nseeks;
};

#define SEEK_SLAB_NODES 4096

struct bt_seek_slab {
	struct bt_seek_slab *next;
	struct bt_seek_bkt nodes[SEEK_SLAB_NODES];
};

void bt_seek_init(struct bt_seek *s)
{
	memset(s, 0, sizeof(*s));
	s->slab_used = SEEK_SLAB_NODES;
}

void bt_seek_free(struct bt_seek *s)
{
	while (s->slabs) {
		struct bt_seek_slab *next = s->slabs->next;

		free(s->slabs);
		s->slabs = next;
	}
}

static struct bt_seek_bkt *bkt_alloc(struct bt_seek *s)
{
	if (s->slab_used == SEEK_SLAB_NODES) {
		struct bt_seek_slab *slab = malloc(sizeof(*slab));

		if (!slab) {
			perror("blkscope-analyze: seek statistics");
			exit(1);
		}
		slab->next = s->slabs;
		s->slabs = slab;
		s->slab_used = 0;
	}
	return &s->slabs->nodes[s->slab_used++];
}

static void count_distance(struct bt_seek *s, long long sectors)
{
	struct bt_rb_node **link = &s->root.node, *parent = NULL;
	struct bt_seek_bkt *b;

	while (*link) {
		parent = *link;
		b = bt_rb_entry(parent, struct bt_seek_bkt, rb);
		if (sectors < b->sectors) {
			link = &parent->left;
		} else if (sectors > b->sectors) {
			link = &parent->right;
		} else {
			b->nseeks++;
			return;
		}
	}
	b = bkt_alloc(s);
	b->sectors = sectors;
	b->nseeks = 1;
	bt_rb_link(&b->rb, parent, link);
	bt_rb_insert_color(&b->rb, &s->root);
}

static long long distance(struct bt_seek *s, long long start, long long end, int absolute)
{
	long long dist;

	if (absolute)
		dist = start - s->last_end;
	else if ((s->last_start <= start && start <= s->last_end) ||
		 (s->last_start <= end && end <= s->last_end))
		dist = 0;
	else if (start > s->last_end)
		dist = start - s->last_end;
	else
		dist = start - s->last_start;
	s->last_start = start;
	s->last_end = end;
	return dist;
}

void bt_seek_add(struct bt_seek *s, uint64_t sector, uint32_t bytes, int absolute,
		 int is_read, uint64_t time)
{
	long long start = (long long)sector, end = (long long)(sector + (bytes >> 9));
	long long dist = distance(s, start, end, absolute);
	FILE *fp = is_read ? s->rfp : s->wfp;

	if (fp || s->cfp) {
		double ts = (double)(time / 1000000000ull) + (double)(time % 1000000000ull) / 1.0e9;

		if (fp)
			fprintf(fp, "%15.9lf %13lld %c\n", ts, dist, is_read ? 'r' : 'w');
		if (s->cfp)
			fprintf(s->cfp, "%15.9lf %13lld %c\n", ts, dist, is_read ? 'r' : 'w');
	}
	dist = llabs(dist);
	s->nseeks++;
	s->total_sectors += dist;
	count_distance(s, dist);
}

double bt_seek_mean(const struct bt_seek *s)
{
	return s->total_sectors / s->nseeks;
}

/* btt's walk: the running sum passed down is always 0. */
static int median_walk(const struct bt_rb_node *n, long long target, long long *out)
{
	const struct bt_seek_bkt *b = bt_rb_entry(n, struct bt_seek_bkt, rb);

	if (b->nseeks >= target) {
		*out = b->sectors;
		return 1;
	}
	if (n->left && median_walk(n->left, target, out))
		return 1;
	if (n->right && median_walk(n->right, target, out))
		return 1;
	return 0;
}

long long bt_seek_median(const struct bt_seek *s)
{
	long long v = 0;

	if (s->root.node)
		median_walk(s->root.node, s->nseeks / 2, &v);
	return v;
}

static int mode_walk(const struct bt_rb_node *n, struct bt_seek_modes *m, int *cap)
{
	const struct bt_seek_bkt *b = bt_rb_entry(n, struct bt_seek_bkt, rb);

	if (n->left && mode_walk(n->left, m, cap))
		return -1;
	if (n->right && mode_walk(n->right, m, cap))
		return -1;
	if (m->nmds == 0 && !m->modes) {
		/* first node seen */
	} else if (b->nseeks > m->most_seeks) {
		m->nmds = 0;
	} else if (b->nseeks != m->most_seeks) {
		return 0;
	}
	if (m->nmds == *cap) {
		long long *nm = realloc(m->modes, (*cap ? *cap * 2 : 8) * sizeof(*nm));

		if (!nm)
			return -1;
		*cap = *cap ? *cap * 2 : 8;
		m->modes = nm;
	}
	m->most_seeks = b->nseeks;
	m->modes[m->nmds++] = b->sectors;
	return 0;
}

int bt_seek_mode(const struct bt_seek *s, struct bt_seek_modes *m)
{
	int cap = 0;

	memset(m, 0, sizeof(*m));
	if (s->root.node && mode_walk(s->root.node, m, &cap)) {
		perror("blkscope-analyze: seek modes");
		exit(1);
	}
	return m->nmds;
}
