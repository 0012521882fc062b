/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tag_analyze.h - `blkscope analyze --tag-plugin`: the tags extension
 * (bs_tag_ext) and its state, the tag session: the glue between the
 * merged event stream, the tagging plugin (tags/host/tag_host.h) and the
 * engine.
 *
 * With a plugin, the analysis hands every note and event to bs_tag_note()
 * / bs_tag_event() instead of the engine; each comes back, in the same
 * order, once the plugin has answered it, and is then applied to the
 * engine with its tag (bt_engine_event_tagged), so that the engine can
 * attach the tag to the I/O the event belongs to (Q through C).  The
 * report (report/report.h) shows tags as groups.
 */
#ifndef BLKSCOPE_TAG_ANALYZE_H
#define BLKSCOPE_TAG_ANALYZE_H

#include <stdbool.h>
#include "analyze.h"
#include "bs_merge.h"

struct bs_tag_session;

/* The extension: --tag-plugin, --tag-timeout, the "Tags" section. */
extern const struct bs_analyze_ext bs_tag_ext;

/* --tag-plugin was given (false for NULL: no tags extension). */
bool bs_tag_enabled(const struct bs_tag_session *t);

/* A PROCESS/TIMESTAMP note at read time, and an event of the merged stream. */
void bs_tag_note(struct bs_tag_session *t, const struct bs_record *rec);
/* 0, or -1 when out of memory (message printed): stop feeding. */
int bs_tag_event(struct bs_tag_session *t, const struct bs_event *ev);

/* After the last event: collect the remaining answers; 0, or -1 = tags incomplete. */
int bs_tag_end(struct bs_tag_session *t);

#endif /* BLKSCOPE_TAG_ANALYZE_H */
