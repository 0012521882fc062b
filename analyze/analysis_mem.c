// SPDX-License-Identifier: GPL-2.0
/*
 * analysis_mem.c - the analyzer's memory budget (--memory-limit SIZE).
 *
 * A hostile but valid trace can make the analysis hold a lot: millions of
 * requests queued and never completed, a process name per pid, state per
 * device.  Rather than growing until the kernel's OOM killer ends the
 * process (or the machine), the run measures its memory every few
 * thousand events and notes and stops with one line naming the input and
 * the budget when it is over.  What is measured is the process's private
 * resident memory (statm resident - shared: the heap and anonymous maps,
 * not the program text or mapped input), or under AddressSanitizer the
 * bytes its allocator has handed out (its shadow and quarantine would
 * count otherwise).  Checking the whole process rather than counting every
 * allocation covers every structure without touching the hot paths, and
 * costs one read of /proc/self/statm per 65536 records.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analysis_priv.h"
#include "bs_arg.h"
#include "bs_stream.h"

/* AddressSanitizer's own count, when linked in (weak: NULL otherwise) */
extern size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

/* The private resident memory of this process in bytes, 0 if unknown. */
static uint64_t memory_in_use(void)
{
	char buf[128];
	unsigned long long size, resident, shared;
	ssize_t n;
	int fd;

	if (__sanitizer_get_current_allocated_bytes)
		return __sanitizer_get_current_allocated_bytes();
	fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	if (sscanf(buf, "%llu %llu %llu", &size, &resident, &shared) != 3 || shared > resident)
		return 0;
	return (uint64_t)(resident - shared) * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* The default: half of the physical memory (at least 256 MiB). */
uint64_t analysis_default_memory_limit(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	uint64_t half = pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz / 2 : 0;

	return half > (256ull << 20) ? half : 256ull << 20;
}

/*
 * SIZE: a whole number of bytes with an optional binary suffix K, M, G or T
 * (KiB, MiB, GiB, TiB; "KiB" and "MB" spellings too); at least 16M, or 0
 * for no limit.  0, or -1 with err filled (bs_arg's line).
 */
int analysis_parse_memory_limit(const char *arg, uint64_t *out, struct bs_err *err)
{
	unsigned long long n;
	unsigned int shift = 0;
	char *end;

	errno = 0;
	n = strtoull(arg, &end, 10);
	if (errno || end == arg || !isdigit((unsigned char)arg[0]))
		goto bad;
	switch (toupper((unsigned char)*end)) {
	case 0: break;
	case 'K': shift = 10; break;
	case 'M': shift = 20; break;
	case 'G': shift = 30; break;
	case 'T': shift = 40; break;
	default: goto bad;
	}
	if (*end) {
		end++;
		if (!strcasecmp(end, "iB") || !strcasecmp(end, "B"))
			end += strlen(end);
		if (*end)
			goto bad;
	}
	if (n > (UINT64_MAX >> shift))
		goto bad;
	n <<= shift;
	if (n && n < (16ull << 20)) {
		return bs_arg_bad(bs_progname(), "--memory-limit", arg,
				  "a size of at least 16M, or 0 for no limit", err);
	}
	*out = n;
	return 0;
bad:
	return bs_arg_bad(bs_progname(), "--memory-limit", arg,
			  "a size such as 512M or 4G, or 0 for no limit", err);
}

/* analysis_mem_tick()'s every 65536th record: measure; true when over (message printed). */
bool analysis_measure_memory(struct analysis *a)
{
	uint64_t used = memory_in_use();

	if (used <= a->mem_limit)
		return false;
	a->mem_over = true;
	bs_msg(&a->msgs.sink, BS_MSG_ERROR,
	       "%s%s: the analysis needs more than %" PRIu64 " MiB (--memory-limit); "
	       "stopped after %" PRIu64 " events; give it more (--memory-limit SIZE, 0 = no limit) "
	       "or analyse a part of the trace (-t/-T, -D)",
	       a->ninputs ? a->inputs[0] : "-", a->ninputs > 1 ? " ..." : "", a->mem_limit >> 20,
	       a->nevents);
	return true;
}

bool analysis_over_memory(const struct analysis *a)
{
	return a->mem_over;
}
