#!/usr/bin/env bash
# Hostile option values for the recorder (it runs as root): every option
# that takes a string gets empty, negative, huge, non-numeric, overflowing
# and malformed values.  Each run must either work (it is stopped by -w or
# by SIGINT after 5 s) or exit non-zero with one line on stderr; never a
# signal, never a sanitizer report; values that used to be misread (-w 1e30,
# -p -1, --lba 1:2:3, --zstd=1e3, -o '') must be refused.
# (t-record-basic-errors checks the wording of the common mistakes.)
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
. "$(dirname "$0")/lib/hard.sh"
rec_require
rec_workdir
rec_loop 16

runs=0 accepted=0 refused=0
# try OPTION-ARGS...: one recorder run with these arguments
try() {
	local rc=0 lines
	runs=$((runs + 1))
	# --force: every run writes the same files (refused without it)
	timeout -s INT 5 "$REC" -d "$REC_LOOP" -D "$REC_WORK/out" --force "$@" >/dev/null 2>"$REC_WORK/err" || rc=$?
	if grep -qE 'Sanitizer|runtime error' "$REC_WORK/err"; then
		cat "$REC_WORK/err"; rec_die "sanitizer report for: $*"
	fi
	[ "$rc" -lt 125 ] || { cat "$REC_WORK/err"; rec_die "status $rc (signal?) for: $*"; }
	printf "%-4s %.60s\n" "$rc" "$*"
	if [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ]; then
		accepted=$((accepted + 1))
		return
	fi
	lines=$(grep -c . "$REC_WORK/err" || true)
	[ "$lines" -eq 1 ] || { cat "$REC_WORK/err"; rec_die "$lines lines on stderr (want one) for: $*"; }
	refused=$((refused + 1))
}

big=99999999999999999999999999
for v in "" -1 0 nan inf -inf 1e30 1e-30 0x10 1:2 abc 0.05 "$big" " 1"; do
	try -w "$v"
done
for v in "" -1 0 1 3 1e3 4294967296 18446744073709551616 "$big" abc 4k 0x1000; do
	try -b "$v" -w 0.2
done
for v in "" : 1: :1 5:1 abc:def -1:5 0:18446744073709551615 18446744073709551616:1 \
	1:2:3 " 1:2" 0:0 "$big:$big"; do
	try --lba "$v" -w 0.2
done
for v in "" -1 0 4294967296 abc 99999999999 1.5; do
	try -p "$v" -w 0.2
done
for v in 0 -5 1 19 22 23 99 abc "" 1e3; do
	try --zstd="$v" -w 0.2
done
for v in "" 0 -1 ffffffffff 0x zz 0xffff 1ffff; do
	try -A "$v" -w 0.2
done
for v in "" read,write READ "read write" "$(printf 'x%.0s' {1..5000})"; do
	try -a "$v" -w 0.2
done
for v in "" "a/b" "../escape" "$(printf 'n%.0s' {1..300})"; do
	try -o "$v" -w 0.2
done
for v in "" /nonexistent /etc ../../.. "$(printf '/x%.0s' {1..3000})" /proc/self; do
	try --cgroup "$v" -w 0.2
done
try --cgroup / --cgroup / --cgroup / --cgroup / --cgroup / --cgroup / --cgroup / --cgroup / \
	--cgroup / -w 0.2
try --cgroup-ids -w 0.2
try -D "" -w 0.2
try -d "" -w 0.2
try -d "$(printf '/x%.0s' {1..3000})" -w 0.2
# values that must be refused, not taken: each once meant something else
# (-w 1e30 stopped at once, -p -1 became 4294967295, --zstd=1e3 level 1...)
must_refuse() {
	local before=$refused
	try "$@"
	[ "$refused" -gt "$before" ] || rec_die "accepted, should be refused: $*"
}
for v in inf nan 1e30 "$big"; do must_refuse -w "$v"; done
for v in -1 99999999999 4294967296; do must_refuse -p "$v" -w 0.2; done
for v in 1:2:3 "$big:$big" -1:5 " 1:2" 5:1; do must_refuse --lba "$v" -w 0.2; done
for v in 1e3 99 23 0 abc; do must_refuse --zstd="$v" -w 0.2; done
must_refuse -o "" -w 0.2
for v in "" /nonexistent /etc; do must_refuse --cgroup "$v" -w 0.2; done
echo "$runs runs: $accepted accepted, $refused refused with one line"
echo OK
