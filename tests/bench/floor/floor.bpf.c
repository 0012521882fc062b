// SPDX-License-Identifier: GPL-2.0
/*
 * floor.bpf.c - the reference points for the recorder's per-event cost
 * (tests/bench/bench-record.sh): on each block tracepoint fio's 4k reads
 * hit, a program that returns at once ("empty": what kernel.bpf_stats_enabled
 * reports for the dispatch of a tp_btf program and its own clock reads) and
 * one that only reads the clock the recorder stamps every record with
 * ("clock"). Attached next to the recorder's programs, in the same run, they
 * see the same load, so the recorder's figures can be read against them.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

#define FLOOR(tp)						\
SEC("tp_btf/" #tp)						\
int empty_##tp(void *ctx)					\
{								\
	return 0;						\
}								\
SEC("tp_btf/" #tp)						\
int clock_##tp(void *ctx)					\
{								\
	bpf_ktime_get_ns();					\
	return 0;						\
}

FLOOR(block_bio_queue)
FLOOR(block_getrq)
FLOOR(block_plug)
FLOOR(block_unplug)
FLOOR(block_rq_insert)
FLOOR(block_rq_issue)
FLOOR(block_rq_complete)
