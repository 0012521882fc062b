// SPDX-License-Identifier: GPL-2.0
/*
 * parse_dump.c - the loop of `parse -O -d FILE` on per-CPU files: merge
 * and dump, nothing else.  Without text output blkparse prints no
 * statistics and keeps no per-event state that shows, so of
 * parse_one_event()'s work only the checks that decide whether an event is
 * dumped (or reading stops) remain: the cpu sanity check, the -w window,
 * the -a mask and -M.  The output is the same as parse_one_event()'s; this
 * loop only skips the bookkeeping, which is most of the per-event cost
 * once there is no text.
 */
#include "bs_writer.h"
#include "parse_priv.h"

bool parse_dump_only(const struct parse_ctx *ps)
{
	return ps->file_mode && !ps->text && ps->dump_name && !ps->tags;
}

/*
 * The records are taken from the merge in place (bs_merge_next_ref: no copy
 * of each event), their times made relative here and by the writer.
 */
void parse_run_dump(struct parse_ctx *ps)
{
	uint32_t mask = ps->act_mask << BS_TC_SHIFT;
	uint64_t genesis = bs_merge_genesis(ps->merge);
	int last_dev = -1, last_cpu = -1;
	struct bs_event_ref ev;

	while (!ps->stop && bs_merge_next_ref(ps->merge, &ev) == 1) {
		const struct bs_trace *t = ev.t;
		uint64_t time = t->time - genesis;

		ps->nevents++;
		if (ev.cpu != last_cpu || ev.dev != last_dev) {
			/* the same sanity check as parse_one_event(), once per run of a stream */
			if (!parse_cpu_get(ps, &ps->devs[ev.dev], (unsigned int)ev.cpu)) {
				ps->stop = PARSE_FATAL_DAMAGE;
				break;
			}
			last_dev = ev.dev;
			last_cpu = ev.cpu;
		}
		/* file mode stops at the first event past the window */
		if (time > ps->stop_end)
			break;
		if (!(t->action & mask) || time < ps->stop_start)
			continue;
		if (!ps->dump_msgs && t->action == BS_NOTE_MESSAGE)
			continue;
		if (ps->dump.records && ps->dumping &&
		    !bs_writer_put_fast_at(&ps->dump, t, time, ev.pdu))
			continue;
		/*
		 * the first record, or an error: with its relative time, as bs_merge_next()
		 * gives it
		 */
		{
			struct bs_trace rel = *t;

			rel.time = time;
			parse_dump_record(ps, &rel, ev.action_hi, ev.pdu);
		}
	}
}
