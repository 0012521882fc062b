// SPDX-License-Identifier: GPL-2.0
/*
 * stats_set.c - one slice of the analyzed I/Os: a latency sketch per stage
 * plus counts.  A sample's stage latencies are computed once
 * (stage_vals_of) and then added to every slice it belongs to.
 */
#include <stddef.h>
#include <string.h>
#include "extras.h"

const char *const stage_names[ST_COUNT] = { "Q2G", "G2I", "I2D", "D2C", "Q2C", "Q2D" };
const char *const op_names[BS_OP_COUNT] = { "read", "write", "discard", "flush", "other" };

const uint32_t pct_ppm[N_PCT] = { 500000, 900000, 990000, 999000, 999900 };
const char *const pct_names[N_PCT] = { "p50", "p90", "p99", "p99.9", "p99.99" };

/* Stage endpoints: from, to (indices into a sample's times). */
static const struct { size_t from, to; } stage_span[ST_COUNT] = {
	[ST_Q2G] = { offsetof(struct bs_io_sample, t_q), offsetof(struct bs_io_sample, t_g) },
	[ST_G2I] = { offsetof(struct bs_io_sample, t_g), offsetof(struct bs_io_sample, t_i) },
	[ST_I2D] = { offsetof(struct bs_io_sample, t_i), offsetof(struct bs_io_sample, t_d) },
	[ST_D2C] = { offsetof(struct bs_io_sample, t_d), offsetof(struct bs_io_sample, t_c) },
	[ST_Q2C] = { offsetof(struct bs_io_sample, t_q), offsetof(struct bs_io_sample, t_c) },
	[ST_Q2D] = { offsetof(struct bs_io_sample, t_q), offsetof(struct bs_io_sample, t_d) },
};

static inline uint64_t time_at(const struct bs_io_sample *s, size_t off)
{
	return *(const uint64_t *)((const char *)s + off);
}

void stage_vals_of(const struct bs_io_sample *s, struct stage_vals *sv)
{
	int i;

	sv->mask = 0;
	for (i = 0; i < ST_COUNT; i++) {
		uint64_t from = time_at(s, stage_span[i].from);
		uint64_t to = time_at(s, stage_span[i].to);

		if (from == BS_NOT_SEEN || to == BS_NOT_SEEN)
			continue;
		/* btt's tdelta(): a non-positive difference counts as 1 ns */
		sv->ns[i] = to > from ? to - from : 1;
		sv->idx[i] = sk_index(sv->ns[i]);
		sv->mask |= 1u << i;
	}
}

void lat_set_init(struct lat_set *ls)
{
	int i;

	memset(ls, 0, sizeof(*ls));
	for (i = 0; i < ST_COUNT; i++)
		sk_init(&ls->st[i]);
}

void lat_set_free(struct lat_set *ls)
{
	int i;

	for (i = 0; i < ST_COUNT; i++)
		sk_free(&ls->st[i]);
}

void lat_set_add(struct lat_set *ls, const struct bs_io_sample *s, const struct stage_vals *sv)
{
	unsigned int m = sv->mask;

	ls->ios++;
	if (s->t_c != BS_NOT_SEEN) {
		ls->completed++;
		ls->bytes += s->bytes;
		ls->errors += s->error != 0;
	}
	ls->merged += s->t_m != BS_NOT_SEEN;
	ls->requeued += s->requeues > 0;
	while (m) {
		int i = __builtin_ctz(m);

		sk_add_at(&ls->st[i], sv->ns[i], sv->idx[i]);
		m &= m - 1;
	}
}

void lat_set_merge(struct lat_set *dst, const struct lat_set *src)
{
	int i;

	for (i = 0; i < ST_COUNT; i++)
		sk_merge(&dst->st[i], &src->st[i]);
	dst->ios += src->ios;
	dst->completed += src->completed;
	dst->bytes += src->bytes;
	dst->merged += src->merged;
	dst->requeued += src->requeued;
	dst->errors += src->errors;
}
