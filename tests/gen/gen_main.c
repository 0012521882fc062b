// SPDX-License-Identifier: GPL-2.0
/*
 * bs-gen-trace - write synthetic blktrace per-CPU files for tests,
 * benchmarks and fuzz seeds.  One program, several workloads (-w); every
 * one is deterministic for a given --seed.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "gen.h"

enum workload {
	W_SCENARIO, W_BULK, W_BENCH, W_TAGS, W_MERGE, W_SCRIPT, W_ZONED, W_RANDOM,
	W_HOSTILE_DEVS, W_HOSTILE_NAMES, W_HOSTILE_PENDING
};

static const char *const workload_names[] = {
	"scenario", "bulk", "bench", "tags", "merge", "script", "zoned", "random",
	"hostile-devs", "hostile-names", "hostile-pending"
};

/* long options without a short letter */
enum { OPT_STAMP_CPUS = 256, OPT_NAMES, OPT_IO_EVERY, OPT_SPAN };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: bs-gen-trace [OPTIONS] -o BASE[,BASE2]\n"
		"\n"
		"Writes BASE.blktrace.<cpu> files (one per CPU, empty ones included).\n"
		"\n"
		"  -w, --workload NAME        what to write (default: scenario, or bulk with -n):\n"
		"      scenario  every action letter, PDU kind and note, two devices, 3+ CPUs\n"
		"      bulk      -n events: 16 I/Os in flight, Q G I D C, some back-merged\n"
		"                Qs never completed, plugs, 4 named pids (default 2 CPUs),\n"
		"                on --devices devices\n"
		"      bench     -n events: back-merged bios covered by their request's D and\n"
		"                C, sequential and random, 32 in flight, plugged batches (2 CPUs)\n"
		"      tags      -n events on one CPU, device 7,0: --pids pids, the last\n"
		"                --unnamed without a PROCESS note, a message, a plug (1 CPU)\n"
		"      merge     equal times across CPUs, notes mixed in, 1500-2500 records\n"
		"                per CPU (3 CPUs): the merge order test\n"
		"      script    records from a text script on stdin (see tests/gen/gen_script.c)\n"
		"      zoned     the zoned-device scenario: zone ops, ZP/ZU, write-zeroes "
		"(needs -V)\n"
		"      random    -n events: random 4 KiB-aligned I/O in 8 GiB, Q G (Q M)* I D C,\n"
		"                15%% back-merges, 50 in flight completed in random order "
		"(2 CPUs)\n"
		"      hostile-devs     Q D C on each of -n devices (majors 8, 10, 11, ...)\n"
		"      hostile-names    -n PROCESS notes of distinct pids and names\n"
		"      hostile-pending  -n requests queued and issued on 8,0, never completed\n"
		"                (the hostile-* traces: one file, records 1 us apart, one\n"
		"                sequence across devices; see tests/gen/gen_hostile.c)\n"
		"  -o, --output BASE[,BASE2]  base names; with two (scenario), device 8,0 goes to\n"
		"                             the first and 8,16 to the second\n"
		"  -D, --dir DIR              output directory (default .)\n"
		"  -c, --cpus N               number of CPUs\n"
		"  -n, --events N             number of events (bulk, bench, tags)\n"
		"  -s, --seed N               random seed (default 1)\n"
		"  -d, --devices N            bulk: devices 8,0, 8,16, ... (default 1, max %d)\n"
		"  -p, --pids N               tags: pids 1000..1000+N-1 (default 4)\n"
		"  -u, --unnamed N            tags: how many of them get no name (default 1)\n"
		"  -S, --swap                 write byte-swapped (big-endian) records\n"
		"  -V, --version8             write version-8 (64-byte) records\n"
		"  -Z, --zoned                the same as -w zoned\n"
		"  -L, --delay STAGE=NS       bulk mode: every I/O waits NS ns more before the\n"
		"                             event ending STAGE (Q2G, G2I, I2D, D2C)\n"
		"  -P, --slow-pid PID=NS      bulk mode: PID's I/Os (2001..2004) get NS ns "
		"more D2C\n"
		"      --stamp-cpus N         hostile-devs: the records carry CPUs N-1, N-2, ...\n"
		"                             (max 65536), all in BASE.blktrace.0\n"
		"      --names N              hostile-names: the pids share N names\n"
		"      --io-every K           hostile-names: every K-th pid queues one IO on 8,0\n"
		"      --span                 hostile-*: also an IO at time 0 and one at 2^63\n"
		"  -h, --help\n"
		"\n"
		"Examples:\n"
		"  bs-gen-trace -o sda,sdb                 # the every-feature scenario\n"
		"  bs-gen-trace -o mixed                   # same, both devices in one file set\n"
		"  bs-gen-trace -D /dev/shm -n 10000000 -o big   # 10M-event benchmark trace\n"
		"  bs-gen-trace -w tags -n 20000 -p 7 -u 2 -s 3 -o t\n"
		"  echo '1000 0 8,0 Q W 2048 4096 77' | bs-gen-trace -w script -o one\n"
		"  bs-gen-trace -w hostile-names -n 1000 --names 300 --io-every 1 -o names\n",
		GEN_MAX_DEVS);
}

static int parse_workload(const char *s)
{
	for (size_t i = 0; i < sizeof(workload_names) / sizeof(workload_names[0]); i++)
		if (!strcmp(s, workload_names[i]))
			return (int)i;
	return -1;
}

/* The CPU count each workload uses unless -c says otherwise, and its limits. */
static int check_cpus(struct gen *g, int w, int cpus)
{
	static const int defaults[] = { 3, 2, 2, 1, 3, 0, 3, 2, 1, 1, 1 };
	static const int minimum[] = { 3, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1 };

	if (w == W_SCRIPT)
		return cpus > 0 ? -1 : 0;	/* the script's CPUs decide */
	if (w >= W_HOSTILE_DEVS && cpus > 1)
		return -1;			/* one file: --stamp-cpus sets the CPU fields */
	g->ncpus = cpus > 0 ? cpus : defaults[w];
	return g->ncpus < minimum[w] || g->ncpus > GEN_MAX_CPUS ? -1 : 0;
}

static void run(struct gen *g, int w, uint64_t nevents)
{
	switch (w) {
	case W_SCENARIO: gen_scenario_all(g); break;
	case W_BULK: gen_bulk(g, nevents); break;
	case W_BENCH: gen_bench(g, nevents); break;
	case W_TAGS: gen_tags(g, nevents); break;
	case W_MERGE: gen_merge(g); break;
	case W_SCRIPT: gen_script(g); break;
	case W_ZONED: gen_scenario_zoned(g); break;
	case W_RANDOM: gen_random(g, nevents); break;
	case W_HOSTILE_DEVS: gen_hostile(g, GEN_HOSTILE_DEVS, nevents); break;
	case W_HOSTILE_NAMES: gen_hostile(g, GEN_HOSTILE_NAMES, nevents); break;
	case W_HOSTILE_PENDING: gen_hostile(g, GEN_HOSTILE_PENDING, nevents); break;
	}
}

/* --delay STAGE=NS */
static int parse_delay(struct gen *g, const char *arg)
{
	static const char *const names[] = { "Q2G", "G2I", "I2D", "D2C" };
	uint64_t ns;

	for (int i = 0; i < 4; i++)
		if (!strncasecmp(arg, names[i], 3) && arg[3] == '=' &&
		    sscanf(arg + 4, "%" SCNu64, &ns) == 1) {
			g->delay[i] = ns;
			return 0;
		}
	fprintf(stderr, "bs-gen-trace: --delay wants STAGE=NS (Q2G, G2I, I2D, D2C), got '%s'\n",
		arg);
	return 1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "output", required_argument, NULL, 'o' },
		{ "dir", required_argument, NULL, 'D' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "events", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "devices", required_argument, NULL, 'd' },
		{ "pids", required_argument, NULL, 'p' },
		{ "unnamed", required_argument, NULL, 'u' },
		{ "swap", no_argument, NULL, 'S' },
		{ "version8", no_argument, NULL, 'V' },
		{ "zoned", no_argument, NULL, 'Z' },
		{ "delay", required_argument, NULL, 'L' },
		{ "slow-pid", required_argument, NULL, 'P' },
		{ "stamp-cpus", required_argument, NULL, OPT_STAMP_CPUS },
		{ "names", required_argument, NULL, OPT_NAMES },
		{ "io-every", required_argument, NULL, OPT_IO_EVERY },
		{ "span", no_argument, NULL, OPT_SPAN },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct gen *g = calloc(1, sizeof(*g));
	char *names = NULL;
	uint64_t nevents = 0;
	int cpus = 0, w = -1, c, rc = 1;
	bool seeded = false;

	if (!g)
		return 1;
	g->seed = 1;
	g->ndevs = 1;
	g->npids = 4;
	g->unnamed = 1;
	while ((c = getopt_long(argc, argv, "w:o:D:c:n:s:d:p:u:SVZL:P:h", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			w = parse_workload(optarg);
			if (w < 0) {
				fprintf(stderr, "bs-gen-trace: unknown workload '%s'\n", optarg);
				goto out;
			}
			break;
		case 'o':
			free(names);
			names = strdup(optarg);
			break;
		case 'D':
			g->dir = optarg;
			break;
		case 'c':
			cpus = atoi(optarg);
			break;
		case 'n':
			nevents = strtoull(optarg, NULL, 0);
			break;
		case 's':
			g->seed = strtoull(optarg, NULL, 0);
			seeded = true;
			break;
		case 'd':
			g->ndevs = atoi(optarg);
			break;
		case 'p':
			g->npids = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'u':
			g->unnamed = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'S':
			g->swap = true;
			break;
		case 'V':
			g->v8 = true;
			break;
		case 'Z':
			w = W_ZONED;
			break;
		case 'L':
			if (parse_delay(g, optarg))
				goto out;
			break;
		case 'P':
			if (sscanf(optarg, "%u=%" SCNu64, &g->slow_pid, &g->slow_ns) != 2) {
				fprintf(stderr, "bs-gen-trace: --slow-pid wants PID=NS\n");
				goto out;
			}
			break;
		case OPT_STAMP_CPUS:
			g->hostile.stamp_cpus = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case OPT_NAMES:
			g->hostile.names = strtoull(optarg, NULL, 0);
			break;
		case OPT_IO_EVERY:
			g->hostile.every = strtoull(optarg, NULL, 0);
			break;
		case OPT_SPAN:
			g->hostile.span = true;
			break;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		default:
			usage(stderr);
			goto out;
		}
	}
	if (w < 0)
		w = nevents ? W_BULK : W_SCENARIO;
	if (!names || optind != argc) {
		usage(stderr);
		goto out;
	}
	if ((w == W_BULK || w == W_BENCH || w == W_TAGS || w == W_RANDOM || w >= W_HOSTILE_DEVS) &&
	    !nevents) {
		fprintf(stderr, "bs-gen-trace: -w %s needs -n EVENTS\n", workload_names[w]);
		goto out;
	}
	if (w == W_ZONED && (!g->v8 || nevents)) {
		fprintf(stderr, "bs-gen-trace: -w zoned needs -V and takes no -n\n");
		goto out;
	}
	if (g->ndevs < 1 || g->ndevs > GEN_MAX_DEVS || (g->ndevs > 1 && w != W_BULK)) {
		fprintf(stderr, "bs-gen-trace: --devices is 1..%d, and for -w bulk only\n",
			GEN_MAX_DEVS);
		goto out;
	}
	if ((w == W_HOSTILE_DEVS && nevents > (1ull << 31)) ||
	    (w == W_HOSTILE_NAMES && nevents >= UINT32_MAX) || g->hostile.stamp_cpus > (1u << 16)) {
		fprintf(stderr, "bs-gen-trace: -w hostile-devs: -n at most 2^31, --stamp-cpus at "
			"most 65536; -w hostile-names: -n below 2^32\n");
		goto out;
	}
	if (w == W_TAGS && (!g->npids || g->unnamed > g->npids)) {
		fprintf(stderr, "bs-gen-trace: --pids must be >= 1 and >= --unnamed\n");
		goto out;
	}
	/* without --seed the state is 1, which earlier traces were made with */
	g->rng = seeded ? g->seed * 2654435761u + 1 : 1;
	g->bases[0] = strtok(names, ",");
	g->bases[1] = strtok(NULL, ",");
	g->nbases = g->bases[1] ? 2 : 1;
	if (g->nbases > 1 && w != W_SCENARIO) {
		fprintf(stderr, "bs-gen-trace: two output bases are for the scenario only\n");
		goto out;
	}
	if (check_cpus(g, w, cpus) < 0) {
		fprintf(stderr, "bs-gen-trace: -w %s: bad --cpus %d (max %d)\n", workload_names[w],
			cpus, GEN_MAX_CPUS);
		goto out;
	}
	if (w == W_SCRIPT && gen_script_read(g, stdin) < 0)
		goto out;
	if (gen_open(g) < 0)
		goto out;
	run(g, w, nevents);
	if (gen_close(g) < 0) {
		fprintf(stderr, "bs-gen-trace: write failed\n");
		goto out;
	}
	rc = 0;
out:
	free(g->script.v);
	free(names);
	free(g);
	return rc;
}
