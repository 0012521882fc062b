/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parquet_int.h - internals of the Parquet writer shared by its files (and
 * by the unit test, which decodes what the encoders produce): a growable
 * byte buffer, the value encoders, the Thrift compact-protocol writer.
 */
#ifndef BLKSCOPE_PARQUET_INT_H
#define BLKSCOPE_PARQUET_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- growable buffer: an allocation failure is sticky (oom) ---- */
struct pq_buf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

int pq_buf_grow(struct pq_buf *b, size_t need);
void pq_buf_free(struct pq_buf *b);

static inline int pq_buf_reserve(struct pq_buf *b, size_t n)
{
	if (b->cap - b->len >= n)
		return 0;
	return pq_buf_grow(b, n);
}

static inline void pq_put(struct pq_buf *b, const void *p, size_t n)
{
	if (pq_buf_reserve(b, n))
		return;
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

static inline void pq_put_byte(struct pq_buf *b, uint8_t v)
{
	if (pq_buf_reserve(b, 1))
		return;
	b->p[b->len++] = v;
}

static inline void pq_le32(uint8_t *p, uint32_t v)
{
	p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}

static inline void pq_le64(uint8_t *p, uint64_t v)
{
	pq_le32(p, (uint32_t)v);
	pq_le32(p + 4, (uint32_t)(v >> 32));
}

void pq_put_uvarint(struct pq_buf *b, uint64_t v);

static inline uint64_t pq_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

/* bits needed for v (0 for 0) */
static inline unsigned pq_bit_width(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

/* ---- encoders (parquet_encode.c) ---- */

/* Packs n values (n a multiple of 8) of width bits each, LSB first. */
void pq_bitpack(struct pq_buf *b, const uint64_t *v, size_t n, unsigned width);

/* RLE/bit-packed hybrid of n values of width bits (no length prefix). */
void pq_rle_hybrid(struct pq_buf *b, const uint32_t *v, size_t n, unsigned width);
/* The same for 0/1 bytes (definition levels, width 1); scratch holds n. */
void pq_rle_levels(struct pq_buf *b, const uint8_t *v, size_t n, uint32_t *scratch);

/* DELTA_BINARY_PACKED of n values; int32 columns wrap at 32 bits. */
void pq_delta_i64(struct pq_buf *b, const int64_t *v, size_t n);
void pq_delta_i32(struct pq_buf *b, const int64_t *v, size_t n);

/*
 * Copies s to out, replacing every byte that is not part of a well-formed
 * UTF-8 sequence by U+FFFD; returns the number of bytes replaced.
 */
size_t pq_utf8_repair(struct pq_buf *out, const uint8_t *s, size_t len);
/* Length of the valid UTF-8 prefix of s (len when all of it is valid). */
size_t pq_utf8_valid_prefix(const uint8_t *s, size_t len);

/* ---- dictionary: value -> index, open addressing (parquet_dict.c) ---- */
struct pq_slot {
	uint64_t key;		/* the value, or a string's hash */
	uint32_t idx;		/* index + 1; 0 = empty */
};

struct pq_dict {
	struct pq_slot *slot;
	uint32_t mask;		/* slots - 1 */
	uint32_t count;
	int64_t *ival;		/* integer values, by index */
	uint32_t *soff;		/* string values: offsets into sbytes, count + 1 */
	uint64_t *shash;	/* string hashes, by index */
	struct pq_buf sbytes;
	size_t cap;		/* entries ival/soff/shash can hold */
};

int pq_dict_find_int(struct pq_dict *d, int64_t v, uint32_t *idx);
int pq_dict_find_str(struct pq_dict *d, const uint8_t *s, size_t len, uint32_t *idx);
/* lookup only: 0 and the index, or -ENOENT */
int pq_dict_lookup_str(const struct pq_dict *d, const uint8_t *s, size_t len, uint32_t *idx);
/* forget entries >= count (the hash slots are rebuilt) */
int pq_dict_truncate(struct pq_dict *d, uint32_t count);
void pq_dict_reset(struct pq_dict *d);
void pq_dict_free(struct pq_dict *d);

/* ---- Thrift compact protocol (parquet_thrift.c) ---- */
enum {
	TC_TRUE = 1, TC_FALSE = 2, TC_BYTE = 3, TC_I16 = 4, TC_I32 = 5, TC_I64 = 6,
	TC_DOUBLE = 7, TC_BINARY = 8, TC_LIST = 9, TC_SET = 10, TC_MAP = 11, TC_STRUCT = 12,
};

#define TW_DEPTH 16
struct tw {
	struct pq_buf *b;
	int16_t last[TW_DEPTH];	/* last field id written, per nesting level */
	int depth;
};

void tw_init(struct tw *t, struct pq_buf *b);
void tw_i16(struct tw *t, int16_t id, int16_t v);
void tw_i32(struct tw *t, int16_t id, int32_t v);
void tw_i64(struct tw *t, int16_t id, int64_t v);
void tw_byte(struct tw *t, int16_t id, int8_t v);
void tw_bool(struct tw *t, int16_t id, bool v);
void tw_bin(struct tw *t, int16_t id, const void *p, size_t len);
void tw_str(struct tw *t, int16_t id, const char *s);
void tw_struct_begin(struct tw *t, int16_t id);
void tw_list_begin(struct tw *t, int16_t id, int elem_type, uint32_t n);
void tw_list_i32(struct tw *t, int32_t v);	/* an element of a list of i32 */
void tw_list_str(struct tw *t, const char *s);	/* an element of a list of binary */
void tw_elem_begin(struct tw *t);		/* a struct element of a list */
void tw_end(struct tw *t);			/* ends a struct (writes STOP) */

#endif /* BLKSCOPE_PARQUET_INT_H */
