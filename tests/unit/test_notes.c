// SPDX-License-Identifier: GPL-2.0
/*
 * test_notes.c - unit tests of blkscope's notes (format/bs_notes.h): the
 * end note and the trigger note round-trip through their encoder and
 * decoder, through the format reader (bs_stream) as written files, and
 * malformed texts are refused; the PROCESS, TIMESTAMP and host notes have
 * the kernel's layout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bs_codec.h"
#include "bs_notes.h"
#include "check.h"

union note {
	struct bs_trace t;
	uint8_t b[BS_TRIGGER_NOTE_MAX];
};

static const uint8_t *pdu_of(const union note *n)
{
	return n->b + sizeof(struct bs_trace);
}

/* A flagged MESSAGE with `text` after an id slot of zeros. */
static void message(union note *n, const char *text)
{
	size_t len = strlen(text);

	memset(n, 0, sizeof(*n));
	n->t.magic = BS_TRACE_MAGIC_V7;
	n->t.action = BS_NOTE_FLAGGED_MESSAGE;
	n->t.pdu_len = (uint16_t)(BS_CGROUP_LEN + len);
	memcpy(n->b + sizeof(struct bs_trace) + BS_CGROUP_LEN, text, len);
}

static void test_end_note(void)
{
	struct bs_end_note in = { .events = 123456789012ull, .drops = 7 }, out;
	union note n;
	size_t len = bs_end_note_make(n.b, sizeof(n), BS_MKDEV(8, 16), 3, 99, &in);

	CHECK(len > sizeof(struct bs_trace) && len <= BS_END_NOTE_MAX, "end note size %zu", len);
	CHECK(n.t.device == BS_MKDEV(8, 16) && n.t.cpu == 3 && n.t.time == 99 && !n.t.sequence,
	      "end note header");
	CHECK(bs_end_note_parse(&n.t, pdu_of(&n), false, &out) == 1 && out.events == in.events &&
	      out.drops == 7, "end note round trip");
	CHECK(!bs_end_note_make(n.b, 40, 0, 0, 0, &in), "too small a buffer");
	message(&n, "blkscope end events=5 drops=x");
	CHECK(!bs_end_note_parse(&n.t, pdu_of(&n), false, &out), "malformed drops refused");
	message(&n, "blkscope end events=5 drops=0 later=1");
	CHECK(bs_end_note_parse(&n.t, pdu_of(&n), false, &out) == 1 && out.events == 5,
	      "unknown fields ignored");
	message(&n, "blkscope trigger n=1 kind=signal expr=signal");
	CHECK(!bs_end_note_parse(&n.t, pdu_of(&n), false, &out), "a trigger note is no end note");
}

static void trigger_round_trip(const struct bs_trigger_note *in, const char *what)
{
	struct bs_trigger_note out;
	union note n;
	size_t len = bs_trigger_note_make(n.b, sizeof(n), in->device, 1, 1000, 42, in);

	CHECK(len > sizeof(struct bs_trace) && len <= BS_TRIGGER_NOTE_MAX, "%s: size %zu", what,
	      len);
	CHECK(n.t.action == BS_NOTE_FLAGGED_MESSAGE && n.t.pid == 42 && n.t.time == 1000 &&
	      n.t.cpu == 1, "%s: header", what);
	CHECK(bs_trigger_note_parse(&n.t, pdu_of(&n), false, &out) == 1, "%s: parsed", what);
	CHECK(out.kind == in->kind && out.n == in->n && !strcmp(out.expr, in->expr) &&
	      out.has_io == in->has_io, "%s: kind, n, expr", what);
	CHECK(out.device == (in->has_io ? in->device : 0) && out.sector == in->sector &&
	      out.bytes == in->bytes && !strcmp(out.rwbs, in->rwbs), "%s: the I/O", what);
	CHECK(out.q == in->q && out.d == in->d && out.c == in->c && out.latency == in->latency &&
	      out.error == in->error && out.lost == in->lost && out.sender == in->sender,
	      "%s: times and counts", what);
	{
		struct bs_end_note e;

		CHECK(!bs_end_note_parse(&n.t, pdu_of(&n), false, &e), "%s: no end note", what);
	}
}

static void test_trigger_note(void)
{
	struct bs_trigger_note lat = {
		.kind = BS_TRIGGER_LATENCY, .n = 1, .expr = "8,16:write.D2C>50ms", .has_io = true,
		.device = BS_MKDEV(8, 16), .sector = 123456789, .bytes = 1 << 20, .rwbs = "WS",
		.q = 5000000000ull, .d = 5000100000ull, .c = 5300100000ull, .latency = 300000000,
	};
	struct bs_trigger_note err = {
		.kind = BS_TRIGGER_ERROR, .n = 2, .expr = "error", .has_io = true,
		.device = BS_MKDEV(7, 1), .sector = 0, .bytes = 4096, .rwbs = "W", .c = 7,
		.error = 95,
	};
	struct bs_trigger_note drop = {
		.kind = BS_TRIGGER_DROP, .n = 1, .expr = "drop", .has_io = true,
		.device = BS_MKDEV(259, 3), .lost = 1234,
	};
	struct bs_trigger_note sig = { .kind = BS_TRIGGER_SIGNAL, .n = 1, .expr = "signal",
				       .sender = 4321 };
	struct bs_trigger_note ex = { .kind = BS_TRIGGER_EXIT, .n = 1, .expr = "exit" };
	struct bs_trigger_note out;
	union note n;

	trigger_round_trip(&lat, "latency");
	trigger_round_trip(&err, "error");
	trigger_round_trip(&drop, "drop");
	trigger_round_trip(&sig, "signal");
	trigger_round_trip(&ex, "exit");

	message(&n, "blkscope trigger n=1 kind=latency expr=D2C>1ms dev=8,0 sector=5 bytes=4096 "
		"c=9 latency=2000000 future=field");
	CHECK(bs_trigger_note_parse(&n.t, pdu_of(&n), false, &out) == 1 && out.latency == 2000000 &&
	      out.device == BS_MKDEV(8, 0) && out.sector == 5, "unknown fields ignored");
	message(&n, "blkscope trigger n=0 kind=signal expr=signal");
	CHECK(!bs_trigger_note_parse(&n.t, pdu_of(&n), false, &out), "n=0 refused");
	message(&n, "blkscope trigger n=1 kind=bogus expr=signal");
	CHECK(!bs_trigger_note_parse(&n.t, pdu_of(&n), false, &out), "unknown kind refused");
	message(&n, "blkscope trigger n=1 kind=signal");
	CHECK(!bs_trigger_note_parse(&n.t, pdu_of(&n), false, &out), "no expr refused");
	message(&n, "blkscope trigger n=1 kind=latency expr=x dev=8;0");
	CHECK(!bs_trigger_note_parse(&n.t, pdu_of(&n), false, &out), "bad dev refused");
	message(&n, "blkscope trigger n=1 kind=latency expr=x latency=-5");
	CHECK(!bs_trigger_note_parse(&n.t, pdu_of(&n), false, &out), "bad number refused");
	message(&n, "blkscope triggers n=1 kind=signal expr=signal");
	CHECK(!bs_trigger_note_parse(&n.t, pdu_of(&n), false, &out), "another word refused");
	message(&n, "blkscope trigger n=1 kind=signal expr=signal");
	n.t.action = BS_NOTE_MESSAGE;
	CHECK(!bs_trigger_note_parse(&n.t, pdu_of(&n), false, &out), "unflagged message refused");
	{
		struct bs_trigger_note longx = { .kind = BS_TRIGGER_SIGNAL, .n = 1 };

		memset(longx.expr, 'x', sizeof(longx.expr) - 1);
		CHECK(bs_trigger_note_make(n.b, sizeof(n), 0, 0, 0, 0, &longx) > 0,
		      "longest expression fits");
		CHECK(!bs_trigger_note_make(n.b, 60, 0, 0, 0, 0, &lat), "too small a buffer");
	}
}

static void test_kernel_notes(void)
{
	union note n;
	uint32_t w[2];
	char comm[BS_COMM_LEN] = "fio";
	size_t len = bs_process_note_make(n.b, sizeof(n), BS_MKDEV(7, 0), 1, 55, 1234, comm);

	CHECK(len == BS_PROCESS_NOTE_SIZE && n.t.action == BS_NOTE_PROCESS && n.t.pid == 1234 &&
	      n.t.pdu_len == BS_COMM_LEN && !memcmp(pdu_of(&n), "fio\0\0", 5), "PROCESS note");
	len = bs_timestamp_note_make(n.b, sizeof(n), BS_MKDEV(7, 0), 0, 77, 0x1234567890ull, 999);
	memcpy(w, pdu_of(&n), sizeof(w));
	CHECK(len == BS_TIMESTAMP_NOTE_SIZE && n.t.action == BS_NOTE_TIMESTAMP &&
	      n.t.pdu_len == 8 &&
	      w[0] == 0x34567890u && w[1] == 999 && n.t.time == 77, "TIMESTAMP note");
	len = bs_host_note_make(n.b, sizeof(n), BS_MKDEV(7, 0), 0, 78, "my host", "6.18.0", "");
	CHECK(len > sizeof(struct bs_trace) && n.t.action == BS_NOTE_MESSAGE &&
	      n.t.pdu_len == strlen("blkscope host=my_host kernel=6.18.0 boot_id=unknown") &&
	      !memcmp(pdu_of(&n), "blkscope host=my_host kernel=6.18.0 boot_id=unknown",
		      n.t.pdu_len),
	      "host note");
}

int main(void)
{
	test_end_note();
	test_trigger_note();
	test_kernel_notes();
	printf("%d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
