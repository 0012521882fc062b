// SPDX-License-Identifier: GPL-2.0
/*
 * record_stream_check.c - unit test of record/rec_stream.c, the `-o -` merge:
 * synthetic per-CPU records arrive in drains as the recorder's would (a
 * record is drained after its time), the stream is written through a real
 * sink into a file and read back.  Checks: every record exactly once, the
 * stream in time order, each CPU's sequence rising, PDUs intact; with a
 * tiny stage limit, memory stays bounded and the early releases are
 * counted.  Prints the merge's cost per record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "record.h"
#include "check.h"

#define NCPUS	3

struct gen {
	uint64_t time[NCPUS];
	uint32_t seq[NCPUS];
	unsigned int rnd;
};

static unsigned int next_rand(struct gen *g)
{
	g->rnd = g->rnd * 1103515245u + 12345u;
	return g->rnd >> 8;
}

/* The next record of `cpu`: times rise by 1..1000 ns on CPU 2, by up to
 * 3000 ns on the others; PDU 0, 8 or 16 bytes. */
static void make_record(struct gen *g, int cpu, struct bs_trace *t, uint8_t *pdu)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	g->time[cpu] += 1 + next_rand(g) % (cpu == 2 ? 1000 : 3000);
	t->magic = BS_TRACE_MAGIC_V7;
	t->sequence = ++g->seq[cpu];
	t->time = g->time[cpu];
	t->action = (1u << 16) | 1;
	t->device = 7u << 20;
	t->cpu = cpu;
	t->pdu_len = (next_rand(g) % 3) * 8;
	for (i = 0; i < t->pdu_len; i++)
		pdu[i] = (uint8_t)(t->sequence + i + cpu);
}

struct setup {
	struct rec_stage stages[NCPUS];
	uint64_t flushed[NCPUS];
	struct rec_io *io;
	struct rec_sink *sink;
	struct rec_stream *m;
	FILE *out;
};

static int open_setup(struct setup *s, size_t limit)
{
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < NCPUS; i++)
		if (rec_stage_init(&s->stages[i]) < 0)
			return -1;
	s->out = tmpfile();
	s->io = rec_io_new(64);
	if (!s->out || !s->io)
		return -1;
	s->sink = rec_sink_new(s->io, dup(fileno(s->out)), "<test>", true, 0);
	if (!s->sink)
		return -1;
	s->m = rec_stream_new(s->stages, NCPUS, s->sink, s->flushed, limit);
	return s->m ? 0 : -1;
}

static void close_setup(struct setup *s)
{
	int i;

	rec_stream_free(s->m);
	rec_sink_free(s->sink);
	rec_io_free(s->io);
	for (i = 0; i < NCPUS; i++)
		rec_stage_free(&s->stages[i]);
	fclose(s->out);
}

/* Read the stream back and check it; returns the records read. */
static uint64_t verify(struct setup *s, const char *what, uint64_t expect)
{
	uint32_t last_seq[NCPUS] = { 0 };
	uint64_t n = 0, last_time = 0, bytes = 0, flushed = 0;
	struct bs_trace t;
	uint8_t pdu[64];
	unsigned int i;

	rewind(s->out);
	while (fread(&t, sizeof(t), 1, s->out) == 1) {
		CHECK(t.magic == BS_TRACE_MAGIC_V7 && t.cpu < NCPUS && t.pdu_len <= 16,
		      "%s: damaged record %llu", what, (unsigned long long)n);
		if (t.cpu >= NCPUS || t.pdu_len > 16)
			return n;
		CHECK(fread(pdu, 1, t.pdu_len, s->out) == t.pdu_len, "%s: short PDU", what);
		for (i = 0; i < t.pdu_len; i++)
			CHECK(pdu[i] == (uint8_t)(t.sequence + i + t.cpu),
			      "%s: PDU of cpu %u seq %u", what, t.cpu, t.sequence);
		CHECK(t.time >= last_time, "%s: record %llu out of time order", what,
		      (unsigned long long)n);
		CHECK(t.sequence == last_seq[t.cpu] + 1, "%s: cpu %u seq %u after %u", what, t.cpu,
		      t.sequence, last_seq[t.cpu]);
		last_time = t.time;
		last_seq[t.cpu] = t.sequence;
		bytes += BS_TRACE_SIZE + t.pdu_len;
		n++;
	}
	for (i = 0; i < NCPUS; i++)
		flushed += s->flushed[i];
	CHECK(n == expect, "%s: %llu records read back, %llu written", what,
	      (unsigned long long)n, (unsigned long long)expect);
	CHECK(bytes == flushed, "%s: %llu bytes read back, %llu counted", what,
	      (unsigned long long)bytes, (unsigned long long)flushed);
	return n;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Drains every `step` ns of record time: each drain brings every record
 * stamped before it; the watermark is the drain time minus `watermark_lag`.
 * CPU 2 is busier than the others.
 */
static void run_drains(const char *what, size_t limit, uint64_t watermark_lag, int drains,
		       uint64_t step, bool blocks)
{
	struct setup s;
	struct gen g = { .rnd = 42 };
	struct bs_trace t;
	uint8_t pdu[16];
	uint64_t total = 0, now = 0;
	double merge_s = 0, t0;
	int d, cpu;

	if (open_setup(&s, limit) < 0) {
		CHECK(0, "%s: setup failed", what);
		return;
	}
	for (d = 0; d < drains; d++) {
		now += step;
		for (cpu = 0; cpu < NCPUS; cpu++)
			while (g.time[cpu] + 3000 < now) {
				make_record(&g, cpu, &t, pdu);
				rec_stage_add(&s.stages[cpu], &t, pdu);
				total++;
			}
		t0 = now_s();
		if (blocks)
			for (cpu = 0; cpu < NCPUS; cpu++) {
				struct rec_stage *st = &s.stages[cpu];

				rec_sink_write(s.sink, st->buf, st->len);
				s.flushed[cpu] += st->len;
				rec_stage_reset(st);
			}
		else
			rec_stream_release(s.m, now > watermark_lag ? now - watermark_lag : 0);
		merge_s += now_s() - t0;
		rec_io_reap(s.io, false);
		for (cpu = 0; cpu < NCPUS; cpu++)
			CHECK(s.stages[cpu].len <= limit, "%s: stage %d holds %zu bytes > %zu",
			      what, cpu, s.stages[cpu].len, limit);
	}
	rec_stream_flush(s.m);
	CHECK(rec_sink_close(s.sink) == 0, "%s: sink failed", what);
	if (blocks) {		/* the old way, timed for comparison only */
		printf("%s: %llu records, %.1f ns per record (sink write included)\n", what,
		       (unsigned long long)total, merge_s * 1e9 / total);
		close_setup(&s);
		return;
	}
	verify(&s, what, total);
	if (watermark_lag < now / 2)
		CHECK(rec_stream_early(s.m) == 0, "%s: %llu early releases", what,
		      (unsigned long long)rec_stream_early(s.m));
	else
		CHECK(rec_stream_early(s.m) > 0, "%s: the limit never released early", what);
	printf("%s: %llu records, %llu released early", what, (unsigned long long)total,
	       (unsigned long long)rec_stream_early(s.m));
	printf(", %.1f ns per record (sink write included)", merge_s * 1e9 / total);
	printf("\n");
	close_setup(&s);
}

int main(void)
{
	/* watermark 1 ms behind each drain, as the recorder runs (its drains
	 * are up to 100 ms apart; 2 ms here keeps the file small) */
	run_drains("merged, drains 2 ms", 64u << 20, 1000000, 100, 2000000, false);
	/* drains closer than the hold: records wait several drains */
	run_drains("merged, drains 0.2 ms", 64u << 20, 1000000, 500, 200000, false);
	/* a watermark that never moves: only the limit keeps memory bounded */
	run_drains("stuck watermark", 16u << 10, UINT64_MAX / 2, 200, 200000, false);
	/* per-CPU blocks, the recorder before stream.c: the cost to compare */
	run_drains("per-CPU blocks, drains 2 ms", 64u << 20, 0, 100, 2000000, true);
	if (failures) {
		fprintf(stderr, "record_stream_check: %d failures\n", failures);
		return 1;
	}
	printf("record_stream_check: OK\n");
	return 0;
}
