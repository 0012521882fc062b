// SPDX-License-Identifier: GPL-2.0
/*
 * tag-by-pid - the reference tagging plugin: one tag per process, or per
 * group of processes (-g NAME:PID[,PID...]).
 *
 * Behaviour (docs/tags.md §The reference plugin):
 *   PROCESS note  remember "COMM (PID)" as the pid's label (grouped pids
 *                 keep their group's NAME);
 *   Q or D        map the pid to its group, if any; on first sight of the
 *                 pid/group allocate the next tag (0, 1, ...) and declare
 *                 it (NEW_TAG: NAME, "COMM (PID)" or "? (PID)"); TAG_IO;
 *   every event   END.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plugin_io.h"
#include "u32map.h"

#define PROG "tag-by-pid"
static const char *prog = PROG;

struct group {
	char *name;
	int64_t tag;		/* -1 until its first Q/D */
};

struct proc {
	char comm[BS_COMM_LEN + 1];
	int named;		/* a PROCESS note was seen */
	int64_t tag;		/* -1 until its first Q/D */
};

static struct group *groups;
static int ngroups;
static struct u32map group_of;	/* pid -> index in groups */
static struct u32map proc_of;	/* pid -> index in procs */
static struct proc *procs;
static uint32_t nprocs, procs_cap;
static uint32_t next_tag;

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [-g NAME:PID[,PID...]]...\n"
		"\n"
		"Tagging plugin for 'blkscope analyze --tag-plugin': reads blktrace records\n"
		"on stdin, answers on stdout (docs/tags.md).  Each process that queues (Q)\n"
		"or issues (D) I/O gets a tag labelled \"COMM (PID)\", or \"? (PID)\" when the\n"
		"trace has no PROCESS note for it.\n"
		"\n"
		"  -g, --group NAME:PID[,PID...]  put these pids into one tag named NAME\n"
		"                                 (repeatable; a pid may be in one group only)\n"
		"  -h, --help                     this text\n"
		"\n"
		"Examples:\n"
		"  blkscope analyze --tag-plugin 'tag-by-pid' sda\n"
		"  blkscope analyze --tag-plugin 'tag-by-pid -g db:812,813 -g backup:990' sda\n"
		"  blkscope tag-check tag-by-pid -g db:812,813 -- sda\n", prog);
}

static int bad_group(const char *arg, const char *why)
{
	fprintf(stderr, "%s: -g '%s': %s (expected NAME:PID[,PID...])\n", prog, arg, why);
	return -1;
}

static int add_group(const char *arg)
{
	const char *colon = strchr(arg, ':'), *p;
	struct group *g;
	bool fresh;

	if (!colon)
		return bad_group(arg, "no ':' after the name");
	if (colon == arg)
		return bad_group(arg, "empty name");
	if (colon - arg >= TAG_LABEL_MAX)
		return bad_group(arg, "name longer than 4095 bytes");
	if (!colon[1])
		return bad_group(arg, "no pid");
	g = realloc(groups, (ngroups + 1) * sizeof(*groups));
	if (!g)
		return bad_group(arg, "out of memory");
	groups = g;
	g = &groups[ngroups];
	g->name = strndup(arg, colon - arg);
	g->tag = -1;
	for (p = colon + 1; *p; ) {
		char *end;
		unsigned long pid;
		uint32_t *slot;

		errno = 0;
		pid = strtoul(p, &end, 10);
		if (end == p || *p == '-' || *p == '+' || errno || pid > UINT32_MAX ||
		    (*end && *end != ','))
			return bad_group(arg, "pids must be decimal numbers separated by ','");
		slot = u32map_put(&group_of, (uint32_t)pid, ngroups, &fresh);
		if (!slot)
			return bad_group(arg, "out of memory");
		if (!fresh && *slot != (uint32_t)ngroups) {
			fprintf(stderr, "%s: -g '%s': pid %lu is already in group '%s'\n",
				prog, arg, pid, groups[*slot].name);
			return -1;
		}
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return bad_group(arg, "trailing ','");
	}
	ngroups++;
	return 0;
}

static struct proc *proc_get(uint32_t pid)
{
	bool fresh;
	uint32_t *idx = u32map_put(&proc_of, pid, nprocs, &fresh);

	if (!idx)
		return NULL;
	if (fresh) {
		if (nprocs == procs_cap) {
			uint32_t cap = procs_cap ? procs_cap * 2 : 256;
			struct proc *p = realloc(procs, cap * sizeof(*p));

			if (!p)
				return NULL;
			procs = p;
			procs_cap = cap;
		}
		memset(&procs[nprocs], 0, sizeof(procs[0]));
		procs[nprocs].tag = -1;
		nprocs++;
	}
	return &procs[*idx];
}

static int on_process_note(const struct bs_trace *t, const uint8_t *pdu)
{
	size_t len;
	const uint8_t *comm = pio_note_payload(t, pdu, &len);
	struct proc *p;

	if (u32map_get(&group_of, t->pid))
		return 0;		/* grouped pids are labelled by the group */
	p = proc_get(t->pid);
	if (!p)
		return -1;
	if (len > BS_COMM_LEN)
		len = BS_COMM_LEN;
	memcpy(p->comm, comm, len);
	p->comm[len] = '\0';	/* the name is the payload up to its first NUL */
	p->named = 1;
	return 0;
}

static int on_io(struct plugin_io *io, const struct bs_trace *t)
{
	uint32_t *gi = u32map_get(&group_of, t->pid);
	char label[BS_COMM_LEN + 32];
	int64_t *tag;

	if (gi) {
		struct group *g = &groups[*gi];

		if (g->tag < 0) {
			g->tag = next_tag++;
			pio_new_tag(io, g->tag, g->name);
		}
		tag = &g->tag;
	} else {
		struct proc *p = proc_get(t->pid);

		if (!p)
			return -1;
		if (p->tag < 0) {
			p->tag = next_tag++;
			snprintf(label, sizeof(label), "%s (%u)", p->named ? p->comm : "?", t->pid);
			pio_new_tag(io, p->tag, label);
		}
		tag = &p->tag;
	}
	pio_tag_io(io, *tag);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct pio_plugin plugin = {
		.prog = PROG,
		.usage = usage,
		.add_group = add_group,
		.on_process_note = on_process_note,
		.on_io = on_io,
	};

	return pio_plugin_main(&plugin, argc, argv);
}
