// SPDX-License-Identifier: GPL-2.0
/*
 * rec_snapshot.c - one flight-recorder snapshot: the history around a trigger
 * written as an ordinary blktrace file set (record --ring).
 *
 * DIR/<time>-<trigger>/<base>.blktrace.<cpu> for every traced device and
 * every possible CPU (or all of it into one stream).  The records come
 * from the history in time order, from its oldest record up to the end of
 * the window; as they are written the snapshot makes them a recording of
 * its own:
 *
 *  - the TIMESTAMP and host notes first (the wall clock of the window's
 *    first record), so that blkparse prints wall times;
 *  - a PROCESS note before each task's first event in the window, from the
 *    names the kernel side announced (rec_pidcomm.c), however long ago;
 *  - with --cgroup-ids, a cgroup note before each id's first record per file;
 *  - sequence numbers renumbered per (device, CPU) from 1: the gaps inside
 *    the window stay, so blkparse sees a skip exactly where events were lost;
 *  - the trigger notes after the events that fired them;
 *  - the end note in every file, its drops = the gaps in that file.
 *
 * Writing never waits for the disk: each step writes what the free write
 * buffers take and returns, so the recorder goes back to draining the
 * kernel rings; the history keeps the records meanwhile.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "bs_codec.h"
#include "bs_outfile.h"
#include "bs_writer.h"
#include "record.h"

#define FILE_FLUSH	(256u << 10)	/* a file's write batch */
#define TRIGGERS_MAX	64		/* trigger notes per snapshot */

/* The records of one output file waiting for its sink. */
struct snap_file {
	struct rec_sink *sink;
	uint8_t *buf;
	size_t len, cap;
	uint32_t base, last;	/* original sequence before the first event; last one seen */
	uint64_t events, gaps;
	bool started;
};

struct pending {
	struct bs_trigger_note note;
	uint64_t time;
	uint32_t device, cpu, pid;
};

struct rec_snapshot {
	const struct rec_snap_cfg *cfg;
	char name[NAME_MAX + 1];
	int dirfd;
	struct snap_file *files;	/* [trace * ncpus + cpu]; one with a stream */
	int nfiles;
	struct rec_hist_cursor cur;
	uint64_t window_end, last_time;
	uint64_t mono0, real0;		/* a clock pair: wall time of any record */
	bool *headed;			/* per trace: TIMESTAMP and host notes out */
	struct bs_hash pids;		/* (trace, pid) named in this snapshot */
	struct rec_cgroups cg;		/* ids announced in this snapshot */
	struct pending trig[TRIGGERS_MAX];
	int ntrig, next_trig;
	uint64_t more_triggers, lost, bytes;
	bool failed;
};

static uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* "D2C>100ms" -> "D2C-gt-100ms": a name without shell or path specials. */
static void safe_name(char *out, size_t size, const char *expr)
{
	size_t n = 0;

	for (; *expr && n + 5 < size; expr++) {
		if (*expr == '>') {
			memcpy(out + n, "-gt-", 4);
			n += 4;
		} else {
			out[n++] = *expr == ',' ? '.' : *expr == ':' ? '_' : *expr;
		}
	}
	out[n] = 0;
}

/* DIR/<UTC time of the trigger>-<trigger>, a new directory. */
static int make_dir(struct rec_snapshot *s, uint64_t trig_time, const char *expr)
{
	uint64_t real = s->real0 - (s->mono0 - trig_time);
	time_t sec = (time_t)(real / 1000000000ull);
	char when[32], what[96];
	struct tm tm;
	int i;

	gmtime_r(&sec, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	safe_name(what, sizeof(what), expr);
	for (i = 1; i < 100; i++) {
		snprintf(s->name, sizeof(s->name), "%s.%03uZ-%s%s%.0d", when,
			 (unsigned int)(real / 1000000 % 1000), what, i > 1 ? "-" : "",
			 i > 1 ? i : 0);
		if (!mkdirat(s->cfg->rootfd, s->name, 0755))
			break;
		if (errno != EEXIST)
			return -1;
	}
	s->dirfd = openat(s->cfg->rootfd, s->name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return s->dirfd < 0 ? -1 : 0;
}

static int open_file(struct rec_snapshot *s, int trace, int cpu, struct snap_file *f)
{
	const struct rec_snap_cfg *c = s->cfg;
	char name[NAME_MAX + 1], shown[PATH_MAX];
	int fd;

	if (bs_percpu_path(name, sizeof(name) - 4, NULL, c->base ? c->base : c->traces[trace].name,
			   cpu) < 0)
		return -1;
	if (c->zstd_level)
		strcat(name, ".zst");
	fd = bs_create_at(s->dirfd, name, 0);
	if (fd < 0) {
		fprintf(stderr, "blkscope record: cannot create %s/%s/%s: %s\n", c->dir, s->name,
			name, strerror(errno));
		return -1;
	}
	snprintf(shown, sizeof(shown), "%s/%s/%s", c->dir, s->name, name);
	f->sink = rec_sink_new(c->io, fd, shown, false, c->zstd_level);
	if (!f->sink) {
		close(fd);
		return -1;
	}
	return c->v8 && rec_sink_set_v8(f->sink) < 0 ? -1 : 0;
}

static int open_files(struct rec_snapshot *s)
{
	const struct rec_snap_cfg *c = s->cfg;
	int i, cpu;

	s->nfiles = c->stream ? 1 : c->ntraces * c->ncpus;
	s->files = calloc(c->ntraces * c->ncpus, sizeof(*s->files));
	s->headed = calloc(c->ntraces, sizeof(*s->headed));
	if (!s->files || !s->headed)
		return -1;
	if (c->stream) {
		s->files[0].sink = c->stream_sink;
		return 0;
	}
	if (make_dir(s, s->trig[0].time, s->trig[0].note.expr) < 0) {
		fprintf(stderr, "blkscope record: cannot create a snapshot directory in %s: %s\n",
			c->dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < c->ntraces; i++)
		for (cpu = 0; cpu < c->ncpus; cpu++)
			if (open_file(s, i, cpu, &s->files[i * c->ncpus + cpu]) < 0)
				return -1;
	return 0;
}

struct rec_snapshot *rec_snapshot_open(const struct rec_snap_cfg *cfg, struct rec_history *h,
				       const struct bs_trigger_note *first, uint64_t time,
				       uint32_t device, uint32_t cpu, uint32_t pid,
				       uint64_t window_end)
{
	struct rec_snapshot *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->cfg = cfg;
	s->dirfd = -1;
	s->window_end = window_end;
	s->mono0 = clock_ns(CLOCK_MONOTONIC);
	s->real0 = clock_ns(CLOCK_REALTIME);
	s->cg.mount_fd = -1;
	if (cfg->cg) {	/* the same hierarchy, nothing announced yet */
		snprintf(s->cg.root, sizeof(s->cg.root), "%s", cfg->cg->root);
		s->cg.mount_fd = cfg->cg->mount_fd;
	}
	rec_snapshot_add_trigger(s, first, time, device, cpu, pid);
	rec_history_cursor_oldest(h, &s->cur);
	if (open_files(s) < 0) {
		rec_snapshot_free(s, true);
		return NULL;
	}
	return s;
}

const char *rec_snapshot_name(const struct rec_snapshot *s)
{
	return s->name;
}

uint64_t rec_snapshot_window_end(const struct rec_snapshot *s)
{
	return s->window_end;
}

void rec_snapshot_add_trigger(struct rec_snapshot *s, const struct bs_trigger_note *n,
			      uint64_t time, uint32_t device, uint32_t cpu, uint32_t pid)
{
	struct pending *p;

	if (s->ntrig == TRIGGERS_MAX) {
		s->more_triggers++;
		return;
	}
	p = &s->trig[s->ntrig];
	p->note = *n;
	p->note.n = (uint32_t)++s->ntrig;
	p->time = time;
	p->device = device;
	p->cpu = cpu;
	p->pid = pid;
}

/* ------------------------------------------------------------------ */

static struct snap_file *file_of(struct rec_snapshot *s, int trace, uint32_t cpu)
{
	return &s->files[s->cfg->stream ? 0 : trace * s->cfg->ncpus + (int)cpu];
}

static int put(struct rec_snapshot *s, struct snap_file *f, const void *rec, size_t len)
{
	if (f->len + len > f->cap) {
		size_t cap = f->cap ? f->cap * 2 : FILE_FLUSH + 4096;
		uint8_t *p;

		while (cap < f->len + len)
			cap *= 2;
		p = realloc(f->buf, cap);
		if (!p)
			return -1;
		f->buf = p;
		f->cap = cap;
	}
	memcpy(f->buf + f->len, rec, len);
	f->len += len;
	return 0;
}

/* A file's batch to its sink; false if the write buffers are full now. */
static bool flush_file(struct rec_snapshot *s, struct snap_file *f, bool force)
{
	if (!f->len || (!force && f->len < FILE_FLUSH))
		return true;
	if (!force && rec_io_free_chunks(s->cfg->io) < 2)
		return false;
	if (rec_sink_write(f->sink, f->buf, f->len) < 0)
		s->failed = true;
	s->bytes += f->len;
	f->len = 0;
	return true;
}

/* A note at (trace, cpu) into its file, by the trace's own device. */
static int put_note(struct rec_snapshot *s, int trace, uint32_t cpu, const void *note, size_t len)
{
	return len ? put(s, file_of(s, trace, cpu), note, len) : -1;
}

static int trace_of(const struct rec_snapshot *s, uint32_t device)
{
	int i;

	for (i = 0; i < s->cfg->ntraces; i++)
		if (s->cfg->traces[i].dev == device)
			return i;
	return -1;
}

/* The TIMESTAMP and host notes of a trace, before anything else of it. */
static int head_trace(struct rec_snapshot *s, int trace, uint32_t cpu, uint64_t time)
{
	uint8_t note[BS_TIMESTAMP_NOTE_SIZE + BS_HOST_NOTE_MAX];

	if (s->headed[trace])
		return 0;
	s->headed[trace] = true;
	return put_note(s, trace, cpu, note,
			rec_start_notes(note, sizeof(note), s->cfg->host, s->cfg->traces[trace].dev,
					cpu, time, s->real0 - (s->mono0 - time)));
}

/* Trigger notes due before a record of time `before` (all of them: UINT64_MAX). */
static int put_triggers(struct rec_snapshot *s, uint64_t before)
{
	uint8_t note[BS_TRIGGER_NOTE_MAX];

	while (s->next_trig < s->ntrig && s->trig[s->next_trig].time < before) {
		const struct pending *p = &s->trig[s->next_trig++];
		int i = trace_of(s, p->device);
		size_t len;

		if (i < 0)
			continue;
		len = bs_trigger_note_make(note, sizeof(note), p->device, p->cpu, p->time, p->pid,
					   &p->note);
		if (head_trace(s, i, p->cpu, p->time) < 0 || put_note(s, i, p->cpu, note, len) < 0)
			return -1;
	}
	return 0;
}

/* The notes an event needs before it in this snapshot. */
static int put_event_notes(struct rec_snapshot *s, int trace, const struct bs_trace *t,
			   const uint8_t *pdu)
{
	const struct rec_snap_cfg *c = s->cfg;
	uint8_t note[BS_CGROUP_NOTE_MAX];
	bool inserted;
	char comm[BS_COMM_LEN];

	if (head_trace(s, trace, t->cpu, t->time) < 0)
		return -1;
	bs_hash_put(&s->pids, (uint64_t)trace << 32 | t->pid, 0, &inserted);
	if (inserted && !rec_pidcomm_get(c->pids, t->pid, comm) &&
	    put_note(s, trace, t->cpu, note,
		     bs_process_note_make(note, sizeof(note), t->device, t->cpu, t->time, t->pid,
					  comm)) < 0)
		return -1;
	if (c->cg && (t->action & BS_TA_CGROUP) && t->pdu_len >= BS_CGROUP_LEN) {
		uint64_t id = bs_cgroup_id(t, pdu, false);
		int n;

		n = rec_cgroup_note(&s->cg, id, trace, t->cpu, t, note);
		if (n < 0 || (n > 0 && put_note(s, trace, t->cpu, note, (size_t)n) < 0))
			return -1;
	}
	return 0;
}

/* One event from the history, renumbered, into its file. */
static int put_event(struct rec_snapshot *s, int trace, const uint8_t *rec, size_t len)
{
	struct bs_trace t;
	struct snap_file *f;
	uint32_t seq;

	bs_native_peek(rec, len, &t);
	if (put_triggers(s, t.time) < 0 || put_event_notes(s, trace, &t, bs_native_pdu(rec)) < 0)
		return -1;
	f = &s->files[trace * s->cfg->ncpus + (int)t.cpu];	/* the numbers are per file */
	if (!f->started) {
		f->started = true;
		f->base = t.sequence - 1;
	} else {
		f->gaps += t.sequence - f->last - 1;
	}
	f->last = t.sequence;
	f->events++;
	seq = t.sequence - f->base;
	f = file_of(s, trace, t.cpu);	/* the output: the same, or the one stream */
	if (put(s, f, rec, len) < 0)
		return -1;
	bs_native_set_sequence(f->buf + f->len - len, seq);
	s->last_time = t.time;
	return 0;
}

int rec_snapshot_step(struct rec_snapshot *s, struct rec_history *h, uint64_t complete_upto,
		      size_t max_bytes)
{
	size_t done = 0;
	int i, tr;

	for (i = 0; i < s->nfiles; i++)
		if (!flush_file(s, &s->files[i], false))
			return 0;	/* the disk is behind: drain the rings first */
	while (done < max_bytes && !s->failed) {
		struct rec_hist_cursor at = s->cur;
		const uint8_t *rec;
		struct bs_trace t;
		size_t len;

		rec = rec_history_next(h, &s->cur, &len, &s->lost);
		if (!rec)
			return complete_upto >= s->window_end;
		bs_native_peek(rec, len, &t);
		if (t.time > s->window_end) {
			s->cur = at;	/* not ours: the window is complete */
			return 1;
		}
		tr = trace_of(s, t.device);
		if (tr < 0 || (int)t.cpu >= s->cfg->ncpus)
			continue;	/* not a traced device's: cannot happen */
		if (put_event(s, tr, rec, len) < 0)
			s->failed = true;
		done += len;
		if (!flush_file(s, file_of(s, tr, t.cpu), false))
			return 0;
	}
	return s->failed ? -1 : 0;
}

/* ------------------------------------------------------------------ */

/* The end notes, everything out, the files closed. */
static int finish(struct rec_snapshot *s, uint64_t end_time)
{
	const struct rec_snap_cfg *c = s->cfg;
	uint8_t note[BS_END_NOTE_MAX];
	int i, cpu, err = 0;

	if (put_triggers(s, UINT64_MAX) < 0)
		return -1;
	for (i = 0; i < c->ntraces; i++) {
		if (head_trace(s, i, 0, end_time) < 0)	/* a trace without a record */
			return -1;
		for (cpu = 0; cpu < c->ncpus; cpu++) {
			const struct snap_file *f = &s->files[i * c->ncpus + cpu];
			struct bs_end_note n = { .events = f->events, .drops = f->gaps };

			if (put_note(s, i, (uint32_t)cpu, note,
				     bs_end_note_make(note, sizeof(note), c->traces[i].dev,
						      (uint32_t)cpu, end_time, &n)) < 0)
				return -1;
		}
	}
	for (i = 0; i < s->nfiles; i++) {
		flush_file(s, &s->files[i], true);
		if (!c->stream && rec_sink_close(s->files[i].sink) < 0)
			err = -1;
	}
	return s->failed ? -1 : err;
}

int rec_snapshot_close(struct rec_snapshot *s, uint64_t now)
{
	uint64_t end = s->window_end < now ? s->window_end : now;

	if (end < s->last_time)
		end = s->last_time;
	return finish(s, end);
}

void rec_snapshot_summary(const struct rec_snapshot *s, struct rec_snap_summary *out)
{
	int i;

	memset(out, 0, sizeof(*out));
	out->bytes = s->bytes;
	out->lost = s->lost;
	out->triggers = (uint64_t)s->ntrig + s->more_triggers;
	for (i = 0; i < s->cfg->ntraces * s->cfg->ncpus; i++) {
		out->events += s->files[i].events;
		out->gaps += s->files[i].gaps;
		if (s->files[i].sink && !s->cfg->stream)
			out->written += rec_sink_bytes(s->files[i].sink);
	}
}

/* Remove a snapshot's files and directory (it failed, or the disk budget). */
int rec_snapshot_remove(int rootfd, const char *name)
{
	int dfd = openat(rootfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;
	struct dirent *e;

	if (dfd < 0)
		return -1;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -1;
	}
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".blktrace."))	/* only what a snapshot holds */
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	return unlinkat(rootfd, name, AT_REMOVEDIR);
}

void rec_snapshot_free(struct rec_snapshot *s, bool remove)
{
	int i;

	if (!s)
		return;
	for (i = 0; s->files && i < s->nfiles; i++) {
		if (!s->cfg->stream)
			rec_sink_free(s->files[i].sink);
	}
	for (i = 0; s->files && i < s->cfg->ntraces * s->cfg->ncpus; i++)
		free(s->files[i].buf);
	free(s->files);
	free(s->headed);
	bs_hash_free(&s->pids);
	free(s->cg.seen);
	bs_hash_free(&s->cg.index);
	if (s->dirfd >= 0)
		close(s->dirfd);
	if (remove && s->name[0])
		rec_snapshot_remove(s->cfg->rootfd, s->name);
	free(s);
}
