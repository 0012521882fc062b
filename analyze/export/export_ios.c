// SPDX-License-Identifier: GPL-2.0
/*
 * export_ios.c - the ios table: one row per queued bio, as the per-I/O
 * model follows it (analyze/iomodel/io_sample.h): split, merged or
 * requeued, it is one row; its stages are the model's; an I/O still in
 * flight at the end is status "open"; one whose life overlapped lost
 * events has lost_events true (its stages are not to be trusted).
 * The columns, their types and units are in docs/export.md; a change here
 * is a change of EXPORT_SCHEMA_VERSION there.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_codec.h"
#include "bs_devname.h"
#include "export.h"
#include "attr/attr.h"
#include "report/report_lat.h"

#define STR(n, fl) { n, PQ_BYTE_ARRAY, PQ_STRING, 0, false, fl }
#define U32(n) { n, PQ_INT32, PQ_INT, 32, false, 0 }
#define U64(n) { n, PQ_INT64, PQ_INT, 64, false, 0 }
/* nanoseconds: plain INT64 (latencies) */
#define NS(n, fl) { n, PQ_INT64, PQ_PLAIN_VALUE, 0, false, fl }
/* wall-clock times: TIMESTAMP(NANOS, UTC) */
#define TS(n, fl) { n, PQ_INT64, PQ_TIMESTAMP_NS, 0, false, (fl) | PQ_UTC }

const struct pq_column export_ios_cols[EXPORT_IOS_NCOLS] = {
	[EXPORT_IOS_HOST] = STR("host", PQ_NULLABLE),
	[EXPORT_IOS_DEVICE] = STR("device", 0),
	[EXPORT_IOS_MAJOR] = U32("major"),
	[EXPORT_IOS_MINOR] = U32("minor"),
	[EXPORT_IOS_SECTOR] = U64("sector"),
	[EXPORT_IOS_BYTES] = U32("bytes"),
	[EXPORT_IOS_OP] = STR("op", 0),
	[EXPORT_IOS_RWBS] = STR("rwbs", 0),
	[EXPORT_IOS_PID] = U32("pid"),
	[EXPORT_IOS_COMM] = STR("comm", PQ_NULLABLE),
	[EXPORT_IOS_GROUP] = STR("group", PQ_NULLABLE),
	[EXPORT_IOS_TAG] = { "tag", PQ_INT32, PQ_INT, 32, true, PQ_NULLABLE },
	[EXPORT_IOS_T_Q] = TS("t_q", 0),
	[EXPORT_IOS_T_G] = TS("t_g", PQ_NULLABLE),
	[EXPORT_IOS_T_I] = TS("t_i", PQ_NULLABLE),
	[EXPORT_IOS_T_M] = TS("t_m", PQ_NULLABLE),
	[EXPORT_IOS_T_D] = TS("t_d", PQ_NULLABLE),
	[EXPORT_IOS_T_C] = TS("t_c", PQ_NULLABLE),
	[EXPORT_IOS_Q2G] = NS("q2g", PQ_NULLABLE),
	[EXPORT_IOS_G2I] = NS("g2i", PQ_NULLABLE),
	[EXPORT_IOS_I2D] = NS("i2d", PQ_NULLABLE),
	[EXPORT_IOS_D2C] = NS("d2c", PQ_NULLABLE),
	[EXPORT_IOS_Q2C] = NS("q2c", PQ_NULLABLE),
	[EXPORT_IOS_MERGED] = { "merged", PQ_BOOLEAN, PQ_PLAIN_VALUE, 0, false, 0 },
	[EXPORT_IOS_REQUEUES] = U32("requeues"),
	[EXPORT_IOS_ERROR] = { "error", PQ_INT32, PQ_INT, 32, true, 0 },
	[EXPORT_IOS_CGROUP_ID] = { "cgroup_id", PQ_INT64, PQ_INT, 64, false, PQ_NULLABLE },
	[EXPORT_IOS_DEVICE_NAME] = STR("device_name", PQ_NULLABLE),
	[EXPORT_IOS_SPLITS] = U32("splits"),
	[EXPORT_IOS_Q2M] = NS("q2m", PQ_NULLABLE),
	[EXPORT_IOS_M2D] = NS("m2d", PQ_NULLABLE),
	[EXPORT_IOS_Q2D] = NS("q2d", PQ_NULLABLE),
	[EXPORT_IOS_STATUS] = STR("status", 0),
	[EXPORT_IOS_LOST_EVENTS] = { "lost_events", PQ_BOOLEAN, PQ_PLAIN_VALUE, 0, false, 0 },
	[EXPORT_IOS_FILE] = STR("file", PQ_NULLABLE),
	[EXPORT_IOS_FILE_CLASS] = STR("file_class", PQ_NULLABLE),
	[EXPORT_IOS_STACK_ID] = { "stack_id", PQ_INT32, PQ_INT, 32, false, PQ_NULLABLE },
};

static void set_str(struct pq_value *v, const char *s)
{
	v->null = !s;
	v->s.p = s;
	v->s.len = s ? strlen(s) : 0;
}

void export_ios_init(struct export_ios *x, const struct export_devnames *names)
{
	memset(x, 0, sizeof(*x));
	x->names = names;
	set_str(&x->v[EXPORT_IOS_HOST], NULL);
}

void export_ios_set_host(struct export_ios *x, const char *host)
{
	set_str(&x->v[EXPORT_IOS_HOST], host);
}

/* A time (wall clock: wall + t), or null when the stage was not seen. */
static inline void set_time(struct pq_value *v, uint64_t wall, uint64_t t)
{
	v->null = t == BS_NOT_SEEN;
	v->i = (int64_t)(wall + t);
}

/* A stage latency as the model measured it (io_sample.h), or null. */
static inline void set_stage(struct pq_value *v, const struct bs_io_sample *s, enum bs_stage st)
{
	v->null = !(s->stage_mask & (1u << st));
	v->i = v->null ? 0 : (int64_t)s->stage_ns[st];
}

/*
 * record --files --stacks: the file's path as recorded (null where no
 * file applies, or its path could not be read), the class (null when the
 * trace has no attribution), the stack id of the stacks table.
 */
static void set_attr(struct export_ios *x, const struct bs_io_sample *s)
{
	const struct attr_file *f = x->attr ? attr_file(x->attr, s->attr.file) : NULL;
	struct pq_value *v = x->v;

	set_str(&v[EXPORT_IOS_FILE], f && !(f->flags & BS_NF_NO_PATH) ? f->path : NULL);
	set_str(&v[EXPORT_IOS_FILE_CLASS], x->attr ? bs_fclass_name(s->attr.cls) : NULL);
	v[EXPORT_IOS_STACK_ID].null = !s->attr.stack;
	v[EXPORT_IOS_STACK_ID].i = s->attr.stack;
}

void export_ios_fill(struct export_ios *x, const struct bs_io_sample *s, const char *group)
{
	struct pq_value *v = x->v;

	if (!x->have_dev || x->last_dev != s->device) {
		x->have_dev = true;
		x->last_dev = s->device;
		bs_devname(s->device, x->dev, sizeof(x->dev));
		set_str(&v[EXPORT_IOS_DEVICE], x->dev);
		v[EXPORT_IOS_MAJOR].i = s->device >> 20;
		v[EXPORT_IOS_MINOR].i = s->device & 0xfffff;
		set_str(&v[EXPORT_IOS_DEVICE_NAME], export_devnames_find(x->names, s->device));
	}
	if (!x->have_action || x->last_action != s->action || x->last_zero != !s->bytes) {
		x->have_action = true;
		x->last_action = s->action;
		x->last_zero = !s->bytes;	/* blkparse's N: no data */
		bs_rwbs(x->rwbs, s->action, s->bytes);
		set_str(&v[EXPORT_IOS_RWBS], x->rwbs);
		set_str(&v[EXPORT_IOS_OP], report_op_names[s->op]);
	}
	v[EXPORT_IOS_SECTOR].i = (int64_t)s->sector;
	v[EXPORT_IOS_BYTES].i = s->bytes;
	v[EXPORT_IOS_PID].i = s->pid;
	set_str(&v[EXPORT_IOS_COMM], s->comm);
	set_str(&v[EXPORT_IOS_GROUP], group);
	/* recorded without --cgroup-ids, or no cgroup */
	v[EXPORT_IOS_CGROUP_ID].null = !s->cgroup;
	v[EXPORT_IOS_CGROUP_ID].i = (int64_t)s->cgroup;
	v[EXPORT_IOS_TAG].null = s->tag < 0;
	v[EXPORT_IOS_TAG].i = s->tag;
	set_time(&v[EXPORT_IOS_T_Q], x->wall, s->t_q);
	set_time(&v[EXPORT_IOS_T_G], x->wall, s->t_g);
	set_time(&v[EXPORT_IOS_T_I], x->wall, s->t_i);
	set_time(&v[EXPORT_IOS_T_M], x->wall, s->t_m);
	set_time(&v[EXPORT_IOS_T_D], x->wall, s->t_d);
	set_time(&v[EXPORT_IOS_T_C], x->wall, s->t_c);
	set_stage(&v[EXPORT_IOS_Q2G], s, BS_ST_Q2G);
	set_stage(&v[EXPORT_IOS_G2I], s, BS_ST_G2I);
	set_stage(&v[EXPORT_IOS_I2D], s, BS_ST_I2D);
	set_stage(&v[EXPORT_IOS_D2C], s, BS_ST_D2C);
	set_stage(&v[EXPORT_IOS_Q2C], s, BS_ST_Q2C);
	set_stage(&v[EXPORT_IOS_Q2M], s, BS_ST_Q2M);
	set_stage(&v[EXPORT_IOS_M2D], s, BS_ST_M2D);
	set_stage(&v[EXPORT_IOS_Q2D], s, BS_ST_Q2D);
	set_str(&v[EXPORT_IOS_STATUS], s->status == BS_IO_DONE ? "done" : "open");
	v[EXPORT_IOS_LOST_EVENTS].b = (s->flags & BS_IO_LOSS) != 0;
	v[EXPORT_IOS_MERGED].b = s->t_m != BS_NOT_SEEN;
	v[EXPORT_IOS_REQUEUES].i = s->requeues;
	v[EXPORT_IOS_ERROR].i = s->error ? (int16_t)s->error : 0;
	v[EXPORT_IOS_SPLITS].i = s->splits;
	set_attr(x, s);
}

/* ---- device names (--device-name MAJ,MIN=NAME) ---- */

int export_devnames_add(struct export_devnames *m, const char *arg)
{
	unsigned long maj, min;
	const char *eq = strchr(arg, '=');
	char *end;
	uint32_t dev;
	size_t i;

	if (!eq || !eq[1] || strlen(eq + 1) > 255)
		return -1;
	errno = 0;
	maj = strtoul(arg, &end, 10);
	if (errno || end == arg || *end != ',' || maj > 0xfff || !isdigit((unsigned char)end[1]))
		return -1;
	min = strtoul(end + 1, &end, 10);
	if (errno || end != eq || min > 0xfffff)
		return -1;
	dev = (uint32_t)(maj << 20 | min);
	for (i = 0; i < m->n; i++)
		if (m->dev[i] == dev) {	/* the last one given wins */
			free(m->name[i]);
			m->name[i] = bs_xstrdup(eq + 1);
			return 0;
		}
	m->dev = bs_xreallocarray(m->dev, m->n + 1, sizeof(*m->dev));
	m->name = bs_xreallocarray(m->name, m->n + 1, sizeof(*m->name));
	m->dev[m->n] = dev;
	m->name[m->n++] = bs_xstrdup(eq + 1);
	return 0;
}

/* A linear scan: called once per change of device in the row stream, and the list is short. */
const char *export_devnames_find(const struct export_devnames *m, uint32_t dev)
{
	size_t i;

	for (i = 0; m && i < m->n; i++)
		if (m->dev[i] == dev)
			return m->name[i];
	return NULL;
}

void export_devnames_free(struct export_devnames *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->name[i]);
	free(m->name);
	free(m->dev);
	memset(m, 0, sizeof(*m));
}
