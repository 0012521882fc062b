// SPDX-License-Identifier: GPL-2.0
/*
 * rec_stop.c - stopping: the command's I/O let finish, the programs detached,
 * the rings drained, end notes added, everything written and closed, the
 * command ended or waited for.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include "recorder.h"

/* Wait for the command; a second signal while waiting kills it. */
static int wait_child(struct rec_signals *sig, pid_t child, bool terminate)
{
	int wstatus;

	if (terminate)
		kill(child, SIGTERM);
	sig->stop = 0;
	while (waitpid(child, &wstatus, 0) < 0) {
		if (errno != EINTR)
			return 1;
		if (sig->stop)
			kill(child, SIGKILL);
	}
	return rec_child_status(wstatus);
}

/* Requests in flight on the traced disks (/sys/dev/block/M:m/inflight). */
static unsigned long disks_in_flight(const struct rec_recorder *r)
{
	unsigned long total = 0, rd, wr;
	char path[64];
	int i;

	for (i = 0; i < r->ntraces; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/inflight",
			 BS_DEV_MAJOR(r->traces[i].disk), BS_DEV_MINOR(r->traces[i].disk));
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fscanf(f, "%lu %lu", &rd, &wr) == 2)
			total += rd + wr;
		fclose(f);
	}
	return total;
}

/*
 * The command has exited, but its I/O may not have: io_uring tears a ring
 * down asynchronously, so requests it submitted can still be completing.
 * Keep recording until the traced disks are idle (at most a second).
 */
static void wait_disks_idle(struct rec_recorder *r)
{
	uint64_t until = rec_now_ns(CLOCK_MONOTONIC) + IDLE_WAIT_NS;

	while (disks_in_flight(r) && rec_now_ns(CLOCK_MONOTONIC) < until && !r->sig->stop)
		rec_bpf_poll(r->bpf, 5);
}

/* No new events, then everything still in the rings, out to the files. */
void rec_stop(struct rec_recorder *r)
{
	int i;

	if (r->child_done && !r->write_failed)
		wait_disks_idle(r);
	for (i = 0; i < r->ntraces; i++)
		rec_cstat_end(&r->cstat[i], r->bpf, i, &r->traces[i]);
	rec_bpf_detach(r->bpf);
	rec_bpf_drain(r->bpf);
	/* every record is in: each (trace, CPU) file ends with its count */
	if (!r->flight && rec_add_end_notes(r->stages, r->traces, r->ntraces, r->ncpus, r->bpf,
					    rec_now_ns(CLOCK_MONOTONIC)) < 0)
		fprintf(stderr, "blkscope record: out of memory for the end notes\n");
	if (r->flight) {
		rec_stream_flush(r->merge);
		rec_flight_stop(r->flight, rec_now_ns(CLOCK_MONOTONIC));
	} else if (r->stream)
		rec_stream_flush(r->merge);
	else
		rec_flush_stages(r, true);
	/* everything staged, the counters */
	if (r->attr && rec_attr_close(r->attr, r->bpf) < 0)
		r->write_failed = true;
	if (rec_io_reap(r->io, true) < 0)
		r->write_failed = true;
	for (i = 0; i < r->ntraces * r->ncpus; i++) {
		if (!r->sinks[i] || (r->stream && i))
			continue;
		if (rec_sink_close(r->sinks[i]) < 0)
			r->write_failed = true;
	}
	if (r->flight_stdout && rec_sink_close(r->flight_stdout) < 0)
		r->write_failed = true;
	if (r->child > 0 && !r->child_done) {
		if (r->sig->forward)
			kill(r->child, r->sig->forward);
		/* -w or a write error: end the command; a signal already reached it */
		r->child_status = wait_child(r->sig, r->child, !r->sig->stop);
		r->child_done = true;
	}
}
