// SPDX-License-Identifier: GPL-2.0
/*
 * btt_procs.c - processes as btt's proc.c knows them: named by PROCESS
 * notes (pid 0 is "kernel", names are cut at '/', a pid keeps its first
 * name), pids with the same name share one entry, and a pid never named
 * is invented as "pid%09u" when one of its events is counted.
 */
#include <stdlib.h>
#include <string.h>
#include "btt_internal.h"

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
		struct bt_proc **h = bs_xcalloc(size, sizeof(*h));
		uint32_t *keys = bs_xcalloc(size, sizeof(*keys));

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
struct bt_proc *bt_add_process(struct bt_engine *e, uint32_t pid, const char *name, bool named)
{
	struct bt_proc *p = pid_lookup(e, pid);

	if (p)
		return p;
	p = find_name(e, name);
	if (!p) {
		p = bs_xcalloc(1, sizeof(*p));
		p->pid = pid;
		p->name = bs_xstrdup(name);
		p->named = named;
		p->last_q = BT_NONE;
		if (e->nprocs == e->procs_cap) {
			e->procs_cap = e->procs_cap ? e->procs_cap * 2 : 16;
			e->procs = bs_xrealloc(e->procs, e->procs_cap * sizeof(*e->procs));
		}
		e->procs[e->nprocs++] = p;
	}
	pid_insert(e, pid, p);
	return p;
}

/* btt's find_process(pid, NULL) past the cache: invents "pid%09u" for unnamed pids */
struct bt_proc *bt_find_process_slow(struct bt_engine *e, uint32_t pid)
{
	struct bt_proc *p;
	char name[32];

	p = pid_lookup(e, pid);
	if (!p) {
		snprintf(name, sizeof(name), "pid%09u", pid);
		p = bt_add_process(e, pid, name, false);
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
		bt_add_process(e, 0, "kernel", true);
		return;
	}
	if (len > BS_COMM_LEN)
		len = BS_COMM_LEN;
	for (i = 0; i < len && comm[i] && comm[i] != '/'; i++)
		name[i] = comm[i];
	name[i] = '\0';
	bt_add_process(e, pid, name, true);
}

static int cmp_proc_name(const void *a, const void *b)
{
	return strcmp((*(struct bt_proc *const *)a)->name, (*(struct bt_proc *const *)b)->name);
}

struct bt_proc **bt_engine_sorted_procs(struct bt_engine *e, int *n)
{
	struct bt_proc **v = bs_xcalloc(e->nprocs + 1, sizeof(*v));

	if (e->nprocs)
		memcpy(v, e->procs, e->nprocs * sizeof(*v));
	qsort(v, e->nprocs, sizeof(*v), cmp_proc_name);
	*n = e->nprocs;
	return v;
}
