// SPDX-License-Identifier: GPL-2.0
/*
 * test_util.c - unit tests of util/: the hash map (against a plain array as
 * the model, with keys that collide after masking), the grow helper, and
 * the escapers on hostile strings (every output checked byte for byte), and
 * the seconds formatter against printf on the same double.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_escape.h"
#include "bs_hash.h"
#include "rng.h"
#include "bs_numfmt.h"
#include "check.h"

static void test_hash(void)
{
	struct bs_hash h = { 0 };
	enum { N = 100000 };
	uint64_t *model = bs_xcalloc(N, sizeof(*model));
	bool inserted;
	size_t i;

	for (i = 0; i < N; i++) {
		uint64_t key = (uint64_t)i << 20;	/* dev_t-like: low bits all zero */
		uint64_t *v = bs_hash_put(&h, key, i * 3, &inserted);

		CHECK(inserted && *v == i * 3, "insert %zu", i);
		model[i] = i * 3;
	}
	CHECK(h.len == N, "len %zu", h.len);
	for (i = 0; i < N; i += 7)
		*bs_hash_get(&h, (uint64_t)i << 20) += 1, model[i] += 1;
	for (i = 0; i < N; i++) {
		uint64_t *v = bs_hash_get(&h, (uint64_t)i << 20);

		CHECK(v && *v == model[i], "get %zu", i);
	}
	CHECK(!bs_hash_get(&h, 12345), "absent key found");
	bs_hash_put(&h, 0, 99, &inserted);
	CHECK(!inserted, "existing key reinserted");
	bs_hash_free(&h);
	CHECK(!bs_hash_get(&h, 0), "freed map still finds");
	free(model);
}

/* Removal against a model: random puts and deletes over a small key space
 * (long probe runs, wrap-around at the table's end), every key checked. */
static void test_hash_del(void)
{
	struct bs_hash h = { 0 };
	enum { KEYS = 3000, OPS = 200000 };
	uint64_t *model = bs_xcalloc(KEYS, sizeof(*model));	/* value + 1, 0: absent */
	uint64_t x = 12345, v;
	size_t i, len = 0, bad = 0;

	for (i = 0; i < OPS; i++) {
		size_t k;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		k = (x >> 33) % KEYS;
		if ((x >> 20) & 1) {
			bool was = bs_hash_del(&h, k * 64);

			bad += was != (model[k] != 0);
			len -= was;
			model[k] = 0;
		} else {
			bool inserted;
			uint64_t *p = bs_hash_put(&h, k * 64, i, &inserted);

			len += inserted;
			*p = i;
			model[k] = i + 1;
		}
	}
	CHECK(!bad, "%zu deletes disagreed with the model", bad);
	CHECK(h.len == len, "len %zu, model %zu", h.len, len);
	for (i = 0, bad = 0; i < KEYS; i++) {
		uint64_t *p = bs_hash_get(&h, i * 64);

		v = p ? *p + 1 : 0;
		bad += v != model[i];
	}
	CHECK(!bad, "%zu keys disagree with the model after deletes", bad);
	CHECK(!bs_hash_del(&h, 7), "absent key deleted");
	bs_hash_free(&h);
	free(model);
}

static void test_grow(void)
{
	int *a = NULL;
	size_t cap = 0, i;

	for (i = 0; i < 1000; i++) {
		BS_GROW(a, cap, i, 4);
		a[i] = (int)i;
	}
	CHECK(cap >= 1000 && a[999] == 999, "grow cap %zu", cap);
	free(a);
}

/* the escaper's output for s, in a static buffer */
static const char *out_of(void (*fn)(FILE *, const char *), const char *s)
{
	static char buf[512];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	fn(f, s);
	fclose(f);
	return buf;
}

#define FFFD "\xef\xbf\xbd"

static void test_escape(void)
{
	uint32_t cp;
	char t[16];

	CHECK(bs_utf8_decode((const unsigned char *)"\xc3\xa9", 2, &cp) == 2 && cp == 0xe9, "é");
	CHECK(!bs_utf8_decode((const unsigned char *)"\xc0\xaf", 2, &cp), "overlong accepted");
	CHECK(!bs_utf8_decode((const unsigned char *)"\xed\xa0\x80", 3, &cp), "surrogate accepted");
	CHECK(!bs_utf8_decode((const unsigned char *)"\xf4\x90\x80\x80", 4, &cp),
	      "> U+10FFFF accepted");
	CHECK(!bs_utf8_decode((const unsigned char *)"\xe2\x82", 2, &cp), "truncated accepted");

	CHECK(!strcmp(out_of(bs_json_string, "a\"b\\c\x1b[31m\x07\xff" "é"),
		      "\"a\\\"b\\\\c\\u001b[31m\\u0007" FFFD "é\""),
	      "json: %s", out_of(bs_json_string, "a\"b\\c\x1b[31m\x07\xff" "é"));
	CHECK(!strcmp(out_of(bs_xml_text, "<a&b>\"'\x1b\x07\xfe\tz"),
		      "&lt;a&amp;b&gt;&quot;&#39;" FFFD FFFD FFFD "\tz"),
	      "xml: %s", out_of(bs_xml_text, "<a&b>\"'\x1b\x07\xfe\tz"));
	CHECK(!strcmp(out_of(bs_csv_field, "=cmd|' /C calc'!A0"), "\"'=cmd|' /C calc'!A0\""),
	      "csv formula: %s", out_of(bs_csv_field, "=cmd|' /C calc'!A0"));
	CHECK(!strcmp(out_of(bs_csv_field, "+1"), "\"'+1\""), "csv +");
	CHECK(!strcmp(out_of(bs_csv_field, "-2"), "\"'-2\""), "csv -");
	CHECK(!strcmp(out_of(bs_csv_field, "@SUM(A1)"), "\"'@SUM(A1)\""), "csv @");
	CHECK(!strcmp(out_of(bs_csv_field, "a,\"b\""), "\"a,\"\"b\"\"\""),
	      "csv quotes: %s", out_of(bs_csv_field, "a,\"b\""));
	CHECK(!strcmp(out_of(bs_csv_field, "kworker/0:1"), "kworker/0:1"), "csv plain");
	CHECK(!strcmp(out_of(bs_csv_field, "a\x1b" "b\xff" "cé\"d\x07"),
		      "\"a" FFFD "b" FFFD "cé\"\"d" FFFD "\""),
	      "csv controls: %s", out_of(bs_csv_field, "a\x1b" "b\xff" "cé\"d\x07"));
	CHECK(!strcmp(out_of(bs_term_text, "x\x1b]0;pwned\x07y\xc2\x9b" "é"), "x?]0;pwned?y?é"),
	      "term: %s", out_of(bs_term_text, "x\x1b]0;pwned\x07y\xc2\x9b" "é"));
	CHECK(!strcmp(bs_term_safe(t, sizeof(t), "\x1b[2Jabcdefghijklmnop"), "?[2Jabcdefghijk"),
	      "term_safe: %s", t);
	CHECK(!strcmp(bs_term_safe(t, 4, "aé"), "aé"), "term_safe keeps a whole character");
	CHECK(!strcmp(bs_term_safe(t, 3, "aé"), "a"),
	      "term_safe cuts before a character that does not fit");
}

/* table cells: cut at a character boundary, padded to the width in columns */
static void test_term_cell(void)
{
	char t[128];

	CHECK(!strcmp(bs_term_cell(t, sizeof(t), "abc", 5), "abc  "), "cell pads: '%s'", t);
	CHECK(!strcmp(bs_term_cell(t, sizeof(t), "abcdef", 4), "abcd"), "cell cuts: '%s'", t);
	/* é (2 bytes) in columns 4-5 of a 5-wide cell: kept whole */
	CHECK(!strcmp(bs_term_cell(t, sizeof(t), "abcdéfg", 5), "abcdé"), "cell keeps é: '%s'", t);
	/* é would be column 5 of a 4-wide cell: cut before it, not in it */
	CHECK(!strcmp(bs_term_cell(t, sizeof(t), "abcdé", 4), "abcd"), "cell cuts before é: '%s'",
	      t);
	/* a wide character (2 columns) that does not fit: cut and padded */
	CHECK(!strcmp(bs_term_cell(t, sizeof(t), "abc\xe6\x97\xa5", 4), "abc "),
	      "cell wide: '%s'", t);
	CHECK(!strcmp(bs_term_cell(t, sizeof(t), "\xe6\x97\xa5\xe6\x9c\xac", 4),
		      "\xe6\x97\xa5\xe6\x9c\xac"),
	      "cell two wide: '%s'", t);
	/* controls and invalid bytes still become '?' */
	CHECK(!strcmp(bs_term_cell(t, sizeof(t), "\x1b[2J\xff", 6), "?[2J? "),
	      "cell escapes: '%s'", t);
	/* a buffer too small for the cell: whole characters only, terminated */
	CHECK(!strcmp(bs_term_cell(t, 4, "aéé", 10), "aé"), "cell small buffer: '%s'", t);
}

/* bs_fmt_secs(ns) must print what printf("%*.9f") prints for btt's double */
static bool secs_same(uint64_t ns, int width)
{
	char want[64], got[64];
	double d = (double)(ns / 1000000000ull) + (double)(ns % 1000000000ull) / 1.0e9;
	int n;

	snprintf(want, sizeof(want), "%*.9f", width, d);
	n = bs_fmt_secs(got, sizeof(got), ns, width);
	return !strcmp(want, got) && n == (int)strlen(want);
}

static void test_secs(void)
{
	static const uint64_t edges[] = {
		0, 1, 9, 10, 999999999, 1000000000, 1000000001, 4194303999999999ull,
		4194304000000000ull, 4194304000000001ull, 1ull << 62, 1ull << 63, UINT64_MAX,
	};
	static const int widths[] = { 0, 5, 13, 15, 16 };
	uint64_t x = 0x9e3779b97f4a7c15ull, ns, bad = 0;
	size_t i, w;
	int k;

	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
			CHECK(secs_same(edges[i], widths[w]), "secs %llu width %d",
			      (unsigned long long)edges[i], widths[w]);
	/* every magnitude, and densely the last seconds below the exact bound */
	for (k = 0; k < 2000000; k++) {
		rng_next(&x);
		if (k & 1)
			ns = 4194304000000000ull - 1 - x % (1000ull * 1000000000ull);
		else
			ns = x >> (x % 64);
		if (!secs_same(ns, k % 3 ? 13 : 0) && bad++ < 5)
			CHECK(false, "secs %llu", (unsigned long long)ns);
	}
	CHECK(bad == 0, "%llu random times printed differently", (unsigned long long)bad);
}

/* bs_fmt_tenths(v) must print what printf("%*.1f") prints for the float */
static bool tenths_same(float v, int width)
{
	char want[64], got[64];
	int n;

	snprintf(want, sizeof(want), "%*.1f", width, v);
	n = bs_fmt_tenths(got, sizeof(got), v, width);
	return !strcmp(want, got) && n == (int)strlen(want);
}

static void test_tenths(void)
{
	/* btt's plot heights: whole numbers plus .4, .5, .9 (ties at .x5 included) */
	static const float edges[] = { 0.0f, 0.05f, 0.25f, 0.35f, 0.4f, 0.45f, 0.5f, 0.9f, 0.95f,
				       1.25f, 2.5f, 374992.4f, 8388607.5f, 8388608.4f, 16777217.0f,
				       1e14f, 1e15f, 3e38f, -1.0f };
	uint32_t x = 2463534242u, bad = 0;
	size_t i;
	int k, w;
	float v;

	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		for (w = 0; w <= 16; w += 5)
			CHECK(tenths_same(edges[i], w), "tenths %.9g width %d", (double)edges[i],
			      w);
	for (k = 0; k < 1000000; k++) {
		rng_next32(&x);
		/* as btt adds them, or any bit pattern: NaN, inf, negatives too */
		if (k & 1)
			v = (float)(x % 20000000) / 2.0f + (k & 2 ? 0.4f : 0.9f);
		else
			memcpy(&v, &x, sizeof(v));
		if (!tenths_same(v, 5) && bad++ < 5)
			CHECK(false, "tenths %.9g", (double)v);
	}
	CHECK(bad == 0, "%u random floats printed differently", bad);
}

int main(void)
{
	test_secs();
	test_tenths();
	test_hash();
	test_hash_del();
	test_grow();
	test_term_cell();
	test_escape();
	printf("%d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
