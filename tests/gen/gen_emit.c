// SPDX-License-Identifier: GPL-2.0
/* gen_emit.c - writing generated records into per-CPU files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bs_codec.h"
#include "bs_stream.h"
#include "bs_outfile.h"
#include "gen.h"

#define RAW_BUF (1 << 20)

static int raw_flush(struct gen_raw *r)
{
	size_t off = 0;

	while (off < r->len) {
		ssize_t n = write(r->fd, r->buf + off, r->len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		off += (size_t)n;
	}
	r->len = 0;
	return 0;
}

int gen_open(struct gen *g)
{
	char path[4096];

	for (int b = 0; b < g->nbases; b++) {
		for (int c = 0; c < g->ncpus; c++) {
			struct gen_out *o = &g->out[b][c];
			int fd;

			if (bs_percpu_path(path, sizeof(path), g->dir, g->bases[b], c) < 0) {
				fprintf(stderr, "bs-gen-trace: output name too long\n");
				return -1;
			}
			fd = bs_create_output(path, BS_CREATE_REPLACE);
			if (fd < 0) {
				fprintf(stderr, "bs-gen-trace: %s: %s\n", path, strerror(errno));
				return -1;
			}
			if (g->swap) {
				o->raw.fd = fd;
				o->raw.buf = malloc(RAW_BUF);
				o->raw.len = 0;
				if (!o->raw.buf)
					return -1;
			} else if (bs_writer_init(&o->w, fd, path) < 0) {
				return -1;
			} else if (g->v8) {
				bs_writer_set_format(&o->w, BS_OUT_V8);
			}
			o->open = true;
		}
	}
	return 0;
}

int gen_close(struct gen *g)
{
	int ret = 0;

	for (int b = 0; b < g->nbases; b++) {
		for (int c = 0; c < g->ncpus; c++) {
			struct gen_out *o = &g->out[b][c];

			if (!o->open)
				continue;
			if (g->swap) {
				if (raw_flush(&o->raw) < 0 || close(o->raw.fd) < 0)
					ret = -1;
				free(o->raw.buf);
			} else if (bs_writer_close(&o->w) < 0) {
				ret = -1;
			}
			o->open = false;
		}
	}
	return ret;
}

static int dev_index(struct gen *g, uint32_t dev)
{
	for (int i = 0; i < GEN_MAX_DEVS; i++) {
		if (g->devs[i] == dev)
			return i;
		if (!g->devs[i]) {
			g->devs[i] = dev;
			return i;
		}
	}
	return GEN_MAX_DEVS - 1;
}

/* The byte-swapped copy of a record: header fields and host-order PDU words. */
static void put_swapped(struct gen_raw *r, const struct bs_trace *t, uint32_t action_hi, bool v8,
			const void *pdu)
{
	struct bs_trace s = *t;
	uint8_t p[BS_MAX_SANE_PDU], hdr[BS_TRACE2_SIZE];
	size_t hlen = BS_TRACE_SIZE;
	unsigned int act = t->action;

	if (t->pdu_len)
		memcpy(p, pdu, t->pdu_len);
	/* TIMESTAMP words and the cgroup id are host-endian; U/X/A PDUs are BE already */
	if (act == BS_NOTE_TIMESTAMP && t->pdu_len == 8) {
		uint32_t w[2];

		memcpy(w, p, 8);
		w[0] = bs_swap32(w[0]);
		w[1] = bs_swap32(w[1]);
		memcpy(p, w, 8);
	} else if ((act & BS_TA_CGROUP) && t->pdu_len >= 8) {
		uint32_t w[2];

		memcpy(w, p, 8);
		w[0] = bs_swap32(w[0]);
		w[1] = bs_swap32(w[1]);
		memcpy(p, w, 8);
	}
	if (v8) {
		struct bs_trace2 s2;

		s.magic = BS_TRACE_MAGIC_V8;
		bs_encode_v8(&s2, &s, action_hi);
		bs_trace2_swap(&s2);
		memcpy(hdr, &s2, sizeof(s2));
		hlen = BS_TRACE2_SIZE;
	} else {
		bs_trace_swap(&s);
		memcpy(hdr, &s, sizeof(s));
	}
	if (r->len + hlen + t->pdu_len > RAW_BUF)
		raw_flush(r);
	memcpy(r->buf + r->len, hdr, hlen);
	memcpy(r->buf + r->len + hlen, p, t->pdu_len);
	r->len += hlen + t->pdu_len;
}

void gen_emit(struct gen *g, int base, int cpu, uint32_t dev, uint64_t sector, uint32_t bytes,
	      uint32_t action, uint32_t pid, uint16_t error, const void *pdu, uint16_t pdu_len)
{
	gen_emit2(g, base, cpu, dev, sector, bytes, action, 0, pid, error, pdu, pdu_len);
}

void gen_emit2(struct gen *g, int base, int cpu, uint32_t dev, uint64_t sector, uint32_t bytes,
	       uint32_t action, uint32_t action_hi, uint32_t pid, uint16_t error, const void *pdu,
	       uint16_t pdu_len)
{
	struct bs_trace t = {
		.magic = BS_TRACE_MAGIC_V7,
		.time = g->now,
		.sector = sector,
		.bytes = bytes,
		.action = action,
		.pid = pid,
		.device = dev,
		.cpu = (uint32_t)cpu,
		.error = error,
		.pdu_len = pdu_len,
	};

	if (!bs_is_note(action))
		t.sequence = ++g->seq[dev_index(g, dev)][cpu];
	gen_put(g, base, cpu, &t, action_hi, pdu);
}

void gen_put(struct gen *g, int base, int file, const struct bs_trace *t, uint32_t action_hi,
	     const void *pdu)
{
	struct gen_out *o = &g->out[base][file];

	if (g->swap)
		put_swapped(&o->raw, t, action_hi, g->v8, pdu);
	else
		bs_writer_put2(&o->w, t, action_hi, pdu);
	g->records++;
}

void gen_note_process(struct gen *g, int base, int cpu, uint32_t dev, uint32_t pid,
		      const char *comm)
{
	char buf[BS_COMM_LEN] = { 0 };
	size_t len = strlen(comm);

	/* the kernel's comm: NUL-padded, not always NUL-terminated */
	memcpy(buf, comm, len < sizeof(buf) ? len : sizeof(buf));
	gen_emit(g, base, cpu, dev, 0, 0, BS_NOTE_PROCESS, pid, 0, buf, sizeof(buf));
}

void gen_note_timestamp(struct gen *g, int base, int cpu, uint32_t dev, uint32_t sec, uint32_t nsec)
{
	uint32_t w[2] = { sec, nsec };

	gen_emit(g, base, cpu, dev, 0, 0, BS_NOTE_TIMESTAMP, 0, 0, w, sizeof(w));
}

void gen_note_message(struct gen *g, int base, int cpu, uint32_t dev, uint32_t pid,
		      const char *text, bool cgroup)
{
	uint8_t buf[256];
	size_t len = strlen(text), off = 0;

	if (cgroup) {
		/* CONFIG_BLK_CGROUP kernels: cgroup id first; the dummy id 1 */
		uint32_t id[2] = { 1, 0 };

		memcpy(buf, id, sizeof(id));
		off = sizeof(id);
	}
	if (len > sizeof(buf) - off)
		len = sizeof(buf) - off;
	memcpy(buf + off, text, len);
	gen_emit(g, base, cpu, dev, 0, 0, BS_NOTE_MESSAGE | (cgroup ? BS_TA_CGROUP : 0), pid, 0,
		 buf, (uint16_t)(off + len));
}
