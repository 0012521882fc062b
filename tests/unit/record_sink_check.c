// SPDX-License-Identifier: GPL-2.0
/*
 * record_sink_check.c - unit test of record/rec_sink.c, the recorder's output:
 * synthetic records written in pieces of every size (a few bytes to
 * several MiB, more than one write buffer) reach
 *   - a pipe drained slowly (the disk stalls): every byte, in order; the
 *     recorder waited for the write queue (counted), and its resident set
 *     did not grow while 64 MiB went through its 16 MiB pool;
 *   - a file, plain: byte for byte;
 *   - a file with zstd: decompresses to the same bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#include "bs_writer.h"
#include "record.h"
#include "check.h"

/* `total` bytes of whole records with PDUs of 0..40 bytes (seeded). */
static uint8_t *make_records(size_t total, size_t *len, unsigned int seed)
{
	uint8_t *buf = malloc(total + 128);
	size_t off = 0;
	uint32_t seq = 0;

	if (!buf)
		return NULL;
	while (off + BS_TRACE_SIZE + 40 <= total) {
		struct bs_trace t = { .magic = BS_TRACE_MAGIC_V7, .sequence = seq++ };
		unsigned int i;

		seed = seed * 1103515245u + 12345u;
		t.pdu_len = (seed >> 16) % 41;
		t.time = off;
		t.sector = seed;
		memcpy(buf + off, &t, BS_TRACE_SIZE);
		for (i = 0; i < t.pdu_len; i++)
			buf[off + BS_TRACE_SIZE + i] = (uint8_t)(seq + i);
		off += BS_TRACE_SIZE + t.pdu_len;
	}
	*len = off;
	return buf;
}

/* Hand `len` bytes to the sink in whole-record pieces of mixed sizes. */
static int write_mixed(struct rec_sink *s, const uint8_t *data, size_t len)
{
	static const size_t sizes[] = { 100, 3u << 20, 4096, 1u << 20, 48, 700u << 10, 5u << 20 };
	size_t off = 0, k = 0;

	while (off < len) {
		size_t want = sizes[k++ % (sizeof(sizes) / sizeof(sizes[0]))], piece;

		if (want > len - off)
			want = len - off;
		piece = bs_whole_records(data + off, want);
		if (!piece)
			piece = bs_whole_records(data + off, len - off < 200 ? len - off : 200);
		if (rec_sink_write(s, data + off, piece) < 0)
			return -1;
		off += piece;
	}
	return 0;
}

static long rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	long kib = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

struct slow_reader {
	int fd;
	const uint8_t *expect;
	size_t len;
	size_t got;
	size_t first_bad;
};

/* A disk that stalls: reads 64 KiB at a time, naps about once per MiB,
 * compares with what was sent. */
static void *slow_read(void *arg)
{
	struct slow_reader *r = arg;
	uint8_t buf[64 << 10];
	ssize_t n;

	r->first_bad = (size_t)-1;
	while ((n = read(r->fd, buf, sizeof(buf))) > 0) {
		size_t cmp = (size_t)n;

		if (r->got + cmp > r->len)
			cmp = r->got < r->len ? r->len - r->got : 0;
		if (r->first_bad == (size_t)-1 && (cmp < (size_t)n ||
						   memcmp(buf, r->expect + r->got, cmp)))
			r->first_bad = r->got;
		r->got += n;
		if ((r->got >> 16) % 16 == 0)
			usleep(2000);
	}
	return NULL;
}

static void check_slow_pipe(void)
{
	size_t len;
	uint8_t *data = make_records(64u << 20, &len, 7);
	struct slow_reader r = { 0 };
	struct rec_io *io = rec_io_new(64);
	struct rec_sink *s;
	pthread_t th;
	long rss0, rss1;
	int p[2];

	CHECK(data && io && pipe(p) == 0, "setup");
	if (!data || !io)
		exit(1);
	s = rec_sink_new(io, p[1], "pipe", true, 0);
	r.fd = p[0];
	r.expect = data;
	r.len = len;
	pthread_create(&th, NULL, slow_read, &r);
	/* warm up: the first write touches this function's own pages */
	rss0 = rss_kib();
	CHECK(write_mixed(s, data, len) == 0, "writing to the pipe failed");
	CHECK(rec_io_reap(io, true) == 0, "reap");
	rss1 = rss_kib();
	CHECK(rec_sink_close(s) == 0, "close");	/* closes the write end */
	pthread_join(th, NULL);
	close(p[0]);
	CHECK(r.got == len, "the reader got %zu bytes of %zu", r.got, len);
	CHECK(r.first_bad == (size_t)-1, "the stream differs from byte %zu", r.first_bad);
	CHECK(rec_io_waits(io) > 0,
	      "64 MiB through a 16 MiB pool to a slow reader: no wait counted");
	CHECK(rss1 - rss0 < 1024, "RSS grew by %ld KiB while writing (pool is fixed)", rss1 - rss0);
	printf("slow pipe: %zu bytes in order, %llu waits for the disk, RSS %ld -> %ld KiB\n", len,
	       (unsigned long long)rec_io_waits(io), rss0, rss1);
	rec_sink_free(s);
	rec_io_free(io);
	free(data);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n ? n : 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

static void check_file(int zstd_level)
{
	char path[] = "/tmp/bs-sink-check.XXXXXX";
	size_t len, flen = 0;
	uint8_t *data = make_records(9u << 20, &len, zstd_level + 1), *got, *plain;
	struct rec_io *io = rec_io_new(64);
	struct rec_sink *s;
	int fd = mkstemp(path);

	CHECK(data && io && fd >= 0, "setup");
	if (!data || !io || fd < 0)
		exit(1);
	s = rec_sink_new(io, fd, path, false, zstd_level);
	CHECK(s != NULL, "sink");
	CHECK(write_mixed(s, data, len) == 0, "writing the file failed");
	CHECK(rec_sink_close(s) == 0, "close");
	got = slurp(path, &flen);
	unlink(path);
	plain = got;
#ifdef HAVE_ZSTD
	if (zstd_level && got) {
		/* one frame per piece; ZSTD_decompress reads them all */
		size_t size;

		plain = malloc(len + 1);
		size = plain ? ZSTD_decompress(plain, len + 1, got, flen) : 0;
		CHECK(!ZSTD_isError(size), "zstd: %s", ZSTD_getErrorName(size));
		flen = ZSTD_isError(size) ? 0 : size;
		free(got);
	}
#endif
	CHECK(plain && flen == len && !memcmp(plain, data, len),
	      "file (zstd level %d): %zu bytes back of %zu, or different", zstd_level, flen, len);
	CHECK(rec_sink_bytes(s) > 0, "no bytes counted");
	printf("file%s: %zu bytes of records, %llu bytes written, read back identical\n",
	       zstd_level ? " (zstd)" : "", len, (unsigned long long)rec_sink_bytes(s));
	free(plain);
	rec_sink_free(s);
	rec_io_free(io);
	free(data);
}

int main(void)
{
	check_slow_pipe();
	check_file(0);
#ifdef HAVE_ZSTD
	check_file(3);
#endif
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("OK\n");
	return 0;
}
