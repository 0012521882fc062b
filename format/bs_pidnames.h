/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_pidnames.h - pid -> command name registry fed by PROCESS notes.
 * Like blkparse, the first name seen for a pid is kept.
 */
#ifndef BLKSCOPE_BS_PIDNAMES_H
#define BLKSCOPE_BS_PIDNAMES_H

#include <stdint.h>
#include "bs_defs.h"

struct bs_pidnames;

struct bs_pidnames *bs_pidnames_new(void);
void bs_pidnames_free(struct bs_pidnames *p);

/* Register comm (up to 16 bytes, NUL-padded or not) for pid if not known. */
void bs_pidnames_add(struct bs_pidnames *p, uint32_t pid, const char *comm, size_t len);

/* NUL-terminated name, or NULL if the pid never had a PROCESS note. */
const char *bs_pidnames_get(const struct bs_pidnames *p, uint32_t pid);

#endif /* BLKSCOPE_BS_PIDNAMES_H */
