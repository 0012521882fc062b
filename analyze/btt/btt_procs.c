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
#include "btt_priv.h"

_Static_assert(BTT_PROC_NAME_LEN >= BS_COMM_LEN + 1, "a PROCESS note's name fits struct btt_proc");

/* First slot to probe for hash h in a table of cap (a power of two) slots. */
static size_t tab_start(uint64_t h, size_t cap)
{
	return (size_t)bs_hash_mix(h) & (cap - 1);
}

static uint64_t name_hash(const char *name)
{
	return bs_hash_bytes(name, strlen(name));
}

static struct btt_proc *pid_lookup(const struct btt_engine *e, uint32_t pid)
{
	const struct btt_pid_tab *t = &e->pid_tab;
	size_t i;

	if (!t->len)
		return NULL;
	for (i = tab_start(pid, t->cap); t->v[i].proc1; i = (i + 1) & (t->cap - 1))
		if (t->v[i].pid == pid)
			return e->procs[t->v[i].proc1 - 1];
	return NULL;
}

static void pid_slot_put(struct btt_pid_tab *t, uint32_t pid, uint32_t proc1)
{
	size_t i;

	for (i = tab_start(pid, t->cap); t->v[i].proc1; i = (i + 1) & (t->cap - 1))
		;
	t->v[i].pid = pid;
	t->v[i].proc1 = proc1;
}

/* Map pid (not in the table yet) to process p. */
static void pid_put(struct btt_engine *e, uint32_t pid, const struct btt_proc *p)
{
	struct btt_pid_tab *t = &e->pid_tab, n;
	size_t i;

	if (2 * (t->len + 1) > t->cap) {
		n.cap = t->cap ? 2 * t->cap : 256;
		n.len = t->len;
		n.v = bs_xcalloc(n.cap, sizeof(*n.v));
		for (i = 0; i < t->cap; i++)
			if (t->v[i].proc1)
				pid_slot_put(&n, t->v[i].pid, t->v[i].proc1);
		free(t->v);
		*t = n;
	}
	pid_slot_put(t, pid, (uint32_t)p->index + 1);
	t->len++;
}

const struct btt_proc *btt_engine_find_proc(const struct btt_engine *e, uint32_t pid)
{
	return pid_lookup(e, pid);
}

/* Names are hashed (a trace may hold a million); a hit is confirmed by strcmp. */
static struct btt_proc *find_name(const struct btt_engine *e, const char *name, uint64_t h)
{
	const struct btt_name_tab *t = &e->name_tab;
	size_t i;

	if (!t->len)
		return NULL;
	for (i = tab_start(h, t->cap); t->proc1[i]; i = (i + 1) & (t->cap - 1))
		if (!strcmp(e->procs[t->proc1[i] - 1]->name, name))
			return e->procs[t->proc1[i] - 1];
	return NULL;
}

static void name_slot_put(struct btt_name_tab *t, uint64_t h, uint32_t proc1)
{
	size_t i;

	for (i = tab_start(h, t->cap); t->proc1[i]; i = (i + 1) & (t->cap - 1))
		;
	t->proc1[i] = proc1;
}

/* Index process p (its name not in the table yet) by its name, of hash h. */
static void name_put(struct btt_engine *e, const struct btt_proc *p, uint64_t h)
{
	struct btt_name_tab *t = &e->name_tab, n;
	size_t i;

	if (2 * (t->len + 1) > t->cap) {	/* the slots hold no hash: names are hashed again */
		n.cap = t->cap ? 2 * t->cap : 256;
		n.len = t->len;
		n.proc1 = bs_xcalloc(n.cap, sizeof(*n.proc1));
		for (i = 0; i < t->cap; i++)
			if (t->proc1[i])
				name_slot_put(&n, name_hash(e->procs[t->proc1[i] - 1]->name),
					      t->proc1[i]);
		free(t->proc1);
		*t = n;
	}
	name_slot_put(t, h, (uint32_t)p->index + 1);
	t->len++;
}

static struct btt_proc *proc_create(struct btt_engine *e, uint32_t pid, const char *name,
				   bool named, uint64_t h)
{
	struct btt_proc *p = bs_xcalloc(1, sizeof(*p));

	p->pid = pid;
	snprintf(p->name, sizeof(p->name), "%s", name);	/* callers: at most BS_COMM_LEN */
	p->named = named;
	p->last_q = BTT_NONE;
	p->index = e->nprocs;
	if (e->o.all_data)	/* a trace may name a million processes: 448 bytes each */
		p->avgs = bs_xcalloc(1, sizeof(*p->avgs));
	BS_GROW(e->procs, e->procs_cap, (size_t)e->nprocs, 16);
	e->procs[e->nprocs++] = p;
	name_put(e, p, h);
	return p;
}

/* btt's add_process(): first name per pid wins; equal names share stats. */
struct btt_proc *btt_add_process(struct btt_engine *e, uint32_t pid, const char *name, bool named)
{
	struct btt_proc *p = pid_lookup(e, pid);
	uint64_t h;

	if (p)
		return p;
	h = name_hash(name);
	p = find_name(e, name, h);
	if (!p)
		p = proc_create(e, pid, name, named, h);
	pid_put(e, pid, p);
	return p;
}

/* btt's find_process(pid, NULL) past the cache: invents "pid%09u" for unnamed pids */
struct btt_proc *btt_find_process_slow(struct btt_engine *e, uint32_t pid)
{
	struct btt_pid_slot *c = &e->pid_cache[pid % BTT_PID_CACHE];
	struct btt_proc *p;
	char name[32];

	/* a pid's process never changes once known: cache it */
	if (c->proc && c->pid == pid) {
		p = c->proc;
	} else {
		p = pid_lookup(e, pid);
		if (!p) {
			snprintf(name, sizeof(name), "pid%09u", pid);
			p = btt_add_process(e, pid, name, false);
		}
		c->pid = pid;
		c->proc = p;
	}
	e->last_pid = pid;
	e->last_proc = p;
	return p;
}

void btt_engine_process_note(struct btt_engine *e, uint32_t pid, const char *comm, size_t len)
{
	btt_process_note(e, pid, comm, len);
}

void btt_process_note(struct btt_engine *e, uint32_t pid, const char *comm, size_t len)
{
	char name[BS_COMM_LEN + 1];
	size_t i;

	if (pid == 0) {
		btt_add_process(e, 0, "kernel", true);
		return;
	}
	if (len > BS_COMM_LEN)
		len = BS_COMM_LEN;
	for (i = 0; i < len && comm[i] && comm[i] != '/'; i++)
		name[i] = comm[i];
	name[i] = '\0';
	btt_add_process(e, pid, name, true);
}

static int cmp_proc_name(const void *a, const void *b)
{
	return strcmp((*(struct btt_proc *const *)a)->name, (*(struct btt_proc *const *)b)->name);
}

struct btt_proc **btt_engine_sorted_procs(struct btt_engine *e, int *n)
{
	struct btt_proc **v = bs_xcalloc(e->nprocs + 1, sizeof(*v));

	if (e->nprocs)
		memcpy(v, e->procs, e->nprocs * sizeof(*v));
	qsort(v, e->nprocs, sizeof(*v), cmp_proc_name);
	*n = e->nprocs;
	return v;
}
