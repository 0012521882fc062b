// SPDX-License-Identifier: GPL-2.0
/*
 * bs-gen-trace - write synthetic blktrace per-CPU files for tests and
 * benchmarks: a scenario touching every action letter, PDU kind and note,
 * or a bulk workload of N events.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: bs-gen-trace [OPTIONS] -o BASE[,BASE2]\n"
		"\n"
		"Writes BASE.blktrace.<cpu> files (one per CPU, empty ones included).\n"
		"\n"
		"  -o, --output BASE[,BASE2]  base names; with two, device 8,0 goes to the first\n"
		"                             and 8,16 to the second, with one both share the files\n"
		"  -D, --dir DIR              output directory (default .)\n"
		"  -c, --cpus N               number of CPUs (default 3 for the scenario, 2 bulk)\n"
		"  -n, --events N             bulk mode: N realistic Q/G/I/D/C/M/P/U events\n"
		"  -s, --seed N               random seed (default 1)\n"
		"  -S, --swap                 write byte-swapped (big-endian) records\n"
		"  -V, --version8             write version-8 (64-byte) records\n"
		"  -Z, --zoned                the zoned-device scenario (zone ops, ZP/ZU; needs -V)\n"
		"  -h, --help\n"
		"\n"
		"Examples:\n"
		"  bs-gen-trace -o sda,sdb                 # the every-feature scenario\n"
		"  bs-gen-trace -o mixed                   # same, both devices in one file set\n"
		"  bs-gen-trace -D /dev/shm -n 10000000 -o big   # 10M-event benchmark trace\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "dir", required_argument, NULL, 'D' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "events", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "swap", no_argument, NULL, 'S' },
		{ "version8", no_argument, NULL, 'V' },
		{ "zoned", no_argument, NULL, 'Z' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct gen *g = calloc(1, sizeof(*g));
	char *names = NULL;
	uint64_t nevents = 0;
	int cpus = 0, c;
	bool zoned = false;

	if (!g)
		return 1;
	g->rng = 1;
	while ((c = getopt_long(argc, argv, "o:D:c:n:s:SVZh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
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
			g->rng = strtoull(optarg, NULL, 0) * 2654435761u + 1;
			break;
		case 'S':
			g->swap = true;
			break;
		case 'V':
			g->v8 = true;
			break;
		case 'Z':
			zoned = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (!names || optind != argc || (zoned && (!g->v8 || nevents))) {
		usage(stderr);
		return 1;
	}
	g->bases[0] = strtok(names, ",");
	g->bases[1] = strtok(NULL, ",");
	g->nbases = g->bases[1] ? 2 : 1;
	g->ncpus = cpus > 0 ? cpus : (nevents ? 2 : 3);
	if (g->ncpus > GEN_MAX_CPUS || (!nevents && g->ncpus < 3)) {
		fprintf(stderr, "bs-gen-trace: --cpus must be %s..%d\n", nevents ? "1" : "3",
			GEN_MAX_CPUS);
		return 1;
	}
	if (gen_open(g) < 0)
		return 1;
	if (nevents)
		gen_bulk(g, nevents);
	else if (zoned)
		gen_scenario_zoned(g);
	else
		gen_scenario_all(g);
	if (gen_close(g) < 0) {
		fprintf(stderr, "bs-gen-trace: write failed\n");
		return 1;
	}
	free(names);
	free(g);
	return 0;
}
