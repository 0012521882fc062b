// SPDX-License-Identifier: GPL-2.0
/*
 * pq_writer.c - the Parquet writer's life cycle: options, schema, creation,
 * key/value metadata, output, errors, free.  Rows are staged in
 * pq_row.c, pages, chunks and row groups are built in pq_page.c,
 * the footer in pq_footer.c.
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
#include <string.h>
#include <unistd.h>
#include "pq_writer.h"
#include "pq_priv.h"

int pq_fail(struct pq_writer *w, int err, const char *fmt, ...)
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
int pq_refuse(struct pq_writer *w, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
	va_end(ap);
	return err;
}

int pq_output(struct pq_writer *w, const void *p, size_t len)
{
	int err;

	if (w->err)
		return w->err;
	err = w->write(w->cookie, p, len);
	if (err)
		return pq_fail(w, err < 0 ? err : -EIO, "write: %s",
			       strerror(err < 0 ? -err : EIO));
	w->off += len;
	return 0;
}

int pq_write_fd(void *cookie, const void *buf, size_t len)
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

static int check_column(const struct pq_column *c)
{
	if (!c->name || !*c->name)
		return -1;
	if (c->type != PQ_BOOLEAN && c->type != PQ_INT32 && c->type != PQ_INT64 &&
	    c->type != PQ_BYTE_ARRAY)
		return -1;
	if ((c->flags & PQ_UTC) && c->logical != PQ_TIMESTAMP_NS)
		return -1;
	switch (c->logical) {
	case PQ_PLAIN_VALUE:
		return 0;
	case PQ_STRING:
		return c->type == PQ_BYTE_ARRAY ? 0 : -1;
	case PQ_TIMESTAMP_NS:
		return c->type == PQ_INT64 ? 0 : -1;
	case PQ_INT:
		if (c->type == PQ_INT64)
			return c->int_bits == 64 ? 0 : -1;
		if (c->type == PQ_INT32)
			return c->int_bits == 8 || c->int_bits == 16 || c->int_bits == 32 ? 0 : -1;
		return -1;
	}
	return -1;
}

/* the range set_int accepts, and how statistics compare */
static void column_range(struct pq_col *c)
{
	const struct pq_column *d = &c->c;
	unsigned bits = d->type == PQ_INT32 ? 32 : 64;
	bool sig = true;

	if (d->logical == PQ_INT) {
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
	if (d->type == PQ_BOOLEAN) {
		c->lo = 0;
		c->hi = 1;
	}
	/* put_row's one comparison: the value minus lo, unsigned, within span */
	c->span = c->u64 ? UINT64_MAX : (uint64_t)c->hi - (uint64_t)c->lo;
}


static int column_init(struct pq_writer *w, struct pq_col *c, const struct pq_column *d)
{
	uint32_t n = w->o.page_rows;

	c->c = *d;
	c->c.name = strdup(d->name);
	c->nullable = d->flags & PQ_NULLABLE;
	c->is_str = d->type == PQ_BYTE_ARRAY;
	c->utf8 = d->logical == PQ_STRING;
	c->kind = d->type == PQ_BOOLEAN ? PQ_K_BOOL : c->is_str ? PQ_K_STR : PQ_K_INT;
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
	pq_chunk_reset(w, c);
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

static void options(struct pq_options *o, const struct pq_options *in, unsigned ncols)
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

struct pq_writer *pq_create(const struct pq_column *cols, unsigned ncols,
			    const struct pq_options *opt, pq_write_fn write,
			    void *cookie, int *err)
{
	struct pq_writer *w;
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
	pq_free(w);
out:
	if (err)
		*err = e;
	return NULL;
}

int pq_add_meta(struct pq_writer *w, const char *key, const char *value)
{
	char **kv;

	if (w->err)
		return w->err;
	if (!key || w->closed)
		return pq_refuse(w, -EINVAL, "metadata: no key, or writer closed");
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


void pq_free(struct pq_writer *w)
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

const char *pq_errmsg(const struct pq_writer *w)
{
	return w->msg;
}

uint64_t pq_rows(const struct pq_writer *w)
{
	return w->rows;
}

uint64_t pq_bytes_written(const struct pq_writer *w)
{
	return w->off;
}

uint64_t pq_invalid_utf8(const struct pq_writer *w)
{
	return w->bad_utf8;
}
