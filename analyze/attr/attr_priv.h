/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attr_priv.h - what the files of analyze/attr/ share.
 */
#ifndef BLKSCOPE_ATTR_PRIV_H
#define BLKSCOPE_ATTR_PRIV_H

#include "attr.h"

/* One names file's ids -> the analysis's. */
struct attr_idmap {
	struct bs_hash files, stacks;
};

struct attr_dict *attr_dict_new(const struct bs_msg_sink *warn);
void attr_dict_read(struct attr_dict *d, struct bs_side *s, struct attr_idmap *m);
void attr_dict_seal(struct attr_dict *d);

#endif /* BLKSCOPE_ATTR_PRIV_H */
