// SPDX-License-Identifier: GPL-2.0
/*
 * rec_cstat.c - request completions the disk counted, against the C events we
 * recorded: the one loss the BPF side cannot see itself.
 *
 * Why: on some kernels a tracepoint's BPF programs are not run at all while
 * certain tasks are current, in task context and equally in a softirq that
 * interrupted them (seen on the 6.18 test machine: the threads of its PID 1
 * agent; docs/record.md, "Unrecorded completions").  A block completion
 * softirq that lands on such a task is traced by the kernel's own blktrace
 * but never enters our program: no sequence gap, no ring drop, no
 * recursion miss.  The disk's statistics still count the request, so the
 * difference is a measurement, not a guess.
 *
 * How: /sys/dev/block/M:m/stat counts completed requests per direction; it
 * is bumped in __blk_mq_end_request(), after trace_block_rq_complete() fired
 * for the same request.  A snapshot reads the disk's count, then our
 * count, then the disk's again 0.2 ms later, and only counts when the disk's
 * count did not move: then every completion that reached us before our read
 * was in the disk's first count too (tracing and counting one request happen
 * back to back in one softirq, not 0.2 ms apart).  Taken after attaching
 * and before detaching, the two snapshots give, per trace,
 *
 *   unrecorded = disk completions - completions that reached our rings
 *
 * (if positive; a C the ring had no room for is a drop, reported as such),
 * and a lower bound: partial completions and unaccounted requests (passthrough,
 * the flush machinery's own request) add C events the disk does not count.
 * Only blk-mq disks count requests (bio-based ones count bios, and their C
 * come from block_bio_complete), and a trace whose filters can drop a C
 * (action mask, -p, an LBA window, a partition) cannot be compared.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "record.h"

#define CSTAT_TRIES	20
#define CSTAT_SETTLE_NS	200000L		/* between the two disk reads */

/* Completed requests (read + write + discard + flush) of a whole disk. */
static int disk_completed(uint32_t disk, uint64_t *done)
{
	unsigned long long v[17];
	char path[64];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat", BS_DEV_MAJOR(disk),
		 BS_DEV_MINOR(disk));
	f = fopen(path, "re");
	if (!f)
		return -1;
	memset(v, 0, sizeof(v));
	n = fscanf(f, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu "
		   "%llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9], &v[10], &v[11], &v[12], &v[13], &v[14], &v[15], &v[16]);
	fclose(f);
	if (n < 11)
		return -1;
	/* fields 1, 5, 12 and 16: read, write, discard, flush I/Os completed */
	*done = v[0] + v[4] + v[11] + v[15];
	return 0;
}

static bool disk_is_mq(uint32_t disk)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/mq", BS_DEV_MAJOR(disk),
		 BS_DEV_MINOR(disk));
	return access(path, F_OK) == 0;
}

/* One consistent (disk, recorded) pair, or -1 if the disk never held still. */
static int snapshot(struct rec_bpf *b, int index, uint32_t disk, uint64_t *done,
		    uint64_t *recorded)
{
	struct timespec settle = { 0, CSTAT_SETTLE_NS };
	uint64_t again;
	int i;

	for (i = 0; i < CSTAT_TRIES; i++) {
		if (disk_completed(disk, done) < 0 ||
		    rec_bpf_completions(b, index, recorded) < 0)
			return -1;
		nanosleep(&settle, NULL);
		if (disk_completed(disk, &again) < 0)
			return -1;
		if (again == *done)
			return 0;
	}
	return -1;
}

void rec_cstat_begin(struct rec_cstat *c, struct rec_bpf *b, int index,
		     const struct rec_trace *t, bool filtered)
{
	memset(c, 0, sizeof(*c));
	c->checked = !filtered && t->dev == t->disk && disk_is_mq(t->disk) &&
		     snapshot(b, index, t->disk, &c->disk0, &c->recorded0) == 0;
}

void rec_cstat_end(struct rec_cstat *c, struct rec_bpf *b, int index, const struct rec_trace *t)
{
	uint64_t done, recorded;

	if (!c->checked)
		return;
	if (snapshot(b, index, t->disk, &done, &recorded) < 0) {
		c->checked = false;
		return;
	}
	done -= c->disk0;
	recorded -= c->recorded0;
	c->unrecorded = done > recorded ? done - recorded : 0;
}
