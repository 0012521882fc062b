// SPDX-License-Identifier: GPL-2.0
/*
 * rec_attr_stacks.c - record --stacks: the stacks the BPF side stored in its
 * stack tables, turned into function names on this host, once per
 * distinct stack, and deduplicated by their names (the same code path
 * from two processes, at two load addresses, is one stack).
 *
 * Kernel frames: /proc/kallsyms; the frames of the tracing machinery on
 * top (the BPF program, the tracepoint's call) are left out, so a stack
 * starts at the function that queued the bio.  User frames come as
 * (build id, file offset): the binary with that build id is found among
 * the files mapped by the process (read at its first stack, while it
 * still runs), by any process seen before, by the recorder itself (libc),
 * or, for a process that already exited, its executable (the slot names
 * its inode).  A frame with no symbol is "binary+0xOFFSET"; with no
 * binary, "[build-id HEX+0xOFFSET]".  Nothing is guessed: a user stack
 * that stops before a thread's or process's first function is flagged
 * (frames without frame pointers end the walk).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "rec_attr.h"

#define MAX_ELFS	512	/* binaries held with their symbols */
#define MAX_TGIDS	(1u << 16)	/* processes whose mappings were read */
#define MAX_STACKS	(1u << 20)	/* distinct stacks defined */
#define MAX_SEEN	(1u << 22)	/* (kernel, user, process) stack ids remembered */

struct stack_def {
	uint64_t hash;
	uint32_t flags;
	uint16_t nkernel, nuser;
	uint32_t first;		/* index of its first frame in frames[] */
};

struct rec_stacks {
	struct rec_ksyms *ksyms;
	struct rec_fileid *files;
	int kfd, ufd;
	/* build id -> loaded binary (index in elfs + 1; 0 in a slot: tried, none) */
	struct bs_hash by_bid;
	struct rec_elf **elfs;
	size_t nelfs;
	struct bs_hash mapped;	/* (dev, inode) of files whose build id was read */
	struct bs_hash tgids;	/* processes whose mappings were read */
	struct bs_hash by_pair;	/* key of (kernel id, user id, tgid) -> index in seen */
	struct seen_slot {
		int32_t kstack, ustack;
		uint32_t tgid;
		uint64_t id_value;	/* the stack's id */
	} *seen;
	size_t nseen;
	struct bs_hash by_text;	/* hash of the names -> stack id (chained through probing) */
	struct stack_def *defs;
	size_t ndefs, defs_cap;
	char **frames;		/* every defined stack's frame names */
	size_t nframes, frames_cap;
	/* the stack being made */
	char *cur[2 * BS_NAMES_FRAMES_MAX];
	struct bs_names_frame out[2 * BS_NAMES_FRAMES_MAX];
	struct bs_names_stack def;
};

static uint64_t bid_key(const uint8_t *bid, uint32_t len)
{
	return bs_hash_bytes(bid, len);
}

static void add_elf(struct rec_stacks *st, struct rec_elf *el)
{
	uint32_t len;
	const uint8_t *bid = rec_elf_build_id(el, &len);
	bool fresh;
	uint64_t *v;

	if (!len || st->nelfs >= MAX_ELFS) {
		rec_elf_free(el);
		return;
	}
	v = bs_hash_put(&st->by_bid, bid_key(bid, len), 0, &fresh);
	if (!fresh && *v) {
		rec_elf_free(el);
		return;
	}
	st->elfs = realloc(st->elfs, (st->nelfs + 1) * sizeof(*st->elfs));
	if (!st->elfs) {
		st->nelfs = 0;
		rec_elf_free(el);
		return;
	}
	st->elfs[st->nelfs++] = el;
	*bs_hash_get(&st->by_bid, bid_key(bid, len)) = st->nelfs;
}

/* One mapped file: its build id, and its symbols if the id is new. */
static void take_file(struct rec_stacks *st, const char *open_path, const char *shown, uint64_t key)
{
	uint8_t bid[REC_BUILD_ID_MAX];
	uint32_t len = 0;
	uint64_t *v;
	int fd;

	if (bs_hash_get(&st->mapped, key))
		return;
	bs_hash_put(&st->mapped, key, 1, NULL);
	fd = open(open_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!rec_elf_build_id_fd(fd, bid, &len) &&
	    (!(v = bs_hash_get(&st->by_bid, bid_key(bid, len))) || !*v)) {
		struct rec_elf *el = rec_elf_open(shown, fd);

		if (el)
			add_elf(st, el);
	}
	close(fd);
}

/*
 * The executable files a process maps (/proc/PID/maps; 0: ourselves), each read once per recording.
 */
static void scan_process(struct rec_stacks *st, uint32_t pid)
{
	char path[64], line[4096 + 256], file[4096], perms[8], via[128];
	unsigned long long start, end, ino;
	unsigned int maj, min;
	FILE *f;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/maps");
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %7s %*x %x:%x %llu %4095[^\n]", &start, &end, perms,
			   &maj, &min, &ino, file) != 7 ||
		    !strchr(perms, 'x') || !ino || file[0] != '/')
			continue;
		/* through map_files: the very file mapped, even in another mount namespace */
		if (pid)
			snprintf(via, sizeof(via), "/proc/%u/map_files/%llx-%llx", pid, start, end);
		take_file(st, pid ? via : file, file,
			  bs_hash_mix(((uint64_t)maj << 40) ^ ((uint64_t)min << 20)) ^ ino);
	}
	fclose(f);
}

struct rec_stacks *rec_stacks_new(struct rec_ksyms *k, struct rec_fileid *files, int kfd, int ufd)
{
	struct rec_stacks *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->ksyms = k;
	st->files = files;
	st->kfd = kfd;
	st->ufd = ufd;
	scan_process(st, 0);	/* our own libraries: libc and the loader are everybody's */
	return st;
}

void rec_stacks_free(struct rec_stacks *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nelfs; i++)
		rec_elf_free(st->elfs[i]);
	free(st->elfs);
	for (i = 0; i < st->nframes; i++)
		free(st->frames[i]);
	free(st->frames);
	free(st->defs);
	bs_hash_free(&st->by_bid);
	bs_hash_free(&st->mapped);
	bs_hash_free(&st->tgids);
	bs_hash_free(&st->by_pair);
	free(st->seen);
	bs_hash_free(&st->by_text);
	free(st);
}

uint64_t rec_stacks_count(const struct rec_stacks *st)
{
	return st->ndefs;
}

/* ---- making one stack ---- */

static int put_frame(struct rec_stacks *st, int n, const char *fmt, const char *a, uint64_t b)
{
	char buf[BS_NAMES_FRAME_MAX + 1];

	snprintf(buf, sizeof(buf), fmt, a, (unsigned long long)b);
	st->cur[n] = strdup(buf);
	return st->cur[n] ? n + 1 : n;
}

/*
 * The tracing machinery above the function that queued the bio: the BPF
 * program itself (JIT code: in no kernel symbol, or "bpf_prog_..." when
 * the kernel lists programs) and the tracepoint's own frames.
 */
#define TRACING_FRAMES_MAX 8
static bool tracing_frame(const char *name)
{
	return !strncmp(name, "bpf_", 4) || !strncmp(name, "__bpf_", 6) ||
	       !strncmp(name, "__traceiter_", 12) || strstr(name, " [bpf]");
}

/*
 * How many frames on top belong to the tracing machinery (the BPF program, the tracepoint's call).
 */
static int tracing_depth(struct rec_stacks *st, const uint64_t *ips)
{
	int i, skip = 0;

	for (i = 0; i < TRACING_FRAMES_MAX && ips[i]; i++) {
		const char *name = rec_ksyms_name(st->ksyms, ips[i] - (i > 0));

		if (name && tracing_frame(name))
			skip = i + 1;
	}
	return skip;
}

static int kernel_frames(struct rec_stacks *st, int32_t id, int n)
{
	uint64_t ips[BR_KSTACK_DEPTH] = { 0 };
	int i;

	if (id < 0 || bpf_map_lookup_elem(st->kfd, &id, ips))
		return n;
	for (i = tracing_depth(st, ips); i < BR_KSTACK_DEPTH && ips[i] && n < BS_NAMES_FRAMES_MAX;
	     i++) {
		/* a return address: the call is the byte before it */
		const char *name = rec_ksyms_name(st->ksyms, ips[i] - (i > 0));

		n = put_frame(st, n, "%s", name ? name : "[unknown]", 0);
	}
	return n;
}

static const struct rec_elf *elf_of(struct rec_stacks *st, const unsigned char *bid)
{
	uint64_t *v = bs_hash_get(&st->by_bid, bid_key(bid, 20));

	return v && *v ? st->elfs[*v - 1] : NULL;
}

/* A process that already exited: its executable, if it has the build id we lack. */
static void try_exe(struct rec_stacks *st, const struct br_attr_slot *s)
{
	char path[4096];
	uint32_t flags;

	if (!s->exe_ino || !st->files ||
	    rec_fileid_path(st->files, s->exe_dev, s->exe_ino, 0, path, sizeof(path), &flags))
		return;
	take_file(st, path, path, bs_hash_mix(((uint64_t)s->exe_dev << 32) ^ 0x5a5a) ^ s->exe_ino);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static void hex(char *out, const unsigned char *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

/*
 * Did the frame-pointer walk get to the bottom of the stack?  It did when
 * it ends in a thread's or process's first function (by name, where the
 * binary has the symbol), or past main (in the C library's start code,
 * whose local symbols Debian's libc does not export); it did not when it
 * ends in an address of no file (a frame pointer register that held
 * something else), after one frame, or at the table's depth.
 */
static bool walk_complete(const char *last, bool last_valid, const char *before_last, int nframes)
{
	static const char *const starts[] = {
		"_start", "__libc_start_main", "__libc_start_call_main", "start_thread", "clone",
		"clone3", "__clone", "__clone3", "__clone_internal", "thread_start",
	};
	size_t i;

	if (!nframes || !last_valid || nframes >= BR_USTACK_DEPTH)
		return false;
	for (i = 0; last && i < sizeof(starts) / sizeof(starts[0]); i++)
		if (!strcmp(last, starts[i]))
			return true;
	return (last && !strcmp(last, "main")) || (before_last && !strcmp(before_last, "main"));
}

static int user_frames(struct rec_stacks *st, const struct br_attr_slot *s, int n, bool *complete)
{
	struct bpf_stack_build_id fr[BR_USTACK_DEPTH];
	uint64_t key = (uint64_t)(uint32_t)s->ustack << 32 | s->tgid;
	const char *last = NULL, *before_last = NULL;
	bool exe_tried = false, last_valid = false;
	int i;

	*complete = false;
	if (s->ustack < 0 || bpf_map_lookup_elem(st->ufd, &key, fr))
		return n;
	for (i = 0; i < BR_USTACK_DEPTH && fr[i].status != BPF_STACK_BUILD_ID_EMPTY &&
		    n < 2 * BS_NAMES_FRAMES_MAX; i++) {
		uint64_t off = fr[i].offset - (i > 0);	/* return addresses: the call before */
		const struct rec_elf *el;
		const char *sym;
		char h[41];

		before_last = last;
		last = NULL;
		last_valid = fr[i].status == BPF_STACK_BUILD_ID_VALID;
		if (!last_valid) {	/* no build id: an address in no file */
			n = put_frame(st, n, "%s", "[unknown]", 0);
			continue;
		}
		el = elf_of(st, fr[i].build_id);
		if (!el && !exe_tried) {
			exe_tried = true;
			try_exe(st, s);
			el = elf_of(st, fr[i].build_id);
		}
		sym = el ? rec_elf_symbol(el, off) : NULL;
		if (sym)
			n = put_frame(st, n, "%s", sym, 0);
		else if (el)
			n = put_frame(st, n, "%s+0x%llx", base_name(rec_elf_path(el)), off);
		else {
			hex(h, fr[i].build_id, 20);
			n = put_frame(st, n, "[build-id %s+0x%llx]", h, off);
		}
		last = sym;
	}
	*complete = walk_complete(last, last_valid, before_last, i);
	return n;
}

static uint64_t names_hash(struct rec_stacks *st, int n, uint32_t flags, int nk)
{
	uint64_t h = bs_hash_mix(((uint64_t)flags << 32) | (uint32_t)nk);
	int i;

	for (i = 0; i < n; i++)
		h = bs_hash_mix(h ^ bs_hash_bytes(st->cur[i], strlen(st->cur[i])));
	return h;
}

static bool same_def(const struct rec_stacks *st, const struct stack_def *d, int n, uint32_t flags,
		     int nk)
{
	int i;

	if (d->flags != flags || d->nkernel != nk || d->nkernel + d->nuser != n)
		return false;
	for (i = 0; i < n; i++)
		if (strcmp(st->frames[d->first + i], st->cur[i]))
			return false;
	return true;
}

static void free_cur(struct rec_stacks *st, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(st->cur[i]);
}

/* The stack in cur[0..n): an existing id, or a new definition (takes the names). */
static uint32_t intern(struct rec_stacks *st, int n, int nk, uint32_t flags, bool *is_new)
{
	uint64_t h = names_hash(st, n, flags, nk), k;
	uint64_t *v;
	struct stack_def *d;
	int i;

	for (k = h;; k = bs_hash_mix(k + 1)) {	/* a collision probes the next key */
		v = bs_hash_get(&st->by_text, k);
		if (!v)
			break;
		if (same_def(st, &st->defs[*v - 1], n, flags, nk)) {
			free_cur(st, n);
			return (uint32_t)*v;
		}
	}
	if (st->ndefs >= MAX_STACKS || (st->ndefs == st->defs_cap &&
	    !(st->defs = realloc(st->defs, (st->defs_cap = st->defs_cap ? 2 * st->defs_cap : 256) *
				 sizeof(*st->defs)))))
		goto full;
	if (st->nframes + (size_t)n > st->frames_cap) {
		size_t cap = st->frames_cap ? 2 * st->frames_cap : 4096;
		char **f;

		while (cap < st->nframes + (size_t)n)
			cap *= 2;
		f = realloc(st->frames, cap * sizeof(*f));
		if (!f)
			goto full;
		st->frames = f;
		st->frames_cap = cap;
	}
	d = &st->defs[st->ndefs++];
	*d = (struct stack_def){ h, flags, (uint16_t)nk, (uint16_t)(n - nk),
				 (uint32_t)st->nframes };
	for (i = 0; i < n; i++)
		st->frames[st->nframes++] = st->cur[i];
	bs_hash_put(&st->by_text, k, st->ndefs, NULL);
	*is_new = true;
	return (uint32_t)st->ndefs;
full:
	free_cur(st, n);
	return 0;
}

const struct bs_names_stack *rec_stacks_def(struct rec_stacks *st, uint32_t id)
{
	const struct stack_def *d = &st->defs[id - 1];
	int i, n = d->nkernel + d->nuser;

	for (i = 0; i < n; i++) {
		const char *name = st->frames[d->first + i];
		size_t len = strlen(name);

		st->out[i].name = name;
		st->out[i].len = (uint16_t)(len < BS_NAMES_FRAME_MAX ? len : BS_NAMES_FRAME_MAX);
	}
	st->def = (struct bs_names_stack){ id, d->flags, d->nkernel, d->nuser, st->out };
	return &st->def;
}

/*
 * The stack ids of a slot seen before: (kernel id, user id, tgid), exact
 * (a user stack's id names addresses: the same one in two processes may be
 * other code).  Hashed, a collision probing the next key.
 */
static uint64_t slot_key(const struct br_attr_slot *s)
{
	return bs_hash_mix((uint64_t)(uint32_t)s->kstack << 32 | (uint32_t)s->ustack) ^
	       bs_hash_mix(s->ustack >= 0 ? s->tgid : 0);
}

static bool slot_is(const struct seen_slot *e, const struct br_attr_slot *s)
{
	return e->kstack == s->kstack && e->ustack == s->ustack &&
	       (s->ustack < 0 || e->tgid == s->tgid);
}

static uint64_t *slot_get(struct rec_stacks *st, const struct br_attr_slot *s)
{
	uint64_t k, *v;

	for (k = slot_key(s); (v = bs_hash_get(&st->by_pair, k)); k = bs_hash_mix(k + 1))
		if (slot_is(&st->seen[*v], s))
			return &st->seen[*v].id_value;
	return NULL;
}

static void slot_put(struct rec_stacks *st, const struct br_attr_slot *s, uint32_t id)
{
	uint64_t k = slot_key(s);
	struct seen_slot *v;

	if (st->nseen >= MAX_SEEN)
		return;	/* symbolized again next time: slower, not wrong */
	while (bs_hash_get(&st->by_pair, k))
		k = bs_hash_mix(k + 1);
	v = realloc(st->seen, (st->nseen + 1) * sizeof(*st->seen));
	if (!v)
		return;
	st->seen = v;
	st->seen[st->nseen] = (struct seen_slot){ s->kstack, s->ustack, s->tgid, id };
	bs_hash_put(&st->by_pair, k, st->nseen++, NULL);
}

uint32_t rec_stacks_get(struct rec_stacks *st, const struct br_attr_slot *s)
{
	uint64_t *v;
	bool kthread = s->flags & BR_ATTR_KTHREAD, complete, is_new = false;
	uint32_t flags = 0, id;
	int nk, n;

	v = slot_get(st, s);
	if (v)
		return (uint32_t)*v;
	if (s->tgid && s->ustack >= 0 && st->tgids.len < MAX_TGIDS &&
	    !bs_hash_get(&st->tgids, s->tgid)) {
		bs_hash_put(&st->tgids, s->tgid, 1, NULL);
		scan_process(st, s->tgid);
	}
	nk = kernel_frames(st, s->kstack, 0);
	n = user_frames(st, s, nk, &complete);
	if (!n)
		return 0;	/* nothing stored: the slot's flags say why */
	if (s->kstack < 0)
		flags |= BS_NS_KERNEL_NONE;
	if (kthread)
		flags |= BS_NS_USER_NONE;
	else if (s->ustack < 0)
		flags |= BS_NS_USER_LOST;
	else if (!complete)
		flags |= BS_NS_USER_SHORT;
	id = intern(st, n, nk, flags, &is_new);
	if (id)
		slot_put(st, s, id);
	return id;
}
