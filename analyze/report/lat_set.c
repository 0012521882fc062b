// SPDX-License-Identifier: GPL-2.0
/*
 * lat_set.c - one slice of the analyzed I/Os (see lat_set.h) and the
 * names of stages, operations and percentiles.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "lat_set.h"

const struct sketch lat_no_stages[ST_COUNT];

const char *const stage_names[ST_COUNT] = { "Q2G", "G2I", "I2D", "Q2M", "M2D", "D2C", "Q2C", "Q2D" };
const char *const op_names[BS_OP_COUNT] = {
	"read", "write", "discard", "flush", "other",
	"zone-append", "zone-reset", "zone-reset-all", "zone-finish", "zone-open", "zone-close",
};

const uint32_t pct_ppm[N_PCT] = { 500000, 900000, 990000, 999000, 999900 };
const char *const pct_names[N_PCT] = { "p50", "p90", "p99", "p99.9", "p99.99" };

uint64_t lat_avg_ns(const struct sketch *sk)
{
	double secs, avg;
	char buf[64], *dot;
	uint64_t whole, frac;

	if (!sk->n)
		return 0;
	secs = (double)(sk->sum / 1000000000ull) + (double)(sk->sum % 1000000000ull) / 1.0e9;
	avg = secs / (double)sk->n;
	snprintf(buf, sizeof(buf), "%.9f", avg);	/* btt's rounding, digit for digit */
	whole = strtoull(buf, &dot, 10);
	frac = *dot == '.' ? strtoull(dot + 1, NULL, 10) : 0;
	return whole * 1000000000ull + frac;
}

void lat_set_init(struct lat_set *ls)
{
	memset(ls, 0, sizeof(*ls));
	ls->st = LAT_NO_STAGES;
}

void lat_set_own(struct lat_set *ls)
{
	int i;

	if (ls->st != lat_no_stages)
		return;
	ls->st = bs_xcalloc(ST_COUNT, sizeof(*ls->st));
	for (i = 0; i < ST_COUNT; i++)
		sk_init(&ls->st[i]);
}

void lat_set_keep_one(struct lat_set *ls, const struct stage_vals *sv)
{
	int i;

	ls->one = NULL;
	if (!sv->mask)
		return;
	ls->one = bs_xcalloc(1, sizeof(*ls->one));
	ls->one->mask = sv->mask;
	for (i = 0; i < ST_COUNT; i++)
		if (sv->mask & (1u << i))
			ls->one->ns[i] = sv->ns[i];
}

/* Add a one-sample set's values to the sketches of dst (ios != 1). */
static void add_one(struct lat_set *dst, const struct lat_one *one)
{
	int i;

	if (!one)
		return;
	lat_set_own(dst);
	for (i = 0; i < ST_COUNT; i++)
		if (one->mask & (1u << i))
			sk_add(&dst->st[i], one->ns[i]);
}

void lat_set_unpack(struct lat_set *ls)
{
	struct lat_one *one = ls->one;

	ls->st = LAT_NO_STAGES;
	add_one(ls, one);
	free(one);
}

const struct sketch *lat_stages(const struct lat_set *ls, struct sketch buf[ST_COUNT])
{
	int i;

	if (ls->ios != 1)
		return ls->st;
	for (i = 0; i < ST_COUNT; i++) {
		sk_init(&buf[i]);
		if (ls->one && (ls->one->mask & (1u << i))) {
			/* what sk_add() makes of one value: no allocation */
			buf[i].n = 1;
			buf[i].sum = buf[i].min = buf[i].max = ls->one->ns[i];
		}
	}
	return buf;
}

const struct sketch *lat_stage(const struct lat_set *ls, int st, struct sketch *buf)
{
	if (ls->ios != 1)
		return &ls->st[st];
	sk_init(buf);
	if (ls->one && (ls->one->mask & (1u << st))) {
		buf->n = 1;
		buf->sum = buf->min = buf->max = ls->one->ns[st];
	}
	return buf;
}

void lat_set_free(struct lat_set *ls)
{
	int i;

	if (ls->ios == 1) {
		free(ls->one);
		ls->one = NULL;
		return;
	}
	if (ls->st && ls->st != lat_no_stages) {
		for (i = 0; i < ST_COUNT; i++)
			sk_free(&ls->st[i]);
		free(ls->st);
	}
	ls->st = LAT_NO_STAGES;
}

static void add_counts(struct lat_set *dst, const struct lat_set *src)
{
	dst->ios += src->ios;
	dst->completed += src->completed;
	dst->bytes += src->bytes;
	dst->open += src->open;
	dst->lossy += src->lossy;
	dst->lossy_bytes += src->lossy_bytes;
	dst->merged += src->merged;
	dst->requeued += src->requeued;
	dst->errors += src->errors;
}

void lat_set_merge(struct lat_set *dst, const struct lat_set *src)
{
	int i;

	if (!src->ios)
		return;
	if (!dst->ios && src->ios == 1) {	/* dst becomes a copy of one sample */
		add_counts(dst, src);
		dst->one = NULL;
		if (src->one) {
			dst->one = bs_xcalloc(1, sizeof(*dst->one));
			*dst->one = *src->one;
		}
		return;
	}
	if (dst->ios == 1)	/* it will hold more than one */
		lat_set_unpack(dst);
	if (src->ios == 1) {
		add_one(dst, src->one);
	} else if (src->st != lat_no_stages) {
		lat_set_own(dst);
		for (i = 0; i < ST_COUNT; i++)
			sk_merge(&dst->st[i], &src->st[i]);
	}
	add_counts(dst, src);
}

void lat_set_move(struct lat_set *dst, struct lat_set *src)
{
	if (dst->ios || !src->ios) {
		lat_set_merge(dst, src);
		lat_set_free(src);
		return;
	}
	/* dst empty: it takes src's latencies over; src keeps its counts */
	*dst = *src;
	if (src->ios == 1)
		src->one = NULL;
	else
		src->st = LAT_NO_STAGES;
}

static void us_put(void *ctx, uint64_t mid, uint64_t count)
{
	uint64_t *cnt = ctx, q = mid / 1000;
	int i;

	if (mid == UINT64_MAX)	/* past the last bucket's exclusive end */
		return;
	/* 1000 * 2^i <= mid < 1000 * 2^(i+1)  <=>  2^i <= mid / 1000 < 2^(i+1) */
	i = q < 2 ? 0 : 63 - __builtin_clzll(q);
	/* the last bucket runs on to UINT64_MAX: mid / 1000 reaches 2^54 */
	cnt[i < LAT_US_BUCKETS ? i : LAT_US_BUCKETS - 1] += count;
}

void lat_us_hist(const struct sketch *sk, uint64_t cnt[LAT_US_BUCKETS])
{
	memset(cnt, 0, LAT_US_BUCKETS * sizeof(*cnt));
	sk_foreach(sk, us_put, cnt);
}
