#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fidelity, request path with no scheduler: blkscope's records of direct and
# buffered reads and writes, fsync, O_DSYNC (FUA emulated with flushes),
# a split 4 MiB write and readahead must equal the kernel's own blk
# tracer's (ftrace, recorded at the same time), field by field except
# sequence and time.  See docs/testing.md.
# exclusive: yes
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
[ -n "${ORACLE_DRYRUN:-}" ] || oracle_require_recorder
oracle_workdir
oracle_loop_setup 64
D=$ORACLE_LOOP_NAME

oracle_run_case direct_rw "$D" wl_direct_rw --expect Q:WS --expect Q:RS --expect U --expect C:RS
oracle_run_case buffered_fsync "$D" wl_buffered_fsync --expect M:WS --expect Q:FWS --expect D:FN
oracle_run_case dsync "$D" wl_dsync --expect Q:WFS --expect C:FN
oracle_run_case large_split "$D" wl_large_split --expect X:WS
oracle_run_case readahead "$D" wl_readahead --expect Q:RA --expect C:RA
