// SPDX-License-Identifier: GPL-2.0
/*
 * bs_notes.c - blkscope's own notes (bs_notes.h): the end note.
 */
#include <stdio.h>
#include <string.h>
#include "bs_codec.h"
#include "bs_native.h"
#include "bs_notes.h"

static const char end_word[] = "blkscope end";

size_t bs_end_note_make(void *buf, size_t size, uint32_t device, uint32_t cpu, uint64_t time,
			const struct bs_end_note *n)
{
	char text[80];
	struct bs_trace t;
	int len;

	len = snprintf(text, sizeof(text), "%s events=%llu drops=%llu", end_word,
		       (unsigned long long)n->events, (unsigned long long)n->drops);
	if (len < 0 || (size_t)len >= sizeof(text) || size < sizeof(t) + BS_CGROUP_LEN + (size_t)len)
		return 0;
	memset(&t, 0, sizeof(t));
	t.magic = BS_TRACE_MAGIC_V7;
	t.time = time;
	t.action = BS_NOTE_FLAGGED_MESSAGE;
	t.device = device;
	t.cpu = cpu;
	t.pdu_len = (uint16_t)(BS_CGROUP_LEN + len);
	memcpy(buf, &t, sizeof(t));
	memset((char *)buf + sizeof(t), 0, BS_CGROUP_LEN);	/* no cgroup */
	memcpy((char *)buf + sizeof(t) + BS_CGROUP_LEN, text, (size_t)len);
	return sizeof(t) + BS_CGROUP_LEN + (size_t)len;
}

/* " key=<digits>" in text[0..len): 1 and *v, 0 when absent or malformed. */
static int field_u64(const char *text, size_t len, const char *key, uint64_t *v)
{
	size_t klen = strlen(key), i = 0;

	while (i < len) {
		const char *sp = memchr(text + i, ' ', len - i);
		size_t end = sp ? (size_t)(sp - text) : len;

		if (end - i > klen + 1 && !memcmp(text + i, key, klen) && text[i + klen] == '=') {
			uint64_t num = 0;
			size_t j;

			for (j = i + klen + 1; j < end; j++) {
				if (text[j] < '0' || text[j] > '9' || num > (UINT64_MAX - 9) / 10)
					return 0;
				num = num * 10 + (uint64_t)(text[j] - '0');
			}
			*v = num;
			return 1;
		}
		i = end + 1;
	}
	return 0;
}

int bs_end_note_parse(const struct bs_trace *t, const uint8_t *pdu, bool foreign,
		      struct bs_end_note *out)
{
	const char *text;
	size_t len, wlen = sizeof(end_word) - 1;

	(void)foreign;	/* the text has no byte order; the id slot is not read */
	if (t->action != BS_NOTE_FLAGGED_MESSAGE || t->pdu_len < BS_CGROUP_LEN + wlen)
		return 0;
	text = (const char *)bs_pdu_payload(t, pdu, &len);
	if (len < wlen || memcmp(text, end_word, wlen) || (len > wlen && text[wlen] != ' '))
		return 0;
	if (!field_u64(text + wlen, len - wlen, "events", &out->events) ||
	    !field_u64(text + wlen, len - wlen, "drops", &out->drops))
		return 0;
	return 1;
}

/* A note's header into buf, its PDU (pdu_len bytes) already after it: the note's size. */
static size_t note_make_header(void *buf, uint32_t action, uint32_t device, uint32_t cpu,
			       uint64_t time, uint32_t pid, size_t pdu_len)
{
	struct bs_trace t;

	memset(&t, 0, sizeof(t));
	t.magic = BS_TRACE_MAGIC_V7;
	t.time = time;
	t.action = action;
	t.pid = pid;
	t.device = device;
	t.cpu = cpu;
	t.pdu_len = (uint16_t)pdu_len;
	memcpy(buf, &t, sizeof(t));
	return sizeof(t) + pdu_len;
}

/* A note's header and PDU into buf: bytes written, 0 if size is too small. */
static size_t note_make(void *buf, size_t size, uint32_t action, uint32_t device, uint32_t cpu,
			uint64_t time, uint32_t pid, const void *pdu, size_t pdu_len)
{
	if (pdu_len > UINT16_MAX || size < sizeof(struct bs_trace) + pdu_len)
		return 0;
	memcpy((char *)buf + sizeof(struct bs_trace), pdu, pdu_len);
	return note_make_header(buf, action, device, cpu, time, pid, pdu_len);
}

size_t bs_process_note_make(void *buf, size_t size, uint32_t device, uint32_t cpu, uint64_t time,
			    uint32_t pid, const char comm[BS_COMM_LEN])
{
	char pdu[BS_COMM_LEN] = { 0 };

	memcpy(pdu, comm, strnlen(comm, BS_COMM_LEN));
	return note_make(buf, size, BS_NOTE_PROCESS, device, cpu, time, pid, pdu, sizeof(pdu));
}

size_t bs_timestamp_note_make(void *buf, size_t size, uint32_t device, uint32_t cpu,
			      uint64_t time, uint64_t real_sec, uint32_t real_nsec)
{
	uint32_t pdu[2] = { (uint32_t)real_sec, real_nsec };	/* tv_sec cut to 32 bits, as the kernel */

	return note_make(buf, size, BS_NOTE_TIMESTAMP, device, cpu, time, 0, pdu, sizeof(pdu));
}

const char *bs_process_note_comm(const struct bs_trace *t, const uint8_t *pdu, size_t *len)
{
	if (t->action != BS_NOTE_PROCESS)
		return NULL;
	*len = t->pdu_len < BS_COMM_LEN ? t->pdu_len : BS_COMM_LEN;
	return (const char *)pdu;
}

int bs_timestamp_note_parse(const struct bs_trace *t, const uint8_t *pdu, bool foreign,
			    uint32_t *sec, uint32_t *nsec)
{
	uint32_t w[2];

	if (t->action != BS_NOTE_TIMESTAMP || t->pdu_len != sizeof(w))
		return 0;
	memcpy(w, pdu, sizeof(w));
	*sec = foreign ? bs_swap32(w[0]) : w[0];
	*nsec = foreign ? bs_swap32(w[1]) : w[1];
	return 1;
}

size_t bs_cgroup_note_make(void *buf, size_t size, const struct bs_trace *ev, uint64_t id,
			   const char *path)
{
	size_t head = sizeof(struct bs_trace) + BS_CGROUP_LEN, room;
	char *text = (char *)buf + head;
	int n;

	if (size <= head)
		return 0;
	room = size - head;
	if (room > UINT16_MAX - BS_CGROUP_LEN)
		room = UINT16_MAX - BS_CGROUP_LEN;
	n = snprintf(text, room, "cgroup %llu %s", (unsigned long long)id, path);
	if (n < 0)
		n = 0;
	if ((size_t)n >= room)
		n = (int)room - 1;	/* cut, never wraps */
	bs_native_put_cgroup_pdu((uint8_t *)buf + sizeof(struct bs_trace), id, NULL, 0);
	return note_make_header(buf, BS_NOTE_FLAGGED_MESSAGE, ev->device, ev->cpu, ev->time, ev->pid,
				BS_CGROUP_LEN + (size_t)n);
}

/* " key=value" with at most 64 bytes of value, blanks replaced. */
static size_t put_word(char *out, size_t room, const char *key, const char *value)
{
	size_t n = 0, i;
	int k = snprintf(out, room, " %s=", key);

	if (k < 0 || (size_t)k >= room)
		return 0;
	n = (size_t)k;
	for (i = 0; value[i] && i < 64 && n + 1 < room; i++)
		out[n++] = value[i] == ' ' || (unsigned char)value[i] < 0x20 ? '_' : value[i];
	out[n] = 0;
	return n;
}

size_t bs_host_note_make(void *buf, size_t size, uint32_t device, uint32_t cpu, uint64_t time,
			 const char *host, const char *kernel, const char *boot_id)
{
	char text[240] = "blkscope";
	size_t n = strlen(text);

	n += put_word(text + n, sizeof(text) - n, "host", host);
	n += put_word(text + n, sizeof(text) - n, "kernel", kernel);
	n += put_word(text + n, sizeof(text) - n, "boot_id", *boot_id ? boot_id : "unknown");
	return note_make(buf, size, BS_NOTE_MESSAGE, device, cpu, time, 0, text, n);
}

static const char *const kind_names[] = {
	[BS_TRIGGER_LATENCY] = "latency",
	[BS_TRIGGER_ERROR] = "error",
	[BS_TRIGGER_DROP] = "drop",
	[BS_TRIGGER_SIGNAL] = "signal",
	[BS_TRIGGER_EXIT] = "exit",
};

const char *bs_trigger_kind_name(enum bs_trigger_kind k)
{
	return k >= BS_TRIGGER_LATENCY && k <= BS_TRIGGER_EXIT ? kind_names[k] : "?";
}

static const char trigger_word[] = "blkscope trigger";

/* Append " key=%llu" when v (or always, if `always`). */
static size_t put_u64(char *out, size_t room, const char *key, uint64_t v, bool always)
{
	int k;

	if (!v && !always)
		return 0;
	k = snprintf(out, room, " %s=%llu", key, (unsigned long long)v);
	return k < 0 || (size_t)k >= room ? 0 : (size_t)k;
}

size_t bs_trigger_note_make(void *buf, size_t size, uint32_t device, uint32_t cpu, uint64_t time,
			    uint32_t pid, const struct bs_trigger_note *n)
{
	char text[8 + 400];	/* the id slot, then the text */
	char *p = text + BS_CGROUP_LEN;
	size_t room = sizeof(text) - BS_CGROUP_LEN, len;
	int k;

	memset(text, 0, BS_CGROUP_LEN);
	k = snprintf(p, room, "%s n=%u kind=%s", trigger_word, n->n, bs_trigger_kind_name(n->kind));
	if (k < 0 || (size_t)k >= room)
		return 0;
	len = (size_t)k;
	len += put_word(p + len, room - len, "expr", n->expr);
	if (n->has_io) {
		k = snprintf(p + len, room - len, " dev=%u,%u", BS_DEV_MAJOR(n->device),
			     BS_DEV_MINOR(n->device));
		len += k > 0 && (size_t)k < room - len ? (size_t)k : 0;
		if (n->kind != BS_TRIGGER_DROP) {
			len += put_u64(p + len, room - len, "sector", n->sector, true);
			len += put_u64(p + len, room - len, "bytes", n->bytes, true);
			if (n->rwbs[0])
				len += put_word(p + len, room - len, "rwbs", n->rwbs);
		}
	}
	len += put_u64(p + len, room - len, "q", n->q, false);
	len += put_u64(p + len, room - len, "d", n->d, false);
	len += put_u64(p + len, room - len, "c", n->c, false);
	len += put_u64(p + len, room - len, "latency", n->latency, false);
	len += put_u64(p + len, room - len, "error", n->error, false);
	len += put_u64(p + len, room - len, "lost", n->lost, false);
	len += put_u64(p + len, room - len, "sender", n->sender, false);
	return note_make(buf, size, BS_NOTE_FLAGGED_MESSAGE, device, cpu, time, pid, text,
			 BS_CGROUP_LEN + len);
}

/* " key=<value>" in text[0..len): the value's start and length, or NULL. */
static const char *field_str(const char *text, size_t len, const char *key, size_t *vlen)
{
	size_t klen = strlen(key), i = 0;

	while (i < len) {
		const char *sp = memchr(text + i, ' ', len - i);
		size_t end = sp ? (size_t)(sp - text) : len;

		if (end - i > klen && !memcmp(text + i, key, klen) && text[i + klen] == '=') {
			*vlen = end - i - klen - 1;
			return text + i + klen + 1;
		}
		i = end + 1;
	}
	return NULL;
}

/* An optional numeric field: absent leaves *v as it was; malformed fails. */
static int opt_u64(const char *text, size_t len, const char *key, uint64_t *v)
{
	size_t vlen;

	if (!field_str(text, len, key, &vlen))
		return 1;
	return field_u64(text, len, key, v);
}

static int copy_str(const char *text, size_t len, const char *key, char *out, size_t cap)
{
	size_t vlen;
	const char *v = field_str(text, len, key, &vlen);

	if (!v || vlen >= cap)
		return 0;
	memcpy(out, v, vlen);
	out[vlen] = 0;
	return 1;
}

static int parse_kind(const char *text, size_t len, enum bs_trigger_kind *k)
{
	char name[16];
	int i;

	if (!copy_str(text, len, "kind", name, sizeof(name)))
		return 0;
	for (i = BS_TRIGGER_LATENCY; i <= BS_TRIGGER_EXIT; i++)
		if (!strcmp(name, kind_names[i])) {
			*k = (enum bs_trigger_kind)i;
			return 1;
		}
	return 0;
}

/* "dev=M,m": 1 and the kernel dev_t, 0 when absent, -1 when malformed. */
static int parse_dev(const char *text, size_t len, uint32_t *dev)
{
	char v[24];
	unsigned int ma, mi;
	int used = 0;

	if (!copy_str(text, len, "dev", v, sizeof(v)))
		return 0;
	if (sscanf(v, "%u,%u%n", &ma, &mi, &used) != 2 || v[used] || ma > 0xfff || mi > 0xfffff)
		return -1;
	*dev = (ma << 20) | mi;
	return 1;
}

int bs_trigger_note_parse(const struct bs_trace *t, const uint8_t *pdu, bool foreign,
			  struct bs_trigger_note *out)
{
	size_t len, wlen = sizeof(trigger_word) - 1;
	uint64_t n = 0, sector = 0, bytes = 0, error = 0, sender = 0;
	const char *text;
	int dev;

	(void)foreign;
	if (t->action != BS_NOTE_FLAGGED_MESSAGE || t->pdu_len < BS_CGROUP_LEN + wlen)
		return 0;
	text = (const char *)bs_pdu_payload(t, pdu, &len);
	if (len < wlen || memcmp(text, trigger_word, wlen) || (len > wlen && text[wlen] != ' '))
		return 0;
	text += wlen;
	len -= wlen;
	memset(out, 0, sizeof(*out));
	if (!field_u64(text, len, "n", &n) || !n || n > UINT32_MAX || !parse_kind(text, len, &out->kind) ||
	    !copy_str(text, len, "expr", out->expr, sizeof(out->expr)))
		return 0;
	dev = parse_dev(text, len, &out->device);
	if (dev < 0 || !opt_u64(text, len, "sector", &sector) || !opt_u64(text, len, "bytes", &bytes) ||
	    !opt_u64(text, len, "q", &out->q) || !opt_u64(text, len, "d", &out->d) ||
	    !opt_u64(text, len, "c", &out->c) || !opt_u64(text, len, "latency", &out->latency) ||
	    !opt_u64(text, len, "error", &error) || !opt_u64(text, len, "lost", &out->lost) ||
	    !opt_u64(text, len, "sender", &sender) || bytes > UINT32_MAX || error > UINT32_MAX ||
	    sender > UINT32_MAX)
		return 0;
	copy_str(text, len, "rwbs", out->rwbs, sizeof(out->rwbs));	/* optional */
	out->n = (uint32_t)n;
	out->has_io = dev > 0;
	out->sector = sector;
	out->bytes = (uint32_t)bytes;
	out->error = (uint32_t)error;
	out->sender = (uint32_t)sender;
	return 1;
}
