// SPDX-License-Identifier: GPL-2.0
/*
 * report_cgroup_names.c - cgroup id -> path from the trace's cgroup notes
 * (report_cgroup_names.h).
 */
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "report_cgroup_names.h"

void report_cgroup_names_add(struct report_cgroup_names *c, uint64_t id, const char *path,
			     size_t len)
{
	bool added;
	char *p;

	/* every CPU's file repeats the note: the first one names the id */
	bs_hash_put(&c->idx, id, (uint64_t)c->n, &added);
	if (!added)
		return;
	p = bs_xmalloc(len + 1);
	memcpy(p, path, len);
	p[len] = '\0';
	c->path = bs_xreallocarray(c->path, c->n + 1, sizeof(*c->path));
	c->path[c->n++] = p;
}

const char *report_cgroup_names_get(const struct report_cgroup_names *c, uint64_t id)
{
	const uint64_t *i = bs_hash_get(&c->idx, id);

	return i ? c->path[*i] : NULL;
}

void report_cgroup_names_free(struct report_cgroup_names *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->path[i]);
	free(c->path);
	bs_hash_free(&c->idx);
	memset(c, 0, sizeof(*c));
}
