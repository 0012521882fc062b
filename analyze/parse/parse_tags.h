/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse_tags.h - `blkscope parse --tag-plugin`: run a tagging plugin over
 * the trace and print each event's tag at the end of its text line
 * (" [tag T: LABEL]").  Without the option nothing changes.
 *
 * Records go through the plugin first (tag_host.h) and come back, in the
 * same order, once answered; parse then handles them exactly as it would
 * have (ps_note_now, ps_one_event), with the tag of the current event
 * available to the line printer.  The session lives in the run (ps->tags).
 */
#ifndef BS_PARSE_TAGS_H
#define BS_PARSE_TAGS_H

#include <stdbool.h>
#include <stddef.h>
#include "bs_merge.h"
#include "parse_out.h"

struct bs_parse;
struct ptag;

/* Start the plugin (cmd: --tag-plugin); NULL after printing why. */
struct ptag *ptag_begin(struct bs_parse *ps, const char *cmd, unsigned int timeout_ms);
/* 0, or -1 if the host is out of memory (nothing printed) */
int ptag_note(struct ptag *pt, const struct bs_record *rec, int dev);
/* 1 = go on, 0 = the run asked to stop, -1 = out of memory */
int ptag_event(struct ptag *pt, const struct bs_event *ev);
int ptag_end(struct ptag *pt);		/* 0, or -1: tags incomplete (error printed) */
void ptag_free(struct ptag *pt);	/* kills the plugin if still running */

/* If the current event printed a line since o->len was `before`, add its tag. */
void ptag_mark_line(struct ptag *pt, struct pout *o, size_t before);

#endif /* BS_PARSE_TAGS_H */
