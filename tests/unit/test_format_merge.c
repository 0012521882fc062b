// SPDX-License-Identifier: GPL-2.0
/*
 * test_format_merge.c - unit tests of format/'s merge and writers on
 * crafted inputs: the merge order and notes, empty and missing per-CPU
 * files, directories, zstd input, stdin, the dump writer (v7 and v8),
 * safe creation of output files (bs_outfile) and cgroup-id notes.  Run
 * by test_format.c's main().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#include "test_format.h"

/* Collect merged (time, cpu) pairs and notes of an input base. */
struct merged {
	int n, notes;
	uint64_t times[64];
	int cpus[64];
	int note_before_event[64];
};

static void count_note(void *ctx, const struct bs_record *rec, int dev)
{
	struct merged *m = ctx;

	(void)rec;
	(void)dev;
	m->notes++;
}

static int merge_input(const char *arg, struct merged *out, unsigned int batch)
{
	struct bs_input_set in = { 0 };
	struct bs_merge_opts o = { .batch = batch, .on_note = count_note, .ctx = out,
				   .msg = stderr_sink };
	struct bs_merge *m;
	struct bs_event ev;

	memset(out, 0, sizeof(*out));
	if (bs_input_add(&in, arg, NULL, NULL))
		return -1;
	m = bs_merge_open(&in, &o);
	if (!m)
		return -1;
	while (bs_merge_next(m, &ev) && out->n < 64) {
		out->note_before_event[out->n] = out->notes;
		out->times[out->n] = ev.t.time;
		out->cpus[out->n++] = ev.cpu;
	}
	bs_merge_close(m);
	bs_input_free(&in);
	return 0;
}

void test_merge_and_files(void)
{
	struct buf b0 = { .len = 0 }, b1 = { .len = 0 }, b2 = { .len = 0 };
	char comm[16] = "dd";
	struct merged mg;

	put(&b0, 0, 0, 5, BS_NOTE_PROCESS, comm, 16, 0);
	put(&b0, 0, 1, 10, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b0, 0, 2, 30, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b0, 0, 3, 50, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b1, 1, 1, 20, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b1, 1, 2, 40, BS_ACT_QUEUE, NULL, 0, 0);
	put(&b2, 3, 1, 45, BS_ACT_QUEUE, NULL, 0, 0);
	write_file("m.blktrace.0", b0.data, b0.len);
	write_file("m.blktrace.1", b1.data, b1.len);
	write_file("m.blktrace.2", "", 0);	/* idle CPU: empty file */
	write_file("m.blktrace.3", b2.data, b2.len);
	CHECK(merge_input(path_of("m"), &mg, 512) == 0, "merge opens");
	CHECK(mg.n == 6, "6 events, got %d", mg.n);
	uint64_t want[] = { 0, 10, 20, 30, 35, 40 };	/* genesis = 10 */
	int wcpu[] = { 0, 1, 0, 1, 3, 0 };
	for (int i = 0; i < 6 && i < mg.n; i++)
		CHECK(mg.times[i] == want[i] && mg.cpus[i] == wcpu[i], "event %d: time %llu cpu %d",
		      i, (unsigned long long)mg.times[i], mg.cpus[i]);
	CHECK(mg.notes == 1 && mg.note_before_event[0] == 1, "PROCESS note delivered at read time");

	/* an explicit per-CPU file name stands for its base, like blkparse */
	CHECK(merge_input(path_of("m.blktrace.1"), &mg, 512) == 0 && mg.n == 6,
	      "explicit file -> base");

	/* a directory stands for every base in it */
	CHECK(merge_input(test_dir, &mg, 512) == 0 && mg.n >= 6, "directory input: %d events",
	      mg.n);

	/* missing CPU file in the middle (m2.blktrace.1 absent): the others are still read */
	write_file("m2.blktrace.0", b0.data, b0.len);
	write_file("m2.blktrace.2", b1.data, b1.len);	/* cpu field 1 != file 2: skipped */
	write_file("m2.blktrace.3", b2.data, b2.len);
	CHECK(merge_input(path_of("m2"), &mg, 512) == 0 && mg.n == 4,
	      "gap: %d events (3 + 1, cpu-1 records in file 2 skipped)", mg.n);

	/* batch of 1: notes still come before the events that follow them in the file */
	CHECK(merge_input(path_of("m"), &mg, 1) == 0 && mg.n == 6, "batch 1");

	struct bs_input_set in = { 0 };
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	dup2(null, 2);
	int r = bs_input_add(&in, path_of("nosuch"), NULL, NULL);
	dup2(saved, 2);
	close(saved);
	close(null);
	CHECK(r == -1, "missing input is an error");
	bs_input_free(&in);
}

#ifdef HAVE_ZSTD
void test_zstd(void)
{
	struct buf b = { .len = 0 };
	static uint8_t z[1 << 16];
	size_t zl;
	struct merged mg;

	for (int i = 1; i <= 100; i++)
		put(&b, 0, i, i * 10, BS_ACT_QUEUE, NULL, 0, 0);
	zl = ZSTD_compress(z, sizeof(z), b.data, b.len, 3);
	CHECK(!ZSTD_isError(zl), "compress");
	write_file("z.blktrace.0.zst", z, zl);
	CHECK(merge_input(path_of("z"), &mg, 512) == 0 && mg.n == 64, "zstd per-CPU file: %d",
	      mg.n);
	write_file("zdump.zst", z, zl);
	CHECK(merge_input(path_of("zdump.zst"), &mg, 512) == 0 && mg.n == 64,
	      "zstd dump stream: %d", mg.n);

	/* a compressed file larger than the first read (was a buffer overflow) */
	static struct buf big;
	static uint8_t zbig[1 << 20];
	uint32_t rnd = 1;

	big.len = 0;
	for (int i = 1; big.len + 64 < sizeof(big.data); i++) {
		uint8_t pdu[8];

		for (int k = 0; k < 8; k++)
			pdu[k] = (rnd = rnd * 1103515245 + 12345) >> 24;	/* incompressible */
		put(&big, 0, i, i, BS_ACT_UNPLUG_IO, pdu, 8, 0);
	}
	zl = ZSTD_compress(zbig, sizeof(zbig), big.data, big.len, 1);
	CHECK(!ZSTD_isError(zl), "compress big");
	int fd = open(path_of("zbig.blktrace.0.zst"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (int k = 0; k < 40; k++)	/* 40 concatenated frames: several MiB compressed */
		CHECK(write(fd, zbig, zl) == (ssize_t)zl, "write");
	close(fd);
	CHECK(merge_input(path_of("zbig"), &mg, 512) == 0 && mg.n == 64, "large zstd file: %d",
	      mg.n);
}
#else
void test_zstd(void)
{
	struct merged mg;
	static const uint8_t frame[4] = { 0x28, 0xb5, 0x2f, 0xfd };

	write_file("z.blktrace.0.zst", frame, sizeof(frame));
	CHECK(merge_input(path_of("z"), &mg, 512) == 0 && mg.n == 0,
	      "zstd input refused without libzstd");
}
#endif

void test_stdin(void)
{
	struct buf b = { .len = 0 };
	int p[2], saved;
	struct merged mg;
	pid_t pid;

	for (int i = 1; i <= 10; i++)
		put(&b, i % 2, (i + 1) / 2, 100 - i, BS_ACT_QUEUE, NULL, 0, 0);
	if (pipe(p))
		exit(2);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (write(p[1], b.data, b.len) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	saved = dup(0);
	dup2(p[0], 0);
	close(p[0]);
	CHECK(merge_input("-", &mg, 512) == 0 && mg.n == 10, "stdin: %d events", mg.n);
	CHECK(mg.times[0] == 0 && mg.times[9] == 9, "stdin sorted by time: %llu..%llu",
	      (unsigned long long)mg.times[0], (unsigned long long)mg.times[9]);
	dup2(saved, 0);
	close(saved);
	waitpid(pid, NULL, 0);
}

void test_writer(void)
{
	struct bs_trace t = { .magic = BS_TRACE_MAGIC_V7, .sequence = 1, .action = BS_ACT_QUEUE,
			      .pdu_len = 8 };
	struct bs_writer w;
	struct merged mg;
	int fd;

	CHECK(symlink("/etc/passwd", path_of("link.blktrace.0")) == 0, "symlink");
	fd = bs_create_output(path_of("link.blktrace.0"), BS_CREATE_REPLACE);
	CHECK(fd < 0 && errno == EEXIST, "output through a symlink is refused (errno %d)", errno);

	fd = bs_create_output(path_of("w.blktrace.0"), BS_CREATE_REPLACE);
	CHECK(fd >= 0 && bs_writer_init(&w, fd, "w") == 0, "writer");
	for (int i = 0; i < 50000; i++) {
		t.sequence = i + 1;
		t.time = i;
		bs_writer_put(&w, &t, "abcdefgh");
	}
	CHECK(bs_writer_close(&w) == 0, "close");
	CHECK(merge_input(path_of("w"), &mg, 512) == 0, "read back");

	fd = open("/dev/full", O_WRONLY);
	if (fd >= 0) {
		bs_writer_init(&w, fd, "/dev/full");
		for (int i = 0; i < 50000 && !w.error; i++)
			bs_writer_put(&w, &t, "abcdefgh");
		CHECK(bs_writer_close(&w) == ENOSPC, "full disk reported as ENOSPC");
	}
}

/* Merge and stream modes carry action_hi; the v8 writer reads back; cutting whole v8 records. */
void test_v8_merge_writer(void)
{
	struct buf b0 = { .len = 0 }, b1 = { .len = 0 };
	uint32_t hi[] = { 0, BS_TC_HI(BS_TC_ZONE_RESET), BS_TC_HI(BS_TC_ZONE_OPEN), 0 };
	char comm[16] = "dd";
	struct bs_input_set in = { 0 };
	struct bs_merge_opts o = { .batch = 2 };
	struct bs_merge *m;
	struct bs_event ev;
	int n = 0, ok = 0;

	put8(&b0, 8, 0, 0, 5, BS_NOTE_PROCESS, 0, comm, 16, 0);
	put8(&b0, 8, 0, 1, 10, BS_ACT_QUEUE, hi[0], NULL, 0, 0);
	put8(&b0, 8, 0, 2, 30, BS_ACT_QUEUE, hi[2], NULL, 0, 0);
	put8(&b1, 8, 1, 1, 20, BS_ACT_QUEUE, hi[1], NULL, 0, 1);	/* a swapped CPU file */
	put8(&b1, 8, 1, 2, 40, BS_ACT_QUEUE, hi[3], NULL, 0, 1);
	write_file("mz.blktrace.0", b0.data, b0.len);
	write_file("mz.blktrace.1", b1.data, b1.len);
	CHECK(bs_input_add(&in, path_of("mz"), NULL, NULL) == 0, "v8 input");
	m = bs_merge_open(&in, &o);
	while (m && bs_merge_next(m, &ev) == 1) {
		ok += ev.action_hi == hi[n] && ev.t.time == (uint64_t)n * 10;
		n++;
	}
	CHECK(n == 4 && ok == 4, "v8 file merge: %d events, %d with the right action_hi", n, ok);
	bs_merge_close(m);
	bs_input_free(&in);

	/* the writer: v8 records read back as a dump stream (pipe mode) */
	struct bs_writer w;
	struct bs_trace t = { .sequence = 1, .action = BS_ACT_QUEUE, .device = BS_MKDEV(8, 0) };
	int fd = bs_create_output(path_of("w8.dump"), BS_CREATE_REPLACE);

	CHECK(fd >= 0 && bs_writer_init(&w, fd, "w8") == 0, "v8 writer");
	bs_writer_set_format(&w, BS_OUT_V8);
	for (int i = 0; i < 4; i++) {
		t.sequence = i + 1;
		t.time = 100 + i;
		t.pdu_len = i == 1 ? 8 : 0;
		bs_writer_put2(&w, &t, hi[i], "abcdefgh");
	}
	CHECK(bs_writer_close(&w) == 0, "v8 writer close");
	memset(&in, 0, sizeof(in));
	CHECK(bs_input_add(&in, path_of("w8.dump"), NULL, NULL) == 0 && bs_input_is_stream(&in),
	      "dump input");
	m = bs_merge_open(&in, &o);
	n = ok = 0;
	while (m && bs_merge_next(m, &ev) == 1) {
		ok += ev.action_hi == hi[n] && ev.t.magic == BS_TRACE_MAGIC_V8 &&
		      ev.t.sequence == (uint32_t)n + 1;
		n++;
	}
	CHECK(n == 4 && ok == 4, "v8 dump stream: %d events, %d right", n, ok);
	bs_merge_close(m);
	bs_input_free(&in);

	/* whole records: 64 + 0, 64 + 8, ... cut inside the second */
	uint8_t raw[512];
	int rfd = open(path_of("w8.dump"), O_RDONLY);

	CHECK(read(rfd, raw, sizeof(raw)) == 64 * 4 + 8, "v8 dump size");
	close(rfd);
	CHECK(bs_whole_records(raw, 64 * 4 + 8) == 64 * 4 + 8 && bs_whole_records(raw, 130) == 64 &&
	      bs_whole_records(raw, 136) == 136 && bs_whole_records_sized(raw, 199, 64) == 136,
	      "whole v8 records");

	/* v8 on a full disk: the written part is still whole records */
	fd = open("/dev/full", O_WRONLY);
	if (fd >= 0) {
		bs_writer_init(&w, fd, "/dev/full");
		bs_writer_set_format(&w, BS_OUT_V8);
		for (int i = 0; i < 50000 && !w.error; i++)
			bs_writer_put2(&w, &t, 1, "abcdefgh");
		CHECK(bs_writer_close(&w) == ENOSPC, "v8 full disk reported as ENOSPC");
	}
}

static int fd_cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	return fl >= 0 && (fl & FD_CLOEXEC);
}

/* bs_dir_open + bs_create_at: nothing already at a name is opened or followed. */
void test_outfile(void)
{
	char why[200], victim[512];
	struct stat st;
	int d, fd, ours;

	CHECK(mkdir(path_of("out"), 0755) == 0 && symlink("out", path_of("outlink")) == 0, "setup");
	d = bs_dir_open(path_of("out/"), 0);
	CHECK(d >= 0 && fd_cloexec(d), "directory opened, close-on-exec (errno %d)", errno);
	CHECK(bs_dir_open(path_of("outlink"), 0) < 0 && errno == ELOOP,
	      "symlinked dir refused (%d)", errno);
	CHECK(bs_dir_open(path_of("outlink//"), 0) < 0 && errno == ELOOP,
	      "symlinked dir/ refused (%d)", errno);
	CHECK(bs_dir_open(path_of("new/"), BS_DIR_CREATE) >= 0, "missing directory created");
	write_file("plain", "x", 1);
	CHECK(bs_dir_open(path_of("plain"), 0) < 0 && errno == ENOTDIR, "file as dir refused (%d)",
	      errno);

	fd = bs_create_at(d, "a.blktrace.0", 0);
	CHECK(fd >= 0 && fd_cloexec(fd) && write(fd, "1234", 4) == 4, "created, close-on-exec");
	close(fd);
	CHECK(bs_create_at(d, "a.blktrace.0", 0) < 0 && errno == EEXIST, "earlier file refused");
	ours = bs_create_explain(d, "a.blktrace.0", EEXIST, why, sizeof(why));
	CHECK(ours == 1 && strstr(why, "exists"), "explained as ours: %s", why);
	fd = bs_create_at(d, "a.blktrace.0", BS_CREATE_REPLACE);
	CHECK(fd >= 0 && fstat(fd, &st) == 0 && st.st_size == 0, "--force replaces our own file");
	close(fd);

	CHECK(mkfifo(path_of("out/p.blktrace.0"), 0644) == 0, "fifo");
	CHECK(bs_create_at(d, "p.blktrace.0", BS_CREATE_REPLACE) < 0 && errno == EEXIST,
	      "FIFO refused");
	bs_create_explain(d, "p.blktrace.0", EEXIST, why, sizeof(why));
	CHECK(strstr(why, "FIFO") != NULL, "FIFO named: %s", why);

	write_file("victim", "precious", 8);
	CHECK(symlink("../victim", path_of("out/s.blktrace.0")) == 0, "symlink");
	CHECK(bs_create_at(d, "s.blktrace.0", BS_CREATE_REPLACE) < 0 && errno == EEXIST,
	      "symlink refused");
	bs_create_explain(d, "s.blktrace.0", EEXIST, why, sizeof(why));
	CHECK(strstr(why, "symlink") != NULL, "symlink named: %s", why);
	CHECK(symlink("../nowhere", path_of("out/dangling")) == 0, "dangling symlink");
	CHECK(bs_create_at(d, "dangling", 0) < 0 && access(path_of("nowhere"), F_OK) < 0,
	      "dangling symlink not followed");
	snprintf(victim, sizeof(victim), "%s", path_of("victim"));	/* path_of(): one buffer */
	CHECK(link(victim, path_of("out/h.blktrace.0")) == 0, "hard link");
	CHECK(bs_create_at(d, "h.blktrace.0", BS_CREATE_REPLACE) < 0, "hard link refused");
	bs_create_explain(d, "h.blktrace.0", EEXIST, why, sizeof(why));
	CHECK(strstr(why, "hard links") != NULL, "hard links named: %s", why);
	CHECK(stat(path_of("victim"), &st) == 0 && st.st_size == 8, "victim untouched");

	CHECK(bs_create_at(d, "x/y", 0) < 0 && errno == EINVAL, "name with '/' refused");
	CHECK(bs_create_at(d, "", 0) < 0 && errno == EINVAL, "empty name refused");
	CHECK(bs_create_at(d, "..", 0) < 0 && errno == EINVAL, "'..' refused");
	close(d);

	fd = bs_create_path(path_of("out/side.dat"), 0);
	CHECK(fd >= 0, "bs_create_path (errno %d)", errno);
	close(fd);
	CHECK(bs_create_path(path_of("outlink/side2.dat"), 0) < 0 && errno == ELOOP,
	      "bs_create_path through a symlinked dir refused (%d)", errno);
	CHECK(bs_create_path(path_of("out/s.blktrace.0"), 0) < 0 && errno == EEXIST,
	      "bs_create_path on a symlink refused");
}

/* cgroup ids: the note, the prefix on events, both byte orders, both merge modes. */
struct cg_seen {
	uint64_t note_id, ids[8];
	char path[64];
	int n;
};

static void cg_note(void *ctx, const struct bs_record *rec, int dev)
{
	struct cg_seen *c = ctx;
	const char *path;
	size_t plen;

	(void)dev;
	if (bs_cgroup_note(&rec->t, rec->pdu, rec->foreign, &c->note_id, &path, &plen))
		snprintf(c->path, sizeof(c->path), "%.*s", (int)plen, path);
}

void test_cgroup(void)
{
	const uint64_t id = 0x100000123ull;	/* kernfs ids: generation << 32 | number */
	for (int swap = 0; swap < 2; swap++) {
		for (int pipe = 0; pipe < 2; pipe++) {
			struct buf b = { .len = 0 };
			uint8_t note[8 + 32], q[8], u[16];
			int tl = snprintf((char *)note + 8, 32, "cgroup %llu /a/w",
					  (unsigned long long)id);
			uint64_t sid = swap ? bs_swap64(id) : id;
			struct bs_input_set in = { 0 };
			struct cg_seen c = { 0 };
			struct bs_merge_opts o = { .on_note = cg_note, .ctx = &c };
			struct bs_merge *m;
			struct bs_event ev;
			const uint8_t *pl;
			size_t len;
			char *p;

			memcpy(note, &sid, 8);
			memcpy(q, &sid, 8);
			memcpy(u, &sid, 8);
			bs_put_be64(u + 8, 5);
			put(&b, 0, 0, 9, BS_NOTE_MESSAGE | BS_TA_CGROUP, note, (uint16_t)(8 + tl),
			    swap);
			put(&b, 0, 1, 10, BS_ACT_QUEUE | BS_TA_CGROUP | BS_TC_ACT(BS_TC_WRITE), q,
			    8, swap);
			put(&b, 0, 2, 20, BS_ACT_UNPLUG_IO | BS_TA_CGROUP | BS_TC_ACT(BS_TC_READ),
			    u, 16, swap);
			put(&b, 0, 3, 30, BS_ACT_QUEUE | BS_TC_ACT(BS_TC_WRITE), NULL, 0, swap);
			write_file(pipe ? "cgs" : "cg.blktrace.0", b.data, b.len);
			p = path_of(pipe ? "cgs" : "cg");
			CHECK(bs_input_add(&in, p, NULL, NULL) == 0, "cgroup input %s", p);
			m = bs_merge_open(&in, &o);
			CHECK(m != NULL, "cgroup merge");
			if (!m)
				continue;
			while (bs_merge_next(m, &ev) && c.n < 8) {
				/* stream mode hands notes out too */
				if (bs_is_note(ev.t.action)) {
					cg_note(&c, &(struct bs_record){ .t = ev.t, .pdu = ev.pdu,
									 .foreign = ev.foreign },
						0);
					continue;
				}
				c.ids[c.n] = ev.cgroup;
				if (c.n == 1) {
					pl = bs_pdu_payload(&ev.t, ev.pdu, &len);
					CHECK(len == 8 && bs_get_be64(pl) == 5,
					      "U depth after the prefix");
				}
				c.n++;
			}
			bs_merge_close(m);
			bs_input_free(&in);
			CHECK(c.n == 3 && c.ids[0] == id && c.ids[1] == id && c.ids[2] == 0,
			      "swap %d pipe %d: ids %d %llx %llx %llx", swap, pipe, c.n,
			      (unsigned long long)c.ids[0], (unsigned long long)c.ids[1],
			      (unsigned long long)c.ids[2]);
			CHECK(c.note_id == id && !strcmp(c.path, "/a/w"),
			      "swap %d pipe %d: note %llx '%s'", swap, pipe,
			      (unsigned long long)c.note_id, c.path);
		}
	}
	/* a MESSAGE that is not ours, and one whose number disagrees with its id */
	{
		struct bs_trace t = { .action = BS_NOTE_MESSAGE | BS_TA_CGROUP, .pdu_len = 8 + 12 };
		uint8_t pdu[20] = { 1 };
		const char *path;
		size_t plen;
		uint64_t got;

		memcpy(pdu + 8, "cgroup 2 /x ", 12);
		CHECK(!bs_cgroup_note(&t, pdu, false, &got, &path, &plen),
		      "id 1 with text 2 refused");
		memcpy(pdu + 8, "bfq [x] wr 0", 12);
		CHECK(!bs_cgroup_note(&t, pdu, false, &got, &path, &plen),
		      "other messages refused");
		t.action = BS_NOTE_MESSAGE;
		CHECK(bs_cgroup_id(&t, pdu, false) == 0, "no flag, no id");
	}
}
