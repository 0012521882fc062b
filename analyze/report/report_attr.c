// SPDX-License-Identifier: GPL-2.0
/*
 * report_attr.c - who caused the I/O, in the report (report_attr.h): each
 * sample files into its file's row (one slice per operation) and into
 * the weight of its (process name, stack) pair; --group-by file and dir
 * put it in its file's or directory's group.  Every lookup is hashed,
 * with a cache of the last one (runs of one file's I/O are the rule).
 */
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_stream.h"
#include "report_priv.h"

#define CLASS_KEY(cls) (1ull << 31 | (cls))

int report_attr_begin(struct bs_report *r, const struct attr_dict *d)
{
	struct report_attr *ra = &r->attr;

	ra->dict = d;
	ra->files_on = d && (d->flags & BS_ATTR_F_FILES);
	ra->stacks_on = d && (d->flags & BS_ATTR_F_STACKS);
	if ((r->group_by == GROUP_BY_FILE || r->group_by == GROUP_BY_DIR) && !ra->files_on)
		bs_msg(&r->msg, BS_MSG_WARN,
		       "note: --group-by %s: the trace was not recorded with --files (no "
		       "attribution files beside it): every I/O is in one group",
		       r->group_by == GROUP_BY_FILE ? "file" : "dir");
	if (ra->folded_path && !ra->stacks_on) {
		bs_msg(&r->msg, BS_MSG_ERROR,
		       "--folded: the trace has no stacks (record it with --stacks; the "
		       "attribution files must be beside the per-CPU files)");
		return -1;
	}
	if (d && d->nfiles)
		ra->file_group = bs_xcalloc(d->nfiles + 1, sizeof(*ra->file_group));
	return 0;
}

void report_attr_free(struct report_attr *ra)
{
	size_t i, k;

	for (i = 0; i < ra->nrows; i++) {
		for (k = 0; k < ra->rows[i].nops; k++)
			report_lat_free(&ra->rows[i].ops[k].set);
		free(ra->rows[i].ops);
	}
	free(ra->rows);
	bs_hash_free(&ra->row_of);
	free(ra->sw);
	bs_hash_free(&ra->sw_of);
	free(ra->comms);
	bs_hash_free(&ra->comm_of);
	free(ra->file_group);
}

/* ---- files ---- */

static struct file_row *row_of(struct report_attr *ra, const struct bs_io_sample *s)
{
	uint64_t key = s->attr.file ? s->attr.file : CLASS_KEY(s->attr.cls), *v;
	bool fresh;

	if (ra->nrows && ra->last_key == key)
		return &ra->rows[ra->last_row];
	v = bs_hash_put(&ra->row_of, key, ra->nrows, &fresh);
	if (fresh) {
		struct file_row *row;

		ra->rows = bs_xreallocarray(ra->rows, ra->nrows + 1, sizeof(*ra->rows));
		row = &ra->rows[ra->nrows++];
		memset(row, 0, sizeof(*row));
		row->file = s->attr.file;
		row->cls = s->attr.file ? 0 : s->attr.cls;
	}
	ra->last_key = key;
	ra->last_row = *v;
	return &ra->rows[*v];
}

static struct report_lat *op_set(struct file_row *row, uint8_t op)
{
	unsigned int i;

	for (i = 0; i < row->nops; i++)	/* a handful of operations at most */
		if (row->ops[i].op == op)
			return &row->ops[i].set;
	row->ops = bs_xreallocarray(row->ops, row->nops + 1u, sizeof(*row->ops));
	row->ops[row->nops].op = op;
	report_lat_init(&row->ops[row->nops].set);
	return &row->ops[row->nops++].set;
}

/* ---- stacks ---- */

static uint32_t comm_id(struct report_attr *ra, const char *comm)
{
	uint64_t k = bs_hash_bytes(comm, strlen(comm)), *v;

	for (;; k = bs_hash_mix(k + 1)) {	/* a collision probes the next key */
		v = bs_hash_get(&ra->comm_of, k);
		if (!v)
			break;
		if (!strcmp(ra->comms[*v], comm))
			return (uint32_t)*v;
	}
	ra->comms = bs_xreallocarray(ra->comms, ra->ncomms + 1, sizeof(*ra->comms));
	snprintf(ra->comms[ra->ncomms], sizeof(ra->comms[0]), "%s", comm);
	bs_hash_put(&ra->comm_of, k, ra->ncomms, NULL);
	return (uint32_t)ra->ncomms++;
}

static uint8_t why_of(const struct bs_io_sample *s)
{
	if (s->attr.stack)
		return SW_STACK;
	if (s->attr.cls == BS_FC_UNKNOWN && !s->attr.flags && !s->attr.file)
		return SW_NO_RECORD;
	if (s->attr.flags & (BS_ATTR_R_KSTACK_LOST | BS_ATTR_R_USTACK_LOST))
		return SW_LOST;
	return SW_NONE;
}

static struct stack_weight *weight_of(struct report_attr *ra, uint32_t comm,
				      const struct bs_io_sample *s)
{
	uint8_t why = why_of(s);
	uint64_t key = (uint64_t)comm << 34 | (uint64_t)why << 32 | s->attr.stack, *v;
	bool fresh;

	if (ra->nsw && ra->last_sw_key == key)	/* runs of one stack are the rule */
		return &ra->sw[ra->last_sw];
	v = bs_hash_put(&ra->sw_of, key, ra->nsw, &fresh);
	if (fresh) {
		ra->sw = bs_xreallocarray(ra->sw, ra->nsw + 1, sizeof(*ra->sw));
		ra->sw[ra->nsw++] =
			(struct stack_weight){ .comm = comm, .stack = s->attr.stack, .why = why };
	}
	ra->last_sw_key = key;
	ra->last_sw = *v;
	return &ra->sw[*v];
}

void report_attr_add(struct bs_report *r, struct report_proc *p, const struct bs_io_sample *s,
		     const struct report_stage_vals *sv)
{
	struct report_attr *ra = &r->attr;

	if (ra->files_on) {
		struct file_row *row = row_of(ra, s);

		report_lat_add(op_set(row, (uint8_t)s->op), s, sv);
		row->classes |= (uint16_t)(1u << (s->attr.cls < BS_FC_COUNT ? s->attr.cls : 0));
	}
	if (ra->stacks_on) {
		struct stack_weight *w;

		if (!p->comm_id)
			p->comm_id = comm_id(ra, p->comm[0] ? p->comm : "[unknown]") + 1;
		w = weight_of(ra, p->comm_id - 1, s);
		w->ios++;
		w->bytes += s->bytes;
		if (sv->mask & (1u << BS_ST_Q2C))
			w->q2c += sv->ns[BS_ST_Q2C];
		if (sv->mask & (1u << BS_ST_D2C))
			w->d2c += sv->ns[BS_ST_D2C];
	}
}

/* ---- groups ---- */

static int class_group(struct bs_report *r, unsigned int cls)
{
	struct report_attr *ra = &r->attr;
	char buf[8];

	if (cls >= BS_FC_COUNT)
		cls = BS_FC_UNKNOWN;
	if (!ra->class_group[cls]) {
		const char *label = attr_label(NULL, 0, cls, buf, sizeof(buf));

		ra->class_group[cls] = (uint32_t)report_group_find(r, label) + 1;
	}
	return (int)ra->class_group[cls] - 1;
}

int report_attr_group(struct bs_report *r, const struct bs_io_sample *s)
{
	struct report_attr *ra = &r->attr;
	const struct attr_file *f;
	char buf[4200];
	const char *name;
	uint32_t id = s->attr.file;

	if (!id || !ra->file_group || id > ra->dict->nfiles)
		return class_group(r, s->attr.cls);
	if (ra->file_group[id])
		return (int)ra->file_group[id] - 1;
	f = attr_file(ra->dict, id);
	if (r->group_by == GROUP_BY_DIR)
		name = attr_dir(f, ra->dir_depth, buf, sizeof(buf));
	else
		name = attr_label(ra->dict, id, s->attr.cls, buf, sizeof(buf));
	if (!name)	/* no path: its own label ("(file dev .. inode .., path unknown)") */
		name = attr_label(ra->dict, id, s->attr.cls, buf, sizeof(buf));
	ra->file_group[id] = (uint32_t)report_group_find(r, name) + 1;
	return (int)ra->file_group[id] - 1;
}

/* ---- reading ---- */

const char *report_attr_row_name(const struct report_attr *ra, const struct file_row *row,
				 char *buf, size_t len)
{
	return attr_label(ra->dict, row->file, row->cls, buf, len);
}

static int by_bytes(const void *a, const void *b)
{
	const struct file_row *x = *(struct file_row *const *)a, *y = *(struct file_row *const *)b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	if (x->ios != y->ios)
		return x->ios < y->ios ? 1 : -1;
	if (x->file != y->file)	/* class rows (file 0) last among equals */
		return x->file && y->file ? (x->file < y->file ? -1 : 1) : (x->file ? -1 : 1);
	return x->cls < y->cls ? -1 : x->cls > y->cls;
}

struct file_row **report_attr_rows_sorted(const struct report_attr *ra)
{
	struct file_row **v = bs_xcalloc(ra->nrows + 1, sizeof(*v));
	size_t i;
	unsigned int k;

	for (i = 0; i < ra->nrows; i++) {
		struct file_row *row = &ra->rows[i];

		row->ios = row->bytes = 0;
		for (k = 0; k < row->nops; k++) {
			row->ios += row->ops[k].set.ios;
			row->bytes += row->ops[k].set.bytes;
		}
		v[i] = row;
	}
	if (ra->nrows)
		qsort(v, ra->nrows, sizeof(*v), by_bytes);
	return v;
}

uint64_t report_attr_weight(const struct stack_weight *w, enum folded_weight how)
{
	switch (how) {
	case FW_BYTES:
		return w->bytes;
	case FW_Q2C:
		return w->q2c;
	case FW_D2C:
		return w->d2c;
	default:
		return w->ios;
	}
}

static const char *const why_frames[SW_COUNT] = {
	"", "[not attributed]", "[stack not stored: table full]", "[no stack]",
};

size_t report_attr_folded_frames(const struct report_attr *ra, const struct stack_weight *w,
				 const char **out, size_t max)
{
	const struct attr_stack *st = ra->dict ? attr_stack(ra->dict, w->stack) : NULL;
	size_t n = 0;
	int i;

	out[n++] = ra->comms[w->comm];
	if (!st) {
		out[n++] = why_frames[w->why ? w->why : SW_NONE];
		return n;
	}
	/* root first: the user stack from its outermost frame, then the kernel's */
	if (st->flags & BS_NS_USER_SHORT && n < max)
		out[n++] = "[user stack cut: no frame pointers]";
	else if (st->flags & BS_NS_USER_LOST && n < max)
		out[n++] = "[user stack not stored]";
	for (i = (int)st->nkernel + st->nuser - 1; i >= (int)st->nkernel && n < max; i--)
		out[n++] = attr_frame(ra->dict, st, (unsigned int)i);
	if (st->flags & BS_NS_KERNEL_NONE && n < max)
		out[n++] = "[kernel stack not stored]";
	for (i = (int)st->nkernel - 1; i >= 0 && n < max; i--)
		out[n++] = attr_frame(ra->dict, st, (unsigned int)i);
	return n;
}
