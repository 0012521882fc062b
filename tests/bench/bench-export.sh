#!/usr/bin/env bash
# bench-export: blkscope export of a generated 2-CPU trace of BENCH_EVENTS
# events (default 10M) in /dev/shm, measured in the same run against
#   blkparse -d   (reading and merging the trace into a dump, nothing else)
#   analyze       (the same analysis with its report, no rows written)
# for the random-I/O trace (bs-gen-trace -n) and the sequential/back-merged
# one (bs-gen-trace -w bench).  Prints events/s (wall, user CPU, user + sys
# CPU), peak RSS, the Parquet file's size and bytes per I/O row, and (with
# valgrind) instructions per event of analyze and export on the first
# BENCH_IR_EVENTS events (1M; 0 = skip), the steadiest figure on a shared
# machine.  Targets (issue 15): >= 5M events/s, RSS <= 128 MiB, <= 32 bytes
# per row on the random trace; each is marked met or missed.
set -euo pipefail
: "${BIN:?}"
N=${BENCH_EVENTS:-10000000}
RUNS=${BENCH_RUNS:-3}
IR_N=${BENCH_IR_EVENTS:-1000000}
dir=$(mktemp -d /dev/shm/bench-export.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

# measure CMD...: SECS (wall), USER, CPU (user + sys), RSS_KB (peak) of the best of RUNS runs (by CPU)
measure() {
	local i s c r u y
	SECS= CPU= USER= RSS_KB=0
	for ((i = 0; i < RUNS; i++)); do
		rm -f "$dir/out.parquet" "$dir/ref.dump"
		/usr/bin/time -f '%e %U %S %M' -o "$dir/.time" "$@" >/dev/null 2>"$dir/.err" ||
			{ echo "  (failed: $*: $(tail -1 "$dir/.err"))"; }
		read -r s u y r < <(tail -1 "$dir/.time")
		c=$(awk -v a="$u" -v b="$y" 'BEGIN{printf "%.2f", a + b}')
		if [ -z "$CPU" ] || awk "BEGIN{exit !($c < $CPU)}"; then SECS=$s CPU=$c USER=$u; fi
		if [ "$r" -gt "$RSS_KB" ]; then RSS_KB=$r; fi
	done
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN{ if (s <= 0) s = 0.005; printf "%.2f", n / s / 1e6 }'; }
line() {	# LABEL EVENTS
	printf '  %-14s %6.2fs wall %6s Mev/s | user %6.2fs %6s Mev/s | cpu %6.2fs %6s Mev/s | %7d KiB\n' "$1" \
		"$SECS" "$(rate "$2" "$SECS")" "$USER" "$(rate "$2" "$USER")" "$CPU" "$(rate "$2" "$CPU")" "$RSS_KB"
}
# met TEXT COND: "met" or "MISSED"
met() { if awk "BEGIN{exit !($2)}"; then echo "  target $1: met"; else echo "  target $1: MISSED"; fi; }

# instructions per event (callgrind) of CMD... over the first IR_N events of BASE (a trimmed copy)
ir_per_event() {	# LABEL EVENTS CMD...
	local label=$1 n=$2 ir; shift 2
	rm -f "$dir/out.parquet"
	ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		awk '/Collected :/ {print $NF}')
	[ -n "$ir" ] && printf '  %-14s %8.0f instructions/event (callgrind, %d events)\n' "$label" \
		"$(awk -v i="$ir" -v n="$n" 'BEGIN{print i / n}')" "$n"
}

one() {	# LABEL BASE
	local label=$1 base=$2 n rows size
	n=$("$BIN/blkscope-analyze" -v --no-progress --btt-only "$base" 2>&1 >/dev/null | sed -n 's/.*: \([0-9]*\) events in .*/\1/p')
	echo "$label: $n events"
	if command -v blkparse >/dev/null; then
		measure blkparse -q -O -d "$dir/ref.dump" -i "$base"
		line "blkparse -d" "$n"
	fi
	measure "$BIN/blkscope-analyze" --no-progress "$base"
	line "analyze" "$n"
	measure "$BIN/blkscope-export" --no-progress -o "$dir/out.parquet" "$base"
	line "export" "$n"
	if [ "$label" = random ]; then
		met ">= 5M events/s (user CPU)" "$(rate "$n" "$USER") >= 5"
		met "RSS <= 128 MiB" "$RSS_KB <= 131072"
	fi
	rm -f "$dir/out.parquet"
	"$BIN/blkscope-export" --no-progress -o "$dir/out.parquet" "$base"
	rows=$("$BIN/blkscope-analyze" --no-progress --json "$dir/a.json" "$base" >/dev/null &&
		python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["trace"]["samples"])' "$dir/a.json")
	size=$(stat -c %s "$dir/out.parquet")
	printf '  %-14s %d rows, %d bytes: %.2f bytes/row\n' "parquet" "$rows" "$size" \
		"$(awk -v s="$size" -v r="$rows" 'BEGIN{print s / r}')"
	[ "$label" = random ] && met "<= 32 bytes/row" "$size <= 32 * $rows"
	rm -f "$dir/out.parquet" "$dir/a.json"
	if [ "$IR_N" -gt 0 ] && command -v valgrind >/dev/null; then
		local gen=(-c 2) irn
		[ "$label" = seq ] && gen=(-w bench)
		"$BIN/bs-gen-trace" "${gen[@]}" -n "$IR_N" -o ir >/dev/null 2>&1
		irn=$("$BIN/blkscope-analyze" -v --no-progress --btt-only ir 2>&1 >/dev/null | sed -n 's/.*: \([0-9]*\) events in .*/\1/p')
		ir_per_event analyze "$irn" "$BIN/blkscope-analyze" --no-progress ir
		ir_per_event export "$irn" "$BIN/blkscope-export" --no-progress -o "$dir/out.parquet" ir
		rm -f "$dir"/ir.blktrace.* "$dir/out.parquet"
	fi
}

echo "generating ~$N events on 2 CPUs in $dir ..."
"$BIN/bs-gen-trace" -n "$N" -c 2 -o random >/dev/null
"$BIN/bs-gen-trace" -w bench -n "$N" -o seq 2>/dev/null
echo "best of $RUNS runs (by CPU time); wall, CPU, peak RSS"
one random random
one seq seq
