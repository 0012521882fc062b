// SPDX-License-Identifier: GPL-2.0
/*
 * btt_engine.c - btt's event handling (btt/trace*.c, devs.c, proc.c),
 * re-implemented for one streaming pass.  The rules that make the numbers
 * equal btt's:
 *
 *  - notes: PROCESS registers a name (pid 0 = "kernel", cut at '/');
 *    MESSAGE is printed once its device is past pre-culling; PC records
 *    and records with the cgroup flag are ignored;
 *  - zero-byte Q, G, S, I, M, D and C are dropped before anything else;
 *  - a device appears with its first Q/A/G/S/I/M/D/C/R/message, but
 *    everything before its first Q or A is ignored ("pre-culling");
 *  - a Q whose start sector is already queued on its device is ignored;
 *  - G, S, I, M find their Q by a containment search of the per-device
 *    Q tree; D and C take every Q whose range lies within theirs, walking
 *    the tree root-first with btt's pruning;
 *  - every delta is to - from, or 1 ns when not positive;
 *  - majors 9, 253 and 254 are remappers: their Q2Q/Q2A/Q2C go to *dm.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bs_codec.h"
#include "btt_engine.h"
#include "btt_report.h"

#define Q_SLAB_NODES 1024

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		perror("blkscope-analyze");
		exit(1);
	}
	return p;
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		perror("blkscope-analyze");
		exit(1);
	}
	return p;
}

static inline uint64_t tdelta(uint64_t from, uint64_t to)
{
	return from < to ? to - from : 1;
}

static inline void avg_update(struct bt_avg *a, uint64_t t)
{
	if (a->n++ == 0) {
		a->min = a->max = a->total = t;
	} else {
		if (t < a->min)
			a->min = t;
		else if (t > a->max)
			a->max = t;
		a->total += t;
	}
}

/* btt's UPDATE_AVGS: system, the bio's device, the bio's process */
#define UPDATE3(e, fld, dev, proc, val) do {			\
		avg_update(&(e)->all.fld, (val));		\
		avg_update(&(dev)->avgs.fld, (val));		\
		if (proc)					\
			avg_update(&(proc)->avgs.fld, (val));	\
	} while (0)

static inline void update_lq(uint64_t *last_q, struct bt_avg *a, uint64_t time)
{
	if (*last_q != BT_NONE)
		avg_update(a, time > *last_q ? time - *last_q : 1);
	*last_q = time;
}

/* q/c activity ranges, coalesced when closer than -d seconds */
static void update_range(struct bt_engine *e, struct bt_ranges *r, uint64_t time)
{
	if (r->n) {
		struct bt_range *last = &r->v[r->n - 1];

		if (time < last->end)
			return;
		if (time - last->end < e->range_gap_ns) {
			last->end = time;
			return;
		}
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->v = xrealloc(r->v, r->cap * sizeof(*r->v));
	}
	r->v[r->n].start = r->v[r->n].end = time;
	r->n++;
}

/* ---- devices ---------------------------------------------------------- */

static inline unsigned int dev_slot(uint32_t device, unsigned int size)
{
	return (device * 2654435761u) & (size - 1);
}

struct bt_dev *bt_engine_find_dev(const struct bt_engine *e, uint32_t device)
{
	unsigned int i;

	if (e->last_dev && e->last_dev->device == device)
		return e->last_dev;
	for (i = dev_slot(device, e->dev_hash_size);; i = (i + 1) & (e->dev_hash_size - 1)) {
		struct bt_dev *d = e->dev_hash[i];

		if (!d || d->device == device)
			return d;
	}
}

static void open_latency_files(struct bt_engine *e, struct bt_dev *d);

static struct bt_dev *dev_create(struct bt_engine *e, uint32_t device, uint64_t time)
{
	struct bt_dev *d = xcalloc(1, sizeof(*d));
	unsigned int i;

	d->device = device;
	d->index = e->ndevs;
	d->last_q = BT_NONE;
	d->start_ns = time;
	d->pre_culling = 1;
	bt_seek_init(&d->q2q_seek, e->o.seek_values ? &e->seek_budget : NULL);
	bt_seek_init(&d->d2d_seek, e->o.seek_values ? &e->seek_budget : NULL);
	bt_live_init(&d->live);
	open_latency_files(e, d);

	if (e->ndevs == e->devs_cap) {
		e->devs_cap = e->devs_cap ? e->devs_cap * 2 : 8;
		e->devs = xrealloc(e->devs, e->devs_cap * sizeof(*e->devs));
	}
	e->devs[e->ndevs++] = d;
	if ((unsigned int)e->ndevs * 2 > e->dev_hash_size) {
		unsigned int size = e->dev_hash_size * 2;
		struct bt_dev **h = xcalloc(size, sizeof(*h));
		int k;

		for (k = 0; k < e->ndevs; k++) {
			for (i = dev_slot(e->devs[k]->device, size); h[i]; i = (i + 1) & (size - 1))
				;
			h[i] = e->devs[k];
		}
		free(e->dev_hash);
		e->dev_hash = h;
		e->dev_hash_size = size;
	} else {
		for (i = dev_slot(device, e->dev_hash_size); e->dev_hash[i];
		     i = (i + 1) & (e->dev_hash_size - 1))
			;
		e->dev_hash[i] = d;
	}
	return d;
}

enum bt_type { T_Q, T_A, T_G, T_S, T_I, T_M, T_D, T_C, T_R, T_MSG };

/*
 * btt's dip_alloc(): find or create the device; NULL while the device is
 * still pre-culling (nothing counts before its first Q or A).
 */
static struct bt_dev *dev_setup(struct bt_engine *e, uint32_t device, enum bt_type type,
				uint64_t time)
{
	struct bt_dev *d = bt_engine_find_dev(e, device);

	if (!d)
		d = dev_create(e, device, time);
	e->last_dev = d;
	if (d->pre_culling) {
		if (type != T_Q && type != T_A)
			return NULL;
		d->pre_culling = 0;
	}
	d->end_ns = time;
	return d;
}

/* ---- processes -------------------------------------------------------- */

static inline unsigned int pid_slot(uint32_t pid, unsigned int size)
{
	return (pid * 2654435761u) & (size - 1);
}

static struct bt_proc *pid_lookup(const struct bt_engine *e, uint32_t pid)
{
	unsigned int i;

	for (i = pid_slot(pid, e->pid_hash_size);; i = (i + 1) & (e->pid_hash_size - 1)) {
		if (!e->pid_hash[i])
			return NULL;
		if (e->pid_keys[i] == pid)
			return e->pid_hash[i];
	}
}

static void pid_insert(struct bt_engine *e, uint32_t pid, struct bt_proc *p)
{
	unsigned int i;

	if ((e->npids + 1) * 2 > e->pid_hash_size) {
		unsigned int old = e->pid_hash_size, size = old * 2, k;
		struct bt_proc **h = xcalloc(size, sizeof(*h));
		uint32_t *keys = xcalloc(size, sizeof(*keys));

		for (k = 0; k < old; k++) {
			if (!e->pid_hash[k])
				continue;
			for (i = pid_slot(e->pid_keys[k], size); h[i]; i = (i + 1) & (size - 1))
				;
			h[i] = e->pid_hash[k];
			keys[i] = e->pid_keys[k];
		}
		free(e->pid_hash);
		free(e->pid_keys);
		e->pid_hash = h;
		e->pid_keys = keys;
		e->pid_hash_size = size;
	}
	for (i = pid_slot(pid, e->pid_hash_size); e->pid_hash[i]; i = (i + 1) & (e->pid_hash_size - 1))
		;
	e->pid_hash[i] = p;
	e->pid_keys[i] = pid;
	e->npids++;
}

const struct bt_proc *bt_engine_find_proc(const struct bt_engine *e, uint32_t pid)
{
	return pid_lookup(e, pid);
}

static struct bt_proc *find_name(struct bt_engine *e, const char *name)
{
	int i;

	for (i = 0; i < e->nprocs; i++)
		if (!strcmp(e->procs[i]->name, name))
			return e->procs[i];
	return NULL;
}

/* btt's add_process(): first name per pid wins; equal names share stats. */
static struct bt_proc *add_process(struct bt_engine *e, uint32_t pid, const char *name, bool named)
{
	struct bt_proc *p = pid_lookup(e, pid);

	if (p)
		return p;
	p = find_name(e, name);
	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->pid = pid;
		p->name = strdup(name);
		p->named = named;
		p->last_q = BT_NONE;
		if (!p->name) {
			perror("blkscope-analyze");
			exit(1);
		}
		if (e->nprocs == e->procs_cap) {
			e->procs_cap = e->procs_cap ? e->procs_cap * 2 : 16;
			e->procs = xrealloc(e->procs, e->procs_cap * sizeof(*e->procs));
		}
		e->procs[e->nprocs++] = p;
	}
	pid_insert(e, pid, p);
	return p;
}

/* btt's find_process(pid, NULL): invents "pid%09u" for unnamed pids */
static struct bt_proc *find_process(struct bt_engine *e, uint32_t pid)
{
	struct bt_proc *p;
	char name[32];

	if (e->last_proc && e->last_pid == pid)
		return e->last_proc;
	p = pid_lookup(e, pid);
	if (!p) {
		snprintf(name, sizeof(name), "pid%09u", pid);
		p = add_process(e, pid, name, false);
	}
	e->last_pid = pid;
	e->last_proc = p;
	return p;
}

void bt_engine_process_note(struct bt_engine *e, uint32_t pid, const char *comm, size_t len)
{
	char name[BS_COMM_LEN + 1];
	size_t i;

	if (pid == 0) {
		add_process(e, 0, "kernel", true);
		return;
	}
	if (len > BS_COMM_LEN)
		len = BS_COMM_LEN;
	for (i = 0; i < len && comm[i] && comm[i] != '/'; i++)
		name[i] = comm[i];
	name[i] = '\0';
	add_process(e, pid, name, true);
}

static int cmp_proc_name(const void *a, const void *b)
{
	return strcmp((*(struct bt_proc *const *)a)->name, (*(struct bt_proc *const *)b)->name);
}

struct bt_proc **bt_engine_sorted_procs(struct bt_engine *e, int *n)
{
	struct bt_proc **v = xcalloc(e->nprocs + 1, sizeof(*v));

	memcpy(v, e->procs, e->nprocs * sizeof(*v));
	qsort(v, e->nprocs, sizeof(*v), cmp_proc_name);
	*n = e->nprocs;
	return v;
}

/* ---- queued bios ------------------------------------------------------ */

static struct bt_q *q_alloc(struct bt_engine *e)
{
	struct bt_q *q = e->free_q;

	if (!q) {
		struct bt_q *slab = xcalloc(Q_SLAB_NODES, sizeof(*slab));
		int i;

		if (e->nq_slabs == e->q_slabs_cap) {
			e->q_slabs_cap = e->q_slabs_cap ? e->q_slabs_cap * 2 : 16;
			e->q_slabs = xrealloc(e->q_slabs, e->q_slabs_cap * sizeof(*e->q_slabs));
		}
		e->q_slabs[e->nq_slabs++] = slab;
		for (i = 0; i < Q_SLAB_NODES - 1; i++)
			slab[i].next_free = &slab[i + 1];
		slab[i].next_free = NULL;
		q = slab;
	}
	e->free_q = q->next_free;
	return q;
}

static inline void q_free(struct bt_engine *e, struct bt_q *q)
{
	q->next_free = e->free_q;
	e->free_q = q;
}

static inline uint64_t q_end(const struct bt_q *q)
{
	return q->sector + (q->bytes >> 9);
}

/*
 * btt's Q tree insert: a Q with the same start sector as a queued one
 * takes its place in the tree (same position and colour); the older Q is
 * returned, forgotten by btt: it is never completed.
 */
static struct bt_q *q_insert(struct bt_dev *d, struct bt_q *q)
{
	struct bt_rb_node **link = &d->qtree.node, *parent = NULL;

	while (*link) {
		struct bt_q *n = bt_rb_entry(*link, struct bt_q, rb);

		parent = *link;
		if (__builtin_expect(q->sector != n->sector, 1)) {
			/* written to become a conditional move: the branch is a coin toss */
			link = q->sector < n->sector ? &parent->left : &parent->right;
		} else {
			q->rb = n->rb;
			*link = &q->rb;
			if (q->rb.left)
				q->rb.left->parent = &q->rb;
			if (q->rb.right)
				q->rb.right->parent = &q->rb;
			return n;
		}
	}
	bt_rb_link(&q->rb, parent, link);
	bt_rb_insert_color(&q->rb, &d->qtree);
	d->inflight++;
	return NULL;
}

/* btt's rb_find_sec(): the Q met first whose [start, end) holds sec */
static struct bt_q *q_find_sec(const struct bt_dev *d, uint64_t sec)
{
	const struct bt_rb_node *n = d->qtree.node;

	while (n) {
		struct bt_q *q = bt_rb_entry(n, struct bt_q, rb);

		if (sec < q->sector)
			n = n->left;
		else if (sec >= q_end(q))
			n = n->right;
		else
			return q;
	}
	return NULL;
}

/* btt's rb_foreach(): root first, pruned by start and end */
static void q_collect(const struct bt_rb_node *n, uint64_t s, uint64_t e, struct q_list *out)
{
	while (n) {
		struct bt_q *q = bt_rb_entry(n, struct bt_q, rb);
		uint64_t qs = q->sector, qe = q_end(q);

		if (s <= qs && qe <= e) {
			if (out->n == out->cap) {
				out->cap = out->cap ? out->cap * 2 : 64;
				out->v = xrealloc(out->v, out->cap * sizeof(*out->v));
			}
			out->v[out->n++] = q;
		}
		if (s < qs && qe < e) {
			q_collect(n->left, s, e, out);
			n = n->right;
		} else if (s < qs) {
			n = n->left;
		} else if (qe < e) {
			n = n->right;
		} else {
			break;
		}
	}
}

static void q_remove(struct bt_dev *d, struct bt_q *q)
{
	bt_rb_erase(&q->rb, &d->qtree);
	d->inflight--;
}

/* ---- consumers -------------------------------------------------------- */

static void emit_sample(struct bt_engine *e, const struct bt_q *q, uint64_t t_c,
			uint32_t c_bytes, uint16_t error)
{
	struct bs_io_sample s;
	int i;

	if (!e->nsinks)
		return;
	s.device = q->dev->device;
	s.sector = q->sector;
	s.bytes = q->bytes;
	s.pid = q->pid;
	s.comm = q->proc && q->proc->named ? q->proc->name : NULL;
	s.op = bs_op_of(q->action);
	s.action = q->action;
	s.t_q = q->t_q;
	s.t_a = q->t_a;
	s.t_g = q->t_g;
	s.t_s = q->t_s;
	s.t_i = q->t_i;
	s.t_m = q->t_m;
	s.t_d = q->t_d;
	s.t_c = t_c;
	s.d_bytes = q->t_d != BT_NONE ? q->d_nsec << 9 : 0;
	s.c_bytes = c_bytes;
	s.error = error;
	s.requeues = q->requeues;
	s.tag = q->tag;
	for (i = 0; i < e->nsinks; i++)
		if (e->sinks[i].io_done)
			e->sinks[i].io_done(e->sinks[i].ctx, &s);
}

int bt_engine_add_sink(struct bt_engine *e, const struct bs_sample_sink *sink)
{
	if (e->nsinks == BT_MAX_SINKS)
		return -1;
	e->sinks[e->nsinks++] = *sink;
	return 0;
}

static struct bs_dev_counters *counters_for(struct bt_engine *e, uint32_t device, uint64_t time)
{
	struct bs_dev_counters *c = e->last_counters;
	int i;

	if (c && c->device == device)
		return c;
	for (i = 0; i < e->ncounters; i++)
		if (e->counters[i].device == device)
			return e->last_counters = &e->counters[i];
	if (e->ncounters == e->counters_cap) {
		e->counters_cap = e->counters_cap ? e->counters_cap * 2 : 8;
		e->counters = xrealloc(e->counters, e->counters_cap * sizeof(*e->counters));
	}
	c = &e->counters[e->ncounters++];
	memset(c, 0, sizeof(*c));
	c->device = device;
	c->first_time = time;
	return e->last_counters = c;
}

static void count_event(struct bt_engine *e, const struct bs_trace *t)
{
	struct bs_dev_counters *c;
	enum bs_op op = bs_op_of(t->action);

	if (bs_is_note(t->action))
		return;
	c = counters_for(e, t->device, t->time);
	c->last_time = t->time;
	switch (bs_act_basic(t->action) & ~BS_TA_CGROUP) {
	case BS_TA_QUEUE:
		c->queued[op]++;
		c->queued_bytes[op] += t->bytes;
		break;
	case BS_TA_ISSUE:
		c->issued[op]++;
		c->issued_bytes[op] += t->bytes;
		break;
	case BS_TA_COMPLETE:
		c->completed[op]++;
		c->completed_bytes[op] += t->bytes;
		if (t->error)
			c->errors++;
		break;
	case BS_TA_BACKMERGE:
	case BS_TA_FRONTMERGE:
		c->merges[op]++;
		break;
	case BS_TA_REQUEUE:
		c->requeues[op]++;
		break;
	case BS_TA_SPLIT:
		c->splits++;
		break;
	case BS_TA_REMAP:
		c->remaps++;
		break;
	case BS_TA_PLUG:
		c->plugs++;
		break;
	case BS_TA_UNPLUG_IO:
		c->unplugs++;
		break;
	case BS_TA_UNPLUG_TIMER:
		c->unplug_timers++;
		break;
	}
}

/* ---- side files ------------------------------------------------------- */

static FILE *latency_open(uint32_t device, const char *name, const char *post)
{
	char path[4096];
	FILE *fp;

	if (!name)
		return NULL;
	snprintf(path, sizeof(path), "%s_%d,%d_%s.dat", name, BS_DEV_MAJOR(device),
		 BS_DEV_MINOR(device), post);
	fp = fopen(path, "w");
	if (!fp)
		fprintf(stderr, "blkscope-analyze: %s: %s\n", path, strerror(errno));
	return fp;
}

static void open_latency_files(struct bt_engine *e, struct bt_dev *d)
{
	d->q2d_fp = latency_open(d->device, e->o.q2d_name, "q2d");
	d->d2c_fp = latency_open(d->device, e->o.d2c_name, "d2c");
	d->q2c_fp = latency_open(d->device, e->o.q2c_name, "q2c");
}

static inline void latency_out(FILE *fp, uint64_t stamp, uint64_t latency)
{
	if (fp)
		fprintf(fp, "%lf %lf\n", (double)stamp / 1.0e9, (double)latency / 1.0e9);
}

static void out_stage(FILE *fp, uint64_t t, char type, uint64_t sec, uint32_t nblks, int indent)
{
	if (t == BT_NONE)
		return;
	if (indent)
		fprintf(fp, "         ");
	fprintf(fp, "%5d.%09lu %c %10llu+%-4u\n", (int)(t / 1000000000ull),
		(unsigned long)(t % 1000000000ull), type, (unsigned long long)sec, nblks);
}

/* btt -p: one block per completed bio */
static void per_io_track(FILE *fp, const struct bt_q *q, uint64_t t_c, uint64_t c_sec,
			 uint32_t c_nblks)
{
	uint32_t nblks = q->bytes >> 9;

	fprintf(fp, "%3d,%-3d: ", BS_DEV_MAJOR(q->dev->device), BS_DEV_MINOR(q->dev->device));
	out_stage(fp, q->t_q, 'Q', q->sector, nblks, 0);
	if (q->t_g != BT_NONE)
		out_stage(fp, q->t_g, 'G', q->sector, nblks, 1);
	if (q->t_i != BT_NONE)
		out_stage(fp, q->t_i, 'I', q->sector, nblks, 1);
	if (q->t_m != BT_NONE)
		out_stage(fp, q->t_m, 'M', q->sector, nblks, 1);
	out_stage(fp, q->t_d, 'D', q->d_sec, q->d_nsec, 1);
	out_stage(fp, t_c, 'C', c_sec, c_nblks, 1);
	fprintf(fp, "\n");
}

/* ---- event handlers (btt's trace_*.c) ---------------------------------- */

/* btt's size histogram: bucket blocks-1, the last one for more than 1024 */
static inline void size_histo(uint64_t *h, uint32_t bytes)
{
	uint32_t blks = bytes >> 9;

	if (blks)	/* btt would write before its array for sub-block bios */
		h[blks - 1 < BT_HIST_BKTS - 1 ? blks - 1 : BT_HIST_BKTS - 1]++;
}

static inline int is_read(uint32_t action)
{
	return (action & BS_TC_ACT(BS_TC_READ)) != 0;
}

static void handle_queue(struct bt_engine *e, const struct bs_trace *t)
{
	struct bt_dev *d;
	struct bt_proc *p;
	struct bt_q *q, *old;

	if (t->bytes == 0)
		return;
	d = dev_setup(e, t->device, T_Q, t->time);
	if (!d)
		return;
	q = q_alloc(e);
	q->sector = t->sector;
	q->bytes = t->bytes;
	old = q_insert(d, q);
	if (old) {
		emit_sample(e, old, BS_NOT_SEEN, 0, 0);
		q_free(e, old);
	}
	p = find_process(e, t->pid);
	q->pid = t->pid;
	q->action = t->action;
	q->t_q = t->time;
	q->t_a = q->t_g = q->t_s = q->t_i = q->t_m = q->t_d = BT_NONE;
	q->d_sec = 0;
	q->d_nsec = 0;
	q->requeues = 0;
	q->tag = e->cur_tag;
	q->proc = p;
	q->dev = d;

	bt_seek_add(&d->q2q_seek, t->sector, t->bytes, e->o.seek_absolute, is_read(t->action),
		    t->time);
	update_range(e, &e->all_regions.q, t->time);
	if (bt_remapper_dev(d->device))
		update_lq(&d->last_q, &d->avgs.q2q_dm, t->time);
	else
		update_lq(&d->last_q, &d->avgs.q2q, t->time);
	update_range(e, &d->regions.q, t->time);
	if (!bt_remapper_dev(d->device))
		size_histo(e->q_histo, t->bytes);
	if (bt_remapper_dev(d->device)) {
		update_lq(&p->last_q, &p->avgs.q2q_dm, t->time);
		update_lq(&e->last_q, &e->all.q2q_dm, t->time);
	} else {
		update_lq(&p->last_q, &p->avgs.q2q, t->time);
		update_lq(&e->last_q, &e->all.q2q, t->time);
	}
	update_range(e, &p->regions.q, t->time);
	d->n_qs++;
	d->t_act_q += d->n_act_q;
	d->n_act_q++;
}

static void handle_getrq(struct bt_engine *e, const struct bs_trace *t, enum bt_type type)
{
	struct bt_dev *d;
	struct bt_q *q;

	if (t->bytes == 0)
		return;
	d = dev_setup(e, t->device, type, t->time);
	if (!d)
		return;
	find_process(e, t->pid);
	if (e->o.iostat) {
		if (type == T_G)
			bt_iostat_getrq(d, t->time);
		else if (type == T_M)
			bt_iostat_merge(d, is_read(t->action));
	}
	q = q_find_sec(d, t->sector);
	if (q) {
		if (q->tag < 0)
			q->tag = e->cur_tag;
		switch (type) {
		case T_G:
			q->t_g = t->time;
			UPDATE3(e, q2g, d, q->proc, tdelta(q->t_q, t->time));
			if (q->t_s != BT_NONE && q->t_s != 0)
				UPDATE3(e, s2g, d, q->proc, tdelta(q->t_s, t->time));
			break;
		case T_S:
			q->t_s = t->time;
			break;
		case T_I:
			q->t_i = t->time;
			if (q->t_g != BT_NONE)
				UPDATE3(e, g2i, d, q->proc, tdelta(q->t_g, t->time));
			break;
		default:	/* M, F */
			q->t_m = t->time;
			UPDATE3(e, q2m, d, q->proc, tdelta(q->t_q, t->time));
			break;
		}
	}
	if (type == T_M && d->n_act_q)
		d->n_act_q--;
}

static void handle_issue(struct bt_engine *e, const struct bs_trace *t)
{
	struct bt_dev *d;
	size_t i;

	if (t->bytes == 0)
		return;
	d = dev_setup(e, t->device, T_D, t->time);
	if (!d)
		return;
	find_process(e, t->pid);
	if (d->n_act_q)
		d->n_act_q--;
	bt_seek_add(&d->d2d_seek, t->sector, t->bytes, e->o.seek_absolute, is_read(t->action),
		    t->time);
	if (e->o.iostat)
		bt_iostat_issue(d, t->time, is_read(t->action), t->bytes);
	d->n_ds++;
	if (!bt_remapper_dev(d->device))
		size_histo(e->d_histo, t->bytes);

	e->scratch.n = 0;
	q_collect(d->qtree.node, t->sector, t->sector + (t->bytes >> 9), &e->scratch);
	for (i = 0; i < e->scratch.n; i++) {
		struct bt_q *q = e->scratch.v[i];

		if (q->tag < 0)
			q->tag = e->cur_tag;
		if (q->t_i != BT_NONE)
			UPDATE3(e, i2d, d, q->proc, tdelta(q->t_i, t->time));
		else if (q->t_m != BT_NONE)
			UPDATE3(e, m2d, d, q->proc, tdelta(q->t_m, t->time));
		q->t_d = t->time;
		q->d_sec = t->sector;
		q->d_nsec = t->bytes >> 9;
		if (e->o.all_data) {
			double q2d = bt_secs(t->time - q->t_q);
			long msec = (long)(q2d / 0.001);
			int b;

			if (msec < 0 || msec >= 1000)
				b = 9;
			else if (msec >= 500)
				b = 8;
			else if (msec >= 250)
				b = 7;
			else if (msec >= 100)
				b = 6;
			else if (msec >= 75)
				b = 5;
			else if (msec >= 50)
				b = 4;
			else if (msec >= 25)
				b = 3;
			else if (msec >= 10)
				b = 2;
			else if (msec >= 5)
				b = 1;
			else
				b = 0;
			d->q2d_hist[b]++;
			d->q2d_n++;
		}
		latency_out(d->q2d_fp, t->time, t->time - q->t_q);
	}
}

/* The oldest dispatch still waiting for its completion: nothing older can merge into live spans. */
static uint64_t live_horizon(const struct bt_dev *d, uint64_t now)
{
	const struct bt_rb_node *stack[128];
	uint64_t h = now;
	int sp = 0;

	if (d->qtree.node)
		stack[sp++] = d->qtree.node;
	while (sp) {
		const struct bt_rb_node *n = stack[--sp];
		const struct bt_q *q = bt_rb_entry(n, struct bt_q, rb);

		if (q->t_d < h)
			h = q->t_d;
		if (n->left)
			stack[sp++] = n->left;
		if (n->right)
			stack[sp++] = n->right;
	}
	return h;
}

static void fold_live(struct bt_engine *e, struct bt_dev *d, uint64_t now)
{
	if (bt_live_wants_fold(&d->live))
		bt_live_fold(&d->live, live_horizon(d, now));
	if (bt_live_wants_fold(&e->all_live)) {
		uint64_t h = now;
		int i;

		for (i = 0; i < e->ndevs; i++) {
			uint64_t x = live_horizon(e->devs[i], now);

			if (x < h)
				h = x;
		}
		bt_live_fold(&e->all_live, h);
	}
}

static void handle_complete(struct bt_engine *e, const struct bs_trace *t)
{
	struct bt_dev *d;
	struct bt_proc *p;
	size_t i;
	uint64_t nblks = t->bytes >> 9;

	if (t->bytes == 0)
		return;
	d = dev_setup(e, t->device, T_C, t->time);
	if (!d)
		return;
	p = find_process(e, t->pid);
	avg_update(&e->all.blks, nblks);
	avg_update(&d->avgs.blks, nblks);
	avg_update(&p->avgs.blks, nblks);
	update_range(e, &e->all_regions.c, t->time);
	update_range(e, &d->regions.c, t->time);
	update_range(e, &p->regions.c, t->time);

	e->scratch.n = 0;
	q_collect(d->qtree.node, t->sector, t->sector + nblks, &e->scratch);
	for (i = 0; i < e->scratch.n; i++) {
		struct bt_q *q = e->scratch.v[i];
		struct bt_dev *qd = q->dev;
		uint64_t q2c = tdelta(q->t_q, t->time);

		if (q->tag < 0)
			q->tag = e->cur_tag;
		if (bt_remapper_dev(qd->device))
			UPDATE3(e, q2c_dm, qd, q->proc, q2c);
		else
			UPDATE3(e, q2c, qd, q->proc, q2c);
		latency_out(qd->q2c_fp, q->t_q, q2c);
		if (q->t_d != BT_NONE) {
			uint64_t d2c = tdelta(q->t_d, t->time);

			bt_live_add(&qd->live, q->t_d, t->time);
			bt_live_add(&e->all_live, q->t_d, t->time);
			UPDATE3(e, d2c, qd, q->proc, d2c);
			latency_out(qd->d2c_fp, t->time, d2c);
			if (e->o.iostat)
				bt_iostat_complete(qd, d, q->t_q, q->t_i, q->t_m, t->time);
		}
		if (e->o.per_io)
			per_io_track(e->o.per_io, q, t->time, t->sector, t->bytes >> 9);
		emit_sample(e, q, t->time, t->bytes, t->error);
		q_remove(qd, q);
		q_free(e, q);
	}
	if (e->o.per_io)
		fprintf(e->o.per_io, "-----------------------------------------\n");
	if (e->scratch.n)
		fold_live(e, d, t->time);
}

static void handle_requeue(struct bt_engine *e, const struct bs_trace *t)
{
	struct bt_dev *d = dev_setup(e, t->device, T_R, t->time);
	size_t i;

	if (!d)
		return;
	find_process(e, t->pid);
	d->n_qs++;
	d->t_act_q += d->n_act_q;
	d->n_act_q++;
	if (e->nsinks) {
		e->scratch.n = 0;
		q_collect(d->qtree.node, t->sector, t->sector + (t->bytes >> 9), &e->scratch);
		for (i = 0; i < e->scratch.n; i++)
			e->scratch.v[i]->requeues++;
	}
}

static void handle_remap(struct bt_engine *e, const struct bs_trace *t, const uint8_t *pdu)
{
	struct bs_remap rm;
	struct bt_dev *d, *qd;
	struct bt_q *q;

	if (e->o.ignore_remaps || bs_decode_remap(t, pdu, &rm))
		return;
	d = dev_setup(e, t->device, T_A, t->time);
	if (!d)
		return;
	find_process(e, t->pid);
	qd = bt_engine_find_dev(e, rm.device_from);
	if (!qd)
		return;
	q = q_find_sec(qd, rm.sector_from);
	if (q) {
		q->t_a = t->time;
		if (bt_remapper_dev(qd->device))
			UPDATE3(e, q2a_dm, qd, q->proc, tdelta(q->t_q, t->time));
		else
			UPDATE3(e, q2a, qd, q->proc, tdelta(q->t_q, t->time));
	}
}

static void unplug(struct bt_dev *d, double now)
{
	d->is_plugged = 0;
	d->plugged_time += now - d->last_plug;
}

static void handle_plug(struct bt_engine *e, const struct bs_trace *t, const uint8_t *pdu,
			unsigned int act)
{
	struct bt_dev *d = bt_engine_find_dev(e, t->device);
	uint64_t depth;

	if (!d)
		return;
	if (act == BS_TA_PLUG) {
		if (!d->is_plugged) {
			d->is_plugged = 1;
			d->last_plug = bt_secs(t->time);
		}
		return;
	}
	if (!d->is_plugged)
		return;
	depth = bs_pdu_be64(t, pdu);
	if (act == BS_TA_UNPLUG_IO) {
		d->nplugs++;
		d->nios_up += depth;
	} else {
		d->nios_upt += depth;
		d->nplugs_t++;
	}
	unplug(d, bt_secs(t->time));
}

static void handle_message(struct bt_engine *e, const struct bs_trace *t, const uint8_t *pdu)
{
	struct bt_dev *d = dev_setup(e, t->device, T_MSG, t->time);
	char hdr[16];

	if (!d)
		return;
	find_process(e, t->pid);
	if (e->o.msgs)
		fprintf(e->o.msgs, "%s %5d.%09lu %.*s\n", bt_dev_hdr(hdr, 15, t->device),
			(int)(t->time / 1000000000ull), (unsigned long)(t->time % 1000000000ull),
			(int)strnlen((const char *)pdu, t->pdu_len), (const char *)pdu);
}

void bt_engine_event(struct bt_engine *e, const struct bs_event *ev)
{
	const struct bs_trace *t = &ev->t;
	unsigned int act;
	int i;

	for (i = 0; i < e->nsinks; i++)
		if (e->sinks[i].event)
			e->sinks[i].event(e->sinks[i].ctx, ev);
	if (e->nsinks)
		count_event(e, t);
	if (e->done)
		return;
	e->last_time = t->time;

	if (t->action & BS_TC_ACT(BS_TC_NOTIFY)) {
		if (t->action == BS_NOTE_PROCESS)
			bt_engine_process_note(e, t->pid, (const char *)ev->pdu, t->pdu_len);
		else if (t->action == BS_NOTE_MESSAGE)
			handle_message(e, t, ev->pdu);
		return;
	}
	if (t->action & BS_TC_ACT(BS_TC_PC))
		return;
	if (e->o.time_bounded) {
		double secs = bt_secs(t->time);

		if (secs < e->o.t_start)
			return;
		if (secs > e->o.t_end) {
			e->done = true;
			return;
		}
	}
	e->n_traces++;
	bt_iostat_check_time(e, t->time);

	act = t->action & 0xffff;
	switch (act) {
	case BS_TA_QUEUE:
		handle_queue(e, t);
		break;
	case BS_TA_REMAP:
		handle_remap(e, t, ev->pdu);
		break;
	case BS_TA_INSERT:
		handle_getrq(e, t, T_I);
		break;
	case BS_TA_GETRQ:
		handle_getrq(e, t, T_G);
		break;
	case BS_TA_SLEEPRQ:
		handle_getrq(e, t, T_S);
		break;
	case BS_TA_BACKMERGE:
	case BS_TA_FRONTMERGE:
		handle_getrq(e, t, T_M);
		break;
	case BS_TA_REQUEUE:
		handle_requeue(e, t);
		break;
	case BS_TA_ISSUE:
		handle_issue(e, t);
		break;
	case BS_TA_COMPLETE:
		handle_complete(e, t);
		break;
	case BS_TA_PLUG:
	case BS_TA_UNPLUG_IO:
	case BS_TA_UNPLUG_TIMER:
		handle_plug(e, t, ev->pdu, act);
		break;
	default:
		break;
	}
}

/* ---- life cycle -------------------------------------------------------- */

/*
 * btt coalesces activity when BIT_TIME(gap) < -d.  BIT_TIME never
 * decreases with its argument, so the test is gap < the smallest gap
 * whose BIT_TIME reaches -d: found once, then compared as integers.
 */
static uint64_t range_gap(double delta)
{
	uint64_t lo = 0, hi = UINT64_MAX;

	if (bt_secs(hi) < delta)
		return hi;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (bt_secs(mid) < delta)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct bt_engine *bt_engine_new(const struct bt_opts *o)
{
	struct bt_engine *e = xcalloc(1, sizeof(*e));

	e->o = *o;
	if (e->o.range_delta == 0)
		e->o.range_delta = 0.1;
	e->dev_hash_size = 16;
	e->dev_hash = xcalloc(e->dev_hash_size, sizeof(*e->dev_hash));
	e->pid_hash_size = 256;
	e->pid_hash = xcalloc(e->pid_hash_size, sizeof(*e->pid_hash));
	e->pid_keys = xcalloc(e->pid_hash_size, sizeof(*e->pid_keys));
	e->last_q = BT_NONE;
	e->seek_budget = e->o.seek_values;
	e->cur_tag = -1;
	bt_live_init(&e->all_live);
	e->range_gap_ns = range_gap(e->o.range_delta);
	bt_iostat_init(&e->iostat, o->iostat, o->iostat_interval);
	return e;
}

static void drain_tree(struct bt_engine *e, struct bt_rb_node *n)
{
	while (n) {
		struct bt_q *q = bt_rb_entry(n, struct bt_q, rb);

		drain_tree(e, n->left);
		emit_sample(e, q, BS_NOT_SEEN, 0, 0);
		n = n->right;
	}
}

void bt_engine_finish(struct bt_engine *e)
{
	int i;

	if (e->nsinks) {
		for (i = 0; i < e->ndevs; i++)
			drain_tree(e, e->devs[i]->qtree.node);
		for (i = 0; i < e->nsinks; i++)
			if (e->sinks[i].finish)
				e->sinks[i].finish(e->sinks[i].ctx, e->last_time);
	}
}

static void free_region(struct bt_region *r)
{
	free(r->q.v);
	free(r->c.v);
}

void bt_engine_free(struct bt_engine *e)
{
	int i;

	if (!e)
		return;
	for (i = 0; i < e->ndevs; i++) {
		struct bt_dev *d = e->devs[i];

		bt_seek_free(&d->q2q_seek);
		bt_seek_free(&d->d2d_seek);
		bt_live_free(&d->live);
		free_region(&d->regions);
		if (d->q2d_fp)
			fclose(d->q2d_fp);
		if (d->d2c_fp)
			fclose(d->d2c_fp);
		if (d->q2c_fp)
			fclose(d->q2c_fp);
		free(d);
	}
	for (i = 0; i < e->nprocs; i++) {
		free_region(&e->procs[i]->regions);
		free(e->procs[i]->name);
		free(e->procs[i]);
	}
	for (i = 0; i < e->nq_slabs; i++)
		free(e->q_slabs[i]);
	free(e->q_slabs);
	free(e->procs);
	free(e->devs);
	free(e->dev_hash);
	free(e->pid_hash);
	free(e->pid_keys);
	free(e->counters);
	free_region(&e->all_regions);
	bt_live_free(&e->all_live);
	free(e->scratch.v);
	free(e);
}
