// SPDX-License-Identifier: GPL-2.0
/*
 * analysis_health.c - what the analysis tells about its input as a whole:
 * files cut short (probed before the first event) and damage met while
 * reading, both handed to the per-I/O model, which stops there; the one
 * line on stderr when the trace is not clean and the report's own block is
 * not printed; and the refusal to print an empty report.
 */
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include "analysis_priv.h"
#include "bs_tail.h"

/*
 * Before the first event: a per-CPU file without the recorder's end note,
 * where other files of the input have one, was cut short; the model stops
 * at its last record (the earliest such), as at damage.
 */
void analysis_probe_tails(struct analysis *a)
{
	const char *cut_path = NULL;
	uint64_t cut_time = UINT64_MAX, cut_size = 0, genesis = bs_merge_genesis(a->m);
	bool any_note = false;
	struct bs_tail t;
	struct stat st;
	int d, c;

	if (bs_input_is_stream(&a->in))
		return;
	for (d = 0; d < a->in.ndevs; d++)
		for (c = 0; c < a->in.devs[d].ncpus; c++) {
			const char *path = a->in.devs[d].cpus[c].path;

			if (bs_tail_probe(path, &t))
				continue;
			any_note |= t.end_note;
			if (!t.end_note && t.last_time < cut_time && !stat(path, &st)) {
				cut_time = t.last_time;
				cut_path = path;
				cut_size = (uint64_t)st.st_size;
			}
		}
	if (any_note && cut_path)
		iom_cut(a->iom, cut_path, cut_size, cut_time > genesis ? cut_time - genesis : 0);
}

/* The merge's damage callback: the model stops where the input stops being whole. */
void analysis_on_damage(void *ctx, const char *name, uint64_t offset, uint64_t last_time)
{
	struct analysis *a = ctx;

	if (a->reader)
		analysis_reader_damage(a->reader, name, offset, last_time);
	else
		iom_damage(a->iom, name, offset, last_time);
}

/*
 * Where the report shows no health block (--btt-only keeps stdout btt's,
 * byte for byte; --json - and the like), one line on stderr says the
 * trace is not clean.
 */
void analysis_warn_health(struct analysis *a)
{
	const struct iom_health *h = iom_health(a->iom);
	char lost[64] = "", damaged[BS_ERR_TEXT_MAX / 2] = "";

	if (!iom_health_off(h) || (!analysis_btt_only(a) && !a->front))
		return;
	if (h->lost_events)
		snprintf(lost, sizeof(lost), "%llu events lost; ",
			 (unsigned long long)h->lost_events);
	if (h->damaged)
		snprintf(damaged, sizeof(damaged), "%s damaged; ", h->damage_file);
	bs_msg(&a->msgs.sink, BS_MSG_WARN, "warning: the trace is not clean (%s%sthe JSON report's "
	       "\"health\" says what and where)", lost, damaged);
}

/*
 * No block I/O event to report on (the engine took none): an error, not an
 * empty 80-line report.  Says why: nothing at all, notes alone (an idle
 * recording), or a -t/-T window that holds none of the trace's events.
 */
bool analysis_nothing_to_report(struct analysis *a)
{
	const struct btt_engine *e = a->e;
	const char *more = a->ninputs > 1 ? " and the other inputs" : "";
	/* the engine's count, or (export, compare: no engine) the model's */
	uint64_t followed = e ? btt_engine_followed(e) : a->iom ? iom_followed(a->iom) : 1;
	uint64_t last = e ? btt_engine_last_time(e) : a->iom ? iom_last_time(a->iom) : 0;

	if (followed)
		return false;
	if (!a->nevents)
		bs_msg(&a->msgs.sink, BS_MSG_ERROR, "no events in %s%s", a->inputs[0], more);
	else if (!a->o.time_bounded)
		bs_msg(&a->msgs.sink, BS_MSG_ERROR,
		       "no events in %s%s: notes only, no block I/O (was the device idle "
		       "while recording?)",
		       a->inputs[0], more);
	else if (isinf(a->o.t_end))
		bs_msg(&a->msgs.sink, BS_MSG_ERROR,
		       "no events in %s%s at or after -t %g s: its last event is at %.6f s",
		       a->inputs[0], more, a->o.t_start, btt_secs(last));
	else
		bs_msg(&a->msgs.sink, BS_MSG_ERROR,
		       "no events in %s%s between -t %g s and -T %g s%s%.6f s", a->inputs[0], more,
		       a->o.t_start, a->o.t_end,
		       e && btt_engine_done(e) ? ": the next one is at "
					       : ": its last event is at ",
		       btt_secs(last));
	return true;
}
