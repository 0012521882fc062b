#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every numeric option of every command is checked by one parser
# (util/bs_arg.c): a bad value (not a number, negative, a suffix, out of
# range, an overflow) gives exactly one line on stderr that names the
# command and the option and says "try '... --help'", and exit status 2;
# never the usage text, never a run.  Unknown options and options without
# their value: one line too, naming the command (not the program's path).  The values that used to slip through
# (--seek-values x / -5 removed the memory cap, parse -b x was atoi's 0,
# --batch 5x) are among them.  The inputs do not exist: a checked value
# fails before any input is looked at.
# exclusive: yes
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/skip.sh"
B="$BIN/blkscope"
[ -x "$B" ] && [ -x "$BIN/blkscope-analyze" ] || { echo "FAIL: blkscope not built in $BIN"; exit 1; }
work=$(mktemp -d /tmp/blkscope-cli.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0 n=0

# bad CMD OPT VALUE [ARGS...]: `blkscope CMD OPT VALUE ARGS...` must be refused in one line, exit 2
bad() {
	local cmd=$1 opt=$2 val=$3 rc=0 lines
	shift 3
	n=$((n + 1))
	if [ "${opt%=}" != "$opt" ]; then	# --opt=VALUE (an optional argument)
		"$B" "$cmd" "$opt$val" "$@" </dev/null >"$work/out" 2>"$work/err" || rc=$?
		opt=${opt%=}
	else
		"$B" "$cmd" "$opt" "$val" "$@" </dev/null >"$work/out" 2>"$work/err" || rc=$?
	fi
	lines=$(wc -l <"$work/err")
	if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] ||
	   ! grep -qF "blkscope $cmd: $opt: '$val' is not " "$work/err" ||
	   ! grep -qF "try 'blkscope $cmd --help'" "$work/err" || [ -s "$work/out" ]; then
		echo "FAIL: blkscope $cmd $opt '$val': exit $rc, $lines line(s):"
		head -5 "$work/err" | sed 's/^/    /'
		fails=$((fails + 1))
	fi
}

missing=$work/no-such-trace
for v in x -5 " 7" 7x 1e3 99999999999999999999999 1000000001 ""; do
	bad analyze --seek-values "$v" "$missing"
	bad compare --seek-values "$v" "$missing" "$missing"
done
for v in x 0 -1 5x 1048577 0.5 0x10; do
	bad analyze --batch "$v" "$missing"
	bad parse -b "$v" "$missing"
	bad export --batch "$v" -o "$work/x.parquet" "$missing"
done
for v in x -1 nan inf 1e30; do
	bad analyze -t "$v" "$missing"
	bad analyze -T "$v" "$missing"
	bad analyze -d "$v" "$missing"
	bad analyze -L "$v" "$missing"
	bad export -t "$v" -o "$work/x.parquet" "$missing"
done
for v in 0 x -3 1.5 1000000001; do
	bad analyze -S "$v" "$missing"
done
for v in 0 -1 x nan 86401; do
	bad analyze --tag-timeout "$v" "$missing"
	bad parse --tag-timeout "$v" "$missing"
	bad tag-check --timeout "$v" true -- "$missing"
done
for v in 0 x 1023 16777217 -2048; do
	bad export --row-group "$v" -o "$work/x.parquet" "$missing"
done
# replay checks its values before it opens the trace or a device
if [ -x "$BIN/blkscope-replay" ]; then
	for v in 0 x -1 nan inf 0.0001 1001 2x; do
		bad replay --speed "$v" -d /dev/null "$missing"
	done
	for v in 0 x -1 65 1.5; do
		bad replay --threads "$v" -d /dev/null "$missing"
	done
	for v in 0 x 32769 -4; do
		bad replay --depth "$v" -d /dev/null "$missing"
	done
	for v in x 5 5-6 -1..2 3..2 .. 2..2 1..x nan..; do
		bad replay --window "$v" -d /dev/null "$missing"
	done
	for v in x 7 7,0 7,0= 7,x=/dev/null 4096,0=/dev/null 7,1048576=/dev/null -7,0=/dev/null; do
		bad replay --map "$v" "$missing"
	done
fi
bad export --format xml -o "$work/x.parquet" "$missing"
# the recorder checks its values before it needs root, BPF or a device
if [ -x "$BIN/blkscope-record" ]; then
	for v in x 0 -1 nan 1e30; do
		bad record -w "$v" -d /dev/null
	done
	for v in x 3 -8 2097153 64k; do
		bad record -b "$v" -d /dev/null
	done
	for v in x 0 -1 4194305; do
		bad record -p "$v" -d /dev/null
	done
	for v in 0 23 x; do
		bad record --zstd= "$v" -d /dev/null
	done
	bad record -A 10000 -d /dev/null
	bad record -A -1 -d /dev/null
	bad record --lba 5:1 -d /dev/null
	bad record --format 9 -d /dev/null
fi
# unknown options and missing values: one line naming the command, exit 2
# opt_error CMD WANT ARGS...
opt_error() {
	local cmd=$1 want=$2 rc=0
	shift 2
	n=$((n + 1))
	"$B" "$cmd" "$@" </dev/null >"$work/out" 2>"$work/err" || rc=$?
	if [ "$rc" -ne 2 ] || [ "$(wc -l <"$work/err")" -ne 1 ] || ! grep -qF "blkscope $cmd: $want" "$work/err" ||
	   ! grep -qF "try 'blkscope $cmd --help'" "$work/err"; then
		echo "FAIL: blkscope $cmd $*: exit $rc:"
		head -5 "$work/err" | sed 's/^/    /'
		fails=$((fails + 1))
	fi
}
for cmd in analyze parse export tag-check; do
	opt_error "$cmd" "unknown option '--no-such-option'" --no-such-option "$missing"
done
opt_error compare "unknown option '--no-such-option'" --no-such-option "$missing" "$missing"
opt_error analyze "unknown option '-Y'" -Y "$missing"
opt_error analyze "-o needs a value" "$missing" -o
opt_error analyze "--json needs a value" "$missing" --json
opt_error parse "-b needs a value" "$missing" -b
opt_error export "option '-A' is not one of this command's" -A "$missing"
if [ -x "$BIN/blkscope-replay" ]; then
	opt_error replay "unknown option '--no-such-option'" --no-such-option -d /dev/null "$missing"
	opt_error replay "-s needs a value" -d /dev/null "$missing" -s
	opt_error replay "--map: -d names the device of a single-device trace" -d /dev/null -m 7,0=/dev/null "$missing"
	opt_error replay "--speed and --max" --max -s 2 -d /dev/null "$missing"
	opt_error replay "--reads-only and --allow-writes" --reads-only --allow-writes -d /dev/null "$missing"
	opt_error replay "no target" "$missing"
	opt_error replay "no trace given" -d /dev/null
fi
if [ -x "$BIN/blkscope-record" ]; then
	opt_error record "unknown option '--no-such-option'" --no-such-option -d /dev/null
	opt_error record "-w needs a value" -d /dev/null -w
fi
[ "$fails" -eq 0 ] || { echo "FAIL: $fails of $n bad values not refused in one line with exit 2"; exit 1; }
echo "OK: $n bad values refused"
