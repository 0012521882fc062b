/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plugin_io.h - the plugin side of the tagging pipe protocol
 * (docs/tags.md §The protocol): read the host's records
 * from stdin, write responses to stdout.
 *
 * Both directions go through large buffers: a plugin that made one
 * syscall per event could not keep up with the host.  The one rule that
 * keeps host and plugin from deadlocking is honoured here: pending
 * responses are flushed before every read that may block, so the host
 * always sees the answers to everything the plugin has consumed.
 */
#ifndef BLKSCOPE_TAGS_PLUGIN_IO_H
#define BLKSCOPE_TAGS_PLUGIN_IO_H

#include <stddef.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>
#include "bs_defs.h"

/* Response types (TAG_RESP_*), u32 in host byte order. */
enum {
	TAG_RESP_END = 0,
	TAG_RESP_NEW_TAG = 1,
	TAG_RESP_TAG_IO = 2,
};

/* Longest label the protocol allows, NUL included. */
#define TAG_LABEL_MAX 4096

struct plugin_io {
	const char *prog;	/* for error messages */
	uint8_t *in;
	size_t in_pos, in_len, in_cap;
	uint8_t *out;
	size_t out_len, out_cap;
	uint64_t events;	/* records returned so far */
	bool broken;		/* writing answers failed: the host is gone */
};

int pio_init(struct plugin_io *io, const char *prog);

/*
 * Next record from stdin: 1 = *t and *pdu filled (pdu valid until the next
 * call), 0 = end of input, -1 = error (message printed; also once writing
 * an answer has failed: the host is gone, nothing is left to answer).
 */
int pio_next(struct plugin_io *io, struct bs_trace *t, const uint8_t **pdu);

/* Queue responses; they reach the host at the next flush. */
void pio_new_tag(struct plugin_io *io, uint32_t tag, const char *label);
void pio_tag_io(struct plugin_io *io, uint32_t tag);
void pio_end(struct plugin_io *io);

/* Write out queued responses; 0, or -1 (message printed). */
int pio_flush(struct plugin_io *io);

void pio_free(struct plugin_io *io);

/* Basic action (Q, D, ...) or notify code of a record, cgroup flag removed. */
static inline unsigned int pio_code(const struct bs_trace *t)
{
	return t->action & 0xffff & ~BS_TA_CGROUP;
}

/* The PDU of a note without its optional 8-byte cgroup prefix. */
const uint8_t *pio_note_payload(const struct bs_trace *t, const uint8_t *pdu, size_t *len);

/* What a tagging plugin built on plugin_io supplies: -g, --help, two handlers. */
struct pio_plugin {
	const char *prog;
	void (*usage)(FILE *f);
	int (*add_group)(const char *arg);	/* -g ARG; -1 after a usage error line */
	/* PROCESS note; -1 on out of memory */
	int (*on_process_note)(const struct bs_trace *t, const uint8_t *pdu);
	/* Q or D event: answer NEW_TAG/TAG_IO as needed; -1 on out of memory */
	int (*on_io)(struct plugin_io *io, const struct bs_trace *t);
	/* after the last event (may be NULL): say what matched nothing, on stderr */
	void (*at_end)(void);
};

/*
 * The whole main() of such a plugin: options (-g NAME:..., -h), then every
 * event answered with the handler's responses and END.  Returns the exit
 * status: 0, 1 (I/O error or out of memory), 2 (usage error).
 */
int pio_plugin_main(const struct pio_plugin *p, int argc, char **argv);

#endif /* BLKSCOPE_TAGS_PLUGIN_IO_H */
