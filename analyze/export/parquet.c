// SPDX-License-Identifier: GPL-2.0
/*
 * parquet.c - the Parquet writer: schema, row staging, data pages, column
 * chunks and row groups.  The footer is in parquet_footer.c.
 *
 * Values are staged per column for one data page (page_rows rows, or
 * page_bytes of string data).  A full page is encoded, compressed and
 * appended, header first, to the column's chunk buffer; a row group is the
 * set of chunk buffers, written out column after column when it reaches
 * row_group_rows rows or row_group_bytes encoded bytes.  Only then are file
 * offsets known, so the ColumnChunk metadata is serialized at that point and
 * kept (small) for the footer.  The output is only ever appended.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "parquet.h"
#include "parquet_w.h"

#define MAX_STRING (64u << 20)		/* one value; keeps page sizes in i32 */
#define DICT_TRY_VALUES 1024		/* judge a dictionary after this many values */

int pq_fail(struct bs_pq_writer *w, int err, const char *fmt, ...)
{
	va_list ap;

	if (w->err)
		return w->err;
	w->err = err;
	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
	va_end(ap);
	return err;
}

/* a refused value: the writer goes on, the caller may set another one */
static int refuse(struct bs_pq_writer *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int refuse(struct bs_pq_writer *w, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
	va_end(ap);
	return err;
}

int pq_output(struct bs_pq_writer *w, const void *p, size_t len)
{
	int err;

	if (w->err)
		return w->err;
	err = w->write(w->cookie, p, len);
	if (err)
		return pq_fail(w, err < 0 ? err : -EIO, "write: %s", strerror(err < 0 ? -err : EIO));
	w->off += len;
	return 0;
}

int bs_pq_write_fd(void *cookie, const void *buf, size_t len)
{
	int fd = (int)(intptr_t)cookie;
	const uint8_t *p = buf;

	while (len) {
		ssize_t r = write(fd, p, len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EIO;
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

/* ---- schema ---- */

static int check_column(const struct bs_pq_column *c)
{
	if (!c->name || !*c->name)
		return -1;
	if (c->type != BS_PQ_BOOLEAN && c->type != BS_PQ_INT32 && c->type != BS_PQ_INT64 &&
	    c->type != BS_PQ_BYTE_ARRAY)
		return -1;
	if ((c->flags & BS_PQ_UTC) && c->logical != BS_PQ_TIMESTAMP_NS)
		return -1;
	switch (c->logical) {
	case BS_PQ_PLAIN_VALUE:
		return 0;
	case BS_PQ_STRING:
		return c->type == BS_PQ_BYTE_ARRAY ? 0 : -1;
	case BS_PQ_TIMESTAMP_NS:
		return c->type == BS_PQ_INT64 ? 0 : -1;
	case BS_PQ_INT:
		if (c->type == BS_PQ_INT64)
			return c->int_bits == 64 ? 0 : -1;
		if (c->type == BS_PQ_INT32)
			return c->int_bits == 8 || c->int_bits == 16 || c->int_bits == 32 ? 0 : -1;
		return -1;
	}
	return -1;
}

/* the range set_int accepts, and how statistics compare */
static void column_range(struct pq_col *c)
{
	const struct bs_pq_column *d = &c->c;
	unsigned bits = d->type == BS_PQ_INT32 ? 32 : 64;
	bool sig = true;

	if (d->logical == BS_PQ_INT) {
		bits = d->int_bits;
		sig = d->int_signed;
	}
	if (sig) {
		c->hi = bits == 64 ? INT64_MAX : (int64_t)((1ULL << (bits - 1)) - 1);
		c->lo = -c->hi - 1;
	} else {
		c->lo = 0;
		c->hi = bits == 64 ? INT64_MAX : (int64_t)((1ULL << bits) - 1);
	}
	c->u64 = !sig && bits == 64;
	if (d->type == BS_PQ_BOOLEAN) {
		c->lo = 0;
		c->hi = 1;
	}
	/* put_row's one comparison: the value minus lo, unsigned, within span */
	c->span = c->u64 ? UINT64_MAX : (uint64_t)c->hi - (uint64_t)c->lo;
}

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

static void chunk_reset(struct bs_pq_writer *w, struct pq_col *c)
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
	c->dict_on = c->c.type != BS_PQ_BOOLEAN && !(c->c.flags & BS_PQ_NO_DICT) && !c->dict_never;
	c->rows = 0;
	page_begin(c);
}

static int column_init(struct bs_pq_writer *w, struct pq_col *c, const struct bs_pq_column *d)
{
	uint32_t n = w->o.page_rows;

	c->c = *d;
	c->c.name = strdup(d->name);
	c->nullable = d->flags & BS_PQ_NULLABLE;
	c->is_str = d->type == BS_PQ_BYTE_ARRAY;
	c->utf8 = d->logical == BS_PQ_STRING;
	c->kind = d->type == BS_PQ_BOOLEAN ? PQ_K_BOOL : c->is_str ? PQ_K_STR : PQ_K_INT;
	if (!c->c.name)
		return -ENOMEM;
	if (c->nullable && !(c->defs = malloc(n)))
		return -ENOMEM;
	if (!(c->vals = malloc(n * sizeof(*c->vals))))
		return -ENOMEM;
	if (c->is_str && !(c->soff = malloc((n + 1) * sizeof(*c->soff))))
		return -ENOMEM;
	if (c->is_str) {
		c->soff[0] = 0;
		/* never a NULL base, also when every string is empty */
		if (pq_buf_reserve(&c->sarena, 256))
			return -ENOMEM;
	}
	column_range(c);
	chunk_reset(w, c);
	return 0;
}

/*
 * Rows per page by default: the staged pages of all columns (8 bytes a
 * value) should stay in the L2 cache, or every staged value costs a cache
 * miss: about 48k values in all, a power of two between 1024 and 16384
 * rows (2048 for a 19-column I/O table).
 */
static uint32_t default_page_rows(unsigned ncols)
{
	uint32_t rows = 16384;

	while (rows > 1024 && (uint64_t)rows * ncols > 48 * 1024)
		rows /= 2;
	return rows;
}

static void options(struct bs_pq_options *o, const struct bs_pq_options *in, unsigned ncols)
{
	if (in)
		*o = *in;
	else
		memset(o, 0, sizeof(*o));
	if (!o->row_group_rows)
		o->row_group_rows = 1 << 20;
	if (!o->row_group_bytes)
		o->row_group_bytes = 48 << 20;
	if (!o->page_rows)
		o->page_rows = default_page_rows(ncols);
	if (o->page_rows > (1u << 24))
		o->page_rows = 1u << 24;
	if (!o->page_bytes)
		o->page_bytes = 1 << 20;
	if (!o->dict_bytes)
		o->dict_bytes = 1 << 20;
	if (!o->zstd_level)
		o->zstd_level = 1;
#ifndef HAVE_ZSTD
	o->zstd_level = -1;
#endif
}

struct bs_pq_writer *bs_pq_create(const struct bs_pq_column *cols, unsigned ncols,
				  const struct bs_pq_options *opt, bs_pq_write_fn write,
				  void *cookie, int *err)
{
	struct bs_pq_writer *w;
	int e = -EINVAL;

	if (!cols || !ncols || ncols > 32767 || !write)
		goto out;
	for (unsigned i = 0; i < ncols; i++) {
		if (check_column(&cols[i]))
			goto out;
		for (unsigned k = 0; k < i; k++)
			if (!strcmp(cols[i].name, cols[k].name))
				goto out;
	}
	e = -ENOMEM;
	w = calloc(1, sizeof(*w));
	if (!w)
		goto out;
	options(&w->o, opt, ncols);
	w->write = write;
	w->cookie = cookie;
	w->ncols = ncols;
	w->cols = calloc(ncols, sizeof(*w->cols));
	w->idx = malloc(w->o.page_rows * sizeof(*w->idx));
	w->created_by = strdup(w->o.created_by ? w->o.created_by :
			       "blkscope version " BLKSCOPE_VERSION " (parquet writer)");
	w->o.created_by = NULL;
	if (!w->cols || !w->idx || !w->created_by)
		goto fail;
	for (unsigned i = 0; i < ncols; i++)
		if (column_init(w, &w->cols[i], &cols[i]))
			goto fail;
#ifdef HAVE_ZSTD
	if (w->o.zstd_level > 0 && !(w->zc = ZSTD_createCCtx()))
		goto fail;
#endif
	e = pq_output(w, "PAR1", 4);
	if (e)
		goto fail;
	return w;
fail:
	bs_pq_free(w);
out:
	if (err)
		*err = e;
	return NULL;
}

int bs_pq_add_meta(struct bs_pq_writer *w, const char *key, const char *value)
{
	char **kv;

	if (w->err)
		return w->err;
	if (!key || w->closed)
		return refuse(w, -EINVAL, "metadata: no key, or writer closed");
	kv = realloc(w->kv, (w->nkv + 1) * 2 * sizeof(*kv));
	if (!kv)
		return pq_fail(w, -ENOMEM, "out of memory");
	w->kv = kv;
	kv[w->nkv * 2] = strdup(key);
	kv[w->nkv * 2 + 1] = value ? strdup(value) : NULL;
	w->nkv++;
	if (!kv[w->nkv * 2 - 2] || (value && !kv[w->nkv * 2 - 1]))
		return pq_fail(w, -ENOMEM, "out of memory");
	return 0;
}

/* ---- staging one row's values ---- */

static int __attribute__((noinline)) refuse_target(struct bs_pq_writer *w, unsigned col,
							enum pq_kind k)
{
	struct pq_col *c;

	if (w->err)
		return w->err;
	if (w->closed)
		return refuse(w, -EINVAL, "writer closed");
	if (col >= w->ncols)
		return refuse(w, -EINVAL, "no column %u", col);
	c = &w->cols[col];
	if (c->kind != k)
		return refuse(w, -EINVAL, "column %s: value of the wrong kind", c->c.name);
	return refuse(w, -EINVAL, "column %s set twice in one row", c->c.name);
}

/* the checks of every set (the refusals are out of line: this is per value) */
static inline __attribute__((always_inline)) struct pq_col *
target(struct bs_pq_writer *w, unsigned col, enum pq_kind k, int *rc)
{
	struct pq_col *c;

	if (__builtin_expect(w->err || w->closed || col >= w->ncols, 0))
		goto bad;
	c = &w->cols[col];
	if (__builtin_expect(c->kind != k || c->rows != w->rg_rows, 0))
		goto bad;
	return c;
bad:
	*rc = refuse_target(w, col, k);
	return NULL;
}

/* string bytes staged in the page, wherever they are */
static inline size_t staged_bytes(const struct pq_col *c)
{
	return c->idx_page ? c->dict.sbytes.len - c->page_dict_bytes : c->sarena.len;
}

/* a value (or null) was staged: count it, flush the page when full */
static inline __attribute__((always_inline)) int staged(struct bs_pq_writer *w,
							struct pq_col *c, bool value)
{
	if (c->nullable)
		c->defs[c->n] = value;
	c->n++;
	c->rows++;
	w->nset++;
	if (__builtin_expect(c->n >= w->o.page_rows ||
			     (c->is_str && staged_bytes(c) >= w->o.page_bytes), 0))
		return pq_flush_page(w, c);
	return 0;
}

static int set_i(struct bs_pq_writer *w, struct pq_col *c, int64_t v)
{
	c->vals[c->nv++] = v;
	return staged(w, c, true);
}

int bs_pq_set_int(struct bs_pq_writer *w, unsigned col, int64_t v)
{
	int rc;
	struct pq_col *c = target(w, col, PQ_K_INT, &rc);

	if (!c)
		return rc;
	if (v < c->lo || v > c->hi)
		return refuse(w, -ERANGE, "column %s: %lld out of range", c->c.name, (long long)v);
	return set_i(w, c, v);
}

int bs_pq_set_uint(struct bs_pq_writer *w, unsigned col, uint64_t v)
{
	int rc;
	struct pq_col *c = target(w, col, PQ_K_INT, &rc);

	if (!c)
		return rc;
	if (!c->u64 && v > (uint64_t)c->hi)
		return refuse(w, -ERANGE, "column %s: %llu out of range", c->c.name,
			      (unsigned long long)v);
	return set_i(w, c, (int64_t)v);
}

int bs_pq_set_bool(struct bs_pq_writer *w, unsigned col, bool v)
{
	int rc;
	struct pq_col *c = target(w, col, PQ_K_BOOL, &rc);

	if (!c)
		return rc;
	return set_i(w, c, v);
}

/* stages a string as its dictionary index (the dictionary holds it repaired) */
static int stage_str_index(struct bs_pq_writer *w, struct pq_col *c, const void *s, size_t len)
{
	uint32_t idx;
	int r = pq_dict_lookup_str(&c->dict, s, len, &idx);

	if (r) {
		const void *p = s;

		if (c->utf8 && pq_utf8_valid_prefix(s, len) != len) {
			w->tmp.len = 0;
			pq_utf8_repair(&w->tmp, s, len);
			w->bad_utf8++;
			p = w->tmp.p;
			len = w->tmp.len;
		}
		r = w->tmp.oom ? -ENOMEM : pq_dict_find_str(&c->dict, p, len, &idx);
		if (r < 0)
			return pq_fail(w, r, "dictionary: %s", strerror(-r));
	}
	c->vals[c->nv++] = idx;
	return 0;
}

/* copies a string value into the page (repaired if it is not UTF-8) */
static inline int stage_str_value(struct bs_pq_writer *w, struct pq_col *c, const void *s,
				  size_t len)
{
	struct pq_buf *a = &c->sarena;

	if (c->idx_page)
		return stage_str_index(w, c, s, len);
	if (!c->utf8 || pq_utf8_valid_prefix(s, len) == len) {
		pq_put(a, s, len);
	} else {
		pq_utf8_repair(a, s, len);
		w->bad_utf8++;
	}
	if (a->oom)
		return pq_fail(w, -ENOMEM, "out of memory");
	c->soff[++c->nv] = (uint32_t)a->len;
	return 0;
}

static inline int stage_str(struct bs_pq_writer *w, struct pq_col *c, const void *s, size_t len)
{
	int err = stage_str_value(w, c, s, len);

	return err ? err : staged(w, c, true);
}

int bs_pq_set_str(struct bs_pq_writer *w, unsigned col, const void *s, size_t len)
{
	int rc;
	struct pq_col *c = target(w, col, PQ_K_STR, &rc);

	if (!c)
		return rc;
	if (len > MAX_STRING)
		return refuse(w, -E2BIG, "column %s: string of %zu bytes", c->c.name, len);
	return stage_str(w, c, s, len);
}

/* put_row's checks of one value, before anything of the row is staged */
static int __attribute__((noinline)) refuse_value(struct bs_pq_writer *w, struct pq_col *c,
						  const struct bs_pq_value *v)
{
	if (v->null)
		return refuse(w, -EINVAL, "column %s is not nullable", c->c.name);
	if (c->kind == PQ_K_STR)
		return refuse(w, -E2BIG, "column %s: string of %zu bytes", c->c.name, v->s.len);
	return refuse(w, -ERANGE, "column %s: %lld out of range", c->c.name, (long long)v->i);
}

static int row_ended(struct bs_pq_writer *w);

/* takes back the values put_row staged in columns [cols, end) */
static void unstage(struct bs_pq_writer *w, struct pq_col *end, const struct bs_pq_value *v)
{
	for (struct pq_col *c = w->cols; c < end; c++, v++) {
		c->n--;
		c->rows--;
		if (v->null)
			continue;
		c->nv--;
		if (c->kind == PQ_K_STR && !c->idx_page)
			c->sarena.len = c->soff[c->nv];
	}
}

/*
 * One pass: each value is checked and staged; a refused one takes back
 * what the row staged before it.  Pages are flushed only once the row is
 * complete, so that there is always something to take back.
 */
int bs_pq_put_row(struct bs_pq_writer *w, const struct bs_pq_value *v)
{
	uint32_t page_rows = w->o.page_rows;
	struct pq_col *c, *end = w->cols + w->ncols;
	const struct bs_pq_value *x;
	bool full = false;
	int err = 0;

	if (w->err || w->closed)
		return w->err ? w->err : -EINVAL;
	if (w->nset)
		return refuse(w, -EINVAL, "put_row after set in the same row");
	for (c = w->cols, x = v; c < end; c++, x++) {
		uint32_t n = c->n;

		if (x->null) {
			if (__builtin_expect(!c->nullable, 0))
				goto refused;
			c->defs[n] = 0;
		} else {
			if (c->kind == PQ_K_INT) {
				if (__builtin_expect((uint64_t)x->i - (uint64_t)c->lo > c->span, 0))
					goto refused;
				c->vals[c->nv++] = x->i;
			} else if (c->kind == PQ_K_STR) {
				if (__builtin_expect(x->s.len > MAX_STRING, 0))
					goto refused;
				err = stage_str_value(w, c, x->s.p, x->s.len);
				if (err)
					return err;	/* sticky: no need to take back */
				full |= staged_bytes(c) >= w->o.page_bytes;
			} else {
				c->vals[c->nv++] = x->b;
			}
			if (c->nullable)
				c->defs[n] = 1;
		}
		c->n = ++n;
		c->rows++;
		full |= n >= page_rows;
	}
	for (c = w->cols; full && c < end && !err; c++)
		if (c->n >= page_rows || (c->kind == PQ_K_STR && staged_bytes(c) >= w->o.page_bytes))
			err = pq_flush_page(w, c);
	return err ? err : row_ended(w);
refused:
	unstage(w, c, v);
	return refuse_value(w, c, x);
}

int bs_pq_set_null(struct bs_pq_writer *w, unsigned col)
{
	struct pq_col *c;

	if (w->err || w->closed)
		return w->err ? w->err : -EINVAL;
	if (col >= w->ncols)
		return refuse(w, -EINVAL, "no column %u", col);
	c = &w->cols[col];
	if (!c->nullable)
		return refuse(w, -EINVAL, "column %s is not nullable", c->c.name);
	if (c->rows != w->rg_rows)
		return refuse(w, -EINVAL, "column %s set twice in one row", c->c.name);
	return staged(w, c, false);
}

/* the columns left unset become nulls; refused if one is REQUIRED */
static int __attribute__((noinline)) fill_nulls(struct bs_pq_writer *w)
{
	/* first check, so that a refused row can be completed and ended again */
	for (unsigned i = 0; i < w->ncols; i++) {
		struct pq_col *c = &w->cols[i];

		if (c->rows == w->rg_rows && !c->nullable)
			return refuse(w, -EINVAL, "column %s not set", c->c.name);
	}
	for (unsigned i = 0; i < w->ncols; i++) {
		struct pq_col *c = &w->cols[i];

		if (c->rows == w->rg_rows) {
			int err = staged(w, c, false);

			if (err)
				return err;
		}
	}
	return 0;
}

int bs_pq_end_row(struct bs_pq_writer *w)
{
	if (w->err || w->closed)
		return w->err ? w->err : -EINVAL;
	if (w->nset != w->ncols) {
		int err = fill_nulls(w);

		if (err)
			return err;
	}
	w->nset = 0;
	return row_ended(w);
}

/* every column has its value: count the row, close the row group when full */
static int row_ended(struct bs_pq_writer *w)
{
	w->rg_rows++;
	w->rows++;
	if (w->rg_rows >= w->o.row_group_rows || w->buffered >= w->o.row_group_bytes)
		return pq_flush_group(w);
	return 0;
}

/* ---- data pages ---- */

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
static int materialize(struct bs_pq_writer *w, struct pq_col *c)
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
static int dict_encode(struct bs_pq_writer *w, struct pq_col *c, struct pq_buf *b)
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
static int plain_encode(struct bs_pq_writer *w, struct pq_col *c, struct pq_buf *b)
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
	if (c->c.type == BS_PQ_BOOLEAN) {
		size_t bytes = (c->nv + 7) / 8;

		if (pq_buf_reserve(b, bytes))
			return -1;
		memset(b->p + b->len, 0, bytes);
		for (uint32_t i = 0; i < c->nv; i++)
			b->p[b->len + i / 8] |= (uint8_t)((c->vals[i] & 1) << (i % 8));
		b->len += bytes;
		return PQ_ENC_PLAIN;
	}
	if (c->c.type == BS_PQ_INT32)
		pq_delta_i32(b, c->vals, c->nv);
	else
		pq_delta_i64(b, c->vals, c->nv);
	return PQ_ENC_DELTA;
}

/*
 * Compresses w->body into a page of the given type, appended (header,
 * then body) to out; counts its sizes into the column chunk.
 */
int pq_emit_page(struct bs_pq_writer *w, struct pq_col *c, struct pq_buf *out, int type,
		 int enc, uint32_t nvals)
{
	const uint8_t *data = w->body.p;
	size_t raw = w->body.len, clen = raw;
	struct tw t;

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
	tw_init(&t, &w->hdr);
	tw_i32(&t, 1, type);
	tw_i32(&t, 2, (int32_t)raw);
	tw_i32(&t, 3, (int32_t)clen);
	if (type == PQ_PAGE_DATA) {
		tw_struct_begin(&t, 5);		/* DataPageHeader */
		tw_i32(&t, 1, (int32_t)nvals);
		tw_i32(&t, 2, enc);
		tw_i32(&t, 3, PQ_ENC_RLE);	/* definition levels */
		tw_i32(&t, 4, PQ_ENC_RLE);	/* repetition levels (none: flat) */
		tw_end(&t);
	} else {
		tw_struct_begin(&t, 7);		/* DictionaryPageHeader */
		tw_i32(&t, 1, (int32_t)nvals);
		tw_i32(&t, 2, PQ_ENC_PLAIN);
		tw_end(&t);
	}
	tw_end(&t);
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
	return (size_t)d->count * (c->c.type == BS_PQ_INT32 ? 4 : 8);
}

/*
 * The first page of a chunk was dictionary-encoded at vstart..b->len: also
 * encode it without, and keep the smaller (the dictionary page counted in).
 * Values with little repetition (latencies, sectors) go without from here
 * on; few distinct values (devices, pids, names) keep the dictionary.
 */
static int dict_or_plain(struct bs_pq_writer *w, struct pq_col *c, struct pq_buf *b,
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

int pq_flush_page(struct bs_pq_writer *w, struct pq_col *c)
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
static int write_dict_page(struct bs_pq_writer *w, struct pq_col *c)
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
		size_t size = c->c.type == BS_PQ_INT32 ? 4 : 8;

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
static int write_chunk(struct bs_pq_writer *w, struct pq_col *c, struct tw *t)
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
	chunk_reset(w, c);
	return 0;
}

int pq_flush_group(struct bs_pq_writer *w)
{
	uint64_t start = w->off;
	struct tw t;
	int err;

	if (w->err)
		return w->err;
	if (!w->rg_rows)
		return 0;
	if (w->nrg >= INT16_MAX)
		return pq_fail(w, -E2BIG, "too many row groups");
	tw_init(&t, &w->rgmeta);
	tw_list_begin(&t, 1, TC_STRUCT, w->ncols);	/* RowGroup.columns */
	w->rg_raw = 0;
	for (unsigned i = 0; i < w->ncols; i++) {
		err = write_chunk(w, &w->cols[i], &t);
		if (err)
			return err;
	}
	tw_i64(&t, 2, (int64_t)w->rg_raw);		/* total_byte_size */
	tw_i64(&t, 3, (int64_t)w->rg_rows);		/* num_rows */
	tw_i64(&t, 5, (int64_t)start);			/* file_offset */
	tw_i64(&t, 6, (int64_t)(w->off - start));	/* total_compressed_size */
	tw_i16(&t, 7, (int16_t)w->nrg);			/* ordinal */
	tw_end(&t);
	if (w->rgmeta.oom)
		return pq_fail(w, -ENOMEM, "out of memory");
	w->nrg++;
	w->rg_rows = 0;
	w->buffered = 0;
	return 0;
}

void bs_pq_free(struct bs_pq_writer *w)
{
	if (!w)
		return;
	for (unsigned i = 0; w->cols && i < w->ncols; i++) {
		struct pq_col *c = &w->cols[i];

		free((char *)c->c.name);
		free(c->defs);
		free(c->vals);
		free(c->soff);
		pq_buf_free(&c->sarena);
		pq_buf_free(&c->chunk);
		pq_buf_free(&c->smin);
		pq_buf_free(&c->smax);
		pq_dict_free(&c->dict);
	}
	for (size_t i = 0; i < w->nkv * 2; i++)
		free(w->kv[i]);
	free(w->kv);
	free(w->cols);
	free(w->idx);
	free(w->created_by);
	pq_buf_free(&w->body);
	pq_buf_free(&w->tmp);
	pq_buf_free(&w->cbody);
	pq_buf_free(&w->hdr);
	pq_buf_free(&w->page);
	pq_buf_free(&w->rgmeta);
#ifdef HAVE_ZSTD
	ZSTD_freeCCtx(w->zc);
#endif
	free(w);
}

const char *bs_pq_errmsg(const struct bs_pq_writer *w)
{
	return w->msg;
}

uint64_t bs_pq_rows(const struct bs_pq_writer *w)
{
	return w->rows;
}

uint64_t bs_pq_bytes_written(const struct bs_pq_writer *w)
{
	return w->off;
}

uint64_t bs_pq_invalid_utf8(const struct bs_pq_writer *w)
{
	return w->bad_utf8;
}
