// SPDX-License-Identifier: GPL-2.0
/*
 * rec_summary.c - the end-of-run summary on stderr: per device and CPU the
 * events, bytes and drops, then what went wrong or was slow.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "recorder.h"

/*
 * Per-device, per-CPU summary (not with --quiet), the files written, the
 * command to run next; returns the total of dropped events.
 */
static uint64_t print_summary(struct rec_recorder *r, struct rec_bpf *b)
{
	uint64_t *drops = calloc(r->ncpus, sizeof(*drops));
	uint64_t all_drops = 0, events[BR_MAX_TRACES];
	bool say = !r->say.quiet;
	int i, cpu;

	if (!drops)
		return 0;
	for (i = 0; i < r->ntraces; i++) {
		uint64_t ev = 0, bytes = 0, dr = 0, note_drops = 0;

		if (rec_bpf_drops(b, i, drops, &note_drops) < 0)
			memset(drops, 0, r->ncpus * sizeof(*drops));
		if (say)
			fprintf(stderr, "=== %s ===\n", r->traces[i].name);
		for (cpu = 0; cpu < r->ncpus; cpu++) {
			int k = i * r->ncpus + cpu;
			uint64_t by = r->flight ? 0 :
				      r->stream ? r->flushed[k] :
						  rec_sink_bytes(r->sinks[k]);

			/* flushed[] counts the v7 records staged; the stream got them as v8 */
			if (r->stream && r->v8)
				by += BS_NATIVE_V8_GROWTH *
				      (r->stages[k].events + r->stages[k].notes);

			if (say && r->flight)	/* nothing written but snapshots (below) */
				fprintf(stderr, "  CPU%3d: %20llu events, %10llu drops\n", cpu,
					(unsigned long long)r->stages[k].events,
					(unsigned long long)drops[cpu]);
			else if (say)
				fprintf(stderr,
					"  CPU%3d: %20llu events, %8llu KiB data, %10llu drops\n",
					cpu, (unsigned long long)r->stages[k].events,
					(unsigned long long)(by + 1023) >> 10,
					(unsigned long long)drops[cpu]);
			ev += r->stages[k].events;
			bytes += by;
			dr += drops[cpu];
		}
		if (say && r->flight)
			fprintf(stderr, "  Total:  %20llu events, %10llu drops\n",
				(unsigned long long)ev, (unsigned long long)dr);
		else if (say)
			fprintf(stderr, "  Total:  %20llu events, %8llu KiB data, %10llu drops\n",
				(unsigned long long)ev, (unsigned long long)(bytes + 1023) >> 10,
				(unsigned long long)dr);
		if (note_drops && say)
			fprintf(stderr, "  (%llu PROCESS %s dropped and retried)\n",
				(unsigned long long)note_drops,
				rec_plural(note_drops, "note", "notes"));
		if (r->cstat[i].checked && r->cstat[i].unrecorded)
			fprintf(stderr, "  Unrecorded: %16llu request %s the disk counted (BPF "
				"programs did not run for them)\n",
				(unsigned long long)r->cstat[i].unrecorded,
				rec_plural(r->cstat[i].unrecorded, "completion", "completions"));
		rec_say_files(&r->say, i, bytes);
		events[i] = ev;
		all_drops += dr;
	}
	free(drops);
	rec_say_next(&r->say, events);
	return all_drops;
}

static double tv_secs(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

void rec_report(struct rec_recorder *r)
{
	uint64_t dropped, misses, runs, run_ns, unrecorded = 0;
	struct rusage ru;
	int i;

	dropped = print_summary(r, r->bpf);
	if (r->attr)
		rec_attr_report(r->attr, stderr);
	if (r->flight)
		rec_flight_report(r->flight);
	if (dropped)
		fprintf(stderr, "You have %llu dropped %s; consider a larger ring buffer (-b)\n",
			(unsigned long long)dropped, rec_plural(dropped, "event", "events"));
	if (rec_io_waits(r->io))
		fprintf(stderr,
			"blkscope record: the output disk did not keep up: the recorder waited "
			"%llu %s for its write queue to drain\n",
			(unsigned long long)rec_io_waits(r->io),
			rec_plural(rec_io_waits(r->io), "time", "times"));
	for (i = 0; i < r->ntraces; i++)
		unrecorded += r->cstat[i].checked ? r->cstat[i].unrecorded : 0;
	if (unrecorded)
		fprintf(stderr,
			"blkscope record: the %s completed %llu %s whose completion (C) was not "
			"recorded: the kernel did not run the BPF program (see docs/record.md, "
			"\"Unrecorded completions\")\n",
			rec_plural(r->ntraces, "disk", "disks"), (unsigned long long)unrecorded,
			rec_plural(unrecorded, "request", "requests"));
	rec_bpf_prog_stats(r->bpf, &misses, &runs, &run_ns);
	if (misses)
		fprintf(stderr,
			"blkscope record: %llu %s not seen: a program was already running on that "
			"CPU (BPF recursion protection)\n",
			(unsigned long long)misses, rec_plural(misses, "event was", "events were"));
	if (runs) {	/* only with sysctl kernel.bpf_stats_enabled=1 */
		fprintf(stderr, "BPF programs: %llu runs, %.0f ns per run\n",
			(unsigned long long)runs, (double)run_ns / runs);
		if (rec_verbose)
			rec_bpf_print_prog_stats(r->bpf, stderr);
	}
	getrusage(RUSAGE_SELF, &ru);
	if (!r->say.quiet)
		fprintf(stderr, "CPU time of the recorder: %ld.%03ld s user, %ld.%03ld s system\n",
		(long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec / 1000,
		(long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec / 1000);
	/* the start-up (mostly the kernel's BPF verifier) apart */
	if (r->attached && !r->say.quiet)
		fprintf(stderr, "CPU time while tracing: %.3f s user, %.3f s system\n",
			tv_secs(&ru.ru_utime) - tv_secs(&r->ru_attached.ru_utime),
			tv_secs(&ru.ru_stime) - tv_secs(&r->ru_attached.ru_stime));
	if (r->foreign)
		fprintf(stderr, "blkscope record: %llu malformed %s ignored\n",
			(unsigned long long)r->foreign,
			rec_plural(r->foreign, "record", "records"));
	if (r->merge && rec_stream_early(r->merge))
		fprintf(stderr,
			"blkscope record: %llu %s to stdout before every CPU was drained up to "
			"their time (a CPU's queue passed %u MiB); blkparse -i - may count skips "
			"that are not in the stream\n",
			(unsigned long long)rec_stream_early(r->merge),
			rec_plural(rec_stream_early(r->merge), "record went", "records went"),
			STREAM_STAGE_LIMIT >> 20);
	if (r->write_failed)
		fprintf(stderr, "blkscope record: stopped after a write error; every file ends at "
				"its last whole record\n");
}
