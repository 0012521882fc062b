// SPDX-License-Identifier: GPL-2.0
/*
 * extras.c - the analyzer extension behind --stats, --json, --csv, --html,
 * --svg, --group, --group-by and --interval: option parsing, the sample
 * sink that files each I/O into its slices, and the end-of-trace calls to
 * the writers.  When none of these options is given no sink is registered
 * and the btt report runs at full speed.
 *
 * Per sample we update: the (device, op) slice, the process slice, the
 * group slice (if grouping is in use) and the time series.  Per-device,
 * per-op and all-device figures are merged from the (device, op) slices at
 * the end (extras_rollup), which is exact because sketches merge exactly.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analyze.h"
#include "bs_writer.h"
#include "extras.h"

struct extras extras;

enum {
	OPT_STATS = BS_EXT_OPT_BASE + 0x80,
	OPT_JSON,
	OPT_CSV,
	OPT_HTML,
	OPT_SVG,
	OPT_GROUP,
	OPT_GROUP_BY,
	OPT_INTERVAL,
};

static const struct option extras_options[] = {
	{ "stats",    no_argument,       NULL, OPT_STATS },
	{ "json",     required_argument, NULL, OPT_JSON },
	{ "csv",      required_argument, NULL, OPT_CSV },
	{ "html",     required_argument, NULL, OPT_HTML },
	{ "svg",      required_argument, NULL, OPT_SVG },
	{ "group",    required_argument, NULL, OPT_GROUP },
	{ "group-by", required_argument, NULL, OPT_GROUP_BY },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ NULL, 0, NULL, 0 },
};

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "blkscope-analyze: out of memory\n");
		exit(1);
	}
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "blkscope-analyze: out of memory\n");
		exit(1);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		fprintf(stderr, "blkscope-analyze: out of memory\n");
		exit(1);
	}
	return d;
}

/* ---- groups ---- */

static int group_new(const char *name, int tag)
{
	struct group *g;

	extras.groups = xrealloc(extras.groups, (extras.ngroup + 1) * sizeof(*extras.groups));
	g = &extras.groups[extras.ngroup];
	g->name = name ? xstrdup(name) : NULL;
	g->tag = tag;
	lat_set_init(&g->set);
	/* slot 0 is "no group"; the last slot takes every group past the cap */
	g->slot = extras.ngroup < TS_GROUP_SLOTS - 2 ? (int)extras.ngroup + 1 : TS_GROUP_SLOTS - 1;
	return (int)extras.ngroup++;
}

static int group_find(const char *name)
{
	size_t i;

	for (i = 0; i < extras.ngroup; i++)
		if (extras.groups[i].name && !strcmp(extras.groups[i].name, name))
			return (int)i;
	return group_new(name, -1);
}

const char *group_name(int g)
{
	/* a few rotating buffers: callers hold several names at once (legends) */
	static char bufs[16][32];
	static unsigned int next;
	char *buf = bufs[next++ % 16];
	const struct group *gr = &extras.groups[g];

	if (gr->name)
		return gr->name;
	if (gr->tag >= 0 && (size_t)gr->tag < extras.ntag && extras.tag_label[gr->tag])
		return extras.tag_label[gr->tag];
	snprintf(buf, sizeof(bufs[0]), "tag %d", gr->tag);
	return buf;
}

static void tag_grow(size_t tag)
{
	size_t n = extras.ntag, i;

	if (tag < n)
		return;
	extras.ntag = tag + 16;
	extras.tag_group = xrealloc(extras.tag_group, extras.ntag * sizeof(int));
	extras.tag_label = xrealloc(extras.tag_label, extras.ntag * sizeof(char *));
	for (i = n; i < extras.ntag; i++) {
		extras.tag_group[i] = -1;
		extras.tag_label[i] = NULL;
	}
}

void bs_extras_tag_label(int tag, const char *label)
{
	if (tag < 0)
		return;
	tag_grow((size_t)tag);
	free(extras.tag_label[tag]);
	extras.tag_label[tag] = xstrdup(label);
}

/*
 * The first tag seen switches grouping on: everything before it was
 * untagged, so the ungrouped combos and time series become the
 * "untagged" group's (exact: nothing is recomputed).
 */
static int untagged_group;

static void switch_groups_on(void)
{
	struct timeseries *ts = &extras.ts;
	int slot, op;
	size_t i;

	extras.groups_used = true;
	untagged_group = group_new("untagged", -1);
	for (i = 0; i < extras.ncombo; i++)
		if (extras.combos[i]->group < 0)
			extras.combos[i]->group = untagged_group;
	for (i = 0; i < extras.nproc; i++)
		extras.proc_list[i]->last = NULL;
	slot = extras.groups[untagged_group].slot;
	for (op = 0; op < TS_OPS; op++) {
		int s = ts->series_of[0][op];

		if (s < 0)
			continue;
		ts->series_slot[s] = slot;
		ts->series_of[slot][op] = s;
		ts->series_of[0][op] = -1;
	}
}

static int tag_group_of(int tag)
{
	tag_grow((size_t)tag);
	if (extras.tag_group[tag] < 0)
		extras.tag_group[tag] = group_new(NULL, tag);
	return extras.tag_group[tag];
}

/* ---- processes ---- */

static inline size_t pid_hash(uint32_t pid, size_t cap)
{
	return (size_t)((pid * 0x9E3779B1u) & (cap - 1));
}

static void proc_rehash(void)
{
	size_t ncap = extras.proc_cap ? extras.proc_cap * 2 : 256, i;
	struct proc **slots = xcalloc(ncap, sizeof(*slots));

	for (i = 0; i < extras.nproc; i++) {
		struct proc *p = extras.proc_list[i];
		size_t h = pid_hash(p->pid, ncap);

		while (slots[h])
			h = (h + 1) & (ncap - 1);
		slots[h] = p;
	}
	free(extras.procs);
	extras.procs = slots;
	extras.proc_cap = ncap;
	extras.proc_list = xrealloc(extras.proc_list, ncap * sizeof(*extras.proc_list));
}

static int group_of_new_proc(const struct proc *p)
{
	char name[48];
	size_t i;

	for (i = 0; i < extras.nexplicit; i++)
		if (extras.explicit_pids[i].pid == p->pid)
			return extras.explicit_pids[i].group;
	if (extras.group_by == 1)
		return group_find(p->comm[0] ? p->comm : "(unknown)");
	if (extras.group_by == 2) {
		snprintf(name, sizeof(name), "%s (%u)", p->comm[0] ? p->comm : "?", p->pid);
		return group_find(name);
	}
	if (extras.nexplicit)
		return group_find("other");
	return -1;
}

static struct proc *last_proc;

static struct proc *proc_get(uint32_t pid, const char *comm)
{
	size_t h;
	struct proc *p;

	if (last_proc && last_proc->pid == pid)
		return last_proc;
	if (extras.proc_cap) {
		for (h = pid_hash(pid, extras.proc_cap); extras.procs[h]; h = (h + 1) & (extras.proc_cap - 1))
			if (extras.procs[h]->pid == pid)
				return last_proc = extras.procs[h];
	}
	if (2 * (extras.nproc + 1) > extras.proc_cap)
		proc_rehash();
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	if (comm)
		snprintf(p->comm, sizeof(p->comm), "%s", comm);
	lat_set_init(&p->set);
	p->group = group_of_new_proc(p);
	for (h = pid_hash(pid, extras.proc_cap); extras.procs[h]; h = (h + 1) & (extras.proc_cap - 1))
		;
	extras.procs[h] = p;
	extras.proc_list[extras.nproc++] = p;
	return last_proc = p;
}

static struct combo *combo_get(struct proc *p, int dev, int op, int group)
{
	struct combo *c;
	size_t i;

	for (i = 0; i < p->ncombo; i++) {
		c = p->combos[i];
		if (c->dev == dev && c->op == op && c->group == group)
			return p->last = c;
	}
	c = xcalloc(1, sizeof(*c));
	lat_set_init(&c->set);
	c->dev = dev;
	c->op = op;
	c->group = group;
	c->proc = p;
	p->combos = xrealloc(p->combos, (p->ncombo + 1) * sizeof(*p->combos));
	p->combos[p->ncombo++] = c;
	extras.combos = xrealloc(extras.combos, (extras.ncombo + 1) * sizeof(*extras.combos));
	extras.combos[extras.ncombo++] = c;
	return p->last = c;
}

static int cmp_proc(const void *a, const void *b)
{
	const struct proc *x = *(struct proc *const *)a, *y = *(struct proc *const *)b;

	if (x->set.ios != y->set.ios)
		return x->set.ios < y->set.ios ? 1 : -1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

struct proc **procs_sorted(void)
{
	struct proc **v = xcalloc(extras.nproc, sizeof(*v));

	if (!extras.nproc)	/* proc_list is NULL then */
		return v;
	memcpy(v, extras.proc_list, extras.nproc * sizeof(*v));
	qsort(v, extras.nproc, sizeof(*v), cmp_proc);
	return v;
}

/* ---- devices ---- */

static int dev_index(uint32_t device)
{
	size_t i;
	struct dev_slot *d;

	if (extras.last_dev >= 0 && extras.devs[extras.last_dev].device == device)
		return extras.last_dev;
	for (i = 0; i < extras.ndev; i++)
		if (extras.devs[i].device == device)
			return extras.last_dev = (int)i;
	extras.devs = xrealloc(extras.devs, (extras.ndev + 1) * sizeof(*extras.devs));
	d = &extras.devs[extras.ndev];
	d->device = device;
	d->offmap = ts_add_offmap(&extras.ts, device);
	return extras.last_dev = (int)extras.ndev++;
}

void dev_name(uint32_t device, char *buf, size_t len)
{
	snprintf(buf, len, "%u,%u", device >> 20, device & 0xfffff);
}

const struct bs_dev_counters *counters_of(uint32_t device)
{
	int i;

	for (i = 0; i < extras.ncounters; i++)
		if (extras.counters[i].device == device)
			return &extras.counters[i];
	return NULL;
}

static struct rollup rollup;
static bool rolled_up;

const struct rollup *extras_rollup(void)
{
	struct rollup *r = &rollup;
	size_t i;
	int o;

	if (rolled_up)
		return r;
	rolled_up = true;
	lat_set_init(&r->all);
	for (o = 0; o < BS_OP_COUNT; o++)
		lat_set_init(&r->op[o]);
	r->dev = xcalloc(extras.ndev, sizeof(*r->dev));
	for (i = 0; i < extras.ndev; i++)
		lat_set_init(&r->dev[i]);
	for (i = 0; i < extras.ncombo; i++) {
		const struct combo *c = extras.combos[i];

		lat_set_merge(&r->dev[c->dev], &c->set);
		lat_set_merge(&r->op[c->op], &c->set);
		lat_set_merge(&c->proc->set, &c->set);
		if (c->group >= 0)
			lat_set_merge(&extras.groups[c->group].set, &c->set);
	}
	for (i = 0; i < extras.ndev; i++)
		lat_set_merge(&r->all, &r->dev[i]);
	return r;
}

static void rollup_free(void)
{
	size_t i;
	int o;

	if (!rolled_up)
		return;
	lat_set_free(&rollup.all);
	for (o = 0; o < BS_OP_COUNT; o++)
		lat_set_free(&rollup.op[o]);
	for (i = 0; i < extras.ndev; i++)
		lat_set_free(&rollup.dev[i]);
	free(rollup.dev);
	rolled_up = false;
}

/* ---- the sink ---- */

static void on_io(void *ctx, const struct bs_io_sample *s)
{
	struct stage_vals sv;
	struct combo *c;
	struct proc *p;
	int g, di, opc, slot, series;

	stage_vals_of(s, &sv);
	di = dev_index(s->device);
	p = proc_get(s->pid, s->comm);
	if (!p->comm[0] && s->comm)
		snprintf(p->comm, sizeof(p->comm), "%s", s->comm);

	g = p->group;
	if (g < 0 && s->tag >= 0) {
		if (!extras.groups_used)
			switch_groups_on();
		g = tag_group_of(s->tag);
	} else if (g < 0 && extras.groups_used) {
		g = untagged_group;
	}
	c = p->last;
	if (!c || c->dev != di || c->op != (int)s->op || c->group != g)
		c = combo_get(p, di, (int)s->op, g);
	lat_set_add(&c->set, s, &sv);

	opc = s->op == BS_OP_READ ? TS_READ : s->op == BS_OP_WRITE ? TS_WRITE : TS_OTHER;
	slot = g >= 0 ? extras.groups[g].slot : 0;
	series = extras.ts.series_of[slot][opc];
	if (series < 0)
		series = ts_series(&extras.ts, opc, slot);
	ts_add(&extras.ts, s, &sv, series, extras.devs[di].offmap);
	extras.samples++;
}

static void on_finish(void *ctx, uint64_t end_time)
{
	extras.end_time = end_time;
	ts_finish(&extras.ts, end_time);
}

/* ---- options ---- */

static int parse_group(const char *arg)
{
	const char *eq = strpbrk(arg, "=:");
	char *name, *list, *tok, *save, *end;
	int g;

	if (!eq || eq == arg || !eq[1]) {
		fprintf(stderr, "blkscope-analyze: --group wants NAME=PID[,PID...], got '%s'\n", arg);
		return -1;
	}
	name = strndup(arg, (size_t)(eq - arg));
	list = xstrdup(eq + 1);
	if (!name) {
		fprintf(stderr, "blkscope-analyze: out of memory\n");
		exit(1);
	}
	g = group_find(name);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long pid;

		errno = 0;
		pid = strtoul(tok, &end, 10);
		if (errno || end == tok || *end || pid > UINT32_MAX) {
			fprintf(stderr, "blkscope-analyze: --group %s: '%s' is not a pid\n", name, tok);
			free(name);
			free(list);
			return -1;
		}
		extras.explicit_pids = xrealloc(extras.explicit_pids,
						(extras.nexplicit + 1) * sizeof(*extras.explicit_pids));
		extras.explicit_pids[extras.nexplicit].pid = (uint32_t)pid;
		extras.explicit_pids[extras.nexplicit].group = g;
		extras.nexplicit++;
	}
	free(name);
	free(list);
	extras.groups_used = true;
	return 0;
}

/* "0.5" (seconds), "250ms", "100us", "2s", "5000ns" -> ns; 0 on error. */
static uint64_t parse_interval(const char *arg)
{
	char *end;
	double v, mult = 1e9;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg)
		return 0;
	if (!strcmp(end, "ns"))
		mult = 1;
	else if (!strcmp(end, "us"))
		mult = 1e3;
	else if (!strcmp(end, "ms"))
		mult = 1e6;
	else if (*end && strcmp(end, "s"))
		return 0;
	v *= mult;
	if (!(v >= 1) || v > 1e15)
		return 0;
	return (uint64_t)v;
}

static int extras_parse_opt(int val, const char *arg)
{
	switch (val) {
	case OPT_STATS:
		extras.text = true;
		return 0;
	case OPT_JSON:
		extras.json_path = arg;
		return 0;
	case OPT_CSV:
		extras.csv_dir = arg;
		return 0;
	case OPT_HTML:
		extras.html_path = arg;
		return 0;
	case OPT_SVG:
		extras.svg_dir = arg;
		return 0;
	case OPT_GROUP:
		return parse_group(arg);
	case OPT_GROUP_BY:
		if (!strcmp(arg, "comm"))
			extras.group_by = 1;
		else if (!strcmp(arg, "pid"))
			extras.group_by = 2;
		else {
			fprintf(stderr, "blkscope-analyze: --group-by wants comm or pid, got '%s'\n", arg);
			return -1;
		}
		extras.groups_used = true;
		return 0;
	case OPT_INTERVAL:
		extras.interval_ns = parse_interval(arg);
		if (!extras.interval_ns) {
			fprintf(stderr, "blkscope-analyze: --interval wants a duration like 1, 0.5s, 100ms, "
				"250us (at least 1 ns), got '%s'\n", arg);
			return -1;
		}
		return 0;
	}
	return 1;
}

static void extras_usage(FILE *f)
{
	fprintf(f,
		"Beyond btt (percentiles, breakdowns, time series, plots):\n"
		"      --stats               print percentiles (p50 p90 p99 p99.9 p99.99 max) per\n"
		"                            stage, log2 histograms and breakdowns by device,\n"
		"                            operation, process and group after btt's report\n"
		"                            (the default; --btt-only leaves them out)\n"
		"      --json FILE           everything as JSON (schema: docs/json-schema.md)\n"
		"      --csv DIR             tables and time series as CSV files in DIR\n"
		"      --html FILE           one self-contained page with SVG charts\n"
		"      --svg DIR             each chart as DIR/<chart>.svg\n"
		"      --svg CHART=FILE      one chart (throughput, iops, latency, queue-depth,\n"
		"                            heatmap, histogram, offsets-MAJ-MIN, *-groups)\n"
		"      --group NAME=PID[,PID...]  put these pids in group NAME (repeatable)\n"
		"      --group-by comm|pid   one group per command name / per process\n"
		"      --interval DUR        time-series bucket width (1, 0.5s, 100ms, 250us);\n"
		"                            default: about 100 buckets over the trace\n"
		"  e.g. blkscope analyze --group-by comm trace\n"
		"       blkscope analyze --html report.html --json report.json trace\n");
}

static bool extras_wanted(void)
{
	return extras.text || extras.json_path || extras.csv_dir || extras.html_path || extras.svg_dir;
}

static int extras_start(struct bs_analyze *a)
{
	struct bs_sample_sink sink = { .io_done = on_io, .finish = on_finish };

	/* the percentile sections are part of the default text report */
	if (!bs_analyze_btt_only(a))
		extras.text = true;
	if (!extras_wanted()) {
		if (extras.groups_used || extras.interval_ns)
			fprintf(stderr, "blkscope-analyze: note: --group/--group-by/--interval only shape "
				"--stats, --json, --csv, --html and --svg output\n");
		return 0;
	}
	extras.last_dev = -1;
	ts_init(&extras.ts, extras.interval_ns, 100);
	return bs_analyze_add_sink(a, &sink);
}

static void take_counters(struct bs_analyze *a)
{
	extras.counters = bs_analyze_counters(a, &extras.ncounters);
	if (!extras.end_time)
		extras.end_time = bs_analyze_end_time(a);
}

static void extras_report(struct bs_analyze *a, FILE *out)
{
	if (!extras.text)
		return;
	take_counters(a);
	report_text_extra(out);
}

static void extras_free(void)
{
	size_t i;

	rollup_free();
	for (i = 0; i < extras.ncombo; i++) {
		lat_set_free(&extras.combos[i]->set);
		free(extras.combos[i]);
	}
	free(extras.combos);
	free(extras.devs);
	for (i = 0; i < extras.nproc; i++) {
		lat_set_free(&extras.proc_list[i]->set);
		free(extras.proc_list[i]->combos);
		free(extras.proc_list[i]);
	}
	free(extras.proc_list);
	free(extras.procs);
	for (i = 0; i < extras.ngroup; i++) {
		lat_set_free(&extras.groups[i].set);
		free(extras.groups[i].name);
	}
	free(extras.groups);
	for (i = 0; i < extras.ntag; i++)
		free(extras.tag_label[i]);
	free(extras.tag_label);
	free(extras.tag_group);
	free(extras.explicit_pids);
	ts_free(&extras.ts);
}

static int extras_done(struct bs_analyze *a)
{
	int rc = 0;

	if (!extras_wanted())
		return 0;
	take_counters(a);
	if (extras.json_path && report_json(extras.json_path))
		rc = -1;
	if (extras.csv_dir && report_csv(extras.csv_dir))
		rc = -1;
	if (extras.html_path && report_html(extras.html_path))
		rc = -1;
	if (extras.svg_dir && report_svg(extras.svg_dir))
		rc = -1;
	extras_free();
	return rc;
}

/* ---- output files ---- */

FILE *extras_create(const char *path)
{
	FILE *f;
	int fd;

	if (!strcmp(path, "-"))
		return stdout;
	fd = bs_create_output(path);
	if (fd < 0) {
		fprintf(stderr, "blkscope-analyze: cannot create %s: %s\n", path, strerror(errno));
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "blkscope-analyze: %s: %s\n", path, strerror(errno));
		close(fd);
	}
	return f;
}

int extras_close(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (f == stdout)
		bad |= fflush(f) != 0;
	else
		bad |= fclose(f) != 0;
	if (bad) {
		fprintf(stderr, "blkscope-analyze: error writing %s\n", path);
		return -1;
	}
	return 0;
}

static const struct bs_analyze_ext extras_ext = {
	.name = "extras",
	.options = extras_options,
	.parse_opt = extras_parse_opt,
	.usage = extras_usage,
	.start = extras_start,
	.report = extras_report,
	.done = extras_done,
};

static void __attribute__((constructor)) extras_register(void)
{
	bs_analyze_register_ext(&extras_ext);
}
