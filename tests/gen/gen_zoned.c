// SPDX-License-Identifier: GPL-2.0
/*
 * gen_zoned.c - a version-8 trace of a zoned disk, as a 6.19 kernel records
 * it with blktrace's v2 setup: writes through zone write plugging (ZP/ZU),
 * zone appends, and every zone management operation (reset, reset all,
 * finish, open, close), whose zone category sits in the high half of the
 * 64-bit action.  No zoned device is needed to test the zone paths.
 */
#include "bs_codec.h"
#include "gen.h"

#define DZ	BS_MKDEV(8, 32)

#define C_R	BS_TC_ACT(BS_TC_READ)
#define C_W	BS_TC_ACT(BS_TC_WRITE)
#define C_S	BS_TC_ACT(BS_TC_SYNC)
#define C_FS	BS_TC_ACT(BS_TC_FS)

#define ZONE	524288ULL	/* sectors per zone (256 MiB) */

enum { P_FIO = 4321, P_KW = 999, P_ZONES = 777 };

static void ev(struct gen *g, uint64_t step, int cpu, uint64_t sector, uint32_t bytes,
	       uint32_t action, uint32_t hi, uint32_t pid)
{
	gen_advance(g, step);
	gen_emit2(g, 0, cpu, DZ, sector, bytes, action, hi, pid, 0, NULL, 0);
}

/* One request through Q G I D C, all with the same categories. */
static void request(struct gen *g, int cpu, uint64_t sector, uint32_t bytes, uint32_t cats,
		    uint32_t hi, uint32_t pid)
{
	ev(g, 1000, cpu, sector, bytes, BS_ACT_QUEUE | cats, hi, pid);
	ev(g, 200, cpu, sector, bytes, BS_ACT_GETRQ | cats, hi, pid);
	ev(g, 300, cpu, sector, bytes, BS_ACT_INSERT | cats | C_FS, hi, pid);
	ev(g, 100, cpu, sector, bytes, BS_ACT_ISSUE | cats | C_FS, hi, pid);
	ev(g, 20000, (cpu + 1) % 2, sector, bytes, BS_ACT_COMPLETE | cats | C_FS, hi, 0);
}

/* A write held in the zone's write plug until the previous one completed. */
static void plugged_write(struct gen *g, uint64_t sector, uint32_t bytes)
{
	ev(g, 1000, 0, sector, bytes, BS_ACT_QUEUE | C_W | C_S, 0, P_FIO);
	/* ZP/ZU pass no op flags: like plug and unplug they carry READ */
	ev(g, 100, 0, sector, bytes, BS_ACT_ZONE_PLUG | C_R, 0, P_FIO);
	ev(g, 5000, 1, sector, bytes, BS_ACT_ZONE_UNPLUG | C_R, 0, P_KW);
	ev(g, 200, 1, sector, bytes, BS_ACT_GETRQ | C_W | C_S, 0, P_KW);
	ev(g, 300, 1, sector, bytes, BS_ACT_INSERT | C_W | C_S | C_FS, 0, P_KW);
	ev(g, 100, 1, sector, bytes, BS_ACT_ISSUE | C_W | C_S | C_FS, 0, P_KW);
	ev(g, 20000, 0, sector, bytes, BS_ACT_COMPLETE | C_W | C_S | C_FS, 0, 0);
}

void gen_scenario_zoned(struct gen *g)
{
	g->now = 2000000000ULL;
	gen_note_timestamp(g, 0, 0, DZ, 1800000000u, 5000u);
	for (int cpu = 0; cpu < 2; cpu++) {
		gen_note_process(g, 0, cpu, DZ, P_FIO, "fio");
		gen_note_process(g, 0, cpu, DZ, P_KW, "kworker/1:2H");
		gen_note_process(g, 0, cpu, DZ, P_ZONES, "blkzone");
	}
	/* open zone 1 explicitly, write it through the plug, finish it */
	request(g, 0, ZONE, 0, C_W | C_S, BS_TC_HI(BS_TC_ZONE_OPEN), P_ZONES);
	request(g, 0, ZONE, 65536, C_W | C_S, 0, P_FIO);
	plugged_write(g, ZONE + 128, 65536);
	request(g, 1, ZONE, 0, C_W | C_S, BS_TC_HI(BS_TC_ZONE_FINISH), P_ZONES);
	/* zone appends into zone 2: the sector is the zone start */
	request(g, 0, 2 * ZONE, 4096, C_W, BS_TC_HI(BS_TC_ZONE_APPEND), P_FIO);
	request(g, 1, 2 * ZONE, 8192, C_W | C_S, BS_TC_HI(BS_TC_ZONE_APPEND), P_FIO);
	request(g, 0, 2 * ZONE, 0, C_W | C_S, BS_TC_HI(BS_TC_ZONE_CLOSE), P_ZONES);
	/* reset one zone, then all of them; a read in between */
	request(g, 1, ZONE, 0, C_W | C_S, BS_TC_HI(BS_TC_ZONE_RESET), P_ZONES);
	request(g, 0, 3 * ZONE, 4096, C_R, 0, P_FIO);
	request(g, 0, 0, 0, C_W | C_S, BS_TC_HI(BS_TC_ZONE_RESET_ALL), P_ZONES);
	/* write-zeroes: its category has no letter in blkparse (prints W) */
	request(g, 1, 4 * ZONE, 1048576, C_W | C_S, BS_TC_HI(BS_TC_WRITE_ZEROES), P_FIO);
}
