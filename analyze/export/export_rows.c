// SPDX-License-Identifier: GPL-2.0
/*
 * export_rows.c - the row writers of `blkscope export`: one table (columns
 * declared as struct pq_column, rows as struct pq_value) written as
 * Parquet (through the writer of pq_writer.h), CSV (a header line, then one
 * line per row; null = empty field) or JSON lines (one object per row,
 * null = JSON null).  Strings go through util's escapers, so every output
 * is valid UTF-8 and CSV fields cannot start a spreadsheet formula.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_alloc.h"
#include "bs_msg.h"
#include "bs_escape.h"
#include "export.h"

struct export_rows {
	enum export_format fmt;
	int fd;
	const struct pq_column *cols;
	unsigned ncols;
	struct pq_writer *pq;	/* EXPORT_PARQUET */
	FILE *f;			/* EXPORT_CSV, EXPORT_JSONL */
	uint64_t rows;
	bool failed;
	const struct bs_msg_sink *msg;	/* where its errors go (the owner prints them) */
};

static void close_fd(int fd)
{
	if (fd != STDOUT_FILENO)
		close(fd);
}

struct export_rows *export_rows_open(enum export_format fmt, int fd,
				     const struct pq_column *cols, unsigned ncols,
				     uint32_t row_group_rows, const char *table,
				     const struct bs_msg_sink *msg)
{
	struct export_rows *w = bs_xcalloc(1, sizeof(*w));
	unsigned i;
	int err = 0;

	w->msg = msg;
	w->fmt = fmt;
	w->fd = fd;
	w->cols = cols;
	w->ncols = ncols;
	if (fmt == EXPORT_PARQUET) {
		struct pq_options o = { .row_group_rows = row_group_rows };
		char ver[16];

		w->pq = pq_create(cols, ncols, &o, pq_write_fd, (void *)(intptr_t)fd, &err);
		if (!w->pq) {
			bs_msg(w->msg, BS_MSG_ERROR, "cannot start the Parquet file: %s",
			       strerror(-err));
			free(w);
			return NULL;
		}
		snprintf(ver, sizeof(ver), "%d", EXPORT_SCHEMA_VERSION);
		if (pq_add_meta(w->pq, "blkscope.table", table) ||
		    pq_add_meta(w->pq, "blkscope.schema_version", ver)) {
			bs_msg(w->msg, BS_MSG_ERROR, "%s", pq_errmsg(w->pq));
			pq_free(w->pq);
			free(w);
			return NULL;
		}
		return w;
	}
	w->f = fdopen(fd, "w");
	if (!w->f) {
		bs_msg(w->msg, BS_MSG_ERROR, "%s", strerror(errno));
		free(w);
		return NULL;
	}
	setvbuf(w->f, NULL, _IOFBF, 1 << 16);
	if (fmt == EXPORT_CSV) {
		for (i = 0; i < ncols; i++) {
			if (i)
				fputc(',', w->f);
			bs_csv_field(w->f, cols[i].name);
		}
		fputc('\n', w->f);
	}
	return w;
}

/* An integer as the column reads it: INT(64, false) takes all 64 bits. */
static void put_int(FILE *f, const struct pq_column *c, int64_t v)
{
	if (c->logical == PQ_INT && !c->int_signed)
		fprintf(f, "%" PRIu64, (uint64_t)v);
	else
		fprintf(f, "%" PRId64, v);
}

/* One value as text; strings are NUL-terminated at s.len (the tables see to it). */
static void put_value(struct export_rows *w, const struct pq_column *c,
		      const struct pq_value *v)
{
	FILE *f = w->f;

	if (v->null) {
		if (w->fmt == EXPORT_JSONL)
			fputs("null", f);
		return;
	}
	switch (c->type) {
	case PQ_BOOLEAN:
		fputs(v->b ? "true" : "false", f);
		break;
	case PQ_INT32:
	case PQ_INT64:
		put_int(f, c, v->i);
		break;
	case PQ_BYTE_ARRAY:
		if (w->fmt == EXPORT_CSV)
			bs_csv_field(f, v->s.p);
		else
			bs_json_string(f, v->s.p);
		break;
	}
}

static int put_text_row(struct export_rows *w, const struct pq_value *v)
{
	FILE *f = w->f;
	unsigned i;

	if (w->fmt == EXPORT_JSONL)
		fputc('{', f);
	for (i = 0; i < w->ncols; i++) {
		if (i)
			fputc(',', f);
		if (w->fmt == EXPORT_JSONL) {
			bs_json_string(f, w->cols[i].name);
			fputc(':', f);
		}
		put_value(w, &w->cols[i], &v[i]);
	}
	if (w->fmt == EXPORT_JSONL)
		fputc('}', f);
	fputc('\n', f);
	if (ferror(f)) {
		bs_msg(w->msg, BS_MSG_ERROR, "writing the output: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int export_rows_put(struct export_rows *w, const struct pq_value *v)
{
	int rc;

	if (w->failed)
		return -1;
	if (w->pq) {
		rc = pq_put_row(w->pq, v);
		if (rc) {
			bs_msg(w->msg, BS_MSG_ERROR, "row %" PRIu64 ": %s", w->rows,
				pq_errmsg(w->pq));
			w->failed = true;
			return -1;
		}
	} else if (put_text_row(w, v)) {
		w->failed = true;
		return -1;
	}
	w->rows++;
	return 0;
}

uint64_t export_rows_count(const struct export_rows *w)
{
	return w->rows;
}

void export_rows_abort(struct export_rows *w)
{
	if (!w)
		return;
	if (w->pq) {
		pq_free(w->pq);
		close_fd(w->fd);
	} else if (w->f) {
		if (w->fd == STDOUT_FILENO)
			fflush(w->f);
		else
			fclose(w->f);
	}
	free(w);
}

int export_rows_meta(struct export_rows *w, const char *key, const char *value)
{
	if (w->fmt != EXPORT_PARQUET)
		return 0;
	if (pq_add_meta(w->pq, key, value)) {
		bs_msg(w->msg, BS_MSG_ERROR, "%s", pq_errmsg(w->pq));
		return -1;
	}
	return 0;
}

int export_rows_close(struct export_rows *w)
{
	int rc = w->failed ? -1 : 0;

	if (w->pq) {
		if (!rc && pq_close(w->pq)) {
			bs_msg(w->msg, BS_MSG_ERROR, "%s", pq_errmsg(w->pq));
			rc = -1;
		}
		pq_free(w->pq);
		if (w->fd != STDOUT_FILENO && close(w->fd)) {
			bs_msg(w->msg, BS_MSG_ERROR, "closing the output: %s", strerror(errno));
			rc = -1;
		}
	} else {
		if (fflush(w->f) || ferror(w->f)) {
			bs_msg(w->msg, BS_MSG_ERROR, "writing the output: %s", strerror(errno));
			rc = -1;
		}
		if (w->fd != STDOUT_FILENO && fclose(w->f))
			rc = -1;
	}
	free(w);
	return rc;
}
