// SPDX-License-Identifier: GPL-2.0
/*
 * gen_script.c - records from a text script on stdin (-w script), for
 * tests that need exact hand-made sequences.  One record per line, '#'
 * starts a comment:
 *
 *   TIME_NS CPU MAJ,MIN ACT FLAGS SECTOR BYTES PID [ARGS...]
 *
 * ACT: Q M F G S R D C P U UT I X B A, N (PROCESS note), m (MESSAGE note),
 *      TS (TIMESTAMP note: 1700000000 s, 0 ns)
 * FLAGS: any of R W D(discard) F(flush) U(fua) S(sync) A(ahead) M(meta),
 *      p (passthrough instead of FS on I/D/C/R), c or cID (cgroup flag: the
 *      PDU starts with cgroup id ID, default 1), '-' for none
 * ARGS: U/UT depth; X new sector; A FROM_MAJ,MIN FROM_SECTOR; N comm;
 *      m the message text (the remaining words joined by one space)
 *
 * Each CPU's records are written in time order (ties keep script order),
 * to BASE.blktrace.0 .. BASE.blktrace.<highest CPU used>.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_codec.h"
#include "gen.h"

#define MAX_ARGS	64
#define MAX_PDU		256

struct gen_srec {
	uint64_t time, sector;
	uint32_t dev, bytes, action, pid;
	int cpu;
	size_t order;
	uint16_t pdu_len;
	uint8_t pdu[MAX_PDU];
};

struct act_def {
	const char *name;
	uint32_t action;	/* basic action and category */
	int request;		/* gets FS or PC */
};

static const struct act_def acts[] = {
	{ "Q", BS_ACT_QUEUE, 0 },	{ "M", BS_ACT_BACKMERGE, 0 }, { "F", BS_ACT_FRONTMERGE, 0 },
	{ "G", BS_ACT_GETRQ, 0 },	{ "S", BS_ACT_SLEEPRQ, 0 },	{ "R", BS_ACT_REQUEUE, 1 },
	{ "D", BS_ACT_ISSUE, 1 },	{ "C", BS_ACT_COMPLETE, 1 },	{ "P", BS_ACT_PLUG, 0 },
	{ "U", BS_ACT_UNPLUG_IO, 0 },	{ "UT", BS_ACT_UNPLUG_TIMER, 0 }, { "I", BS_ACT_INSERT, 1 },
	{ "X", BS_ACT_SPLIT, 0 },	{ "B", BS_ACT_BOUNCE, 0 },	{ "A", BS_ACT_REMAP, 0 },
	{ "N", BS_NOTE_PROCESS, 0 },	{ "TS", BS_NOTE_TIMESTAMP, 0 }, { "m", BS_NOTE_MESSAGE, 0 },
};

static uint32_t flag_bits(const char *flags)
{
	static const char letters[] = "RWFSAMDU";
	static const uint32_t bits[] = { BS_TC_READ, BS_TC_WRITE, BS_TC_FLUSH, BS_TC_SYNC,
					 BS_TC_AHEAD, BS_TC_META, BS_TC_DISCARD, BS_TC_FUA };
	uint32_t cat = 0;

	for (const char *c = flags; *c; c++) {
		const char *p = strchr(letters, *c);

		if (p)
			cat |= bits[p - letters];
	}
	return cat;
}

static int parse_dev(const char *s, uint32_t *dev)
{
	unsigned int ma, mi;

	if (sscanf(s, "%u,%u", &ma, &mi) != 2)
		return -1;
	*dev = BS_MKDEV(ma, mi);
	return 0;
}

static void pdu_add(struct gen_srec *r, const void *p, size_t len)
{
	if (len > (size_t)(MAX_PDU - r->pdu_len))
		len = (size_t)(MAX_PDU - r->pdu_len);
	memcpy(r->pdu + r->pdu_len, p, len);
	r->pdu_len = (uint16_t)(r->pdu_len + len);
}

/* The cgroup id of FLAGS "...cID...": ID, 1 without digits (host order, as the kernel). */
static void cgroup_pdu(struct gen_srec *r, const char *flags)
{
	const char *c = strchr(flags, 'c');
	uint64_t id = 1;

	if (c && c[1] >= '0' && c[1] <= '9')
		id = strtoull(c + 1, NULL, 10);
	pdu_add(r, &id, sizeof(id));
}

/* The PDU of a note: comm, text or timestamp words (after the cgroup id, if any). */
static int note_pdu(struct gen_srec *r, const char *act, char **args, int nargs)
{
	if (!strcmp(act, "N")) {
		char comm[BS_COMM_LEN] = { 0 };	/* NUL-padded, not always terminated */
		size_t len;

		if (nargs < 1)
			return -1;
		len = strlen(args[0]);
		memcpy(comm, args[0], len < sizeof(comm) ? len : sizeof(comm));
		pdu_add(r, comm, sizeof(comm));
	} else if (!strcmp(act, "TS")) {
		uint32_t w[2] = { 1700000000u, 0 };

		pdu_add(r, w, sizeof(w));
	} else {
		for (int i = 0; i < nargs; i++) {
			if (i)
				pdu_add(r, " ", 1);
			pdu_add(r, args[i], strlen(args[i]));
		}
	}
	return 0;
}

/* The big-endian PDU of U, UT, X and A. */
static int event_pdu(struct gen_srec *r, const char *act, char **args, int nargs)
{
	uint8_t b[16];
	uint32_t from;

	if (!strcmp(act, "U") || !strcmp(act, "UT") || !strcmp(act, "X")) {
		if (nargs < 1)
			return -1;
		bs_put_be64(b, strtoull(args[0], NULL, 0));
		pdu_add(r, b, 8);
	} else if (!strcmp(act, "A")) {
		if (nargs < 2 || parse_dev(args[0], &from) < 0)
			return -1;
		bs_put_be32(b, from);
		bs_put_be32(b + 4, r->dev);
		bs_put_be64(b + 8, strtoull(args[1], NULL, 0));
		pdu_add(r, b, 16);
	}
	return 0;
}

static int parse_line(struct gen_srec *r, char *line)
{
	char *w[8 + MAX_ARGS], *save = NULL;
	const struct act_def *a = NULL;
	int n = 0;

	for (char *t = strtok_r(line, " \t\r\n", &save); t && n < 8 + MAX_ARGS;
	     t = strtok_r(NULL, " \t\r\n", &save))
		w[n++] = t;
	if (n == 0)
		return 0;
	if (n < 8 || parse_dev(w[2], &r->dev) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (!strcmp(acts[i].name, w[3]))
			a = &acts[i];
	if (!a)
		return -1;
	r->time = strtoull(w[0], NULL, 0);
	r->cpu = atoi(w[1]);
	r->sector = strtoull(w[5], NULL, 0);
	r->bytes = (uint32_t)strtoul(w[6], NULL, 0);
	r->pid = (uint32_t)strtoul(w[7], NULL, 0);
	r->action = a->action | (strchr(w[4], 'c') ? BS_TA_CGROUP : 0);
	r->pdu_len = 0;
	if (r->action & BS_TA_CGROUP)
		cgroup_pdu(r, w[4]);
	if (bs_is_note(a->action))
		return note_pdu(r, w[3], w + 8, n - 8) < 0 ? -1 : 1;
	r->action |= BS_TC_ACT(flag_bits(w[4]));
	if (a->request)
		r->action |= BS_TC_ACT(strchr(w[4], 'p') ? BS_TC_PC : BS_TC_FS);
	return event_pdu(r, w[3], w + 8, n - 8) < 0 ? -1 : 1;
}

static int by_cpu_time(const void *a, const void *b)
{
	const struct gen_srec *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Reads the script; sets g->ncpus.  -1 (said on stderr) on a bad line. */
int gen_script_read(struct gen *g, FILE *in)
{
	struct gen_script *s = &g->script;
	char line[4096];
	int lineno = 0, maxcpu = 0;

	while (fgets(line, sizeof(line), in)) {
		char *hash = strchr(line, '#');
		struct gen_srec r;
		int rc;

		lineno++;
		if (hash)
			*hash = '\0';
		rc = parse_line(&r, line);
		if (rc == 0)
			continue;
		if (rc < 0 || r.cpu < 0 || r.cpu >= GEN_MAX_CPUS) {
			fprintf(stderr, "bs-gen-trace: script line %d: not a valid record\n",
				lineno);
			return -1;
		}
		if (s->n == s->cap) {
			size_t cap = s->cap ? s->cap * 2 : 256;
			struct gen_srec *v = realloc(s->v, cap * sizeof(*v));

			if (!v)
				return -1;
			s->v = v;
			s->cap = cap;
		}
		r.order = s->n;
		s->v[s->n++] = r;
		if (r.cpu > maxcpu)
			maxcpu = r.cpu;
	}
	g->ncpus = maxcpu + 1;
	return 0;
}

void gen_script(struct gen *g)
{
	struct gen_script *s = &g->script;

	qsort(s->v, s->n, sizeof(*s->v), by_cpu_time);
	for (size_t i = 0; i < s->n; i++) {
		struct gen_srec *r = &s->v[i];

		g->now = r->time;
		gen_emit(g, 0, r->cpu, r->dev, r->sector, r->bytes, r->action, r->pid, 0, r->pdu,
			 r->pdu_len);
	}
	free(s->v);
	s->v = NULL;
}
