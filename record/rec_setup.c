// SPDX-License-Identifier: GPL-2.0
/*
 * rec_setup.c - a recording from its options to attached programs: devices
 * resolved, stages allocated, attribution tables, the BPF programs, who
 * the command runs as, the disks' counters at the start; and the cleanup.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "recorder.h"

int rec_alloc_stages(struct rec_recorder *r)
{
	int n = r->ntraces * r->ncpus, i;

	r->stages = calloc(n, sizeof(*r->stages));
	r->sinks = calloc(n, sizeof(*r->sinks));
	r->flushed = calloc(n, sizeof(*r->flushed));
	if (!r->stages || !r->sinks || !r->flushed)
		return -1;
	for (i = 0; i < n; i++)
		if (rec_stage_init(&r->stages[i]) < 0)
			return -1;
	return 0;
}

static uint64_t round_pow2(uint64_t v)
{
	uint64_t p = 4096;

	while (p < v)
		p <<= 1;
	return p;
}

/* -d paths -> traces; two traces on one disk are refused, as in blktrace. */
int rec_resolve_traces(struct rec_recorder *r, const struct rec_opts *o)
{
	int i, j;

	r->ntraces = o->ndevs;
	for (i = 0; i < o->ndevs; i++) {
		if (rec_resolve_device(o->devs[i], &r->traces[i]) < 0)
			return -1;
		/*
		 * recording goes on (a loop device may be bound meanwhile), but say why it may stay
		 * empty
		 */
		if (r->traces[i].end_lba == r->traces[i].start_lba)
			fprintf(stderr,
				"%s: warning: %s has size 0 (an unbound loop device?): no I/O can "
				"reach it until it has a size\n",
				PROG, o->devs[i]);
		for (j = 0; j < i; j++)
			if (r->traces[j].disk == r->traces[i].disk) {
				fprintf(stderr, "blkscope record: %s and %s are on the same disk; "
					"trace one of them (like blktrace, one trace per queue)\n",
					o->devs[j], o->devs[i]);
				return -1;
			}
	}
	return 0;
}

/* --files/--stacks: kallsyms (the BPF side's addresses), tables; before the BPF programs load */
int rec_open_attr(struct rec_recorder *r, const struct rec_opts *o)
{
	struct rec_attr_cfg cfg = {
		.files = o->files,
		.stacks = o->stacks,
		.stack_entries = o->stack_entries ? o->stack_entries : DEFAULT_STACK_ENTRIES,
		.traces = r->traces,
		.ntraces = r->ntraces,
		.ncpus = r->ncpus,
		.zstd_level = o->zstd_level,
	};

	if (!o->files && !o->stacks)
		return 0;
	r->attr = rec_attr_new(&cfg);
	return r->attr ? 0 : -1;
}

struct rec_bpf *rec_open_bpf(struct rec_recorder *r, const struct rec_opts *o)
{
	struct rec_bpf_config cfg = {
		.self_tgid = getpid(),
		.trace_self = o->trace_self,
		.ring_bytes = round_pow2((uint64_t)o->ring_kib << 10),
		.act_mask = o->act_mask,
		.pid = o->pid,
		.lba_set = o->lba_set,
		.start_lba = o->start_lba,
		.end_lba = o->end_lba,
		.v8 = o->format == 8,
		.cgroup_ids = o->cgroup_ids,
		.ncgroups = o->ncgroups,
		.events = o->events,
		.attr_files = o->files,
		.attr_stacks = o->stacks,
		.stack_entries = o->stack_entries ? o->stack_entries : DEFAULT_STACK_ENTRIES,
		.attr_fn = r->attr ? rec_route_attr : NULL,
	};
	struct rec_bpf *b;
	int i, kfd, ufd;

	for (i = 0; i < o->ncgroups; i++)
		if (rec_cgroup_resolve(&r->cg, o->cgroups[i], &cfg.cgroup_id[i],
				       &cfg.cgroup_level[i]) < 0)
			return NULL;

	if (r->attr)
		rec_attr_fns(r->attr, &cfg.fns);
	b = rec_bpf_open(&cfg, r->traces, r->ntraces, r->ncpus, rec_route_record, r);
	if (b && r->attr &&
	    (rec_bpf_stack_fds(b, &kfd, &ufd) < 0 || rec_attr_start(r->attr, kfd, ufd) < 0)) {
		rec_bpf_close(b);
		return NULL;
	}
	return b;
}

/* Who the command runs as: --user, else the sudo caller unless --keep-root. */
int rec_command_cred(const struct rec_opts *o, struct rec_cred *cred)
{
	memset(cred, 0, sizeof(*cred));
	if (!o->cmd || o->keep_root)
		return 0;
	if (o->user)
		return rec_cred_from_user(o->user, cred);
	if (rec_cred_from_sudo(cred) < 0)
		return -1;
	if (cred->set)
		fprintf(stderr,
			"blkscope record: running %s as %s, uid %u (from SUDO_UID; --keep-root "
			"runs it as root)\n",
			o->cmd[0], *cred->name ? cred->name : "a user without a name",
			(unsigned int)cred->uid);
	return 0;
}

/* The disks' completion counts at the start, for the traces that can be compared. */
void rec_start_cstat(struct rec_recorder *r, const struct rec_opts *o)
{
	const unsigned int rw = BS_TC_READ | BS_TC_WRITE;	/* every event has one */
	bool filtered = (o->act_mask && (o->act_mask & rw) != rw) || o->pid || o->lba_set ||
			o->ncgroups || (o->events && !(o->events & REC_EV_C));
	int i;

	for (i = 0; i < r->ntraces; i++)
		rec_cstat_begin(&r->cstat[i], r->bpf, i, &r->traces[i], filtered);
}

/*
 * -v: each device's sectors, first and last, as the filter sees them: --lba
 * as given (inclusive), else the partition or disk (its window ends where
 * the kernel's does, one past the last sector: not shown).
 */
void rec_say_tracing(const struct rec_recorder *r, const struct rec_opts *o)
{
	const struct rec_trace *t;
	int i;

	for (i = 0; i < r->ntraces; i++) {
		t = &r->traces[i];
		if (o->lba_set)
			fprintf(stderr,
				"blkscope record: tracing %s (%u,%u), sectors %llu..%llu (--lba)\n",
				t->path, BS_DEV_MAJOR(t->dev), BS_DEV_MINOR(t->dev),
				(unsigned long long)o->start_lba, (unsigned long long)o->end_lba);
		else if (t->end_lba > t->start_lba)
			fprintf(stderr,
				"blkscope record: tracing %s (%u,%u), sectors %llu..%llu (%llu "
				"sectors)\n",
				t->path, BS_DEV_MAJOR(t->dev), BS_DEV_MINOR(t->dev),
				(unsigned long long)t->start_lba,
				(unsigned long long)t->end_lba - 1,
				(unsigned long long)(t->end_lba - t->start_lba));
		else
			fprintf(stderr,
				"blkscope record: tracing %s (%u,%u), no sectors (size 0)\n",
				t->path, BS_DEV_MAJOR(t->dev), BS_DEV_MINOR(t->dev));
	}
}

void rec_cleanup(struct rec_recorder *r)
{
	int i, n = r->ntraces * r->ncpus;

	if (r->child > 0 && !r->child_done) {
		kill(r->child, SIGTERM);
		waitpid(r->child, NULL, 0);
	}
	rec_bpf_close(r->bpf);
	rec_flight_free(r->flight);
	rec_sink_free(r->flight_stdout);
	if (r->flight_dir >= 0)
		close(r->flight_dir);
	rec_stream_free(r->merge);
	for (i = 0; r->sinks && i < n; i++)
		if (r->sinks[i] && !(r->stream && i))
			rec_sink_free(r->sinks[i]);
	rec_io_free(r->io);
	for (i = 0; r->stages && i < n; i++)
		rec_stage_free(&r->stages[i]);
	free(r->stages);
	free(r->sinks);
	free(r->flushed);
	rec_cgroups_close(&r->cg);
	rec_attr_free(r->attr);
}
