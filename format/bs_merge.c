// SPDX-License-Identifier: GPL-2.0
/*
 * bs_merge.c - the time-ordered merge of blktrace inputs, reproducing
 * blkparse exactly (docs/format.md §Merging, §The dump) so that text and
 * dumps built on it are byte-identical to blkparse's:
 *
 * file mode    per-CPU streams read in batches; notes consumed when read;
 *              the streams in a loser tree by (head time, seq), the order
 *              of blkparse's sorted list (bs_merge_file.c); genesis = first
 *              head time.
 * stream mode  one stream read in batches, each batch sorted by
 *              (time, device, sequence) into a heap; an event is released
 *              only when it is the next sequence number of its (device,
 *              cpu), or at the very end, where gaps become skips.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_merge.h"
#include "bs_merge_priv.h"

struct bs_merge *bs_merge_open(const struct bs_input_set *in, const struct bs_merge_opts *opts)
{
	struct bs_merge *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->opts = *opts;
	if (!m->opts.batch)
		m->opts.batch = 512;
	if (!m->opts.window_end)
		m->opts.window_end = UINT64_MAX;
	if (bs_input_is_stream(in) ? bs_merge_pipe_open(m, in->stream_path) : bs_merge_file_open(m, in)) {
		bs_merge_close(m);
		return NULL;
	}
	return m;
}

int bs_merge_next(struct bs_merge *m, struct bs_event *ev)
{
	return m->stream_mode ? bs_merge_pipe_next(m, ev) : bs_merge_file_next(m, ev);
}

int bs_merge_next_ref(struct bs_merge *m, struct bs_event_ref *r)
{
	return m->stream_mode ? -1 : bs_merge_file_next_ref(m, r);
}

uint64_t bs_merge_genesis(const struct bs_merge *m)
{
	return m->genesis;
}

int bs_merge_damaged(const struct bs_merge *m)
{
	return m->damaged;
}

void bs_merge_close(struct bs_merge *m)
{
	if (!m)
		return;
	bs_merge_file_free(m);
	bs_merge_pipe_free(m);
	free(m);
}

/* Copy a note out of a stream and hand it to the consumer. */
void bs_merge_note(struct bs_merge *m, const struct bs_record *rec, int dev)
{
	if (m->opts.on_note)
		m->opts.on_note(m->opts.ctx, rec, dev);
}
