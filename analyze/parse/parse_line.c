// SPDX-License-Identifier: GPL-2.0
/*
 * parse_line.c - blkparse's default event line (process_default()) and its
 * message line, formatted by hand.  The header is
 * "%3d,%-3d %2d %8d %5d.%09lu %5u %2s %3s " and the tail depends on the
 * action letter (docs/parse.md §Output).
 */
#include "bs_codec.h"
#include "parse_priv.h"

#define LINE_MAX_FIXED 256	/* everything but names, PDU dumps and messages */

/* blkparse's get_pdu_int(): the first big-endian u64, truncated to 32 bits */
static unsigned int pdu_int(const struct bs_trace *t, const uint8_t *raw_pdu)
{
	return (unsigned int)bs_pdu_be64(t, raw_pdu);
}

/* blkparse's dump_pdu(): hex bytes, stopping with " .." where only zeros follow */
char *parse_put_pdu_hex(char *p, const uint8_t *pdu, int len)
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < len; i++) {
		if (i)
			*p++ = ' ';
		*p++ = hex[pdu[i] >> 4];
		*p++ = hex[pdu[i] & 15];
		if (!pdu[i]) {
			int j = i + 1;

			while (j < len && !pdu[j])
				j++;
			if (j == len) {
				memcpy(p, " ..", 3);
				return p + 3;
			}
		}
	}
	return p;
}

static char *put_name(char *p, struct parse_ctx *ps, uint32_t pid)
{
	size_t n;
	const char *s = parse_name_of(ps, pid, &n);

	*p++ = '[';
	memcpy(p, s, 16);	/* fixed size: the line buffer has slack */
	p += n;
	*p++ = ']';
	return p;
}

static char *put_elapsed(char *p, unsigned long long elapsed)
{
	*p++ = '(';
	p = parse_put_u_w(p, elapsed, 8);
	*p++ = ')';
	return p;
}

/* "sector + blocks", cached by sector: every event of one I/O repeats it */
static char *put_sector_len(struct parse_ctx *ps, char *p, const struct bs_trace *t)
{
	unsigned int slot = (unsigned int)((t->sector * 0x9E3779B97F4A7C15ULL) >> 56);
	__typeof__(ps->sec_cache[0]) *c = &ps->sec_cache[slot];

	if (!c->len || c->sector != t->sector || c->blocks != parse_t_sectors(t)) {
		char *q = parse_put_u(c->s, t->sector);

		memcpy(q, " + ", 3);
		q = parse_put_u(q + 3, parse_t_sectors(t));
		c->len = (uint8_t)(q - c->s);
		c->sector = t->sector;
		c->blocks = parse_t_sectors(t);
	}
	memcpy(p, c->s, sizeof(c->s));
	return p + c->len;
}

/*
 * "%8d" of the sequence.  Per (device, cpu) it counts up by one, so the
 * previous text is incremented in place; anything else is formatted.
 */
static char *put_seq(struct parse_ctx *ps, char *p, int cpu, uint32_t seq)
{
	__typeof__(ps->hdr_cache[0]) *c = &ps->hdr_cache[(unsigned int)cpu & 63];
	int i = 7;

	if (c->seq_ok && seq == c->seq + 1 && seq < 99999999u) {
		for (; i >= 0; i--) {
			if (c->seq_s[i] == '9') {
				c->seq_s[i] = '0';
				continue;
			}
			c->seq_s[i] = c->seq_s[i] == ' ' ? '1' : (char)(c->seq_s[i] + 1);
			break;
		}
	} else {
		i = -1;
	}
	if (i < 0) {
		char tmp[24];
		char *e = parse_put_d_w(tmp, (int)seq, 8, 0);

		memcpy(p, tmp, (size_t)(e - tmp));
		c->seq_ok = (e - tmp) == 8 && seq < 99999999u;
		if (c->seq_ok)
			memcpy(c->seq_s, tmp, 8);
		c->seq = seq;
		return p + (e - tmp);
	}
	c->seq = seq;
	memcpy(p, c->seq_s, 8);
	return p + 8;
}

/* "%5d" of the seconds, which rarely change */
static char *put_secs(struct parse_ctx *ps, char *p, int secs)
{
	if (!ps->secs_len || ps->last_secs != secs) {
		ps->secs_len = (uint8_t)(parse_put_d_w(ps->secs_s, secs, 5, 0) - ps->secs_s);
		ps->last_secs = secs;
	}
	memcpy(p, ps->secs_s, sizeof(ps->secs_s));
	return p + ps->secs_len;
}

/* "%5u" of the pid, which often repeats */
static char *put_pid(struct parse_ctx *ps, char *p, uint32_t pid)
{
	if (!ps->pid_len || ps->last_pid != pid) {
		ps->pid_len = (uint8_t)(parse_put_u_w(ps->pid_s, pid, 5) - ps->pid_s);
		ps->last_pid = pid;
	}
	memcpy(p, ps->pid_s, sizeof(ps->pid_s));
	return p + ps->pid_len;
}

/* "%3d,%-3d %2d " for (device, cpu), cached per cpu */
static char *put_dev_cpu(struct parse_ctx *ps, char *p, uint32_t dev, int cpu)
{
	unsigned int slot = (unsigned int)cpu & 63;
	__typeof__(ps->hdr_cache[0]) *c = &ps->hdr_cache[slot];

	if (!c->len || c->dev != dev || c->cpu != cpu) {
		char *q = c->s;

		q = parse_put_d_w(q, BS_DEV_MAJOR(dev), 3, 0);
		*q++ = ',';
		q = parse_put_d_w(q, BS_DEV_MINOR(dev), 3, 1);
		*q++ = ' ';
		q = parse_put_d_w(q, cpu, 2, 0);
		*q++ = ' ';
		c->len = (uint8_t)(q - c->s);
		c->dev = dev;
		c->cpu = cpu;
		c->seq_ok = false;
	}
	memcpy(p, c->s, sizeof(c->s));
	return p + c->len;
}

/* " %2s %3s " (action letters, RWBS), cached per action word */
static char *put_act_rwbs(struct parse_ctx *ps, char *p, const char *act, const struct bs_trace *t)
{
	uint32_t a = t->action, hi = ps->action_hi;
	uint8_t hb = t->bytes != 0;
	unsigned int slot = (a ^ (a >> 16) ^ (a >> 7) ^ hi) & 63;
	__typeof__(ps->act_cache[0]) *c = &ps->act_cache[slot];

	if (!c->len || c->action != a || c->hi != hi || c->has_bytes != hb || c->act != act) {
		char rwbs[BS_RWBS2_LEN], *q = c->s;

		bs_rwbs2(rwbs, a, hi, t->bytes);
		*q++ = ' ';
		q = parse_put_s_w(q, act, strlen(act), 2);
		*q++ = ' ';
		q = parse_put_s_w(q, rwbs, strlen(rwbs), 3);
		*q++ = ' ';
		c->len = (uint8_t)(q - c->s);
		c->action = a;
		c->hi = hi;
		c->has_bytes = hb;
		c->act = act;
	}
	memcpy(p, c->s, sizeof(c->s));
	return p + c->len;
}

/*
 * One event line: blkparse's process_default(), whose switch on the action
 * letter this mirrors case for case on purpose (hence its length).  -1
 * after a fatal error in a -f / -F format (ps->stop is set).
 */
int parse_line_event(struct parse_ctx *ps, const char *act, int cpu, struct bs_trace *t,
		     unsigned long long elapsed, const uint8_t *pdu, int pdu_len,
		     const uint8_t *raw_pdu)
{
	const char *fmt = ps->formats[(unsigned char)act[0]];
	struct bs_remap r = { 0 };
	char *p, *start;
	int is_pc = (t->action & BS_TC_ACT(BS_TC_PC)) != 0;

	if (fmt)
		return parse_fmt_event(ps, fmt, act, cpu, t, elapsed, pdu, pdu_len, raw_pdu);
	if (act[0] == 'A') {
		/* blkparse edits the record: the dump then carries device_to too */
		bs_decode_remap(t, raw_pdu, &r);
		t->device = r.device_to;
	}
	p = start = parse_out_reserve(&ps->out, LINE_MAX_FIXED + 3 * (size_t)pdu_len);
	p = put_dev_cpu(ps, p, t->device, cpu);
	p = put_seq(ps, p, cpu, t->sequence);
	*p++ = ' ';
	p = put_secs(ps, p, (int)(t->time / 1000000000ULL));
	*p++ = '.';
	p = parse_put_u09(p, (unsigned long)(t->time % 1000000000ULL));
	*p++ = ' ';
	p = put_pid(ps, p, t->pid);
	p = put_act_rwbs(ps, p, act, t);

	switch (act[0]) {
	case 'R':
	case 'C':
		if (is_pc) {
			if (pdu && pdu_len) {
				*p++ = '(';
				p = parse_put_pdu_hex(p, pdu, pdu_len);
				*p++ = ')';
				*p++ = ' ';
			}
		} else {
			if (parse_t_sectors(t))
				p = put_sector_len(ps, p, t);
			else
				p = parse_put_u(p, t->sector);
			*p++ = ' ';
			if (elapsed != PARSE_NO_ELAPSED) {
				p = put_elapsed(p, elapsed);
				*p++ = ' ';
			}
		}
		*p++ = '[';
		p = parse_put_d_w(p, t->error, 0, 0);
		*p++ = ']';
		break;
	case 'D':
	case 'I':
	case 'Q':
	case 'B':
		if (is_pc) {
			p = parse_put_u(p, t->bytes);
			*p++ = ' ';
			if (pdu && pdu_len) {
				*p++ = '(';
				p = parse_put_pdu_hex(p, pdu, pdu_len);
				*p++ = ')';
				*p++ = ' ';
			}
		} else if (elapsed != PARSE_NO_ELAPSED) {
			if (parse_t_sectors(t)) {
				p = put_sector_len(ps, p, t);
				*p++ = ' ';
			}
			p = put_elapsed(p, elapsed);
			*p++ = ' ';
		} else if (parse_t_sectors(t)) {
			p = put_sector_len(ps, p, t);
			*p++ = ' ';
		}
		p = put_name(p, ps, t->pid);
		break;
	case 'M':
	case 'F':
	case 'G':
	case 'S':
		if (parse_t_sectors(t)) {
			p = put_sector_len(ps, p, t);
			*p++ = ' ';
		}
		p = put_name(p, ps, t->pid);
		break;
	case 'P':
		p = put_name(p, ps, t->pid);
		break;
	case 'Z':	/* v8 ZP, ZU; current blkparse prints a PDU integer for ZU */
		p = put_name(p, ps, t->pid);
		if (act[1] == 'U') {
			*p++ = ' ';
			p = parse_put_u(p, pdu_int(t, raw_pdu));
		}
		break;
	case 'U':
		p = put_name(p, ps, t->pid);
		*p++ = ' ';
		p = parse_put_u(p, pdu_int(t, raw_pdu));
		break;
	case 'A':
		p = put_sector_len(ps, p, t);
		memcpy(p, " <- (", 5);
		p += 5;
		p = parse_put_d_w(p, BS_DEV_MAJOR(r.device_from), 0, 0);
		*p++ = ',';
		p = parse_put_d_w(p, BS_DEV_MINOR(r.device_from), 0, 0);
		*p++ = ')';
		*p++ = ' ';
		p = parse_put_u(p, r.sector_from);
		break;
	case 'X':
		p = parse_put_u(p, t->sector);
		memcpy(p, " / ", 3);
		p = parse_put_u(p + 3, pdu_int(t, raw_pdu));
		*p++ = ' ';
		p = put_name(p, ps, t->pid);
		break;
	}
	*p++ = '\n';
	parse_out_commit(&ps->out, p);
	return 0;
}

/* handle_notify()'s MESSAGE line; Debian 1.2.0 prints pid 0 */
void parse_line_message(struct parse_ctx *ps, const struct bs_trace *t, const uint8_t *pdu)
{
	size_t n = 0;
	char *p;

	if (!t->pdu_len)
		return;
	while (n < t->pdu_len && pdu[n])
		n++;
	p = parse_out_reserve(&ps->out, LINE_MAX_FIXED + n);
	p = parse_put_d_w(p, BS_DEV_MAJOR(t->device), 3, 0);
	*p++ = ',';
	p = parse_put_d_w(p, BS_DEV_MINOR(t->device), 3, 1);
	*p++ = ' ';
	p = parse_put_d_w(p, (int)t->cpu, 2, 0);
	memcpy(p, "        0 ", 10);
	p += 10;
	p = put_secs(ps, p, (int)(t->time / 1000000000ULL));
	*p++ = '.';
	p = parse_put_u09(p, (unsigned long)(t->time % 1000000000ULL));
	memcpy(p, "     0  m   N ", 14);
	p += 14;
	memcpy(p, pdu, n);
	p += n;
	*p++ = '\n';
	parse_out_commit(&ps->out, p);
}
