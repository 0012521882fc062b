// SPDX-License-Identifier: GPL-2.0
/*
 * test_format.c - unit tests of format/ on crafted inputs: native and
 * byte-swapped records, every kind of damage, empty and missing per-CPU
 * files, zstd input, stdin, the merge order and notes, the writer, and
 * safe creation of output files (bs_outfile).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#include "bs_codec.h"
#include "bs_input.h"
#include "bs_merge.h"
#include "bs_outfile.h"
#include "bs_stream.h"
#include "bs_writer.h"
#include "check.h"

static char dir[256];

struct buf {
	uint8_t data[1 << 16];
	size_t len;
};

static void put(struct buf *b, uint32_t cpu, uint32_t seq, uint64_t time, uint32_t action,
		const void *pdu, uint16_t pdu_len, int swap)
{
	struct bs_trace t = {
		.magic = BS_TRACE_MAGIC_V7, .sequence = seq, .time = time, .sector = 1000 + seq,
		.bytes = 4096, .action = action, .pid = 42, .device = BS_MKDEV(7, 0), .cpu = cpu,
		.pdu_len = pdu_len,
	};
	if (swap)
		bs_trace_swap(&t);
	memcpy(b->data + b->len, &t, sizeof(t));
	if (pdu_len)
		memcpy(b->data + b->len + sizeof(t), pdu, pdu_len);
	b->len += sizeof(t) + pdu_len;
}

/* A 64-byte record: version 8 (v = 8), or v7 as current blkparse dumps it (v = 7). */
static void put8(struct buf *b, int v, uint32_t cpu, uint32_t seq, uint64_t time, uint32_t action,
		 uint32_t hi, const void *pdu, uint16_t pdu_len, int swap)
{
	struct bs_trace t = {
		.magic = BS_TRACE_MAGIC | v, .sequence = seq, .time = time, .sector = 1000 + seq,
		.bytes = 4096, .action = action, .pid = 42, .device = BS_MKDEV(7, 0), .cpu = cpu,
		.pdu_len = pdu_len,
	};
	struct bs_trace2 r;

	bs_encode_v8(&r, &t, hi);
	memset(r.pad, 0x5a, sizeof(r.pad));	/* the kernel does not clear the pad */
	if (swap)
		bs_trace2_swap(&r);
	memcpy(b->data + b->len, &r, sizeof(r));
	if (pdu_len)
		memcpy(b->data + b->len + sizeof(r), pdu, pdu_len);
	b->len += sizeof(r) + pdu_len;
}

/* format/'s warnings, printed as the commands print them: "PROGRAM: TEXT" */
static void print_format_msg(void *arg, enum bs_msg_level level, const char *text)
{
	(void)arg;
	(void)level;
	fprintf(stderr, "%s: %s\n", bs_progname(), text);
}

static const struct bs_msg_sink stderr_sink = { .fn = print_format_msg };

static char *path_of(const char *name)
{
	static char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

static void write_file(const char *name, const void *data, size_t len)
{
	int fd = open(path_of(name), O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		perror(name);
		exit(2);
	}
	close(fd);
}

/* Run the reader over a file; return records read, status of the last call, stderr text. */
static int read_all(const char *name, int cpu, int *status, char *errtext, size_t errlen)
{
	char err[256], *p = path_of(name);
	struct bs_record rec;
	int n = 0, saved = dup(2), efd;
	struct bs_stream *s;
	char errpath[600];

	snprintf(errpath, sizeof(errpath), "%s/stderr.txt", dir);
	efd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	fflush(stderr);
	dup2(efd, 2);
	s = bs_stream_open(p, cpu, err, sizeof(err));
	if (s) {
		bs_stream_set_msg(s, &stderr_sink);
		while ((*status = bs_stream_next(s, &rec)) == BS_STREAM_RECORD)
			n++;
		bs_stream_close(s);
	} else {
		*status = -2;
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(efd);
	efd = open(errpath, O_RDONLY);
	ssize_t got = read(efd, errtext, errlen - 1);
	errtext[got > 0 ? got : 0] = '\0';
	close(efd);
	return n;
}

static void test_native_and_swapped(void)
{
	for (int swap = 0; swap < 2; swap++) {
		struct buf b = { .len = 0 };
		uint8_t pdu[8] = { 0, 0, 0, 0, 0, 0, 0, 3 };
		char err[512], *p;
		struct bs_record rec;
		struct bs_stream *s;

		put(&b, 0, 1, 100, BS_ACT_QUEUE | BS_TC_ACT(BS_TC_WRITE), NULL, 0, swap);
		put(&b, 0, 2, 200, BS_ACT_UNPLUG_IO | BS_TC_ACT(BS_TC_READ), pdu, 8, swap);
		write_file("order.blktrace.0", b.data, b.len);
		p = path_of("order.blktrace.0");
		s = bs_stream_open(p, 0, err, sizeof(err));
		CHECK(s != NULL, "%s", err);
		CHECK(bs_stream_next(s, &rec) == BS_STREAM_RECORD, "first record");
		CHECK(rec.t.sequence == 1 && rec.t.time == 100 && rec.t.sector == 1001 &&
		      rec.t.device == BS_MKDEV(7, 0) && rec.foreign == swap, "fields swap=%d",
		      swap);
		CHECK(bs_stream_next(s, &rec) == BS_STREAM_RECORD, "second record");
		CHECK(rec.t.pdu_len == 8 && bs_pdu_be64(&rec.t, rec.pdu) == 3,
		      "PDU left raw (big-endian depth)");
		CHECK(rec.offset == 48, "offset %llu", (unsigned long long)rec.offset);
		CHECK(bs_stream_next(s, &rec) == BS_STREAM_END, "clean end");
		bs_stream_close(s);
	}
}

static void expect_damage(const char *what, struct buf *b, int good, const char *offset_text,
			  const char *msg)
{
	char err[1024];
	int status, n;

	write_file("dmg.blktrace.0", b->data, b->len);
	n = read_all("dmg.blktrace.0", 0, &status, err, sizeof(err));
	CHECK(n == good, "%s: %d records before damage, expected %d", what, n, good);
	CHECK(status == BS_STREAM_DAMAGED, "%s: status %d", what, status);
	CHECK(strstr(err, offset_text) && strstr(err, msg) &&
	      strchr(err, '\n') == strrchr(err, '\n'),
	      "%s: one line naming file, offset and cause, got: %s", what, err);
	CHECK(strstr(err, "dmg.blktrace.0") != NULL, "%s: names the file: %s", what, err);
}

static void test_damage(void)
{
	struct buf b = { .len = 0 };

	put(&b, 0, 1, 1, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b, 0, 2, 2, BS_ACT_QUEUE, NULL, 0, 0);
	b.len += 20;	/* 20 bytes of a third header */
	expect_damage("truncated header", &b, 2, "offset 96", "truncated record header (20 of 48");

	b.len = 0;
	put(&b, 0, 1, 1, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b, 0, 2, 2, BS_ACT_UNPLUG_IO, "12345678", 8, 0);
	b.len -= 3;
	expect_damage("truncated PDU", &b, 1, "offset 48", "truncated PDU (5 of 8");

	b.len = 0;
	put(&b, 0, 1, 1, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b, 0, 2, 2, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b, 0, 3, 3, BS_ACT_QUEUE, NULL, 0, 0);
	memcpy(b.data + 96, "\x11\x22\x33\x44", 4);
	expect_damage("bad magic", &b, 2, "offset 96", "bad magic 0x44332211");

	b.len = 0;
	put(&b, 0, 1, 1, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b, 0, 2, 2, BS_ACT_QUEUE, NULL, 0, 0);
	b.data[48] = 0x06;	/* version 6 */
	expect_damage("wrong version", &b, 1, "offset 48", "unsupported trace version 6");

	b.len = 0;
	put(&b, 0, 1, 1, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b, 0, 2, 2, BS_ACT_QUEUE, NULL, 0, 0);
	uint16_t big = 60000;
	memcpy(b.data + 48 + 46, &big, 2);
	expect_damage("absurd pdu_len", &b, 1, "offset 48", "absurd pdu_len 60000");

	b.len = 0;
	memset(b.data, 0xab, 48);
	b.len = 48;
	expect_damage("garbage first record", &b, 0, "offset 0", "not a blktrace stream");
}

/* Version 8, native and swapped; the 64-byte v7 dump; v7 kept 48 bytes. */
static void test_v8(void)
{
	uint8_t pdu[8] = { 0, 0, 0, 0, 0, 0, 0, 3 };
	uint32_t za = BS_TC_HI(BS_TC_ZONE_APPEND);

	for (int swap = 0; swap < 2; swap++) {
		struct buf b = { .len = 0 };
		char err[512];
		struct bs_record rec;
		struct bs_stream *s;

		put8(&b, 8, 0, 1, 100, BS_ACT_QUEUE | BS_TC_ACT(BS_TC_WRITE), za, NULL, 0, swap);
		put8(&b, 8, 0, 2, 200, BS_ACT_UNPLUG_IO | BS_TC_ACT(BS_TC_READ), 0, pdu, 8, swap);
		write_file("v8.blktrace.0", b.data, b.len);
		s = bs_stream_open(path_of("v8.blktrace.0"), 0, err, sizeof(err));
		CHECK(s != NULL, "%s", err);
		CHECK(bs_stream_next(s, &rec) == BS_STREAM_RECORD, "v8 first record");
		CHECK(rec.t.magic == BS_TRACE_MAGIC_V8 && rec.t.sequence == 1 &&
		      rec.t.time == 100 && rec.t.sector == 1001 && rec.t.bytes == 4096 &&
		      rec.t.pid == 42 &&
		      rec.t.device == BS_MKDEV(7, 0) && rec.t.cpu == 0 && rec.foreign == swap,
		      "v8 fields swap=%d", swap);
		CHECK(rec.t.action == (BS_ACT_QUEUE | BS_TC_ACT(BS_TC_WRITE)) &&
		      rec.action_hi == za,
		      "64-bit action split: %#x %#x", rec.t.action, rec.action_hi);
		CHECK(bs_stream_version(s) == 8 && bs_stream_record_size(s) == 64, "v8 detected");
		CHECK(bs_stream_next(s, &rec) == BS_STREAM_RECORD && rec.offset == 64 &&
		      bs_pdu_be64(&rec.t, rec.pdu) == 3 && rec.action_hi == 0,
		      "v8 PDU after 64 bytes");
		CHECK(bs_stream_next(s, &rec) == BS_STREAM_END, "v8 clean end");
		bs_stream_close(s);
	}

	/* current blkparse -d of v7 input: 64-byte records, magic 7; one record alone too */
	for (int n = 1; n <= 3; n++) {
		struct buf b = { .len = 0 };
		char err[512];
		struct bs_record rec;
		struct bs_stream *s;
		int got = 0;

		for (int i = 1; i <= n; i++)
			put8(&b, 7, 0, i, i * 10, BS_ACT_UNPLUG_IO, 0, pdu, i == 2 ? 8 : 0, 0);
		write_file("wide.dump", b.data, b.len);
		s = bs_stream_open(path_of("wide.dump"), -1, err, sizeof(err));
		while (s && bs_stream_next(s, &rec) == BS_STREAM_RECORD)
			got += rec.t.magic == BS_TRACE_MAGIC_V7 &&
			       rec.t.sequence == (uint32_t)got + 1;
		CHECK(got == n && bs_stream_version(s) == 7 && bs_stream_record_size(s) == 64,
		      "64-byte v7 dump of %d records: %d read", n, got);
		bs_stream_close(s);
	}

	/* a lone 48-byte v7 record, and v7 with a tiny device number: still 48 bytes */
	for (int dev = 0; dev < 2; dev++) {
		struct buf b = { .len = 0 };
		char err[512];
		struct bs_record rec;
		struct bs_stream *s;
		int got = 0;

		put(&b, 0, 1, 10, BS_ACT_UNPLUG_IO, pdu, 8, 0);
		if (dev) {
			put(&b, 0, 2, 20, BS_ACT_QUEUE, NULL, 0, 0);
			for (size_t off = 0; off < b.len; off += 48 + (off ? 0 : 8))
				memset(b.data + off + 36, 0, 4);	/* device 0,0 */
		}
		write_file("v7.blktrace.0", b.data, b.len);
		s = bs_stream_open(path_of("v7.blktrace.0"), 0, err, sizeof(err));
		while (s && bs_stream_next(s, &rec) == BS_STREAM_RECORD)
			got++;
		CHECK(got == 1 + dev && bs_stream_record_size(s) == 48 && !bs_stream_damaged(s),
		      "v7 stays 48 bytes (dev=%d): %d records", dev, got);
		bs_stream_close(s);
	}
}

static void expect_damage8(const char *what, struct buf *b, int good, const char *offset_text,
			   const char *msg)
{
	char err[1024];
	int status, n;

	write_file("dmg8.blktrace.0", b->data, b->len);
	n = read_all("dmg8.blktrace.0", 0, &status, err, sizeof(err));
	CHECK(n == good && status == BS_STREAM_DAMAGED,
	      "%s: %d records before damage, expected %d", what, n, good);
	CHECK(strstr(err, offset_text) && strstr(err, msg), "%s: got: %s", what, err);
}

static void test_v8_damage(void)
{
	struct buf b = { .len = 0 };

	put8(&b, 8, 0, 1, 1, BS_ACT_QUEUE, 0, NULL, 0, 0);
	put8(&b, 8, 0, 2, 2, BS_ACT_QUEUE, 0, NULL, 0, 0);
	b.len += 50;
	memset(b.data + 128, 0, 50);
	memcpy(b.data + 128, b.data, 4);
	expect_damage8("v8 truncated header", &b, 2, "offset 128",
		       "truncated record header (50 of 64");

	b.len = 0;
	put8(&b, 8, 0, 1, 1, BS_ACT_QUEUE, 0, NULL, 0, 0);
	put8(&b, 8, 0, 2, 2, BS_ACT_UNPLUG_IO, 0, "12345678", 8, 0);
	b.len -= 3;
	expect_damage8("v8 truncated PDU", &b, 1, "offset 64", "truncated PDU (5 of 8");

	b.len = 0;
	put8(&b, 8, 0, 1, 1, BS_ACT_QUEUE, 0, NULL, 0, 0);
	put8(&b, 7, 0, 2, 2, BS_ACT_QUEUE, 0, NULL, 0, 0);
	expect_damage8("version changes", &b, 1, "offset 64",
		       "unsupported trace version 7 in a version-8");

	b.len = 0;
	put(&b, 0, 1, 1, BS_ACT_QUEUE, NULL, 0, 0);
	b.data[0] = 9;
	expect_damage8("version 9", &b, 0, "offset 0", "unsupported trace version 9");
}

/* Zone letters and ZP/ZU, as current blkparse prints them. */
static void test_rwbs2(void)
{
	static const struct {
		uint32_t cats, hi, bytes;
		const char *want;
	} cases[] = {
		{ BS_TC_WRITE | BS_TC_SYNC, BS_TC_HI(BS_TC_ZONE_APPEND), 4096, "ZAS" },
		{ BS_TC_WRITE | BS_TC_SYNC, BS_TC_HI(BS_TC_ZONE_RESET), 0, "ZRS" },
		{ BS_TC_WRITE, BS_TC_HI(BS_TC_ZONE_RESET_ALL), 0, "ZRA" },
		{ BS_TC_WRITE | BS_TC_FUA, BS_TC_HI(BS_TC_ZONE_FINISH), 0, "ZFF" },
		{ BS_TC_WRITE, BS_TC_HI(BS_TC_ZONE_OPEN), 0, "ZO" },
		{ BS_TC_FLUSH | BS_TC_WRITE | BS_TC_FUA | BS_TC_AHEAD | BS_TC_SYNC | BS_TC_META,
		  BS_TC_HI(BS_TC_ZONE_RESET_ALL), 0, "FZRAFASM" },
		{ BS_TC_WRITE | BS_TC_DISCARD, BS_TC_HI(BS_TC_ZONE_CLOSE), 0, "D" },
		{ BS_TC_WRITE | BS_TC_SYNC, BS_TC_HI(BS_TC_WRITE_ZEROES), 4096, "WS" },
		{ BS_TC_READ, 0, 4096, "R" },
		{ BS_TC_READ, 0, 0, "N" },
	};
	char buf[BS_RWBS2_LEN], old[8];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bs_rwbs2(buf, BS_TC_ACT(cases[i].cats), cases[i].hi, cases[i].bytes);
		CHECK(!strcmp(buf, cases[i].want), "rwbs2 case %zu: %s, want %s", i, buf,
		      cases[i].want);
		if (!cases[i].hi)
			CHECK(!strcmp(bs_rwbs(old, BS_TC_ACT(cases[i].cats), cases[i].bytes), buf),
			      "v7 rwbs");
	}
	CHECK(!strcmp(bs_action_letters2(BS_ACT_ZONE_PLUG), "ZP") &&
	      !strcmp(bs_action_letters2(BS_ACT_ZONE_UNPLUG), "ZU") &&
	      !strcmp(bs_action_letters2(BS_ACT_QUEUE), "Q") &&
	      !bs_action_letters(BS_ACT_ZONE_PLUG),
	      "ZP/ZU letters (v8 only)");
}

static void test_cpu_mismatch(void)
{
	struct buf b = { .len = 0 };
	char err[1024];
	int status, n;

	put(&b, 1, 1, 1, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b, 0, 2, 2, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b, 1, 3, 3, BS_ACT_QUEUE, NULL, 0, 0);
	write_file("mis.blktrace.1", b.data, b.len);
	n = read_all("mis.blktrace.1", 1, &status, err, sizeof(err));
	CHECK(n == 2 && status == BS_STREAM_END, "mismatched cpu record skipped: n=%d status=%d", n,
	      status);
	CHECK(strstr(err, "offset 48") && strstr(err, "cpu 0"), "warning names offset and cpu: %s",
	      err);
}

/* Collect merged (time, cpu) pairs and notes of an input base. */
struct merged {
	int n, notes;
	uint64_t times[64];
	int cpus[64];
	int note_before_event[64];
};

static void count_note(void *ctx, const struct bs_record *rec, int dev)
{
	struct merged *m = ctx;

	(void)rec;
	(void)dev;
	m->notes++;
}

static int merge_input(const char *arg, struct merged *out, unsigned int batch)
{
	struct bs_input_set in = { 0 };
	struct bs_merge_opts o = { .batch = batch, .on_note = count_note, .ctx = out,
				   .msg = stderr_sink };
	struct bs_merge *m;
	struct bs_event ev;

	memset(out, 0, sizeof(*out));
	if (bs_input_add(&in, arg, NULL, NULL))
		return -1;
	m = bs_merge_open(&in, &o);
	if (!m)
		return -1;
	while (bs_merge_next(m, &ev) && out->n < 64) {
		out->note_before_event[out->n] = out->notes;
		out->times[out->n] = ev.t.time;
		out->cpus[out->n++] = ev.cpu;
	}
	bs_merge_close(m);
	bs_input_free(&in);
	return 0;
}

static void test_merge_and_files(void)
{
	struct buf b0 = { .len = 0 }, b1 = { .len = 0 }, b2 = { .len = 0 };
	char comm[16] = "dd";
	struct merged mg;

	put(&b0, 0, 0, 5, BS_NOTE_PROCESS, comm, 16, 0);
	put(&b0, 0, 1, 10, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b0, 0, 2, 30, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b0, 0, 3, 50, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b1, 1, 1, 20, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b1, 1, 2, 40, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b2, 3, 1, 45, BS_ACT_QUEUE, NULL, 0, 0);
	write_file("m.blktrace.0", b0.data, b0.len);
	write_file("m.blktrace.1", b1.data, b1.len);
	write_file("m.blktrace.2", "", 0);	/* idle CPU: empty file */
	write_file("m.blktrace.3", b2.data, b2.len);
	CHECK(merge_input(path_of("m"), &mg, 512) == 0, "merge opens");
	CHECK(mg.n == 6, "6 events, got %d", mg.n);
	uint64_t want[] = { 0, 10, 20, 30, 35, 40 };	/* genesis = 10 */
	int wcpu[] = { 0, 1, 0, 1, 3, 0 };
	for (int i = 0; i < 6 && i < mg.n; i++)
		CHECK(mg.times[i] == want[i] && mg.cpus[i] == wcpu[i], "event %d: time %llu cpu %d",
		      i, (unsigned long long)mg.times[i], mg.cpus[i]);
	CHECK(mg.notes == 1 && mg.note_before_event[0] == 1, "PROCESS note delivered at read time");

	/* an explicit per-CPU file name stands for its base, like blkparse */
	CHECK(merge_input(path_of("m.blktrace.1"), &mg, 512) == 0 && mg.n == 6,
	      "explicit file -> base");

	/* a directory stands for every base in it */
	CHECK(merge_input(dir, &mg, 512) == 0 && mg.n >= 6, "directory input: %d events", mg.n);

	/* missing CPU file in the middle (m2.blktrace.1 absent): the others are still read */
	write_file("m2.blktrace.0", b0.data, b0.len);
	write_file("m2.blktrace.2", b1.data, b1.len);	/* cpu field 1 != file 2: skipped */
	write_file("m2.blktrace.3", b2.data, b2.len);
	CHECK(merge_input(path_of("m2"), &mg, 512) == 0 && mg.n == 4,
	      "gap: %d events (3 + 1, cpu-1 records in file 2 skipped)", mg.n);

	/* batch of 1: notes still come before the events that follow them in the file */
	CHECK(merge_input(path_of("m"), &mg, 1) == 0 && mg.n == 6, "batch 1");

	struct bs_input_set in = { 0 };
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	dup2(null, 2);
	int r = bs_input_add(&in, path_of("nosuch"), NULL, NULL);
	dup2(saved, 2);
	close(saved);
	close(null);
	CHECK(r == -1, "missing input is an error");
	bs_input_free(&in);
}

#ifdef HAVE_ZSTD
static void test_zstd(void)
{
	struct buf b = { .len = 0 };
	static uint8_t z[1 << 16];
	size_t zl;
	struct merged mg;

	for (int i = 1; i <= 100; i++)
		put(&b, 0, i, i * 10, BS_ACT_QUEUE, NULL, 0, 0);
	zl = ZSTD_compress(z, sizeof(z), b.data, b.len, 3);
	CHECK(!ZSTD_isError(zl), "compress");
	write_file("z.blktrace.0.zst", z, zl);
	CHECK(merge_input(path_of("z"), &mg, 512) == 0 && mg.n == 64, "zstd per-CPU file: %d",
	      mg.n);
	write_file("zdump.zst", z, zl);
	CHECK(merge_input(path_of("zdump.zst"), &mg, 512) == 0 && mg.n == 64,
	      "zstd dump stream: %d", mg.n);

	/* a compressed file larger than the first read (was a buffer overflow) */
	static struct buf big;
	static uint8_t zbig[1 << 20];
	uint32_t rnd = 1;

	big.len = 0;
	for (int i = 1; big.len + 64 < sizeof(big.data); i++) {
		uint8_t pdu[8];

		for (int k = 0; k < 8; k++)
			pdu[k] = (rnd = rnd * 1103515245 + 12345) >> 24;	/* incompressible */
		put(&big, 0, i, i, BS_ACT_UNPLUG_IO, pdu, 8, 0);
	}
	zl = ZSTD_compress(zbig, sizeof(zbig), big.data, big.len, 1);
	CHECK(!ZSTD_isError(zl), "compress big");
	int fd = open(path_of("zbig.blktrace.0.zst"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (int k = 0; k < 40; k++)	/* 40 concatenated frames: several MiB compressed */
		CHECK(write(fd, zbig, zl) == (ssize_t)zl, "write");
	close(fd);
	CHECK(merge_input(path_of("zbig"), &mg, 512) == 0 && mg.n == 64, "large zstd file: %d",
	      mg.n);
}
#else
static void test_zstd(void)
{
	struct merged mg;
	static const uint8_t frame[4] = { 0x28, 0xb5, 0x2f, 0xfd };

	write_file("z.blktrace.0.zst", frame, sizeof(frame));
	CHECK(merge_input(path_of("z"), &mg, 512) == 0 && mg.n == 0,
	      "zstd input refused without libzstd");
}
#endif

static void test_stdin(void)
{
	struct buf b = { .len = 0 };
	int p[2], saved;
	struct merged mg;
	pid_t pid;

	for (int i = 1; i <= 10; i++)
		put(&b, i % 2, (i + 1) / 2, 100 - i, BS_ACT_QUEUE, NULL, 0, 0);
	if (pipe(p))
		exit(2);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (write(p[1], b.data, b.len) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	saved = dup(0);
	dup2(p[0], 0);
	close(p[0]);
	CHECK(merge_input("-", &mg, 512) == 0 && mg.n == 10, "stdin: %d events", mg.n);
	CHECK(mg.times[0] == 0 && mg.times[9] == 9, "stdin sorted by time: %llu..%llu",
	      (unsigned long long)mg.times[0], (unsigned long long)mg.times[9]);
	dup2(saved, 0);
	close(saved);
	waitpid(pid, NULL, 0);
}

static void test_writer(void)
{
	struct bs_trace t = { .magic = BS_TRACE_MAGIC_V7, .sequence = 1, .action = BS_ACT_QUEUE,
			      .pdu_len = 8 };
	struct bs_writer w;
	struct merged mg;
	int fd;

	CHECK(symlink("/etc/passwd", path_of("link.blktrace.0")) == 0, "symlink");
	fd = bs_create_output(path_of("link.blktrace.0"), BS_CREATE_REPLACE);
	CHECK(fd < 0 && errno == EEXIST, "output through a symlink is refused (errno %d)", errno);

	fd = bs_create_output(path_of("w.blktrace.0"), BS_CREATE_REPLACE);
	CHECK(fd >= 0 && bs_writer_init(&w, fd, "w") == 0, "writer");
	for (int i = 0; i < 50000; i++) {
		t.sequence = i + 1;
		t.time = i;
		bs_writer_put(&w, &t, "abcdefgh");
	}
	CHECK(bs_writer_close(&w) == 0, "close");
	CHECK(merge_input(path_of("w"), &mg, 512) == 0, "read back");

	fd = open("/dev/full", O_WRONLY);
	if (fd >= 0) {
		bs_writer_init(&w, fd, "/dev/full");
		for (int i = 0; i < 50000 && !w.error; i++)
			bs_writer_put(&w, &t, "abcdefgh");
		CHECK(bs_writer_close(&w) == ENOSPC, "full disk reported as ENOSPC");
	}
}

/* Merge and stream modes carry action_hi; the v8 writer reads back; cutting whole v8 records. */
static void test_v8_merge_writer(void)
{
	struct buf b0 = { .len = 0 }, b1 = { .len = 0 };
	uint32_t hi[] = { 0, BS_TC_HI(BS_TC_ZONE_RESET), BS_TC_HI(BS_TC_ZONE_OPEN), 0 };
	char comm[16] = "dd";
	struct bs_input_set in = { 0 };
	struct bs_merge_opts o = { .batch = 2 };
	struct bs_merge *m;
	struct bs_event ev;
	int n = 0, ok = 0;

	put8(&b0, 8, 0, 0, 5, BS_NOTE_PROCESS, 0, comm, 16, 0);
	put8(&b0, 8, 0, 1, 10, BS_ACT_QUEUE, hi[0], NULL, 0, 0);
	put8(&b0, 8, 0, 2, 30, BS_ACT_QUEUE, hi[2], NULL, 0, 0);
	put8(&b1, 8, 1, 1, 20, BS_ACT_QUEUE, hi[1], NULL, 0, 1);	/* a swapped CPU file */
	put8(&b1, 8, 1, 2, 40, BS_ACT_QUEUE, hi[3], NULL, 0, 1);
	write_file("mz.blktrace.0", b0.data, b0.len);
	write_file("mz.blktrace.1", b1.data, b1.len);
	CHECK(bs_input_add(&in, path_of("mz"), NULL, NULL) == 0, "v8 input");
	m = bs_merge_open(&in, &o);
	while (m && bs_merge_next(m, &ev) == 1) {
		ok += ev.action_hi == hi[n] && ev.t.time == (uint64_t)n * 10;
		n++;
	}
	CHECK(n == 4 && ok == 4, "v8 file merge: %d events, %d with the right action_hi", n, ok);
	bs_merge_close(m);
	bs_input_free(&in);

	/* the writer: v8 records read back as a dump stream (pipe mode) */
	struct bs_writer w;
	struct bs_trace t = { .sequence = 1, .action = BS_ACT_QUEUE, .device = BS_MKDEV(8, 0) };
	int fd = bs_create_output(path_of("w8.dump"), BS_CREATE_REPLACE);

	CHECK(fd >= 0 && bs_writer_init(&w, fd, "w8") == 0, "v8 writer");
	bs_writer_set_format(&w, BS_OUT_V8);
	for (int i = 0; i < 4; i++) {
		t.sequence = i + 1;
		t.time = 100 + i;
		t.pdu_len = i == 1 ? 8 : 0;
		bs_writer_put2(&w, &t, hi[i], "abcdefgh");
	}
	CHECK(bs_writer_close(&w) == 0, "v8 writer close");
	memset(&in, 0, sizeof(in));
	CHECK(bs_input_add(&in, path_of("w8.dump"), NULL, NULL) == 0 && bs_input_is_stream(&in),
	      "dump input");
	m = bs_merge_open(&in, &o);
	n = ok = 0;
	while (m && bs_merge_next(m, &ev) == 1) {
		ok += ev.action_hi == hi[n] && ev.t.magic == BS_TRACE_MAGIC_V8 &&
		      ev.t.sequence == (uint32_t)n + 1;
		n++;
	}
	CHECK(n == 4 && ok == 4, "v8 dump stream: %d events, %d right", n, ok);
	bs_merge_close(m);
	bs_input_free(&in);

	/* whole records: 64 + 0, 64 + 8, ... cut inside the second */
	uint8_t raw[512];
	int rfd = open(path_of("w8.dump"), O_RDONLY);

	CHECK(read(rfd, raw, sizeof(raw)) == 64 * 4 + 8, "v8 dump size");
	close(rfd);
	CHECK(bs_whole_records(raw, 64 * 4 + 8) == 64 * 4 + 8 && bs_whole_records(raw, 130) == 64 &&
	      bs_whole_records(raw, 136) == 136 && bs_whole_records_sized(raw, 199, 64) == 136,
	      "whole v8 records");

	/* v8 on a full disk: the written part is still whole records */
	fd = open("/dev/full", O_WRONLY);
	if (fd >= 0) {
		bs_writer_init(&w, fd, "/dev/full");
		bs_writer_set_format(&w, BS_OUT_V8);
		for (int i = 0; i < 50000 && !w.error; i++)
			bs_writer_put2(&w, &t, 1, "abcdefgh");
		CHECK(bs_writer_close(&w) == ENOSPC, "v8 full disk reported as ENOSPC");
	}
}

static int fd_cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	return fl >= 0 && (fl & FD_CLOEXEC);
}

/* bs_dir_open + bs_create_at: nothing already at a name is opened or followed. */
static void test_outfile(void)
{
	char why[200], victim[512];
	struct stat st;
	int d, fd, ours;

	CHECK(mkdir(path_of("out"), 0755) == 0 && symlink("out", path_of("outlink")) == 0, "setup");
	d = bs_dir_open(path_of("out/"), 0);
	CHECK(d >= 0 && fd_cloexec(d), "directory opened, close-on-exec (errno %d)", errno);
	CHECK(bs_dir_open(path_of("outlink"), 0) < 0 && errno == ELOOP,
	      "symlinked dir refused (%d)", errno);
	CHECK(bs_dir_open(path_of("outlink//"), 0) < 0 && errno == ELOOP,
	      "symlinked dir/ refused (%d)", errno);
	CHECK(bs_dir_open(path_of("new/"), BS_DIR_CREATE) >= 0, "missing directory created");
	write_file("plain", "x", 1);
	CHECK(bs_dir_open(path_of("plain"), 0) < 0 && errno == ENOTDIR, "file as dir refused (%d)",
	      errno);

	fd = bs_create_at(d, "a.blktrace.0", 0);
	CHECK(fd >= 0 && fd_cloexec(fd) && write(fd, "1234", 4) == 4, "created, close-on-exec");
	close(fd);
	CHECK(bs_create_at(d, "a.blktrace.0", 0) < 0 && errno == EEXIST, "earlier file refused");
	ours = bs_create_explain(d, "a.blktrace.0", EEXIST, why, sizeof(why));
	CHECK(ours == 1 && strstr(why, "exists"), "explained as ours: %s", why);
	fd = bs_create_at(d, "a.blktrace.0", BS_CREATE_REPLACE);
	CHECK(fd >= 0 && fstat(fd, &st) == 0 && st.st_size == 0, "--force replaces our own file");
	close(fd);

	CHECK(mkfifo(path_of("out/p.blktrace.0"), 0644) == 0, "fifo");
	CHECK(bs_create_at(d, "p.blktrace.0", BS_CREATE_REPLACE) < 0 && errno == EEXIST,
	      "FIFO refused");
	bs_create_explain(d, "p.blktrace.0", EEXIST, why, sizeof(why));
	CHECK(strstr(why, "FIFO") != NULL, "FIFO named: %s", why);

	write_file("victim", "precious", 8);
	CHECK(symlink("../victim", path_of("out/s.blktrace.0")) == 0, "symlink");
	CHECK(bs_create_at(d, "s.blktrace.0", BS_CREATE_REPLACE) < 0 && errno == EEXIST,
	      "symlink refused");
	bs_create_explain(d, "s.blktrace.0", EEXIST, why, sizeof(why));
	CHECK(strstr(why, "symlink") != NULL, "symlink named: %s", why);
	CHECK(symlink("../nowhere", path_of("out/dangling")) == 0, "dangling symlink");
	CHECK(bs_create_at(d, "dangling", 0) < 0 && access(path_of("nowhere"), F_OK) < 0,
	      "dangling symlink not followed");
	snprintf(victim, sizeof(victim), "%s", path_of("victim"));	/* path_of(): one buffer */
	CHECK(link(victim, path_of("out/h.blktrace.0")) == 0, "hard link");
	CHECK(bs_create_at(d, "h.blktrace.0", BS_CREATE_REPLACE) < 0, "hard link refused");
	bs_create_explain(d, "h.blktrace.0", EEXIST, why, sizeof(why));
	CHECK(strstr(why, "hard links") != NULL, "hard links named: %s", why);
	CHECK(stat(path_of("victim"), &st) == 0 && st.st_size == 8, "victim untouched");

	CHECK(bs_create_at(d, "x/y", 0) < 0 && errno == EINVAL, "name with '/' refused");
	CHECK(bs_create_at(d, "", 0) < 0 && errno == EINVAL, "empty name refused");
	CHECK(bs_create_at(d, "..", 0) < 0 && errno == EINVAL, "'..' refused");
	close(d);

	fd = bs_create_path(path_of("out/side.dat"), 0);
	CHECK(fd >= 0, "bs_create_path (errno %d)", errno);
	close(fd);
	CHECK(bs_create_path(path_of("outlink/side2.dat"), 0) < 0 && errno == ELOOP,
	      "bs_create_path through a symlinked dir refused (%d)", errno);
	CHECK(bs_create_path(path_of("out/s.blktrace.0"), 0) < 0 && errno == EEXIST,
	      "bs_create_path on a symlink refused");
}

/* cgroup ids: the note, the prefix on events, both byte orders, both merge modes. */
struct cg_seen {
	uint64_t note_id, ids[8];
	char path[64];
	int n;
};

static void cg_note(void *ctx, const struct bs_record *rec, int dev)
{
	struct cg_seen *c = ctx;
	const char *path;
	size_t plen;

	(void)dev;
	if (bs_cgroup_note(&rec->t, rec->pdu, rec->foreign, &c->note_id, &path, &plen))
		snprintf(c->path, sizeof(c->path), "%.*s", (int)plen, path);
}

static void test_cgroup(void)
{
	const uint64_t id = 0x100000123ull;	/* kernfs ids: generation << 32 | number */
	for (int swap = 0; swap < 2; swap++) {
		for (int pipe = 0; pipe < 2; pipe++) {
			struct buf b = { .len = 0 };
			uint8_t note[8 + 32], q[8], u[16];
			int tl = snprintf((char *)note + 8, 32, "cgroup %llu /a/w",
					  (unsigned long long)id);
			uint64_t sid = swap ? bs_swap64(id) : id;
			struct bs_input_set in = { 0 };
			struct cg_seen c = { 0 };
			struct bs_merge_opts o = { .on_note = cg_note, .ctx = &c };
			struct bs_merge *m;
			struct bs_event ev;
			const uint8_t *pl;
			size_t len;
			char *p;

			memcpy(note, &sid, 8);
			memcpy(q, &sid, 8);
			memcpy(u, &sid, 8);
			bs_put_be64(u + 8, 5);
			put(&b, 0, 0, 9, BS_NOTE_MESSAGE | BS_TA_CGROUP, note, (uint16_t)(8 + tl),
			    swap);
			put(&b, 0, 1, 10, BS_ACT_QUEUE | BS_TA_CGROUP | BS_TC_ACT(BS_TC_WRITE), q,
			    8, swap);
			put(&b, 0, 2, 20, BS_ACT_UNPLUG_IO | BS_TA_CGROUP | BS_TC_ACT(BS_TC_READ),
			    u, 16, swap);
			put(&b, 0, 3, 30, BS_ACT_QUEUE | BS_TC_ACT(BS_TC_WRITE), NULL, 0, swap);
			write_file(pipe ? "cgs" : "cg.blktrace.0", b.data, b.len);
			p = path_of(pipe ? "cgs" : "cg");
			CHECK(bs_input_add(&in, p, NULL, NULL) == 0, "cgroup input %s", p);
			m = bs_merge_open(&in, &o);
			CHECK(m != NULL, "cgroup merge");
			if (!m)
				continue;
			while (bs_merge_next(m, &ev) && c.n < 8) {
				/* stream mode hands notes out too */
				if (bs_is_note(ev.t.action)) {
					cg_note(&c, &(struct bs_record){ .t = ev.t, .pdu = ev.pdu,
									 .foreign = ev.foreign },
						0);
					continue;
				}
				c.ids[c.n] = ev.cgroup;
				if (c.n == 1) {
					pl = bs_pdu_payload(&ev.t, ev.pdu, &len);
					CHECK(len == 8 && bs_get_be64(pl) == 5,
					      "U depth after the prefix");
				}
				c.n++;
			}
			bs_merge_close(m);
			bs_input_free(&in);
			CHECK(c.n == 3 && c.ids[0] == id && c.ids[1] == id && c.ids[2] == 0,
			      "swap %d pipe %d: ids %d %llx %llx %llx", swap, pipe, c.n,
			      (unsigned long long)c.ids[0], (unsigned long long)c.ids[1],
			      (unsigned long long)c.ids[2]);
			CHECK(c.note_id == id && !strcmp(c.path, "/a/w"),
			      "swap %d pipe %d: note %llx '%s'", swap, pipe,
			      (unsigned long long)c.note_id, c.path);
		}
	}
	/* a MESSAGE that is not ours, and one whose number disagrees with its id */
	{
		struct bs_trace t = { .action = BS_NOTE_MESSAGE | BS_TA_CGROUP, .pdu_len = 8 + 12 };
		uint8_t pdu[20] = { 1 };
		const char *path;
		size_t plen;
		uint64_t got;

		memcpy(pdu + 8, "cgroup 2 /x ", 12);
		CHECK(!bs_cgroup_note(&t, pdu, false, &got, &path, &plen),
		      "id 1 with text 2 refused");
		memcpy(pdu + 8, "bfq [x] wr 0", 12);
		CHECK(!bs_cgroup_note(&t, pdu, false, &got, &path, &plen),
		      "other messages refused");
		t.action = BS_NOTE_MESSAGE;
		CHECK(bs_cgroup_id(&t, pdu, false) == 0, "no flag, no id");
	}
}

int main(void)
{
	char tmpl[] = "/tmp/bs-test-format.XXXXXX";

	if (!mkdtemp(tmpl))
		return 2;
	snprintf(dir, sizeof(dir), "%s", tmpl);
	test_native_and_swapped();
	test_damage();
	test_cpu_mismatch();
	test_merge_and_files();
	test_zstd();
	test_stdin();
	test_writer();
	test_v8();
	test_v8_damage();
	test_rwbs2();
	test_v8_merge_writer();
	test_outfile();
	test_cgroup();
	if (system(NULL)) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "cleanup of %s failed\n", dir);
	}
	printf("%d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
