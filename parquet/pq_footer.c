// SPDX-License-Identifier: GPL-2.0
/*
 * pq_footer.c - the metadata of a Parquet file: ColumnChunk entries
 * (written per row group, when the chunk's offsets are known) and, at
 * close, the FileMetaData footer: schema, row groups, key/value pairs,
 * created_by, column orders; then its length and the closing magic.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "pq_priv.h"

#define STATS_MAX 256	/* longest string statistic kept */

/* ConvertedType for INT(bits, signed), kept for readers that predate LogicalType */
static int converted_int(const struct pq_column *c)
{
	int log2 = c->int_bits == 8 ? 0 : c->int_bits == 16 ? 1 : c->int_bits == 32 ? 2 : 3;

	return (c->int_signed ? 15 : 11) + log2;	/* INT_8.. / UINT_8.. */
}

static void schema_element(struct pq_thrift *t, const struct pq_column *c)
{
	pq_thrift_elem_begin(t);
	pq_thrift_i32(t, 1, c->type);
	pq_thrift_i32(t, 3, c->flags & PQ_NULLABLE ? 1 : 0);	/* OPTIONAL : REQUIRED */
	pq_thrift_str(t, 4, c->name);
	if (c->logical == PQ_STRING)
		pq_thrift_i32(t, 6, 0);				/* UTF8 */
	else if (c->logical == PQ_INT)
		pq_thrift_i32(t, 6, converted_int(c));
	if (c->logical != PQ_PLAIN_VALUE) {
		pq_thrift_struct_begin(t, 10);				/* LogicalType (a union) */
		switch (c->logical) {
		case PQ_STRING:
			pq_thrift_struct_begin(t, 1);			/* StringType */
			pq_thrift_end(t);
			break;
		case PQ_TIMESTAMP_NS:
			pq_thrift_struct_begin(t, 8);			/* TimestampType */
			pq_thrift_bool(t, 1, c->flags & PQ_UTC);	/* isAdjustedToUTC */
			pq_thrift_struct_begin(t, 2);			/* TimeUnit */
			pq_thrift_struct_begin(t, 3);			/* NANOS */
			pq_thrift_end(t);
			pq_thrift_end(t);
			pq_thrift_end(t);
			break;
		case PQ_INT:
			pq_thrift_struct_begin(t, 10);			/* IntType */
			pq_thrift_byte(t, 1, (int8_t)c->int_bits);
			pq_thrift_bool(t, 2, c->int_signed);
			pq_thrift_end(t);
			break;
		default:
			break;
		}
		pq_thrift_end(t);
	}
	pq_thrift_end(t);
}

/*
 * Statistics of a string chunk.  A min longer than STATS_MAX is cut (at a
 * UTF-8 character boundary: still a lower bound) and marked inexact; a max
 * that long is left out, as a cut max would not be an upper bound.
 */
static void string_stats(struct pq_thrift *t, struct pq_col *c)
{
	size_t min = c->smin.len;
	bool cut = false;

	if (c->smax.len <= STATS_MAX)
		pq_thrift_bin(t, 5, c->smax.p, c->smax.len);		/* max_value */
	if (min > STATS_MAX) {
		min = STATS_MAX;
		while (c->utf8 && min > 0 && (c->smin.p[min] & 0xc0) == 0x80)
			min--;
		cut = true;
	}
	pq_thrift_bin(t, 6, c->smin.p, min);				/* min_value */
	if (cut)
		pq_thrift_bool(t, 8, false);				/* is_min_value_exact */
}

static void statistics(struct pq_thrift *t, struct pq_col *c)
{
	uint8_t lo[8], hi[8];
	size_t size = c->c.type == PQ_INT64 ? 8 : c->c.type == PQ_INT32 ? 4 : 1;

	pq_thrift_struct_begin(t, 12);
	pq_thrift_i64(t, 3, (int64_t)c->nnulls);			/* null_count */
	if (c->has_mm && c->is_str) {
		string_stats(t, c);
	} else if (c->has_mm) {
		pq_le64(lo, (uint64_t)c->imin);
		pq_le64(hi, (uint64_t)c->imax);
		pq_thrift_bin(t, 5, hi, size);				/* max_value */
		pq_thrift_bin(t, 6, lo, size);				/* min_value */
	}
	pq_thrift_end(t);
}

void pq_column_chunk_meta(struct pq_writer *w, struct pq_col *c, struct pq_thrift *t,
			  uint64_t start, uint64_t data)
{
	unsigned n = 0;

	if (c->dict_pages)
		c->encmask |= 1u << PQ_ENC_PLAIN;		/* the dictionary page */
	for (unsigned e = 0; e < 32; e++)
		n += (c->encmask >> e) & 1;

	pq_thrift_elem_begin(t);					/* ColumnChunk */
	pq_thrift_i64(t, 2, (int64_t)start);				/* file_offset */
	pq_thrift_struct_begin(t, 3);					/* ColumnMetaData */
	pq_thrift_i32(t, 1, c->c.type);
	pq_thrift_list_begin(t, 2, PQ_TC_I32, n);				/* encodings */
	for (unsigned e = 0; e < 32; e++)
		if ((c->encmask >> e) & 1)
			pq_thrift_list_i32(t, (int32_t)e);
	pq_thrift_list_begin(t, 3, PQ_TC_BINARY, 1);			/* path_in_schema */
	pq_thrift_list_str(t, c->c.name);
	pq_thrift_i32(t, 4, c->zstd > 0 ? PQ_CODEC_ZSTD : PQ_CODEC_NONE);	/* codec */
	pq_thrift_i64(t, 5, (int64_t)c->nvalues);
	pq_thrift_i64(t, 6, (int64_t)c->chunk_raw);		/* total_uncompressed_size */
	pq_thrift_i64(t, 7, (int64_t)(w->off - start));		/* total_compressed_size */
	pq_thrift_i64(t, 9, (int64_t)data);				/* data_page_offset */
	if (c->dict_pages)
		pq_thrift_i64(t, 11, (int64_t)start);			/* dictionary_page_offset */
	statistics(t, c);
	pq_thrift_end(t);
	pq_thrift_end(t);
}

static int footer(struct pq_writer *w, struct pq_buf *b)
{
	struct pq_thrift t;

	pq_thrift_init(&t, b);
	pq_thrift_i32(&t, 1, 2);					/* version */
	pq_thrift_list_begin(&t, 2, PQ_TC_STRUCT, w->ncols + 1);		/* schema */
	pq_thrift_elem_begin(&t);					/* the root */
	pq_thrift_str(&t, 4, "schema");
	pq_thrift_i32(&t, 5, (int32_t)w->ncols);			/* num_children */
	pq_thrift_end(&t);
	for (unsigned i = 0; i < w->ncols; i++)
		schema_element(&t, &w->cols[i].c);
	pq_thrift_i64(&t, 3, (int64_t)w->rows);			/* num_rows */
	pq_thrift_list_begin(&t, 4, PQ_TC_STRUCT, w->nrg);		/* row_groups */
	pq_put(b, w->rgmeta.p, w->rgmeta.len);			/* already serialized */
	if (w->nkv) {
		/* key_value_metadata */
		pq_thrift_list_begin(&t, 5, PQ_TC_STRUCT, (uint32_t)w->nkv);
		for (size_t i = 0; i < w->nkv; i++) {
			pq_thrift_elem_begin(&t);
			pq_thrift_str(&t, 1, w->kv[2 * i]);
			if (w->kv[2 * i + 1])
				pq_thrift_str(&t, 2, w->kv[2 * i + 1]);
			pq_thrift_end(&t);
		}
	}
	pq_thrift_str(&t, 6, w->created_by);
	pq_thrift_list_begin(&t, 7, PQ_TC_STRUCT, w->ncols);		/* column_orders */
	for (unsigned i = 0; i < w->ncols; i++) {
		pq_thrift_elem_begin(&t);				/* ColumnOrder (a union) */
		pq_thrift_struct_begin(&t, 1);				/* TypeDefinedOrder */
		pq_thrift_end(&t);
		pq_thrift_end(&t);
	}
	pq_thrift_end(&t);
	return b->oom || b->len > UINT32_MAX ? -ENOMEM : 0;
}

int pq_close(struct pq_writer *w)
{
	struct pq_buf b = { 0 };
	uint8_t tail[8];
	int err;

	if (w->err)
		return w->err;
	if (w->closed)
		return -EINVAL;
	for (unsigned i = 0; i < w->ncols; i++)
		if (w->cols[i].rows != w->rg_rows) {
			snprintf(w->msg, sizeof(w->msg), "close: row %llu not ended",
				 (unsigned long long)w->rows);
			return -EINVAL;
		}
	err = pq_flush_group(w);
	if (err)
		return err;
	w->closed = true;
	if (footer(w, &b)) {
		pq_buf_free(&b);
		return pq_fail(w, -ENOMEM, "out of memory");
	}
	pq_le32(tail, (uint32_t)b.len);
	memcpy(tail + 4, "PAR1", 4);
	err = pq_output(w, b.p, b.len);
	if (!err)
		err = pq_output(w, tail, sizeof(tail));
	pq_buf_free(&b);
	return err;
}
