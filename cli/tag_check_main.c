// SPDX-License-Identifier: GPL-2.0
/*
 * tag_check_main.c - blkscope-tag-check: run a tagging plugin over a trace, validate every
 * answer against the protocol and print what it assigned.  A tool for
 * plugin authors: the validation is the host's own (tags/host/tag_host.c),
 * so a plugin that passes here works with `blkscope analyze`.
 *
 * The plugin gets what a `blkparse -d` dump of the trace would hold:
 * PROCESS/TIMESTAMP notes as they are read, every other record in merged
 * time order, times relative to genesis.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_arg.h"
#include "bs_codec.h"
#include "bs_input.h"
#include "bs_merge.h"
#include "bs_stream.h"
#include "bs_alloc.h"
#include "host/tag_host.h"

struct tag_count {
	uint32_t tag;
	const char *label;
	uint64_t events;	/* events tagged */
	uint64_t bytes;		/* bytes of the tagged Q events */
	uint64_t queued;	/* Q events tagged */
};

struct check {
	struct tag_host *host;
	bool verbose;
	uint64_t events, answered, tag_ios, multi;
	struct tag_count *counts;	/* in declaration order */
	size_t ncounts, counts_cap;
};

/* the tag host's failure line and warnings, as "PROGRAM: TEXT" */
static void print_host_msg(void *arg, enum bs_msg_level level, const char *text)
{
	fprintf(stderr, "%s: %s\n", bs_progname(), text);
}

/* Start the plugin; NULL after printing why. */
static struct tag_host *start_host(char **argv, const struct tag_host_ops *ops)
{
	struct bs_err err;
	struct tag_host *h = tag_host_start(argv, ops, &err);

	if (!h)
		print_host_msg(NULL, BS_MSG_ERROR, err.text);
	return h;
}

/* counts[] is in declaration order, which is the host's tag index */
/* format/'s warnings, printed as before: "PROGRAM: TEXT" */
static void print_format_msg(void *arg, enum bs_msg_level level, const char *text)
{
	(void)arg;
	(void)level;
	fprintf(stderr, "%s: %s\n", bs_progname(), text);
}

static struct tag_count *count_of(struct check *c, uint32_t tag)
{
	return &c->counts[tag_host_index(c->host, tag)];
}

static void on_new_tag(void *ctx, uint32_t tag, const char *label)
{
	struct check *c = ctx;

	BS_GROW(c->counts, c->counts_cap, c->ncounts, 64);
	c->counts[c->ncounts++] = (struct tag_count){ .tag = tag, .label = label };
	if (c->verbose)
		printf("new tag %u: \"%s\"\n", tag, label);
}

static void print_event(struct check *c, const struct tag_host_event *ev)
{
	const struct bs_trace *t = ev->t;
	const char *act = bs_action_letters(t->action);
	char rwbs[8];
	int i;

	if (bs_is_note(t->action)) {
		static const char *const kinds[] = { "PROCESS", "TIMESTAMP", "MESSAGE" };
		unsigned int code = t->action & 0xff;

		printf("event %llu: note %s pid %u", (unsigned long long)ev->index,
		       code < 3 ? kinds[code] : "?", t->pid);
		if (code == BS_TN_PROCESS)
			printf(" \"%.*s\"",
			       (int)strnlen((const char *)ev->pdu,
					    t->pdu_len < BS_COMM_LEN ? t->pdu_len : BS_COMM_LEN),
			       (const char *)ev->pdu);
	} else {
		printf("event %llu: %-2s %3s pid %u %u,%u %llu + %u", (unsigned long long)ev->index,
		       act ? act : "?", bs_rwbs(rwbs, t->action, t->bytes), t->pid,
		       BS_DEV_MAJOR(t->device), BS_DEV_MINOR(t->device),
		       (unsigned long long)t->sector, t->bytes >> 9);
	}
	if (!ev->answered)
		printf(" -> (not answered)\n");
	else if (!ev->ntags)
		printf(" -> -\n");
	else {
		for (i = 0; i < ev->ntags; i++)
			printf("%s tag %u (%s)", i ? "," : " ->", ev->tags[i],
			       tag_host_label(c->host, ev->tags[i]));
		printf("\n");
	}
}

static void on_event(void *ctx, const struct tag_host_event *ev)
{
	struct check *c = ctx;
	int i;

	c->events++;
	if (ev->answered)
		c->answered++;
	c->tag_ios += ev->ntags;
	if (ev->ntags > 1)
		c->multi++;
	for (i = 0; i < ev->ntags; i++) {
		struct tag_count *tc = count_of(c, ev->tags[i]);

		tc->events++;
		if (bs_act_basic(ev->t->action) == BS_TA_QUEUE && !bs_is_note(ev->t->action)) {
			tc->queued++;
			tc->bytes += ev->t->bytes;
		}
	}
	if (c->verbose)
		print_event(c, ev);
}

struct feed {
	struct check *check;
	int error;
};

static void feed_note(void *ctx, const struct bs_record *rec, int dev)
{
	struct feed *f = ctx;

	if (tag_host_submit(f->check->host, &rec->t, rec->pdu, NULL) < 0)
		f->error = ENOMEM;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: blkscope tag-check [OPTIONS] PLUGIN [ARGS...] -- TRACE...\n"
		"       blkscope tag-check [OPTIONS] -c 'PLUGIN ARGS...' TRACE...\n"
		"\n"
		"Run a tagging plugin over a trace, check every answer against the protocol\n"
		"(docs/tags.md) and print the tags it assigned.  Exit status 0 = the plugin\n"
		"answered every event correctly and exited 0; 1 = it did not (one error line\n"
		"names the event); 2 = usage or input error.\n"
		"\n"
		"TRACE is what 'blkscope parse' reads: a base name (sda -> sda.blktrace.*), a\n"
		"per-CPU file, a directory, a blkparse -d dump, or - for stdin.\n"
		"\n"
		"Options:\n"
		"  -c, --command CMD     the plugin as one string, split into words exactly as\n"
		"                        analyze --tag-plugin does (blanks separate; "
		"'...', \"...\"\n"
		"                        and backslash quote; no shell, no expansion)\n"
		"  -v, --verbose         print every event with its tags "
		"(default: per-tag summary)\n"
		"  -t, --timeout SECS    silence allowed while answers are due (default 30)\n"
		"  -h, --help            this text\n"
		"\n"
		"Examples:\n"
		"  blkscope tag-check tag-by-pid -- sda\n"
		"  blkscope tag-check tag-by-pid -g db:812,813 -- sda.dump\n"
		"  blkscope tag-check -c 'tag-by-comm -g \"db:postgres,pg_dump\"' sda\n"
		"  blkscope tag-check -v python3 tags/python/tag-by-pid.py -- trace/\n");
}

/* A line from bs_arg (a refused value or option): "PROGRAM: TEXT", and exit 2. */
static int bad_command_line(const struct bs_err *err)
{
	fprintf(stderr, "%s: %s\n", bs_progname(), err->text);
	return 2;
}

/* getopt_long's '?' or ':': its line, exit 2 */
static int getopt_refused(int c, char *const argv[])
{
	struct bs_err err;

	bs_arg_getopt_error(bs_progname(), c, argv, &err);
	return bad_command_line(&err);
}

/* 0, or -1 after its line */
static int parse_timeout(const char *arg, unsigned int *ms)
{
	struct bs_err err;
	double s;

	if (bs_arg_double(bs_progname(), "--timeout", arg, 0.001, 86400, "a number of seconds", &s,
			  &err)) {
		bad_command_line(&err);
		return -1;
	}
	*ms = (unsigned int)(s * 1000 + 0.5);
	if (!*ms)
		*ms = 1;
	return 0;
}

static void print_summary(const struct check *c)
{
	size_t i;

	printf("%-6s %-32s %12s %12s %14s\n", "tag", "label", "events", "Q events", "Q bytes");
	for (i = 0; i < c->ncounts; i++)
		printf("%-6u %-32s %12llu %12llu %14llu\n", c->counts[i].tag, c->counts[i].label,
		       (unsigned long long)c->counts[i].events,
		       (unsigned long long)c->counts[i].queued,
		       (unsigned long long)c->counts[i].bytes);
}

/* The table (unless -v printed every answer), the counts and the verdict. */
static void print_result(const struct check *c, int ret)
{
	if (!c->verbose)
		print_summary(c);
	printf("%llu events, %llu answered, %zu tags declared, %llu TAG_IO answers",
	       (unsigned long long)c->events, (unsigned long long)c->answered, c->ncounts,
	       (unsigned long long)c->tag_ios);
	if (c->multi)
		printf(", %llu events with several TAG_IOs (the first one counts)",
		       (unsigned long long)c->multi);
	printf("\n%s\n", ret == 0 ? "OK: every answer follows the protocol" :
	       "FAILED: see the error above; tags are incomplete");
}

static const struct option opts[] = {
	{ "command", required_argument, NULL, 'c' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "timeout", required_argument, NULL, 't' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

int main(int argc, char **argv)
{
	struct check check = { 0 };
	struct tag_host_ops ops = { .on_event = on_event, .on_new_tag = on_new_tag, .ctx = &check,
				    .msg = { .fn = print_host_msg } };
	struct bs_input_set in = { 0 };
	struct feed feed = { .check = &check };
	struct bs_merge_opts mopts = { .on_note = feed_note, .ctx = &feed,
				       .msg = { .fn = print_format_msg } };
	struct bs_err in_err;
	struct bs_merge *m = NULL;
	struct bs_event ev;
	char **plugin_argv = NULL, **owned_argv, err[128];
	int c, i, sep = -1, first_trace, ret, status;

	bs_set_progname("blkscope tag-check");
	opterr = 0;	/* bs_arg_getopt_error() says it, in one line */
	while ((c = getopt_long(argc, argv, "+:c:vt:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			tag_argv_free(plugin_argv);
			plugin_argv = tag_split_argv(optarg, err, sizeof(err));
			if (!plugin_argv) {
				fprintf(stderr, "%s: -c '%s': %s\n", bs_progname(), optarg, err);
				return 2;
			}
			break;
		case 'v':
			check.verbose = true;
			break;
		case 't':
			if (parse_timeout(optarg, &ops.timeout_ms) < 0) {
				tag_argv_free(plugin_argv);
				return 2;
			}
			break;
		case 'h':
			tag_argv_free(plugin_argv);
			usage(stdout);
			return 0;
		default:	/* '?' or ':' */
			tag_argv_free(plugin_argv);
			return getopt_refused(c, argv);
		}
	}
	owned_argv = plugin_argv;	/* from -c: ours to free */
	if (plugin_argv) {
		first_trace = optind;
		if (first_trace < argc && !strcmp(argv[first_trace], "--"))
			first_trace++;
	} else {
		for (i = optind; i < argc; i++)
			if (!strcmp(argv[i], "--")) {
				sep = i;
				break;
			}
		if (sep < 0 || sep == optind) {
			fprintf(stderr, "%s: expected PLUGIN [ARGS...] -- TRACE... "
				"Try 'blkscope tag-check --help'.\n", bs_progname());
			return 2;
		}
		argv[sep] = NULL;	/* the plugin's argv ends at "--" */
		plugin_argv = argv + optind;
		first_trace = sep + 1;
	}
	if (first_trace == argc) {
		fprintf(stderr, "%s: no trace given. Try 'blkscope tag-check --help'.\n",
			bs_progname());
		status = 2;
		goto out;
	}
	in.msg = mopts.msg;
	for (i = first_trace; i < argc; i++)
		if (bs_input_add(&in, argv[i], NULL, &in_err) < 0) {
			fprintf(stderr, "%s: %s\n", bs_progname(), in_err.text);
			status = 2;
			goto out;
		}
	check.host = start_host(plugin_argv, &ops);
	if (!check.host) {
		status = 1;
		goto out;
	}
	m = bs_merge_open(&in, &mopts);	/* may deliver the first notes */
	if (!m) {
		status = 2;
		goto out;
	}
	while (!feed.error && bs_merge_next(m, &ev) == 1)
		if (tag_host_submit(check.host, &ev.t, ev.pdu, NULL) < 0)
			feed.error = ENOMEM;
	if (feed.error) {
		fprintf(stderr, "%s: out of memory\n", bs_progname());
		status = 1;
		goto out;
	}
	ret = tag_host_finish(check.host);
	print_result(&check, ret);
	status = ret == 0 && !bs_merge_damaged(m) ? 0 : 1;
	if (!check.events) {	/* nothing was checked: not a pass */
		fprintf(stderr, "%s: no events in %s%s\n", bs_progname(), argv[first_trace],
			argc - first_trace > 1 ? " and the other traces" : "");
		status = 2;
	}
out:
	tag_host_free(check.host);
	if (m)
		bs_merge_close(m);
	bs_input_free(&in);
	free(check.counts);
	tag_argv_free(owned_argv);
	return status;
}
