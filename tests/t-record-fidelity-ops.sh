#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fidelity of the odd operations: discard, write-zeroes (refused by tmpfs
# once: a C with error 65441, then written as zero pages), and a partition
# added with BLKPG, traced as the partition (device 259,N, A remap events
# with their big-endian PDU, the partition's LBA window).
# exclusive: yes
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
[ -n "${ORACLE_DRYRUN:-}" ] || oracle_require_recorder
oracle_workdir
oracle_loop_setup 64
D=$ORACLE_LOOP_NAME

oracle_run_case discard "$D" wl_discard --expect Q:DS --expect C:DS
oracle_run_case write_zeroes "$D" wl_write_zeroes --expect Q:WS --expect C:WS --expect-error 65441
oracle_loop_addpart 2048 32768
oracle_run_case partition "$ORACLE_PART_NAME" wl_partition --expect A:WS --expect A:RS --expect C:WS
