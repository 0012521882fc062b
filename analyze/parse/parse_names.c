// SPDX-License-Identifier: GPL-2.0
/*
 * parse_names.c - pid -> command name, fed by PROCESS notes at read time.
 * Like blkparse's ppm hash: the first name registered for a pid stays, the
 * name keeps at most 15 characters, and -t / -s register "unknown" for a
 * pid they meet without a name (so later lines print [unknown], not
 * [(null)]).  format/bs_pidnames cannot express that last rule, hence this
 * small table of our own.
 */
#include <stdlib.h>
#include <string.h>
#include "parse.h"

#define NAMES_BUCKETS 1024u

const char ps_null_name[16] = "(null)";

void names_init(struct parse *ps)
{
	ps->names = calloc(NAMES_BUCKETS, sizeof(*ps->names));
	ps->names_mask = NAMES_BUCKETS - 1;
}

void names_free(struct parse *ps)
{
	unsigned int b;

	for (b = 0; ps->names && b <= ps->names_mask; b++)
		while (ps->names[b]) {
			struct ps_name *n = ps->names[b];

			ps->names[b] = n->next;
			free(n);
		}
	free(ps->names);
	ps->names = NULL;
}

static unsigned int pid_hash(uint32_t pid)
{
	return (pid * 2654435761u) >> 16;
}

struct ps_name *names_find(struct parse *ps, uint32_t pid)
{
	struct ps_name *n = ps->names[pid_hash(pid) & ps->names_mask];

	for (; n; n = n->next)
		if (n->pid == pid)
			return n;
	return NULL;
}

struct ps_name *names_add(struct parse *ps, uint32_t pid, const char *comm, size_t len)
{
	struct ps_name *n = names_find(ps, pid);
	unsigned int b;

	if (n)
		return n;
	n = calloc(1, sizeof(*n));
	if (!n)
		abort();
	if (len > sizeof(n->comm) - 1)
		len = sizeof(n->comm) - 1;
	memcpy(n->comm, comm, len);
	n->len = (uint8_t)strlen(n->comm);
	n->pid = pid;
	b = pid_hash(pid) & ps->names_mask;
	n->next = ps->names[b];
	ps->names[b] = n;
	return n;
}
