/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse_tags_priv.h - `blkscope parse --tag-plugin`: run a tagging plugin over
 * the trace and print each event's tag at the end of its text line
 * (" [tag T: LABEL]").  Without the option nothing changes.
 *
 * Records go through the plugin first (tag_host.h) and come back, in the
 * same order, once answered; parse then handles them exactly as it would
 * have (parse_note_now, parse_one_event), with the tag of the current event
 * available to the line printer.  The session lives in the run (ps->tags).
 */
#ifndef BLKSCOPE_ANALYZE_PARSE_PARSE_TAGS_PRIV_H
#define BLKSCOPE_ANALYZE_PARSE_PARSE_TAGS_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include "bs_merge.h"
#include "parse_out_priv.h"

struct parse_ctx;
struct parse_tags;

/* Start the plugin (cmd: --tag-plugin); NULL after printing why. */
struct parse_tags *parse_tags_begin(struct parse_ctx *ps, const char *cmd, unsigned int timeout_ms);
/* 0, or -1 if the host is out of memory (nothing printed) */
int parse_tags_note(struct parse_tags *pt, const struct bs_record *rec, int dev);
/* 1 = go on, 0 = the run asked to stop, -1 = out of memory */
int parse_tags_event(struct parse_tags *pt, const struct bs_event *ev);
/* 0, or -1: tags incomplete (error printed) */
int parse_tags_end(struct parse_tags *pt);
void parse_tags_free(struct parse_tags *pt);	/* kills the plugin if still running */

/* If the current event printed a line since o->len was `before`, add its tag. */
void parse_tags_mark_line(struct parse_tags *pt, struct parse_out *o, size_t before);

#endif /* BLKSCOPE_ANALYZE_PARSE_PARSE_TAGS_PRIV_H */
