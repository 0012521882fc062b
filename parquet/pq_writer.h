/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pq_writer.h - a small, append-only Apache Parquet writer for flat tables.
 *
 * The writer is a context object: declare the columns once, then fill one
 * row at a time (one pq_set_*() per column, in any order, then
 * pq_end_row()), then pq_close() writes the footer.  Output goes
 * through a write callback and is only ever appended, so a pipe or stdout
 * works; memory is bounded by the row-group limits, not by the file size.
 *
 * Encodings (see docs/parquet.md): dictionary (RLE_DICTIONARY pages + a
 * PLAIN dictionary page) for every column while it pays, then
 * DELTA_BINARY_PACKED for integers and PLAIN for strings and booleans;
 * definition levels RLE/bit-packed; pages compressed with zstd when the
 * build has libzstd, in the column chunks where it saves 1/32 (or all, see
 * zstd_always).  All functions return 0 or a negative errno, and
 * pq_errmsg() says what went wrong.  A refused value or row (-EINVAL,
 * -ERANGE, -E2BIG) is not sticky; after an allocation or write error the
 * writer refuses everything but pq_free().
 */
#ifndef BLKSCOPE_PARQUET_PQ_WRITER_H
#define BLKSCOPE_PARQUET_PQ_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* physical types (the values are parquet.thrift's Type) */
enum pq_type {
	PQ_BOOLEAN = 0,
	PQ_INT32 = 1,
	PQ_INT64 = 2,
	PQ_BYTE_ARRAY = 6,
};

/* what the physical value means */
enum pq_logical {
	PQ_PLAIN_VALUE = 0,	/* no annotation (e.g. INT64 nanoseconds) */
	PQ_STRING,		/* BYTE_ARRAY holding UTF-8; invalid bytes become U+FFFD */
	PQ_INT,		/* INT(int_bits, int_signed) on INT32/INT64 */
	PQ_TIMESTAMP_NS,	/* INT64 TIMESTAMP(NANOS, isAdjustedToUTC=utc) */
};

/* column flags */
#define PQ_NULLABLE	0x1	/* OPTIONAL: may hold nulls (else REQUIRED) */
#define PQ_NO_DICT	0x2	/* never try dictionary encoding (values known to be unique) */
#define PQ_UTC	0x4	/* PQ_TIMESTAMP_NS: isAdjustedToUTC = true */

struct pq_column {
	const char *name;
	enum pq_type type;
	enum pq_logical logical;
	uint8_t int_bits;	/* PQ_INT: 8, 16, 32 (INT32) or 64 (INT64) */
	bool int_signed;	/* PQ_INT: false = unsigned order in statistics */
	unsigned flags;		/* PQ_* above */
};

/* Limits; a zero field takes the default given. */
struct pq_options {
	uint32_t row_group_rows;	/* rows per row group (1048576) */
	size_t row_group_bytes;		/* encoded bytes buffered per row group (48 MiB) */
	uint32_t page_rows;		/* rows per data page (1024..16384: ~48k values in all) */
	size_t page_bytes;		/* string bytes staged per data page (1 MiB) */
	size_t dict_bytes;		/* dictionary page size before fallback (1 MiB) */
	int zstd_level;			/* 0: 1; < 0: no compression (UNCOMPRESSED) */
	bool zstd_always;		/* compress every chunk, also where zstd saves
					   less than 1/32 (by default such chunks are
					   written UNCOMPRESSED) */
	const char *created_by;		/* NULL: "blkscope version X (parquet writer)" */
};

/* Writes all of buf or fails: returns 0 or a negative errno. */
typedef int (*pq_write_fn)(void *cookie, const void *buf, size_t len);

struct pq_writer;

/* A pq_write_fn for a file descriptor: cookie is (void *)(intptr_t)fd. */
int pq_write_fd(void *cookie, const void *buf, size_t len);

/*
 * Creates a writer for ncols columns (copied) and writes the leading magic.
 * Returns NULL with *err set (-EINVAL with a bad schema, -ENOMEM, or the
 * write callback's error).
 */
struct pq_writer *pq_create(const struct pq_column *cols, unsigned ncols,
			    const struct pq_options *opt, pq_write_fn write,
			    void *cookie, int *err);

/* A key/value pair for the footer's key_value_metadata (copied). */
int pq_add_meta(struct pq_writer *w, const char *key, const char *value);

/*
 * Values of the current row.  set_int takes INT32 and INT64 columns and
 * refuses a value out of the column's INT(bits, signed) range (-ERANGE);
 * set_uint is the same for unsigned columns.  A column set twice in one
 * row, or a value of the wrong kind, is -EINVAL.
 */
int pq_set_int(struct pq_writer *w, unsigned col, int64_t v);
int pq_set_uint(struct pq_writer *w, unsigned col, uint64_t v);
int pq_set_bool(struct pq_writer *w, unsigned col, bool v);
int pq_set_str(struct pq_writer *w, unsigned col, const void *s, size_t len);
int pq_set_null(struct pq_writer *w, unsigned col);

/*
 * A whole row at once, one value per column in column order: the fast path
 * (one call instead of one per column).  Integers go in .i (INT(64, false)
 * takes all 64 bits, read as unsigned), booleans in .b, strings in .s; .null
 * marks a null.  A refused row (-EINVAL, -ERANGE, -E2BIG) leaves nothing
 * behind: what it staged before the refused value is taken back.  Not to be
 * mixed with pq_set_*() within one row.
 */
struct pq_value {
	union {
		int64_t i;
		bool b;
		struct {
			const void *p;
			size_t len;
		} s;
	};
	bool null;
};

int pq_put_row(struct pq_writer *w, const struct pq_value *v);

/*
 * Ends the row: columns left unset are null (a REQUIRED one is -EINVAL).
 * May flush a row group through the write callback.
 */
int pq_end_row(struct pq_writer *w);

/* Flushes the last row group and writes the footer; the fd stays open. */
int pq_close(struct pq_writer *w);
void pq_free(struct pq_writer *w);

const char *pq_errmsg(const struct pq_writer *w);
uint64_t pq_rows(const struct pq_writer *w);		/* rows ended so far */
uint64_t pq_bytes_written(const struct pq_writer *w);	/* file bytes so far */
uint64_t pq_invalid_utf8(const struct pq_writer *w);	/* strings repaired */

#endif /* BLKSCOPE_PARQUET_PQ_WRITER_H */
