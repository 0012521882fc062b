/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_attr_priv.h - what bs_attr.c (the records) gives bs_side.c (the
 * reader of the side files); nothing outside format/ uses it.
 */
#ifndef BLKSCOPE_BS_ATTR_PRIV_H
#define BLKSCOPE_BS_ATTR_PRIV_H

#include "bs_attr.h"

#define BS_NAMES_HEAD 8

/* 0, -1 (not a side file), -2 (another version) */
int bs_attr_header_parse(const void *buf, struct bs_attr_header *h);
void bs_attr_rec_parse(const void *buf, struct bs_attr_rec *r);
void bs_names_head_parse(const void *buf, uint16_t *type, uint32_t *len);
/* frames: room for 2 * BS_NAMES_FRAMES_MAX; 0, or -1 if the body is not what its type says */
int bs_names_body_parse(uint16_t type, const uint8_t *body, uint32_t len, struct bs_names_rec *r,
			struct bs_names_frame *frames);

#endif /* BLKSCOPE_BS_ATTR_PRIV_H */
