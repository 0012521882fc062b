/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parquet_w.h - the writer's context object, shared by parquet.c (pages,
 * chunks, row groups) and parquet_footer.c (metadata).
 */
#ifndef BLKSCOPE_PARQUET_W_H
#define BLKSCOPE_PARQUET_W_H

#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#include "parquet.h"
#include "parquet_int.h"

#ifndef BLKSCOPE_VERSION
#define BLKSCOPE_VERSION "unknown"
#endif

/* parquet.thrift enums */
enum { PQ_ENC_PLAIN = 0, PQ_ENC_RLE = 3, PQ_ENC_DELTA = 5, PQ_ENC_RLE_DICT = 8 };
enum { PQ_PAGE_DATA = 0, PQ_PAGE_DICT = 2 };
enum { PQ_CODEC_NONE = 0, PQ_CODEC_ZSTD = 6 };

enum pq_kind { PQ_K_BOOL, PQ_K_INT, PQ_K_STR };

struct pq_col {
	struct bs_pq_column c;		/* name is our copy */
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

struct bs_pq_writer {
	struct pq_col *cols;
	unsigned ncols;
	struct bs_pq_options o;
	char *created_by;
	char **kv;			/* key, value, key, value... */
	size_t nkv;
	bs_pq_write_fn write;
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

int pq_fail(struct bs_pq_writer *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int pq_refuse(struct bs_pq_writer *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int pq_output(struct bs_pq_writer *w, const void *p, size_t len);
void pq_chunk_reset(struct bs_pq_writer *w, struct pq_col *c);
int pq_flush_page(struct bs_pq_writer *w, struct pq_col *c);
int pq_flush_group(struct bs_pq_writer *w);
int pq_emit_page(struct bs_pq_writer *w, struct pq_col *c, struct pq_buf *out, int type,
		 int enc, uint32_t nvals);
void pq_stats_dict(struct pq_col *c);
void pq_column_chunk_meta(struct bs_pq_writer *w, struct pq_col *c, struct tw *t,
			  uint64_t start, uint64_t data);

#endif /* BLKSCOPE_PARQUET_W_H */
