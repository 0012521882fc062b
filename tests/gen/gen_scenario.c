// SPDX-License-Identifier: GPL-2.0
/*
 * gen_scenario.c - one small trace that exercises everything blkparse
 * prints: every action letter, every PDU kind (unplug depth, split sector,
 * remap, SCSI CDBs with and without trailing zeros, cgroup ids, driver
 * data), PROCESS/TIMESTAMP notes, messages with and without the cgroup
 * prefix, RWBS variants, errors, zero-length I/O, unnamed pids, two
 * devices, three CPUs whose records interleave in time (so a `cat` of the
 * per-CPU files arrives out of order) and a few exact time ties.
 */
#include <string.h>
#include "bs_codec.h"
#include "gen.h"

#define DA	BS_MKDEV(8, 0)
#define DB	BS_MKDEV(8, 16)

#define C_R	BS_TC_ACT(BS_TC_READ)
#define C_W	BS_TC_ACT(BS_TC_WRITE)
#define C_S	BS_TC_ACT(BS_TC_SYNC)
#define C_FS	BS_TC_ACT(BS_TC_FS)
#define C_PC	BS_TC_ACT(BS_TC_PC)
#define C_FL	BS_TC_ACT(BS_TC_FLUSH)
#define C_FUA	BS_TC_ACT(BS_TC_FUA)
#define C_AH	BS_TC_ACT(BS_TC_AHEAD)
#define C_META	BS_TC_ACT(BS_TC_META)
#define C_DISC	BS_TC_ACT(BS_TC_DISCARD)

enum { P_DD = 1234, P_FIO = 4321, P_KW = 999, P_LONG = 555, P_ANON = 77 };

struct scn {
	struct gen *g;
	int base_b;	/* base index of device 8,16 */
};

static void ev(struct scn *s, uint64_t step, int cpu, uint32_t dev, uint64_t sector, uint32_t bytes,
	       uint32_t action, uint32_t pid, uint16_t error, const void *pdu, uint16_t pdu_len)
{
	gen_advance(s->g, step);
	gen_emit(s->g, dev == DB ? s->base_b : 0, cpu, dev, sector, bytes, action, pid, error, pdu,
		 pdu_len);
}

static void ev0(struct scn *s, uint64_t step, int cpu, uint32_t dev, uint64_t sector,
		uint32_t bytes, uint32_t action, uint32_t pid)
{
	ev(s, step, cpu, dev, sector, bytes, action, pid, 0, NULL, 0);
}

static void be64_pdu(uint8_t out[8], uint64_t v)
{
	bs_put_be64(out, v);
}

static void names(struct scn *s, int cpu, uint32_t dev)
{
	struct gen *g = s->g;
	int b = dev == DB ? s->base_b : 0;

	gen_note_process(g, b, cpu, dev, P_DD, "dd");
	gen_note_process(g, b, cpu, dev, P_FIO, "fio");
	gen_note_process(g, b, cpu, dev, P_KW, "kworker/1:1H");
	gen_note_process(g, b, cpu, dev, P_LONG, "kworker/u16:3-e");
}

/* Plain request flows on device A: plug, merges, sleep, requeue. */
static void flows_fs(struct scn *s)
{
	uint8_t depth[8];

	/* 4 KiB sync write by dd on cpu0 */
	ev0(s, 1000, 0, DA, 2048, 4096, BS_ACT_QUEUE | C_W | C_S, P_DD);
	ev0(s, 700, 0, DA, 2048, 4096, BS_ACT_GETRQ | C_W | C_S, P_DD);
	ev0(s, 300, 0, DA, 0, 0, BS_ACT_PLUG | C_R, P_DD);
	ev0(s, 400, 0, DA, 2048, 4096, BS_ACT_INSERT | C_W | C_S | C_FS, P_DD);
	be64_pdu(depth, 1);
	ev(s, 200, 0, DA, 0, 0, BS_ACT_UNPLUG_IO | C_R, P_DD, 0, depth, 8);
	/* a read by fio on cpu1 interleaves with dd's issue */
	ev0(s, 150, 1, DA, 4096, 8192, BS_ACT_QUEUE | C_R, P_FIO);
	ev0(s, 100, 0, DA, 2048, 4096, BS_ACT_ISSUE | C_W | C_S | C_FS, P_DD);
	ev0(s, 250, 1, DA, 4096, 8192, BS_ACT_GETRQ | C_R, P_FIO);
	ev0(s, 300, 1, DA, 4096, 8192, BS_ACT_INSERT | C_R | C_FS, P_FIO);
	ev0(s, 400, 1, DA, 4112, 4096, BS_ACT_QUEUE | C_R, P_FIO);
	ev0(s, 100, 1, DA, 4112, 4096, BS_ACT_BACKMERGE | C_R, P_FIO);
	ev0(s, 300, 1, DA, 4088, 4096, BS_ACT_QUEUE | C_R, P_FIO);
	ev0(s, 100, 1, DA, 4088, 4096, BS_ACT_FRONTMERGE | C_R, P_FIO);
	/* dd's completion arrives on cpu2 (irq), pid 0 */
	ev0(s, 5000, 2, DA, 2048, 4096, BS_ACT_COMPLETE | C_W | C_S | C_FS, 0);
	ev0(s, 200, 1, DA, 4088, 16384, BS_ACT_ISSUE | C_R | C_FS, P_FIO);
	ev0(s, 7000, 1, DA, 4088, 16384, BS_ACT_COMPLETE | C_R | C_FS, 0);

	/* sleep for a request, then a requeue and a second dispatch */
	ev0(s, 900, 2, DA, 8192, 4096, BS_ACT_QUEUE | C_W, P_LONG);
	ev0(s, 100, 2, DA, 8192, 4096, BS_ACT_SLEEPRQ | C_W, P_LONG);
	ev0(s, 3000, 2, DA, 8192, 4096, BS_ACT_GETRQ | C_W, P_LONG);
	ev0(s, 200, 2, DA, 8192, 4096, BS_ACT_INSERT | C_W | C_FS, P_LONG);
	ev0(s, 200, 2, DA, 8192, 4096, BS_ACT_ISSUE | C_W | C_FS, P_LONG);
	ev0(s, 800, 0, DA, 8192, 4096, BS_ACT_REQUEUE | C_W | C_FS, P_KW);
	ev0(s, 900, 0, DA, 8192, 4096, BS_ACT_ISSUE | C_W | C_FS, P_KW);
	ev0(s, 3000, 0, DA, 8192, 4096, BS_ACT_COMPLETE | C_W | C_FS, 0);

	/* timer unplug with depth 3 */
	ev0(s, 500, 0, DA, 0, 0, BS_ACT_PLUG | C_R, P_DD);
	be64_pdu(depth, 3);
	ev(s, 3000, 0, DA, 0, 0, BS_ACT_UNPLUG_TIMER | C_R, P_KW, 0, depth, 8);
}

/* Splits, bounces, remaps, aborts, driver data. */
static void flows_bio(struct scn *s)
{
	uint8_t pdu[16];

	ev0(s, 1000, 1, DA, 100000, 1048576, BS_ACT_QUEUE | C_R | C_AH, P_FIO);
	be64_pdu(pdu, 100512);
	ev(s, 100, 1, DA, 100000, 1048576, BS_ACT_SPLIT | C_R | C_AH, P_FIO, 0, pdu, 8);
	/* split beyond 2^32 sectors: blkparse prints the PDU truncated to 32 bits */
	ev0(s, 100, 1, DA, 5000000000ULL, 524288, BS_ACT_QUEUE | C_W, P_FIO);
	be64_pdu(pdu, 5000000512ULL);
	ev(s, 100, 1, DA, 5000000000ULL, 524288, BS_ACT_SPLIT | C_W, P_FIO, 0, pdu, 8);
	ev0(s, 300, 2, DA, 300, 4096, BS_ACT_BOUNCE | C_W, P_LONG);

	/* partition remap (259,0) -> 8,0 and a dm-style remap onto 8,16 */
	bs_put_be32(pdu, BS_MKDEV(259, 0));
	bs_put_be32(pdu + 4, DA);
	bs_put_be64(pdu + 8, 0);
	ev(s, 200, 0, DA, 2048, 4096, BS_ACT_REMAP | C_W | C_S, P_DD, 0, pdu, 16);
	bs_put_be32(pdu, BS_MKDEV(253, 1));
	bs_put_be32(pdu + 4, DB);
	bs_put_be64(pdu + 8, 777);
	ev(s, 200, 0, DA, 5000, 4096, BS_ACT_REMAP | C_W, P_DD, 0, pdu, 16);

	ev0(s, 200, 2, DA, 4000, 4096, BS_ACT_ABORT | C_W, P_LONG);
	memcpy(pdu, "\x01\x02\x03\x00\x05\x00", 6);
	ev(s, 200, 0, DA, 0, 0, BS_ACT_DRV_DATA, P_KW, 0, pdu, 6);
}

/* SCSI passthrough requests, with and without a CDB. */
static void flows_pc(struct scn *s)
{
	static const uint8_t cdb[10] = { 0x28, 0, 0, 0, 0x10, 0, 0, 0, 0x08, 0 };
	static const uint8_t zero[6];
	static const uint8_t full[6] = { 0x12, 0x01, 0x80, 0x00, 0xfc, 0x07 };

	ev0(s, 2000, 1, DA, 0, 4096, BS_ACT_QUEUE | C_R | C_PC, P_KW);
	ev0(s, 100, 1, DA, 0, 4096, BS_ACT_GETRQ | C_R | C_PC, P_KW);
	ev0(s, 100, 1, DA, 0, 4096, BS_ACT_SLEEPRQ | C_R | C_PC, P_KW);
	ev(s, 100, 1, DA, 0, 4096, BS_ACT_INSERT | C_R | C_PC, P_KW, 0, cdb, sizeof(cdb));
	ev(s, 100, 1, DA, 0, 4096, BS_ACT_ISSUE | C_R | C_PC, P_KW, 0, cdb, sizeof(cdb));
	ev(s, 100, 1, DA, 0, 4096, BS_ACT_REQUEUE | C_R | C_PC, P_KW, 0, cdb, sizeof(cdb));
	ev(s, 100, 1, DA, 0, 4096, BS_ACT_ISSUE | C_R | C_PC, P_KW, 0, full, sizeof(full));
	ev(s, 900, 2, DA, 0, 4096, BS_ACT_COMPLETE | C_R | C_PC, 0, 0, cdb, sizeof(cdb));
	ev0(s, 100, 1, DA, 0, 512, BS_ACT_QUEUE | C_W | C_PC, P_KW);
	ev(s, 100, 1, DA, 0, 512, BS_ACT_ISSUE | C_W | C_PC, P_KW, 0, zero, sizeof(zero));
	ev0(s, 100, 1, DA, 0, 512, BS_ACT_ISSUE | C_W | C_PC, P_KW);
	ev0(s, 700, 1, DA, 0, 512, BS_ACT_COMPLETE | C_W | C_PC, 0);
	ev0(s, 100, 1, DA, 0, 512, BS_ACT_BACKMERGE | C_W | C_PC, P_KW);
}

/* Records with the cgroup flag (blk_cgroup option) and messages. */
static void flows_cgroup(struct scn *s)
{
	uint32_t cg[2] = { 0x1234, 0x5 };
	struct gen *g = s->g;

	ev(s, 1000, 2, DA, 7000, 4096, BS_ACT_QUEUE | C_W | BS_TA_CGROUP, P_LONG, 0, cg, 8);
	ev(s, 100, 2, DA, 7000, 4096, BS_ACT_GETRQ | C_W | BS_TA_CGROUP, P_LONG, 0, cg, 8);
	ev(s, 100, 2, DA, 7000, 4096, BS_ACT_ISSUE | C_W | C_FS | BS_TA_CGROUP, P_LONG, 0, cg, 8);
	ev(s, 900, 2, DA, 7000, 4096, BS_ACT_COMPLETE | C_W | C_FS | BS_TA_CGROUP, 0, 0, cg, 8);

	gen_advance(g, 300);
	gen_note_message(g, 0, 0, DA, P_DD, "hello world", false);
	gen_advance(g, 300);
	gen_note_message(g, 0, 1, DA, P_KW, "bfq1234SN insert_request", true);
}

/* Device B: RWBS variants, flushes, discards, errors, zero lengths, no names. */
static void flows_dev_b(struct scn *s)
{
	ev0(s, 500, 1, DB, 0, 0, BS_ACT_QUEUE | C_W | C_S | C_FL, P_FIO);
	ev0(s, 100, 1, DB, 0, 0, BS_ACT_GETRQ | C_W | C_S | C_FL, P_FIO);
	/* an exact time tie between cpu1 and cpu2 */
	ev0(s, 100, 1, DB, 0, 0, BS_ACT_ISSUE | C_R | C_FL | C_FS, P_KW);
	ev0(s, 0, 2, DB, 64, 4096, BS_ACT_QUEUE | C_W | C_FUA | C_S | C_META, P_LONG);
	ev0(s, 900, 2, DB, 0, 0, BS_ACT_COMPLETE | C_R | C_FL | C_FS, 0);
	ev0(s, 100, 2, DB, 64, 4096, BS_ACT_ISSUE | C_W | C_FUA | C_S | C_META | C_FS, P_LONG);
	ev(s, 400, 0, DB, 64, 4096, BS_ACT_COMPLETE | C_W | C_FUA | C_S | C_META | C_FS, 0, 65441,
	   NULL, 0);

	ev0(s, 300, 0, DB, 1000, 131072, BS_ACT_QUEUE | C_W | C_DISC, P_DD);
	ev0(s, 100, 0, DB, 1000, 131072, BS_ACT_ISSUE | C_W | C_DISC | C_FS, P_DD);
	ev0(s, 2000, 0, DB, 1000, 131072, BS_ACT_COMPLETE | C_W | C_DISC | C_FS, 0);
	ev0(s, 300, 2, DB, 50000, 65536, BS_ACT_QUEUE | C_R | C_AH | C_META, P_ANON);
	ev0(s, 100, 2, DB, 50000, 65536, BS_ACT_GETRQ | C_R | C_AH | C_META, P_ANON);
	ev0(s, 100, 2, DB, 50000, 65536, BS_ACT_ISSUE | C_R | C_AH | C_META | C_FS, P_ANON);
	ev0(s, 100, 1, DB, 50000, 65536, BS_ACT_COMPLETE | C_R | C_AH | C_META | C_FS, 0);
	/* a pure 512-byte read: KiB counters keep the 512-byte remainders */
	ev0(s, 100, 1, DB, 9, 512, BS_ACT_QUEUE | C_R, P_ANON);
	ev0(s, 100, 1, DB, 9, 512, BS_ACT_ISSUE | C_R | C_FS, P_ANON);
	ev0(s, 100, 1, DB, 9, 512, BS_ACT_COMPLETE | C_R | C_FS, 0);
	ev0(s, 100, 1, DB, 11, 512, BS_ACT_QUEUE | C_R, P_ANON);
	ev0(s, 100, 1, DB, 11, 512, BS_ACT_ISSUE | C_R | C_FS, P_ANON);
	ev0(s, 100, 1, DB, 11, 512, BS_ACT_COMPLETE | C_R | C_FS, 0);
}

void gen_scenario_all(struct gen *g)
{
	struct scn s = { .g = g, .base_b = g->nbases > 1 ? 1 : 0 };

	g->now = 1000000000ULL;
	gen_note_timestamp(g, 0, 0, DA, 1700000000u, 123456789u);
	if (s.base_b)
		gen_note_timestamp(g, s.base_b, 0, DB, 1700000000u, 123456789u);
	for (int cpu = 0; cpu < 3; cpu++) {
		names(&s, cpu, DA);
		if (s.base_b)
			names(&s, cpu, DB);
	}
	flows_fs(&s);
	flows_bio(&s);
	flows_pc(&s);
	flows_cgroup(&s);
	flows_dev_b(&s);
	/* a second round of plain I/O a few milliseconds later, for throughput */
	gen_advance(g, 3000000);
	flows_fs(&s);
}
