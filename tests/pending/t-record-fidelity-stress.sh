#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fidelity under load: half a second of random 4 KiB reads and writes at QD 32
# from two io_uring jobs (~100k+ events, both CPUs busy, completions in
# interrupt context while BPF programs run).  Nothing may be lost or
# changed: no ring drops (sequence gaps), no recursion misses (an event
# the kernel has and blkscope does not).
#
# PENDING: fails in about 1 run of 3 against the recorder of 2026-11-21.
# blkscope misses bursts of request completions (C) that the kernel
# records: e.g. 18, 32 or 85 consecutive "C WS/R <sector> + 8" events, all
# on cpu1, all with pid 67 or 74 (tokio-rt-worker threads of PID 1,
# /process_api: completion softirqs that interrupted those threads), within
# ~30 us; the Q/G/I/D of the same I/Os are recorded.  There is no sequence
# gap, 0 drops, and bpftool shows 0 recursion_misses for every program, so
# the BPF program returned before numbering the events or did not run.
# Completions interrupting other tasks (ksoftirqd, fio, kworkers, even
# blkscope-record) are all recorded.  Without ftrace the same shows as "D
# without C" in blkscope's own files (64 in 1 of 12 runs), so it is not an
# artefact of the oracle.
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
[ -n "${ORACLE_DRYRUN:-}" ] || oracle_require_recorder
command -v fio >/dev/null || oracle_die "needs fio"
oracle_workdir
oracle_loop_setup 64
oracle_run_case stress "$ORACLE_LOOP_NAME" wl_stress --expect Q:WS --expect Q:R --min-events 20000
oracle_set_scheduler "$ORACLE_LOOP_NAME" mq-deadline
oracle_run_case stress_deadline "$ORACLE_LOOP_NAME" wl_stress --expect I:WS --min-events 20000
