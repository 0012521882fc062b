// SPDX-License-Identifier: GPL-2.0
/*
 * rec_devices.c - turn a -d path into what the kernel side needs: the traced
 * dev_t, its whole disk (which selects events) and the default LBA window,
 * which for a partition is the partition itself (kernel blktrace's
 * bd_start_sect .. bd_start_sect + nr_sectors).  Everything comes from
 * sysfs, /sys/dev/block/MAJ:MIN.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "record.h"

/* Read one unsigned number from a sysfs file; -1 if absent. */
static int read_u64(const char *path, uint64_t *out)
{
	FILE *f = fopen(path, "re");
	unsigned long long v;
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	if (!ok)
		return -1;
	*out = v;
	return 0;
}

/* "MAJ:MIN" of a sysfs dev file, in kernel encoding. */
static int read_devt(const char *path, uint32_t *out)
{
	FILE *f = fopen(path, "re");
	unsigned int ma, mi;
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%u:%u", &ma, &mi) == 2;
	fclose(f);
	if (!ok)
		return -1;
	*out = BS_MKDEV(ma, mi);
	return 0;
}

int rec_resolve_device(const char *path, struct rec_trace *t)
{
	char sys[PATH_MAX], real[PATH_MAX], file[PATH_MAX + 32];
	uint64_t size = 0, start = 0;
	struct stat st;
	const char *base;

	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%s", path);
	if (stat(path, &st) < 0) {
		fprintf(stderr, "blkscope record: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISBLK(st.st_mode)) {
		fprintf(stderr, "blkscope record: %s: not a block device\n", path);
		return -1;
	}
	t->dev = BS_MKDEV(major(st.st_rdev), minor(st.st_rdev));
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(sys, real)) {
		fprintf(stderr, "blkscope record: %s: no %s: %s\n", path, sys, strerror(errno));
		return -1;
	}
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (strlen(base) >= sizeof(t->name)) {
		fprintf(stderr, "blkscope record: %s: device name %s is too long\n", path, base);
		return -1;
	}
	strcpy(t->name, base);

	snprintf(file, sizeof(file), "%s/size", real);
	if (read_u64(file, &size) < 0) {
		fprintf(stderr, "blkscope record: %s: cannot read %s\n", path, file);
		return -1;
	}
	snprintf(file, sizeof(file), "%s/partition", real);
	if (access(file, F_OK) == 0) {
		/* a partition: its parent directory is the whole disk */
		snprintf(file, sizeof(file), "%s/start", real);
		if (read_u64(file, &start) < 0) {
			fprintf(stderr, "blkscope record: %s: cannot read %s\n", path, file);
			return -1;
		}
		snprintf(file, sizeof(file), "%s/../dev", real);
		if (read_devt(file, &t->disk) < 0) {
			fprintf(stderr, "blkscope record: %s: cannot find the whole disk (%s)\n",
				path, file);
			return -1;
		}
	} else {
		t->disk = t->dev;
	}
	t->start_lba = start;
	t->end_lba = start + size;
	return 0;
}
