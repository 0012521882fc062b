#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Empty and impossible requests are errors, the same way in every command:
#  - a recording of notes only (an idle device: host note, process names,
#    end notes; no block I/O): "no events in FILE", exit 1, no report, in
#    analyze, export and compare;
#  - -T before -t: a bad command line (exit 2, one line) before the input
#    is opened (a FIFO nobody writes would hang otherwise);
#  - a -t/-T window past the trace's events, or in a gap between them:
#    exit 1 naming the window and where the events are, no report;
#  - options that contradict each other are a bad command line (exit 2):
#    two formats on stdout, --tag-plugin with --group-by (analyze, export,
#    compare);
#  - compare --fail-if with a bare number (no unit, no %): exit 2;
#  - a mistyped command: exit 2, the command meant named;
#  - output files: one rule for parse, analyze, compare and export: an
#    earlier run's file is refused (exit 1, one line naming --force), and
#    replaced with --force.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/skip.sh"
need_tools timeout mkfifo
work=$(mktemp -d /tmp/t-cli-requests.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
B="$BIN/blkscope"
S="$TOP/samples/rec-deadline-buffered/loop0"

# expect RC PATTERN CMD...: CMD exits RC within 20 s, stderr matches PATTERN in one line, stdout empty
expect() {
	local want=$1 pat=$2 rc=0
	shift 2
	timeout 20 "$@" >out 2>err || rc=$?
	[ "$rc" = "$want" ] || { cat err; fail "$*: exit $rc, want $want"; }
	[ "$(wc -l <err)" = 1 ] || { cat err; fail "$*: not one line on stderr"; }
	grep -q -- "$pat" err || { cat err; fail "$*: stderr does not say '$pat'"; }
	[ ! -s out ] || { head -5 out; fail "$*: printed a report"; }
}

# 1. an idle recording: what the recorder writes when no I/O happens
cat >idle.script <<'EOF'
0 0 7,0 m - 0 0 0 blkscope host=h kernel=6.18 boot_id=x
100 0 7,0 N - 0 0 4242 fio
200 1 7,0 N - 0 0 4243 kworker
5000000000 0 7,0 m - 0 0 0 blkscope end events=0 drops=0
5000000000 1 7,0 m - 0 0 0 blkscope end events=0 drops=0
EOF
"$BIN/bs-gen-trace" -w script -o idle <idle.script >/dev/null
for cmd in "analyze" "export -o idle.csv --format csv" "compare idle"; do
	expect 1 "no events in idle: notes only, no block I/O" $B $cmd idle
done
[ ! -e idle.csv ] || fail "export left a file for an idle recording"
echo "ok: an idle recording is an error in analyze, export, compare"

# 2. -T before -t: exit 2 before the input (a FIFO no one writes) is opened
mkfifo never
for cmd in analyze "export -o w.csv --format csv" "compare $S"; do
	expect 2 "-T 2 is before -t 5: the time window is empty" $B $cmd -t 5 -T 2 never
done
echo "ok: -T before -t is a bad command line"

# 3. a window without events: past the end, and in the gap between two bursts
expect 1 "no events in $S at or after -t 100 s: its last event is at 0.00" $B analyze -t 100 "$S"
expect 1 "no events in $S at or after -t 100 s" $B export -t 100 -o x.csv --format csv "$S"
cat >gap.script <<'EOF'
1000 0 8,0 Q W 2048 4096 77
2000 0 8,0 G W 2048 4096 77
3000 0 8,0 I W 2048 4096 77
4000 0 8,0 D W 2048 4096 77
50000 0 8,0 C W 2048 4096 77
3000000000 0 8,0 Q W 4096 4096 77
3000001000 0 8,0 G W 4096 4096 77
3000002000 0 8,0 I W 4096 4096 77
3000003000 0 8,0 D W 4096 4096 77
3000050000 0 8,0 C W 4096 4096 77
EOF
"$BIN/bs-gen-trace" -w script -o gap <gap.script >/dev/null
expect 1 "no events in gap between -t 1 s and -T 2 s: the next one is at 2.999999 s" $B analyze -t 1 -T 2 gap
$B analyze -t 2.5 gap >window.txt || fail "a window holding events refused"
grep -q "Q2C" window.txt || fail "no report for a window holding events"
echo "ok: windows without events are errors naming where the events are"

# 4. contradicting options: exit 2 (nothing read: the input is the FIFO)
expect 2 "only one of --json, --csv, --html and --folded can write to stdout" $B analyze --json - --csv - never
for cmd in analyze "export -o t.csv --format csv" "compare $S"; do
	expect 2 "tag-plugin cannot be combined with --group or --group-by" \
		$B $cmd --tag-plugin "$BIN/tag-by-pid" --group-by comm never
done
expect 2 "bad --fail-if 'D2C.p99>10'.*with % or a unit" $B compare --fail-if 'D2C.p99>10' never never
$B compare --fail-if 'D2C.p99>10ms' --fail-if 'Q2C.p50>+10%' "$S" "$S" >/dev/null ||
	fail "--fail-if with a unit or % refused"
echo "ok: contradicting options and a unit-less --fail-if are bad command lines"

# 5. a mistyped command
expect 2 "'anaylze' is not a blkscope command.*did you mean 'analyze'" $B anaylze "$S"
expect 2 "'comapre' is not a blkscope command.*did you mean 'compare'" $B comapre
expect 2 "'frobnicate' is not a blkscope command" $B frobnicate
rc=0; $B >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "blkscope without a command: exit $rc, want 2"
echo "ok: a mistyped command names the command meant"

# 6. one rule for output files: refused without --force, replaced with it
for cmd in "parse -i $S -o p.txt" "parse -i $S -O -d p.dump" "analyze --html a.html $S" \
	   "analyze --json a.json $S" "analyze -o btt $S" "analyze -l lat $S" \
	   "export -o e.parquet $S" "compare --html c.html $S $S" "compare --json c.json $S $S"; do
	$B $cmd >/dev/null 2>err || { cat err; fail "$cmd: first run failed"; }
	expect 1 "cannot create .*: it exists (from an earlier run?); pass --force to replace it" $B $cmd
	first=${cmd%% *}
	$B $first --force ${cmd#* } >/dev/null 2>err || { cat err; fail "$first --force ${cmd#* }: refused"; }
done
echo "ok: every command refuses an earlier output without --force and replaces it with --force"
echo OK
