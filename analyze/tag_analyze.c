// SPDX-License-Identifier: GPL-2.0
/*
 * tag_analyze.c - the --tag-plugin and --tag-timeout options of
 * `blkscope analyze`, and the feeding of events through the plugin to the
 * engine.  See tag_analyze.h; the protocol itself is in tag_host.c.
 *
 * Tags reach the reports as groups (extras.c): each declared tag becomes a
 * group named by its label, I/Os without a tag fall in "untagged".  Plugin
 * tag numbers are mapped to dense indices in declaration order, so a
 * plugin's choice of numbers (any u32) cannot blow up the group tables.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyze.h"
#include "btt/btt_engine.h"
#include "report/extras.h"
#include "report/stats_sketch.h"
#include "tag_analyze.h"
#include "host/tag_host.h"

enum {
	OPT_TAG_PLUGIN = BS_EXT_OPT_BASE + 0x100,
	OPT_TAG_TIMEOUT,
};

static const struct option tag_options[] = {
	{ "tag-plugin",  required_argument, NULL, OPT_TAG_PLUGIN },
	{ "tag-timeout", required_argument, NULL, OPT_TAG_TIMEOUT },
	{ NULL, 0, NULL, 0 },
};

/* What travels with each event through the plugin's window besides the record. */
struct carried {
	int dev, cpu;		/* struct bs_event's */
	uint32_t action_hi;	/* v8 zone categories (plugins get v7 records) */
	bool foreign;
	bool note;		/* a read-time note, not a merged event */
};

static struct {
	const char *cmd;		/* --tag-plugin */
	unsigned int timeout_ms;	/* --tag-timeout */
	char **argv;
	struct tag_host *host;
	struct bt_engine *e;
	int ntags;
	uint32_t *plugin_tag;		/* dense index -> the plugin's tag number */
	uint64_t tagged_events;
	uint32_t last_tag;		/* cache: the previous event's tag ... */
	int last_index;			/* ... and its dense index (-1: none yet) */
	bool incomplete;
} tg = { .last_index = -1 };

bool bs_tag_enabled(void)
{
	return tg.cmd != NULL;
}

static void on_new_tag(void *ctx, uint32_t tag, const char *label)
{
	if (!(tg.ntags & (tg.ntags - 1))) {	/* 0, 1, 2, 4, ...: double */
		uint32_t *p = realloc(tg.plugin_tag, (tg.ntags ? 2 * tg.ntags : 1) * sizeof(*p));

		if (!p) {
			fprintf(stderr, "blkscope-analyze: out of memory\n");
			exit(1);
		}
		tg.plugin_tag = p;
	}
	tg.plugin_tag[tg.ntags] = tag;
	bs_extras_tag_label(tg.ntags++, label);
}

static void on_event(void *ctx, const struct tag_host_event *hev)
{
	const struct carried *c = hev->user;
	struct bs_event ev = {
		.t = *hev->t, .action_hi = c->action_hi, .pdu = hev->pdu, .dev = c->dev, .cpu = c->cpu,
		.foreign = c->foreign,
	};

	if (c->note) {
		if (ev.t.action == BS_NOTE_PROCESS && !tg.e->done)	/* as analyze.c's on_note */
			bt_engine_process_note(tg.e, ev.t.pid, (const char *)ev.pdu, ev.t.pdu_len);
		return;
	}
	/* the first TAG_IO of an event counts (docs/tags.md) */
	if (hev->ntags) {
		if (hev->tags[0] != tg.last_tag || tg.last_index < 0) {
			tg.last_tag = hev->tags[0];
			tg.last_index = tag_host_index(tg.host, tg.last_tag);
		}
		tg.e->cur_tag = tg.last_index;
		tg.tagged_events++;
	}
	bt_engine_event(tg.e, &ev);
	tg.e->cur_tag = -1;
}

int bs_tag_begin(struct bt_engine *e)
{
	struct tag_host_ops ops = {
		.on_event = on_event,
		.on_new_tag = on_new_tag,
		.user_size = sizeof(struct carried),
		.timeout_ms = tg.timeout_ms,
	};
	char err[128];

	if (!tg.cmd)
		return 0;
	tg.e = e;
	tg.argv = tag_split_argv(tg.cmd, err, sizeof(err));
	if (!tg.argv) {
		fprintf(stderr, "blkscope-analyze: --tag-plugin '%s': %s\n", tg.cmd, err);
		return -1;
	}
	if (extras.group_by || extras.nexplicit) {
		fprintf(stderr, "blkscope-analyze: --tag-plugin cannot be combined with --group or --group-by "
			"(both define the groups)\n");
		return -1;
	}
	/* Tags are shown by the per-group breakdowns: with no other output asked for, print them. */
	if (!extras.text && !extras.json_path && !extras.csv_dir && !extras.html_path && !extras.svg_dir)
		extras.text = true;
	tg.host = tag_host_start(tg.argv, &ops);
	return tg.host ? 0 : -1;
}

static void submit(const struct bs_trace *t, const uint8_t *pdu, const struct carried *c)
{
	if (tag_host_submit(tg.host, t, pdu, c) < 0) {
		fprintf(stderr, "blkscope-analyze: out of memory\n");
		exit(1);
	}
}

void bs_tag_note(const struct bs_record *rec)
{
	struct carried c = { .note = true };

	submit(&rec->t, rec->pdu, &c);
}

void bs_tag_event(const struct bs_event *ev)
{
	struct carried c = { .dev = ev->dev, .cpu = ev->cpu, .action_hi = ev->action_hi,
			     .foreign = ev->foreign };

	submit(&ev->t, ev->pdu, &c);
}

int bs_tag_end(void)
{
	if (!tg.host)
		return 0;
	tg.incomplete = tag_host_finish(tg.host) < 0;
	return tg.incomplete ? -1 : 0;
}

static int tag_parse_opt(int val, const char *arg)
{
	char *end;
	double s;

	switch (val) {
	case OPT_TAG_PLUGIN:
		tg.cmd = arg;
		return 0;
	case OPT_TAG_TIMEOUT:
		errno = 0;
		s = strtod(arg, &end);
		if (end == arg || *end || errno || !(s > 0) || s > 86400) {
			fprintf(stderr, "blkscope-analyze: --tag-timeout wants seconds (> 0, <= 86400), got '%s'\n",
				arg);
			return -1;
		}
		tg.timeout_ms = (unsigned int)(s * 1000 + 0.5) ? (unsigned int)(s * 1000 + 0.5) : 1;
		return 0;
	}
	return 1;
}

static void tag_usage(FILE *f)
{
	fprintf(f,
		"Tagging plugins (docs/tags.md):\n"
		"      --tag-plugin 'PROG ARG...'  run PROG (no shell) over the trace and break every\n"
		"                            report down by the tags it assigns (implies --stats\n"
		"                            unless --json/--csv/--html/--svg is given); words split\n"
		"                            on blanks, '...' \"...\" and \\ quote, no expansion\n"
		"      --tag-timeout SECS    give up on a plugin silent this long (30)\n"
		"  e.g. blkscope analyze --tag-plugin 'tag-by-pid -g db:812,813' trace\n"
		"       blkscope analyze --tag-plugin tag-by-comm --html report.html trace\n");
}

/* A latency percentile in µs, or "-" when the stage was never seen. */
static const char *pct_us(char *buf, size_t len, const struct sketch *sk, uint32_t ppm)
{
	if (!sk->n)
		return "-";
	snprintf(buf, len, "%.1f", sk_quantile(sk, ppm) / 1e3);
	return buf;
}

static void tag_row(FILE *out, const char *tag, const char *label, const struct lat_set *ls, uint64_t span)
{
	char b[4][24];

	fprintf(out, "%5s %-28.28s %10llu %10llu %12llu %10.1f %9s %9s %9s %9s\n", tag, label,
		(unsigned long long)ls->ios, (unsigned long long)ls->completed,
		(unsigned long long)ls->bytes, span ? ls->completed * 1e9 / span : 0.0,
		pct_us(b[0], sizeof(b[0]), &ls->st[ST_Q2C], 500000),
		pct_us(b[1], sizeof(b[1]), &ls->st[ST_Q2C], 990000),
		pct_us(b[2], sizeof(b[2]), &ls->st[ST_D2C], 500000),
		pct_us(b[3], sizeof(b[3]), &ls->st[ST_D2C], 990000));
}

/* The per-tag table: I/Os, bytes, IOPS over the trace, Q2C and D2C percentiles. */
static void tag_report(struct bs_analyze *a, FILE *out)
{
	uint64_t span = bs_analyze_end_time(a);
	const struct rollup *r;
	char num[16];
	size_t g;
	int i;

	if (!tg.host)
		return;
	fprintf(out, "==================== Tags (plugin: %s) ====================\n\n", tg.cmd);
	fprintf(out, "%d tags declared, %llu events tagged; an I/O takes the first tag given to any of its events\n",
		tg.ntags, (unsigned long long)tg.tagged_events);
	if (tg.incomplete)
		fprintf(out, "TAGS INCOMPLETE: the plugin failed (%s); I/Os it did not tag are "
			"reported as untagged\n", tag_host_error(tg.host));
	fputc('\n', out);
	r = extras_rollup();	/* fills the groups' sets; done once, shared with extras */
	fprintf(out, "%5s %-28s %10s %10s %12s %10s %9s %9s %9s %9s\n", "TAG", "LABEL", "IOs", "completed",
		"bytes", "IOPS", "Q2C p50", "Q2C p99", "D2C p50", "D2C p99");
	for (i = 0; i < tg.ntags; i++) {
		if ((size_t)i >= extras.ntag || extras.tag_group[i] < 0)
			continue;	/* declared but never given to an I/O */
		snprintf(num, sizeof(num), "%u", tg.plugin_tag[i]);
		tag_row(out, num, group_name(extras.tag_group[i]),
			&extras.groups[extras.tag_group[i]].set, span);
	}
	for (g = 0; g < extras.ngroup; g++)
		if (extras.groups[g].tag < 0 && extras.groups[g].name &&
		    !strcmp(extras.groups[g].name, "untagged"))
			break;
	/* extras makes the "untagged" group at the first tagged I/O: without one, all are untagged */
	tag_row(out, "-", "untagged", g < extras.ngroup ? &extras.groups[g].set : &r->all, span);
	fprintf(out, "(latencies in µs; IOPS = completed I/Os / trace duration)\n\n");
}

static int tag_done(struct bs_analyze *a)
{
	tag_host_free(tg.host);
	tg.host = NULL;
	tag_argv_free(tg.argv);
	tg.argv = NULL;
	free(tg.plugin_tag);
	tg.plugin_tag = NULL;
	return tg.incomplete ? -1 : 0;
}

static const struct bs_analyze_ext tag_ext = {
	.name = "tags",
	.options = tag_options,
	.parse_opt = tag_parse_opt,
	.usage = tag_usage,
	.report = tag_report,
	.done = tag_done,
};

static void __attribute__((constructor)) tag_register(void)
{
	bs_analyze_register_ext(&tag_ext);
}
