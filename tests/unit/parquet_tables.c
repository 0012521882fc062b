// SPDX-License-Identifier: GPL-2.0
/*
 * parquet_tables.c - the tables bs-test-parquet writes for the DuckDB test
 * (--fixtures: every column kind, both APIs) and for the benchmark
 * (--bench: a random-I/O trace's I/Os), each with its expectations in
 * NAME.expect.json, computed from the values handed to the writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#define RNG_SEED 0x9e3779b97f4a7c15ULL
#include "rng.h"
#ifdef HAVE_ZSTD
#define HAVE_ZSTD_BOOL "true"
#else
#define HAVE_ZSTD_BOOL "false"
#endif
#include "pq_writer.h"
#include "pq_priv.h"
#include "parquet_tables.h"

/* input, and what the writer must store for it */
const char *const utf8_cases[][2] = {
	{ "plain ascii", "plain ascii" },
	{ "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80",
	  "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80" },
	{ "\xff", "\xef\xbf\xbd" },
	{ "a\xc3(b", "a\xef\xbf\xbd(b" },
	{ "end\xc3", "end\xef\xbf\xbd" },
	{ "\xe0\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },		/* overlong */
	{ "\xed\xa0\x80x", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdx" },		/* surrogate */
	/* > U+10FFFF */
	{ "\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
	{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },
	{ "12345678\x80", "12345678\xef\xbf\xbd" },
	{ "", "" },
};
const size_t n_utf8_cases = sizeof(utf8_cases) / sizeof(*utf8_cases);

/* ---- fixtures for the DuckDB test ---- */

static void create_file(const char *dir, const char *name, int *fd)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	*fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (*fd < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		exit(2);
	}
}

/* a JSON string of valid UTF-8 (the repaired values) */
static void json_str(FILE *f, const char *s, size_t len)
{
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* what a column must sum to etc.: decimal strings (sums pass 2^63) */
struct expect {
	const char *name;
	uint64_t nonnull;
	__int128 sum;
	bool has;
	__int128 min, max;	/* ints and booleans (0/1) */
	uint64_t bytes;		/* strings: total length once repaired */
};

static void i128_str(char *out, __int128 v)
{
	char tmp[64];
	int n = 0;
	bool neg = v < 0;
	unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;

	do {
		tmp[n++] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	if (neg)
		*out++ = '-';
	while (n)
		*out++ = tmp[--n];
	*out = 0;
}

static void expect_int(struct expect *e, __int128 v)
{
	e->nonnull++;
	e->sum += v;
	if (!e->has || v < e->min)
		e->min = v;
	if (!e->has || v > e->max)
		e->max = v;
	e->has = true;
}

static void write_expect(FILE *f, const struct expect *e, size_t n)
{
	char a[64], b[64], c[64];

	fprintf(f, "  \"columns\": {\n");
	for (size_t i = 0; i < n; i++) {
		i128_str(a, e[i].sum);
		i128_str(b, e[i].min);
		i128_str(c, e[i].max);
		fprintf(f, "    \"%s\": {\"nonnull\": %" PRIu64 ", \"sum\": \"%s\", "
			"\"min\": %s%s%s, "
			"\"max\": %s%s%s, \"bytes\": %" PRIu64 "}%s\n", e[i].name, e[i].nonnull, a,
			e[i].has ? "\"" : "", e[i].has ? b : "null", e[i].has ? "\"" : "",
			e[i].has ? "\"" : "", e[i].has ? c : "null", e[i].has ? "\"" : "",
			e[i].bytes, i + 1 < n ? "," : "");
	}
	fprintf(f, "  }");
}

enum { K_ID, K_TS, K_TSUTC, K_I32, K_U64, K_I8, K_U16, K_FLAG, K_COMM, K_UNIQ, K_TEXT, K_RAW,
       K_ALLNULL, K_SECTOR, K_MID, K_NCOLS };

static const struct pq_column kinds[K_NCOLS] = {
	[K_ID] = { "id", PQ_INT64, PQ_PLAIN_VALUE, 0, false, 0 },
	[K_TS] = { "ts", PQ_INT64, PQ_TIMESTAMP_NS, 0, false, 0 },
	[K_TSUTC] = { "ts_utc", PQ_INT64, PQ_TIMESTAMP_NS, 0, false, PQ_UTC | PQ_NULLABLE },
	[K_I32] = { "i32", PQ_INT32, PQ_INT, 32, true, PQ_NULLABLE },
	[K_U64] = { "u64", PQ_INT64, PQ_INT, 64, false, 0 },
	[K_I8] = { "i8", PQ_INT32, PQ_INT, 8, true, 0 },
	[K_U16] = { "u16", PQ_INT32, PQ_INT, 16, false, 0 },
	[K_FLAG] = { "flag", PQ_BOOLEAN, PQ_PLAIN_VALUE, 0, false, PQ_NULLABLE },
	[K_COMM] = { "comm", PQ_BYTE_ARRAY, PQ_STRING, 0, false, 0 },
	[K_UNIQ] = { "uniq", PQ_BYTE_ARRAY, PQ_STRING, 0, false, PQ_NULLABLE },
	[K_TEXT] = { "text", PQ_BYTE_ARRAY, PQ_STRING, 0, false, PQ_NULLABLE },
	[K_RAW] = { "raw", PQ_BYTE_ARRAY, PQ_PLAIN_VALUE, 0, false, PQ_NULLABLE },
	[K_ALLNULL] = { "allnull", PQ_INT64, PQ_PLAIN_VALUE, 0, false, PQ_NULLABLE },
	[K_SECTOR] = { "sector", PQ_INT64, PQ_INT, 64, false, PQ_NO_DICT },
	[K_MID] = { "mid", PQ_INT64, PQ_PLAIN_VALUE, 0, false, 0 },
};

static const char *const comms[20] = {
	"fio", "kworker/0:1", "jbd2/sda1-8", "postgres", "mysqld", "dd", "systemd-journal",
	"rsync", "tar", "gzip", "python3", "java", "nginx", "sshd", "bash", "cp", "btrfs-transacti",
	"xfsaild/sda", "kswapd0", "\xe6\x97\xa5\xe6\x9c\xac-app",
};

static int die_on(int rc, struct pq_writer *w, const char *what)
{
	if (rc) {
		fprintf(stderr, "%s: %s (%d)\n", what, w ? pq_errmsg(w) : "", rc);
		exit(1);
	}
	return 0;
}

/*
 * The fixtures go through either API: one set per column, or (row != NULL)
 * the values gathered for pq_put_row.
 */
static struct pq_value *row;

static int set_int(struct pq_writer *w, unsigned col, int64_t v)
{
	if (!row)
		return pq_set_int(w, col, v);
	row[col] = (struct pq_value){ .i = v };
	return 0;
}

static int set_uint(struct pq_writer *w, unsigned col, uint64_t v)
{
	if (!row)
		return pq_set_uint(w, col, v);
	row[col] = (struct pq_value){ .i = (int64_t)v };
	return 0;
}

static int set_bool(struct pq_writer *w, unsigned col, bool v)
{
	if (!row)
		return pq_set_bool(w, col, v);
	row[col] = (struct pq_value){ .b = v };
	return 0;
}

static int set_str(struct pq_writer *w, unsigned col, const void *s, size_t len)
{
	if (!row)
		return pq_set_str(w, col, s, len);
	row[col] = (struct pq_value){ .s = { s, len } };
	return 0;
}

/*
 * Ends the row.  With put_row, every 7th row is first offered with a null
 * in the last (REQUIRED) column: refused, it must leave nothing behind,
 * also of the strings staged before it.
 */
static int end_row(struct pq_writer *w, uint64_t i)
{
	int rc;

	if (!row)
		return pq_end_row(w);
	if (i % 7 == 0) {
		/* strings new to the dictionaries: a max and a min if they stayed */
		struct pq_value keep[3] = { row[K_MID], row[K_COMM], row[K_UNIQ] };

		row[K_MID] = (struct pq_value){ .null = true };
		row[K_COMM] = (struct pq_value){ .s = { "\xef\xbf\xbf-refused", 11 } };
		row[K_UNIQ] = (struct pq_value){ .s = { "!refused", 8 } };
		CHECK(pq_put_row(w, row) == -EINVAL, "row %" PRIu64 ": null in mid taken", i);
		row[K_MID] = keep[0];
		row[K_COMM] = keep[1];
		row[K_UNIQ] = keep[2];
	}
	rc = pq_put_row(w, row);
	for (unsigned k = 0; k < K_NCOLS; k++)
		row[k] = (struct pq_value){ .null = true };
	return rc;
}

/* every column kind, nulls, many row groups and pages, long and invalid strings */
static void fixture_kinds(const char *dir, const char *name, uint64_t rows, uint32_t rg_rows,
			  uint32_t page_rows, int zstd_level, bool put_row, bool zstd_always)
{
	struct pq_value values[K_NCOLS];
	struct pq_options o = { .row_group_rows = rg_rows, .page_rows = page_rows,
				   .zstd_level = zstd_level, .zstd_always = zstd_always };
	struct expect e[K_NCOLS] = { 0 };
	char path[4096], buf[256];
	static char big[100001];
	FILE *f;
	int fd, err = 0;
	struct pq_writer *w;

	create_file(dir, name, &fd);
	w = pq_create(kinds, K_NCOLS, &o, pq_write_fd, (void *)(intptr_t)fd, &err);
	die_on(!w ? err : 0, NULL, "create");
	die_on(pq_add_meta(w, "blkscope.test", "kinds"), w, "meta");
	for (int i = 0; i < K_NCOLS; i++)
		e[i].name = kinds[i].name;
	snprintf(path, sizeof(path), "%s/%s.expect.json", dir, name);
	f = fopen(path, "wx");
	if (!f)
		exit(2);
	fprintf(f, "{\n  \"rows\": %" PRIu64 ",\n  \"samples\": [\n", rows);
	row = put_row ? values : NULL;
	for (unsigned k = 0; k < K_NCOLS; k++)
		values[k] = (struct pq_value){ .null = true };
	for (uint64_t i = 0; i < rows; i++) {
		int64_t ts = 1700000000000000000LL + (int64_t)i * 1000 + (int64_t)(i * 7919 % 13);
		int64_t i32 = (int64_t)((i * 2654435761u) % 200001) - 100000;
		uint64_t u64 = i % 3 ? i : (1ULL << 63) + i;
		const char *text = NULL, *want = NULL;
		size_t tlen = 0, wlen = 0;

		die_on(set_int(w, K_ID, (int64_t)i), w, "id");
		expect_int(&e[K_ID], i);
		die_on(set_int(w, K_TS, ts), w, "ts");
		expect_int(&e[K_TS], ts);
		if (i % 5) {
			die_on(set_int(w, K_TSUTC, ts), w, "ts_utc");
			expect_int(&e[K_TSUTC], ts);
		}
		if (i % 10 != 3) {
			die_on(set_int(w, K_I32, i32), w, "i32");
			expect_int(&e[K_I32], i32);
		}
		die_on(set_uint(w, K_U64, u64), w, "u64");
		expect_int(&e[K_U64], u64);
		die_on(set_int(w, K_I8, (int64_t)(i % 256) - 128), w, "i8");
		expect_int(&e[K_I8], (int64_t)(i % 256) - 128);
		die_on(set_int(w, K_U16, (int64_t)(i * 31 % 65536)), w, "u16");
		expect_int(&e[K_U16], i * 31 % 65536);
		if (i % 3) {
			die_on(set_bool(w, K_FLAG, i % 7 < 3), w, "flag");
			expect_int(&e[K_FLAG], i % 7 < 3);
		}
		die_on(set_str(w, K_COMM, comms[i % 20], strlen(comms[i % 20])), w, "comm");
		e[K_COMM].nonnull++;
		e[K_COMM].bytes += strlen(comms[i % 20]);
		if (i % 11) {
			int n = snprintf(buf, sizeof(buf), "u-%" PRIu64 "-%" PRIx64, i,
					 i * 0x9e3779b9u);

			die_on(set_str(w, K_UNIQ, buf, (size_t)n), w, "uniq");
			e[K_UNIQ].nonnull++;
			e[K_UNIQ].bytes += (uint64_t)n;
		}
		/* text: the UTF-8 cases, a 100 kB string now and then, nulls */
		if (i % 9973 == 17) {
			memset(big, 'a' + (int)(i % 26), sizeof(big) - 1);
			text = want = big;
			tlen = wlen = sizeof(big) - 1;
		} else if (i % 4) {
			text = utf8_cases[i % n_utf8_cases][0];
			want = utf8_cases[i % n_utf8_cases][1];
			tlen = strlen(text);
			wlen = strlen(want);
		}
		if (text) {
			die_on(set_str(w, K_TEXT, text, tlen), w, "text");
			e[K_TEXT].nonnull++;
			e[K_TEXT].bytes += wlen;
			/* raw bytes are kept as they are, invalid UTF-8 included */
			die_on(set_str(w, K_RAW, text, tlen), w, "raw");
			e[K_RAW].nonnull++;
			e[K_RAW].bytes += tlen;
		}
		{
			uint64_t sector = rnd64() % (1ULL << 31);
			uint64_t rg = rg_rows ? rg_rows : 1 << 20;
			int64_t mid = (i % rg) < rg / 2 ? (int64_t)(i % 7) : (int64_t)i * 3;

			die_on(set_uint(w, K_SECTOR, sector), w, "sector");
			expect_int(&e[K_SECTOR], sector);
			die_on(set_int(w, K_MID, mid), w, "mid");
			expect_int(&e[K_MID], mid);
		}
		die_on(end_row(w, i), w, "end_row");
		/* a few rows spelled out: every text case once, and the edges */
		if ((i < n_utf8_cases * 4 && i % 4) || i == rows - 1 || i % 9973 == 17) {
			fprintf(f, "    {\"row\": %" PRIu64 ", \"text\": ", i);
			if (want && wlen < 1000)
				json_str(f, want, wlen);
			else
				fprintf(f, "null");
			fprintf(f, ", \"text_len\": %zu, \"raw_hex\": \"", want ? wlen : 0);
			for (size_t k = 0; text && k < tlen && k < 64; k++)
				fprintf(f, "%02X", (unsigned char)text[k]);
			fprintf(f, "\", \"ts\": \"%" PRId64 "\", \"u64\": \"%" PRIu64 "\", "
				"\"comm\": ", ts, u64);
			json_str(f, comms[i % 20], strlen(comms[i % 20]));
			fprintf(f, "},\n");
		}
	}
	fprintf(f, "    null\n  ],\n");
	die_on(pq_close(w), w, "close");
	fprintf(f, "  \"invalid_utf8\": %" PRIu64 ",\n  \"zstd\": %s,\n", pq_invalid_utf8(w),
		HAVE_ZSTD_BOOL);
	write_expect(f, e, K_NCOLS);
	fprintf(f, "\n}\n");
	fclose(f);
	pq_free(w);
	close(fd);
}

int parquet_fixtures(const char *dir)
{
	fixture_kinds(dir, "kinds.parquet", 50000, 7000, 1000, 0, false, false);
	/* uncompressed, through pq_put_row, with refused rows */
	fixture_kinds(dir, "plain.parquet", 3000, 1000, 0, -1, true, false);
	/* every chunk compressed, though one row does not gain from it */
	fixture_kinds(dir, "one.parquet", 1, 0, 0, 0, false, true);
	fixture_kinds(dir, "empty.parquet", 0, 0, 0, 0, true, false);
	if (failures)
		fprintf(stderr, "%d checks, %d failures\n", checks, failures);
	return failures;
}

/* ---- the benchmark: a table shaped like a random-I/O trace's I/Os ---- */

enum { B_DEV, B_SECTOR, B_BYTES, B_RWBS, B_PID, B_COMM, B_CPU, B_Q, B_G, B_I, B_D, B_C,
       B_Q2G, B_G2I, B_I2D, B_D2C, B_Q2C, B_MERGES, B_DEPTH, B_NCOLS };

static const struct pq_column bench_cols[B_NCOLS] = {
	[B_DEV] = { "dev", PQ_INT32, PQ_INT, 32, false, 0 },
	[B_SECTOR] = { "sector", PQ_INT64, PQ_INT, 64, false, 0 },
	[B_BYTES] = { "bytes", PQ_INT32, PQ_INT, 32, false, 0 },
	[B_RWBS] = { "rwbs", PQ_BYTE_ARRAY, PQ_STRING, 0, false, 0 },
	[B_PID] = { "pid", PQ_INT32, PQ_INT, 32, false, 0 },
	[B_COMM] = { "comm", PQ_BYTE_ARRAY, PQ_STRING, 0, false, 0 },
	[B_CPU] = { "cpu", PQ_INT32, PQ_INT, 16, false, 0 },
	[B_Q] = { "q_time", PQ_INT64, PQ_TIMESTAMP_NS, 0, false, 0 },
	[B_G] = { "g_time", PQ_INT64, PQ_PLAIN_VALUE, 0, false, PQ_NULLABLE },
	[B_I] = { "i_time", PQ_INT64, PQ_PLAIN_VALUE, 0, false, PQ_NULLABLE },
	[B_D] = { "d_time", PQ_INT64, PQ_PLAIN_VALUE, 0, false, 0 },
	[B_C] = { "c_time", PQ_INT64, PQ_PLAIN_VALUE, 0, false, 0 },
	[B_Q2G] = { "q2g", PQ_INT64, PQ_PLAIN_VALUE, 0, false, PQ_NULLABLE },
	[B_G2I] = { "g2i", PQ_INT64, PQ_PLAIN_VALUE, 0, false, PQ_NULLABLE },
	[B_I2D] = { "i2d", PQ_INT64, PQ_PLAIN_VALUE, 0, false, PQ_NULLABLE },
	[B_D2C] = { "d2c", PQ_INT64, PQ_PLAIN_VALUE, 0, false, 0 },
	[B_Q2C] = { "q2c", PQ_INT64, PQ_PLAIN_VALUE, 0, false, 0 },
	[B_MERGES] = { "merges", PQ_INT32, PQ_INT, 16, false, 0 },
	[B_DEPTH] = { "depth", PQ_INT32, PQ_INT, 16, false, 0 },
};

static const char *const rwbs_names[] = { "R", "W", "WS", "RA", "FWS", "D" };

/* roughly exponential, mean m (a cheap inverse transform) */
static int64_t expo(double m)
{
	double u = ((double)(rnd64() >> 11) + 0.5) / 9007199254740992.0;

	return (int64_t)(-log(u) * m);
}

struct io {
	uint32_t dev, bytes, pid, cpu, merges, depth;
	uint64_t sector;
	const char *rwbs, *comm;
	int64_t q, g, i, d, c;	/* i < 0: no insert (no scheduler) */
};

/* the next I/O; q is the arrival time of the previous one */
static void next_io(struct io *io, int64_t *q)
{
	int64_t q2g, g2i, i2d, d2c;

	*q += expo(20000);				/* ~50k IOPS */
	io->q = *q;
	io->dev = rnd64() % 16 ? (8u << 20) : (259u << 20 | 1);
	io->sector = rnd64() % (1ULL << 31);
	io->bytes = rnd64() % 10 ? 4096 : 512u << (rnd64() % 8);
	io->rwbs = rwbs_names[rnd64() % 8 < 5 ? rnd64() % 2 : rnd64() % 6];
	io->pid = 1000 + (uint32_t)(rnd64() % 50) * 37;
	io->comm = comms[io->pid % 20];
	io->cpu = (uint32_t)(rnd64() % 2);
	io->merges = rnd64() % 20 ? 0 : (uint32_t)(rnd64() % 4);
	io->depth = (uint32_t)(rnd64() % 32);
	q2g = 150 + expo(100);
	g2i = rnd64() % 5 ? 200 + expo(300) : -1;
	i2d = 300 + expo(2000);
	d2c = 20000 + expo(60000);
	io->g = io->q + q2g;
	io->i = g2i < 0 ? -1 : io->g + g2i;
	io->d = io->g + (g2i < 0 ? 0 : g2i) + i2d;
	io->c = io->d + d2c;
}

/* the bench writes whole rows at once (pq_put_row), the fixtures per column */
static void io_values(const struct io *io, struct pq_value *v)
{
	memset(v, 0, B_NCOLS * sizeof(*v));
	v[B_DEV].i = io->dev;
	v[B_SECTOR].i = (int64_t)io->sector;
	v[B_BYTES].i = io->bytes;
	v[B_RWBS].s.p = io->rwbs;
	v[B_RWBS].s.len = strlen(io->rwbs);
	v[B_PID].i = io->pid;
	v[B_COMM].s.p = io->comm;
	v[B_COMM].s.len = strlen(io->comm);
	v[B_CPU].i = io->cpu;
	v[B_Q].i = io->q;
	v[B_G].i = io->g;
	v[B_D].i = io->d;
	v[B_C].i = io->c;
	v[B_Q2G].i = io->g - io->q;
	if (io->i >= 0) {
		v[B_I].i = io->i;
		v[B_G2I].i = io->i - io->g;
		v[B_I2D].i = io->d - io->i;
	} else {
		v[B_I].null = v[B_G2I].null = v[B_I2D].null = true;
	}
	v[B_D2C].i = io->c - io->d;
	v[B_Q2C].i = io->c - io->q;
	v[B_MERGES].i = io->merges;
	v[B_DEPTH].i = io->depth;
}

static void expect_io(struct expect *e, const struct io *io)
{
	expect_int(&e[0], io->sector);
	expect_int(&e[1], io->bytes);
	expect_int(&e[2], io->q);
	if (io->i >= 0)
		expect_int(&e[3], io->i);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int parquet_bench(uint64_t rows, const char *path)
{
	struct expect e[4] = { { .name = "sector" }, { .name = "bytes" }, { .name = "q_time" },
			       { .name = "i_time" } }, scratch[4] = { 0 };
	struct pq_value v[B_NCOLS];
	struct pq_writer *w;
	struct rusage ru;
	struct io io;
	double t0, c0, gen, gen_cpu, t1, c1;
	int64_t q = 1700000000000000000LL;
	char epath[4096];
	bool to_stdout = !strcmp(path, "-");
	FILE *f, *out = to_stdout ? stderr : stdout;
	int fd, err = 0;

	/*
	 * The generator alone (with the row's values and the expectations),
	 * to take its cost out of the writer's.
	 */
	rng_seed(42);
	t0 = now();
	c0 = cpu_now();
	for (uint64_t r = 0; r < rows; r++) {
		next_io(&io, &q);
		io_values(&io, v);
		expect_io(scratch, &io);
		__asm__ volatile("" : : "r"(v) : "memory");
	}
	gen = now() - t0;
	gen_cpu = cpu_now() - c0;

	/* "-": the file goes to stdout (a pipe: the writer only appends) */
	fd = to_stdout ? STDOUT_FILENO
		       : open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 2;
	}
	w = pq_create(bench_cols, B_NCOLS, NULL, pq_write_fd, (void *)(intptr_t)fd, &err);
	die_on(!w ? err : 0, NULL, "create");
	rng_seed(42);
	q = 1700000000000000000LL;
	t0 = now();
	c0 = cpu_now();
	for (uint64_t r = 0; r < rows; r++) {
		next_io(&io, &q);
		io_values(&io, v);
		expect_io(e, &io);
		die_on(pq_put_row(w, v), w, "row");
	}
	die_on(pq_close(w), w, "close");
	t1 = now() - t0;
	c1 = cpu_now() - c0;
	getrusage(RUSAGE_SELF, &ru);
	fprintf(out, "rows %" PRIu64 " columns %d file %" PRIu64 " bytes: %.2f bytes/row\n", rows,
		B_NCOLS, pq_bytes_written(w), (double)pq_bytes_written(w) / (double)rows);
	fprintf(out, "generator alone: %.2f s (cpu %.2f s)\n", gen, gen_cpu);
	fprintf(out, "generator+writer: %.2f s (cpu %.2f s): %.2f M rows/s\n", t1, c1,
		rows / t1 / 1e6);
	fprintf(out, "writer alone (cpu): %.2f s: %.2f M rows/s, %.0f ns/row\n", c1 - gen_cpu,
		rows / (c1 - gen_cpu) / 1e6, (c1 - gen_cpu) * 1e9 / (double)rows);
	fprintf(out, "max RSS %.1f MiB\n", ru.ru_maxrss / 1024.0);
	pq_free(w);
	if (close(fd))
		return 1;
	if (to_stdout)
		return 0;
	snprintf(epath, sizeof(epath), "%s.expect.json", path);
	f = fopen(epath, "w");
	if (!f)
		return 2;
	fprintf(f, "{\n  \"rows\": %" PRIu64 ",\n  \"zstd\": %s,\n", rows, HAVE_ZSTD_BOOL);
	write_expect(f, e, 4);
	fprintf(f, "\n}\n");
	return fclose(f) ? 1 : 0;
}

