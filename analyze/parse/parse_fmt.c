// SPDX-License-Identifier: GPL-2.0
/*
 * parse_fmt.c - the -f / -F format engine of blkparse (blkparse_fmt.c):
 * "%[-][width]X" fields, "%%", and the escapes \b \n \r \t.  Custom
 * formats are rare, so fields go through printf here.
 *
 * Debian 1.2.0 specifics reproduced: there is no %g (cgroup) field, so
 * "%g" prints the letter g like any unknown field; %P dumps a PDU only for
 * the PC events that pass one (D, C, I); %U reads the first PDU word of
 * any record; %u without a tracking value ends the program (here: the
 * run stops with PARSE_FATAL_FORMAT and the caller flushes and exits 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_alloc.h"
#include "bs_codec.h"
#include "parse_priv.h"

/* Field widths in -f/-F are capped here (blkparse passes them to printf). */
#define FMT_MAX_WIDTH 65535

/* print_time(): wall clock of the event, from the TIMESTAMP note */
static const char *wall_time(struct parse_ctx *ps, uint64_t t, char *buf, size_t len)
{
	time_t sec = ps->abs_start.tv_sec + (time_t)(t / 1000000000ULL);
	unsigned long nsec = (unsigned long)ps->abs_start.tv_nsec +
			     (unsigned long)(t % 1000000000ULL);
	struct tm *tm;

	if (nsec >= 1000000000UL) {
		nsec -= 1000000000UL;
		sec += 1;
	}
	tm = localtime(&sec);
	if (!tm)
		snprintf(buf, len, "??:??:??.%06lu", nsec / 1000);
	else
		snprintf(buf, len, "%02u:%02u:%02u.%06lu", tm->tm_hour, tm->tm_min, tm->tm_sec,
			 nsec / 1000);
	return buf;
}

/* one %X field; -1 after a fatal error (blkparse exits there) */
static int field(struct parse_ctx *ps, char f, int minus, int has_w, int width, const char *act,
		 int cpu, const struct bs_trace *t, unsigned long long elapsed, const uint8_t *pdu,
		 int pdu_len, const uint8_t *raw_pdu)
{
	struct parse_out *o = &ps->out;
	char spec[32];
	int w = has_w ? (minus ? -width : width) : 0;
	size_t nlen;

	/* fields become strings printed with "%*s": negative width = left-aligned */
	switch (f) {
	case 'a':
		if (has_w)
			parse_out_printf(o, "%*s", w, act);
		else
			parse_out_printf(o, "%s", act);
		break;
	case 'c':
		snprintf(spec, sizeof(spec), "%d", cpu);
		goto str;
	case 'C': {
		const char *name = parse_name_of(ps, t->pid, &nlen);

		snprintf(spec, sizeof(spec), "%s", name);
		goto str;
	}
	case 'd':
		bs_rwbs2(spec, t->action, ps->action_hi, t->bytes);
		goto str;
	case 'D':
		parse_out_printf(o, "%3d,%-3d", BS_DEV_MAJOR(t->device), BS_DEV_MINOR(t->device));
		break;
	case 'e':
		snprintf(spec, sizeof(spec), "%d", t->error);
		goto str;
	case 'M':
		snprintf(spec, sizeof(spec), "%d", BS_DEV_MAJOR(t->device));
		goto str;
	case 'm':
		snprintf(spec, sizeof(spec), "%d", BS_DEV_MINOR(t->device));
		goto str;
	case 'n':
		snprintf(spec, sizeof(spec), "%u", parse_t_sectors(t));
		goto str;
	case 'N':
		snprintf(spec, sizeof(spec), "%u", t->bytes);
		goto str;
	case 'p':
		snprintf(spec, sizeof(spec), "%u", t->pid);
		goto str;
	case 'P':
		if (pdu && pdu_len) {
			char *hex = bs_xmalloc(3 * (size_t)pdu_len + 4);
			char *end = parse_put_pdu_hex(hex, pdu, pdu_len);

			parse_out_write(o, hex, (size_t)(end - hex));
			free(hex);
		}
		break;
	case 's':
		snprintf(spec, sizeof(spec), "%u", t->sequence);
		goto str;
	case 'S':
		snprintf(spec, sizeof(spec), "%llu", (unsigned long long)t->sector);
		goto str;
	case 't':
		parse_out_printf(o, "%0*llu", has_w ? width : 9,
				 (unsigned long long)(t->time % 1000000000ULL));
		break;
	case 'T':
		snprintf(spec, sizeof(spec), "%d", (int)(t->time / 1000000000ULL));
		goto str;
	case 'u':
		if (elapsed == PARSE_NO_ELAPSED) {
			bs_msg(&ps->msg, PARSE_MSG_BLKPARSE, "Expecting elapsed value");
			ps->stop = PARSE_FATAL_FORMAT;
			return -1;
		}
		snprintf(spec, sizeof(spec), "%llu", elapsed / 1000);
		goto str;
	case 'U':
		snprintf(spec, sizeof(spec), "%u", (unsigned int)bs_pdu_be64(t, raw_pdu));
		goto str;
	case 'z':
		wall_time(ps, t->time, spec, sizeof(spec));
		goto str;
	default:
		if (has_w)
			parse_out_printf(o, "%*c", w, f);
		else
			parse_out_printf(o, "%c", f);
		break;
	}
	return 0;
str:
	if (has_w)
		parse_out_printf(o, "%*s", w, spec);
	else
		parse_out_write(o, spec, strlen(spec));
	return 0;
}

int parse_fmt_event(struct parse_ctx *ps, const char *fmt, const char *act, int cpu,
		    const struct bs_trace *t, unsigned long long elapsed, const uint8_t *pdu,
		    int pdu_len, const uint8_t *raw_pdu)
{
	const char *p = fmt;

	while (*p) {
		if (*p == '%') {
			int minus = 0, has_w = 0, width = 0;

			p++;
			if (*p == '%') {
				parse_out_write(&ps->out, "%", 1);
				p++;
				continue;
			}
			if (!*p) {
				parse_out_write(&ps->out, "%", 1);
				continue;
			}
			if (*p == '-') {
				minus = 1;
				p++;
			}
			while (*p >= '0' && *p <= '9') {
				has_w = 1;
				/* saturate: a width past FMT_MAX_WIDTH means nothing useful */
				width = width * 10 + (*p++ - '0');
				if (width > FMT_MAX_WIDTH)
					width = FMT_MAX_WIDTH;
			}
			if (*p && field(ps, *p++, minus, has_w, width, act, cpu, t, elapsed, pdu,
					pdu_len, raw_pdu) < 0)
				return -1;
		} else if (*p == '\\') {
			static const char esc_in[] = "bnrt", esc_out[] = "\b\n\r\t";
			const char *e = p[1] ? strchr(esc_in, p[1]) : NULL;

			if (!e) {
				bs_msg(&ps->msg, PARSE_MSG_BLKPARSE,
				       "Invalid escape char in format %c", p[1]);
				ps->stop = PARSE_FATAL_FORMAT;
				return -1;
			}
			parse_out_write(&ps->out, &esc_out[e - esc_in], 1);
			p += 2;
		} else {
			const char *q = p;

			while (*q && *q != '%' && *q != '\\')
				q++;
			parse_out_write(&ps->out, p, (size_t)(q - p));
			p = q;
		}
	}
	return 0;
}
