#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What `blkscope replay` would issue (--dry-run: no device, no root),
# against an independent model of the rules of docs/replay.md
# (tests/replay/plan_model.py):
#  1. random traces with every kind of submitter and I/O the rules tell
#     apart (synchronous, queue depth 4, kernel worker, pid 0 per CPU,
#     flush, PREFLUSH+FUA, discard, empty bios, a split bio, merged bios,
#     partition remaps on a whole-disk and on a partition trace, dm-0
#     traced with its disk, two disks): every row (time, pid, operation,
#     flags, device, offset, size, wait) as the model says, also with
#     --speed, --window, --reads-only, --no-deps; a wrong speed is caught;
#  2. the same trace as a blkparse dump, on stdin, zstd-compressed and as
#     version-8 records: the same rows;
#  3. a version-8 zoned trace: zone operations not replayed (as many as
#     parse shows), write-zeroes replayed as write-zeroes;
#  4. the dry run's JSON plan counts what the listing shows;
#  5. refusals without a device: -d on a multi-device trace, a window
#     without I/O, a missing trace; a truncated trace gives its rows up
#     to the damage and exit 1.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/skip.sh"
need_tools python3
need_built "$BIN/blkscope-replay" "blkscope replay (needs liburing at build time)"
R=$BIN/blkscope-replay
G=$BIN/bs-gen-trace
M=$TOP/tests/replay/plan_model.py
W=$(mktemp -d /tmp/blkscope-rplan.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# ---- 1. the model, with option variants
for seed in 1 2 3; do
	python3 "$M" gen "$seed" >"$W/s$seed.txt"
	"$G" -w script -o "$W/s$seed" <"$W/s$seed.txt"
	for opts in "" "--speed 3" "--speed 0.25 --no-deps" "--window 0.0005..0.0015 --reads-only" \
		"--window 0.001.." "--window ..0.002 --no-deps"; do
		# shellcheck disable=SC2086
		"$R" -n $opts "$W/s$seed" >"$W/dry.txt" || fail "seed $seed, $opts: exit $?"
		# shellcheck disable=SC2086
		python3 "$M" check "$W/s$seed.txt" "$W/dry.txt" $opts >"$W/check.txt" ||
			{ cat "$W/check.txt"; fail "seed $seed, options '$opts': the dry run differs from the model"; }
	done
	echo "ok: seed $seed: $(tail -1 "$W/check.txt")"
done
"$R" -n --speed 2 "$W/s1" >"$W/dry.txt"
if python3 "$M" check "$W/s1.txt" "$W/dry.txt" >/dev/null; then
	fail "the model accepted a dry run at --speed 2 as one at speed 1"
fi
echo "ok: a dry run at the wrong speed is caught"

# ---- 2. input forms: the same rows
"$R" -n "$W/s1" >"$W/ref.txt"
"$BIN/blkscope-parse" -O -d "$W/s1.dump" "$W/s1" >/dev/null
same() {
	cmp -s "$W/ref.txt" "$W/dry.txt" || { diff "$W/ref.txt" "$W/dry.txt" | head -5; fail "$1: other rows"; }
	echo "ok: $1: the same rows"
}
"$R" -n "$W/s1.dump" >"$W/dry.txt"
same "a blkparse -d dump"
"$R" -n - <"$W/s1.dump" >"$W/dry.txt"
same "the dump on stdin"
mkdir "$W/v8"
for f in "$W"/s1.blktrace.*; do
	"$BIN/bs-convert" -V 8 "$f" "$W/v8/$(basename "$f")"
done
"$R" -n "$W/v8/s1" >"$W/dry.txt"
same "version-8 records"
if command -v zstd >/dev/null; then
	mkdir "$W/zst"
	for f in "$W"/s1.blktrace.*; do
		zstd -q "$f" -o "$W/zst/$(basename "$f").zst"
	done
	"$R" -n "$W/zst/s1" >"$W/dry.txt"
	same "zstd-compressed files"
fi

# ---- 3. zone operations and write-zeroes (version 8)
mkdir "$W/z"
"$G" -w zoned -V -o "$W/z/z"
zone_qs=$("$BIN/blkscope-parse" "$W/z/z" | awk '$6 == "Q" && $7 ~ /^Z/' | wc -l)
[ "$zone_qs" -gt 0 ] || fail "the zoned trace has no zone operation"
"$R" -n --json "$W/z.json" "$W/z/z" >"$W/z.txt"
python3 - "$W/z.json" "$W/z.txt" "$zone_qs" <<'PY' || fail "zoned trace"
import json, sys
j = json.load(open(sys.argv[1]))
rows = [l.split() for l in open(sys.argv[2]) if not l.startswith("#")]
zone = int(sys.argv[3])
assert j["skipped"]["zone"] == zone, ("zone ops skipped", j["skipped"]["zone"], zone)
wz = [r for r in rows if r[3] == "write-zeroes"]
assert len(wz) == j["planned"]["write-zeroes"] == 1, wz
assert j["ios"] == len(rows)
print("ok: %d zone operations not replayed, write-zeroes at %s (+%s) replayed as such" % (zone, wz[0][7], wz[0][8]))
PY

# ---- 4. the JSON plan against the listing
"$R" -n --json "$W/p.json" "$W/s2" >"$W/p.txt"
"$R" -n --json - "$W/s2" >"$W/p2.json"
cmp -s "$W/p.json" "$W/p2.json" || fail "--json - and --json FILE differ"
python3 - "$W/p.json" "$W/p.txt" <<'PY' || fail "the JSON plan does not count what the listing shows"
import json, sys
j = json.load(open(sys.argv[1]))
rows = [l.split() for l in open(sys.argv[2]) if not l.startswith("#")]
assert j["mode"] == "dry-run" and j["ios"] == len(rows)
for op in ("read", "write", "flush", "discard", "write-zeroes"):
    n = sum(1 for r in rows if r[3] == op)
    b = sum(int(r[8]) for r in rows if r[3] == op)
    assert j["planned"][op] == n and j["planned_bytes"][op] == b, (op, n, b, j["planned"], j["planned_bytes"])
assert j["synchronous"] == sum(1 for r in rows if r[9] == "0")
assert j["with_wait"] == sum(1 for r in rows if r[9] != "-")
assert j["preflush_writes"] == sum(1 for r in rows if "P" in r[4])
assert j["skipped"]["stacked"] > 0 and j["skipped"]["empty"] > 0
print("ok: the JSON plan: %d I/Os, %d synchronous, %d stacked and %d empty bios skipped" %
      (j["ios"], j["synchronous"], j["skipped"]["stacked"], j["skipped"]["empty"]))
PY

# ---- 5. refusals and damage
refused() {	# WHAT WANT CMD...: exit 1, one line containing WANT
	local what=$1 want=$2 rc=0
	shift 2
	"$@" >"$W/out" 2>"$W/err" || rc=$?
	[ "$rc" -eq 1 ] && [ "$(wc -l <"$W/err")" -eq 1 ] && grep -qF -- "$want" "$W/err" ||
		{ cat "$W/err"; fail "$what: exit $rc, expected one line with '$want'"; }
	echo "ok: $what: $(cat "$W/err")"
}
refused "-d on a trace of several devices" "name each one to replay with --map" "$R" -d /dev/null "$W/s1"
refused "a window without I/O" "nothing to replay" "$R" -n -w 100..200 "$W/s1"
refused "a missing trace" "No input files found" "$R" -n "$W/nothing-here"
size=$(stat -c %s "$W/s1.dump")
head -c $((size / 2 + 7)) "$W/s1.dump" >"$W/cut.dump"
rc=0
"$R" -n "$W/cut.dump" >"$W/cut.txt" 2>"$W/cut.err" || rc=$?
[ "$rc" -eq 1 ] || fail "a truncated trace: exit $rc"
rows=$(grep -vc '^#' "$W/cut.txt")
all=$(grep -vc '^#' "$W/ref.txt")
[ "$rows" -gt 0 ] && [ "$rows" -lt "$all" ] && grep -q "cut.dump" "$W/cut.err" ||
	fail "a truncated trace: $rows of $all rows, stderr: $(cat "$W/cut.err")"
echo "ok: a truncated trace: $rows of $all rows up to the damage, exit 1: $(head -1 "$W/cut.err")"
