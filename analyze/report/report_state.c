// SPDX-License-Identifier: GPL-2.0
/*
 * report_state.c - the report's state (report.h): the sample sink that
 * files each I/O into its slices, the lookups it needs (devices,
 * processes, (device, op, process, group) combos, groups by name: all
 * hashed, so a trace naming 100k devices or processes stays linear), the
 * end-of-trace rollup, and freeing it all.
 *
 * Per sample we update one combo slice and the time series.  Per-device,
 * per-op, per-process, per-group and all-device figures are merged from
 * the combos at the end (report_rollup), which is exact because sketches
 * merge exactly.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_alloc.h"
#include "bs_outfile.h"
#include "bs_stream.h"
#include "bs_writer.h"
#include "report_priv.h"

/* ---- index tables ---- */

/*
 * Why not util/bs_hash: these tables hold no keys.  A slot is the 4-byte
 * index (+1) of an element the report owns already (a group by its name, a
 * process by its pid, a (device, op, process, group) slice), and a probe
 * compares the element itself: bs_hash would keep a second copy of each
 * key (24 bytes a slot) and cannot key a name or a four-field tuple.
 */

/*
 * Slot of key h in a table of cap slots: Fibonacci hashing (one multiply:
 * this is on the per-sample path whenever the pid changes), good enough
 * for pids, pointers and string hashes.
 */
static inline size_t tab_slot(uint64_t h, size_t cap)
{
	return (size_t)((h * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

/* First slot to probe for key h. */
static inline size_t tab_start(const struct idx_table *t, uint64_t h)
{
	return tab_slot(h, t->cap);
}

static inline size_t tab_next(const struct idx_table *t, size_t i)
{
	return (i + 1) & (t->cap - 1);
}

/* Make room for one more entry; hash_of(ctx, index) rehashes the entries. */
static void tab_reserve(struct idx_table *t,
			uint64_t (*hash_of)(const struct bs_report *, uint32_t),
			const struct bs_report *r)
{
	size_t ncap = t->cap ? t->cap * 2 : 256, i, j;
	uint32_t *slot;

	if (2 * (t->len + 1) <= t->cap)
		return;
	slot = bs_xcalloc(ncap, sizeof(*slot));
	for (i = 0; i < t->cap; i++) {
		if (!t->slot[i])
			continue;
		for (j = tab_slot(hash_of(r, t->slot[i] - 1), ncap); slot[j];
		     j = (j + 1) & (ncap - 1))
			;
		slot[j] = t->slot[i];
	}
	free(t->slot);
	t->slot = slot;
	t->cap = ncap;
}

/* Insert index idx with hash h (not present yet; tab_reserve() called). */
static void tab_insert(struct idx_table *t, uint64_t h, uint32_t idx)
{
	size_t i;

	for (i = tab_start(t, h); t->slot[i]; i = tab_next(t, i))
		;
	t->slot[i] = idx + 1;
	t->len++;
}

static void tab_free(struct idx_table *t)
{
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* ---- groups ---- */

static uint64_t group_hash(const struct bs_report *r, uint32_t g)
{
	const char *name = r->groups[g].name;

	return bs_hash_bytes(name, strlen(name));
}

static int group_new(struct bs_report *r, const char *name, int tag)
{
	struct report_group *g;

	r->groups = bs_xreallocarray(r->groups, r->ngroup + 1, sizeof(*r->groups));
	g = &r->groups[r->ngroup];
	g->name = name ? bs_xstrdup(name) : NULL;
	g->tag = tag;
	g->is_cgroup = false;
	g->cgroup = 0;
	report_lat_init(&g->set);
	g->slot = -1;	/* given at its first sample, by volume (report_group_slot()) */
	if (name) {
		tab_reserve(&r->group_tab, group_hash, r);
		tab_insert(&r->group_tab, bs_hash_bytes(name, strlen(name)), (uint32_t)r->ngroup);
	}
	return (int)r->ngroup++;
}

int report_group_find(struct bs_report *r, const char *name)
{
	const struct idx_table *t = &r->group_tab;
	size_t i;

	if (t->len)
		for (i = tab_start(t, bs_hash_bytes(name, strlen(name))); t->slot[i];
		     i = tab_next(t, i))
			if (!strcmp(r->groups[t->slot[i] - 1].name, name))
				return (int)t->slot[i] - 1;
	return group_new(r, name, -1);
}

const char *report_group_name(struct bs_report *r, int g)
{
	/* a few rotating buffers: callers hold several names at once (legends) */
	char *buf = r->name_buf[r->name_next++ % 16];
	const struct report_group *gr = &r->groups[g];

	if (gr->name)
		return gr->name;
	if (gr->is_cgroup) {
		const char *path =
			r->cgroups ? report_cgroup_names_get(r->cgroups, gr->cgroup) : NULL;

		if (path)
			return path;
		if (!gr->cgroup)
			return "(no cgroup)";
		snprintf(buf, sizeof(r->name_buf[0]), "cgroup:%" PRIu64, gr->cgroup);
		return buf;
	}
	if (gr->tag >= 0 && (size_t)gr->tag < r->ntag && r->tag_label[gr->tag])
		return r->tag_label[gr->tag];
	snprintf(buf, sizeof(r->name_buf[0]), "tag %d", gr->tag);
	return buf;
}

/* Tags are dense indexes (the plugin's numbers are mapped by analysis_tags.c). */
static void tag_grow(struct bs_report *r, size_t tag)
{
	size_t n = r->ntag, i;

	if (tag < n)
		return;
	r->ntag = tag + 16;
	r->tag_group = bs_xreallocarray(r->tag_group, r->ntag, sizeof(int));
	r->tag_label = bs_xreallocarray(r->tag_label, r->ntag, sizeof(char *));
	for (i = n; i < r->ntag; i++) {
		r->tag_group[i] = -1;
		r->tag_label[i] = NULL;
	}
}

void report_tag_label(struct bs_report *r, int tag, const char *label)
{
	if (tag < 0)
		return;
	tag_grow(r, (size_t)tag);
	free(r->tag_label[tag]);
	r->tag_label[tag] = bs_xstrdup(label);
}

/*
 * The first tag seen switches grouping on: everything before it was
 * untagged, so the ungrouped combos and time series become the
 * "untagged" group's (exact: nothing is recomputed).
 */
static void switch_groups_on(struct bs_report *r)
{
	struct ts_series *ts = &r->ts;
	int slot;
	size_t i;

	r->groups_used = true;
	r->untagged_group = group_new(r, "untagged", -1);
	for (i = 0; i < r->ncombo; i++)
		if (r->combos[i]->group < 0)
			r->combos[i]->group = r->untagged_group;
	for (i = 0; i < r->nproc; i++) {
		struct report_proc *p = r->proc_list[i];

		if (p->first.proc && p->first.group < 0)
			p->first.group = r->untagged_group;
		p->last = NULL;
	}
	slot = report_group_take_slot(r, r->untagged_group);
	ts_merge_slot(ts, 0, slot);
}

/*
 * --group-by cgroup: one group per cgroup id of the Q (0, no id, is a
 * group too).  A process may do I/O from several cgroups, so the group
 * is the sample's, not the process's.
 */
static int cgroup_group_of(struct bs_report *r, uint64_t id)
{
	uint64_t *v;
	bool added;

	if (r->last_cgroup_group >= 0 && r->last_cgroup == id)
		return r->last_cgroup_group;
	v = bs_hash_put(&r->cgroup_group, id, 0, &added);
	if (added) {
		int g = group_new(r, NULL, -1);

		r->groups[g].is_cgroup = true;
		r->groups[g].cgroup = id;
		v = bs_hash_get(&r->cgroup_group, id);
		*v = (uint64_t)g;
	}
	r->last_cgroup = id;
	return r->last_cgroup_group = (int)*v;
}

static int tag_group_of(struct bs_report *r, int tag)
{
	tag_grow(r, (size_t)tag);
	if (r->tag_group[tag] < 0)
		r->tag_group[tag] = group_new(r, NULL, tag);
	return r->tag_group[tag];
}

/* ---- processes ---- */

static uint64_t proc_hash(const struct bs_report *r, uint32_t i)
{
	return r->proc_list[i]->pid;
}

static int group_of_new_proc(struct bs_report *r, const struct report_proc *p)
{
	const uint64_t *g = bs_hash_get(&r->explicit_pids, p->pid);
	char name[48];

	if (g)
		return (int)*g;
	if (r->group_by == GROUP_BY_COMM)
		return report_group_find(r, p->comm[0] ? p->comm : "(unknown)");
	if (r->group_by == GROUP_BY_PID) {
		snprintf(name, sizeof(name), "%s (%u)", p->comm[0] ? p->comm : "?", p->pid);
		return report_group_find(r, name);
	}
	if (r->group_by == GROUP_BY_CGROUP || r->group_by == GROUP_BY_FILE ||
	    r->group_by == GROUP_BY_DIR)
		return -1;	/* per sample: cgroup_group_of(), report_attr_group() */
	if (r->explicit_pids.len)
		return report_group_find(r, "other");
	return -1;
}

static struct report_proc *proc_get(struct bs_report *r, uint32_t pid, const char *comm)
{
	struct idx_table *t = &r->proc_tab;
	struct report_proc *p;
	size_t i;

	if (r->last_proc && r->last_proc->pid == pid)
		return r->last_proc;
	if (t->len)
		for (i = tab_start(t, pid); t->slot[i]; i = tab_next(t, i))
			if (r->proc_list[t->slot[i] - 1]->pid == pid)
				return r->last_proc = r->proc_list[t->slot[i] - 1];
	p = bs_xcalloc(1, sizeof(*p));
	p->pid = pid;
	if (comm)
		snprintf(p->comm, sizeof(p->comm), "%s", comm);
	report_lat_init(&p->first.set);
	p->group = group_of_new_proc(r, p);
	r->proc_list = bs_xreallocarray(r->proc_list, r->nproc + 1, sizeof(*r->proc_list));
	r->proc_list[r->nproc] = p;
	tab_reserve(t, proc_hash, r);
	tab_insert(t, pid, (uint32_t)r->nproc++);
	return r->last_proc = p;
}

/* ---- combos ---- */

static uint64_t combo_key(const struct report_proc *p, int dev, int op, int group)
{
	return ((uint64_t)(uintptr_t)p >> 4) ^ ((uint64_t)(uint32_t)dev << 40) ^
	       ((uint64_t)(uint32_t)group << 20) ^ ((uint64_t)op << 60);
}

static uint64_t combo_hash(const struct bs_report *r, uint32_t i)
{
	const struct combo *c = r->combos[i];

	return combo_key(c->proc, c->dev, c->op, c->group);
}

static void combo_set(struct combo *c, struct report_proc *p, int dev, int op, int group)
{
	report_lat_init(&c->set);
	c->dev = dev;
	c->op = op;
	c->group = group;
	c->proc = p;
}

static struct combo *combo_get(struct bs_report *r, struct report_proc *p, int dev, int op,
			       int group)
{
	struct idx_table *t = &r->combo_tab;
	uint64_t h = combo_key(p, dev, op, group);
	struct combo *c = &p->first;
	size_t i;

	/* the first combo of a process is in it, not in the table */
	if (!c->proc) {
		combo_set(c, p, dev, op, group);
		return p->last = c;
	}
	if (c->dev == dev && c->op == op && c->group == group)
		return p->last = c;
	if (t->len)
		for (i = tab_start(t, h); t->slot[i]; i = tab_next(t, i)) {
			c = r->combos[t->slot[i] - 1];
			if (c->proc == p && c->dev == dev && c->op == op && c->group == group)
				return p->last = c;
		}
	c = bs_xcalloc(1, sizeof(*c));
	combo_set(c, p, dev, op, group);
	r->combos = bs_xreallocarray(r->combos, r->ncombo + 1, sizeof(*r->combos));
	r->combos[r->ncombo] = c;
	tab_reserve(t, combo_hash, r);
	tab_insert(t, h, (uint32_t)r->ncombo++);
	return p->last = c;
}

/* ---- devices ---- */

static int dev_index(struct bs_report *r, uint32_t device)
{
	uint64_t *v;
	bool added;

	if (r->last_dev >= 0 && r->devs[r->last_dev].device == device)
		return r->last_dev;
	v = bs_hash_put(&r->dev_index, device, r->ndev, &added);
	if (added) {
		struct dev_slot *d;

		r->devs = bs_xreallocarray(r->devs, r->ndev + 1, sizeof(*r->devs));
		d = &r->devs[r->ndev++];
		d->device = device;
		d->offmap = r->timeline ? ts_add_offmap(&r->ts, device) : -1;
	}
	return r->last_dev = (int)*v;
}

bool report_dev_has_offmap(const struct bs_report *r, size_t dev)
{
	int m = r->devs[dev].offmap;

	return m >= 0 && r->ts.off[m].cnt;
}

size_t report_devs_without_offmap(const struct bs_report *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->ndev; i++)
		n += !report_dev_has_offmap(r, i);
	return n;
}

void report_take_counters(struct bs_report *r, const struct bs_dev_counters *c, int n)
{
	int i;

	r->counters = c;
	r->ncounters = n;
	bs_hash_free(&r->counter_index);
	for (i = n - 1; i >= 0; i--)	/* the first of duplicates wins, as a linear search */
		*bs_hash_put(&r->counter_index, c[i].device, (uint64_t)i, NULL) = (uint64_t)i;
}

const struct bs_dev_counters *report_counters_of(const struct bs_report *r, uint32_t device)
{
	const uint64_t *i = bs_hash_get(&r->counter_index, device);

	return i ? &r->counters[*i] : NULL;
}

/* ---- rollup ---- */

static void rollup_combo(struct bs_report *r, struct combo *c)
{
	struct report_rollup *ru = &r->rollup;

	report_lat_merge(&ru->dev[c->dev], &c->set);
	report_lat_merge(&ru->op[c->op], &c->set);
	if (c->group >= 0)
		report_lat_merge(&r->groups[c->group].set, &c->set);
	/*
	 * A process's first combo becomes its slice: the others (rolled up
	 * after all the first ones) go into it, and nothing reads their
	 * latencies after this: give them back now.
	 */
	if (c != &c->proc->first)
		report_lat_move(&c->proc->first.set, &c->set);
}

const struct report_rollup *report_rollup(struct bs_report *r)
{
	struct report_rollup *ru = &r->rollup;
	size_t i;
	int o;

	if (r->rolled_up)
		return ru;
	r->rolled_up = true;
	report_lat_init(&ru->all);
	for (o = 0; o < BS_OP_COUNT; o++)
		report_lat_init(&ru->op[o]);
	ru->dev = bs_xcalloc(r->ndev, sizeof(*ru->dev));
	for (i = 0; i < r->ndev; i++)
		report_lat_init(&ru->dev[i]);
	/* merging is exact and commutes: the order does not matter */
	for (i = 0; i < r->nproc; i++)
		if (r->proc_list[i]->first.proc)
			rollup_combo(r, &r->proc_list[i]->first);
	for (i = 0; i < r->ncombo; i++)
		rollup_combo(r, r->combos[i]);
	for (i = 0; i < r->ndev; i++)
		report_lat_merge(&ru->all, &ru->dev[i]);
	return ru;
}

static void rollup_free(struct bs_report *r)
{
	size_t i;
	int o;

	if (!r->rolled_up)
		return;
	report_lat_free(&r->rollup.all);
	for (o = 0; o < BS_OP_COUNT; o++)
		report_lat_free(&r->rollup.op[o]);
	for (i = 0; i < r->ndev; i++)
		report_lat_free(&r->rollup.dev[i]);
	free(r->rollup.dev);
	r->rolled_up = false;
}

/* ---- the sink ---- */

const char *const report_time_part_names[TP_COUNT] = { "Q2G", "Q2M", "G2I", "G2D", "I2D",
						       "M2D", "Q2D", "D2C", "Q2C" };

static inline void part(struct bs_report *r, enum time_part p, uint64_t from, uint64_t to)
{
	r->part_ns[p] += to - from;
}

/*
 * A completed I/O's Q2C, split once (enum time_part); its times are in order (the model checked).
 */
static void split_time(struct bs_report *r, const struct bs_io_sample *s)
{
	uint64_t entry = s->t_m != BS_NOT_SEEN ? s->t_m : s->t_g;

	if (s->t_d == BS_NOT_SEEN || s->t_d < s->t_q || s->t_d > s->t_c) {
		part(r, TP_Q2C, s->t_q, s->t_c);
		return;
	}
	part(r, TP_D2C, s->t_d, s->t_c);
	if (entry == BS_NOT_SEEN || entry < s->t_q || entry > s->t_d) {
		part(r, TP_Q2D, s->t_q, s->t_d);
		return;
	}
	if (s->t_m != BS_NOT_SEEN) {
		part(r, TP_Q2M, s->t_q, s->t_m);
		part(r, TP_M2D, s->t_m, s->t_d);
	} else if (s->t_i != BS_NOT_SEEN && s->t_i >= s->t_g && s->t_i <= s->t_d) {
		part(r, TP_Q2G, s->t_q, s->t_g);
		part(r, TP_G2I, s->t_g, s->t_i);
		part(r, TP_I2D, s->t_i, s->t_d);
	} else {
		part(r, TP_Q2G, s->t_q, s->t_g);
		part(r, TP_G2D, s->t_g, s->t_d);
	}
}

void report_on_io(void *ctx, const struct bs_io_sample *s)
{
	struct bs_report *r = ctx;
	struct report_stage_vals sv;
	struct combo *c;
	struct report_proc *p;
	int g, di, opc, slot, series;

	p = proc_get(r, s->pid, s->comm);
	if (!p->comm[0] && s->comm)
		snprintf(p->comm, sizeof(p->comm), "%s", s->comm);

	g = p->group;
	if (g < 0 && r->group_by == GROUP_BY_CGROUP) {
		g = cgroup_group_of(r, s->cgroup);
	} else if (g < 0 && r->group_by >= GROUP_BY_FILE) {
		g = report_attr_group(r, s);
	} else if (g < 0 && s->tag >= 0) {
		if (!r->groups_used)
			switch_groups_on(r);
		g = tag_group_of(r, s->tag);
	} else if (g < 0 && r->groups_used) {
		g = r->untagged_group;
	}
	r->last_group = g;
	r->samples++;
	if (r->groups_only)
		return;
	report_stage_vals_of(s, &sv);
	if (sv.mask & (1u << BS_ST_Q2C) && s->status == BS_IO_DONE)
		split_time(r, s);
	di = dev_index(r, s->device);
	c = p->last;
	if (!c || c->dev != di || c->op != (int)s->op || c->group != g)
		c = combo_get(r, p, di, (int)s->op, g);
	report_lat_add(&c->set, s, &sv);
	if (r->attr.dict)
		report_attr_add(r, p, s, &sv);
	if (!r->timeline)
		return;

	opc = s->op == BS_OP_READ ? TS_READ : s->op == BS_OP_WRITE ? TS_WRITE : TS_OTHER;
	slot = g >= 0 ? report_group_slot(r, g, s, &sv) : 0;
	series = r->ts.series_of[slot][opc];
	if (series < 0)
		series = ts_series_index(&r->ts, opc, slot);
	ts_add(&r->ts, s, &sv, series, r->devs[di].offmap);
}

void report_on_finish(void *ctx, uint64_t end_time)
{
	struct bs_report *r = ctx;

	r->end_time = end_time;
	ts_finish(&r->ts, end_time);
}

/* ---- life cycle ---- */

void report_init(struct bs_report *r)
{
	memset(r, 0, sizeof(*r));
	r->last_dev = -1;
	r->untagged_group = -1;
	r->last_group = -1;
	r->last_cgroup_group = -1;
}

int report_begin(struct bs_report *r, const struct report_cgroup_names *cgroups,
		 const struct attr_dict *attr, const struct bs_msg_sink *msg)
{
	if (msg)
		r->msg = *msg;
	r->cgroups = cgroups;
	ts_init(&r->ts, r->interval_ns, 100);
	r->ts.msg = &r->msg;
	return report_attr_begin(r, attr);
}

void report_free(struct bs_report *r)
{
	size_t i;

	rollup_free(r);
	for (i = 0; i < r->ncombo; i++) {
		report_lat_free(&r->combos[i]->set);
		free(r->combos[i]);
	}
	free(r->combos);
	tab_free(&r->combo_tab);
	free(r->devs);
	bs_hash_free(&r->dev_index);
	for (i = 0; i < r->nproc; i++) {
		report_lat_free(&r->proc_list[i]->first.set);
		free(r->proc_list[i]);
	}
	free(r->proc_list);
	tab_free(&r->proc_tab);
	for (i = 0; i < r->ngroup; i++) {
		report_lat_free(&r->groups[i].set);
		free(r->groups[i].name);
	}
	free(r->groups);
	tab_free(&r->group_tab);
	for (i = 0; i < r->ntag; i++)
		free(r->tag_label[i]);
	free(r->tag_label);
	free(r->tag_group);
	bs_hash_free(&r->explicit_pids);
	bs_hash_free(&r->cgroup_group);
	bs_hash_free(&r->counter_index);
	ts_free(&r->ts);
	report_attr_free(&r->attr);
	report_init(r);
}

/* ---- output files ---- */

FILE *report_create_file(const char *path, unsigned int flags, const struct bs_msg_sink *msg)
{
	struct bs_err err;
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	f = bs_create_output_file(path, flags, &err);
	if (!f)
		bs_msg(msg, BS_MSG_ERROR, "%s", err.text);
	return f;
}

int report_close_file(FILE *f, const char *path, const struct bs_msg_sink *msg)
{
	int bad = ferror(f);

	if (f == stdout)
		bad |= fflush(f) != 0;
	else
		bad |= fclose(f) != 0;
	if (bad) {
		bs_msg(msg, BS_MSG_ERROR, "error writing %s", path);
		return -1;
	}
	return 0;
}
