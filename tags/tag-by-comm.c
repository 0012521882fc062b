// SPDX-License-Identifier: GPL-2.0
/*
 * tag-by-comm - tagging plugin: one tag per command name (all processes
 * called "postgres" share a tag), or per group of command names
 * (-g NAME:COMM[,COMM...]).
 *
 * The command name of a pid comes from the trace's PROCESS notes (the
 * latest note for the pid wins, so an exec that renames a task moves its
 * later I/O to the new name).  Q and D events are tagged by the name of
 * their pid; a pid without a note gets the tag "?".  Every event ends
 * with END.
 *
 * A -g command name matches a process name whole, or its part before a
 * '/', as btt and the reports show the name: "jbd2" takes jbd2/sda1-8,
 * "kworker" every kworker/u8:2.  A -g name that no I/O came from is named
 * on stderr at the end (a typo, or a name the trace spells otherwise).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plugin_io.h"
#include "u32map.h"

#define PROG "tag-by-comm"
static const char *prog = PROG;

#define COMM_MAX (BS_COMM_LEN - 1)	/* the kernel keeps 15 characters and a NUL */

/* A command name and what it maps to. */
struct name {
	char comm[BS_COMM_LEN + 1];
	int group;		/* index in groups, or -1 */
	int64_t tag;		/* -1 until first seen on a Q/D (ungrouped names) */
	bool matched;		/* a -g name: some I/O came from it */
};

struct group {
	char *label;
	int64_t tag;
};

static struct name *names;
static uint32_t nnames, names_cap;
static uint32_t *name_slots;	/* open addressing, index+1 into names; 0 = free */
static uint32_t slots_cap;
static struct group *groups;
static int ngroups;
static struct u32map name_of_pid;	/* pid -> index in names */
static uint32_t next_tag;

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [-g NAME:COMM[,COMM...]]...\n"
		"\n"
		"Tagging plugin for 'blkscope analyze --tag-plugin': one tag per command\n"
		"name, taken from the trace's PROCESS notes; I/O of pids without a note is\n"
		"tagged \"?\".\n"
		"\n"
		"  -g, --group NAME:COMM[,COMM...]  put these command names into one tag\n"
		"                                   named NAME (repeatable); COMM matches a\n"
		"                                   name whole or up to a '/', as the reports\n"
		"                                   show it (jbd2 takes jbd2/sda1-8); a COMM\n"
		"                                   no I/O came from is named on stderr\n"
		"  -h, --help                       this text\n"
		"\n"
		"Examples:\n"
		"  blkscope analyze --tag-plugin tag-by-comm sda\n"
		"  blkscope analyze --tag-plugin "
		"'tag-by-comm -g writeback:kworker/u8:1,jbd2/sda1-8' sda\n", prog);
}

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static int grow_slots(void)
{
	uint32_t cap = slots_cap ? slots_cap * 2 : 256, i;
	uint32_t *s = calloc(cap, sizeof(*s));

	if (!s)
		return -1;
	for (i = 0; i < nnames; i++) {
		uint32_t j = hash_name(names[i].comm) & (cap - 1);

		while (s[j])
			j = (j + 1) & (cap - 1);
		s[j] = i + 1;
	}
	free(name_slots);
	name_slots = s;
	slots_cap = cap;
	return 0;
}

/* Index of the entry for comm, or -1 if there is none. */
static int64_t name_find(const char *comm)
{
	uint32_t j;

	if (!slots_cap)
		return -1;
	for (j = hash_name(comm) & (slots_cap - 1); name_slots[j]; j = (j + 1) & (slots_cap - 1))
		if (!strcmp(names[name_slots[j] - 1].comm, comm))
			return name_slots[j] - 1;
	return -1;
}

/* Index of the entry for comm, created if new; -1 on ENOMEM. */
static int64_t name_get(const char *comm)
{
	uint32_t j;

	if ((nnames + 1) * 2 > slots_cap && grow_slots() < 0)
		return -1;
	for (j = hash_name(comm) & (slots_cap - 1); name_slots[j]; j = (j + 1) & (slots_cap - 1))
		if (!strcmp(names[name_slots[j] - 1].comm, comm))
			return name_slots[j] - 1;
	if (nnames == names_cap) {
		uint32_t cap = names_cap ? names_cap * 2 : 128;
		struct name *n = realloc(names, cap * sizeof(*n));

		if (!n)
			return -1;
		names = n;
		names_cap = cap;
	}
	memset(&names[nnames], 0, sizeof(names[0]));
	strcpy(names[nnames].comm, comm);
	names[nnames].group = -1;
	names[nnames].tag = -1;
	name_slots[j] = nnames + 1;
	return nnames++;
}

static int bad_group(const char *arg, const char *why)
{
	fprintf(stderr, "%s: -g '%s': %s (expected NAME:COMM[,COMM...])\n", prog, arg, why);
	return -1;
}

static int add_group(const char *arg)
{
	const char *colon = strchr(arg, ':'), *p;
	struct group *g;

	if (!colon)
		return bad_group(arg, "no ':' after the name");
	if (colon == arg)
		return bad_group(arg, "empty name");
	if (colon - arg >= TAG_LABEL_MAX)
		return bad_group(arg, "name longer than 4095 bytes");
	if (!colon[1])
		return bad_group(arg, "no command name");
	g = realloc(groups, (ngroups + 1) * sizeof(*groups));
	if (!g)
		return bad_group(arg, "out of memory");
	groups = g;
	groups[ngroups].label = strndup(arg, colon - arg);
	groups[ngroups].tag = -1;
	for (p = colon + 1; ; ) {
		size_t len = strcspn(p, ",");
		char comm[BS_COMM_LEN + 1];
		int64_t n;

		if (!len)
			return bad_group(arg, "empty command name");
		if (len > COMM_MAX) {
			fprintf(stderr, "%s: -g '%s': '%.*s' is longer than the kernel's "
				"%d-character command names\n", prog, arg, (int)len, p, COMM_MAX);
			return -1;
		}
		memcpy(comm, p, len);
		comm[len] = '\0';
		n = name_get(comm);
		if (n < 0)
			return bad_group(arg, "out of memory");
		if (names[n].group >= 0 && names[n].group != ngroups) {
			fprintf(stderr, "%s: -g '%s': '%s' is already in group '%s'\n",
				prog, arg, comm, groups[names[n].group].label);
			return -1;
		}
		names[n].group = ngroups;
		p += len;
		if (!*p)
			break;
		p++;
	}
	ngroups++;
	return 0;
}

static int on_process_note(const struct bs_trace *t, const uint8_t *pdu)
{
	size_t len;
	const uint8_t *payload = pio_note_payload(t, pdu, &len);
	char comm[BS_COMM_LEN + 1];
	bool fresh;
	int64_t n;
	uint32_t *slot;

	if (len > BS_COMM_LEN)
		len = BS_COMM_LEN;
	memcpy(comm, payload, len);
	comm[len] = '\0';
	n = name_get(comm);
	if (n < 0)
		return -1;
	if (names[n].group < 0 && strchr(comm, '/')) {	/* "jbd2/sda1-8": -g jbd2 takes it */
		int64_t cut;

		*strchr(comm, '/') = '\0';
		cut = name_find(comm);
		if (cut >= 0 && names[cut].group >= 0)
			n = cut;
	}
	slot = u32map_put(&name_of_pid, t->pid, n, &fresh);
	if (!slot)
		return -1;
	*slot = n;
	return 0;
}

static int on_io(struct plugin_io *io, const struct bs_trace *t)
{
	uint32_t *ni = u32map_get(&name_of_pid, t->pid);
	int64_t n = ni ? (int64_t)*ni : name_get("?");
	int64_t *tag;
	const char *label;

	if (n < 0)
		return -1;
	if (names[n].group >= 0) {
		tag = &groups[names[n].group].tag;
		label = groups[names[n].group].label;
		names[n].matched = true;
	} else {
		tag = &names[n].tag;
		label = names[n].comm;
	}
	if (*tag < 0) {
		*tag = next_tag++;
		pio_new_tag(io, *tag, label);
	}
	pio_tag_io(io, *tag);
	return 0;
}

/* -g names no I/O came from: one line each, with how names match. */
static void at_end(void)
{
	for (uint32_t i = 0; i < nnames; i++)
		if (names[i].group >= 0 && !names[i].matched)
			fprintf(stderr, "%s: -g %s: no I/O from a process named '%s' "
				"(a name matches whole, or up to "
				"a '/' as the reports show it: 'jbd2' takes 'jbd2/sda1-8')\n", prog,
				groups[names[i].group].label, names[i].comm);
}

int main(int argc, char **argv)
{
	static const struct pio_plugin plugin = {
		.prog = PROG,
		.usage = usage,
		.add_group = add_group,
		.on_process_note = on_process_note,
		.on_io = on_io,
		.at_end = at_end,
	};

	return pio_plugin_main(&plugin, argc, argv);
}
