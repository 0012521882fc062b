// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_io.c - buffered record input and response output for tagging
 * plugins.  See plugin_io.h.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_codec.h"
#include "bs_native.h"
#include "plugin_io.h"

#define PIO_IN_CAP	(1u << 20)	/* far more than a pipe holds */
#define PIO_OUT_CAP	(256u << 10)

int pio_init(struct plugin_io *io, const char *prog)
{
	memset(io, 0, sizeof(*io));
	io->prog = prog;
	io->in_cap = PIO_IN_CAP;
	io->out_cap = PIO_OUT_CAP;
	io->in = malloc(io->in_cap);
	io->out = malloc(io->out_cap);
	if (!io->in || !io->out) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -1;
	}
	return 0;
}

void pio_free(struct plugin_io *io)
{
	free(io->in);
	free(io->out);
	io->in = io->out = NULL;
}

int pio_flush(struct plugin_io *io)
{
	size_t done = 0;

	while (done < io->out_len) {
		ssize_t n = write(STDOUT_FILENO, io->out + done, io->out_len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: writing responses: %s\n", io->prog, strerror(errno));
			return -1;
		}
		done += n;
	}
	io->out_len = 0;
	return 0;
}

/*
 * Queue an answer.  Once a write failed the host is gone: answers are
 * dropped and the next pio_next() ends the plugin's loop with an error.
 */
static void put(struct plugin_io *io, const void *p, size_t len)
{
	if (io->broken)
		return;
	if (io->out_len + len > io->out_cap && pio_flush(io) < 0) {
		io->broken = true;
		return;
	}
	if (len > io->out_cap) {	/* cannot happen with 4 KiB labels; be safe */
		if (write(STDOUT_FILENO, p, len) != (ssize_t)len)
			io->broken = true;
		return;
	}
	memcpy(io->out + io->out_len, p, len);
	io->out_len += len;
}

static void put_u32(struct plugin_io *io, uint32_t v)
{
	put(io, &v, sizeof(v));
}

void pio_end(struct plugin_io *io)
{
	put_u32(io, TAG_RESP_END);
}

void pio_tag_io(struct plugin_io *io, uint32_t tag)
{
	uint32_t r[2] = { TAG_RESP_TAG_IO, tag };

	put(io, r, sizeof(r));
}

void pio_new_tag(struct plugin_io *io, uint32_t tag, const char *label)
{
	size_t len = strnlen(label, TAG_LABEL_MAX - 1);
	uint32_t r[3] = { TAG_RESP_NEW_TAG, tag, (uint32_t)len + 1 };

	put(io, r, sizeof(r));
	put(io, label, len);
	put(io, "", 1);		/* the NUL the protocol counts in len */
}

/* Make room and read more; 0 = got data, 1 = EOF, -1 = error. */
static int fill(struct plugin_io *io)
{
	ssize_t n;

	if (io->in_pos) {
		memmove(io->in, io->in + io->in_pos, io->in_len - io->in_pos);
		io->in_len -= io->in_pos;
		io->in_pos = 0;
	}
	/* The read below may block: the host must have our answers first. */
	if (pio_flush(io) < 0)
		return -1;
	do
		n = read(STDIN_FILENO, io->in + io->in_len, io->in_cap - io->in_len);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		fprintf(stderr, "%s: reading events: %s\n", io->prog, strerror(errno));
		return -1;
	}
	if (n == 0)
		return 1;
	io->in_len += n;
	return 0;
}

int pio_next(struct plugin_io *io, struct bs_trace *t, const uint8_t **pdu)
{
	if (io->broken)
		return -1;
	for (;;) {
		size_t avail = io->in_len - io->in_pos;

		size_t size = bs_native_peek(io->in + io->in_pos, avail, t);

		if (size) {
			if (!bs_native_magic_ok(t)) {
				fprintf(stderr, "%s: event %llu: bad magic 0x%08x "
					"(not a native-order record)\n",
					io->prog, (unsigned long long)io->events, t->magic);
				return -1;
			}
			if (avail >= size) {
				*pdu = bs_native_pdu(io->in + io->in_pos);
				io->in_pos += size;
				io->events++;
				return 1;
			}
		}
		switch (fill(io)) {
		case 0:
			break;
		case 1:
			if (io->in_len > io->in_pos) {
				fprintf(stderr, "%s: event %llu: input ends inside a record\n",
					io->prog, (unsigned long long)io->events);
				return -1;
			}
			return 0;
		default:
			return -1;
		}
	}
}

const uint8_t *pio_note_payload(const struct bs_trace *t, const uint8_t *pdu, size_t *len)
{
	const uint8_t *payload = bs_pdu_payload(t, pdu, len);

	/* a flagged note too short for its cgroup id carries no payload */
	if ((t->action & BS_TA_CGROUP) && *len == t->pdu_len)
		*len = 0;
	return payload;
}

int pio_plugin_main(const struct pio_plugin *p, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "group", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct plugin_io io;
	struct bs_trace t;
	const uint8_t *pdu;
	int c, r;

	while ((c = getopt_long(argc, argv, "g:h", opts, NULL)) != -1) {
		switch (c) {
		case 'g':
			if (p->add_group(optarg) < 0)
				return 2;
			break;
		case 'h':
			p->usage(stdout);
			return 0;
		default:
			fprintf(stderr, "Try '%s --help'.\n", p->prog);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s' (the trace comes on stdin). "
			"Try '%s --help'.\n", p->prog, argv[optind], p->prog);
		return 2;
	}
	if (pio_init(&io, p->prog) < 0)
		return 1;
	while ((r = pio_next(&io, &t, &pdu)) == 1) {
		unsigned int code = pio_code(&t);

		if (bs_is_note(t.action)) {
			if (code == BS_TN_PROCESS && p->on_process_note(&t, pdu) < 0)
				goto oom;
		} else if (code == BS_TA_QUEUE || code == BS_TA_ISSUE) {
			if (p->on_io(&io, &t) < 0)
				goto oom;
		}
		pio_end(&io);
	}
	if (r < 0 || pio_flush(&io) < 0)
		return 1;
	pio_free(&io);
	if (p->at_end)
		p->at_end();
	return 0;
oom:
	fprintf(stderr, "%s: out of memory\n", p->prog);
	return 1;
}
