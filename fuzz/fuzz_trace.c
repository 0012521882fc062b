// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_trace.c - libFuzzer target for the trace reader: every input form
 * the analyzer accepts goes through the real format/ code.
 *
 * The first input byte picks how the rest is read:
 *   bit 0-1  0: the stream reader alone (bs_stream over a memfd)
 *            1: the merge in stream mode (one dump file, blkparse's pipe
 *               algorithm with sequence-gap handling)
 *            2: the merge in file mode over two per-CPU files, the data
 *               split at a point chosen by the second byte
 *            3: the stream reader with an expected CPU (per-CPU file rule)
 *   bit 2-7  merge batch size (0 = default)
 * Native, byte-swapped and zstd-compressed records are all detected from
 * the content, so the seed corpus (fuzz/seed.sh) carries each form.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bs_input.h"
#include "bs_merge.h"
#include "bs_stream.h"

static char dir[64];

static void remove_dir(void)
{
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	snprintf(dir, sizeof(dir), "/tmp/fuzz_trace.%d", (int)getpid());
	if (mkdir(dir, 0700) && errno != EEXIST)
		abort();
	atexit(remove_dir);
	bs_set_progname("fuzz_trace");
	return 0;
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		abort();
	while (size) {
		ssize_t n = write(fd, data, size);

		if (n <= 0)
			abort();
		data += n;
		size -= (size_t)n;
	}
	close(fd);
}

static void read_stream(const uint8_t *data, size_t size, int expect_cpu)
{
	int fd = memfd_create("fuzz", 0);
	struct bs_stream *s;
	struct bs_record rec;
	volatile uint8_t sink = 0;

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	lseek(fd, 0, SEEK_SET);
	s = bs_stream_from_fd(fd, "fuzz-input", expect_cpu);
	if (!s)
		return;
	while (bs_stream_next(s, &rec) == BS_STREAM_RECORD) {
		/* touch every PDU byte: the reader promised pdu_len of them */
		for (uint32_t i = 0; i < rec.t.pdu_len; i++)
			sink ^= rec.pdu[i];
	}
	(void)sink;
	bs_stream_close(s);
}

static void on_note(void *ctx, const struct bs_record *rec, int dev)
{
	volatile uint8_t sink = 0;

	for (uint32_t i = 0; i < rec->t.pdu_len; i++)
		sink ^= rec->pdu[i];
	(void)sink;
}

static void run_merge(const char *arg, unsigned int batch)
{
	struct bs_input_set in = { 0 };
	struct bs_merge_opts mo = { .batch = batch, .on_note = on_note };
	struct bs_merge *m;
	struct bs_event ev;
	volatile uint8_t sink = 0;

	if (bs_input_add(&in, arg, NULL, NULL) < 0)
		return;
	m = bs_merge_open(&in, &mo);
	if (m) {
		while (bs_merge_next(m, &ev) == 1)
			for (uint32_t i = 0; i < ev.t.pdu_len; i++)
				sink ^= ev.pdu[i];
		(void)bs_merge_damaged(m);
		bs_merge_close(m);
	}
	(void)sink;
	bs_input_free(&in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[128], path1[128];
	unsigned int mode, batch;
	size_t split;

	if (size < 2)
		return 0;
	mode = data[0] & 3;
	batch = data[0] >> 2;
	split = size > 2 ? data[1] * (size - 2) / 255 : 0;
	data += 2;
	size -= 2;

	switch (mode) {
	case 0:
		read_stream(data, size, -1);
		break;
	case 3:
		read_stream(data, size, 1);
		break;
	case 1:
		snprintf(path, sizeof(path), "%s/input.dump", dir);
		write_file(path, data, size);
		run_merge(path, batch);
		unlink(path);
		break;
	case 2:
		snprintf(path, sizeof(path), "%s/fz.blktrace.0", dir);
		snprintf(path1, sizeof(path1), "%s/fz.blktrace.1", dir);
		write_file(path, data, split);
		write_file(path1, data + split, size - split);
		snprintf(path, sizeof(path), "%s/fz", dir);
		run_merge(path, batch);
		snprintf(path, sizeof(path), "%s/fz.blktrace.0", dir);
		unlink(path);
		unlink(path1);
		break;
	}
	return 0;
}
