// SPDX-License-Identifier: GPL-2.0
/*
 * test_format.c - unit tests of format/'s reader and codec on crafted
 * inputs: native and byte-swapped records, every kind of damage, v8 and
 * 64-byte v7 records, rwbs and action letters, a record on the wrong CPU's
 * file; main() also runs test_format_merge.c's tests (merge, inputs,
 * writers, output files, cgroup notes).
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
#include "test_format.h"

char test_dir[256];
int failures, checks;

void put(struct buf *b, uint32_t cpu, uint32_t seq, uint64_t time, uint32_t action,
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
void put8(struct buf *b, int v, uint32_t cpu, uint32_t seq, uint64_t time, uint32_t action,
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

const struct bs_msg_sink stderr_sink = { .fn = print_format_msg };

char *path_of(const char *name)
{
	static char p[512];

	snprintf(p, sizeof(p), "%s/%s", test_dir, name);
	return p;
}

void write_file(const char *name, const void *data, size_t len)
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

	snprintf(errpath, sizeof(errpath), "%s/stderr.txt", test_dir);
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

int main(void)
{
	char tmpl[] = "/tmp/bs-test-format.XXXXXX";

	if (!mkdtemp(tmpl))
		return 2;
	snprintf(test_dir, sizeof(test_dir), "%s", tmpl);
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

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", test_dir);
		if (system(cmd))
			fprintf(stderr, "cleanup of %s failed\n", test_dir);
	}
	printf("%d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
