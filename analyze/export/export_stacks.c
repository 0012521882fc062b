// SPDX-License-Identifier: GPL-2.0
/*
 * export_stacks.c - the stacks table (record --stacks): one row per
 * distinct stack of the trace, the id the ios table's stack_id column
 * names, with the I/Os queued from it and its frames (root first, as in
 * folded stacks: the user frames from the outermost, then the kernel's
 * down to the function that queued the bio).  docs/export.md has the
 * columns.
 */
#include <stdlib.h>
#include <string.h>
#include "attr/attr.h"
#include "bs_alloc.h"
#include "bs_stream.h"
#include "export.h"

enum {
	ST_ID, ST_IOS, ST_BYTES, ST_KFRAMES, ST_UFRAMES, ST_UCUT, ST_FRAMES, ST_SUBMITTER, ST_ULEAF,
	ST_NCOLS,
};

const struct pq_column export_stacks_cols[] = {
	[ST_ID] = { "stack_id", PQ_INT32, PQ_INT, 32, false, 0 },
	[ST_IOS] = { "ios", PQ_INT64, PQ_INT, 64, false, 0 },
	[ST_BYTES] = { "bytes", PQ_INT64, PQ_INT, 64, false, 0 },
	[ST_KFRAMES] = { "kernel_frames", PQ_INT32, PQ_INT, 32, false, 0 },
	[ST_UFRAMES] = { "user_frames", PQ_INT32, PQ_INT, 32, false, 0 },
	[ST_UCUT] = { "user_cut", PQ_BOOLEAN, PQ_PLAIN_VALUE, 0, false, 0 },
	[ST_FRAMES] = { "frames", PQ_BYTE_ARRAY, PQ_STRING, 0, false, PQ_NO_DICT },
	[ST_SUBMITTER] = { "submitter", PQ_BYTE_ARRAY, PQ_STRING, 0, false, PQ_NULLABLE },
	[ST_ULEAF] = { "user_leaf", PQ_BYTE_ARRAY, PQ_STRING, 0, false, PQ_NULLABLE },
};
const unsigned export_stacks_ncols = ST_NCOLS;

int export_stacks_init(struct export_stacks *x, const struct attr_dict *attr,
		       struct bs_err *err)
{
	memset(x, 0, sizeof(*x));
	if (!attr || !(attr->flags & BS_ATTR_F_STACKS))
		return bs_err_set(err, 0,
				  "--table stacks: the trace has no stacks (record it with "
				  "--stacks; the attribution files must be beside the per-CPU "
				  "files)");
	x->attr = attr;
	x->ios = bs_xcalloc(attr->nstacks + 1, sizeof(*x->ios));
	x->bytes = bs_xcalloc(attr->nstacks + 1, sizeof(*x->bytes));
	return 0;
}

void export_stacks_add(struct export_stacks *x, const struct bs_io_sample *s)
{
	if (s->attr.stack && s->attr.stack <= x->attr->nstacks) {
		x->ios[s->attr.stack]++;
		x->bytes[s->attr.stack] += s->bytes;
	}
}

static void set_str(struct pq_value *v, const char *s)
{
	v->null = !s;
	v->s.p = s;
	v->s.len = s ? strlen(s) : 0;
}

/* The frames root first, ';' between them (a ';' inside a name becomes ':'), into buf. */
static char *frames_text(const struct attr_dict *d, const struct attr_stack *st, char **buf,
			 size_t *cap)
{
	size_t len = 0, n;
	int i, total = (int)st->nkernel + st->nuser;

	/*
	 * leaf first in the dictionary, kernel frames before user frames: backwards is root first
	 */
	for (i = total - 1; i >= 0; i--) {
		const char *name = attr_frame(d, st, (unsigned int)i);
		char *p;

		n = strlen(name);
		if (len + n + 2 > *cap) {
			*cap = (len + n + 2) * 2;
			*buf = bs_xrealloc(*buf, *cap);
		}
		if (len)
			(*buf)[len++] = ';';
		memcpy(*buf + len, name, n);
		for (p = *buf + len; p < *buf + len + n; p++)
			if (*p == ';')
				*p = ':';
		len += n;
	}
	if (!*buf)
		*buf = bs_xcalloc(1, 1);
	(*buf)[len] = 0;
	return *buf;
}

/*
 * The kernel function that sent the bio down: the innermost kernel frame
 * past the block layer's generic entry points (every bio goes through
 * submit_bio_noacct_nocheck, which says nothing).
 */
static const char *submitter(const struct attr_dict *d, const struct attr_stack *st)
{
	static const char *const generic[] = { "submit_bio", "__submit_bio", "submit_bh",
					       "__submit_bh" };
	unsigned int i, k;

	for (i = 0; i < st->nkernel; i++) {
		const char *name = attr_frame(d, st, i);
		bool skip = false;

		for (k = 0; k < sizeof(generic) / sizeof(generic[0]); k++)
			skip |= !strncmp(name, generic[k], strlen(generic[k]));
		if (!skip)
			return name;
	}
	return st->nkernel ? attr_frame(d, st, 0) : NULL;
}

int export_stacks_write(struct export_stacks *x, struct export_rows *w)
{
	struct pq_value v[ST_NCOLS];
	char *buf = NULL;
	size_t cap = 0, id;
	int rc = 0;

	memset(v, 0, sizeof(v));
	for (id = 1; id <= x->attr->nstacks && !rc; id++) {
		const struct attr_stack *st = attr_stack(x->attr, (uint32_t)id);

		v[ST_ID].i = (int64_t)id;
		v[ST_IOS].i = (int64_t)x->ios[id];
		v[ST_BYTES].i = (int64_t)x->bytes[id];
		v[ST_KFRAMES].i = st->nkernel;
		v[ST_UFRAMES].i = st->nuser;
		v[ST_UCUT].b = (st->flags & BS_NS_USER_SHORT) != 0;
		set_str(&v[ST_FRAMES], frames_text(x->attr, st, &buf, &cap));
		set_str(&v[ST_SUBMITTER], submitter(x->attr, st));
		set_str(&v[ST_ULEAF], st->nuser ? attr_frame(x->attr, st, st->nkernel) : NULL);
		rc = export_rows_put(w, v);
	}
	free(buf);
	return rc;
}

void export_stacks_free(struct export_stacks *x)
{
	free(x->ios);
	free(x->bytes);
	memset(x, 0, sizeof(*x));
}
