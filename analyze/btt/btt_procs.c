// SPDX-License-Identifier: GPL-2.0
/*
 * btt_procs.c - processes as btt's proc.c knows them: named by PROCESS
 * notes (pid 0 is "kernel", names are cut at '/', a pid keeps its first
 * name), pids with the same name share one entry, and a pid never named
 * is invented as "pid%09u" when one of its events is counted.
 */
#include <stdlib.h>
#include <string.h>
#include "bs_hash.h"
#include "btt_internal.h"

_Static_assert(BT_PROC_NAME_LEN >= BS_COMM_LEN + 1, "a PROCESS note's name fits struct bt_proc");

static struct bt_proc *pid_lookup(const struct bt_engine *e, uint32_t pid)
{
	const uint64_t *i = bs_hash_get(&e->pid_idx, pid);

	return i ? e->procs[*i] : NULL;
}

const struct bt_proc *bt_engine_find_proc(const struct bt_engine *e, uint32_t pid)
{
	return pid_lookup(e, pid);
}

/*
 * Names are hashed (a trace may hold a million); the map gives the first
 * process with that hash, and processes whose distinct names share a hash
 * are chained through name_next, so a hit is always confirmed by strcmp.
 */
static struct bt_proc *find_name(const struct bt_engine *e, const char *name, uint64_t h)
{
	const uint64_t *i = bs_hash_get(&e->name_idx, h);
	uint32_t k;

	if (!i)
		return NULL;
	for (k = (uint32_t)*i + 1; k; k = e->procs[k - 1]->name_next)
		if (!strcmp(e->procs[k - 1]->name, name))
			return e->procs[k - 1];
	return NULL;
}

static struct bt_proc *proc_create(struct bt_engine *e, uint32_t pid, const char *name,
				   bool named, uint64_t h)
{
	struct bt_proc *p = bs_xcalloc(1, sizeof(*p));
	bool fresh;
	uint64_t *first;

	p->pid = pid;
	snprintf(p->name, sizeof(p->name), "%s", name);	/* callers: at most BS_COMM_LEN */
	p->named = named;
	p->last_q = BT_NONE;
	p->index = e->nprocs;
	if (e->o.all_data)	/* a trace may name a million processes: 448 bytes each */
		p->avgs = bs_xcalloc(1, sizeof(*p->avgs));
	BS_GROW(e->procs, e->procs_cap, (size_t)e->nprocs, 16);
	first = bs_hash_put(&e->name_idx, h, (uint64_t)e->nprocs, &fresh);
	if (!fresh) {	/* another name with this hash: chain behind the first */
		p->name_next = e->procs[*first]->name_next;
		e->procs[*first]->name_next = (uint32_t)e->nprocs + 1;
	}
	e->procs[e->nprocs++] = p;
	return p;
}

/* btt's add_process(): first name per pid wins; equal names share stats. */
struct bt_proc *bt_add_process(struct bt_engine *e, uint32_t pid, const char *name, bool named)
{
	struct bt_proc *p = pid_lookup(e, pid);
	uint64_t h;

	if (p)
		return p;
	h = bs_hash_bytes(name, strlen(name));
	p = find_name(e, name, h);
	if (!p)
		p = proc_create(e, pid, name, named, h);
	bs_hash_put(&e->pid_idx, pid, (uint64_t)p->index, NULL);
	return p;
}

/* btt's find_process(pid, NULL) past the cache: invents "pid%09u" for unnamed pids */
struct bt_proc *bt_find_process_slow(struct bt_engine *e, uint32_t pid)
{
	struct bt_pid_slot *c = &e->pid_cache[pid % BT_PID_CACHE];
	struct bt_proc *p;
	char name[32];

	/* a pid's process never changes once known: cache it */
	if (c->proc && c->pid == pid) {
		p = c->proc;
	} else {
		p = pid_lookup(e, pid);
		if (!p) {
			snprintf(name, sizeof(name), "pid%09u", pid);
			p = bt_add_process(e, pid, name, false);
		}
		c->pid = pid;
		c->proc = p;
	}
	e->last_pid = pid;
	e->last_proc = p;
	return p;
}

void bt_engine_process_note(struct bt_engine *e, uint32_t pid, const char *comm, size_t len)
{
	if (e->samples)
		bt_process_note(e->samples, pid, comm, len);
	bt_process_note(e, pid, comm, len);
}

void bt_process_note(struct bt_engine *e, uint32_t pid, const char *comm, size_t len)
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
