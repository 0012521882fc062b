#!/usr/bin/env bash
# Unit tests of the flight recorder's triggers (tests/unit/record_trigger_check.c):
# --trigger parsing, Q/D/C pairing over merges and splits, evaluation.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/skip.sh"
need_built "$BIN/bs-test-record-trigger" "the recorder needs clang, bpftool, libbpf and liburing"
"$BIN/bs-test-record-trigger"
