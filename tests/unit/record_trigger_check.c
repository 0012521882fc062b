// SPDX-License-Identifier: GPL-2.0
/*
 * record_trigger_check.c - unit tests of the flight recorder's triggers:
 * --trigger parsing (record/rec_trigger.c), the Q/D/C pairing of inflight.c
 * over back and front merges, split bios, requests without a Q, flushes
 * and a full table, and evaluation on crafted event sequences (latency,
 * operation and device filters, errors, sequence gaps).
 */
#include <stdio.h>
#include <string.h>
#include "bs_codec.h"
#include "record.h"
#include "check.h"

static void test_parse(void)
{
	static const char *const good[] = { "signal", "D2C>100ms", "q2c>1s", "write.Q2C>1.5s",
					    "8,16:D2C>50ms", "sdb:read.Q2D>20us", "error",
					    "write.error", "8,0:drop", "D2C>1h" };
	static const char *const bad[] = { "", "D2C", "D2C>", "D2C>0ms", "D2C>10", "D2C>-1s",
					   "X2C>1s", "bogus.D2C>1s", "write.drop", ":D2C>1s",
					   "D2C>1s;rm", "D2C >1s", "signalx" };
	struct rec_trigger t;
	char why[160];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(!rec_trigger_parse(good[i], &t, why, sizeof(why)), "'%s' refused: %s",
		      good[i], why);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(rec_trigger_parse(bad[i], &t, why, sizeof(why)) < 0, "'%s' accepted", bad[i]);
	rec_trigger_parse("8,16:write.Q2C>1.5s", &t, why, sizeof(why));
	CHECK(t.kind == BS_TRIGGER_LATENCY && t.metric == REC_Q2C && t.threshold == 1500000000ull &&
	      t.op == REC_OP_WRITE && !strcmp(t.dev, "8,16") &&
	      !strcmp(t.expr, "8,16:write.Q2C>1.5s"),
	      "fields of a full trigger");
	{
		struct rec_trace tr[2] = { { .name = "sda", .dev = BS_MKDEV(8, 0) },
					   { .name = "sdb", .dev = BS_MKDEV(8, 16) } };

		CHECK(!rec_trigger_resolve(&t, tr, 2) && t.trace == 1, "8,16 is trace 1");
		rec_trigger_parse("sda:error", &t, why, sizeof(why));
		CHECK(!rec_trigger_resolve(&t, tr, 2) && t.trace == 0, "sda is trace 0");
		rec_trigger_parse("9,9:drop", &t, why, sizeof(why));
		CHECK(rec_trigger_resolve(&t, tr, 2) < 0, "an untraced device refused");
	}
}

static void test_pairing(void)
{
	struct rec_inflight *f = rec_inflight_new(4);
	uint64_t q, d;

	/* back merge: two bios, one request */
	rec_inflight_queue(f, 0, 0, 4096, 1);
	rec_inflight_queue(f, 0, 8, 4096, 2);
	rec_inflight_issue(f, 0, 0, 8192, 10, &q);
	CHECK(q == 1, "issue of a back merge: earliest Q %llu", (unsigned long long)q);
	CHECK(rec_inflight_complete(f, 0, 0, 8192, &q, &d) && q == 1 && d == 10, "back merge");
	CHECK(rec_inflight_len(f) == 0, "back merge left %zu", rec_inflight_len(f));
	/* front merge: the later bio starts the request */
	rec_inflight_queue(f, 0, 108, 4096, 3);
	rec_inflight_queue(f, 0, 100, 4096, 4);
	rec_inflight_issue(f, 0, 100, 8192, 5, &q);
	CHECK(rec_inflight_complete(f, 0, 100, 8192, &q, &d) && q == 3 && d == 5,
	      "front merge q %llu", (unsigned long long)q);
	/* a split bio: issued and completed in two parts */
	rec_inflight_queue(f, 0, 200, 8192, 6);
	rec_inflight_issue(f, 0, 200, 4096, 7, &q);
	CHECK(rec_inflight_complete(f, 0, 200, 4096, &q, &d) && q == 6 && d == 7,
	      "split, first part");
	CHECK(rec_inflight_len(f) == 1, "the split's second part waits");
	rec_inflight_issue(f, 0, 208, 4096, 8, &q);
	CHECK(rec_inflight_complete(f, 0, 208, 4096, &q, &d) && q == 6 && d == 8,
	      "split, second part");
	/* no Q (only D2C asked, or not recorded); a flush of 0 bytes */
	rec_inflight_issue(f, 1, 300, 4096, 9, &q);
	CHECK(!q && rec_inflight_complete(f, 1, 300, 4096, &q, &d) && !q && d == 9, "D without Q");
	rec_inflight_issue(f, 0, 0, 0, 11, &q);
	CHECK(rec_inflight_complete(f, 0, 0, 0, &q, &d) && d == 11, "flush");
	/* the same sector on another trace is another I/O */
	rec_inflight_queue(f, 0, 500, 4096, 12);
	rec_inflight_queue(f, 1, 500, 4096, 13);
	rec_inflight_issue(f, 1, 500, 4096, 14, &q);
	CHECK(q == 13, "per trace");
	CHECK(!rec_inflight_complete(f, 2, 500, 4096, &q, &d), "unknown I/O");
	/* full: the oldest entries are forgotten, counted */
	rec_inflight_queue(f, 0, 600, 4096, 15);
	rec_inflight_queue(f, 0, 700, 4096, 16);
	rec_inflight_queue(f, 0, 800, 4096, 17);
	CHECK(rec_inflight_len(f) == 4 && rec_inflight_evicted(f) == 1, "len %zu evicted %llu",
	      rec_inflight_len(f), (unsigned long long)rec_inflight_evicted(f));
	rec_inflight_free(f);
}

static struct bs_trace ev(uint32_t act, uint32_t cats, uint64_t time, uint64_t sector,
			  uint32_t bytes, uint32_t seq)
{
	struct bs_trace t = { .magic = BS_TRACE_MAGIC_V7, .sequence = seq, .time = time,
			      .sector = sector, .bytes = bytes, .action = act | BS_TC_ACT(cats),
			      .device = BS_MKDEV(8, 0) };
	return t;
}

static void test_eval(void)
{
	struct rec_trigger t[3];
	struct rec_trig_eval *e;
	struct bs_trigger_note n;
	struct bs_trace x;
	char why[160];

	rec_trigger_parse("write.D2C>1ms", &t[0], why, sizeof(why));
	rec_trigger_parse("Q2C>5ms", &t[1], why, sizeof(why));
	rec_trigger_parse("drop", &t[2], why, sizeof(why));
	e = rec_trig_eval_new(t, 3, 1, 2);
	CHECK(e && e->need_q, "eval");
	x = ev(BS_TA_QUEUE, BS_TC_READ | BS_TC_QUEUE, 500000, 8, 4096, 1);
	CHECK(rec_trig_event(e, 0, &x, &n) < 0, "Q fires nothing");
	x = ev(BS_TA_ISSUE, BS_TC_READ | BS_TC_ISSUE, 4000000, 8, 4096, 2);
	CHECK(rec_trig_event(e, 0, &x, &n) < 0, "D fires nothing");
	/* a read: D2C 2 ms does not fire write.D2C; Q2C 5.5 ms fires Q2C>5ms */
	x = ev(BS_TA_COMPLETE, BS_TC_READ | BS_TC_COMPLETE, 6000000, 8, 4096, 3);
	CHECK(rec_trig_event(e, 0, &x, &n) == 1 && n.latency == 5500000 && n.q == 500000 &&
	      n.d == 4000000 && n.c == 6000000 && !strcmp(n.rwbs, "R"), "Q2C fired: latency %llu",
	      (unsigned long long)n.latency);
	/* a write whose D2C is 2 ms */
	x = ev(BS_TA_ISSUE, BS_TC_WRITE | BS_TC_ISSUE, 10000000, 16, 4096, 4);
	rec_trig_event(e, 0, &x, &n);
	x = ev(BS_TA_COMPLETE, BS_TC_WRITE | BS_TC_COMPLETE, 12000000, 16, 4096, 5);
	CHECK(rec_trig_event(e, 0, &x, &n) == 0 && n.latency == 2000000 &&
	      n.kind == BS_TRIGGER_LATENCY,
	      "write.D2C fired");
	/* a gap of 3 in CPU 0's numbers */
	x = ev(BS_TA_QUEUE, BS_TC_WRITE | BS_TC_QUEUE, 13000000, 24, 4096, 9);
	CHECK(rec_trig_event(e, 0, &x, &n) == 2 && n.lost == 3, "drop: lost %llu",
	      (unsigned long long)n.lost);
	x.cpu = 1;
	x.sequence = 1;
	CHECK(rec_trig_event(e, 0, &x, &n) < 0, "CPU 1 starts at 1: no gap");
	rec_trig_eval_free(e);
}

int main(void)
{
	test_parse();
	test_pairing();
	test_eval();
	printf("%d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
