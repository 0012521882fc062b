// SPDX-License-Identifier: GPL-2.0
/*
 * parse_stats.c - what blkparse counts and prints at the end: per-CPU and
 * per-device blocks, Throughput, Events, Skips, and with -s the
 * per-process blocks.  The summary lines are few, so they use printf, with
 * the same "%'" thousands grouping that blkparse gets from
 * setlocale(LC_NUMERIC, "en_US") (no grouping when that locale is absent).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "bs_devname.h"
#include "bs_merge.h"
#include "parse_priv.h"
#include "parse_stats_priv.h"

struct parse_proc {
	struct parse_name *nm;
	struct parse_io io;
	int more_than_one;
	unsigned long long longest_wait[3][2];	/* allocation, dispatch, completion */
	struct parse_proc *hash_next, *list_next;
};

#define PARSE_MAX_CPUS (1u << 16)

/*
 * parse_cpu_get()'s miss path: find or add cpu (message and NULL for a CPU
 * number blkparse would die on), and remember it in the cache.
 */
struct parse_cpu *parse_cpu_lookup(struct parse_ctx *ps, struct parse_dev *d, unsigned int cpu)
{
	bool inserted;
	uint64_t *idx;

	if (cpu >= PARSE_MAX_CPUS) {
		/* blkparse would try to allocate it and die of "Out of memory" */
		bs_msg(&ps->msg, BS_MSG_ERROR,
		       "record with cpu %u (more than %u CPUs): damaged input?", cpu,
		       PARSE_MAX_CPUS);
		return NULL;
	}
	idx = bs_hash_put(&d->cpu_index, cpu, (uint64_t)d->ncpus, &inserted);
	if (inserted) {
		BS_GROW(d->cpus, d->cpus_cap, (size_t)d->ncpus, 4);
		memset(&d->cpus[d->ncpus], 0, sizeof(d->cpus[0]));
		d->cpus[d->ncpus++].cpu = cpu;
	}
	d->cpu_cache[cpu & 7].cpu1 = cpu + 1;
	d->cpu_cache[cpu & 7].idx = (uint32_t)*idx;
	return &d->cpus[*idx];
}

void parse_cpus_free(struct parse_dev *d)
{
	free(d->cpus);
	d->cpus = NULL;
	d->ncpus = 0;
	d->cpus_cap = 0;
	bs_hash_free(&d->cpu_index);
	memset(d->cpu_cache, 0, sizeof(d->cpu_cache));
}

/*
 * ---- per-process table (blkparse's ppi hash) ----
 * ps->procs maps the pid (or, with -h, a hash of the name) to a chain of
 * processes, newest first: with -h several entries may carry one name
 * ("unknown", bug 13) and the newest is the one charged.
 */

static uint64_t name_key(const char *comm)
{
	return bs_hash_bytes(comm, strlen(comm));
}

static struct parse_proc *find_proc(struct parse_ctx *ps, uint32_t pid)
{
	struct parse_proc *p;
	struct parse_name *nm;
	uint64_t *v;

	if (!ps->by_name) {
		/* one process per pid, never removed: cache what is found */
		__typeof__(ps->proc_cache[0]) *c = &ps->proc_cache[pid % PARSE_PID_CACHE];

		if (c->p && c->pid == pid)
			return c->p;
		v = bs_hash_get(&ps->procs, pid);
		if (!v)
			return NULL;
		c->pid = pid;
		return c->p = (struct parse_proc *)(uintptr_t)*v;
	}
	nm = parse_names_find(ps, pid);
	if (!nm)
		return NULL;
	v = bs_hash_get(&ps->procs, name_key(nm->comm));
	for (p = v ? (struct parse_proc *)(uintptr_t)*v : NULL; p; p = p->hash_next)
		if (!strcmp(p->nm->comm, nm->comm))
			break;
	if (p && p->nm->pid != pid)
		p->more_than_one = 1;
	return p;
}

void parse_procs_free(struct parse_ctx *ps)
{
	while (ps->proc_list) {
		struct parse_proc *p = ps->proc_list;

		ps->proc_list = p->list_next;
		free(p);
	}
	ps->nprocs = 0;
	bs_hash_free(&ps->procs);
	memset(ps->proc_cache, 0, sizeof(ps->proc_cache));
}

struct parse_io *parse_proc_io(struct parse_ctx *ps, uint32_t pid)
{
	struct parse_proc *p = find_proc(ps, pid);
	uint64_t *v;

	if (p)
		return &p->io;
	p = bs_xcalloc(1, sizeof(*p));
	p->nm = parse_names_find(ps, pid);
	if (!p->nm)
		p->nm = parse_names_add(ps, pid, "unknown", 7);
	v = bs_hash_put(&ps->procs, ps->by_name ? name_key(p->nm->comm) : pid, 0, NULL);
	p->hash_next = (struct parse_proc *)(uintptr_t)*v;
	*v = (uint64_t)(uintptr_t)p;
	p->list_next = ps->proc_list;
	ps->proc_list = p;
	ps->nprocs++;
	return &p->io;
}

void parse_proc_note_wait(struct parse_ctx *ps, uint32_t pid, int kind, int w,
			  unsigned long long elapsed)
{
	struct parse_proc *p = find_proc(ps, pid);

	if (p && elapsed > p->longest_wait[kind][w])
		p->longest_wait[kind][w] = elapsed;
}

/* ---- accounting ---- */

static void io_account(struct parse_io *io, enum parse_acct kind, const struct bs_trace *t, int w)
{
	switch (kind) {
	case PARSE_ACCT_QUEUE:
		io->queued[w]++;
		io->queued_kb[w] += parse_t_kb(t);
		io->queued_b[w] += parse_t_kb_rest(t);
		break;
	case PARSE_ACCT_MERGE:
		io->merged[w]++;
		io->merged_kb[w] += parse_t_kb(t);
		io->merged_b[w] += parse_t_kb_rest(t);
		break;
	case PARSE_ACCT_ISSUE:
		io->issued[w]++;
		io->issued_kb[w] += t->bytes >> 10;
		io->issued_b[w] += t->bytes & 1023;
		break;
	case PARSE_ACCT_COMPLETE:
		io->completed[w]++;
		io->completed_kb[w] += t->bytes >> 10;
		io->completed_b[w] += t->bytes & 1023;
		break;
	case PARSE_ACCT_REQUEUE:
		/* can underflow, as in blkparse (a requeue without its dispatch) */
		io->requeued[w]++;
		io->issued_kb[w] -= parse_t_kb(t);
		io->issued_b[w] -= parse_t_kb_rest(t);
		break;
	case PARSE_ACCT_UNPLUG:
		io->io_unplugs++;
		break;
	case PARSE_ACCT_UNPLUG_TIMER:
		io->timer_unplugs++;
		break;
	case PARSE_ACCT_PC_QUEUE:
		io->pc_queued[w]++;
		/* blkparse bug kept: PC read KiB land in the normal read-queued KiB */
		if (w)
			io->pc_queued_kb[w] += parse_t_kb(t);
		else
			io->queued_kb[w] += parse_t_kb(t);
		io->pc_queued_b[w] += parse_t_kb_rest(t);
		break;
	case PARSE_ACCT_PC_ISSUE:
		io->pc_issued[w]++;
		io->pc_issued_kb[w] += t->bytes >> 10;
		io->pc_issued_b[w] += t->bytes & 1023;
		break;
	case PARSE_ACCT_PC_REQUEUE:
		io->pc_requeued[w]++;
		io->pc_issued_kb[w] -= parse_t_kb(t);
		io->pc_issued_b[w] -= parse_t_kb_rest(t);
		break;
	case PARSE_ACCT_PC_COMPLETE:
		io->pc_completed[w]++;
		break;
	}
}

void parse_account(struct parse_ctx *ps, struct parse_cpu *pci, enum parse_acct kind,
		   const struct bs_trace *t, int w)
{
	io_account(&pci->io, kind, t, w);
	if (ps->per_process)
		io_account(parse_proc_io(ps, t->pid), kind, t, w);
}

/* ---- printing ---- */

/* blkparse's size_cnv(): "%'8Lu" plus a K/M/G/P suffix (T is skipped) */
static char *size_cnv(char *dst, size_t len, unsigned long long num, int in_kb)
{
	static const char suff[] = { '\0', 'K', 'M', 'G', 'P' };
	unsigned int i = in_kb ? 1 : 0;

	while (num > 1000 * 1000ULL && i < sizeof(suff) - 1) {
		i++;
		num /= 1000;
	}
	snprintf(dst, len, "%'8llu%c", num, suff[i]);
	return dst;
}

static void dump_io_stats(struct parse_ctx *ps, const struct parse_dev *d,
			  const struct parse_io *io, const char *msg)
{
	struct parse_out *o = &ps->out;
	char x[64], y[64];

#define KB(f, i) (io->f##_kb[i] + (io->f##_b[i] >> 10))
	parse_out_printf(o, "%s\n", msg);
	parse_out_printf(o, " Reads Queued:    %s, %siB\t", size_cnv(x, 64, io->queued[0], 0),
		    size_cnv(y, 64, KB(queued, 0), 1));
	parse_out_printf(o, " Writes Queued:    %s, %siB\n", size_cnv(x, 64, io->queued[1], 0),
		    size_cnv(y, 64, KB(queued, 1), 1));
	parse_out_printf(o, " Read Dispatches: %s, %siB\t", size_cnv(x, 64, io->issued[0], 0),
		    size_cnv(y, 64, KB(issued, 0), 1));
	parse_out_printf(o, " Write Dispatches: %s, %siB\n", size_cnv(x, 64, io->issued[1], 0),
		    size_cnv(y, 64, KB(issued, 1), 1));
	parse_out_printf(o, " Reads Requeued:  %s\t\t", size_cnv(x, 64, io->requeued[0], 0));
	parse_out_printf(o, " Writes Requeued:  %s\n", size_cnv(x, 64, io->requeued[1], 0));
	parse_out_printf(o, " Reads Completed: %s, %siB\t", size_cnv(x, 64, io->completed[0], 0),
		    size_cnv(y, 64, KB(completed, 0), 1));
	parse_out_printf(o, " Writes Completed: %s, %siB\n", size_cnv(x, 64, io->completed[1], 0),
		    size_cnv(y, 64, KB(completed, 1), 1));
	parse_out_printf(o, " Read Merges:     %s, %siB\t", size_cnv(x, 64, io->merged[0], 0),
		    size_cnv(y, 64, KB(merged, 0), 1));
	parse_out_printf(o, " Write Merges:     %s, %siB\n", size_cnv(x, 64, io->merged[1], 0),
		    size_cnv(y, 64, KB(merged, 1), 1));
	if (d) {
		parse_out_printf(o, " Read depth:      %'8u%8c\t", d->max_depth[0], ' ');
		parse_out_printf(o, " Write depth:      %'8u\n", d->max_depth[1]);
	}
	if (io->pc_queued[0] || io->pc_queued[1] || io->pc_issued[0] || io->pc_issued[1] ||
	    io->pc_requeued[0] || io->pc_requeued[1] ||
	    io->pc_completed[0] || io->pc_completed[1]) {
		parse_out_printf(o, " PC Reads Queued: %s, %siB\t",
				 size_cnv(x, 64, io->pc_queued[0], 0),
				 size_cnv(y, 64, KB(pc_queued, 0), 1));
		parse_out_printf(o, " PC Writes Queued: %s, %siB\n",
				 size_cnv(x, 64, io->pc_queued[1], 0),
				 size_cnv(y, 64, KB(pc_queued, 1), 1));
		parse_out_printf(o, " PC Read Disp.:   %s, %siB\t",
				 size_cnv(x, 64, io->pc_issued[0], 0),
				 size_cnv(y, 64, KB(pc_issued, 0), 1));
		parse_out_printf(o, " PC Write Disp.:   %s, %siB\n",
				 size_cnv(x, 64, io->pc_issued[1], 0),
				 size_cnv(y, 64, KB(pc_issued, 1), 1));
		parse_out_printf(o, " PC Reads Req.:   %s\t\t",
				 size_cnv(x, 64, io->pc_requeued[0], 0));
		parse_out_printf(o, " PC Writes Req.:   %s\n",
				 size_cnv(x, 64, io->pc_requeued[1], 0));
		parse_out_printf(o, " PC Reads Compl.: %s\t\t",
				 size_cnv(x, 64, io->pc_completed[0], 0));
		parse_out_printf(o, " PC Writes Compl.: %s\n",
				 size_cnv(x, 64, io->pc_completed[1], 0));
	}
#undef KB
	parse_out_printf(o, " IO unplugs:      %'8lu%8c\t", io->io_unplugs, ' ');
	parse_out_printf(o, " Timer unplugs:    %'8lu\n", io->timer_unplugs);
}

static void io_sum(struct parse_io *sum, const struct parse_io *io)
{
	for (int w = 0; w < 2; w++) {
		sum->queued[w] += io->queued[w];
		sum->issued[w] += io->issued[w];
		sum->completed[w] += io->completed[w];
		sum->merged[w] += io->merged[w];
		sum->requeued[w] += io->requeued[w];
		sum->queued_kb[w] += io->queued_kb[w];
		sum->issued_kb[w] += io->issued_kb[w];
		sum->completed_kb[w] += io->completed_kb[w];
		sum->merged_kb[w] += io->merged_kb[w];
		sum->queued_b[w] += io->queued_b[w];
		sum->issued_b[w] += io->issued_b[w];
		sum->completed_b[w] += io->completed_b[w];
		sum->merged_b[w] += io->merged_b[w];
		sum->pc_queued[w] += io->pc_queued[w];
		sum->pc_issued[w] += io->pc_issued[w];
		sum->pc_completed[w] += io->pc_completed[w];
		sum->pc_requeued[w] += io->pc_requeued[w];
		sum->pc_queued_kb[w] += io->pc_queued_kb[w];
		sum->pc_issued_kb[w] += io->pc_issued_kb[w];
		sum->pc_queued_b[w] += io->pc_queued_b[w];
		sum->pc_issued_b[w] += io->pc_issued_b[w];
	}
	sum->io_unplugs += io->io_unplugs;
	sum->timer_unplugs += io->timer_unplugs;
}

static void dev_name(const struct parse_dev *d, char *buf, size_t len)
{
	if (d->name)
		snprintf(buf, len, "%s", d->name);
	else
		bs_devname(d->dev, buf, len);
}

static int cpu_cmp(const void *a, const void *b)
{
	const struct parse_cpu *c1 = *(const struct parse_cpu *const *)a;
	const struct parse_cpu *c2 = *(const struct parse_cpu *const *)b;

	return (c1->cpu > c2->cpu) - (c1->cpu < c2->cpu);
}

/* d's CPUs by number, as blkparse walks its per-CPU array */
static struct parse_cpu **cpus_by_number(const struct parse_dev *d)
{
	struct parse_cpu **v = bs_xcalloc((size_t)d->ncpus + 1, sizeof(*v));

	for (int i = 0; i < d->ncpus; i++)
		v[i] = &d->cpus[i];
	qsort(v, (size_t)d->ncpus, sizeof(*v), cpu_cmp);
	return v;
}

/* blkparse's buffers cut long device names; we cut them at the same place */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
static void show_device_and_cpu_stats(struct parse_ctx *ps, struct bs_merge *m)
{
	/* blkparse's buffer sizes, so long names are cut where blkparse cuts them */
	char line[3 + 8 + 2 + 32 + 3], name[32];

	for (int i = 0; i < ps->ndevs; i++) {
		struct parse_dev *d = &ps->devs[i];
		struct parse_io total;
		unsigned long long rrate = 0, wrate = 0, msec;
		struct bs_skip_stats sk = { 0 };
		int ncpu_blocks = 0;
		double ratio;

		struct parse_cpu **cpus = cpus_by_number(d);

		memset(&total, 0, sizeof(total));
		if (i > 0)
			parse_out_printf(&ps->out, "\n");
		for (int c = 0; c < d->ncpus; c++) {
			struct parse_cpu *pci = cpus[c];

			if (!pci->nelems)
				continue;
			io_sum(&total, &pci->io);
			dev_name(d, name, sizeof(name));
			snprintf(line, sizeof(line) - 1, "CPU%d (%s):", (int)pci->cpu, name);
			dump_io_stats(ps, d, &pci->io, line);
			ncpu_blocks++;
		}
		free(cpus);
		if (ncpu_blocks > 1) {
			parse_out_printf(&ps->out, "\n");
			dev_name(d, name, sizeof(name));
			snprintf(line, sizeof(line) - 1, "Total (%s):", name);
			dump_io_stats(ps, NULL, &total, line);
		}
		msec = (d->last_time - d->first_time) / 1000000;
		if (msec) {
			rrate = (1000 * total.completed_kb[0] + total.completed_b[0]) / msec;
			wrate = (1000 * total.completed_kb[1] + total.completed_b[1]) / msec;
		}
		parse_out_printf(&ps->out, "\nThroughput (R/W): %'lluKiB/s / %'lluKiB/s\n",
				 rrate, wrate);
		dev_name(d, line, sizeof(line));
		parse_out_printf(&ps->out, "Events (%s): %'llu entries\n", line, d->events);
		if (!ps->file_mode && m)
			sk = bs_merge_skips(m, d->dev);
		if (!sk.skips && !d->events)
			ratio = 0.0;
		else
			ratio = 100.0 * ((double)sk.seq_skips / (double)(d->events + sk.seq_skips));
		parse_out_printf(&ps->out, "Skips: %'lu forward (%'llu - %5.1lf%%)\n", sk.skips,
				 sk.seq_skips, ratio);
	}
}

#pragma GCC diagnostic pop

static int proc_cmp(const void *a, const void *b)
{
	const struct parse_proc *p1 = *(const struct parse_proc *const *)a;
	const struct parse_proc *p2 = *(const struct parse_proc *const *)b;
	int r = strverscmp(p1->nm->comm, p2->nm->comm);

	if (r)
		return r;
	return (p1->nm->pid > p2->nm->pid) - (p1->nm->pid < p2->nm->pid);
}

static void show_process_stats(struct parse_ctx *ps)
{
	struct parse_proc **v = bs_xcalloc((size_t)ps->nprocs + 1, sizeof(*v));
	int n = 0;

	for (struct parse_proc *p = ps->proc_list; p; p = p->list_next)
		v[n++] = p;
	qsort(v, (size_t)n, sizeof(*v), proc_cmp);
	for (int i = 0; i < n; i++) {
		struct parse_proc *p = v[i];
		char name[64];

		if (p->more_than_one)
			snprintf(name, sizeof(name), "%s (%u, ...)", p->nm->comm, p->nm->pid);
		else
			snprintf(name, sizeof(name), "%s (%u)", p->nm->comm, p->nm->pid);
		dump_io_stats(ps, NULL, &p->io, name);
		parse_out_printf(&ps->out, " Allocation wait: %'8lu%8c\t",
				 (unsigned long)(p->longest_wait[0][0] / 1000), ' ');
		parse_out_printf(&ps->out, " Allocation wait:  %'8lu\n",
				 (unsigned long)(p->longest_wait[0][1] / 1000));
		parse_out_printf(&ps->out, " Dispatch wait:   %'8lu%8c\t",
				 (unsigned long)(p->longest_wait[1][0] / 1000), ' ');
		parse_out_printf(&ps->out, " Dispatch wait:    %'8lu\n",
				 (unsigned long)(p->longest_wait[1][1] / 1000));
		parse_out_printf(&ps->out, " Completion wait: %'8lu%8c\t",
				 (unsigned long)(p->longest_wait[2][0] / 1000), ' ');
		parse_out_printf(&ps->out, " Completion wait:  %'8lu\n",
				 (unsigned long)(p->longest_wait[2][1] / 1000));
	}
	parse_out_printf(&ps->out, "\n");
	free(v);
}

void parse_show_stats(struct parse_ctx *ps, void *merge)
{
	if (!ps->text)
		return;
	if (ps->per_process)
		show_process_stats(ps);
	if (ps->dev_stats)
		show_device_and_cpu_stats(ps, merge);
}
