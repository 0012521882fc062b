#!/usr/bin/env bash
# Analyzer faults: 1000 randomly damaged copies of the sample traces (byte
# flips, truncations, splices, zeroed and repeated blocks, extreme header
# fields, damaged zstd frames; as dumps and as per-CPU files; version 7 and,
# converted, version 8 and 64-byte v7 dumps) go through
# `blkscope parse` and `blkscope analyze`.  None may crash, hang (20 s) or
# trip a sanitizer; each ends with a report, or with a message naming the
# file and, for damaged data, the byte offset (tests/lib/hard-damage.py).
# HARD_DAMAGE_COPIES and HARD_DAMAGE_SEED change the set (default 1000, 1).
# tests/hard-regress/ holds damaged inputs that once failed (under
# SANITIZE=1: a leak in parse's device ordering, seek-distance and
# seek-median overflows in analyze); they are checked the same way.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/skip.sh"
need_tools python3
# zstd (the command) makes the damaged zstd copies; without it there are none
command -v zstd >/dev/null || echo "note: no zstd command (Debian package zstd): no zstd-compressed copies"
[ -x "$BIN/blkscope-parse" ] && [ -x "$BIN/blkscope-analyze" ] || { echo "FAIL: blkscope parse/analyze not built in $BIN"; exit 1; }
work=$(mktemp -d /tmp/blkscope-dmg.XXXXXX)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
# version-8 copies of two samples (bs-convert), and a 64-byte v7 dump
mkdir "$work/v8"
"$BIN/bs-convert" -V 8 "$TOP/samples/ftrace-loop-deadline.bin" "$work/v8/ftrace-loop-deadline-v8.bin"
"$BIN/bs-convert" -V 8 -S "$TOP/samples/rec-part-discard/loop0.blktrace.0" "$work/v8/loop0v8.blktrace.0"
"$BIN/bs-convert" -V 7w "$TOP/samples/ftrace-loop-none.bin" "$work/v8/ftrace-loop-none-w7.bin"
python3 "$TOP/tests/lib/hard-damage.py" "$BIN" "$work" "${HARD_DAMAGE_COPIES:-1000}" "${HARD_DAMAGE_SEED:-1}" \
	--extra "$TOP/tests/hard-regress" "$TOP"/samples/*.bin "$TOP"/samples/rec-*/*.blktrace.[0-9] \
	"$work"/v8/*
echo "took $(($(date +%s) - start)) s"
echo OK
