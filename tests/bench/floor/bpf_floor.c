// SPDX-License-Identifier: GPL-2.0
/*
 * bs-bench-bpf-floor - attach floor.bpf.c's reference programs (an empty
 * program and a clock read on each block tracepoint of a 4k read), say
 * "attached" on stderr, and on SIGINT/SIGTERM print each program's runs and
 * run_time_ns / run_cnt (with kernel.bpf_stats_enabled), then one line per
 * kind over the programs that ran at least 1000 times:
 *
 *   floor empty: 1234567 runs, 88 ns per run
 *   floor clock: 1234567 runs, 150 ns per run
 *
 * With "empty" or "clock" as its argument it loads only that kind: the
 * IOPS rounds of bench-record.sh run fio under each kind alone, to show
 * what any program, and a program that only reads the clock, cost in IOPS.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "floor.skel.h"

static int silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void print_stats(struct floor *skel)
{
	static const char *const kinds[] = { "empty", "clock" };
	struct bpf_program *prog;
	size_t k;

	for (k = 0; k < 2; k++) {
		unsigned long long runs = 0, ns = 0;

		bpf_object__for_each_program(prog, skel->obj) {
			struct bpf_prog_info info;
			__u32 len = sizeof(info);
			const char *name = bpf_program__name(prog);

			if (strncmp(name, kinds[k], strlen(kinds[k])) != 0)
				continue;
			memset(&info, 0, sizeof(info));
			if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len) < 0 ||
			    info.run_cnt < 1000)
				continue;
			printf("  %-24s %12llu runs %6.0f ns per run\n", name,
			       (unsigned long long)info.run_cnt,
			       (double)info.run_time_ns / info.run_cnt);
			runs += info.run_cnt;
			ns += info.run_time_ns;
		}
		printf("floor %s: %llu runs, %.0f ns per run\n", kinds[k], runs,
		       runs ? (double)ns / runs : 0.0);
	}
}

/* Load only the programs of KIND ("empty" or "clock"); NULL loads both. */
static struct floor *open_kind(const char *kind)
{
	struct bpf_program *prog;
	struct floor *skel;

	skel = floor__open();
	if (!skel)
		return NULL;
	bpf_object__for_each_program(prog, skel->obj) {
		if (kind && strncmp(bpf_program__name(prog), kind, strlen(kind)) != 0)
			bpf_program__set_autoload(prog, false);
	}
	if (floor__load(skel) < 0) {
		floor__destroy(skel);
		return NULL;
	}
	return skel;
}

int main(int argc, char **argv)
{
	const char *kind = argc > 1 ? argv[1] : NULL;
	struct floor *skel;
	sigset_t set;
	int sig;

	if (argc > 2 || (kind && strcmp(kind, "empty") != 0 && strcmp(kind, "clock") != 0)) {
		fprintf(stderr, "usage: bs-bench-bpf-floor [empty|clock]\n");
		return 2;
	}

	libbpf_set_print(silent);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	skel = open_kind(kind);
	if (!skel) {
		fprintf(stderr, "bs-bench-bpf-floor: loading the programs failed\n");
		return 1;
	}
	if (floor__attach(skel) < 0) {
		fprintf(stderr, "bs-bench-bpf-floor: attaching the programs failed\n");
		floor__destroy(skel);
		return 1;
	}
	fprintf(stderr, "attached\n");
	sigwait(&set, &sig);
	floor__detach(skel);
	print_stats(skel);
	floor__destroy(skel);
	return 0;
}
