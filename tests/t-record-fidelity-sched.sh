#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fidelity under concurrency and elevators: three io_uring fio writers
# (plug merges, completions on both CPUs), then mq-deadline and bfq with
# buffered and direct I/O (I events, elevator merges).  bfq's own
# blk_add_trace_msg() messages reach only the kernel's tracer (a BPF
# recorder cannot see them, docs/format.md §Notes); the comparator ignores MESSAGE notes.
# exclusive: yes
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
[ -n "${ORACLE_DRYRUN:-}" ] || oracle_require_recorder
need_tools fio
oracle_workdir
oracle_loop_setup 64
D=$ORACLE_LOOP_NAME

oracle_run_case fio_merge "$D" wl_fio_merge --expect M:WS --expect U
oracle_set_scheduler "$D" mq-deadline
oracle_run_case deadline "$D" wl_scheduler --expect I:WS --expect I:RA
oracle_run_case deadline_fio "$D" wl_fio_merge --expect I:WS
oracle_set_scheduler "$D" bfq
oracle_run_case bfq "$D" wl_scheduler --expect I:WS
