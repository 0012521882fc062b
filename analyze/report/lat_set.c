// SPDX-License-Identifier: GPL-2.0
/*
 * lat_set.c - one slice of the analyzed I/Os (see lat_set.h) and the
 * names of stages, operations and percentiles.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "lat_set.h"

const struct sketch lat_no_stages[ST_COUNT];

const char *const stage_names[ST_COUNT] = { "Q2G", "G2I", "I2D", "D2C", "Q2C", "Q2D" };
const char *const op_names[BS_OP_COUNT] = {
	"read", "write", "discard", "flush", "other",
	"zone-append", "zone-reset", "zone-reset-all", "zone-finish", "zone-open", "zone-close",
};

const uint32_t pct_ppm[N_PCT] = { 500000, 900000, 990000, 999000, 999900 };
const char *const pct_names[N_PCT] = { "p50", "p90", "p99", "p99.9", "p99.99" };

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

void lat_set_free(struct lat_set *ls)
{
	int i;

	if (ls->st && ls->st != lat_no_stages) {
		for (i = 0; i < ST_COUNT; i++)
			sk_free(&ls->st[i]);
		free(ls->st);
	}
	ls->st = LAT_NO_STAGES;
}

void lat_set_merge(struct lat_set *dst, const struct lat_set *src)
{
	int i;

	if (src->st != lat_no_stages) {
		lat_set_own(dst);
		for (i = 0; i < ST_COUNT; i++)
			sk_merge(&dst->st[i], &src->st[i]);
	}
	dst->ios += src->ios;
	dst->completed += src->completed;
	dst->bytes += src->bytes;
	dst->merged += src->merged;
	dst->requeued += src->requeued;
	dst->errors += src->errors;
}
