// SPDX-License-Identifier: GPL-2.0
/*
 * pq_page.c - data pages, dictionary pages, column chunks and row
 * groups: the choice of encoding per page (dictionary while it pays, else
 * DELTA_BINARY_PACKED or PLAIN), statistics, compression, the page headers,
 * and the writing of a row group with its ColumnChunk metadata.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "pq_writer.h"
#include "pq_priv.h"

#define DICT_TRY_VALUES 1024		/* judge a dictionary after this many values */

/*
 * A new page: a string column with a dictionary stages its values as
 * dictionary indices, looked up as they come (a value seen before costs a
 * hash and a compare; no copy, no UTF-8 check, no second lookup).
 */
static void page_begin(struct pq_col *c)
{
	c->idx_page = c->is_str && c->dict_on;
	c->page_dict_base = c->dict.count;
	c->page_dict_bytes = c->dict.sbytes.len;
}

void pq_chunk_reset(struct pq_writer *w, struct pq_col *c)
{
	c->zstd = w->o.zstd_level <= 0 ? 0 : w->o.zstd_always ? 1 : -1;
	c->chunk.len = 0;
	c->chunk_raw = 0;
	c->nvalues = c->nnulls = 0;
	c->encmask = 0;
	c->has_mm = false;
	c->smin.len = c->smax.len = 0;
	pq_dict_reset(&c->dict);
	c->dict_pages = 0;
	c->dict_values = 0;
	c->dict_on = c->c.type != PQ_BOOLEAN && !(c->c.flags & PQ_NO_DICT) && !c->dict_never;
	c->rows = 0;
	page_begin(c);
}

/* statistics over n integer values */
static void stats_ints(struct pq_col *c, const int64_t *v, size_t n)
{
	int64_t lo, hi;

	if (!n)
		return;
	lo = hi = v[0];
	if (c->u64) {
		for (size_t i = 1; i < n; i++) {
			if ((uint64_t)v[i] < (uint64_t)lo)
				lo = v[i];
			if ((uint64_t)v[i] > (uint64_t)hi)
				hi = v[i];
		}
		if (c->has_mm && (uint64_t)c->imin < (uint64_t)lo)
			lo = c->imin;
		if (c->has_mm && (uint64_t)c->imax > (uint64_t)hi)
			hi = c->imax;
	} else {
		for (size_t i = 1; i < n; i++) {
			lo = v[i] < lo ? v[i] : lo;
			hi = v[i] > hi ? v[i] : hi;
		}
		if (c->has_mm && c->imin < lo)
			lo = c->imin;
		if (c->has_mm && c->imax > hi)
			hi = c->imax;
	}
	c->imin = lo;
	c->imax = hi;
	c->has_mm = true;
}

/* unsigned lexicographic order, as Parquet orders BYTE_ARRAY */
static int bytes_cmp(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
	size_t n = al < bl ? al : bl;
	int r = n ? memcmp(a, b, n) : 0;	/* an empty buffer may have no memory */

	return r ? r : (al > bl) - (al < bl);
}

/* statistics over n strings: bytes at off[i]..off[i+1] */
static void stats_strs(struct pq_col *c, const uint8_t *bytes, const uint32_t *off, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const uint8_t *s = bytes + off[i];
		size_t len = off[i + 1] - off[i];

		if (!c->has_mm || bytes_cmp(s, len, c->smin.p, c->smin.len) < 0) {
			c->smin.len = 0;
			pq_put(&c->smin, s, len);
		}
		if (!c->has_mm || bytes_cmp(s, len, c->smax.p, c->smax.len) > 0) {
			c->smax.len = 0;
			pq_put(&c->smax, s, len);
		}
		c->has_mm = true;
	}
}

/* statistics over the dictionary: every entry was a value of the chunk */
void pq_stats_dict(struct pq_col *c)
{
	if (c->is_str)
		stats_strs(c, c->dict.sbytes.p, c->dict.soff, c->dict.count);
	else
		stats_ints(c, c->dict.ival, c->dict.count);
}

static size_t dict_page_size(const struct pq_col *c);

/*
 * A page of a string column staged as dictionary indices turns back into
 * strings (for a PLAIN page), before the dictionary forgets its entries.
 */
static int materialize(struct pq_writer *w, struct pq_col *c)
{
	const struct pq_dict *d = &c->dict;

	if (!c->idx_page)
		return 0;
	c->sarena.len = 0;
	for (uint32_t i = 0; i < c->nv; i++) {
		uint32_t e = (uint32_t)c->vals[i];

		pq_put(&c->sarena, d->sbytes.p + d->soff[e], d->soff[e + 1] - d->soff[e]);
		c->soff[i + 1] = (uint32_t)c->sarena.len;
	}
	c->idx_page = false;
	return c->sarena.oom ? pq_fail(w, -ENOMEM, "out of memory") : 0;
}

/*
 * Dictionary indices for the staged values.  Returns 1 when the page is
 * dictionary-encoded, 0 when the dictionary does not pay (more than half
 * of the values so far are distinct, or its page would pass dict_bytes):
 * then this page's entries are taken back and the column stays without a
 * dictionary from now on.
 */
static int dict_encode(struct pq_writer *w, struct pq_col *c, struct pq_buf *b)
{
	struct pq_dict *d = &c->dict;
	uint32_t before = c->idx_page ? c->page_dict_base : d->count;
	uint64_t seen = c->dict_values + c->nv;
	size_t page;
	int r = 0;

	if (c->idx_page) {
		/* strings were looked up as they came */
		for (uint32_t i = 0; i < c->nv; i++)
			w->idx[i] = (uint32_t)c->vals[i];
	} else if (c->is_str) {
		for (uint32_t i = 0; i < c->nv && r >= 0; i++)
			r = pq_dict_find_str(d, c->sarena.p + c->soff[i],
					     c->soff[i + 1] - c->soff[i], &w->idx[i]);
	} else {
		/* runs of one value (device, size, merges) skip the lookup */
		for (uint32_t i = 0; i < c->nv && r >= 0; i++)
			if (i && c->vals[i] == c->vals[i - 1])
				w->idx[i] = w->idx[i - 1];
			else
				r = pq_dict_find_int(d, c->vals[i], &w->idx[i]);
	}
	if (r < 0 && r != -E2BIG)
		return pq_fail(w, r, "out of memory");
	page = dict_page_size(c);
	if (r < 0 || page > w->o.dict_bytes ||
	    (seen >= DICT_TRY_VALUES && (uint64_t)d->count * 2 > seen)) {
		r = materialize(w, c);
		if (r)
			return r;
		if (c->dict_pages)
			r = pq_dict_truncate(d, before);
		else
			pq_dict_reset(d), r = 0;
		c->dict_on = false;
		c->dict_never = true;
		return r < 0 ? pq_fail(w, r, "out of memory") : 0;
	}
	c->dict_values = seen;
	c->dict_pages++;
	{
		unsigned width = pq_bit_width(d->count - 1);

		width = width ? width : 1;
		pq_put_byte(b, (uint8_t)width);
		pq_rle_hybrid(b, w->idx, c->nv, width);
	}
	return 1;
}

/* values without a dictionary: DELTA_BINARY_PACKED for integers, else PLAIN */
static int plain_encode(struct pq_writer *w, struct pq_col *c, struct pq_buf *b)
{
	if (c->is_str) {
		if (pq_buf_reserve(b, c->sarena.len + 4 * (size_t)c->nv))
			return -1;
		for (uint32_t i = 0; i < c->nv; i++) {
			uint32_t len = c->soff[i + 1] - c->soff[i];

			pq_le32(b->p + b->len, len);
			memcpy(b->p + b->len + 4, c->sarena.p + c->soff[i], len);
			b->len += 4 + len;
		}
		stats_strs(c, c->sarena.p, c->soff, c->nv);
		return PQ_ENC_PLAIN;
	}
	stats_ints(c, c->vals, c->nv);
	if (c->c.type == PQ_BOOLEAN) {
		size_t bytes = (c->nv + 7) / 8;

		if (pq_buf_reserve(b, bytes))
			return -1;
		memset(b->p + b->len, 0, bytes);
		for (uint32_t i = 0; i < c->nv; i++)
			b->p[b->len + i / 8] |= (uint8_t)((c->vals[i] & 1) << (i % 8));
		b->len += bytes;
		return PQ_ENC_PLAIN;
	}
	if (c->c.type == PQ_INT32)
		pq_delta_i32(b, c->vals, c->nv);
	else
		pq_delta_i64(b, c->vals, c->nv);
	return PQ_ENC_DELTA;
}

/*
 * Compresses w->body into a page of the given type, appended (header,
 * then body) to out; counts its sizes into the column chunk.
 */
int pq_emit_page(struct pq_writer *w, struct pq_col *c, struct pq_buf *out, int type,
		 int enc, uint32_t nvals)
{
	const uint8_t *data = w->body.p;
	size_t raw = w->body.len, clen = raw;
	struct pq_thrift t;

	if (w->body.oom)
		return pq_fail(w, -ENOMEM, "out of memory");
#ifdef HAVE_ZSTD
	if (w->zc && c->zstd) {
		size_t bound = ZSTD_compressBound(raw), r;

		w->cbody.len = 0;
		if (pq_buf_reserve(&w->cbody, bound))
			return pq_fail(w, -ENOMEM, "out of memory");
		r = ZSTD_compressCCtx(w->zc, w->cbody.p, bound, raw ? w->body.p : (const void *)"",
				      raw, w->o.zstd_level);
		if (ZSTD_isError(r))
			return pq_fail(w, -EIO, "zstd: %s", ZSTD_getErrorName(r));
		/* the chunk's first page decides: compressed only if it saves 1/32 */
		if (c->zstd < 0)
			c->zstd = r + raw / 32 < raw;
		if (c->zstd) {
			data = w->cbody.p;
			clen = r;
		}
	}
#endif
	if (raw > INT32_MAX || clen > INT32_MAX)
		return pq_fail(w, -E2BIG, "column %s: page too large", c->c.name);
	w->hdr.len = 0;
	pq_thrift_init(&t, &w->hdr);
	pq_thrift_i32(&t, 1, type);
	pq_thrift_i32(&t, 2, (int32_t)raw);
	pq_thrift_i32(&t, 3, (int32_t)clen);
	if (type == PQ_PAGE_DATA) {
		pq_thrift_struct_begin(&t, 5);		/* DataPageHeader */
		pq_thrift_i32(&t, 1, (int32_t)nvals);
		pq_thrift_i32(&t, 2, enc);
		pq_thrift_i32(&t, 3, PQ_ENC_RLE);	/* definition levels */
		pq_thrift_i32(&t, 4, PQ_ENC_RLE);	/* repetition levels (none: flat) */
		pq_thrift_end(&t);
	} else {
		pq_thrift_struct_begin(&t, 7);		/* DictionaryPageHeader */
		pq_thrift_i32(&t, 1, (int32_t)nvals);
		pq_thrift_i32(&t, 2, PQ_ENC_PLAIN);
		pq_thrift_end(&t);
	}
	pq_thrift_end(&t);
	pq_put(out, w->hdr.p, w->hdr.len);
	pq_put(out, data, clen);
	if (w->hdr.oom || out->oom)
		return pq_fail(w, -ENOMEM, "out of memory");
	c->chunk_raw += w->hdr.len + raw;
	c->encmask |= 1u << enc;
	return 0;
}

/* the size of the dictionary page, PLAIN-encoded */
static size_t dict_page_size(const struct pq_col *c)
{
	const struct pq_dict *d = &c->dict;

	if (c->is_str)
		return d->sbytes.len + 4 * (size_t)d->count;
	return (size_t)d->count * (c->c.type == PQ_INT32 ? 4 : 8);
}

/*
 * The first page of a chunk was dictionary-encoded at vstart..b->len: also
 * encode it without, and keep the smaller (the dictionary page counted in).
 * Values with little repetition (latencies, sectors) go without from here
 * on; few distinct values (devices, pids, names) keep the dictionary.
 */
static int dict_or_plain(struct pq_writer *w, struct pq_col *c, struct pq_buf *b,
			 size_t vstart)
{
	size_t dict = b->len - vstart + dict_page_size(c), end = b->len, plain;
	int enc = materialize(w, c);

	if (enc)
		return enc;
	enc = plain_encode(w, c, b);

	if (enc < 0)
		return enc;
	plain = b->len - end;
	if (b->oom || plain > dict) {
		b->len = end;
		return PQ_ENC_RLE_DICT;
	}
	memmove(b->p + vstart, b->p + end, plain);
	b->len = vstart + plain;
	pq_dict_reset(&c->dict);
	c->dict_pages = 0;
	c->dict_values = 0;
	c->dict_on = false;
	c->dict_never = true;
	return enc;
}

int pq_flush_page(struct pq_writer *w, struct pq_col *c)
{
	struct pq_buf *b = &w->body;
	size_t before = c->chunk.len;
	int enc = 0, err;

	if (!c->n)
		return 0;
	b->len = 0;
	if (c->nullable) {
		size_t at;

		pq_put(b, "\0\0\0\0", 4);
		at = b->len;
		pq_rle_levels(b, c->defs, c->n, w->idx);
		if (!b->oom)
			pq_le32(b->p + at - 4, (uint32_t)(b->len - at));
		c->encmask |= 1u << PQ_ENC_RLE;
	}
	if (c->dict_on && c->nv) {
		size_t vstart = b->len;

		enc = dict_encode(w, c, b);
		if (enc < 0)
			return enc;
		if (enc && c->dict_pages == 1)
			enc = dict_or_plain(w, c, b, vstart);
		else if (enc)
			enc = PQ_ENC_RLE_DICT;
		else
			b->len = vstart;
	}
	if (!enc)
		enc = plain_encode(w, c, b);
	if (enc < 0 || b->oom)
		return pq_fail(w, -ENOMEM, "out of memory");
	err = pq_emit_page(w, c, &c->chunk, PQ_PAGE_DATA, enc, c->n);
	if (err)
		return err;
	w->buffered += c->chunk.len - before;
	c->nvalues += c->n;
	c->nnulls += c->n - c->nv;
	c->n = c->nv = 0;
	c->sarena.len = 0;
	page_begin(c);
	return 0;
}

/* the dictionary page: the entries PLAIN-encoded, written before the data */
static int write_dict_page(struct pq_writer *w, struct pq_col *c)
{
	struct pq_dict *d = &c->dict;
	struct pq_buf *b = &w->body;
	int err;

	b->len = 0;
	if (c->is_str) {
		for (uint32_t i = 0; i < d->count; i++) {
			uint32_t len = d->soff[i + 1] - d->soff[i];
			uint8_t le[4];

			pq_le32(le, len);
			pq_put(b, le, 4);
			pq_put(b, d->sbytes.p + d->soff[i], len);
		}
	} else {
		size_t size = c->c.type == PQ_INT32 ? 4 : 8;

		if (!pq_buf_reserve(b, d->count * size)) {
			for (uint32_t i = 0; i < d->count; i++, b->len += size)
				if (size == 4)
					pq_le32(b->p + b->len, (uint32_t)d->ival[i]);
				else
					pq_le64(b->p + b->len, (uint64_t)d->ival[i]);
		}
	}
	w->page.len = 0;
	err = pq_emit_page(w, c, &w->page, PQ_PAGE_DICT, PQ_ENC_PLAIN, d->count);
	if (err)
		return err;
	return pq_output(w, w->page.p, w->page.len);
}

/* writes one column chunk of the row group and its ColumnChunk metadata */
static int write_chunk(struct pq_writer *w, struct pq_col *c, struct pq_thrift *t)
{
	uint64_t start = w->off, data;
	int err;

	err = pq_flush_page(w, c);
	if (err)
		return err;
	if (c->dict_pages) {
		err = write_dict_page(w, c);
		if (err)
			return err;
		pq_stats_dict(c);
	}
	data = w->off;
	err = pq_output(w, c->chunk.p, c->chunk.len);
	if (err)
		return err;
	pq_column_chunk_meta(w, c, t, start, data);
	w->rg_raw += c->chunk_raw;
	pq_chunk_reset(w, c);
	return 0;
}

int pq_flush_group(struct pq_writer *w)
{
	uint64_t start = w->off;
	struct pq_thrift t;
	int err;

	if (w->err)
		return w->err;
	if (!w->rg_rows)
		return 0;
	if (w->nrg >= INT16_MAX)
		return pq_fail(w, -E2BIG, "too many row groups");
	pq_thrift_init(&t, &w->rgmeta);
	pq_thrift_list_begin(&t, 1, PQ_TC_STRUCT, w->ncols);	/* RowGroup.columns */
	w->rg_raw = 0;
	for (unsigned i = 0; i < w->ncols; i++) {
		err = write_chunk(w, &w->cols[i], &t);
		if (err)
			return err;
	}
	pq_thrift_i64(&t, 2, (int64_t)w->rg_raw);		/* total_byte_size */
	pq_thrift_i64(&t, 3, (int64_t)w->rg_rows);		/* num_rows */
	pq_thrift_i64(&t, 5, (int64_t)start);			/* file_offset */
	pq_thrift_i64(&t, 6, (int64_t)(w->off - start));	/* total_compressed_size */
	pq_thrift_i16(&t, 7, (int16_t)w->nrg);			/* ordinal */
	pq_thrift_end(&t);
	if (w->rgmeta.oom)
		return pq_fail(w, -ENOMEM, "out of memory");
	w->nrg++;
	w->rg_rows = 0;
	w->buffered = 0;
	return 0;
}

