// SPDX-License-Identifier: GPL-2.0
/*
 * rec_notes.c - the notes the recorder adds to the records of the kernel side
 * (encoded by format/bs_notes.h): the TIMESTAMP and host notes that open a
 * recording, the end note that closes each per-CPU file.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include "bs_notes.h"
#include "record.h"

int rec_add_end_notes(struct rec_stage *stages, const struct rec_trace *traces, int ntraces,
		      int ncpus, struct rec_bpf *b, uint64_t time)
{
	uint64_t *drops = calloc(ncpus, sizeof(*drops)), note_drops;
	union {
		struct bs_trace t;	/* aligned for rec_stage_add() */
		uint8_t bytes[BS_END_NOTE_MAX];
	} note;
	int i, cpu;

	if (!drops)
		return -1;
	for (i = 0; i < ntraces; i++) {
		if (rec_bpf_drops(b, i, drops, &note_drops) < 0)
			memset(drops, 0, ncpus * sizeof(*drops));
		for (cpu = 0; cpu < ncpus; cpu++) {
			struct rec_stage *st = &stages[i * ncpus + cpu];
			struct bs_end_note n = { .events = st->events, .drops = drops[cpu] };
			size_t len = bs_end_note_make(note.bytes, sizeof(note), traces[i].dev, cpu,
						      time, &n);

			if (!len || rec_stage_add(st, &note.t, bs_native_pdu(note.bytes)) < 0) {
				free(drops);
				return -1;
			}
		}
	}
	free(drops);
	return 0;
}

void rec_host_read(struct rec_host *h)
{
	struct utsname u;
	FILE *f;

	memset(h, 0, sizeof(*h));
	if (!uname(&u)) {
		snprintf(h->node, sizeof(h->node), "%s", u.nodename);
		snprintf(h->release, sizeof(h->release), "%s", u.release);
	}
	snprintf(h->boot_id, sizeof(h->boot_id), "unknown");
	f = fopen("/proc/sys/kernel/random/boot_id", "re");
	if (f) {
		if (!fgets(h->boot_id, sizeof(h->boot_id), f))
			snprintf(h->boot_id, sizeof(h->boot_id), "unknown");
		h->boot_id[strcspn(h->boot_id, "\n ")] = 0;
		fclose(f);
	}
}

size_t rec_start_notes(void *buf, size_t size, const struct rec_host *h, uint32_t device,
		       uint32_t cpu, uint64_t mono, uint64_t real_ns)
{
	size_t n = bs_timestamp_note_make(buf, size, device, cpu, mono, real_ns / 1000000000ull,
					  (uint32_t)(real_ns % 1000000000ull));

	if (!n || !h->node[0])	/* no identity to give: no host note */
		return n;
	return n + bs_host_note_make((uint8_t *)buf + n, size - n, device, cpu, mono, h->node,
				     h->release, h->boot_id);
}

/* Each record of buf[len] (whole notes) into stage st. */
static int stage_notes(struct rec_stage *st, const uint8_t *buf, size_t len)
{
	size_t off = 0;

	struct bs_trace t;
	size_t size;

	while ((size = bs_native_peek(buf + off, len - off, &t)) != 0) {
		if (rec_stage_add(st, &t, bs_native_pdu(buf + off)) < 0)
			return -1;
		off += size;
	}
	return 0;
}

int rec_add_start_notes(struct rec_stage *stages, const struct rec_trace *traces, int ntraces,
			int ncpus)
{
	uint8_t buf[BS_TIMESTAMP_NOTE_SIZE + BS_HOST_NOTE_MAX];
	struct timespec mono, real;
	struct rec_host h;
	int cpu = sched_getcpu(), i;

	if (cpu < 0 || cpu >= ncpus)
		cpu = 0;
	rec_host_read(&h);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	for (i = 0; i < ntraces; i++) {
		size_t n = rec_start_notes(buf, sizeof(buf), &h, traces[i].dev, cpu,
					   (uint64_t)mono.tv_sec * 1000000000ull + mono.tv_nsec,
					   (uint64_t)real.tv_sec * 1000000000ull + real.tv_nsec);

		if (!n || stage_notes(&stages[i * ncpus + cpu], buf, n) < 0)
			return -1;
	}
	return 0;
}
