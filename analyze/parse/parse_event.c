// SPDX-License-Identifier: GPL-2.0
/*
 * parse_event.c - what blkscope parse does with each record the merge
 * hands out: notes as they are read (names, the TIMESTAMP base, the dump),
 * and per event blkparse's dump_trace(): the text line, the accounting,
 * -t tracking, the device depth and the dump.  text_fs() and text_pc()
 * mirror blkparse's dump_trace_fs() / dump_trace_pc() switch on purpose.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_codec.h"
#include "bs_notes.h"
#include "parse_priv.h"
#include "parse_stats_priv.h"
#include "parse_tags_priv.h"

/* ---- notes and the dump ---- */

/* The dump has the version of the first record dumped: v7 input keeps blkparse 1.2.0's dump. */
void parse_dump_record(struct parse_ctx *ps, const struct bs_trace *t, uint32_t action_hi,
		       const uint8_t *pdu)
{
	if (ps->dumping && !ps->dump.records && bs_trace_is_v8(t))
		bs_writer_set_format(&ps->dump, BS_OUT_V8);
	if (ps->dumping && bs_writer_put2(&ps->dump, t, action_hi, pdu) < 0) {
		/* blkparse: perror(dump_binary), then stops dumping */
		bs_msg(&ps->msg, PARSE_MSG_BLKPARSE, "%s: %s", ps->dump_name,
		       strerror(ps->dump.error));
		ps->dumping = false;
	}
}

static void correct_abs_start(struct parse_ctx *ps, uint64_t genesis)
{
	long long delta;

	ps->abs_corrected = true;
	if (!ps->start_timestamp || ps->start_timestamp == genesis)
		return;
	delta = (long long)(genesis - ps->start_timestamp);
	ps->abs_start.tv_sec += (time_t)((unsigned long long)delta / 1000000000ULL);
	ps->abs_start.tv_nsec += (long)((unsigned long long)delta % 1000000000ULL);
	if (ps->abs_start.tv_nsec < 0) {
		ps->abs_start.tv_nsec += 1000000000;
		ps->abs_start.tv_sec -= 1;
	} else if (ps->abs_start.tv_nsec > 1000000000) {
		ps->abs_start.tv_nsec -= 1000000000;
		ps->abs_start.tv_sec += 1;
	}
}

/* PROCESS / TIMESTAMP (and other non-message notes), when they are read */
void parse_note_now(struct parse_ctx *ps, const struct bs_record *rec, int dev)
{
	const struct bs_trace *t = &rec->t;
	const char *comm;
	uint32_t sec, nsec;
	size_t len;

	(void)dev;
	if (ps->stop)	/* blkparse has exited by now */
		return;
	comm = bs_process_note_comm(t, rec->pdu, &len);
	if (comm) {
		parse_names_add(ps, t->pid, comm, len);
	} else if (bs_timestamp_note_parse(t, rec->pdu, rec->foreign, &sec, &nsec)) {
		ps->start_timestamp = t->time;
		ps->abs_start.tv_sec = sec;
		ps->abs_start.tv_nsec = nsec;
	}
	parse_dump_record(ps, t, rec->action_hi, rec->pdu);
}

/* ---- per-event dispatch: blkparse's dump_trace_fs() / dump_trace_pc() ---- */

static void depth_up(struct parse_dev *d, int w)
{
	if (++d->cur_depth[w] > d->max_depth[w])
		d->max_depth[w] = d->cur_depth[w];
}

static void depth_down(struct parse_dev *d, int w)
{
	/* can happen if traces were lost: do not go below zero */
	if (d->cur_depth[w])
		d->cur_depth[w]--;
}

static int text_fs(struct parse_ctx *ps, struct parse_dev *d, struct parse_cpu *pci, int cpu,
		   struct bs_trace *t, const uint8_t *pdu)
{
	int w = (t->action & BS_TC_ACT(BS_TC_WRITE)) != 0;
	unsigned int act = t->action & 0xffff;	/* 1.2.0 keeps the cgroup bit here */
	unsigned long long el;
	int rc = 0;

	switch (act) {
	case BS_TA_QUEUE:
		parse_track_queue(ps, d, t);
		parse_account(ps, pci, PARSE_ACCT_QUEUE, t, w);
		rc = parse_line_event(ps, "Q", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_INSERT:
		el = parse_track_insert(ps, d, t);
		rc = parse_line_event(ps, "I", cpu, t, el, NULL, 0, pdu);
		break;
	case BS_TA_BACKMERGE:
		parse_account(ps, pci, PARSE_ACCT_MERGE, t, w);
		rc = parse_line_event(ps, "M", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_FRONTMERGE:
		parse_account(ps, pci, PARSE_ACCT_MERGE, t, w);
		parse_track_frontmerge(ps, d, t);
		rc = parse_line_event(ps, "F", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_GETRQ:
		parse_track_getrq(ps, d, t);
		rc = parse_line_event(ps, "G", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_SLEEPRQ:
		rc = parse_line_event(ps, "S", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_REQUEUE:
		depth_down(d, w);
		parse_account(ps, pci, PARSE_ACCT_REQUEUE, t, w);
		rc = parse_line_event(ps, "R", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_ISSUE:
		parse_account(ps, pci, PARSE_ACCT_ISSUE, t, w);
		depth_up(d, w);
		el = parse_track_issue(ps, d, t);
		rc = parse_line_event(ps, "D", cpu, t, el, NULL, 0, pdu);
		break;
	case BS_TA_COMPLETE:
		depth_down(d, w);
		parse_account(ps, pci, PARSE_ACCT_COMPLETE, t, w);
		el = parse_track_complete(ps, d, t);
		rc = parse_line_event(ps, "C", cpu, t, el, NULL, 0, pdu);
		break;
	case BS_TA_PLUG:
		rc = parse_line_event(ps, "P", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_UNPLUG_IO:
		parse_account(ps, pci, PARSE_ACCT_UNPLUG, t, w);
		rc = parse_line_event(ps, "U", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_UNPLUG_TIMER:
		parse_account(ps, pci, PARSE_ACCT_UNPLUG_TIMER, t, w);
		rc = parse_line_event(ps, "UT", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_SPLIT:
		rc = parse_line_event(ps, "X", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_BOUNCE:
		rc = parse_line_event(ps, "B", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_REMAP:
		rc = parse_line_event(ps, "A", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_DRV_DATA:
		ps->have_drv_data = true;	/* binary output only */
		break;
	case BS_TA_ZONE_PLUG:
	case BS_TA_ZONE_UNPLUG:
		if (bs_trace_is_v8(t)) {	/* v8 only; blkparse 1.2.0 knows no 18/19 */
			rc = parse_line_event(ps, act == BS_TA_ZONE_PLUG ? "ZP" : "ZU", cpu, t,
					      PARSE_NO_ELAPSED, NULL, 0, pdu);
			break;
		}
		/* fall through */
	default:
		bs_msg(&ps->msg, PARSE_MSG_BLKPARSE, "Bad fs action %x", t->action);
		break;
	}
	return rc;
}

static int text_pc(struct parse_ctx *ps, struct parse_dev *d, struct parse_cpu *pci, int cpu,
		   struct bs_trace *t, const uint8_t *pdu)
{
	int w = (t->action & BS_TC_ACT(BS_TC_WRITE)) != 0;
	unsigned int act = t->action & 0xffff;
	int rc = 0;

	switch (act) {
	case BS_TA_QUEUE:
		rc = parse_line_event(ps, "Q", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		parse_account(ps, pci, PARSE_ACCT_PC_QUEUE, t, w);
		break;
	case BS_TA_GETRQ:
		rc = parse_line_event(ps, "G", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_SLEEPRQ:
		rc = parse_line_event(ps, "S", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_REQUEUE:
		depth_down(d, w);
		parse_account(ps, pci, PARSE_ACCT_PC_REQUEUE, t, w);
		rc = parse_line_event(ps, "R", cpu, t, PARSE_NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_ISSUE:
		parse_account(ps, pci, PARSE_ACCT_PC_ISSUE, t, w);
		depth_up(d, w);
		rc = parse_line_event(ps, "D", cpu, t, PARSE_NO_ELAPSED, pdu, t->pdu_len, pdu);
		break;
	case BS_TA_COMPLETE:
		depth_down(d, w);
		rc = parse_line_event(ps, "C", cpu, t, PARSE_NO_ELAPSED, pdu, t->pdu_len, pdu);
		parse_account(ps, pci, PARSE_ACCT_PC_COMPLETE, t, w);
		break;
	case BS_TA_INSERT:
		rc = parse_line_event(ps, "I", cpu, t, PARSE_NO_ELAPSED, pdu, t->pdu_len, pdu);
		break;
	default:
		bs_msg(&ps->msg, PARSE_MSG_BLKPARSE, "Bad pc action %x", act);
		break;
	}
	return rc;
}

/*
 * blkparse's dump_trace(): text, event count, then the dump.  -1 after a
 * fatal format error: blkparse exits inside the line, before counting or
 * dumping the event.
 */
static int dump_trace(struct parse_ctx *ps, struct parse_dev *d, struct parse_cpu *pci, int cpu,
		      struct bs_event *ev)
{
	struct bs_trace *t = &ev->t;

	ps->action_hi = ev->action_hi;
	if (ps->text) {
		size_t before = ps->out.len;
		int rc = 0;

		if (t->action == BS_NOTE_MESSAGE)
			parse_line_message(ps, t, ev->pdu);
		else if (t->action & BS_TC_ACT(BS_TC_PC))
			rc = text_pc(ps, d, pci, cpu, t, ev->pdu);
		else
			rc = text_fs(ps, d, pci, cpu, t, ev->pdu);
		if (rc < 0)
			return -1;
		if (ps->tags)
			parse_tags_mark_line(ps->tags, &ps->out, before);
	}
	if (!d->events)
		d->first_time = t->time;
	d->events++;
	if (ps->dump_msgs || t->action != BS_NOTE_MESSAGE)
		parse_dump_record(ps, t, ev->action_hi, ev->pdu);
	return 0;
}

/* stream mode: devices by dev_t (ps->dev_index), in order of appearance */
static struct parse_dev *stream_dev(struct parse_ctx *ps, uint32_t dev)
{
	bool inserted;
	uint64_t *idx;
	struct parse_dev *d;

	if (ps->last_pdi && ps->last_dev == dev)
		return ps->last_pdi;
	idx = bs_hash_put(&ps->dev_index, dev, (uint64_t)ps->ndevs, &inserted);
	if (inserted) {
		BS_GROW(ps->devs, ps->devs_cap, (size_t)ps->ndevs, 16);
		d = &ps->devs[ps->ndevs++];
		memset(d, 0, sizeof(*d));
		d->dev = dev;
	} else {
		d = &ps->devs[*idx];
	}
	ps->last_dev = dev;
	return ps->last_pdi = d;
}

/* One event of the merged stream; false = stop reading (see ps->stop). */
bool parse_one_event(struct parse_ctx *ps, struct bs_event *ev)
{
	struct bs_trace *t = &ev->t;
	uint32_t mask = ps->act_mask << BS_TC_SHIFT;
	struct parse_dev *d;
	struct parse_cpu *pci;

	/* 1.2.0 corrects the TIMESTAMP base by genesis in pipe mode only */
	if (!ps->abs_corrected && !ps->file_mode)
		correct_abs_start(ps, bs_merge_genesis(ps->merge));
	if (ps->file_mode) {
		d = &ps->devs[ev->dev];
		pci = parse_cpu_get(ps, d, (unsigned int)ev->cpu);
		if (!pci)
			goto damaged;
		pci->nelems++;
		/* file mode stops at the first event past the window */
		if (t->time > ps->stop_end)
			return false;
		d->last_time = t->time;
		if ((t->action & mask) && t->time >= ps->stop_start)
			return dump_trace(ps, d, pci, ev->cpu, ev) == 0;
	} else {
		d = stream_dev(ps, t->device);
		d->last_time = t->time;
		pci = parse_cpu_get(ps, d, t->cpu);
		if (!pci)
			goto damaged;
		pci->nelems++;
		if (t->action & mask)
			return dump_trace(ps, d, pci, (int)t->cpu, ev) == 0;
	}
	return true;
damaged:
	ps->stop = PARSE_FATAL_DAMAGE;
	return false;
}

/*
 * blkparse creates its per-device records when it READS a record, so a
 * device whose events all fell outside -w still gets a (zero) summary and
 * the summaries come in read order.  Put ours in that order.
 */
void parse_order_stream_devs(struct parse_ctx *ps)
{
	int n = bs_merge_devices(ps->merge, NULL, 0);
	uint32_t *order = bs_xcalloc((size_t)n + 1, sizeof(*order));
	struct parse_dev *sorted = bs_xcalloc((size_t)(n + ps->ndevs) + 1, sizeof(*sorted));
	/* a flag, not a marker dev number: a damaged record may carry any dev */
	bool *taken = bs_xcalloc((size_t)ps->ndevs + 1, sizeof(*taken));
	int k = 0;

	bs_merge_devices(ps->merge, order, n);
	for (int i = 0; i < n; i++) {
		uint64_t *j = bs_hash_get(&ps->dev_index, order[i]);

		if (j && !taken[*j]) {
			sorted[k++] = ps->devs[*j];
			taken[*j] = true;
		} else {
			sorted[k].dev = order[i];
			k++;
		}
	}
	/* devices the merge did not list (cannot happen) keep their place at the end */
	for (int j = 0; j < ps->ndevs; j++)
		if (!taken[j])
			sorted[k++] = ps->devs[j];
	free(ps->devs);
	ps->devs_cap = (size_t)(n + ps->ndevs) + 1;
	ps->devs = sorted;
	ps->ndevs = k;
	bs_hash_free(&ps->dev_index);	/* indexes changed; no lookups follow */
	ps->last_pdi = NULL;
	free(order);
	free(taken);
}
