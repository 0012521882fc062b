/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_devname.h - device numbers as blktrace stores them and as the tools
 * print them.  blktrace records the kernel's dev_t: major in the top 12
 * bits, minor in the low 20 (not the userspace makedev() layout).
 */
#ifndef BLKSCOPE_BS_DEVNAME_H
#define BLKSCOPE_BS_DEVNAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BS_MINORBITS	20
#define BS_MAJOR(dev)	((unsigned int)((dev) >> BS_MINORBITS))
#define BS_MINOR(dev)	((unsigned int)((dev) & ((1U << BS_MINORBITS) - 1)))
#define BS_MKDEV(ma, mi) ((uint32_t)(((ma) << BS_MINORBITS) | (mi)))

/* "8,0" as blkparse and btt print a device; at most 12 bytes with NUL. */
#define BS_DEVNAME_LEN 16
static inline const char *bs_devname(uint32_t dev, char *buf, size_t len)
{
	snprintf(buf, len, "%u,%u", BS_MAJOR(dev), BS_MINOR(dev));
	return buf;
}

#endif /* BLKSCOPE_BS_DEVNAME_H */
