// SPDX-License-Identifier: GPL-2.0
/*
 * parse_tags.c - --tag-plugin for blkscope parse.  See parse_tags.h; the
 * protocol is in tag_host.c, shared with analyze and tag-check.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "parse_tags.h"
#include "host/tag_host.h"

/* What travels with each record through the plugin besides the record. */
struct carried {
	int dev, cpu;
	uint32_t action_hi;	/* v8 zone categories (plugins get v7 records) */
	bool foreign;
	bool note;
};

static struct {
	const char *cmd;
	unsigned int timeout_ms;
	char **argv;
	struct tag_host *host;
	ptag_note_fn note;
	ptag_event_fn event;
	void *ctx;
	bool stopped;
	bool has_tag;		/* the event being handled has a tag ... */
	uint32_t tag;		/* ... this one */
} pt;

bool ptag_enabled(void)
{
	return pt.cmd != NULL;
}

int ptag_option(int opt, const char *arg)
{
	char *end;
	double s;

	if (opt == PTAG_OPT_PLUGIN) {
		pt.cmd = arg;
		return 0;
	}
	errno = 0;
	s = strtod(arg, &end);
	if (end == arg || *end || errno || !(s > 0) || s > 86400) {
		fprintf(stderr, "blkscope parse: --tag-timeout wants seconds (> 0, <= 86400), got '%s'\n", arg);
		return -1;
	}
	pt.timeout_ms = (unsigned int)(s * 1000 + 0.5) ? (unsigned int)(s * 1000 + 0.5) : 1;
	return 0;
}

void ptag_usage(FILE *f)
{
	fprintf(f,
		"\n"
		"Tagging plugins (docs/tags.md):\n"
		"      --tag-plugin='PROG ARG...'  run PROG (no shell) over the trace and end each\n"
		"                           event line with its tag: \" [tag T: LABEL]\"\n"
		"      --tag-timeout=SECS   give up on a plugin silent this long (30)\n"
		"  e.g. blkscope parse --tag-plugin 'tag-by-pid -g db:812,813' sda\n");
}

static void on_event(void *ctx, const struct tag_host_event *hev)
{
	const struct carried *c = hev->user;

	if (c->note) {
		struct bs_record rec = { .t = *hev->t, .action_hi = c->action_hi, .pdu = hev->pdu,
					 .foreign = c->foreign };

		pt.note(pt.ctx, &rec, c->dev);
		return;
	}
	if (pt.stopped)
		return;

	struct bs_event ev = {
		.t = *hev->t, .action_hi = c->action_hi, .pdu = hev->pdu, .dev = c->dev, .cpu = c->cpu,
		.foreign = c->foreign,
	};

	pt.has_tag = hev->ntags > 0;	/* the first TAG_IO counts */
	pt.tag = pt.has_tag ? hev->tags[0] : 0;
	if (!pt.event(pt.ctx, &ev))
		pt.stopped = true;
	pt.has_tag = false;
}

int ptag_begin(ptag_note_fn note, ptag_event_fn event, void *ctx)
{
	struct tag_host_ops ops = {
		.on_event = on_event,
		.user_size = sizeof(struct carried),
		.timeout_ms = pt.timeout_ms,
	};
	char err[128];

	if (!pt.cmd)
		return 0;
	pt.note = note;
	pt.event = event;
	pt.ctx = ctx;
	pt.argv = tag_split_argv(pt.cmd, err, sizeof(err));
	if (!pt.argv) {
		fprintf(stderr, "blkscope parse: --tag-plugin '%s': %s\n", pt.cmd, err);
		return -1;
	}
	pt.host = tag_host_start(pt.argv, &ops);
	return pt.host ? 0 : -1;
}

static void submit(const struct bs_trace *t, const uint8_t *pdu, const struct carried *c)
{
	if (tag_host_submit(pt.host, t, pdu, c) < 0) {
		fprintf(stderr, "blkscope parse: out of memory\n");
		exit(1);
	}
}

void ptag_note(const struct bs_record *rec, int dev)
{
	struct carried c = { .dev = dev, .cpu = -1, .action_hi = rec->action_hi, .foreign = rec->foreign,
			     .note = true };

	submit(&rec->t, rec->pdu, &c);
}

bool ptag_event(const struct bs_event *ev)
{
	struct carried c = { .dev = ev->dev, .cpu = ev->cpu, .action_hi = ev->action_hi,
			     .foreign = ev->foreign };

	if (pt.stopped)
		return false;
	submit(&ev->t, ev->pdu, &c);
	return !pt.stopped;
}

int ptag_end(void)
{
	int ret;

	if (!pt.host)
		return 0;
	ret = tag_host_finish(pt.host);
	tag_host_free(pt.host);
	pt.host = NULL;
	tag_argv_free(pt.argv);
	pt.argv = NULL;
	return ret;
}

void ptag_mark_line(struct pout *o, size_t before)
{
	const char *label;

	/* a flush empties the buffer only before a line is started: len != before */
	if (!pt.has_tag || o->len == before || !o->len || o->buf[o->len - 1] != '\n')
		return;
	label = tag_host_label(pt.host, pt.tag);
	o->len--;
	pout_printf(o, " [tag %u: %s]\n", pt.tag, label ? label : "?");
}
