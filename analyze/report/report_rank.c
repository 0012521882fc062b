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
#include "report_priv.h"

static const char *const sort_names[] = { "I/Os", "bytes", "summed Q2C time" };
static const char *const sort_args[] = { "ios", "bytes", "time" };

int report_parse_sort(struct bs_report *r, const char *arg, struct bs_err *err)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(arg, sort_args[i])) {
			r->sort = i;
			return 0;
		}
	return bs_err_set(err, 0, "--sort wants ios, bytes or time, got '%s'", arg);
}

const char *report_sort_name(const struct bs_report *r)
{
	return sort_names[r->sort];
}

uint64_t report_measure(const struct bs_report *r, const struct report_lat *ls)
{
	struct sketch buf;

	switch (r->sort) {
	case REPORT_SORT_BYTES:
		return ls->bytes;
	case REPORT_SORT_TIME:
		return report_lat_stage(ls, BS_ST_Q2C, &buf)->sum;
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

struct report_proc **report_procs_sorted(const struct bs_report *r)
{
	struct ranked *k = bs_xcalloc(r->nproc + 1, sizeof(*k));
	struct report_proc **v = bs_xcalloc(r->nproc + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < r->nproc; i++)
		k[i] = (struct ranked){ report_measure(r, report_proc_set(r->proc_list[i])), i };
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

/*
 * The slices of a table, read in place (a trace may name a million
 * processes: nothing per slice is copied but 16 bytes of rank): their
 * name to fold by, their label, their set.
 */
struct items {
	struct bs_report *r;
	bool groups;
	size_t n;
};

static const struct report_lat *item_set(const struct items *it, size_t i)
{
	return it->groups ? &it->r->groups[i].set : report_proc_set(it->r->proc_list[i]);
}

/* The name to fold item i by (not NUL-terminated: *len bytes), NULL if it never folds. */
static const char *item_fold(const struct items *it, size_t i, size_t *len)
{
	if (!it->groups) {
		const char *comm = it->r->proc_list[i]->comm;

		*len = comm[0] ? strlen(comm) : 1;
		return comm[0] ? comm : "?";
	}
	/* --group-by pid names a group "comm (pid)": fold by the comm */
	if (it->r->group_by == GROUP_BY_PID && it->r->groups[i].name) {
		const char *name = it->r->groups[i].name, *paren = strrchr(name, '(');

		if (paren && paren > name + 1 && paren[-1] == ' ') {
			*len = (size_t)(paren - name - 1);
			return name;
		}
	}
	return NULL;
}

static void item_label(const struct items *it, size_t i, char *buf, size_t len)
{
	const struct report_proc *p;

	if (it->groups) {
		snprintf(buf, len, "%s", report_group_name(it->r, (int)i));
		return;
	}
	p = it->r->proc_list[i];
	snprintf(buf, len, "%s (%u)", p->comm[0] ? p->comm : "?", p->pid);
}

/* A single-I/O item: its fold name's hash, to sort the singles by name without touching them. */
struct single {
	uint64_t h;
	size_t idx;
};

static int cmp_single(const void *a, const void *b)
{
	const struct single *x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Ranked rows, at most shown of them.  When there are more items than
 * that, the one-I/O items of a fold name (two or more) are one row, ranked
 * by their summed measure (every measure adds up).  Only the rows shown
 * are built: labels and merged sets for at most shown rows.
 */
static void make_rows(const struct items *it, size_t shown, const char *what, struct rank_rows *out)
{
	size_t n = it->n, ns = 0, nrun = 0, nk = 0, i, j;
	struct single *single = NULL;
	size_t *run_start = NULL, *run_end = NULL;
	int64_t *run_of = NULL;	/* item -> its fold run, -1 */
	struct ranked *k = bs_xcalloc(n + 1, sizeof(*k));

	if (n > shown) {
		single = bs_xcalloc(n + 1, sizeof(*single));
		run_of = bs_xcalloc(n + 1, sizeof(*run_of));
		for (i = 0; i < n; i++) {
			size_t len;
			const char *name;

			run_of[i] = -1;
			if (item_set(it, i)->ios == 1 && (name = item_fold(it, i, &len)))
				single[ns++] = (struct single){ bs_hash_bytes(name, len), i };
		}
		qsort(single, ns, sizeof(*single), cmp_single);
		run_start = bs_xcalloc(ns / 2 + 2, sizeof(*run_start));
		run_end = bs_xcalloc(ns / 2 + 2, sizeof(*run_end));
		for (i = 0; i < ns; i = j) {
			size_t la, lb;
			const char *a = item_fold(it, single[i].idx, &la);

			/*
			 * a run: the same hash and the same name (a colliding name ends it: not
			 * folded then)
			 */
			for (j = i + 1; j < ns && single[j].h == single[i].h; j++) {
				const char *b = item_fold(it, single[j].idx, &lb);

				if (la != lb || memcmp(a, b, la))
					break;
			}
			if (j - i < 2)
				continue;
			run_start[nrun] = i;
			run_end[nrun] = j;
			for (size_t m = i; m < j; m++)
				run_of[single[m].idx] = (int64_t)nrun;
			k[nk++] = (struct ranked){ 0, n + nrun };	/* measure summed below */
			nrun++;
		}
	}
	for (i = 0; i < n; i++) {
		uint64_t m = report_measure(it->r, item_set(it, i));

		if (run_of && run_of[i] >= 0)
			k[run_of[i]].m += m;	/* the runs are k[0 .. nrun) */
		else
			k[nk++] = (struct ranked){ m, i };
	}
	qsort(k, nk, sizeof(*k), cmp_ranked);
	out->n = nk < shown ? nk : shown;
	out->v = bs_xcalloc(out->n + 1, sizeof(*out->v));
	for (i = 0; i < out->n; i++) {
		struct rank_row *row = &out->v[i];
		size_t run, len;
		const char *name;

		report_lat_init(&row->merged);
		if (k[i].idx < n) {
			row->set = item_set(it, k[i].idx);
			row->folded = 1;
			item_label(it, k[i].idx, row->label, sizeof(row->label));
			continue;
		}
		run = k[i].idx - n;
		for (j = run_start[run]; j < run_end[run]; j++)
			report_lat_merge(&row->merged, item_set(it, single[j].idx));
		name = item_fold(it, single[run_start[run]].idx, &len);
		row->set = &row->merged;
		row->folded = run_end[run] - run_start[run];
		snprintf(row->label, sizeof(row->label), "%.*s (%zu %s)", (int)len, name,
			 row->folded, what);
	}
	free(k);
	free(single);
	free(run_of);
	free(run_start);
	free(run_end);
}

void report_proc_rows(struct bs_report *r, size_t shown, struct rank_rows *out)
{
	struct items it = { r, false, r->nproc };

	make_rows(&it, shown, "pids", out);
}

void report_group_rows(struct bs_report *r, size_t shown, struct rank_rows *out)
{
	struct items it = { r, true, r->ngroup };

	make_rows(&it, shown, "groups", out);
}

void report_rank_rows_free(struct rank_rows *rows)
{
	for (size_t i = 0; i < rows->n; i++)
		report_lat_free(&rows->v[i].merged);
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

int report_group_slot(struct bs_report *r, int g, const struct bs_io_sample *s,
		      const struct report_stage_vals *sv)
{
	int slot = r->groups[g].slot;
	uint64_t w;

	if (slot < 0)
		slot = report_group_take_slot(r, g);
	w = r->sort == REPORT_SORT_BYTES ? (s->t_c != BS_NOT_SEEN ? s->bytes : 0)
		: r->sort == REPORT_SORT_TIME
		? (sv->mask & (1u << BS_ST_Q2C) ? sv->ns[BS_ST_Q2C] : 0)
		: 1;
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
