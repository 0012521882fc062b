#!/usr/bin/env bash
# bench-hostile: the hostile traces of issue 13 (bs-gen-trace -w hostile-*, tests/gen/gen_hostile.c):
#   devices  Q, D, C on each of HOSTILE_DEVS (100k) distinct devices; btt
#            also at DEVS_BTT (9000), below its descriptor limit
#   names    HOSTILE_NAMES (1M) PROCESS notes with distinct names, one IO each;
#            btt (blkparse is quadratic in names) only at NAMES_BTT (100k)
# blkscope analyze --btt-only and with every section against blkparse -O -d
# + btt on the same trace, in the same run: wall time, CPU time, peak RSS
# (the pipeline and btt alone), the ratios, whether the reports are equal,
# and issue 13's target (<= 10 s and <= 512 MiB).  blkparse itself is slow on
# many names (~30 min for 1M on a loaded 2-CPU machine).  btt keeps two
# files open per device: its descriptor limit is raised for it when allowed
# (root with CAP_SYS_RESOURCE); otherwise it crashes on the device trace
# past ulimit -n / 2 devices, and that is reported as such.
set -euo pipefail
: "${BIN:?}"
NDEVS=${HOSTILE_DEVS:-100000}
NNAMES=${HOSTILE_NAMES:-1000000}
for t in blkparse btt; do
	command -v "$t" >/dev/null || { echo "$t is not installed"; exit 1; }
done
dir=$(mktemp -d /dev/shm/bench-hostile.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

# measure OUT CMD...: sets SECS, CPU, RSS_KB, RC of one run (stdout to OUT)
measure() {
	local out=$1
	shift
	RC=0
	/usr/bin/time -f '%e %U %S %M' -o "$dir/.time" "$@" >"$out" 2>/dev/null || RC=$?
	read -r SECS u s RSS_KB < <(tail -n 1 "$dir/.time")
	CPU=$(awk -v a="$u" -v b="$s" 'BEGIN{printf "%.2f", a + b}')
}

# ratio A B: A / B with two decimals ("-" when B is 0)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b + 0 > 0) printf "%.2f", a / b; else printf "-" }'; }

# target LABEL CPU_SECS RSS_KB: issue 13's target, <= 10 s and <= 512 MiB
# (CPU time: on a shared machine the wall time measures the others too)
target() {
	if awk -v s="$2" -v r="$3" 'BEGIN{exit !(s <= 10 && r <= 524288)}'; then
		echo "target met (<= 10 s CPU, <= 512 MiB)"
	else
		echo "target MISSED (<= 10 s CPU, <= 512 MiB)"
	fi
}

one() {	# [--no-btt WHY] LABEL GEN-ARGS...
	local label bs bc br brc os oc orr fs fc fr same why=
	[ "$1" = --no-btt ] && { why=$2; shift 2; }
	label=$1
	shift
	"$BIN/bs-gen-trace" -o "$label" "$@"
	if [ -n "$why" ]; then
		ours_only "$label" "$why"
		return
	fi
	measure /dev/null blkparse -O -d "$label.dump" -i "$label"
	local ps=$SECS pc=$CPU pr=$RSS_KB
	# btt keeps two files open per device: allow them if we may (root)
	measure btt.out sh -c 'ulimit -n "$1" 2>/dev/null; exec btt -i "$2"' sh $((NDEVS * 2 + 64)) "$label.dump"
	local ts=$SECS tc=$CPU tr=$RSS_KB
	bs=$(awk -v a="$ps" -v b="$SECS" 'BEGIN{printf "%.2f", a + b}')
	bc=$(awk -v a="$pc" -v b="$CPU" 'BEGIN{printf "%.2f", a + b}')
	br=$((pr > RSS_KB ? pr : RSS_KB)) brc=$RC
	rm -f "$label.dump" ./*_fp.dat
	measure ours.out "$BIN/blkscope-analyze" --btt-only --no-progress "$label"
	os=$SECS oc=$CPU orr=$RSS_KB
	measure /dev/null "$BIN/blkscope-analyze" --no-progress "$label"
	fs=$SECS fc=$CPU fr=$RSS_KB
	if [ "$brc" -ne 0 ]; then
		same="btt failed (exit $brc; it needs two descriptors per device, ulimit -n was $(ulimit -n))"
	elif cmp -s btt.out ours.out; then
		same="reports identical"
	else
		same="reports DIFFERENT"
	fi
	echo "$label ($(du -h "$label.blktrace.0" | cut -f1)): $same"
	if [ "$brc" -ne 0 ]; then	# a crashed btt's numbers are no reference
		bs=0 ts=0 br=0 tr=0
	fi
	printf '  %-26s %7.2f s (cpu %7.2f s) %9d KiB\n' "blkparse -d + btt" "$bs" "$bc" "$br"
	printf '  %-26s %7.2f s (cpu %7.2f s) %9d KiB\n' "btt alone" "$ts" "$tc" "$tr"
	printf '  %-26s %7.2f s (cpu %7.2f s) %9d KiB  vs btt alone: time x%s, RSS x%s; vs blkparse+btt: time x%s, RSS x%s; %s\n' \
		"analyze --btt-only" "$os" "$oc" "$orr" "$(ratio "$os" "$ts")" "$(ratio "$orr" "$tr")" \
		"$(ratio "$os" "$bs")" "$(ratio "$orr" "$br")" "$(target "" "$oc" "$orr")"
	printf '  %-26s %7.2f s (cpu %7.2f s) %9d KiB  vs btt alone: time x%s, RSS x%s; vs blkparse+btt: time x%s, RSS x%s; %s\n' \
		"analyze (every section)" "$fs" "$fc" "$fr" "$(ratio "$fs" "$ts")" "$(ratio "$fr" "$tr")" \
		"$(ratio "$fs" "$bs")" "$(ratio "$fr" "$br")" "$(target "" "$fc" "$fr")"
	rm -f "$label".blktrace.* btt.out ours.out
}

# ours_only LABEL WHY: our two runs, without the btt pipeline (WHY says why)
ours_only() {
	local label=$1
	echo "$label ($(du -h "$label.blktrace.0" | cut -f1)): blkparse + btt not run ($2)"
	measure /dev/null "$BIN/blkscope-analyze" --btt-only --no-progress "$label"
	printf '  %-26s %7.2f s (cpu %7.2f s) %9d KiB  %s\n' "analyze --btt-only" "$SECS" "$CPU" "$RSS_KB" \
		"$(target "" "$CPU" "$RSS_KB")"
	measure /dev/null "$BIN/blkscope-analyze" --no-progress "$label"
	printf '  %-26s %7.2f s (cpu %7.2f s) %9d KiB  %s\n' "analyze (every section)" "$SECS" "$CPU" "$RSS_KB" \
		"$(target "" "$CPU" "$RSS_KB")"
	rm -f "$label".blktrace.*
}

echo "wall time, CPU time (user + system), peak RSS; blkparse+btt's RSS is the larger of the two;"
echo "ratios are ours / theirs (below 1: we are faster or smaller); a btt that failed has no ratio"
# btt keeps two descriptors per device: where the hard limit cannot be
# raised (no CAP_SYS_RESOURCE) it crashes past ulimit -n / 2 devices, so
# it is also measured at DEVS_BTT (9000) devices
one devices -w hostile-devs -n "${DEVS_BTT:-9000}"
if [ "$NDEVS" -gt "${DEVS_BTT:-9000}" ]; then
	if sh -c 'ulimit -n "$1"' sh $((NDEVS * 2 + 64)) 2>/dev/null; then
		one devices -w hostile-devs -n "$NDEVS"
	else
		one --no-btt "btt needs $((NDEVS * 2)) descriptors, the hard limit is $(ulimit -Hn)" devices -w hostile-devs -n "$NDEVS"
	fi
fi
# btt's side at 1M names would take blkparse half an hour: it is measured at
# NAMES_BTT (100k) names, ours at both sizes
one names -w hostile-names -n "${NAMES_BTT:-100000}" --io-every 1
if [ "$NNAMES" -gt "${NAMES_BTT:-100000}" ]; then
	one --no-btt "blkparse is quadratic in names: ~30 min at 1M" names -w hostile-names -n "$NNAMES" --io-every 1
fi
