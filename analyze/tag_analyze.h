/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tag_analyze.h - `blkscope analyze --tag-plugin`: the glue between the
 * merged event stream, the tagging plugin (tag_host.h) and the engine.
 *
 * With a plugin, main hands every note and event to bs_tag_note() /
 * bs_tag_event() instead of the engine; each comes back, in the same
 * order, once the plugin has answered it, and is then applied to the
 * engine with engine->cur_tag set to its tag, so that the engine can
 * attach the tag to the I/O the event belongs to (Q through C).
 */
#ifndef BLKSCOPE_TAG_ANALYZE_H
#define BLKSCOPE_TAG_ANALYZE_H

#include <stdbool.h>
#include "bs_merge.h"

struct bt_engine;

/* --tag-plugin was given */
bool bs_tag_enabled(void);

/* Start the plugin; call before the extensions' start().  0, or -1 (message printed). */
int bs_tag_begin(struct bt_engine *e);

/* A PROCESS/TIMESTAMP note at read time, and an event of the merged stream. */
void bs_tag_note(const struct bs_record *rec);
void bs_tag_event(const struct bs_event *ev);

/* After the last event: collect the remaining answers; 0, or -1 = tags incomplete. */
int bs_tag_end(void);

#endif /* BLKSCOPE_TAG_ANALYZE_H */
