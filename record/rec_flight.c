// SPDX-License-Identifier: GPL-2.0
/*
 * rec_flight.c - the flight recorder (record --ring SIZE --trigger SPEC):
 * always recording into a bounded history, writing only the window around
 * a trigger.
 *
 * The per-CPU stages are merged by time (rec_stream.c) and handed here instead
 * of to a sink.  Each event is checked against the triggers (rec_trigger.c)
 * and kept in the history (rec_history.c); the kernel's PROCESS notes feed the
 * pid -> name table (rec_pidcomm.c); other notes are made again per snapshot.
 * A trigger opens a snapshot (rec_snapshot.c) whose window is everything the
 * history holds plus --after; triggers inside the window belong to it.
 * When it is written the recorder re-arms after --hold-off.  At most
 * --max-snapshots (then the recorder stops), at most --budget bytes of
 * snapshots on disk (the oldest of this run are removed to make room).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bs_arg.h"
#include "bs_codec.h"
#include "bs_outfile.h"
#include "record.h"

#define STEP_BYTES	(8u << 20)	/* snapshot bytes written per loop pass, at most */
#define IO_CHUNKS	8		/* 1 MiB write buffers for snapshots */

struct done_snap {
	char name[NAME_MAX + 1];
	uint64_t bytes;
};

struct rec_flight {
	struct rec_flight_opts o;
	const struct rec_trace *traces;
	int ntraces, ncpus, last;
	struct rec_history *hist;
	struct rec_trig_eval *eval;
	struct rec_pidcomm *pids;
	struct rec_host host;
	struct rec_snap_cfg cfg;
	struct rec_snapshot *snap;	/* the window being written */
	uint64_t holdoff_until;
	/* a trigger after an open window's end, opened when that one is done */
	bool queued;
	struct bs_trigger_note queued_note;
	uint64_t queued_time;
	uint32_t queued_dev, queued_cpu, queued_pid;
	/* snapshots on disk, oldest first (the budget) */
	struct done_snap *done;
	size_t ndone, done_cap;
	uint64_t used;
	unsigned int nsnaps;
	uint64_t fired, in_window, held_off, over_max, failed, removed;
};

/* ------------------------------------------------------------------ */

/* A value bs_arg refused: its line, as this file tells its other errors. */
static int bad_value(const char *prog, const struct bs_err *err)
{
	fprintf(stderr, "%s: %s\n", prog, err->text);
	return -1;
}

int rec_flight_opt(struct rec_flight_opts *o, int c, const char *arg)
{
	const char *prog = "blkscope record";
	struct bs_err err;
	char why[160];
	uint64_t n;

	switch (c) {
	case REC_OPT_RING:
		if (bs_arg_size(prog, "--ring", arg, 1u << 20, 1ull << 40, &o->ring, &err))
			return bad_value(prog, &err);
		break;
	case REC_OPT_RING_ZSTD:
		o->ring_zstd = 1;
		if (arg && bs_arg_uint(prog, "--ring-zstd", arg, 1, 19, &n, &err))
			return bad_value(prog, &err);
		if (arg)
			o->ring_zstd = (int)n;
#ifndef HAVE_ZSTD
		fprintf(stderr, "%s: built without libzstd; --ring-zstd is unavailable\n", prog);
		return -1;
#endif
		break;
	case REC_OPT_TRIGGER:
		if (o->ntrig == REC_TRIGGERS_MAX) {
			fprintf(stderr, "%s: at most %d --trigger\n", prog, REC_TRIGGERS_MAX);
			return -1;
		}
		if (rec_trigger_parse(arg, &o->trig[o->ntrig], why, sizeof(why)) < 0) {
			fprintf(stderr, "%s: --trigger '%s': %s; try '%s --help'\n", prog, arg, why,
				prog);
			return -1;
		}
		o->ntrig++;
		break;
	case REC_OPT_AFTER:
		if (bs_arg_duration(prog, "--after", arg, 0, 3600e9, &o->after_ns, &err))
			return bad_value(prog, &err);
		break;
	case REC_OPT_HOLDOFF:
		if (bs_arg_duration(prog, "--hold-off", arg, 0, 86400e9, &o->holdoff_ns, &err))
			return bad_value(prog, &err);
		break;
	case REC_OPT_MAX_SNAPSHOTS:
		if (bs_arg_uint(prog, "--max-snapshots", arg, 1, 1000000, &n, &err))
			return bad_value(prog, &err);
		o->max_snapshots = (unsigned int)n;
		break;
	case REC_OPT_BUDGET:
		if (bs_arg_size(prog, "--budget", arg, 1u << 20, 1ull << 50, &o->budget, &err))
			return bad_value(prog, &err);
		break;
	case REC_OPT_DUMP_ON_EXIT:
		o->dump_on_exit = true;
		break;
	default:
		return 1;
	}
	return 0;
}

void rec_flight_defaults(struct rec_flight_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->after_ns = REC_AFTER_DEFAULT_NS;
}

/* The events trigger i needs (--events must keep them). */
static uint32_t needs(const struct rec_trigger *t)
{
	if (t->kind == BS_TRIGGER_ERROR)
		return REC_EV_C;
	if (t->kind != BS_TRIGGER_LATENCY)
		return 0;
	return t->metric == REC_D2C ? REC_EV_D | REC_EV_C :
	       t->metric == REC_Q2C ? REC_EV_Q | REC_EV_C : REC_EV_Q | REC_EV_D;
}

int rec_flight_check(struct rec_flight_opts *o, const struct rec_trace *traces, int ntraces,
		     uint32_t events)
{
	int i;

	for (i = 0; i < o->ntrig && events; i++)
		if ((needs(&o->trig[i]) & events) != needs(&o->trig[i])) {
			fprintf(stderr,
				"blkscope record: --trigger '%s' needs events that --events leaves "
				"out\n",
				o->trig[i].expr);
			return -1;
		}

	if (!o->ring) {
		if (o->ntrig || o->ring_zstd || o->max_snapshots || o->budget || o->dump_on_exit) {
			fprintf(stderr, "blkscope record: --trigger, --ring-zstd, --max-snapshots, "
				"--budget and --dump-on-exit need --ring SIZE\n");
			return -1;
		}
		return 0;
	}
	if (!o->ntrig && !o->dump_on_exit) {
		fprintf(stderr, "blkscope record: --ring records into memory and writes only "
				"around a trigger: give --trigger (e.g. 'D2C>100ms', signal) or "
				"--dump-on-exit\n");
		return -1;
	}
	for (i = 0; i < o->ntrig; i++)
		if (rec_trigger_resolve(&o->trig[i], traces, ntraces) < 0) {
			fprintf(stderr,
				"blkscope record: --trigger '%s': %s is not a traced device\n",
				o->trig[i].expr, o->trig[i].dev);
			return -1;
		}
	if (!o->budget)
		o->budget = o->ring * REC_BUDGET_RINGS;
	return 0;
}

bool rec_flight_has_signal(const struct rec_flight_opts *o)
{
	int i;

	for (i = 0; i < o->ntrig; i++)
		if (o->trig[i].kind == BS_TRIGGER_SIGNAL)
			return true;
	return false;
}

/* ------------------------------------------------------------------ */

struct rec_flight *rec_flight_new(const struct rec_flight_opts *o, const struct rec_snap_cfg *cfg)
{
	struct rec_flight *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->o = *o;
	f->cfg = *cfg;
	f->traces = cfg->traces;
	f->ntraces = cfg->ntraces;
	f->ncpus = cfg->ncpus;
	rec_host_read(&f->host);
	f->cfg.host = &f->host;
	f->hist = rec_history_new(o->ring, o->ring_zstd);
	f->pids = rec_pidcomm_new(REC_PIDS_MAX);
	f->eval = rec_trig_eval_new(f->o.trig, f->o.ntrig, f->ntraces, f->ncpus);
	f->cfg.pids = f->pids;
	if (!f->hist || !f->pids || !f->eval) {
		fprintf(stderr, "blkscope record: cannot set up a %llu MiB history\n",
			(unsigned long long)(o->ring >> 20));
		rec_flight_free(f);
		return NULL;
	}
	return f;
}

void rec_flight_free(struct rec_flight *f)
{
	if (!f)
		return;
	rec_snapshot_free(f->snap, false);
	rec_history_free(f->hist);
	rec_pidcomm_free(f->pids);
	rec_trig_eval_free(f->eval);
	free(f->done);
	free(f);
}

bool rec_flight_busy(const struct rec_flight *f)
{
	return f->snap || f->queued;
}

static int trace_of(struct rec_flight *f, uint32_t dev)
{
	int i;

	if (f->traces[f->last].dev == dev)
		return f->last;
	for (i = 0; i < f->ntraces; i++)
		if (f->traces[i].dev == dev)
			return f->last = i;
	return -1;
}

static void say_fired(const struct bs_trigger_note *n)
{
	char what[160] = "";

	if (n->kind == BS_TRIGGER_LATENCY)
		snprintf(what, sizeof(what), ": %.3f ms, %u,%u sector %llu, %u bytes, %s",
			 n->latency / 1e6, BS_DEV_MAJOR(n->device), BS_DEV_MINOR(n->device),
			 (unsigned long long)n->sector, n->bytes, n->rwbs);
	else if (n->kind == BS_TRIGGER_ERROR)
		snprintf(what, sizeof(what), ": error %d, %u,%u sector %llu, %s", (int16_t)n->error,
			 BS_DEV_MAJOR(n->device), BS_DEV_MINOR(n->device),
			 (unsigned long long)n->sector, n->rwbs);
	else if (n->kind == BS_TRIGGER_DROP)
		snprintf(what, sizeof(what), ": %llu events lost on %u,%u",
			 (unsigned long long)n->lost, BS_DEV_MAJOR(n->device),
			 BS_DEV_MINOR(n->device));
	else if (n->kind == BS_TRIGGER_SIGNAL && n->sender)
		snprintf(what, sizeof(what), " from pid %u", n->sender);
	fprintf(stderr, "blkscope record: trigger %s fired%s\n", n->expr, what);
}

/* ------------------------------------------------------------------ */
/* The disk budget: this run's snapshots, oldest removed first. */

static void remove_oldest(struct rec_flight *f)
{
	struct done_snap *d = &f->done[0];

	if (rec_snapshot_remove(f->cfg.rootfd, d->name) < 0)
		fprintf(stderr, "blkscope record: could not remove snapshot %s/%s (budget): %s\n",
			f->cfg.dir, d->name, strerror(errno));
	else
		fprintf(stderr, "blkscope record: removed snapshot %s/%s: --budget %llu MiB\n",
			f->cfg.dir, d->name, (unsigned long long)(f->o.budget >> 20));
	f->used -= d->bytes;
	f->removed++;
	memmove(f->done, f->done + 1, (f->ndone - 1) * sizeof(*f->done));
	f->ndone--;
}

/* Room for `need` more bytes: remove old snapshots; false if it cannot be had. */
static bool make_room(struct rec_flight *f, uint64_t need)
{
	while (f->used + need > f->o.budget && f->ndone)
		remove_oldest(f);
	return f->used + need <= f->o.budget;
}

static void remember(struct rec_flight *f, const char *name, uint64_t bytes)
{
	if (f->cfg.stream)
		return;
	if (f->ndone == f->done_cap) {
		size_t cap = f->done_cap ? f->done_cap * 2 : 16;
		struct done_snap *p = realloc(f->done, cap * sizeof(*p));

		if (!p)
			return;		/* forgotten: never removed for the budget */
		f->done = p;
		f->done_cap = cap;
	}
	snprintf(f->done[f->ndone].name, sizeof(f->done[0].name), "%s", name);
	f->done[f->ndone++].bytes = bytes;
	f->used += bytes;
}

/* ------------------------------------------------------------------ */

static void open_snapshot(struct rec_flight *f, const struct bs_trigger_note *n, uint64_t time,
			  uint32_t dev, uint32_t cpu, uint32_t pid)
{
	const struct rec_history_stats *st = rec_history_stats(f->hist);

	say_fired(n);
	make_room(f, st->raw);	/* what the history would write, at least */
	f->snap = rec_snapshot_open(&f->cfg, f->hist, n, time, dev, cpu, pid, time + f->o.after_ns);
	if (!f->snap) {
		f->failed++;
		f->holdoff_until = time + f->o.after_ns + f->o.holdoff_ns;
		return;
	}
	fprintf(stderr,
		"blkscope record: writing snapshot %s/%s (%.1f s of history, until %.1f s after "
		"the trigger)\n",
		f->cfg.dir, f->cfg.stream ? "<stdout>" : rec_snapshot_name(f->snap),
		st->t_last > st->t_first ? (st->t_last - st->t_first) / 1e9 : 0.0,
		f->o.after_ns / 1e9);
}

/*
 * A trigger fired at `time` (device, cpu, pid of the event that fired it): true if it is in the
 * snapshot being written now.
 */
static bool fire(struct rec_flight *f, const struct bs_trigger_note *n, uint64_t time, uint32_t dev,
		 uint32_t cpu, uint32_t pid)
{
	f->fired++;
	if (f->snap && time <= rec_snapshot_window_end(f->snap)) {
		rec_snapshot_add_trigger(f->snap, n, time, dev, cpu, pid);
		f->in_window++;
		return true;
	}
	if (f->o.max_snapshots && f->nsnaps + (f->snap ? 1 : 0) >= f->o.max_snapshots) {
		f->over_max++;
		return false;
	}
	if (time < f->holdoff_until ||
	    (f->snap && time < rec_snapshot_window_end(f->snap) + f->o.holdoff_ns)) {
		f->held_off++;
		return false;
	}
	if (f->snap) {	/* after this window: opened once it is written */
		if (f->queued) {
			f->held_off++;
			return false;
		}
		f->queued = true;
		f->queued_note = *n;
		f->queued_time = time;
		f->queued_dev = dev;
		f->queued_cpu = cpu;
		f->queued_pid = pid;
		return false;
	}
	open_snapshot(f, n, time, dev, cpu, pid);
	return f->snap != NULL;
}

int rec_flight_ingest(void *ctx, const uint8_t *data, size_t len)
{
	struct rec_flight *f = ctx;
	size_t off = 0;

	for (;;) {
		struct bs_trigger_note n;
		struct bs_trace t;
		size_t size = bs_native_peek(data + off, len - off, &t);
		int i;

		if (!size || off + size > len)
			break;
		if (bs_is_note(t.action)) {	/* names kept; the other notes are made again */
			if (t.action == BS_NOTE_PROCESS && t.pdu_len >= BS_COMM_LEN)
				rec_pidcomm_set(f->pids, t.pid,
						(const char *)bs_native_pdu(data + off));
			off += size;
			continue;
		}
		i = trace_of(f, t.device);
		if (i >= 0 && (int)t.cpu < f->ncpus) {
			if (rec_history_add(f->hist, data + off, size, t.time) < 0)
				return -1;
			if (f->eval->on_events && rec_trig_event(f->eval, i, &t, &n) >= 0)
				fire(f, &n, t.time, t.device, t.cpu, t.pid);
		}
		off += size;
	}
	return 0;
}

/* SIGUSR1 (sender: its pid) or the exit dump, at `now`, to every traced device. */
static void fire_now(struct rec_flight *f, enum bs_trigger_kind kind, uint32_t sender, uint64_t now)
{
	struct bs_trigger_note n = { .kind = kind, .sender = sender };
	int cpu = sched_getcpu();

	snprintf(n.expr, sizeof(n.expr), "%s", kind == BS_TRIGGER_SIGNAL ? "signal" : "exit");
	if (cpu < 0 || cpu >= f->ncpus)
		cpu = 0;
	/* the other devices' files name it too */
	if (fire(f, &n, now, f->traces[0].dev, (uint32_t)cpu, 0) && f->ntraces > 1) {
		int i;

		for (i = 1; i < f->ntraces; i++)
			rec_snapshot_add_trigger(f->snap, &n, now, f->traces[i].dev, (uint32_t)cpu,
						 0);
	}
}

void rec_flight_signal(struct rec_flight *f, uint32_t sender, uint64_t now)
{
	if (!rec_flight_has_signal(&f->o)) {
		fprintf(stderr, "blkscope record: SIGUSR1 ignored: no --trigger signal\n");
		return;
	}
	fire_now(f, BS_TRIGGER_SIGNAL, sender, now);
}

/* ------------------------------------------------------------------ */

static void close_snapshot(struct rec_flight *f, uint64_t now, bool failed)
{
	struct rec_snap_summary sum;
	uint64_t end = rec_snapshot_window_end(f->snap);
	const char *name = f->cfg.stream ? "<stdout>" : rec_snapshot_name(f->snap);
	int err = rec_snapshot_close(f->snap, now);

	rec_io_reap(f->cfg.io, true);
	rec_snapshot_summary(f->snap, &sum);
	if ((failed || err < 0) && !sum.written && !f->cfg.stream) {
		fprintf(stderr,
			"blkscope record: snapshot %s/%s failed before anything was written; "
			"removed\n",
			f->cfg.dir, name);
		rec_snapshot_remove(f->cfg.rootfd, name);
		f->failed++;
		rec_io_clear_error(f->cfg.io);
		f->holdoff_until = end + f->o.holdoff_ns;
		rec_snapshot_free(f->snap, false);
		f->snap = NULL;
		return;
	}
	if (failed || err < 0) {
		fprintf(stderr,
			"blkscope record: snapshot %s/%s is cut short by a write error: every file "
			"is valid up to its last whole record (%llu KiB written)\n",
			f->cfg.dir, name, (unsigned long long)(sum.written >> 10));
		f->failed++;
		rec_io_clear_error(f->cfg.io);
	} else {
		fprintf(stderr, "blkscope record: snapshot %s/%s written: %llu events, %llu KiB, "
			"%llu triggers, %llu events lost in the window%s\n", f->cfg.dir, name,
			(unsigned long long)sum.events, (unsigned long long)(sum.written >> 10),
			(unsigned long long)sum.triggers, (unsigned long long)sum.gaps,
			sum.lost ? " (some evicted from the history while it was written)" : "");
	}
	remember(f, name, sum.written);
	f->nsnaps++;
	f->holdoff_until = end + f->o.holdoff_ns;
	rec_snapshot_free(f->snap, false);
	f->snap = NULL;
}

int rec_flight_step(struct rec_flight *f, uint64_t complete_upto, uint64_t now)
{
	int r;

	rec_io_reap(f->cfg.io, false);
	if (!f->snap && f->queued) {
		f->queued = false;
		if (f->queued_time >= f->holdoff_until)
			open_snapshot(f, &f->queued_note, f->queued_time, f->queued_dev,
				      f->queued_cpu, f->queued_pid);
		else
			f->held_off++;
	}
	if (!f->snap)
		return f->o.max_snapshots && f->nsnaps >= f->o.max_snapshots;
	r = rec_snapshot_step(f->snap, f->hist, complete_upto, STEP_BYTES);
	if (r == 0) {
		struct rec_snap_summary sum;

		rec_snapshot_summary(f->snap, &sum);
		if (make_room(f, sum.bytes))
			return 0;
		fprintf(stderr, "blkscope record: the snapshot reached --budget %llu MiB\n",
			(unsigned long long)(f->o.budget >> 20));
	}
	close_snapshot(f, now, r < 0);
	return f->o.max_snapshots && f->nsnaps >= f->o.max_snapshots;
}

/* At the stop: the open window out as far as it goes, or the exit dump. */
void rec_flight_stop(struct rec_flight *f, uint64_t now)
{
	if (!f->snap && f->o.dump_on_exit &&
	    !(f->o.max_snapshots && f->nsnaps >= f->o.max_snapshots)) {
		uint64_t after = f->o.after_ns;

		f->o.after_ns = 0;
		f->holdoff_until = 0;
		fire_now(f, BS_TRIGGER_EXIT, 0, now);
		f->o.after_ns = after;
	}
	f->queued = false;
	while (f->snap) {
		int r = rec_snapshot_step(f->snap, f->hist, UINT64_MAX, STEP_BYTES);

		if (r != 0) {
			close_snapshot(f, now, r < 0);
			break;
		}
		rec_io_reap(f->cfg.io, true);	/* the stop may wait for the disk */
	}
}

void rec_flight_report(struct rec_flight *f)
{
	const struct rec_history_stats *st = rec_history_stats(f->hist);

	fprintf(stderr,
		"Flight recorder: %u snapshots, %llu triggers fired (%llu inside a window, %llu "
		"held off, %llu over --max-snapshots), %llu failed, %llu removed for the budget\n",
		f->nsnaps, (unsigned long long)f->fired, (unsigned long long)f->in_window,
		(unsigned long long)f->held_off, (unsigned long long)f->over_max,
		(unsigned long long)f->failed, (unsigned long long)f->removed);
	fprintf(stderr, "History: %llu records, %.1f s, %llu KiB in memory (--ring %llu KiB, and "
		"the open block)", (unsigned long long)st->records,
		st->t_last > st->t_first ? (st->t_last - st->t_first) / 1e9 : 0.0,
		(unsigned long long)(st->stored >> 10), (unsigned long long)(f->o.ring >> 10));
	if (st->sealed_stored && f->o.ring_zstd)
		fprintf(stderr, ", zstd %.2fx", (double)st->sealed_raw / st->sealed_stored);
	fprintf(stderr, "\n");
	if (f->eval->inflight && rec_inflight_evicted(f->eval->inflight))
		fprintf(stderr, "blkscope record: %llu I/Os were forgotten by the latency triggers "
			"(more than %u in flight, or their completion was not recorded)\n",
			(unsigned long long)rec_inflight_evicted(f->eval->inflight), 1u << 15);
	if (rec_pidcomm_forgotten(f->pids))
		fprintf(stderr,
			"blkscope record: %llu task names were forgotten (more than %u tasks)\n",
			(unsigned long long)rec_pidcomm_forgotten(f->pids), REC_PIDS_MAX);
}
