// SPDX-License-Identifier: GPL-2.0
/*
 * test_parquet.c - unit tests of the Parquet writer (parquet/), and
 * the program that writes the files the DuckDB test reads.
 *
 *   bs-test-parquet                      encoders decoded back, UTF-8 repair,
 *                                        API errors, file framing
 *   bs-test-parquet --fixtures DIR       writes DIR/{kinds,one,empty,plain}.parquet
 *                                        and DIR/NAME.expect.json (what a reader must see)
 *   bs-test-parquet --bench ROWS FILE    a trace-shaped table of ROWS I/Os; prints
 *                                        rows/s, bytes/row, max RSS (and FILE.expect.json);
 *                                        FILE "-" is stdout (figures on stderr)
 *
 * The fixtures and the benchmark are in parquet_tables.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#define RNG_SEED 0x9e3779b97f4a7c15ULL
#include "rng.h"
#include "pq_writer.h"
#include "pq_priv.h"
#include "parquet_tables.h"

/* ---- decoders, written from the format description, to check the encoders ---- */

static uint64_t rd_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (*p < end && shift < 64) {
		uint8_t b = *(*p)++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
		shift += 7;
	}
	return v;
}

static int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* value k of an LSB-first bit stream of width-bit values */
static uint64_t getbits(const uint8_t *p, uint64_t k, unsigned width)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < width; i++) {
		uint64_t bit = k * width + i;

		v |= (uint64_t)((p[bit / 8] >> (bit % 8)) & 1) << i;
	}
	return v;
}

/* decodes n values of an RLE/bit-packed hybrid; -1 unless it is exactly len bytes */
static int rle_decode(const uint8_t *p, size_t len, unsigned width, uint32_t *out, size_t n)
{
	const uint8_t *end = p + len;
	size_t got = 0;

	while (got < n) {
		uint64_t h;

		if (p >= end)
			return -1;
		h = rd_varint(&p, end);
		if (h & 1) {
			uint64_t count = (h >> 1) * 8;

			if ((size_t)(end - p) < (h >> 1) * width)
				return -1;
			for (uint64_t k = 0; k < count; k++) {
				uint64_t v = getbits(p, k, width);

				if (got < n)
					out[got++] = (uint32_t)v;
				else if (v)
					return -1;	/* padding must be zeros */
			}
			p += (h >> 1) * width;
		} else {
			uint32_t v = 0;

			for (unsigned i = 0; i < (width + 7) / 8; i++)
				v |= (uint32_t)*p++ << (8 * i);
			if (!(h >> 1) || got + (h >> 1) > n)
				return -1;
			for (uint64_t k = 0; k < h >> 1; k++)
				out[got++] = v;
		}
	}
	return p == end ? 0 : -1;
}

static int delta_decode(const uint8_t *p, size_t len, bool i32, int64_t *out, size_t n)
{
	const uint8_t *end = p + len;
	uint64_t block = rd_varint(&p, end), minis = rd_varint(&p, end);
	uint64_t total = rd_varint(&p, end), got = 1, per;
	int64_t prev = unzigzag(rd_varint(&p, end));

	if (total != n || !minis || block % minis || (block / minis) % 32)
		return -1;
	per = block / minis;
	if (n)
		out[0] = prev;
	while (got < total) {
		int64_t min = unzigzag(rd_varint(&p, end));
		const uint8_t *w = p;

		p += minis;
		for (uint64_t mb = 0; mb < minis && got < total; mb++) {
			if (w[mb] > 64 || p + per * w[mb] / 8 > end)
				return -1;
			for (uint64_t k = 0; k < per && got < total; k++) {
				uint64_t v = (uint64_t)prev + (uint64_t)min + getbits(p, k, w[mb]);

				prev = i32 ? (int32_t)(uint32_t)v : (int64_t)v;
				out[got++] = prev;
			}
			p += per * w[mb] / 8;
		}
	}
	return p == end ? 0 : -1;
}

static void test_rle(void)
{
	static uint32_t v[5000], back[5000];
	const unsigned widths[] = { 1, 2, 3, 5, 8, 13, 17, 24, 31, 32 };

	for (unsigned wi = 0; wi < sizeof(widths) / sizeof(*widths); wi++) {
		unsigned w = widths[wi];
		uint64_t mask = w == 32 ? 0xffffffffu : (1u << w) - 1;

		for (int trial = 0; trial < 40; trial++) {
			size_t n = trial < 20 ? (size_t)trial : rnd64() % 5000;
			struct pq_buf b = { 0 };

			/* runs of every length around 8, between odd literal stretches */
			for (size_t i = 0; i < n;) {
				size_t run = trial % 3 ? rnd64() % 20 + 1 : 1;
				uint32_t x = (uint32_t)(rnd64() & mask);

				for (size_t k = 0; k < run && i < n; k++)
					v[i++] = x;
			}
			pq_rle_hybrid(&b, v, n, w);
			memset(back, 0xff, sizeof(back));
			CHECK(!b.oom && rle_decode(b.p, b.len, w, back, n) == 0,
			      "rle width %u n %zu: does not decode", w, n);
			CHECK(!memcmp(v, back, n * sizeof(*v)), "rle width %u n %zu: differs", w,
			      n);
			pq_buf_free(&b);
		}
	}
	/* one long run is one RLE run: 2 bytes for 1000 values */
	{
		struct pq_buf b = { 0 };
		uint8_t lv[1000];

		memset(lv, 1, sizeof(lv));
		pq_rle_levels(&b, lv, 1000, back);
		CHECK(b.len == 3, "1000 equal levels take %zu bytes", b.len);
		lv[500] = 0;
		b.len = 0;
		pq_rle_levels(&b, lv, 1000, back);
		CHECK(rle_decode(b.p, b.len, 1, back, 1000) == 0 && back[500] == 0 &&
		      back[499] == 1 && back[999] == 1, "levels with one null do not decode");
		pq_buf_free(&b);
	}
}

static void delta_case(const int64_t *v, size_t n, bool i32, const char *what)
{
	static int64_t back[3000];
	struct pq_buf b = { 0 };

	if (i32)
		pq_delta_i32(&b, v, n);
	else
		pq_delta_i64(&b, v, n);
	CHECK(!b.oom && delta_decode(b.p, b.len, i32, back, n) == 0, "delta %s n %zu: no decode",
	      what, n);
	CHECK(!memcmp(v, back, n * sizeof(*v)), "delta %s n %zu: differs", what, n);
	pq_buf_free(&b);
}

static void test_delta(void)
{
	static int64_t v[3000];
	size_t sizes[] = { 0, 1, 2, 31, 32, 33, 127, 128, 129, 130, 257, 1000, 3000 };

	for (size_t si = 0; si < sizeof(sizes) / sizeof(*sizes); si++) {
		size_t n = sizes[si];
		int64_t t = 1700000000000000000LL;

		for (size_t i = 0; i < n; i++)
			v[i] = t += (int64_t)(rnd64() % 5000);
		delta_case(v, n, false, "timestamps");
		for (size_t i = 0; i < n; i++)
			v[i] = (int64_t)rnd64();
		delta_case(v, n, false, "random int64");
		for (size_t i = 0; i < n; i++)
			v[i] = i % 2 ? INT64_MIN : INT64_MAX;
		delta_case(v, n, false, "int64 extremes");
		for (size_t i = 0; i < n; i++)
			v[i] = (int32_t)rnd64();
		delta_case(v, n, true, "random int32");
		for (size_t i = 0; i < n; i++)
			v[i] = i % 2 ? INT32_MIN : INT32_MAX;
		delta_case(v, n, true, "int32 extremes");
		for (size_t i = 0; i < n; i++)
			v[i] = 4096;
		delta_case(v, n, false, "constant");
	}
	/* a constant column costs the header and 5 bytes per 128 values */
	{
		struct pq_buf b = { 0 };

		for (size_t i = 0; i < 1280; i++)
			v[i] = 7;
		pq_delta_i64(&b, v, 1280);
		CHECK(b.len < 60, "constant delta page: %zu bytes", b.len);
		pq_buf_free(&b);
	}
}


static void test_utf8(void)
{
	for (size_t i = 0; i < n_utf8_cases; i++) {
		struct pq_buf b = { 0 };
		const char *in = utf8_cases[i][0], *want = utf8_cases[i][1];
		size_t bad = pq_utf8_repair(&b, (const uint8_t *)in, strlen(in));

		CHECK(b.len == strlen(want) && (!b.len || !memcmp(b.p, want, b.len)),
		      "utf8 case %zu", i);
		CHECK((bad == 0) == !strcmp(in, want), "utf8 case %zu: %zu repaired", i, bad);
		CHECK((pq_utf8_valid_prefix((const uint8_t *)in, strlen(in)) == strlen(in)) ==
		      !strcmp(in, want), "utf8 case %zu: validity", i);
		pq_buf_free(&b);
	}
}

/* ---- output to memory, with an optional failure after some bytes ---- */
struct sink {
	struct pq_buf b;
	size_t fail_after;	/* 0: never */
};

static int sink_write(void *cookie, const void *buf, size_t len)
{
	struct sink *s = cookie;

	if (s->fail_after && s->b.len + len > s->fail_after)
		return -ENOSPC;
	pq_put(&s->b, buf, len);
	return s->b.oom ? -ENOMEM : 0;
}

static uint32_t rd_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* magic at both ends, and a footer length that fits */
static bool framed(const struct pq_buf *b)
{
	return b->len >= 12 && !memcmp(b->p, "PAR1", 4) && !memcmp(b->p + b->len - 4, "PAR1", 4) &&
	       rd_le32(b->p + b->len - 8) > 0 && rd_le32(b->p + b->len - 8) <= b->len - 12;
}

static void test_api(void)
{
	const struct pq_column cols[] = {
		{ .name = "a", .type = PQ_INT32, .logical = PQ_INT, .int_bits = 8,
		  .int_signed = true },
		{ .name = "b", .type = PQ_BYTE_ARRAY, .logical = PQ_STRING, .flags = PQ_NULLABLE },
		{ .name = "c", .type = PQ_INT64, .logical = PQ_INT, .int_bits = 64 },
	};
	const struct pq_column bad[][2] = {
		{ { .name = "x", .type = PQ_INT64 }, { .name = "x", .type = PQ_INT64 } },
		{ { .name = "x", .type = PQ_INT64, .logical = PQ_STRING }, { .name = "y" } },
		{ { .name = "x", .type = PQ_INT32, .logical = PQ_INT, .int_bits = 64 },
		  { .name = "y" } },
		{ { .name = "x", .type = PQ_INT64, .flags = PQ_UTC }, { .name = "y" } },
		{ { .name = "", .type = PQ_INT64 }, { .name = "y" } },
		{ { .name = "x", .type = 3 }, { .name = "y" } },
	};
	struct sink s = { 0 };
	struct pq_writer *w;
	int err = 0;

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		err = 0;
		w = pq_create(bad[i], 2, NULL, sink_write, &s, &err);
		CHECK(!w && err == -EINVAL, "bad schema %zu accepted (%d)", i, err);
	}
	w = pq_create(cols, 3, NULL, sink_write, &s, &err);
	CHECK(w != NULL, "create: %d", err);
	if (!w)
		return;
	CHECK(pq_set_int(w, 0, 200) == -ERANGE, "int8 200 accepted");
	CHECK(pq_set_int(w, 0, -129) == -ERANGE, "int8 -129 accepted");
	CHECK(pq_set_int(w, 0, -128) == 0, "int8 -128 refused");
	CHECK(pq_set_int(w, 0, 1) == -EINVAL, "a column set twice");
	CHECK(pq_set_str(w, 0, "x", 1) == -EINVAL, "a string in an int column");
	CHECK(pq_set_int(w, 9, 1) == -EINVAL, "column 9 accepted");
	CHECK(pq_end_row(w) == -EINVAL, "row without required column c ended");
	CHECK(pq_set_null(w, 2) == -EINVAL, "null in a required column");
	CHECK(pq_set_int(w, 2, -1) == -ERANGE, "negative value in an unsigned column");
	CHECK(pq_set_uint(w, 2, UINT64_MAX) == 0, "UINT64_MAX refused");
	CHECK(pq_end_row(w) == 0, "completed row refused: %s", pq_errmsg(w));
	CHECK(pq_set_str(w, 1, "\xff", 1) == 0 && pq_invalid_utf8(w) == 1, "repair not counted");
	CHECK(pq_add_meta(w, "k", "v") == 0, "metadata refused");
	CHECK(pq_close(w) == -EINVAL, "closed with a row half set");
	CHECK(pq_set_int(w, 0, 5) == 0 && pq_set_uint(w, 2, 7) == 0 && pq_end_row(w) == 0,
	      "the half-set row cannot be completed: %s", pq_errmsg(w));
	CHECK(pq_close(w) == 0 && framed(&s.b) && pq_rows(w) == 2, "close: %s", pq_errmsg(w));
	pq_free(w);
	pq_buf_free(&s.b);

	/* put_row: a refused row leaves nothing behind */
	memset(&s, 0, sizeof(s));
	w = pq_create(cols, 3, NULL, sink_write, &s, &err);
	CHECK(w != NULL, "create: %d", err);
	if (w) {
		struct pq_value v[3] = { { .i = 5 }, { .s = { "x", 1 } }, { .i = 6 } };

		v[0].i = 128;
		CHECK(pq_put_row(w, v) == -ERANGE, "put_row: int8 128 accepted");
		v[0].i = -5;
		v[1].s.p = "\xff";
		v[2].null = true;
		CHECK(pq_put_row(w, v) == -EINVAL, "put_row: null in a required column");
		CHECK(pq_invalid_utf8(w) == 0, "a refused row's repair counted");
		v[1].s.p = "x";
		v[2].null = false;
		v[2].i = -1;	/* INT(64, false): all 64 bits, unsigned */
		CHECK(pq_put_row(w, v) == 0, "put_row refused: %s", pq_errmsg(w));
		v[1].null = true;
		CHECK(pq_put_row(w, v) == 0, "put_row with a null refused: %s", pq_errmsg(w));
		CHECK(pq_set_int(w, 0, 1) == 0 && pq_put_row(w, v) == -EINVAL,
		      "put_row after a set");
		CHECK(pq_set_uint(w, 2, 1) == 0 && pq_end_row(w) == 0, "end_row after put_row");
		CHECK(pq_close(w) == 0 && pq_rows(w) == 3 && framed(&s.b), "put_row file");
		pq_free(w);
	}
	pq_buf_free(&s.b);

	/* write errors are sticky and reported */
	memset(&s, 0, sizeof(s));
	s.fail_after = 100;
	w = pq_create(cols, 3, &(struct pq_options){ .row_group_rows = 10 }, sink_write, &s, &err);
	CHECK(w != NULL, "create: %d", err);
	if (w) {
		int rc = 0;

		for (int i = 0; i < 100 && !rc; i++) {
			pq_set_int(w, 0, i);
			pq_set_int(w, 2, i);
			rc = pq_end_row(w);
		}
		CHECK(rc == -ENOSPC, "a failing write gave %d", rc);
		CHECK(pq_close(w) == -ENOSPC, "close after a failed write");
		CHECK(strstr(pq_errmsg(w), "write") != NULL, "message: %s", pq_errmsg(w));
		pq_free(w);
	}
	pq_buf_free(&s.b);

	/* no rows: still a valid file, magic, footer, length, magic */
	memset(&s, 0, sizeof(s));
	w = pq_create(cols, 3, NULL, sink_write, &s, &err);
	CHECK(w && pq_close(w) == 0 && framed(&s.b), "empty file is not framed");
	CHECK(w && pq_bytes_written(w) == s.b.len, "bytes_written %" PRIu64 " vs %zu",
	      w ? pq_bytes_written(w) : 0, s.b.len);
	CHECK(w && pq_end_row(w) == -EINVAL, "a row after close");
	pq_free(w);
	pq_buf_free(&s.b);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--fixtures")) {
		return parquet_fixtures(argv[2]) ? 1 : 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--bench"))
		return parquet_bench(strtoull(argv[2], NULL, 10), argv[3]);
	if (argc != 1) {
		fprintf(stderr, "usage: %s [--fixtures DIR | --bench ROWS FILE]\n", argv[0]);
		return 2;
	}
	test_rle();
	test_delta();
	test_utf8();
	test_api();
	printf("%d checks, %d failures\n", checks, failures);
	return failures ? 1 : 0;
}
