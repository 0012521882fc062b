/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse_tags.h - `blkscope parse --tag-plugin`: run a tagging plugin over
 * the trace and print each event's tag at the end of its text line
 * (" [tag T: LABEL]").  Without the option nothing changes.
 *
 * Records go through the plugin first (tag_host.h) and come back, in the
 * same order, once answered; parse then handles them exactly as it would
 * have, with the tag of the current event available to the line printer.
 */
#ifndef BS_PARSE_TAGS_H
#define BS_PARSE_TAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "bs_merge.h"
#include "parse_out.h"

/* getopt_long values of --tag-plugin and --tag-timeout */
#define PTAG_OPT_PLUGIN		0x2100
#define PTAG_OPT_TIMEOUT	0x2101

int ptag_option(int opt, const char *arg);	/* 0, or -1 (message printed) */
void ptag_usage(FILE *f);
bool ptag_enabled(void);

typedef void (*ptag_note_fn)(void *ctx, const struct bs_record *rec, int dev);
typedef bool (*ptag_event_fn)(void *ctx, struct bs_event *ev);	/* false: stop */

/* Start the plugin; the callbacks get the records back once answered. */
int ptag_begin(ptag_note_fn note, ptag_event_fn event, void *ctx);
void ptag_note(const struct bs_record *rec, int dev);
bool ptag_event(const struct bs_event *ev);	/* false once event() asked to stop */
int ptag_end(void);			/* 0, or -1: tags incomplete (error printed) */

/* If the current event printed a line since o->len was `before`, add its tag. */
void ptag_mark_line(struct pout *o, size_t before);

#endif /* BS_PARSE_TAGS_H */
