// SPDX-License-Identifier: GPL-2.0
/*
 * analysis_tags.c - the --tag-plugin and --tag-timeout options of
 * `blkscope analyze`, and the feeding of events through the plugin to the
 * engine.  See analysis_tags.h; the protocol itself is in tag_host.c.
 *
 * Tags reach the reports as groups (report/report_state.c): each declared tag becomes a
 * group named by its label, I/Os without a tag fall in "untagged".  Plugin
 * tag numbers are mapped to dense indices in declaration order, so a
 * plugin's choice of numbers (any u32) cannot blow up the group tables.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bs_stream.h"
#include "analysis_priv.h"
#include "bs_alloc.h"
#include "bs_arg.h"
#include "bs_escape.h"
#include "bs_merge.h"
#include "report/report.h"
#include "host/tag_host.h"

enum {	/* this extension's option vals (analysis.h: local to it) */
	OPT_TAG_PLUGIN,
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

struct analysis_tag_session {
	const char *cmd;		/* --tag-plugin */
	unsigned int timeout_ms;	/* --tag-timeout */
	char **argv;
	struct tag_host *host;
	struct analysis *a;
	struct bs_report *report;	/* the report extension's state, or NULL */
	int ntags;
	uint32_t *plugin_tag;		/* dense index -> the plugin's tag number */
	uint64_t tagged_events;
	uint32_t last_tag;		/* cache: the previous event's tag ... */
	int last_index;			/* ... and its dense index (-1: none yet) */
	bool incomplete;
};

bool analysis_tag_enabled(const struct analysis_tag_session *tg)
{
	return tg && tg->cmd != NULL;
}

static void on_new_tag(void *ctx, uint32_t tag, const char *label)
{
	struct analysis_tag_session *tg = ctx;

	if (!(tg->ntags & (tg->ntags - 1)))	/* 0, 1, 2, 4, ...: double */
		tg->plugin_tag =
			bs_xreallocarray(tg->plugin_tag, tg->ntags ? 2 * (size_t)tg->ntags : 1,
					 sizeof(*tg->plugin_tag));
	tg->plugin_tag[tg->ntags] = tag;
	if (tg->report)
		report_tag_label(tg->report, tg->ntags, label);
	tg->ntags++;
}

static void on_event(void *ctx, const struct tag_host_event *hev)
{
	struct analysis_tag_session *tg = ctx;
	const struct carried *c = hev->user;
	int tag = -1;
	struct bs_event ev = {
		.t = *hev->t,
		.action_hi = c->action_hi,
		.pdu = hev->pdu,
		.dev = c->dev,
		.cpu = c->cpu,
		.foreign = c->foreign,
	};

	if (c->note) {
		analysis_note_back(tg->a, &ev.t, ev.pdu, ev.foreign); /* as analysis.c's on_note */
		return;
	}
	/* the first TAG_IO of an event counts (docs/tags.md) */
	if (hev->ntags) {
		if (hev->tags[0] != tg->last_tag || tg->last_index < 0) {
			tg->last_tag = hev->tags[0];
			tg->last_index = tag_host_index(tg->host, tg->last_tag);
		}
		tag = tg->last_index;
		tg->tagged_events++;
	}
	analysis_feed_tagged(tg->a, &ev, tag);
}

/*
 * The extension's check(): the plugin's tags are the groups, so no --group or --group-by beside it.
 */
static int tag_check(void *state, struct analysis *a)
{
	const struct analysis_tag_session *tg = state;
	const struct bs_report *r = analysis_ext_state(a, &report_ext);

	if (!r)
		r = analysis_ext_state(a, &report_group_ext);
	if (tg->cmd && r && report_grouping_given(r)) {
		bs_msg(&a->msgs.sink, BS_MSG_ERROR,
		       "--tag-plugin cannot be combined with --group or --group-by "
		       "(both define the groups)");
		return -1;
	}
	return 0;
}

/* The extension's start(): start the plugin. */
static int tag_start(void *state, struct analysis *a)
{
	struct analysis_tag_session *tg = state;
	struct bs_report *r = analysis_ext_state(a, &report_ext);
	struct tag_host_ops ops = {
		.on_event = on_event,
		.on_new_tag = on_new_tag,
		.ctx = tg,
		.user_size = sizeof(struct carried),
		.timeout_ms = tg->timeout_ms,
		.msg = a->msgs.sink,
	};
	struct bs_err start_err;
	char err[128];

	if (!tg->cmd)
		return 0;
	tg->a = a;
	if (!r)	/* a front-end with the groups only (blkscope-export) */
		r = analysis_ext_state(a, &report_group_ext);
	tg->report = r;
	tg->argv = tag_split_argv(tg->cmd, err, sizeof(err));
	if (!tg->argv) {
		bs_msg(&a->msgs.sink, BS_MSG_ERROR, "--tag-plugin '%s': %s", tg->cmd, err);
		return -1;
	}
	/* Tags are shown by the per-group breakdowns: with no other output asked for, print them */
	if (r)
		report_default_to_text(r);
	tg->host = tag_host_start(tg->argv, &ops, &start_err);
	if (!tg->host)
		bs_msg(&a->msgs.sink, BS_MSG_ERROR, "%s", start_err.text);
	return tg->host ? 0 : -1;
}

static int submit(struct analysis_tag_session *tg, const struct bs_trace *t, const uint8_t *pdu,
		  const struct carried *c)
{
	if (tag_host_submit(tg->host, t, pdu, c) < 0) {
		bs_msg(&tg->a->msgs.sink, BS_MSG_ERROR, "out of memory");
		return -1;
	}
	return 0;
}

void analysis_tag_note(struct analysis_tag_session *tg, const struct bs_record *rec)
{
	struct carried c = { .note = true };

	/* out of memory here shows again at the next event, which stops the run */
	submit(tg, &rec->t, rec->pdu, &c);
}

int analysis_tag_event(struct analysis_tag_session *tg, const struct bs_event *ev)
{
	struct carried c = { .dev = ev->dev, .cpu = ev->cpu, .action_hi = ev->action_hi,
			     .foreign = ev->foreign };

	return submit(tg, &ev->t, ev->pdu, &c);
}

int analysis_tag_end(struct analysis_tag_session *tg)
{
	if (!tg || !tg->host)
		return 0;
	tg->incomplete = tag_host_finish(tg->host) < 0;
	return tg->incomplete ? -1 : 0;
}

static int tag_parse_opt(void *state, int val, const char *arg, struct bs_err *err)
{
	struct analysis_tag_session *tg = state;
	double s;

	switch (val) {
	case OPT_TAG_PLUGIN:
		tg->cmd = arg;
		return 0;
	case OPT_TAG_TIMEOUT:
		if (bs_arg_double(bs_progname(), "--tag-timeout", arg, 0.001, 86400,
				  "a number of seconds", &s, err))
			return -1;
		tg->timeout_ms =
			(unsigned int)(s * 1000 + 0.5) ? (unsigned int)(s * 1000 + 0.5) : 1;
		return 0;
	}
	return -1;
}

/* The help of the running front-end (bs_progname): only analyze has --stats and reports. */
static void tag_usage(FILE *f)
{
	fprintf(f, "Tagging plugins (docs/tags.md):\n");
	if (!strcmp(bs_progname(), "blkscope analyze"))
		fprintf(f, "      --tag-plugin 'PROG ARG...'  run PROG (no shell) over the trace "
			   "and break every\n"
			   "                            report down by the tags it assigns "
			   "(implies --stats\n"
			   "                            unless --json/--csv/--html/--svg is "
			   "given); words split\n"
			   "                            on blanks, '...' \"...\" and \\ quote, no "
			   "expansion\n");
	else
		fprintf(f, "      --tag-plugin 'PROG ARG...'  run PROG (no shell) over the trace; "
			   "its tags\n"
			   "                            make the groups (the group column); words "
			   "split\n"
			   "                            on blanks, '...' \"...\" and \\ quote, no "
			   "expansion\n");
	fprintf(f, "      --tag-timeout SECS    give up on a plugin silent this long (30)\n");
	if (!strcmp(bs_progname(), "blkscope analyze"))
		fprintf(f, "  e.g. blkscope analyze --tag-plugin 'tag-by-pid -g db:812,813' trace\n"
			   "       blkscope analyze --tag-plugin tag-by-comm --html report.html "
			   "trace\n");
	else
		fprintf(f, "  e.g. %s --tag-plugin 'tag-by-pid -g db:812,813' ... trace\n",
			bs_progname());
}

/* A latency percentile in µs, or "-" when the stage was never seen. */
static const char *pct_us(char *buf, size_t len, const struct sketch *sk, uint32_t ppm)
{
	if (!sk->n)
		return "-";
	snprintf(buf, len, "%.1f", sketch_quantile(sk, ppm) / 1e3);
	return buf;
}

static void tag_row(FILE *out, const char *tag, const char *label, const struct report_lat *ls,
		    uint64_t span)
{
	struct sketch one[BS_ST_COUNT];
	const struct sketch *st = report_lat_stages(ls, one);
	char b[4][24], safe[256];

	/* labels come from the plugin: no control characters reach the terminal */
	fprintf(out, "%5s %s %10llu %10llu %12llu %10.1f %9s %9s %9s %9s\n", tag,
		bs_term_cell(safe, sizeof(safe), label, 28),
		(unsigned long long)ls->ios, (unsigned long long)ls->completed,
		(unsigned long long)ls->bytes, span ? ls->completed * 1e9 / span : 0.0,
		pct_us(b[0], sizeof(b[0]), &st[BS_ST_Q2C], 500000),
		pct_us(b[1], sizeof(b[1]), &st[BS_ST_Q2C], 990000),
		pct_us(b[2], sizeof(b[2]), &st[BS_ST_D2C], 500000),
		pct_us(b[3], sizeof(b[3]), &st[BS_ST_D2C], 990000));
}

/* The per-tag table: I/Os, bytes, IOPS over the trace, Q2C and D2C percentiles. */
static void tag_report(void *state, struct analysis *a, FILE *out)
{
	struct analysis_tag_session *tg = state;
	struct bs_report *r = tg->report;
	uint64_t span = analysis_end_time(a);
	const struct report_rollup *ru;
	char num[16];
	int i;

	if (!tg->host || !r)
		return;
	fprintf(out,
		"==================== Tags (plugin: %s), latencies in µs ====================\n\n",
		tg->cmd);
	fprintf(out,
		"%d tags declared, %llu events tagged; an I/O takes the first tag given to any of "
		"its events\n",
		tg->ntags, (unsigned long long)tg->tagged_events);
	if (tg->incomplete)
		fprintf(out, "TAGS INCOMPLETE: the plugin failed (%s); I/Os it did not tag are "
			"reported as untagged\n", tag_host_error(tg->host));
	fputc('\n', out);
	ru = report_rollup(r);	/* the groups' sets: once, shared with the report */
	fprintf(out, "%5s %-28s %10s %10s %12s %10s %9s %9s %9s %9s\n", "TAG", "LABEL", "IOs",
		"completed", "bytes", "IOPS", "Q2C p50", "Q2C p99", "D2C p50", "D2C p99");
	for (i = 0; i < tg->ntags; i++) {
		/* a tag never given to an I/O: 0 */
		static const struct report_lat none = { .st = REPORT_LAT_NO_STAGES };
		const struct report_lat *set = report_tag_slice(r, i);
		const char *label = report_tag_name(r, i);

		snprintf(num, sizeof(num), "%u", tg->plugin_tag[i]);
		tag_row(out, num, label, set ? set : &none, span);
	}
	/*
	 * the report makes the "untagged" group at the first tagged I/O: without one, all are
	 * untagged
	 */
	tag_row(out, "-", "untagged",
		report_untagged_slice(r) ? report_untagged_slice(r) : &ru->all, span);
	fprintf(out, "(latencies in µs; IOPS = completed I/Os / trace duration)\n\n");
}

static int tag_done(void *state, struct analysis *a)
{
	struct analysis_tag_session *tg = state;

	return tg->incomplete ? -1 : 0;
}

static void *tag_create(void)
{
	struct analysis_tag_session *tg = bs_xcalloc(1, sizeof(*tg));

	tg->last_index = -1;
	return tg;
}

static void tag_destroy(void *state)
{
	struct analysis_tag_session *tg = state;

	if (!tg)
		return;
	tag_host_free(tg->host);
	tag_argv_free(tg->argv);
	free(tg->plugin_tag);
	free(tg);
}

const struct analysis_ext analysis_tag_ext = {
	.name = "tags",
	.options = tag_options,
	.create = tag_create,
	.destroy = tag_destroy,
	.parse_opt = tag_parse_opt,
	.usage = tag_usage,
	.check = tag_check,
	.start = tag_start,
	.report = tag_report,
	.done = tag_done,
};
