// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_match.c - the rows of a comparison: the total, then devices,
 * operations, processes, groups and tags, each matched by name across the
 * two report states (a device may be renamed with --pair).  Processes are
 * matched by command name (pids differ between runs): every pid of a comm
 * is merged into one row, which sketches allow exactly.  Files (record
 * --files) are matched by path, every operation in one row.  A row seen
 * on one side only is kept (its other side is empty).
 */
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "compare.h"
#include "report/report.h"

const char *const cmp_kind_names[CK_COUNT] = { "total", "device", "operation", "process",
					       "group", "tag",	  "file" };

static uint64_t row_key(enum cmp_kind kind, const char *name)
{
	return bs_hash_bytes(name, strlen(name)) ^ bs_hash_mix((uint64_t)kind + 1);
}

/*
 * The row of (kind, name), made if new.  Hashed: a trace may hold 100k
 * devices or processes (a scan per name was quadratic: minutes).  Names
 * come from traces, so two may share a hash on purpose: a mismatch on the
 * hashed row falls back to a scan, which is slow but right.
 */
static struct cmp_row *row_get(struct cmp *c, enum cmp_kind kind, const char *name)
{
	uint64_t key = row_key(kind, name), *slot = bs_hash_get(&c->row_index, key);
	struct cmp_row *row;
	char cut[sizeof(row->name)];

	snprintf(cut, sizeof(cut), "%s", name);	/* rows hold names cut to their size */
	if (slot && c->rows[*slot].kind == kind && !strcmp(c->rows[*slot].name, cut))
		return &c->rows[*slot];
	if (slot)
		for (size_t i = 0; i < c->nrows; i++)
			if (c->rows[i].kind == kind && !strcmp(c->rows[i].name, cut))
				return &c->rows[i];
	BS_GROW(c->rows, c->rows_cap, c->nrows, 64);
	if (!slot)
		bs_hash_put(&c->row_index, key, c->nrows, NULL);
	row = &c->rows[c->nrows++];
	memset(row, 0, sizeof(*row));
	row->kind = kind;
	snprintf(row->name, sizeof(row->name), "%s", name);
	report_lat_init(&row->set[0]);
	report_lat_init(&row->set[1]);
	return row;
}

static void add(struct cmp *c, enum cmp_kind kind, const char *name, int side,
		const struct report_lat *ls)
{
	struct cmp_row *row;

	if (!ls->ios)
		return;
	row = row_get(c, kind, name);
	report_lat_merge(&row->set[side], ls);
	row->seen[side] = true;
}

/* The before-side name of an after-side device (--pair), else its own. */
static uint32_t paired(const struct cmp *c, uint32_t dev, int side)
{
	for (int i = 0; side == 1 && i < c->o.npairs; i++)
		if (c->o.pairs[i].after == dev)
			return c->o.pairs[i].before;
	return dev;
}

/* record --files: a row per file, named by its path (or its class), its operations merged. */
static void add_files(struct cmp *c, struct bs_report *r, int side)
{
	size_t n = report_nfiles(r);
	char name[4200];

	for (size_t i = 0; i < n; i++) {
		struct report_lat all;
		const char *label;

		report_lat_init(&all);
		label = report_file_slice(r, i, name, sizeof(name), &all);
		add(c, CK_FILE, label, side, &all);
		report_lat_free(&all);
	}
}

static void add_side(struct cmp *c, int side)
{
	struct bs_report *r = c->side[side].r;
	const struct report_rollup *ru = report_rollup(r);
	char name[32];

	add(c, CK_ALL, "all", side, &ru->all);
	for (size_t d = 0; d < report_ndevs(r); d++) {
		uint32_t dev = paired(c, report_dev(r, d), side);
		struct cmp_row *row;

		report_dev_name(dev, name, sizeof(name));
		add(c, CK_DEV, name, side, &ru->dev[d]);
		row = row_get(c, CK_DEV, name);
		if (dev != report_dev(r, d))
			report_dev_name(report_dev(r, d), row->name_a, sizeof(row->name_a));
	}
	for (int op = 0; op < BS_OP_COUNT; op++)
		add(c, CK_OP, report_op_names[op], side, &ru->op[op]);
	for (size_t p = 0; p < report_nprocs(r); p++) {
		const struct report_proc *pr = report_proc_at(r, p);
		const char *comm = report_proc_comm(pr);

		add(c, CK_PROC, comm[0] ? comm : "(unknown)", side, report_proc_slice(pr));
	}
	for (size_t g = 0; g < report_ngroups(r); g++)
		add(c, report_group_is_tag(r, g) ? CK_TAG : CK_GROUP, report_group_name(r, (int)g),
		    side, report_group_slice(r, g));
	add_files(c, r, side);
}

static int row_order(const void *x, const void *y)
{
	const struct cmp_row *a = x, *b = y;

	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	/* busiest first (by the larger side), then by name */
	uint64_t na = a->set[0].ios > a->set[1].ios ? a->set[0].ios : a->set[1].ios;
	uint64_t nb = b->set[0].ios > b->set[1].ios ? b->set[0].ios : b->set[1].ios;

	if (na != nb)
		return na > nb ? -1 : 1;
	return strcmp(a->name, b->name);
}

void cmp_match(struct cmp *c)
{
	add_side(c, 0);
	add_side(c, 1);
	bs_hash_free(&c->row_index);	/* the sort moves the rows */
	if (c->nrows > 1)
		qsort(c->rows, c->nrows, sizeof(*c->rows), row_order);
}

void cmp_rows_free(struct cmp *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		report_lat_free(&c->rows[i].set[0]);
		report_lat_free(&c->rows[i].set[1]);
	}
	free(c->rows);
	bs_hash_free(&c->row_index);
	c->rows = NULL;
	c->nrows = c->rows_cap = 0;
}

/*
 * A --fail-if prefix: "" = the total, else the first row of that name (op, device, process,
 * group, tag, file).
 */
const struct cmp_row *cmp_find_row(const struct cmp *c, const char *name)
{
	static const enum cmp_kind order[] = { CK_OP, CK_DEV, CK_PROC, CK_GROUP, CK_TAG, CK_FILE };

	if (!*name || !strcmp(name, "all"))
		return c->nrows && c->rows[0].kind == CK_ALL ? &c->rows[0] : NULL;
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		for (size_t i = 0; i < c->nrows; i++)
			if (c->rows[i].kind == order[k] && !strcmp(c->rows[i].name, name))
				return &c->rows[i];
	return NULL;
}
