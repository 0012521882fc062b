/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_devname.h - a device number as blkparse and btt print it ("8,0").
 * blktrace records the kernel's dev_t: major in the top 12 bits, minor in
 * the low 20 (not glibc's makedev() layout; format/bs_defs.h has the
 * BS_DEV_MAJOR/MINOR macros for code that knows the format).
 */
#ifndef BLKSCOPE_BS_DEVNAME_H
#define BLKSCOPE_BS_DEVNAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BS_DEVNAME_LEN 24	/* "4095,1048575" and then some */

static inline const char *bs_devname(uint32_t dev, char *buf, size_t len)
{
	snprintf(buf, len, "%u,%u", (unsigned int)(dev >> 20), (unsigned int)(dev & 0xfffff));
	return buf;
}

#endif /* BLKSCOPE_BS_DEVNAME_H */
