// SPDX-License-Identifier: GPL-2.0
/*
 * parse_names.c - pid -> command name, fed by PROCESS notes at read time.
 * Like blkparse's ppm hash: the first name registered for a pid stays, the
 * name keeps at most 15 characters, and -t / -s register "unknown" for a
 * pid they meet without a name (so later lines print [unknown], not
 * [(null)]).  format/bs_pidnames cannot express that last rule, hence this
 * small table of our own.  The entries are allocated one by one (their
 * addresses are kept by the per-process statistics) and found through a
 * bs_hash, so a trace naming a million pids stays linear.
 */
#include <stdlib.h>
#include <string.h>
#include "bs_alloc.h"
#include "parse_priv.h"

const char parse_null_name[16] = "(null)";

void parse_names_free(struct parse_ctx *ps)
{
	struct bs_hash *h = &ps->names;

	for (size_t i = 0; i < h->cap; i++)
		if (h->used[i])
			free((void *)(uintptr_t)h->vals[i]);
	bs_hash_free(h);
	memset(ps->name_cache, 0, sizeof(ps->name_cache));
}

struct parse_name *parse_names_find(struct parse_ctx *ps, uint32_t pid)
{
	uint64_t *v = bs_hash_get(&ps->names, pid);

	return v ? (struct parse_name *)(uintptr_t)*v : NULL;
}

struct parse_name *parse_names_add(struct parse_ctx *ps, uint32_t pid, const char *comm, size_t len)
{
	bool inserted;
	uint64_t *v = bs_hash_put(&ps->names, pid, 0, &inserted);
	struct parse_name *n;

	if (!inserted)
		return (struct parse_name *)(uintptr_t)*v;
	n = bs_xcalloc(1, sizeof(*n));
	if (len > sizeof(n->comm) - 1)
		len = sizeof(n->comm) - 1;
	memcpy(n->comm, comm, len);
	n->len = (uint8_t)strlen(n->comm);
	n->pid = pid;
	*v = (uint64_t)(uintptr_t)n;
	return n;
}
