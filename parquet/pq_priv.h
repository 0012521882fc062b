/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pq_priv.h - internals of the Parquet writer shared by its files (and by
 * the unit test, which decodes what the encoders produce): a growable byte
 * buffer, the value encoders, the Thrift compact-protocol writer, and the
 * writer's context object (pq_writer.c: life cycle, pq_row.c: rows,
 * pq_page.c: pages, chunks and row groups, pq_footer.c: metadata).
 */
#ifndef BLKSCOPE_PARQUET_PQ_PRIV_H
#define BLKSCOPE_PARQUET_PQ_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#include "pq_writer.h"

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

/* ---- encoders (pq_encode.c) ---- */

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

/* ---- dictionary: value -> index, open addressing (pq_dict.c) ---- */
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

/* ---- Thrift compact protocol (pq_thrift.c) ---- */
enum {
	PQ_TC_TRUE = 1, PQ_TC_FALSE = 2, PQ_TC_BYTE = 3, PQ_TC_I16 = 4, PQ_TC_I32 = 5,
	PQ_TC_I64 = 6, PQ_TC_DOUBLE = 7, PQ_TC_BINARY = 8, PQ_TC_LIST = 9, PQ_TC_SET = 10,
	PQ_TC_MAP = 11, PQ_TC_STRUCT = 12,
};

#define PQ_THRIFT_DEPTH 16
struct pq_thrift {
	struct pq_buf *b;
	int16_t last[PQ_THRIFT_DEPTH];	/* last field id written, per nesting level */
	int depth;
};

void pq_thrift_init(struct pq_thrift *t, struct pq_buf *b);
void pq_thrift_i16(struct pq_thrift *t, int16_t id, int16_t v);
void pq_thrift_i32(struct pq_thrift *t, int16_t id, int32_t v);
void pq_thrift_i64(struct pq_thrift *t, int16_t id, int64_t v);
void pq_thrift_byte(struct pq_thrift *t, int16_t id, int8_t v);
void pq_thrift_bool(struct pq_thrift *t, int16_t id, bool v);
void pq_thrift_bin(struct pq_thrift *t, int16_t id, const void *p, size_t len);
void pq_thrift_str(struct pq_thrift *t, int16_t id, const char *s);
void pq_thrift_struct_begin(struct pq_thrift *t, int16_t id);
void pq_thrift_list_begin(struct pq_thrift *t, int16_t id, int elem_type, uint32_t n);
/* an element of a list of i32, of a list of binary, a struct element of a list */
void pq_thrift_list_i32(struct pq_thrift *t, int32_t v);
void pq_thrift_list_str(struct pq_thrift *t, const char *s);
void pq_thrift_elem_begin(struct pq_thrift *t);
void pq_thrift_end(struct pq_thrift *t);	/* ends a struct (writes STOP) */

/* ---- the writer (pq_writer.c, pq_row.c, pq_page.c, pq_footer.c) ---- */

#ifndef BLKSCOPE_VERSION
#define BLKSCOPE_VERSION "unknown"
#endif

/* parquet.thrift enums */
enum { PQ_ENC_PLAIN = 0, PQ_ENC_RLE = 3, PQ_ENC_DELTA = 5, PQ_ENC_RLE_DICT = 8 };
enum { PQ_PAGE_DATA = 0, PQ_PAGE_DICT = 2 };
enum { PQ_CODEC_NONE = 0, PQ_CODEC_ZSTD = 6 };

enum pq_kind { PQ_K_BOOL, PQ_K_INT, PQ_K_STR };

struct pq_col {
	struct pq_column c;		/* name is our copy */
	enum pq_kind kind;		/* which set function it takes */
	bool nullable, is_str, utf8;
	bool u64;			/* INT(64, unsigned): statistics compare unsigned */
	int64_t lo, hi;			/* what set_int accepts */
	uint64_t span;			/* hi - lo (all of uint64 for INT(64, false)) */

	/* the data page being staged */
	uint32_t n;			/* rows, nulls included */
	uint32_t nv;			/* values (non-null) */
	uint8_t *defs;			/* definition level per row (nullable only) */
	int64_t *vals;			/* integer and boolean values */
	uint32_t *soff;			/* strings: value i is sarena[soff[i]..soff[i+1]) */
	struct pq_buf sarena;
	bool idx_page;			/* strings staged as dictionary indices (in vals) */
	uint32_t page_dict_base;	/* dictionary entries before this page */
	size_t page_dict_bytes;		/* ... and their bytes */
	uint32_t row_dict_count;	/* put_row: entries before this row's value */
	uint32_t last_sidx;		/* dictionary index of the last string staged: a hint */
	uint64_t rows;			/* rows of this row group set so far */

	/* dictionary of the current chunk */
	bool dict_on;			/* pages of this chunk try the dictionary */
	bool dict_never;		/* it did not pay once: not tried again */
	struct pq_dict dict;
	uint32_t dict_pages;		/* data pages that used it */
	uint64_t dict_values;		/* values they hold */

	/* the column chunk of the current row group */
	struct pq_buf chunk;		/* its data pages, headers included */
	uint64_t chunk_raw;		/* uncompressed size, headers included */
	uint64_t nvalues, nnulls;
	unsigned encmask;		/* 1 << encoding, for each one used */
	int zstd;			/* pages compressed: 1 yes, 0 no, -1 undecided */
	bool has_mm;			/* min/max below are set */
	int64_t imin, imax;
	struct pq_buf smin, smax;
};

struct pq_writer {
	struct pq_col *cols;
	unsigned ncols;
	struct pq_options o;
	char *created_by;
	char **kv;			/* key, value, key, value... */
	size_t nkv;
	pq_write_fn write;
	void *cookie;

	uint64_t off;			/* bytes written so far */
	uint64_t rows;			/* rows ended so far */
	uint64_t rg_rows;		/* ... in the current row group */
	unsigned nset;			/* columns set in the current row */
	uint64_t rg_raw;		/* its uncompressed size */
	size_t buffered;		/* its encoded pages waiting in memory */
	uint32_t nrg;			/* row groups written */
	struct pq_buf rgmeta;		/* their RowGroup structs, serialized */

	struct pq_buf body, cbody, hdr, page;	/* scratch for one page */
	struct pq_buf tmp;		/* scratch: a repaired string */
	uint32_t *idx;			/* scratch: page_rows indices */
#ifdef HAVE_ZSTD
	ZSTD_CCtx *zc;
#endif
	uint64_t bad_utf8;
	bool closed;
	int err;			/* sticky: the writer is unusable */
	char msg[160];
};

int pq_fail(struct pq_writer *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int pq_refuse(struct pq_writer *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int pq_output(struct pq_writer *w, const void *p, size_t len);
void pq_chunk_reset(struct pq_writer *w, struct pq_col *c);
int pq_flush_page(struct pq_writer *w, struct pq_col *c);
int pq_flush_group(struct pq_writer *w);
int pq_emit_page(struct pq_writer *w, struct pq_col *c, struct pq_buf *out, int type,
		 int enc, uint32_t nvals);
void pq_stats_dict(struct pq_col *c);
void pq_column_chunk_meta(struct pq_writer *w, struct pq_col *c, struct pq_thrift *t,
			  uint64_t start, uint64_t data);

#endif /* BLKSCOPE_PARQUET_PQ_PRIV_H */
