// SPDX-License-Identifier: GPL-2.0
/*
 * report_rank.c - who matters: every ranking of the reports (the text and
 * HTML tables, "top N", "busiest", "more groups", the export's breakdowns)
 * orders processes and groups by one measure, --sort's: the I/Os (the
 * default), the bytes, or the summed Q2C time (how long its I/Os took in
 * all: who the disk spent its time on).  Ties keep the order of
 * appearance.  Tables fold the one-I/O processes that share a name into
 * one row when there are more of them than the table shows ("dd (50 pids)"),
 * so that fifty one-I/O `dd` runs do not push fio off the page.  And the groups' time
 * series slots are handed out by the same measure (ts_slots.h).
 */
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_stream.h"
#include "report.h"

static const char *const sort_names[] = { "I/Os", "bytes", "summed Q2C time" };
static const char *const sort_args[] = { "ios", "bytes", "time" };

int report_parse_sort(struct bs_report *r, const char *arg)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(arg, sort_args[i])) {
			r->sort = i;
			return 0;
		}
	fprintf(stderr, "%s: --sort wants ios, bytes or time, got '%s'\n", bs_progname(), arg);
	return -1;
}

const char *report_sort_name(const struct bs_report *r)
{
	return sort_names[r->sort];
}

uint64_t report_measure(const struct bs_report *r, const struct lat_set *ls)
{
	struct sketch buf;

	switch (r->sort) {
	case SORT_BYTES:
		return ls->bytes;
	case SORT_TIME:
		return lat_stage(ls, ST_Q2C, &buf)->sum;
	default:
		return ls->ios;
	}
}

/* An item and its measure, to sort largest first (ties: lower index first). */
struct ranked {
	uint64_t m;
	size_t idx;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->m != y->m)
		return x->m < y->m ? 1 : -1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

struct proc **report_procs_sorted(const struct bs_report *r)
{
	struct ranked *k = bs_xcalloc(r->nproc + 1, sizeof(*k));
	struct proc **v = bs_xcalloc(r->nproc + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < r->nproc; i++)
		k[i] = (struct ranked){ report_measure(r, proc_set(r->proc_list[i])), i };
	qsort(k, r->nproc, sizeof(*k), cmp_ranked);
	for (i = 0; i < r->nproc; i++)
		v[i] = r->proc_list[k[i].idx];
	free(k);
	return v;
}

int *report_groups_sorted(const struct bs_report *r)
{
	struct ranked *k = bs_xcalloc(r->ngroup + 1, sizeof(*k));
	int *v = bs_xcalloc(r->ngroup + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < r->ngroup; i++)
		k[i] = (struct ranked){ report_measure(r, &r->groups[i].set), i };
	qsort(k, r->ngroup, sizeof(*k), cmp_ranked);
	for (i = 0; i < r->ngroup; i++)
		v[i] = (int)k[i].idx;
	free(k);
	return v;
}

/* ---- table rows, with the one-I/O slices of one name folded ---- */

/* A slice to rank: its name to fold by ("" never folds), its label, its set. */
struct item {
	char fold[32];
	char label[96];
	const struct lat_set *set;
};

static int cmp_fold(const void *a, const void *b)
{
	const struct item *x = *(const struct item *const *)a, *y = *(const struct item *const *)b;

	return strcmp(x->fold, y->fold);
}

/*
 * items -> ranked rows.  When there are more items than shown, the
 * one-I/O items with the same fold name (two or more) become one row.
 */
static void make_rows(const struct bs_report *r, struct item *it, size_t n, size_t shown, const char *what,
		      struct rank_rows *out)
{
	struct item **single = bs_xcalloc(n + 1, sizeof(*single));
	struct ranked *k;
	size_t ns = 0, i, j;

	out->v = bs_xcalloc(n + 1, sizeof(*out->v));
	out->n = 0;
	for (i = 0; i < n; i++)
		if (n > shown && it[i].set->ios == 1 && it[i].fold[0])
			single[ns++] = &it[i];
	qsort(single, ns, sizeof(*single), cmp_fold);
	for (i = 0; i < ns; i = j) {	/* each run of equal names: one row if two or more */
		struct rank_row *row;

		for (j = i + 1; j < ns && !strcmp(single[j]->fold, single[i]->fold); j++)
			;
		if (j - i < 2)
			continue;
		row = &out->v[out->n++];
		lat_set_init(&row->merged);
		for (size_t m = i; m < j; m++) {
			lat_set_merge(&row->merged, single[m]->set);
			single[m]->set = NULL;	/* taken */
		}
		row->set = &row->merged;
		row->folded = j - i;
		snprintf(row->label, sizeof(row->label), "%s (%zu %s)", single[i]->fold, j - i, what);
	}
	for (i = 0; i < n; i++) {
		struct rank_row *row;

		if (!it[i].set)
			continue;
		row = &out->v[out->n++];
		lat_set_init(&row->merged);
		row->set = it[i].set;
		row->folded = 1;
		memcpy(row->label, it[i].label, sizeof(row->label));
	}
	/* rank: the folded rows by their sums, among the others */
	k = bs_xcalloc(out->n + 1, sizeof(*k));
	for (i = 0; i < out->n; i++)
		k[i] = (struct ranked){ report_measure(r, out->v[i].set), i };
	qsort(k, out->n, sizeof(*k), cmp_ranked);
	{
		struct rank_row *sorted = bs_xcalloc(out->n + 1, sizeof(*sorted));

		for (i = 0; i < out->n; i++) {
			sorted[i] = out->v[k[i].idx];
			if (sorted[i].folded > 1)	/* it points into the old array */
				sorted[i].set = NULL;
		}
		free(out->v);
		out->v = sorted;
		for (i = 0; i < out->n; i++)
			if (!out->v[i].set)
				out->v[i].set = &out->v[i].merged;
	}
	free(k);
	free(single);
}

void report_proc_rows(struct bs_report *r, size_t shown, struct rank_rows *out)
{
	struct item *it = bs_xcalloc(r->nproc + 1, sizeof(*it));
	size_t i;

	for (i = 0; i < r->nproc; i++) {
		const struct proc *p = r->proc_list[i];

		snprintf(it[i].fold, sizeof(it[i].fold), "%s", p->comm[0] ? p->comm : "?");
		snprintf(it[i].label, sizeof(it[i].label), "%s (%u)", p->comm[0] ? p->comm : "?", p->pid);
		it[i].set = proc_set(p);
	}
	make_rows(r, it, r->nproc, shown, "pids", out);
	free(it);
}

void report_group_rows(struct bs_report *r, size_t shown, struct rank_rows *out)
{
	struct item *it = bs_xcalloc(r->ngroup + 1, sizeof(*it));
	size_t i;

	for (i = 0; i < r->ngroup; i++) {
		const char *name = report_group_name(r, (int)i), *paren;

		snprintf(it[i].label, sizeof(it[i].label), "%s", name);
		/* --group-by pid names a group "comm (pid)": fold by the comm */
		paren = strrchr(name, '(');
		if (r->group_by == GROUP_BY_PID && paren && paren > name + 1 && paren[-1] == ' ')
			snprintf(it[i].fold, sizeof(it[i].fold), "%.*s", (int)(paren - name - 1), name);
		it[i].set = &r->groups[i].set;
	}
	make_rows(r, it, r->ngroup, shown, "groups", out);
	free(it);
}

void rank_rows_free(struct rank_rows *rows)
{
	for (size_t i = 0; i < rows->n; i++)
		lat_set_free(&rows->v[i].merged);
	free(rows->v);
	rows->v = NULL;
	rows->n = 0;
}

/* ---- time-series slots of the groups ---- */

int report_group_take_slot(struct bs_report *r, int g)
{
	int64_t evicted;
	int s = ts_slots_take(&r->group_slots, g, &evicted);

	if (evicted >= 0) {	/* its series join "more groups"; it stays there */
		ts_merge_slot(&r->ts, r->groups[evicted].slot, TS_GROUP_SLOTS - 1);
		r->groups[evicted].slot = TS_GROUP_SLOTS - 1;
	}
	return r->groups[g].slot = s == TS_SLOT_MORE ? TS_GROUP_SLOTS - 1 : s + 1;
}

int report_group_slot(struct bs_report *r, int g, const struct bs_io_sample *s, const struct stage_vals *sv)
{
	int slot = r->groups[g].slot;
	uint64_t w;

	if (slot < 0)
		slot = report_group_take_slot(r, g);
	w = r->sort == SORT_BYTES ? (s->t_c != BS_NOT_SEEN ? s->bytes : 0) :
	    r->sort == SORT_TIME ? (sv->mask & (1u << ST_Q2C) ? sv->ns[ST_Q2C] : 0) : 1;
	ts_slots_add(&r->group_slots, slot <= TS_SLOT_MAX ? slot - 1 : TS_SLOT_MORE, w);
	return slot;
}

bool report_more_groups(const struct bs_report *r)
{
	for (int op = 0; op < TS_OPS; op++)
		if (r->ts.series_of[TS_GROUP_SLOTS - 1][op] >= 0)
			return true;
	return false;
}
