// SPDX-License-Identifier: GPL-2.0
/*
 * rec_drain.c - the drain-and-write loop: rings polled and drained, stages
 * flushed or merged into the stream, the flight recorder stepped, until a
 * signal, -w, the command's end or a write error.
 */
#include <stdio.h>
#include <sys/wait.h>
#include "recorder.h"

/* Drain and write until a signal, -w, the command's end or a write error. */
void rec_drain_loop(struct rec_recorder *r, double wait_s)
{
	uint64_t start = rec_now_ns(CLOCK_MONOTONIC), last_flush = start, now;
	uint64_t deadline = wait_s ? start + (uint64_t)(wait_s * 1e9) : 0;

	while (!r->sig->stop) {
		/* a snapshot being written: come back soon for its next part */
		if (rec_bpf_poll(r->bpf, r->flight && rec_flight_busy(r->flight) ? 5 : POLL_MS) <
		    0) {
			fprintf(stderr, "blkscope record: reading the ring buffers failed\n");
			return;
		}
		now = rec_now_ns(CLOCK_MONOTONIC);
		if (r->stream) {
			/* every ring drained after `now`: all complete up to it */
			rec_bpf_drain(r->bpf);
			rec_stream_release(r->merge, now - STREAM_HOLD_NS);
		} else {
			rec_flush_stages(r, now - last_flush >= FLUSH_INTERVAL_NS);
			if (r->attr)
				rec_attr_flush(r->attr, now - last_flush >= FLUSH_INTERVAL_NS ?
					       REC_ATTR_TICK : REC_ATTR_FULL);
		}
		if (now - last_flush >= FLUSH_INTERVAL_NS)
			last_flush = now;
		if (r->flight) {	/* the flight recorder handles its own write errors */
			if (r->sig->usr1) {
				r->sig->usr1 = 0;
				rec_flight_signal(r->flight, (uint32_t)r->sig->usr1_pid, now);
			}
			if (rec_flight_step(r->flight, now - STREAM_HOLD_NS, now) > 0)
				return;		/* --max-snapshots written */
		} else if (rec_io_reap(r->io, false) < 0) {
			r->write_failed = true;
			return;
		}
		if (r->child > 0 && r->sig->child_exited) {
			int wstatus;

			r->sig->child_exited = 0;
			if (waitpid(r->child, &wstatus, WNOHANG) == r->child) {
				r->child_status = rec_child_status(wstatus);
				r->child_done = true;
				return;
			}
		}
		if (deadline && now >= deadline)
			return;
	}
}
