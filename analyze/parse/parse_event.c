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
#include "parse.h"
#include "parse_stats.h"
#include "parse_tags.h"

/* ---- notes and the dump ---- */

/* The dump has the version of the first record dumped: v7 input keeps blkparse 1.2.0's dump. */
void ps_dump_record(struct bs_parse *ps, const struct bs_trace *t, uint32_t action_hi, const uint8_t *pdu)
{
	if (ps->dumping && !ps->dump.records && t->magic == BS_TRACE_MAGIC_V8)
		bs_writer_set_format(&ps->dump, BS_OUT_V8);
	if (ps->dumping && bs_writer_put2(&ps->dump, t, action_hi, pdu) < 0) {
		/* blkparse: perror(dump_binary), then stops dumping */
		fprintf(stderr, "%s: %s\n", ps->dump_name, strerror(ps->dump.error));
		ps->dumping = false;
	}
}

static void correct_abs_start(struct bs_parse *ps, uint64_t genesis)
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
void ps_note_now(struct bs_parse *ps, const struct bs_record *rec, int dev)
{
	const struct bs_trace *t = &rec->t;

	(void)dev;
	if (ps->stop)	/* blkparse has exited by now */
		return;
	if (t->action == BS_NOTE_PROCESS) {
		names_add(ps, t->pid, (const char *)rec->pdu, t->pdu_len < 16 ? t->pdu_len : 16);
	} else if (t->action == BS_NOTE_TIMESTAMP && t->pdu_len == 8) {
		uint32_t w[2];

		memcpy(w, rec->pdu, sizeof(w));
		if (rec->foreign) {
			w[0] = bs_swap32(w[0]);
			w[1] = bs_swap32(w[1]);
		}
		ps->start_timestamp = t->time;
		ps->abs_start.tv_sec = w[0];
		ps->abs_start.tv_nsec = w[1];
	}
	ps_dump_record(ps, t, rec->action_hi, rec->pdu);
}

/* ---- per-event dispatch: blkparse's dump_trace_fs() / dump_trace_pc() ---- */

static void depth_up(struct ps_dev *d, int w)
{
	if (++d->cur_depth[w] > d->max_depth[w])
		d->max_depth[w] = d->cur_depth[w];
}

static void depth_down(struct ps_dev *d, int w)
{
	/* can happen if traces were lost: do not go below zero */
	if (d->cur_depth[w])
		d->cur_depth[w]--;
}

static int text_fs(struct bs_parse *ps, struct ps_dev *d, struct ps_cpu *pci, int cpu, struct bs_trace *t,
		    const uint8_t *pdu)
{
	int w = (t->action & BS_TC_ACT(BS_TC_WRITE)) != 0;
	unsigned int act = t->action & 0xffff;	/* 1.2.0 keeps the cgroup bit here */
	unsigned long long el;
	int rc = 0;

	switch (act) {
	case BS_TA_QUEUE:
		track_queue(ps, d, t);
		ps_account(ps, pci, ACCT_QUEUE, t, w);
		rc = line_event(ps, "Q", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_INSERT:
		el = track_insert(ps, d, t);
		rc = line_event(ps, "I", cpu, t, el, NULL, 0, pdu);
		break;
	case BS_TA_BACKMERGE:
		ps_account(ps, pci, ACCT_MERGE, t, w);
		rc = line_event(ps, "M", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_FRONTMERGE:
		ps_account(ps, pci, ACCT_MERGE, t, w);
		track_frontmerge(ps, d, t);
		rc = line_event(ps, "F", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_GETRQ:
		track_getrq(ps, d, t);
		rc = line_event(ps, "G", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_SLEEPRQ:
		rc = line_event(ps, "S", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_REQUEUE:
		depth_down(d, w);
		ps_account(ps, pci, ACCT_REQUEUE, t, w);
		rc = line_event(ps, "R", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_ISSUE:
		ps_account(ps, pci, ACCT_ISSUE, t, w);
		depth_up(d, w);
		el = track_issue(ps, d, t);
		rc = line_event(ps, "D", cpu, t, el, NULL, 0, pdu);
		break;
	case BS_TA_COMPLETE:
		depth_down(d, w);
		ps_account(ps, pci, ACCT_COMPLETE, t, w);
		el = track_complete(ps, d, t);
		rc = line_event(ps, "C", cpu, t, el, NULL, 0, pdu);
		break;
	case BS_TA_PLUG:
		rc = line_event(ps, "P", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_UNPLUG_IO:
		ps_account(ps, pci, ACCT_UNPLUG, t, w);
		rc = line_event(ps, "U", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_UNPLUG_TIMER:
		ps_account(ps, pci, ACCT_UNPLUG_TIMER, t, w);
		rc = line_event(ps, "UT", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_SPLIT:
		rc = line_event(ps, "X", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_BOUNCE:
		rc = line_event(ps, "B", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_REMAP:
		rc = line_event(ps, "A", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_DRV_DATA:
		ps->have_drv_data = true;	/* binary output only */
		break;
	case BS_TA_ZONE_PLUG:
	case BS_TA_ZONE_UNPLUG:
		if (t->magic == BS_TRACE_MAGIC_V8) {	/* v8 only; blkparse 1.2.0 knows no 18/19 */
			rc = line_event(ps, act == BS_TA_ZONE_PLUG ? "ZP" : "ZU", cpu, t, NO_ELAPSED, NULL, 0, pdu);
			break;
		}
		/* fall through */
	default:
		fprintf(stderr, "Bad fs action %x\n", t->action);
		break;
	}
	return rc;
}

static int text_pc(struct bs_parse *ps, struct ps_dev *d, struct ps_cpu *pci, int cpu, struct bs_trace *t,
		    const uint8_t *pdu)
{
	int w = (t->action & BS_TC_ACT(BS_TC_WRITE)) != 0;
	unsigned int act = t->action & 0xffff;
	int rc = 0;

	switch (act) {
	case BS_TA_QUEUE:
		rc = line_event(ps, "Q", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		ps_account(ps, pci, ACCT_PC_QUEUE, t, w);
		break;
	case BS_TA_GETRQ:
		rc = line_event(ps, "G", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_SLEEPRQ:
		rc = line_event(ps, "S", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_REQUEUE:
		depth_down(d, w);
		ps_account(ps, pci, ACCT_PC_REQUEUE, t, w);
		rc = line_event(ps, "R", cpu, t, NO_ELAPSED, NULL, 0, pdu);
		break;
	case BS_TA_ISSUE:
		ps_account(ps, pci, ACCT_PC_ISSUE, t, w);
		depth_up(d, w);
		rc = line_event(ps, "D", cpu, t, NO_ELAPSED, pdu, t->pdu_len, pdu);
		break;
	case BS_TA_COMPLETE:
		depth_down(d, w);
		rc = line_event(ps, "C", cpu, t, NO_ELAPSED, pdu, t->pdu_len, pdu);
		ps_account(ps, pci, ACCT_PC_COMPLETE, t, w);
		break;
	case BS_TA_INSERT:
		rc = line_event(ps, "I", cpu, t, NO_ELAPSED, pdu, t->pdu_len, pdu);
		break;
	default:
		fprintf(stderr, "Bad pc action %x\n", act);
		break;
	}
	return rc;
}

/*
 * blkparse's dump_trace(): text, event count, then the dump.  -1 after a
 * fatal format error: blkparse exits inside the line, before counting or
 * dumping the event.
 */
static int dump_trace(struct bs_parse *ps, struct ps_dev *d, struct ps_cpu *pci, int cpu, struct bs_event *ev)
{
	struct bs_trace *t = &ev->t;

	ps->action_hi = ev->action_hi;
	if (ps->text) {
		size_t before = ps->out.len;
		int rc = 0;

		if (t->action == BS_NOTE_MESSAGE)
			line_message(ps, t, ev->pdu);
		else if (t->action & BS_TC_ACT(BS_TC_PC))
			rc = text_pc(ps, d, pci, cpu, t, ev->pdu);
		else
			rc = text_fs(ps, d, pci, cpu, t, ev->pdu);
		if (rc < 0)
			return -1;
		if (ps->tags)
			ptag_mark_line(ps->tags, &ps->out, before);
	}
	if (!d->events)
		d->first_time = t->time;
	d->events++;
	if (ps->dump_msgs || t->action != BS_NOTE_MESSAGE)
		ps_dump_record(ps, t, ev->action_hi, ev->pdu);
	return 0;
}

/* stream mode: devices by dev_t (ps->dev_index), in order of appearance */
static struct ps_dev *stream_dev(struct bs_parse *ps, uint32_t dev)
{
	bool inserted;
	uint64_t *idx;
	struct ps_dev *d;

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
bool ps_one_event(struct bs_parse *ps, struct bs_event *ev)
{
	struct bs_trace *t = &ev->t;
	uint32_t mask = ps->act_mask << BS_TC_SHIFT;
	struct ps_dev *d;
	struct ps_cpu *pci;

	/* 1.2.0 corrects the TIMESTAMP base by genesis in pipe mode only */
	if (!ps->abs_corrected && !ps->file_mode)
		correct_abs_start(ps, bs_merge_genesis(ps->merge));
	if (ps->file_mode) {
		d = &ps->devs[ev->dev];
		pci = ps_cpu_get(d, (unsigned int)ev->cpu);
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
		pci = ps_cpu_get(d, t->cpu);
		if (!pci)
			goto damaged;
		pci->nelems++;
		if (t->action & mask)
			return dump_trace(ps, d, pci, (int)t->cpu, ev) == 0;
	}
	return true;
damaged:
	ps->stop = PS_FATAL_DAMAGE;
	return false;
}

/*
 * blkparse creates its per-device records when it READS a record, so a
 * device whose events all fell outside -w still gets a (zero) summary and
 * the summaries come in read order.  Put ours in that order.
 */
void ps_order_stream_devs(struct bs_parse *ps)
{
	int n = bs_merge_devices(ps->merge, NULL, 0);
	uint32_t *order = bs_xcalloc((size_t)n + 1, sizeof(*order));
	struct ps_dev *sorted = bs_xcalloc((size_t)(n + ps->ndevs) + 1, sizeof(*sorted));
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
