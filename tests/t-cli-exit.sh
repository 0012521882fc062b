#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Exit codes and early failures, the same for every command:
#  - an input that is not a blktrace trace: non-zero for parse, analyze,
#    export, with a message naming the file and the offset;
#  - an empty input: "no events in FILE", exit 1, no empty report;
#  - a truncated trace: read up to the damage, the report printed, the
#    damage named, exit 1;
#  - an output path that cannot be created fails at once, in one line,
#    before the input is opened: the input here is a FIFO nobody writes,
#    so a command that opened it first would hang until the timeout;
#  - `blkscope record` where the recorder was not built says so, non-zero;
#    so does `blkscope replay` where liburing was missing.
# exclusive: yes
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/skip.sh"
need_tools timeout mkfifo
B="$BIN/blkscope"
[ -x "$BIN/blkscope-analyze" ] || { echo "FAIL: blkscope-analyze not built in $BIN"; exit 1; }
work=$(mktemp -d /tmp/blkscope-cli.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
S="$TOP/samples/ftrace-loop-deadline.bin"

# 1. not a trace
head -c 65536 /dev/urandom >random.bin
for cmd in parse analyze "export -o r.csv --format csv" "tag-check $BIN/tag-by-pid --"; do
	rc=0; $B $cmd random.bin >out 2>err || rc=$?
	[ "$rc" -ne 0 ] && [ "$rc" -lt 125 ] || fail "$cmd random.bin: exit $rc"
	grep -q "random.bin: offset 0" err || fail "$cmd random.bin: no message with the offset: $(cat err)"
	case $cmd in parse|tag-check*) ;; *) [ ! -s out ] || fail "$cmd random.bin: a report on stdout" ;; esac
done
echo "ok: a non-trace input is an error"

# 2. empty
: >empty.bin
for cmd in parse analyze "export -o e.csv --format csv"; do
	rc=0; $B $cmd empty.bin >out 2>err || rc=$?
	[ "$rc" -eq 1 ] || fail "$cmd empty.bin: exit $rc"
	grep -qx "blkscope ${cmd%% *}: no events in empty.bin" err || fail "$cmd empty.bin: message: $(cat err)"
done
$B analyze empty.bin 2>/dev/null | grep -q . && fail "analyze empty.bin printed a report"
rc=0; $B tag-check "$BIN/tag-by-pid" -- empty.bin >out 2>err || rc=$?
[ "$rc" -eq 2 ] && grep -qx "blkscope tag-check: no events in empty.bin" err || fail "tag-check empty.bin: exit $rc: $(cat err)"
echo "ok: an empty input is 'no events in FILE', exit 1 (tag-check: 2, its code for an unreadable trace)"

# 3. truncated: the report of what was read, and exit 1
size=$(stat -c %s "$S")
head -c $((size - 30)) "$S" >trunc.bin
rc=0; $B analyze trunc.bin >out 2>err || rc=$?
[ "$rc" -eq 1 ] || fail "analyze trunc.bin: exit $rc"
grep -q "All Devices" out || fail "analyze trunc.bin: no report for the records before the damage"
grep -q "trunc.bin: offset" err || fail "analyze trunc.bin: damage not named"
rc=0; $B parse trunc.bin >out 2>err || rc=$?
[ "$rc" -eq 1 ] && [ -s out ] || fail "parse trunc.bin: exit $rc, or no output"
echo "ok: a truncated trace is reported up to the damage, exit 1"

# 4. bad output paths fail before the input is opened
mkfifo fifo
early() {	# early CMD ARGS...: exit 1 with one line, well before the timeout
	local rc=0 t0=$SECONDS
	timeout 20 "$B" "$@" >out 2>err || rc=$?
	[ "$rc" -ne 124 ] || fail "$*: waited for the input (timeout)"
	[ "$rc" -ne 0 ] && [ "$(wc -l <err)" -eq 1 ] || { cat err; fail "$*: exit $rc, $(wc -l <err) lines"; }
	grep -q "/nonexistent" err || fail "$*: message does not name the path: $(cat err)"
	[ $((SECONDS - t0)) -lt 10 ] || fail "$*: took $((SECONDS - t0)) s"
}
for o in "-o /nonexistent/dir/x" "--json /nonexistent/x.json" "--csv /nonexistent/a/b" \
	 "--html /nonexistent/x.html" "--svg /nonexistent/a/b" "--svg heatmap=/nonexistent/h.svg" \
	 "-p /nonexistent/x" "-I /nonexistent/x" "-l /nonexistent/x" "-q /nonexistent/x"; do
	# shellcheck disable=SC2086
	early analyze $o fifo
done
early compare --json /nonexistent/x.json fifo "$S"
early compare --html /nonexistent/x.html fifo "$S"
early export -o /nonexistent/x.parquet fifo
early parse -o /nonexistent/x fifo
early parse -d /nonexistent/x.dump fifo
if [ -x "$BIN/blkscope-replay" ]; then
	early replay -n --json /nonexistent/x.json fifo
	early replay -n --log /nonexistent/x.csv fifo
fi
echo "ok: bad output paths fail before reading"

# 5. the recorder not built: the dispatcher alone, as in an analyzer-only install
mkdir solo
cp "$BIN/blkscope" solo/
rc=0; env -u BLKSCOPE_EXEC_PATH solo/blkscope record -d /dev/null >out 2>err || rc=$?
[ "$rc" -ne 0 ] && grep -q "the recorder was not built" err && grep -q "clang" err ||
	fail "record without the recorder: exit $rc: $(cat err)"
echo "ok: record in an analyzer-only build says why"
rc=0; env -u BLKSCOPE_EXEC_PATH solo/blkscope replay -n x >out 2>err || rc=$?
[ "$rc" -ne 0 ] && grep -q "blkscope replay: it was not built" err && grep -q "liburing" err ||
	fail "replay without liburing: exit $rc: $(cat err)"
echo "ok: replay in a build without liburing says why"
echo PASS
