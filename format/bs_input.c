// SPDX-License-Identifier: GPL-2.0
/*
 * bs_input.c - resolve input names the way blkparse does.
 *
 * "loop0" names the files loop0.blktrace.0, loop0.blktrace.1, ...;
 * "loop0.blktrace.1" is cut back to "loop0" (blkparse's name_fixup), a
 * directory stands for every base name in it, and "-", a FIFO or any other
 * regular file is read as one stream (a blkparse -d dump or blktrace -o -
 * output).  Each per-CPU file may also be present as "<name>.zst".
 *
 * Unlike blkparse, which stops at the first missing CPU number, every CPU
 * file present is read: a hole in the numbering is reported, not fatal, so
 * that no recorded data is silently ignored.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bs_input.h"
#include "bs_stream.h"

#define TRACE_INFIX ".blktrace."

/*
 * If name is "<base>.blktrace.<N>[.zst]", return N and the length of <base>;
 * else -1.
 */
static int split_percpu_name(const char *name, size_t *base_len)
{
	const char *infix = strstr(name, TRACE_INFIX), *p;
	char *end;
	long cpu;

	if (!infix || infix == name)
		return -1;
	/* the last occurrence wins: "a.blktrace.b.blktrace.0" has base "a.blktrace.b" */
	while ((p = strstr(infix + 1, TRACE_INFIX)))
		infix = p;
	p = infix + strlen(TRACE_INFIX);
	if (*p < '0' || *p > '9')
		return -1;
	cpu = strtol(p, &end, 10);
	if (cpu > 1 << 20 || (*end && strcmp(end, ".zst")))
		return -1;
	*base_len = infix - name;
	return (int)cpu;
}

static char *join_path(const char *dir, const char *name)
{
	char *p;

	if (!dir || !*dir || !strcmp(dir, "."))
		return strdup(name);
	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	return p;
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct bs_input_cpu *x = a, *y = b;

	return x->cpu - y->cpu;
}

#define MAX_PRESENT 4096

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * blkparse stops at the first missing CPU number; we read every file but
 * say that a number is missing, since it usually means a lost file.
 */
static void report_cpu_gap(const struct bs_msg_sink *msg, const char *base, int *present, int n)
{
	qsort(present, n, sizeof(*present), cmp_int);
	for (int i = 0; i < n; i++) {
		if (present[i] == i || (i && present[i] == present[i - 1]))
			continue;
		bs_msg(msg, BS_MSG_WARN, "%s: no data file for cpu %d; reading the files that exist",
		       base, i ? present[i - 1] + 1 : 0);
		return;
	}
}

/*
 * Collect the files <prefix>.blktrace.N[.zst]; returns the number found
 * (incl. empty ones).  Their paths are spelled as blkparse spells them:
 * prefix as given ("sub//loop0", "./loop0") and the suffix.
 */
static int scan_base(const struct bs_msg_sink *msg, struct bs_input_dev *dev, const char *prefix)
{
	char *copy = strdup(prefix), *copy2 = strdup(prefix);
	const char *dir = copy ? dirname(copy) : ".", *base = copy2 ? basename(copy2) : "";
	DIR *d = opendir(dir);
	size_t blen = strlen(base), cap = 0;
	int present[MAX_PRESENT], npresent = 0;
	struct dirent *de;
	int found = 0;

	if (!d || !copy || !copy2) {
		if (d)
			closedir(d);
		free(copy);
		free(copy2);
		return -1;
	}
	while ((de = readdir(d))) {
		struct bs_input_cpu *c;
		struct stat st;
		size_t len;
		char *path;
		int cpu = split_percpu_name(de->d_name, &len);

		if (cpu < 0 || len != blen || strncmp(de->d_name, base, blen))
			continue;
		if (asprintf(&path, "%s%s", prefix, de->d_name + blen) < 0)
			path = NULL;
		if (!path || stat(path, &st) || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		found++;
		if (npresent < MAX_PRESENT)
			present[npresent++] = cpu;
		if (st.st_size == 0) {	/* idle CPU: blkparse skips empty files too */
			free(path);
			continue;
		}
		if ((size_t)dev->ncpus == cap) {
			cap = cap ? cap * 2 : 8;
			c = realloc(dev->cpus, cap * sizeof(*c));
			if (!c) {
				free(path);
				break;
			}
			dev->cpus = c;
		}
		dev->cpus[dev->ncpus].path = path;
		dev->cpus[dev->ncpus].cpu = cpu;
		dev->ncpus++;
	}
	closedir(d);
	if (dev->ncpus)
		qsort(dev->cpus, dev->ncpus, sizeof(*dev->cpus), cmp_cpu);
	/* a .zst and a plain file for the same CPU: keep the plain one */
	for (int i = 1; i < dev->ncpus; i++) {
		if (dev->cpus[i].cpu != dev->cpus[i - 1].cpu)
			continue;
		int drop = strstr(dev->cpus[i].path, ".zst") ? i : i - 1;

		bs_msg(msg, BS_MSG_WARN, "both %s and a compressed copy exist; reading the "
		       "uncompressed one", dev->cpus[drop == i ? i - 1 : i].path);
		free(dev->cpus[drop].path);
		memmove(&dev->cpus[drop], &dev->cpus[drop + 1], (dev->ncpus - drop - 1) * sizeof(*dev->cpus));
		dev->ncpus--;
		i--;
	}
	report_cpu_gap(msg, prefix, present, npresent);
	free(copy);
	free(copy2);
	return found;
}

/*
 * One device of file mode: the files prefix.blktrace.N; name is what
 * blkparse calls it (its statistics' headings, "No input files found").
 */
static int add_base(struct bs_input_set *set, const char *prefix, const char *name,
		    struct bs_err *err)
{
	struct bs_input_dev *devs, *dev;
	int found;

	devs = realloc(set->devs, (set->ndevs + 1) * sizeof(*devs));
	if (!devs)
		return bs_err_set(err, ENOMEM, "out of memory");
	set->devs = devs;
	dev = &devs[set->ndevs];
	memset(dev, 0, sizeof(*dev));
	dev->name = strdup(name);
	found = scan_base(&set->msg, dev, prefix);
	if (found <= 0) {
		bs_err_set(err, ENOENT, "No input files found for %s", name);
		free(dev->cpus);
		free(dev->name);
		return -1;
	}
	set->ndevs++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every base name that has per-CPU files in dir, in name order. */
static int add_directory(struct bs_input_set *set, const char *dir, struct bs_err *err)
{
	char **bases = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = 0;

	if (!d) {
		return bs_err_set(err, errno, "%s: %s", dir, strerror(errno));
	}
	while ((de = readdir(d))) {
		size_t len;

		if (split_percpu_name(de->d_name, &len) < 0)
			continue;
		for (i = 0; i < n; i++)
			if (strlen(bases[i]) == len && !strncmp(bases[i], de->d_name, len))
				break;
		if (i < n)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			bases = realloc(bases, cap * sizeof(*bases));
		}
		bases[n++] = strndup(de->d_name, len);
	}
	closedir(d);
	if (!n) {
		ret = bs_err_set(err, ENOENT, "%s: no *.blktrace.N files in this directory", dir);
	}
	if (n)
		qsort(bases, n, sizeof(*bases), cmp_str);
	for (i = 0; i < n; i++) {
		char *prefix = join_path(dir, bases[i]);

		if (!ret)
			ret = prefix ? add_base(set, prefix, bases[i], err) :
				       bs_err_set(err, ENOMEM, "out of memory");
		free(prefix);
		free(bases[i]);
	}
	free(bases);
	return ret;
}

static int add_stream(struct bs_input_set *set, const char *path, struct bs_err *err)
{
	if (set->stream_path)
		return bs_err_set(err, EINVAL, "%s: only one single-stream input (dump, FIFO or '-') "
				  "can be read at a time", path);
	set->stream_path = strdup(path);
	return set->stream_path ? 0 : bs_err_set(err, ENOMEM, "out of memory");
}

/*
 * A base name, or a per-CPU file cut back to its base (blkparse's
 * name_fixup()), resolved as blkparse's setup_file() does: a directory part
 * of the name replaces -D (dir), else -D is put in front with a '/', as
 * given ("-D sub/ -i x" reads "sub//x.blktrace.0"); the name keeps "./".
 * Unlike blkparse, the directory of one name does not stay for the next.
 */
static int add_name(struct bs_input_set *set, const char *arg, const char *dir,
		    struct bs_err *err)
{
	char *name = strdup(arg), *d = strdup(arg), *b = strdup(arg), *prefix = NULL;
	const char *dn, *shown;
	size_t base_len;
	int ret = -1;

	if (!name || !d || !b) {
		ret = bs_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	if (split_percpu_name(name, &base_len) >= 0 && (base_len == 0 || name[base_len - 1] != '/'))
		name[base_len] = '\0';
	strcpy(d, name);
	strcpy(b, name);
	dn = dirname(d);
	shown = name;
	if (strcmp(dn, ".")) {	/* "sub//loop0": the directory "sub", the name "loop0" */
		shown = basename(b);
		if (asprintf(&prefix, "%s/%s", dn, shown) < 0)
			prefix = NULL;
	} else if (dir && *dir) {
		if (asprintf(&prefix, "%s/%s", dir, name) < 0)
			prefix = NULL;
	} else {
		prefix = strdup(name);
	}
	if (prefix)
		ret = add_base(set, prefix, shown, err);
	else
		ret = bs_err_set(err, ENOMEM, "out of memory");
out:
	free(prefix);
	free(name);
	free(d);
	free(b);
	return ret;
}

int bs_input_add(struct bs_input_set *set, const char *arg, const char *dir, struct bs_err *err)
{
	char *path;
	struct stat st;
	size_t base_len;
	int ret;

	if (!strcmp(arg, "-"))
		return add_stream(set, arg, err);
	path = (arg[0] == '/' || !dir) ? strdup(arg) : join_path(dir, arg);
	if (!path)
		return bs_err_set(err, ENOMEM, "out of memory");
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode)) {
			ret = add_directory(set, path, err);
			free(path);
			return ret;
		}
		if (S_ISFIFO(st.st_mode) || (S_ISREG(st.st_mode) && split_percpu_name(path, &base_len) < 0)) {
			ret = add_stream(set, path, err);
			free(path);
			return ret;
		}
	}
	free(path);
	return add_name(set, arg, dir, err);
}

void bs_input_free(struct bs_input_set *set)
{
	for (int i = 0; i < set->ndevs; i++) {
		for (int c = 0; c < set->devs[i].ncpus; c++)
			free(set->devs[i].cpus[c].path);
		free(set->devs[i].cpus);
		free(set->devs[i].name);
	}
	free(set->devs);
	free(set->stream_path);
	memset(set, 0, sizeof(*set));
}
