/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup_names.h - cgroup id -> path, from blkscope's cgroup notes
 * ("cgroup ID PATH" messages that `record --cgroup-ids` writes before an
 * id's first record; docs/format.md).  Hashed by id: a trace may name
 * many cgroups, and a label is looked up per group, not per event.
 */
#ifndef BLKSCOPE_CGROUP_NAMES_H
#define BLKSCOPE_CGROUP_NAMES_H

#include <stddef.h>
#include <stdint.h>
#include "bs_hash.h"

struct bs_cgroup_names {
	struct bs_hash idx;	/* id -> index in path */
	char **path;
	size_t n;
};

/* Remember id's path (len bytes, not NUL-terminated); an id keeps its first path. */
void bs_cgroup_names_add(struct bs_cgroup_names *c, uint64_t id, const char *path, size_t len);

/* The path of id, or NULL if no note named it. */
const char *bs_cgroup_names_get(const struct bs_cgroup_names *c, uint64_t id);

void bs_cgroup_names_free(struct bs_cgroup_names *c);

#endif /* BLKSCOPE_CGROUP_NAMES_H */
