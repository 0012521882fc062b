/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_escape.h - writing untrusted strings (process names from PROCESS
 * notes, plugin tag labels, file names) into every output format so that
 * the result stays valid in that format, whatever bytes a trace holds.
 *
 *   JSON   RFC 8259 string; control characters as \u00XX; bytes that are
 *          not UTF-8 become U+FFFD, so strict parsers accept the file.
 *   XML    text and attribute values (SVG, HTML): & < > " ' as entities;
 *          characters XML 1.0 forbids (C0 controls but TAB/LF/CR) and
 *          invalid UTF-8 become U+FFFD.
 *   CSV    RFC 4180 field, quoted when needed; a field that a spreadsheet
 *          would run as a formula (first character = + - @, TAB or CR) is
 *          prefixed with ' (the OWASP recommendation), inside quotes.
 *   terminal  C0/C1 controls and DEL become '?', invalid UTF-8 too, so a
 *          name cannot move the cursor, set a title or ring a bell.
 */
#ifndef BLKSCOPE_BS_ESCAPE_H
#define BLKSCOPE_BS_ESCAPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Decode one UTF-8 character at s (n bytes available): returns its length
 * (1..4) and sets *cp, or 0 for an invalid sequence (overlong forms,
 * surrogates, > U+10FFFF, truncated).
 */
size_t bs_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

void bs_json_string(FILE *f, const char *s);	/* with the quotes */
void bs_xml_text(FILE *f, const char *s);
void bs_csv_field(FILE *f, const char *s);
void bs_term_text(FILE *f, const char *s);

/* bs_term_text into a buffer (always terminated); returns dst. */
char *bs_term_safe(char *dst, size_t len, const char *s);

/*
 * A table cell: s terminal-safe (as bs_term_safe), cut to at most `width`
 * columns at a character boundary and padded with spaces to `width`
 * columns; what printf's "%-22.22s" does for ASCII, without cutting a
 * UTF-8 character in two or misaligning the row after a multibyte name.
 * East Asian wide characters count as two columns, combining marks as
 * none (an approximation of wcwidth() that needs no locale).  dst must
 * hold 4 * width + 1 bytes to show the cell whole; returns dst.
 */
char *bs_term_cell(char *dst, size_t len, const char *s, unsigned int width);

#endif /* BLKSCOPE_BS_ESCAPE_H */
