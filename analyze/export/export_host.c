// SPDX-License-Identifier: GPL-2.0
/*
 * export_host.c - the host note (docs/format.md, "The host note"): a
 * MESSAGE that `blkscope record` writes at start,
 *	"blkscope host=NAME kernel=RELEASE boot_id=UUID"
 * from which `export` fills its host column.
 */
#include <string.h>
#include "export.h"

#define HOST_NOTE "blkscope host="

bool export_host_note(const char *msg, size_t n, char *host, size_t len)
{
	size_t k = strlen(HOST_NOTE), end;

	n = strnlen(msg, n);
	if (n <= k || memcmp(msg, HOST_NOTE, k))
		return false;
	for (end = k; end < n && msg[end] != ' '; end++)
		;
	if (end == k || end - k >= len)
		return false;
	memcpy(host, msg + k, end - k);
	host[end - k] = 0;
	return true;
}
