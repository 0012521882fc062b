// SPDX-License-Identifier: GPL-2.0
/*
 * rec_route.c - each record from the BPF rings into the stage of its (trace,
 * CPU): remaps unpacked, PROCESS notes copied to every trace, cgroup ids
 * announced; stages flushed to their files in large batches.
 */
#include <errno.h>
#include <string.h>
#include "bs_codec.h"
#include "recorder.h"

static int trace_of_device(struct rec_recorder *r, uint32_t dev)
{
	int i;

	if (r->traces[r->last].dev == dev)
		return r->last;
	for (i = 0; i < r->ntraces; i++)
		if (r->traces[i].dev == dev)
			return r->last = i;
	return -1;
}

/* Files: the first n records of stage k to its file. */
static void write_stage_front(struct rec_recorder *r, int k, size_t n)
{
	struct rec_stage *st = &r->stages[k];
	size_t bytes = rec_stage_front_bytes(st, n);

	rec_sink_write(r->sinks[k], st->buf, bytes);
	r->flushed[k] += bytes;
	rec_stage_drop_front(st, n);
}

/* Stage one record of trace i from CPU `cpu`. */
static int add_record(struct rec_recorder *r, int i, int cpu, const struct bs_trace *t,
		      const void *pdu)
{
	int k = i * r->ncpus + cpu;
	struct rec_stage *st = &r->stages[k];

	if (!r->stream && st->n > STAGE_KEEP &&
	    st->len + bs_native_size(t) > STAGE_WRITE_BYTES)
		write_stage_front(r, k, st->n - STAGE_KEEP);
	return rec_stage_add(st, t, pdu);
}

/*
 * A remap with a cgroup id has a 24-byte PDU, more than a ring slot holds:
 * the BPF side leaves out device_to (always the trace's whole disk) and
 * passes device_from in the cpu field (bpf/blkevent.bpf.h: fill_pdu()).
 */
static const struct bs_trace *unpack_remap(struct rec_recorder *r, int cpu,
					   const struct bs_trace *t, size_t *size, void *buf)
{
	const uint8_t *pdu = bs_native_pdu(t);
	uint8_t payload[sizeof(struct bs_trace_remap)], newpdu[BS_CGROUP_LEN + sizeof(payload)];
	struct bs_trace out = *t;
	struct bs_remap rm;
	int i;

	if (!(t->action & BS_TA_CGROUP) || (t->action & 0xff) != BS_TA_REMAP ||
	    t->pdu_len != BS_CGROUP_LEN + sizeof(payload) || *size < bs_native_record_size(16))
		return t;
	i = trace_of_device(r, t->device);
	if (i < 0)
		return t;
	rm.device_from = t->cpu;
	rm.device_to = r->traces[i].disk;
	rm.sector_from = bs_get_be64(pdu + BS_CGROUP_LEN);	/* the slot keeps it big-endian */
	bs_encode_remap(payload, &rm);
	out.cpu = cpu;
	out.pdu_len = (uint16_t)bs_native_put_cgroup_pdu(newpdu, bs_cgroup_id(t, pdu, false),
							 payload, sizeof(payload));
	*size = bs_native_put(buf, &out, newpdu);
	return buf;
}

/* --cgroup-ids: the note naming a cgroup before its first record in trace i's CPU file. */
static int announce_cgroup(struct rec_recorder *r, int i, int cpu, const struct bs_trace *t)
{
	uint8_t note[BS_CGROUP_NOTE_MAX];
	struct bs_trace h;
	uint64_t id;
	int n;

	if (!r->cgroup_ids || !(t->action & BS_TA_CGROUP) || t->pdu_len < BS_CGROUP_LEN)
		return 0;
	id = bs_cgroup_id(t, bs_native_pdu(t), false);
	n = rec_cgroup_note(&r->cg, id, i, (uint32_t)cpu, t, note);
	if (n <= 0)
		return n;
	bs_native_peek(note, (size_t)n, &h);
	return add_record(r, i, cpu, &h, bs_native_pdu(note));
}

/* Ring callback: one complete record from CPU `cpu`. */
int rec_route_record(void *ctx, int cpu, const void *data, size_t size)
{
	struct rec_recorder *r = ctx;
	const struct bs_trace *t = data;
	_Alignas(struct bs_trace) uint8_t remap[BS_NATIVE_CGROUP_REMAP_SIZE];
	int i;

	if (size >= bs_native_record_size(0) && r->cgroup_ids)
		t = unpack_remap(r, cpu, t, &size, remap);

	if (!bs_native_whole_v7(t, size) || cpu >= r->ncpus) {
		r->foreign++;
		return 0;
	}
	if (t->action == BS_NOTE_PROCESS) {
		/* trace_note_tsk() announces a task to every running trace */
		for (i = 0; i < r->ntraces; i++) {
			struct bs_trace note = *t;

			note.device = r->traces[i].dev;
			if (add_record(r, i, cpu, &note, bs_native_pdu(t)) < 0)
				return -ENOMEM;
		}
		return 0;
	}
	i = trace_of_device(r, t->device);
	if (i < 0) {
		r->foreign++;
		return 0;
	}
	if (announce_cgroup(r, i, cpu, t) < 0)
		return -ENOMEM;
	return add_record(r, i, cpu, t, bs_native_pdu(t)) < 0 ? -ENOMEM : 0;
}

/* Ring callback of --files/--stacks: an attribution slot, after its Q (rec_attr.c). */
int rec_route_attr(void *ctx, int cpu, const struct br_attr_slot *s)
{
	struct rec_recorder *r = ctx;
	int i = trace_of_device(r, s->device);
	uint64_t sector = 0;

	if (i < 0 || cpu >= r->ncpus || !r->attr) {
		r->foreign++;
		return 0;
	}
	rec_stage_sector_at(&r->stages[i * r->ncpus + cpu], s->time, &sector);
	return rec_attr_slot(r->attr, i, cpu, s, sector) < 0 ? -ENOMEM : 0;
}

/* Files: each stage to its own file (blkparse merges the files by time). */
void rec_flush_stages(struct rec_recorder *r, bool force)
{
	int i;

	for (i = 0; i < r->ntraces * r->ncpus; i++) {
		struct rec_stage *st = &r->stages[i];

		if (!st->len || (!force && st->len < FLUSH_BYTES))
			continue;
		write_stage_front(r, i, st->n);
	}
}
