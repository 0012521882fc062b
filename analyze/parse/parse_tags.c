// SPDX-License-Identifier: GPL-2.0
/*
 * parse_tags.c - --tag-plugin for blkscope parse.  See parse_tags_priv.h; the
 * protocol is in tag_host.c, shared with analyze and tag-check.
 */
#include <stdio.h>
#include <stdlib.h>
#include "bs_alloc.h"
#include "parse_priv.h"
#include "parse_tags_priv.h"
#include "host/tag_host.h"

/* What travels with each record through the plugin besides the record. */
struct carried {
	int dev, cpu;
	uint32_t action_hi;	/* v8 zone categories (plugins get v7 records) */
	bool foreign;
	bool note;
};

struct parse_tags {
	struct parse_ctx *ps;
	char **argv;
	struct tag_host *host;
	bool stopped;		/* the run asked to stop: later events are dropped */
	bool has_tag;		/* the event being handled has a tag ... */
	uint32_t tag;		/* ... this one */
};

static void on_event(void *ctx, const struct tag_host_event *hev)
{
	struct parse_tags *pt = ctx;
	const struct carried *c = hev->user;

	if (c->note) {
		struct bs_record rec = { .t = *hev->t, .action_hi = c->action_hi, .pdu = hev->pdu,
					 .foreign = c->foreign };

		parse_note_now(pt->ps, &rec, c->dev);
		return;
	}
	if (pt->stopped)
		return;

	struct bs_event ev = {
		.t = *hev->t, .action_hi = c->action_hi, .pdu = hev->pdu, .dev = c->dev,
		.cpu = c->cpu, .foreign = c->foreign,
	};

	pt->has_tag = hev->ntags > 0;	/* the first TAG_IO counts */
	pt->tag = pt->has_tag ? hev->tags[0] : 0;
	if (!parse_one_event(pt->ps, &ev))
		pt->stopped = true;
	pt->has_tag = false;
}

struct parse_tags *parse_tags_begin(struct parse_ctx *ps, const char *cmd, unsigned int timeout_ms)
{
	struct parse_tags *pt = bs_xcalloc(1, sizeof(*pt));
	struct tag_host_ops ops = {
		.on_event = on_event,
		.ctx = pt,
		.user_size = sizeof(struct carried),
		.timeout_ms = timeout_ms,
		.msg = ps->msg,
	};
	struct bs_err start_err;
	char err[128];

	pt->ps = ps;
	pt->argv = tag_split_argv(cmd, err, sizeof(err));
	if (!pt->argv) {
		bs_msg(&ps->msg, BS_MSG_ERROR, "--tag-plugin '%s': %s", cmd, err);
		parse_tags_free(pt);
		return NULL;
	}
	pt->host = tag_host_start(pt->argv, &ops, &start_err);
	if (!pt->host) {
		bs_msg(&ps->msg, BS_MSG_ERROR, "%s", start_err.text);
		parse_tags_free(pt);
		return NULL;
	}
	return pt;
}

int parse_tags_note(struct parse_tags *pt, const struct bs_record *rec, int dev)
{
	struct carried c = { .dev = dev, .cpu = -1, .action_hi = rec->action_hi,
			     .foreign = rec->foreign, .note = true };

	return tag_host_submit(pt->host, &rec->t, rec->pdu, &c);
}

int parse_tags_event(struct parse_tags *pt, const struct bs_event *ev)
{
	struct carried c = { .dev = ev->dev, .cpu = ev->cpu, .action_hi = ev->action_hi,
			     .foreign = ev->foreign };

	if (pt->stopped)
		return 0;
	if (tag_host_submit(pt->host, &ev->t, ev->pdu, &c) < 0)
		return -1;
	return !pt->stopped;
}

int parse_tags_end(struct parse_tags *pt)
{
	int ret = tag_host_finish(pt->host);

	tag_host_free(pt->host);
	pt->host = NULL;
	return ret;
}

void parse_tags_free(struct parse_tags *pt)
{
	if (!pt)
		return;
	if (pt->host)
		tag_host_free(pt->host);
	tag_argv_free(pt->argv);
	free(pt);
}

void parse_tags_mark_line(struct parse_tags *pt, struct parse_out *o, size_t before)
{
	const char *label;

	/* a flush empties the buffer only before a line is started: len != before */
	if (!pt->has_tag || o->len == before || !o->len || o->buf[o->len - 1] != '\n')
		return;
	label = tag_host_label(pt->host, pt->tag);
	o->len--;
	parse_out_printf(o, " [tag %u: %s]\n", pt->tag, label ? label : "?");
}
