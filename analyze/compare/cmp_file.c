// SPDX-License-Identifier: GPL-2.0
/* cmp_file.c - output files as analyze makes them: "-" is stdout, else created as analyze does (bs_create_output: O_NOFOLLOW). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "bs_writer.h"
#include "compare.h"

FILE *cmp_create_file(const char *path)
{
	FILE *f;
	int fd;

	if (!strcmp(path, "-"))
		return stdout;
	fd = bs_create_output(path);
	if (fd < 0) {
		fprintf(stderr, "blkscope-compare: cannot create %s: %s\n", path, strerror(errno));
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "blkscope-compare: %s: %s\n", path, strerror(errno));
		close(fd);
	}
	return f;
}

int cmp_close_file(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (f == stdout)
		bad |= fflush(f) != 0;
	else
		bad |= fclose(f) != 0;
	if (bad) {
		fprintf(stderr, "blkscope-compare: writing %s failed\n", path);
		return -1;
	}
	return 0;
}
