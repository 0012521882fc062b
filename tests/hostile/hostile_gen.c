// SPDX-License-Identifier: GPL-2.0
/*
 * bs-hostile-gen - valid but hostile traces for the btt engine (issue 13):
 * many distinct devices or many distinct process names, the shapes that
 * made per-device state and name lookups blow up.  One per-CPU file
 * (BASE.blktrace.0), times strictly increasing.
 *
 *   bs-hostile-gen -o BASE -d 100000     Q, D, C on each of 100000 devices
 *   bs-hostile-gen -o BASE -p 1000000    1M PROCESS notes, distinct names
 *   bs-hostile-gen -o BASE -p 1000 -r 300 -e 1
 *        1000 pids sharing 300 names; each pid queues one IO (Q, D, C)
 *   bs-hostile-gen -o BASE -d 100000 -c 65536
 *        the devices' records carry CPUs 65535, 65534, ... (one CPU per
 *        device; read as a stream, `-i -`, since a per-CPU file keeps
 *        only its own CPU's records)
 *   bs-hostile-gen -o BASE -n 3000000
 *        3M requests queued and issued (Q, D) on 8,0, never completed
 *   -T   also an IO at time 0 and one at time 2^63 (a span of 292 years)
 *
 * Process names come out in a scrambled order (the report sorts them) and
 * -e K lets every K-th pid issue an IO on device 8,0 (0 = none).
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_defs.h"
#include "bs_outfile.h"
#include "bs_writer.h"

struct gen {
	struct bs_writer w;
	uint64_t now;
	uint32_t seq;
	uint32_t cpu;		/* of the next records */
};

static int emit(struct gen *g, uint32_t action, uint32_t dev, uint64_t sector, uint32_t bytes,
		uint32_t pid, const void *pdu, uint16_t pdu_len)
{
	struct bs_trace t = {
		.magic = BS_TRACE_MAGIC_V7,
		.time = g->now,
		.sector = sector,
		.bytes = bytes,
		.action = action,
		.pid = pid,
		.device = dev,
		.cpu = g->cpu,
		.pdu_len = pdu_len,
	};

	if (!bs_is_note(action))
		t.sequence = ++g->seq;
	g->now += 1000;
	if (bs_writer_put(&g->w, &t, pdu)) {
		fprintf(stderr, "bs-hostile-gen: %s: %s\n", g->w.name, strerror(g->w.error));
		return -1;
	}
	return 0;
}

/* one read of 4 KiB: Q, D, C */
static int one_io(struct gen *g, uint32_t dev, uint64_t sector, uint32_t pid)
{
	uint32_t rd = BS_TC_ACT(BS_TC_READ), fs = BS_TC_ACT(BS_TC_FS);

	if (emit(g, BS_ACT_QUEUE | rd, dev, sector, 4096, pid, NULL, 0) ||
	    emit(g, BS_ACT_ISSUE | rd | fs, dev, sector, 4096, pid, NULL, 0) ||
	    emit(g, BS_ACT_COMPLETE | rd | fs, dev, sector, 4096, 0, NULL, 0))
		return -1;
	return 0;
}

/* device number i: majors 8, 10, 11, ... (never a remapper's 9, 253, 254) */
static uint32_t nth_dev(uint64_t i)
{
	uint32_t major = 8 + (uint32_t)(i >> BS_MINORBITS);

	if (major >= 9)
		major++;
	if (major >= 253)
		major += 2;
	return BS_MKDEV(major, i & ((1u << BS_MINORBITS) - 1));
}

static int gen_devices(struct gen *g, uint64_t n, uint32_t ncpus)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		if (ncpus)
			g->cpu = ncpus - 1 - (uint32_t)(i % ncpus);
		if (one_io(g, nth_dev(i), (i % 4096) * 8, 1))
			return -1;
	}
	g->cpu = 0;
	return 0;
}

/* n requests queued and issued, never completed (distinct sectors) */
static int gen_pending(struct gen *g, uint64_t n)
{
	uint32_t rd = BS_TC_ACT(BS_TC_READ), fs = BS_TC_ACT(BS_TC_FS);
	uint64_t i;

	for (i = 0; i < n; i++)
		if (emit(g, BS_ACT_QUEUE | rd, BS_MKDEV(8, 0), i * 8, 4096, 1 + (uint32_t)(i % 1000), NULL, 0) ||
		    emit(g, BS_ACT_ISSUE | rd | fs, BS_MKDEV(8, 0), i * 8, 4096, 1 + (uint32_t)(i % 1000), NULL, 0))
			return -1;
	return 0;
}

static int gen_procs(struct gen *g, uint64_t n, uint64_t names, uint64_t every)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		char comm[BS_COMM_LEN] = { 0 };
		/* an odd multiplier permutes 32-bit numbers: distinct, unordered */
		uint32_t k = (uint32_t)(i % names) * 2654435761u;

		snprintf(comm, sizeof(comm), "p%08x", k);
		if (emit(g, BS_NOTE_PROCESS, BS_MKDEV(8, 0), 0, 0, (uint32_t)(i + 1), comm,
			 sizeof(comm)))
			return -1;
	}
	for (i = 0; every && i < n; i += every)
		if (one_io(g, BS_MKDEV(8, 0), i * 8, (uint32_t)(i + 1)))
			return -1;
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "Usage: bs-hostile-gen -o BASE (-d NDEVS [-c NCPUS] | -p NPIDS [-r NNAMES] [-e K] |\n"
			"                      -n NPENDING) [-T]\n");
}

int main(int argc, char **argv)
{
	uint64_t ndevs = 0, npids = 0, nnames = 0, every = 0, npending = 0, ncpus = 0;
	bool span = false;
	const char *base = NULL;
	char path[4096];
	struct gen g = { .now = 1000 };
	int c, fd, rc = 0;

	while ((c = getopt(argc, argv, "o:d:p:r:e:c:n:Th")) != -1) {
		switch (c) {
		case 'o': base = optarg; break;
		case 'd': ndevs = strtoull(optarg, NULL, 0); break;
		case 'p': npids = strtoull(optarg, NULL, 0); break;
		case 'r': nnames = strtoull(optarg, NULL, 0); break;
		case 'e': every = strtoull(optarg, NULL, 0); break;
		case 'c': ncpus = strtoull(optarg, NULL, 0); break;
		case 'n': npending = strtoull(optarg, NULL, 0); break;
		case 'T': span = true; break;
		default: usage(); return c == 'h' ? 0 : 2;
		}
	}
	if (!base || !(ndevs || npids || npending) || ndevs > (1ull << 31) || npids >= UINT32_MAX ||
	    ncpus > (1u << 16)) {
		usage();
		return 2;
	}
	if (!nnames || nnames > npids)
		nnames = npids;
	if (bs_percpu_path(path, sizeof(path), NULL, base, 0) < 0 ||
	    (fd = bs_create_output(path, BS_CREATE_REPLACE)) < 0 || bs_writer_init(&g.w, fd, path)) {
		perror(base);
		return 1;
	}
	if (span) {	/* time 0 first (the writer's times need not start at 1000) */
		g.now = 0;
		rc = one_io(&g, BS_MKDEV(8, 0), 0, 1);
	}
	if (!rc)
		rc = ndevs ? gen_devices(&g, ndevs, (uint32_t)ncpus)
		     : npids ? gen_procs(&g, npids, nnames, every) : gen_pending(&g, npending);
	if (!rc && span) {
		g.now = 1ull << 63;
		rc = one_io(&g, BS_MKDEV(8, 0), 8, 1);
	}
	if (bs_writer_close(&g.w) || rc) {
		fprintf(stderr, "bs-hostile-gen: %s: write failed\n", path);
		return 1;
	}
	return 0;
}
