// SPDX-License-Identifier: GPL-2.0
/*
 * report_lat.c - one slice of the analyzed I/Os (see report_lat.h) and the
 * names of stages, operations and percentiles.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "report_lat.h"

const struct sketch report_lat_no_stages[BS_ST_COUNT];

const char *const report_stage_names[BS_ST_COUNT] = { "Q2G", "G2I", "I2D", "Q2M",
						      "M2D", "D2C", "Q2C", "Q2D" };
const char *const report_op_names[BS_OP_COUNT] = {
	"read", "write", "discard", "flush", "other",
	"zone-append", "zone-reset", "zone-reset-all", "zone-finish", "zone-open", "zone-close",
};

const uint32_t report_pct_ppm[REPORT_N_PCT] = { 500000, 900000, 990000, 999000, 999900 };
const char *const report_pct_names[REPORT_N_PCT] = { "p50", "p90", "p99", "p99.9", "p99.99" };

uint64_t report_lat_avg_ns(const struct sketch *sk)
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

void report_lat_init(struct report_lat *ls)
{
	memset(ls, 0, sizeof(*ls));
	ls->st = REPORT_LAT_NO_STAGES;
}

void report_lat_own(struct report_lat *ls)
{
	int i;

	if (ls->st != report_lat_no_stages)
		return;
	ls->st = bs_xcalloc(BS_ST_COUNT, sizeof(*ls->st));
	for (i = 0; i < BS_ST_COUNT; i++)
		sketch_init(&ls->st[i]);
}

void report_lat_keep_one(struct report_lat *ls, const struct report_stage_vals *sv)
{
	int i;

	ls->one = NULL;
	if (!sv->mask)
		return;
	ls->one = bs_xcalloc(1, sizeof(*ls->one));
	ls->one->mask = sv->mask;
	for (i = 0; i < BS_ST_COUNT; i++)
		if (sv->mask & (1u << i))
			ls->one->ns[i] = sv->ns[i];
}

/* Add a one-sample set's values to the sketches of dst (ios != 1). */
static void add_one(struct report_lat *dst, const struct report_lat_one *one)
{
	int i;

	if (!one)
		return;
	report_lat_own(dst);
	for (i = 0; i < BS_ST_COUNT; i++)
		if (one->mask & (1u << i))
			sketch_add(&dst->st[i], one->ns[i]);
}

void report_lat_unpack(struct report_lat *ls)
{
	struct report_lat_one *one = ls->one;

	ls->st = REPORT_LAT_NO_STAGES;
	add_one(ls, one);
	free(one);
}

const struct sketch *report_lat_stages(const struct report_lat *ls, struct sketch buf[BS_ST_COUNT])
{
	int i;

	if (ls->ios != 1)
		return ls->st;
	for (i = 0; i < BS_ST_COUNT; i++) {
		sketch_init(&buf[i]);
		if (ls->one && (ls->one->mask & (1u << i))) {
			/* what sketch_add() makes of one value: no allocation */
			buf[i].n = 1;
			buf[i].sum = buf[i].min = buf[i].max = ls->one->ns[i];
		}
	}
	return buf;
}

const struct sketch *report_lat_stage(const struct report_lat *ls, int st, struct sketch *buf)
{
	if (ls->ios != 1)
		return &ls->st[st];
	sketch_init(buf);
	if (ls->one && (ls->one->mask & (1u << st))) {
		buf->n = 1;
		buf->sum = buf->min = buf->max = ls->one->ns[st];
	}
	return buf;
}

void report_lat_free(struct report_lat *ls)
{
	int i;

	if (ls->ios == 1) {
		free(ls->one);
		ls->one = NULL;
		return;
	}
	if (ls->st && ls->st != report_lat_no_stages) {
		for (i = 0; i < BS_ST_COUNT; i++)
			sketch_free(&ls->st[i]);
		free(ls->st);
	}
	ls->st = REPORT_LAT_NO_STAGES;
}

static void add_counts(struct report_lat *dst, const struct report_lat *src)
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

void report_lat_merge(struct report_lat *dst, const struct report_lat *src)
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
		report_lat_unpack(dst);
	if (src->ios == 1) {
		add_one(dst, src->one);
	} else if (src->st != report_lat_no_stages) {
		report_lat_own(dst);
		for (i = 0; i < BS_ST_COUNT; i++)
			sketch_merge(&dst->st[i], &src->st[i]);
	}
	add_counts(dst, src);
}

void report_lat_move(struct report_lat *dst, struct report_lat *src)
{
	if (dst->ios || !src->ios) {
		report_lat_merge(dst, src);
		report_lat_free(src);
		return;
	}
	/* dst empty: it takes src's latencies over; src keeps its counts */
	*dst = *src;
	if (src->ios == 1)
		src->one = NULL;
	else
		src->st = REPORT_LAT_NO_STAGES;
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
	cnt[i < REPORT_LAT_US_BUCKETS ? i : REPORT_LAT_US_BUCKETS - 1] += count;
}

void report_lat_us_hist(const struct sketch *sk, uint64_t cnt[REPORT_LAT_US_BUCKETS])
{
	memset(cnt, 0, REPORT_LAT_US_BUCKETS * sizeof(*cnt));
	sketch_foreach(sk, us_put, cnt);
}
