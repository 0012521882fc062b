#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fidelity on a bio-based device (zram): no requests, so no G/I/D and no
# request completions; the kernel records Q and block_bio_complete C
# events (no FS category, docs/format.md §Per-tracepoint fields), which
# loop devices never produce.
# exclusive: yes
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
[ -n "${ORACLE_DRYRUN:-}" ] || oracle_require_recorder
oracle_workdir
oracle_zram_setup 64
Z=$ORACLE_ZRAM_NAME

oracle_run_case zram_direct "$Z" wl_direct_rw --expect Q:WS --expect C:WS --expect C:RS --expect-none D:WS
oracle_run_case zram_buffered "$Z" wl_buffered_fsync --expect Q:WS --expect C:WS
oracle_run_case zram_discard "$Z" wl_discard --expect Q:DS --expect C:DS
