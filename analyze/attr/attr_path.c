// SPDX-License-Identifier: GPL-2.0
/*
 * attr_path.c - how an attributed I/O is named in reports (attr.h): its
 * file's path, or its class; a file's directory at a depth.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "attr.h"

static const char *const class_labels[BS_FC_COUNT] = {
	"(not attributed)",
	"(page cache, file unknown)",
	"(direct I/O, file unknown)",
	"(metadata)",
	"(journal)",
	"(swap)",
	"(raw device)",
	"(no data: flush, discard)",
	"(other: no file)",
};

const char *attr_label(const struct attr_dict *d, uint32_t file, unsigned int cls, char *buf,
		       size_t len)
{
	const struct attr_file *f = d ? attr_file(d, file) : NULL;

	if (!f)
		return class_labels[cls < BS_FC_COUNT ? cls : 0];
	if (f->flags & BS_NF_NO_PATH || !f->path[0]) {
		snprintf(buf, len, "(file dev %u,%u inode %" PRIu64 ", path unknown)",
			 f->fdev >> 20, f->fdev & 0xfffff, f->ino);
		return buf;
	}
	if (!(f->flags & BS_NF_DELETED))
		return f->path;
	snprintf(buf, len, "%s (deleted)", f->path);
	return buf;
}

const char *attr_dir(const struct attr_file *f, unsigned int depth, char *buf, size_t len)
{
	const char *p, *slash, *cut = NULL;
	unsigned int n = 0;
	size_t keep;

	if (!f || (f->flags & BS_NF_NO_PATH) || f->path[0] != '/')
		return NULL;
	slash = strrchr(f->path, '/');	/* the parent: everything before the last component */
	for (p = f->path + 1; depth && (p = strchr(p, '/')) && p <= slash; p++)
		if (++n == depth) {
			cut = p;
			break;
		}
	if (!cut)
		cut = slash;
	keep = cut > f->path ? (size_t)(cut - f->path) : 1;	/* "/" for a file in the root */
	if (keep >= len)
		keep = len - 1;
	memcpy(buf, f->path, keep);
	buf[keep] = 0;
	return buf;
}
