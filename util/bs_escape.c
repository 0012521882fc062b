// SPDX-License-Identifier: GPL-2.0
/* bs_escape.c - see bs_escape.h. */
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include "bs_escape.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD in UTF-8 */

size_t bs_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	static const uint32_t min_of_len[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len, i;
	uint32_t c;

	if (!n)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		c = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		c = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min_of_len[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

void bs_json_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), k;
	uint32_t cp;

	fputc('"', f);
	while (n) {
		k = bs_utf8_decode(s, n, &cp);
		if (!k) {
			fputs(REPLACEMENT, f);
			k = 1;
		} else if (cp == '"' || cp == '\\') {
			fputc('\\', f);
			fputc((int)cp, f);
		} else if (cp < 0x20 || cp == 0x7f) {
			fprintf(f, "\\u%04x", (unsigned int)cp);
		} else {
			fwrite(s, 1, k, f);
		}
		s += k;
		n -= k;
	}
	fputc('"', f);
}

static bool xml_allowed(uint32_t cp)
{
	return cp == '\t' || cp == '\n' || cp == '\r' || (cp >= 0x20 && cp != 0x7f &&
	       cp != 0xfffe && cp != 0xffff);
}

void bs_xml_text(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), k;
	uint32_t cp;

	while (n) {
		k = bs_utf8_decode(s, n, &cp);
		if (!k) {
			fputs(REPLACEMENT, f);
			k = 1;
		} else if (!xml_allowed(cp)) {
			fputs(REPLACEMENT, f);
		} else if (cp == '&') {
			fputs("&amp;", f);
		} else if (cp == '<') {
			fputs("&lt;", f);
		} else if (cp == '>') {
			fputs("&gt;", f);
		} else if (cp == '"') {
			fputs("&quot;", f);
		} else if (cp == '\'') {
			fputs("&#39;", f);
		} else {
			fwrite(s, 1, k, f);
		}
		s += k;
		n -= k;
	}
}

/* C0, DEL and C1 controls: what a terminal may act on. */
static bool term_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
}

/* Columns a printable character takes on a terminal: 0, 1 or 2. */
static unsigned int term_columns(uint32_t cp)
{
	if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || cp == 0xfe0f)
		return 0;	/* combining marks, zero-width spaces, variation selector */
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp != 0x303f) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

/*
 * Copies str into dst (len > 0 bytes) for a terminal: controls and
 * invalid bytes become '?', and it stops before a character that would
 * pass `width` columns or not fit.  Returns the bytes written (dst is not
 * terminated); *cols gets the columns used.
 */
static size_t term_copy(char *dst, size_t len, const char *str, unsigned int width,
			unsigned int *cols)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), k, o = 0;
	unsigned int used = 0, w;
	uint32_t cp;

	while (n) {
		k = bs_utf8_decode(s, n, &cp);
		bool bad = !k || term_control(cp);

		w = bad ? 1 : term_columns(cp);
		if (w > width - used)
			break;
		if (bad) {
			if (o + 1 >= len)
				break;
			dst[o++] = '?';
			k = k ? k : 1;
		} else {
			if (o + k >= len)
				break;
			memcpy(dst + o, s, k);
			o += k;
		}
		used += w;
		s += k;
		n -= k;
	}
	*cols = used;
	return o;
}

char *bs_term_safe(char *dst, size_t len, const char *str)
{
	unsigned int cols;

	if (len)
		dst[term_copy(dst, len, str, UINT_MAX, &cols)] = '\0';
	return dst;
}

char *bs_term_cell(char *dst, size_t len, const char *str, unsigned int width)
{
	unsigned int cols;
	size_t o;

	if (!len)
		return dst;
	o = term_copy(dst, len, str, width, &cols);
	while (cols < width && o + 1 < len) {
		dst[o++] = ' ';
		cols++;
	}
	dst[o] = '\0';
	return dst;
}

void bs_term_text(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), k;
	uint32_t cp;

	while (n) {
		k = bs_utf8_decode(s, n, &cp);
		if (!k || term_control(cp)) {
			fputc('?', f);
			k = k ? k : 1;
		} else {
			fwrite(s, 1, k, f);
		}
		s += k;
		n -= k;
	}
}

static bool csv_needs_quotes(const char *s)
{
	return strpbrk(s, ",\"\r\n") != NULL || *s == ' ' ||
	       (*s && s[strlen(s) - 1] == ' ');
}

static bool csv_formula(const char *s)
{
	return *s && strchr("=+-@\t\r", *s);
}

void bs_csv_field(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str, *run;
	bool formula = csv_formula(str);
	bool quote = formula || csv_needs_quotes(str);
	size_t n = strlen(str), k;
	uint32_t cp;

	if (quote)
		fputc('"', f);
	if (formula)
		fputc('\'', f);
	/* characters kept as they are go out in runs, one fwrite per run */
	run = s;
	while (n) {
		const char *sub = NULL;

		k = bs_utf8_decode(s, n, &cp);
		if (!k) {
			sub = REPLACEMENT;
			k = 1;
		} else if (cp == '"') {
			sub = "\"\"";
		} else if (cp < 0x20 && cp != '\t' && cp != '\r' && cp != '\n') {
			sub = REPLACEMENT;
		}
		if (sub) {
			fwrite(run, 1, (size_t)(s - run), f);
			fputs(sub, f);
			run = s + k;
		}
		s += k;
		n -= k;
	}
	fwrite(run, 1, (size_t)(s - run), f);
	if (quote)
		fputc('"', f);
}
