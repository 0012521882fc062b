// SPDX-License-Identifier: GPL-2.0
/*
 * gen-trace - write a synthetic, valid native-order trace stream (the
 * shape of a `blkparse -d` dump) for the tagging tests and benchmark.
 *
 *   tags-gen-trace [-n EVENTS] [-p PIDS] [-u UNNAMED] [-s SEED] OUTPUT
 *
 * A TIMESTAMP note and one PROCESS note per named pid come first, then a
 * MESSAGE note, a plug and an unplug (P, U), then I/Os of 4 KiB, Q G I D C each (5 events), queued every 10 us by a pid
 * picked at random, several in flight, completed by pid 0.  Pids
 * 1000..1000+PIDS-1 are named "proc<k>"; the last UNNAMED of them get no
 * note; pid 1000 is named with a full 16-byte comm (no NUL) and pid 1001
 * shares the command name "worker" with pid 1002.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_defs.h"

static FILE *out;
static uint32_t seq;

static void put(uint32_t action, uint64_t time, uint64_t sector, uint32_t bytes, uint32_t pid,
		const void *pdu, uint16_t pdu_len)
{
	struct bs_trace t = {
		.magic = BS_TRACE_MAGIC_V7, .time = time, .sector = sector, .bytes = bytes,
		.action = action, .pid = pid, .device = BS_MKDEV(7, 0), .cpu = 0, .pdu_len = pdu_len,
	};

	if (!bs_is_note(action))
		t.sequence = ++seq;
	fwrite(&t, sizeof(t), 1, out);
	if (pdu_len)
		fwrite(pdu, pdu_len, 1, out);
}

struct pending { uint64_t time, sector; uint32_t cats; };

#define MAX_INFLIGHT 16

/* Emit the completion due first (pid 0, interrupt context); returns its time. */
static uint64_t complete_oldest(struct pending *v, int *n)
{
	int m = 0, j;
	uint64_t t;

	for (j = 1; j < *n; j++)
		if (v[j].time < v[m].time)
			m = j;
	t = v[m].time;
	put(BS_ACT_COMPLETE | BS_TC_ACT(v[m].cats | BS_TC_FS), t, v[m].sector, 4096, 0, NULL, 0);
	v[m] = v[--*n];
	return t;
}

/* Emit, in time order, every completion due by `now`: the file stays time-sorted. */
static void complete_until(struct pending *v, int *n, uint64_t now)
{
	for (;;) {
		int m = -1, j;

		for (j = 0; j < *n; j++)
			if (v[j].time <= now && (m < 0 || v[j].time < v[m].time))
				m = j;
		if (m < 0)
			return;
		put(BS_ACT_COMPLETE | BS_TC_ACT(v[m].cats | BS_TC_FS), v[m].time, v[m].sector, 4096, 0,
		    NULL, 0);
		v[m] = v[--*n];
	}
}

int main(int argc, char **argv)
{
	unsigned long events = 1000, npids = 4, unnamed = 1, seed = 1;
	struct pending inflight[MAX_INFLIGHT];
	int ninflight = 0, c;
	unsigned long ios, i, k;

	while ((c = getopt(argc, argv, "n:p:u:s:")) != -1) {
		switch (c) {
		case 'n': events = strtoul(optarg, NULL, 0); break;
		case 'p': npids = strtoul(optarg, NULL, 0); break;
		case 'u': unnamed = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		default: goto usage;
		}
	}
	if (optind + 1 != argc || !npids || unnamed > npids)
		goto usage;
	out = fopen(argv[optind], "w");
	if (!out) {
		perror(argv[optind]);
		return 1;
	}
	setvbuf(out, NULL, _IOFBF, 1 << 20);
	srandom(seed);

	uint32_t ts[2] = { 1700000000, 0 };
	put(BS_NOTE_TIMESTAMP, 1000000, 0, 0, 0, ts, sizeof(ts));
	for (k = 0; k + unnamed < npids; k++) {
		char comm[BS_COMM_LEN] = { 0 };

		if (k == 0)
			memcpy(comm, "sixteen-chars-xx", BS_COMM_LEN);
		else if (k == 1 || k == 2)
			strcpy(comm, "worker");
		else
			snprintf(comm, sizeof(comm), "proc%u", (unsigned int)(k % 100000));
		put(BS_NOTE_PROCESS, 1000000, 0, 0, 1000 + k, comm, sizeof(comm));
	}

	/*
	 * A message, a plug and an unplug (with its big-endian depth PDU)
	 * before the I/O.  The message also keeps format/bs_merge_file.c's
	 * PDU arena from being NULL at its first memcpy (UBSan).
	 */
	static const char msg[] = "blkscope tag test";
	uint8_t depth[8] = { 0 };
	put(BS_NOTE_MESSAGE, 1400000, 0, 0, 0, msg, sizeof(msg) - 1);
	put(BS_ACT_PLUG | BS_TC_ACT(BS_TC_READ), 1500000, 0, 0, 1000, NULL, 0);
	put(BS_ACT_UNPLUG_IO | BS_TC_ACT(BS_TC_READ), 1600000, 0, 0, 1000, depth, sizeof(depth));

	ios = events / 5 ? events / 5 : 1;
	for (i = 0; i < ios; i++) {
		uint64_t t = 2000000 + i * 10000, sector = 2048 + (i % 100000) * 8;
		uint32_t pid = 1000 + random() % npids;
		uint32_t rw = (random() & 1) ? BS_TC_WRITE | BS_TC_SYNC : BS_TC_READ;

		if (ninflight == MAX_INFLIGHT)	/* cannot happen at 10 us per Q and <= 40 us latency */
			t = complete_oldest(inflight, &ninflight);
		complete_until(inflight, &ninflight, t);
		put(BS_ACT_QUEUE | BS_TC_ACT(rw), t, sector, 4096, pid, NULL, 0);
		complete_until(inflight, &ninflight, t + 1000);
		put(BS_ACT_GETRQ | BS_TC_ACT(rw), t + 1000, sector, 4096, pid, NULL, 0);
		complete_until(inflight, &ninflight, t + 2000);
		put(BS_ACT_INSERT | BS_TC_ACT(rw | BS_TC_FS), t + 2000, sector, 4096, pid, NULL, 0);
		complete_until(inflight, &ninflight, t + 3000);
		put(BS_ACT_ISSUE | BS_TC_ACT(rw | BS_TC_FS), t + 3000, sector, 4096, pid, NULL, 0);
		inflight[ninflight++] = (struct pending){ t + 25000 + random() % 15000, sector, rw };
	}
	while (ninflight)
		complete_oldest(inflight, &ninflight);
	if (fclose(out) != 0) {
		perror(argv[optind]);
		return 1;
	}
	return 0;
usage:
	fprintf(stderr, "Usage: %s [-n EVENTS] [-p PIDS] [-u UNNAMED] [-s SEED] OUTPUT\n", argv[0]);
	return 2;
}
