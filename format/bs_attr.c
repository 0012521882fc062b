// SPDX-License-Identifier: GPL-2.0
/*
 * bs_attr.c - the attribution side files' records (bs_attr.h): encoding
 * for the recorder, decoding for the analyzer, the classes' names and the
 * side files' names.  Every number is little-endian on disk.
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_attr.h"

static const char *const class_names[BS_FC_COUNT] = {
	"unknown", "cache", "direct", "metadata", "journal", "swap", "raw", "nodata", "other",
};

const char *bs_fclass_name(unsigned int cls)
{
	return cls < BS_FC_COUNT ? class_names[cls] : "unknown";
}

int bs_fclass_of(const char *name)
{
	int i;

	for (i = 0; i < BS_FC_COUNT; i++)
		if (!strcmp(name, class_names[i]))
			return i;
	return -1;
}

/* ---- little-endian words ---- */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* one load each (a record per Q is read through these) */
static inline uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static inline uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/* ---- header ---- */

static const char attr_magic[8] = "BSATTR\0\1";
static const char names_magic[8] = "BSNAMES\1";

void bs_attr_header_make(void *buf, const struct bs_attr_header *h)
{
	uint8_t *p = buf;

	memcpy(p, h->kind == BS_ATTR_KIND_NAMES ? names_magic : attr_magic, 8);
	put32(p + 8, h->version);
	put32(p + 12, h->device);
	put32(p + 16, h->cpu);
	put32(p + 20, h->flags);
	put64(p + 24, h->start);
}

/* The header of buf: 0, or -1 (not a side file), -2 (a version we do not read). */
int bs_attr_header_parse(const void *buf, struct bs_attr_header *h)
{
	const uint8_t *p = buf;

	if (!memcmp(p, attr_magic, 8))
		h->kind = BS_ATTR_KIND_ATTR;
	else if (!memcmp(p, names_magic, 8))
		h->kind = BS_ATTR_KIND_NAMES;
	else
		return -1;
	h->version = get32(p + 8);
	h->device = get32(p + 12);
	h->cpu = get32(p + 16);
	h->flags = get32(p + 20);
	h->start = get64(p + 24);
	return h->version == BS_ATTR_VERSION ? 0 : -2;
}

/* ---- attr records ---- */

void bs_attr_rec_make(void *buf, const struct bs_attr_rec *r)
{
	uint8_t *p = buf;

	put64(p, r->time);
	put64(p + 8, r->sector);
	put32(p + 16, r->sequence);
	put32(p + 20, r->file);
	put32(p + 24, r->stack);
	p[28] = r->cls;
	p[29] = r->flags;
	put16(p + 30, 0);
}

void bs_attr_rec_parse(const void *buf, struct bs_attr_rec *r)
{
	const uint8_t *p = buf;

	r->time = get64(p);
	r->sector = get64(p + 8);
	r->sequence = get32(p + 16);
	r->file = get32(p + 20);
	r->stack = get32(p + 24);
	r->cls = p[28];
	r->flags = p[29];
}

/* ---- names records: u16 type, u16 reserved, u32 body length, body ---- */

#define NAMES_HDR 8

static void names_hdr(uint8_t *p, enum bs_names_type type, size_t body)
{
	put16(p, (uint16_t)type);
	put16(p + 2, 0);
	put32(p + 4, (uint32_t)body);
}

size_t bs_names_file_make(void *buf, size_t size, const struct bs_names_file *f)
{
	uint32_t len = f->path_len < BS_NAMES_PATH_MAX ? f->path_len : BS_NAMES_PATH_MAX;
	size_t body = 34 + len;
	uint8_t *p = buf;

	if (size < NAMES_HDR + body)
		return 0;
	names_hdr(p, BS_NAMES_FILE, body);
	p += NAMES_HDR;
	put32(p, f->id);
	put32(p + 4, f->fdev);
	put64(p + 8, f->ino);
	put32(p + 16, f->gen);
	put32(p + 20, f->flags | (len < f->path_len ? BS_NF_CUT : 0));
	put64(p + 24, f->seen);
	put16(p + 32, (uint16_t)len);
	memcpy(p + 34, f->path, len);
	return NAMES_HDR + body;
}

static size_t frame_len(const struct bs_names_frame *f)
{
	return f->len < BS_NAMES_FRAME_MAX ? f->len : BS_NAMES_FRAME_MAX;
}

size_t bs_names_stack_size(const struct bs_names_stack *s)
{
	size_t n = NAMES_HDR + 12, i;

	for (i = 0; i < (size_t)s->nkernel + s->nuser; i++)
		n += 2 + frame_len(&s->frames[i]);
	return n;
}

size_t bs_names_stack_make(void *buf, size_t size, const struct bs_names_stack *s)
{
	size_t total = bs_names_stack_size(s), i;
	uint8_t *p = buf;

	if (s->nkernel > BS_NAMES_FRAMES_MAX || s->nuser > BS_NAMES_FRAMES_MAX || size < total ||
	    total - NAMES_HDR > BS_NAMES_REC_MAX)
		return 0;
	names_hdr(p, BS_NAMES_STACK, total - NAMES_HDR);
	p += NAMES_HDR;
	put32(p, s->id);
	put32(p + 4, s->flags);
	put16(p + 8, s->nkernel);
	put16(p + 10, s->nuser);
	p += 12;
	for (i = 0; i < (size_t)s->nkernel + s->nuser; i++) {
		size_t len = frame_len(&s->frames[i]);

		put16(p, (uint16_t)len);
		memcpy(p + 2, s->frames[i].name, len);
		p += 2 + len;
	}
	return total;
}

size_t bs_names_counts_make(void *buf, size_t size, const struct bs_names_counts *c)
{
	const uint64_t v[8] = { c->qs,	  c->lost,	    c->kstack_lost, c->ustack_lost,
				c->files, c->files_no_path, c->files_over,  c->stacks };
	uint8_t *p = buf;
	int i;

	if (size < NAMES_HDR + sizeof(v))
		return 0;
	names_hdr(p, BS_NAMES_COUNTS, sizeof(v));
	for (i = 0; i < 8; i++)
		put64(p + NAMES_HDR + 8 * i, v[i]);
	return NAMES_HDR + sizeof(v);
}

/* The type and body length of a names record's 8-byte head. */
void bs_names_head_parse(const void *buf, uint16_t *type, uint32_t *len)
{
	const uint8_t *p = buf;

	*type = get16(p);
	*len = get32(p + 4);
}

static int parse_file(const uint8_t *p, uint32_t len, struct bs_names_file *f)
{
	if (len < 34)
		return -1;
	f->id = get32(p);
	f->fdev = get32(p + 4);
	f->ino = get64(p + 8);
	f->gen = get32(p + 16);
	f->flags = get32(p + 20);
	f->seen = get64(p + 24);
	f->path_len = get16(p + 32);
	f->path = (const char *)p + 34;
	return f->path_len <= BS_NAMES_PATH_MAX && 34 + f->path_len == len ? 0 : -1;
}

/* frames: room for 2 * BS_NAMES_FRAMES_MAX, the reader's */
static int parse_stack(const uint8_t *p, uint32_t len, struct bs_names_stack *s,
		       struct bs_names_frame *frames)
{
	uint32_t off = 12, i, n;

	if (len < 12)
		return -1;
	s->id = get32(p);
	s->flags = get32(p + 4);
	s->nkernel = get16(p + 8);
	s->nuser = get16(p + 10);
	if (s->nkernel > BS_NAMES_FRAMES_MAX || s->nuser > BS_NAMES_FRAMES_MAX)
		return -1;
	n = (uint32_t)s->nkernel + s->nuser;
	for (i = 0; i < n; i++) {
		if (off + 2 > len)
			return -1;
		frames[i].len = get16(p + off);
		if (frames[i].len > BS_NAMES_FRAME_MAX || off + 2 + frames[i].len > len)
			return -1;
		frames[i].name = (const char *)p + off + 2;
		off += 2 + frames[i].len;
	}
	s->frames = frames;
	return off == len ? 0 : -1;
}

static void parse_counts(const uint8_t *p, uint32_t len, struct bs_names_counts *c)
{
	uint64_t v[8] = { 0 };
	uint32_t i;

	for (i = 0; i < 8 && 8 * (i + 1) <= len; i++)	/* later versions may append counters */
		v[i] = get64(p + 8 * i);
	*c = (struct bs_names_counts){ v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7] };
}

/* A names record's body: 0, or -1 if it does not hold what its type says. */
int bs_names_body_parse(uint16_t type, const uint8_t *body, uint32_t len, struct bs_names_rec *r,
			struct bs_names_frame *frames)
{
	r->type = 0;
	switch (type) {
	case BS_NAMES_FILE:
		if (parse_file(body, len, &r->file))
			return -1;
		break;
	case BS_NAMES_STACK:
		if (parse_stack(body, len, &r->stack, frames))
			return -1;
		break;
	case BS_NAMES_COUNTS:
		parse_counts(body, len, &r->counts);
		break;
	default:
		return 0;	/* unknown: skipped */
	}
	r->type = (enum bs_names_type)type;
	return 0;
}

/* ---- names of the side files ---- */

/* "DIR/BASE.blktrace.N[.zst]": the length of "DIR/BASE" and N; -1 if not such a name */
static int split_trace_path(const char *path, size_t *base_len, unsigned long *cpu)
{
	const char *infix = NULL, *p = path, *digits;
	char *end;

	while ((p = strstr(p, ".blktrace."))) {
		infix = p;
		p++;
	}
	if (!infix || infix == path || infix[-1] == '/')
		return -1;
	digits = infix + strlen(".blktrace.");
	if (*digits < '0' || *digits > '9')
		return -1;
	*cpu = strtoul(digits, &end, 10);
	if (*end && strcmp(end, ".zst"))
		return -1;
	*base_len = (size_t)(infix - path);
	return 0;
}

int bs_attr_path_of(const char *trace_path, char *out, size_t len)
{
	size_t base;
	unsigned long cpu;
	int n;

	if (split_trace_path(trace_path, &base, &cpu))
		return -1;
	n = snprintf(out, len, "%.*s%s%lu", (int)base, trace_path, BS_ATTR_INFIX, cpu);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int bs_names_path_of(const char *trace_path, char *out, size_t len)
{
	size_t base;
	unsigned long cpu;
	int n;

	if (split_trace_path(trace_path, &base, &cpu))
		return -1;
	n = snprintf(out, len, "%.*s%s", (int)base, trace_path, BS_NAMES_SUFFIX);
	return n > 0 && (size_t)n < len ? 0 : -1;
}
