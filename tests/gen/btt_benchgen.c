// SPDX-License-Identifier: GPL-2.0
/*
 * bs-btt-benchgen - a realistic block workload as blktrace per-CPU files,
 * for benchmarking the btt engine: several processes issue sequential
 * runs and random IOs; consecutive bios back-merge into one request
 * whose D and C cover them all (as the kernel traces it), up to 32
 * requests are in flight, plugs and unplugs wrap batches.
 *
 *   bs-btt-benchgen -n 10000000 -o /dev/shm/bench    # ~10M events
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_codec.h"
#include "bs_defs.h"
#include "bs_writer.h"

#define NCPUS 2
#define MAX_INFLIGHT 32

struct req {
	uint64_t sector;
	uint32_t bytes;
	uint32_t action;
	uint32_t pid;
	int cpu;
	uint64_t done_at;
};

static struct bs_writer out[NCPUS];
static uint32_t seqs[NCPUS];
static uint64_t now, nevents, rng = 88172645463325252ull;
static const uint32_t dev = BS_MKDEV(8, 0);

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void emit(int cpu, uint32_t action, uint64_t sector, uint32_t bytes, uint32_t pid,
		 const void *pdu, uint16_t pdu_len)
{
	struct bs_trace t = {
		.magic = BS_TRACE_MAGIC_V7,
		.time = now,
		.sector = sector,
		.bytes = bytes,
		.action = action,
		.pid = pid,
		.device = dev,
		.cpu = (uint32_t)cpu,
		.pdu_len = pdu_len,
	};

	if (!bs_is_note(action))
		t.sequence = ++seqs[cpu];
	if (bs_writer_put(&out[cpu], &t, pdu)) {
		fprintf(stderr, "bs-btt-benchgen: write: %s\n", strerror(out[cpu].error));
		exit(1);
	}
	nevents++;
	now += 200 + rnd() % 1800;
}

static void complete(struct req *r)
{
	emit(r->cpu, BS_ACT_COMPLETE | (r->action & ~0xffffu) | BS_TC_ACT(BS_TC_FS), r->sector,
	     r->bytes, 0, NULL, 0);
}

int main(int argc, char **argv)
{
	static const char *const comms[] = { "fio", "postgres", "kworker/0:1H", "dd" };
	struct req inflight[MAX_INFLIGHT];
	uint64_t target = 1000000, stream_pos[4] = { 2048, 1 << 20, 1 << 24, 1 << 28 };
	const char *base = "bench";
	int ninflight = 0, c, i;

	while ((c = getopt(argc, argv, "n:o:h")) != -1) {
		switch (c) {
		case 'n':
			target = strtoull(optarg, NULL, 0);
			break;
		case 'o':
			base = optarg;
			break;
		default:
			fprintf(stderr, "Usage: bs-btt-benchgen [-n EVENTS] [-o BASE]\n");
			return c == 'h' ? 0 : 1;
		}
	}
	for (i = 0; i < NCPUS; i++) {
		char path[4096];
		int fd;

		bs_percpu_path(path, sizeof(path), NULL, base, i);
		fd = bs_create_output(path);
		if (fd < 0 || bs_writer_init(&out[i], fd, path)) {
			perror(path);
			return 1;
		}
	}
	for (i = 0; i < 4; i++) {
		char comm[BS_COMM_LEN] = { 0 };

		memcpy(comm, comms[i], strlen(comms[i]));
		emit(i % NCPUS, BS_NOTE_PROCESS, 0, 0, 1000 + i, comm, sizeof(comm));
	}
	while (nevents < target) {
		int who = rnd() % 4, cpu = who % NCPUS, nbios = 1 + rnd() % 3, b;
		uint32_t pid = 1000 + who;
		uint32_t rw = (rnd() % 3) ? BS_TC_READ : (BS_TC_WRITE | BS_TC_SYNC);
		uint32_t bio = (uint32_t)(8 << (rnd() % 4)) * 512;
		struct req r;

		if (rnd() % 4 == 0)	/* random IO; else continue the process's stream */
			stream_pos[who] = (rnd() % (1ull << 30)) & ~7ull;
		r.sector = stream_pos[who];
		r.bytes = 0;
		r.action = BS_TC_ACT(rw);
		r.pid = pid;
		r.cpu = cpu;
		emit(cpu, BS_ACT_PLUG | BS_TC_ACT(BS_TC_READ), 0, 0, pid, NULL, 0);
		for (b = 0; b < nbios; b++) {
			uint64_t s = r.sector + (r.bytes >> 9);

			emit(cpu, BS_ACT_QUEUE | r.action, s, bio, pid, NULL, 0);
			if (b == 0)
				emit(cpu, BS_ACT_GETRQ | r.action, s, bio, pid, NULL, 0);
			else
				emit(cpu, BS_ACT_BACKMERGE | r.action, s, bio, pid, NULL, 0);
			r.bytes += bio;
		}
		{
			uint8_t depth[8];

			bs_put_be64(depth, 1);
			emit(cpu, BS_ACT_UNPLUG_IO | BS_TC_ACT(BS_TC_READ), 0, 0, pid, depth, 8);
		}
		emit(cpu, BS_ACT_INSERT | r.action | BS_TC_ACT(BS_TC_FS), r.sector, r.bytes, pid, NULL, 0);
		emit(cpu, BS_ACT_ISSUE | r.action | BS_TC_ACT(BS_TC_FS), r.sector, r.bytes, pid, NULL, 0);
		stream_pos[who] = r.sector + (r.bytes >> 9);
		r.done_at = now + 20000 + rnd() % 200000;
		inflight[ninflight++] = r;
		/* complete whatever is due, and the oldest when the queue is full */
		for (i = 0; i < ninflight;) {
			if (inflight[i].done_at <= now || ninflight == MAX_INFLIGHT) {
				complete(&inflight[i]);
				inflight[i] = inflight[--ninflight];
			} else {
				i++;
			}
		}
	}
	for (i = 0; i < ninflight; i++)
		complete(&inflight[i]);
	for (i = 0; i < NCPUS; i++)
		if (bs_writer_close(&out[i]))
			return 1;
	fprintf(stderr, "bs-btt-benchgen: %llu events\n", (unsigned long long)nevents);
	return 0;
}
