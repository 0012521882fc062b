/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report_cgroup_names.h - cgroup id -> path, from blkscope's cgroup notes
 * ("cgroup ID PATH" messages that `record --cgroup-ids` writes before an
 * id's first record; docs/format.md).  Hashed by id: a trace may name
 * many cgroups, and a label is looked up per group, not per event.
 */
#ifndef BLKSCOPE_REPORT_CGROUP_NAMES_H
#define BLKSCOPE_REPORT_CGROUP_NAMES_H

#include <stddef.h>
#include <stdint.h>
#include "bs_hash.h"

struct report_cgroup_names {
	struct bs_hash idx;	/* id -> index in path */
	char **path;
	size_t n;
};

/* Remember id's path (len bytes, not NUL-terminated); an id keeps its first path. */
void report_cgroup_names_add(struct report_cgroup_names *c, uint64_t id, const char *path,
			     size_t len);

/* The path of id, or NULL if no note named it. */
const char *report_cgroup_names_get(const struct report_cgroup_names *c, uint64_t id);

void report_cgroup_names_free(struct report_cgroup_names *c);

#endif /* BLKSCOPE_REPORT_CGROUP_NAMES_H */
