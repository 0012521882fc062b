// SPDX-License-Identifier: GPL-2.0
/*
 * export_ios.c - the ios table: one row per queued bio, as the engine
 * accounts it (btt's Q-to-C life of an I/O, analyze/btt/io_sample.h).
 * The columns, their types and units are in docs/export.md; a change here
 * is a change of EXPORT_SCHEMA_VERSION there.
 */
#include <string.h>
#include "bs_codec.h"
#include "bs_devname.h"
#include "export.h"
#include "report/lat_set.h"

#define STR(n, fl) { n, BS_PQ_BYTE_ARRAY, BS_PQ_STRING, 0, false, fl }
#define U32(n) { n, BS_PQ_INT32, BS_PQ_INT, 32, false, 0 }
#define U64(n) { n, BS_PQ_INT64, BS_PQ_INT, 64, false, 0 }
/* nanoseconds: plain INT64 (latencies) */
#define NS(n, fl) { n, BS_PQ_INT64, BS_PQ_PLAIN_VALUE, 0, false, fl }
/* wall-clock times: TIMESTAMP(NANOS, UTC) */
#define TS(n, fl) { n, BS_PQ_INT64, BS_PQ_TIMESTAMP_NS, 0, false, (fl) | BS_PQ_UTC }

const struct bs_pq_column export_ios_cols[IOS_NCOLS] = {
	[IOS_HOST] = STR("host", BS_PQ_NULLABLE),
	[IOS_DEVICE] = STR("device", 0),
	[IOS_MAJOR] = U32("major"),
	[IOS_MINOR] = U32("minor"),
	[IOS_SECTOR] = U64("sector"),
	[IOS_BYTES] = U32("bytes"),
	[IOS_OP] = STR("op", 0),
	[IOS_RWBS] = STR("rwbs", 0),
	[IOS_PID] = U32("pid"),
	[IOS_COMM] = STR("comm", BS_PQ_NULLABLE),
	[IOS_GROUP] = STR("group", BS_PQ_NULLABLE),
	[IOS_TAG] = { "tag", BS_PQ_INT32, BS_PQ_INT, 32, true, BS_PQ_NULLABLE },
	[IOS_T_Q] = TS("t_q", 0),
	[IOS_T_G] = TS("t_g", BS_PQ_NULLABLE),
	[IOS_T_I] = TS("t_i", BS_PQ_NULLABLE),
	[IOS_T_M] = TS("t_m", BS_PQ_NULLABLE),
	[IOS_T_D] = TS("t_d", BS_PQ_NULLABLE),
	[IOS_T_C] = TS("t_c", BS_PQ_NULLABLE),
	[IOS_Q2G] = NS("q2g", BS_PQ_NULLABLE),
	[IOS_G2I] = NS("g2i", BS_PQ_NULLABLE),
	[IOS_I2D] = NS("i2d", BS_PQ_NULLABLE),
	[IOS_D2C] = NS("d2c", BS_PQ_NULLABLE),
	[IOS_Q2C] = NS("q2c", BS_PQ_NULLABLE),
	[IOS_MERGED] = { "merged", BS_PQ_BOOLEAN, BS_PQ_PLAIN_VALUE, 0, false, 0 },
	[IOS_REQUEUES] = U32("requeues"),
	[IOS_ERROR] = { "error", BS_PQ_INT32, BS_PQ_INT, 32, true, 0 },
	[IOS_CGROUP_ID] = { "cgroup_id", BS_PQ_INT64, BS_PQ_INT, 64, false, BS_PQ_NULLABLE },
};

static void set_str(struct bs_pq_value *v, const char *s)
{
	v->null = !s;
	v->s.p = s;
	v->s.len = s ? strlen(s) : 0;
}

void export_ios_init(struct export_ios *x)
{
	memset(x, 0, sizeof(*x));
	set_str(&x->v[IOS_HOST], NULL);
}

void export_ios_set_host(struct export_ios *x, const char *host)
{
	set_str(&x->v[IOS_HOST], host);
}

/* A time (wall clock: wall + t), or null when the stage was not seen. */
static inline void set_time(struct bs_pq_value *v, uint64_t wall, uint64_t t)
{
	v->null = t == BS_NOT_SEEN;
	v->i = (int64_t)(wall + t);
}

/* A stage latency: btt's tdelta() rule (both ends seen; at least 1 ns), as lat_set.h. */
static inline void set_stage(struct bs_pq_value *v, uint64_t from, uint64_t to)
{
	v->null = from == BS_NOT_SEEN || to == BS_NOT_SEEN;
	v->i = v->null ? 0 : to > from ? (int64_t)(to - from) : 1;
}

void export_ios_fill(struct export_ios *x, const struct bs_io_sample *s, const char *group)
{
	struct bs_pq_value *v = x->v;

	if (!x->have_dev || x->last_dev != s->device) {
		x->have_dev = true;
		x->last_dev = s->device;
		bs_devname(s->device, x->dev, sizeof(x->dev));
		set_str(&v[IOS_DEVICE], x->dev);
		v[IOS_MAJOR].i = s->device >> 20;
		v[IOS_MINOR].i = s->device & 0xfffff;
	}
	if (!x->have_action || x->last_action != s->action || x->last_zero != !s->bytes) {
		x->have_action = true;
		x->last_action = s->action;
		x->last_zero = !s->bytes;	/* blkparse's N: no data */
		bs_rwbs(x->rwbs, s->action, s->bytes);
		set_str(&v[IOS_RWBS], x->rwbs);
		set_str(&v[IOS_OP], op_names[s->op]);
	}
	v[IOS_SECTOR].i = (int64_t)s->sector;
	v[IOS_BYTES].i = s->bytes;
	v[IOS_PID].i = s->pid;
	set_str(&v[IOS_COMM], s->comm);
	set_str(&v[IOS_GROUP], group);
	v[IOS_CGROUP_ID].null = !s->cgroup;	/* recorded without --cgroup-ids, or no cgroup */
	v[IOS_CGROUP_ID].i = (int64_t)s->cgroup;
	v[IOS_TAG].null = s->tag < 0;
	v[IOS_TAG].i = s->tag;
	set_time(&v[IOS_T_Q], x->wall, s->t_q);
	set_time(&v[IOS_T_G], x->wall, s->t_g);
	set_time(&v[IOS_T_I], x->wall, s->t_i);
	set_time(&v[IOS_T_M], x->wall, s->t_m);
	set_time(&v[IOS_T_D], x->wall, s->t_d);
	set_time(&v[IOS_T_C], x->wall, s->t_c);
	set_stage(&v[IOS_Q2G], s->t_q, s->t_g);
	set_stage(&v[IOS_G2I], s->t_g, s->t_i);
	set_stage(&v[IOS_I2D], s->t_i, s->t_d);
	set_stage(&v[IOS_D2C], s->t_d, s->t_c);
	set_stage(&v[IOS_Q2C], s->t_q, s->t_c);
	v[IOS_MERGED].b = s->t_m != BS_NOT_SEEN;
	v[IOS_REQUEUES].i = s->requeues;
	v[IOS_ERROR].i = s->error ? (int16_t)s->error : 0;
}
