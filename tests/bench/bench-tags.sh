#!/usr/bin/env bash
# bench-tags: what a tagging plugin costs.  On one generated trace of
# BENCH_EVENTS events (default 10M; 64 processes, 1 CPU file in /dev/shm):
#   analyze                  plain btt report (the baseline)
#   analyze --stats          btt + percentile/breakdown sections
#   analyze --stats --group-by pid   the same with one group per process: the
#                            report work tags add, without a plugin
#   analyze --tag-plugin     the same plus tags/tag-by-pid (implies --stats)
#   tag-check tag-by-pid     the host's pipe throughput alone (trace -> plugin -> validated tags)
#   tag-by-pid < file        the plugin alone
# Best of BENCH_RUNS (3) wall-clock runs; events/s; the ratio to plain analyze.
# Target (issue): >= 5M events/s through the C plugin.
set -euo pipefail
: "${BIN:?}" "${TOP:?}"
BUILD=${BUILD:-build}
N=${BENCH_EVENTS:-10000000}
RUNS=${BENCH_RUNS:-3}
PLUGIN="$BIN/tag-by-pid"

dir=$(mktemp -d /dev/shm/bench-tags.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$BIN/bs-gen-trace" -w tags -n "$N" -p 64 -u 4 -D "$dir" -o t
events=$(("$BIN/blkscope-tag-check" "$PLUGIN" -- "$dir/t" || true) | awk '/ events, / {print $1}')
echo "trace: $events events ($(du -m "$dir/t.blktrace.0" | cut -f1) MB), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"

best() {	# CMD...: best wall time of RUNS runs -> $BEST, CPU (user+sys) of that run -> $CPU
	local i
	BEST= CPU=
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -f '%e %U %S' -o "$dir/.t" "$@" >/dev/null 2>"$dir/.err" ||
			{ cat "$dir/.err"; echo "failed: $*"; exit 1; }
		read -r s u k <"$dir/.t"
		if [ -z "$BEST" ] || awk -v a="$s" -v b="$BEST" 'BEGIN{exit !(a < b)}'; then
			BEST=$s
			CPU=$(awk -v a="$u" -v b="$k" 'BEGIN{printf "%.2f", a + b}')
		fi
	done
}
rate() { awk -v n="$events" -v s="$1" 'BEGIN{ if (s <= 0) s = 0.005; printf "%.2f", n / s / 1e6 }'; }

printf '%-34s %8s %8s %12s %8s\n' "run" "wall s" "CPU s" "Mevents/s" "vs plain"
row() {	# LABEL CMD...
	local label=$1; shift
	best "$@"
	[ -n "${BASE:-}" ] || BASE=$BEST
	printf '%-34s %8s %8s %12s %7.2fx\n' "$label" "$BEST" "$CPU" "$(rate "$BEST")" \
		"$(awk -v a="$BASE" -v b="$BEST" 'BEGIN{ if (b <= 0) b = 0.005; print a / b }')"
}
BASE=
row "analyze (plain)" "$BIN/blkscope-analyze" --no-progress "$dir/t"
row "analyze --stats" "$BIN/blkscope-analyze" --no-progress --stats "$dir/t"
row "analyze --stats --group-by pid" "$BIN/blkscope-analyze" --no-progress --stats --group-by pid "$dir/t"
GROUPED=$BEST
row "analyze --tag-plugin tag-by-pid" "$BIN/blkscope-analyze" --no-progress --tag-plugin "$PLUGIN" "$dir/t"
TAGGED=$BEST
row "tag-check tag-by-pid" "$BIN/blkscope-tag-check" "$PLUGIN" -- "$dir/t"
CHECK=$BEST
row "tag-by-pid alone (< file)" sh -c "exec '$PLUGIN' <'$dir/t.blktrace.0'"
echo "through the C plugin: analyze $(rate "$TAGGED") M events/s, tag-check $(rate "$CHECK") M events/s" \
	"(target >= 5); the plugin pipe adds $(awk -v a="$TAGGED" -v b="$GROUPED" 'BEGIN{printf "%.2f", a - b}') s" \
	"to the same report grouped by pid"
