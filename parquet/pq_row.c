// SPDX-License-Identifier: GPL-2.0
/*
 * pq_row.c - staging one row's values: pq_set_*() per column and
 * pq_end_row(), or pq_put_row() for the whole row.  This is the
 * writer's per-value path, hence the inlining and the refusals kept out of
 * line.  A full page goes to pq_flush_page(), a full row group to
 * pq_flush_group() (pq_page.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "pq_writer.h"
#include "pq_priv.h"

#define MAX_STRING (64u << 20)		/* one value; keeps page sizes in i32 */

static int __attribute__((noinline)) refuse_target(struct pq_writer *w, unsigned col,
							enum pq_kind k)
{
	struct pq_col *c;

	if (w->err)
		return w->err;
	if (w->closed)
		return pq_refuse(w, -EINVAL, "writer closed");
	if (col >= w->ncols)
		return pq_refuse(w, -EINVAL, "no column %u", col);
	c = &w->cols[col];
	if (c->kind != k)
		return pq_refuse(w, -EINVAL, "column %s: value of the wrong kind", c->c.name);
	return pq_refuse(w, -EINVAL, "column %s set twice in one row", c->c.name);
}

/* the checks of every set (the refusals are out of line: this is per value) */
static inline __attribute__((always_inline)) struct pq_col *
target(struct pq_writer *w, unsigned col, enum pq_kind k, int *rc)
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
static inline __attribute__((always_inline)) int staged(struct pq_writer *w,
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

static int set_i(struct pq_writer *w, struct pq_col *c, int64_t v)
{
	c->vals[c->nv++] = v;
	return staged(w, c, true);
}

int pq_set_int(struct pq_writer *w, unsigned col, int64_t v)
{
	int rc;
	struct pq_col *c = target(w, col, PQ_K_INT, &rc);

	if (!c)
		return rc;
	if (v < c->lo || v > c->hi)
		return pq_refuse(w, -ERANGE, "column %s: %lld out of range", c->c.name,
				 (long long)v);
	return set_i(w, c, v);
}

int pq_set_uint(struct pq_writer *w, unsigned col, uint64_t v)
{
	int rc;
	struct pq_col *c = target(w, col, PQ_K_INT, &rc);

	if (!c)
		return rc;
	if (!c->u64 && v > (uint64_t)c->hi)
		return pq_refuse(w, -ERANGE, "column %s: %llu out of range", c->c.name,
			      (unsigned long long)v);
	return set_i(w, c, (int64_t)v);
}

int pq_set_bool(struct pq_writer *w, unsigned col, bool v)
{
	int rc;
	struct pq_col *c = target(w, col, PQ_K_BOOL, &rc);

	if (!c)
		return rc;
	return set_i(w, c, v);
}

/*
 * stages a string as its dictionary index (the dictionary holds it
 * repaired).  Columns repeat their last value often (device, op, comm of a
 * burst): that entry is compared first, which saves the hash; the hint is
 * only a hint (the bytes are compared), so a reset or shrunk dictionary
 * cannot make it wrong.
 */
static int stage_str_index(struct pq_writer *w, struct pq_col *c, const void *s, size_t len)
{
	const struct pq_dict *d = &c->dict;
	uint32_t idx = c->last_sidx;
	int r;

	if (idx < d->count && d->soff[idx + 1] - d->soff[idx] == len &&
	    !memcmp(d->sbytes.p + d->soff[idx], s, len)) {
		c->vals[c->nv++] = idx;
		return 0;
	}
	r = pq_dict_lookup_str(&c->dict, s, len, &idx);

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
	c->last_sidx = idx;
	c->vals[c->nv++] = idx;
	return 0;
}

/* copies a string value into the page (repaired if it is not UTF-8) */
static inline int stage_str_value(struct pq_writer *w, struct pq_col *c, const void *s,
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

static inline int stage_str(struct pq_writer *w, struct pq_col *c, const void *s, size_t len)
{
	int err = stage_str_value(w, c, s, len);

	return err ? err : staged(w, c, true);
}

int pq_set_str(struct pq_writer *w, unsigned col, const void *s, size_t len)
{
	int rc;
	struct pq_col *c = target(w, col, PQ_K_STR, &rc);

	if (!c)
		return rc;
	if (len > MAX_STRING)
		return pq_refuse(w, -E2BIG, "column %s: string of %zu bytes", c->c.name, len);
	return stage_str(w, c, s, len);
}

/* put_row's checks of one value, before anything of the row is staged */
static int __attribute__((noinline)) refuse_value(struct pq_writer *w, struct pq_col *c,
						  const struct pq_value *v)
{
	if (v->null)
		return pq_refuse(w, -EINVAL, "column %s is not nullable", c->c.name);
	if (c->kind == PQ_K_STR)
		return pq_refuse(w, -E2BIG, "column %s: string of %zu bytes", c->c.name, v->s.len);
	return pq_refuse(w, -ERANGE, "column %s: %lld out of range", c->c.name, (long long)v->i);
}

static int row_ended(struct pq_writer *w);

/* takes back the values put_row staged in columns [cols, end) */
static int unstage(struct pq_writer *w, struct pq_col *end, const struct pq_value *v)
{
	for (struct pq_col *c = w->cols; c < end; c++, v++) {
		c->n--;
		c->rows--;
		if (v->null)
			continue;
		c->nv--;
		if (c->kind == PQ_K_STR && !c->idx_page)
			c->sarena.len = c->soff[c->nv];
		/* a string new to the dictionary leaves it again (statistics) */
		if (c->kind == PQ_K_STR && c->idx_page && c->dict.count > c->row_dict_count &&
		    pq_dict_truncate(&c->dict, c->row_dict_count))
			return pq_fail(w, -ENOMEM, "out of memory");
	}
	return 0;
}

/*
 * One pass: each value is checked and staged; a refused one takes back
 * what the row staged before it.  Pages are flushed only once the row is
 * complete, so that there is always something to take back.
 */
int pq_put_row(struct pq_writer *w, const struct pq_value *v)
{
	uint32_t page_rows = w->o.page_rows;
	struct pq_col *c, *end = w->cols + w->ncols;
	const struct pq_value *x;
	uint64_t bad_utf8 = w->bad_utf8;
	bool full = false;
	int err = 0;

	if (w->err || w->closed)
		return w->err ? w->err : -EINVAL;
	if (w->nset)
		return pq_refuse(w, -EINVAL, "put_row after set in the same row");
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
				c->row_dict_count = c->dict.count;
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
		if (c->n >= page_rows ||
		    (c->kind == PQ_K_STR && staged_bytes(c) >= w->o.page_bytes))
			err = pq_flush_page(w, c);
	return err ? err : row_ended(w);
refused:
	w->bad_utf8 = bad_utf8;		/* the repairs of a row that is not there */
	err = unstage(w, c, v);
	return err ? err : refuse_value(w, c, x);
}

int pq_set_null(struct pq_writer *w, unsigned col)
{
	struct pq_col *c;

	if (w->err || w->closed)
		return w->err ? w->err : -EINVAL;
	if (col >= w->ncols)
		return pq_refuse(w, -EINVAL, "no column %u", col);
	c = &w->cols[col];
	if (!c->nullable)
		return pq_refuse(w, -EINVAL, "column %s is not nullable", c->c.name);
	if (c->rows != w->rg_rows)
		return pq_refuse(w, -EINVAL, "column %s set twice in one row", c->c.name);
	return staged(w, c, false);
}

/* the columns left unset become nulls; refused if one is REQUIRED */
static int __attribute__((noinline)) fill_nulls(struct pq_writer *w)
{
	/* first check, so that a refused row can be completed and ended again */
	for (unsigned i = 0; i < w->ncols; i++) {
		struct pq_col *c = &w->cols[i];

		if (c->rows == w->rg_rows && !c->nullable)
			return pq_refuse(w, -EINVAL, "column %s not set", c->c.name);
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

int pq_end_row(struct pq_writer *w)
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
static int row_ended(struct pq_writer *w)
{
	w->rg_rows++;
	w->rows++;
	if (w->rg_rows >= w->o.row_group_rows || w->buffered >= w->o.row_group_bytes)
		return pq_flush_group(w);
	return 0;
}

