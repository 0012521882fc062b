#!/usr/bin/env bash
# bench-hostile: the hostile traces of issue 13 (tests/hostile/bs-hostile-gen):
#   devices  Q, D, C on each of HOSTILE_DEVS (100k) distinct devices
#   names    HOSTILE_NAMES (1M) PROCESS notes with distinct names, one IO each
# blkscope analyze --btt-only against blkparse -O -d + btt on the same
# trace, in the same run: wall time, CPU time, peak RSS (the pipeline and
# btt alone), and whether the reports are equal.  blkparse itself is slow on
# many names (~30 min for 1M on a loaded 2-CPU machine).  btt keeps two files open per device: with fewer
# descriptors allowed than that (ulimit -n) it crashes on the device trace;
# that is reported as such.
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

one() {	# LABEL GEN-ARGS...
	local label=$1 bs bc br brc os oc orr same
	shift
	"$BIN/bs-hostile-gen" -o "$label" "$@"
	measure /dev/null blkparse -O -d "$label.dump" -i "$label"
	local ps=$SECS pc=$CPU pr=$RSS_KB
	measure btt.out btt -i "$label.dump"
	local ts=$SECS tc=$CPU tr=$RSS_KB
	bs=$(awk -v a="$ps" -v b="$SECS" 'BEGIN{printf "%.2f", a + b}')
	bc=$(awk -v a="$pc" -v b="$CPU" 'BEGIN{printf "%.2f", a + b}')
	br=$((pr > RSS_KB ? pr : RSS_KB)) brc=$RC
	rm -f "$label.dump" ./*_fp.dat
	measure ours.out "$BIN/blkscope-analyze" --btt-only --no-progress "$label"
	os=$SECS oc=$CPU orr=$RSS_KB
	if [ "$brc" -ne 0 ]; then
		same="btt failed (exit $brc, ulimit -n $(ulimit -n))"
	elif cmp -s btt.out ours.out; then
		same="reports identical"
	else
		same="reports DIFFERENT"
	fi
	printf '%-8s %s | blkparse+btt %7.2fs (cpu %7.2fs) %8d KiB | btt alone %6.2fs (cpu %6.2fs) %8d KiB | analyze %6.2fs (cpu %6.2fs) %8d KiB | %s\n' \
		"$label" "$(du -h "$label.blktrace.0" | cut -f1)" "$bs" "$bc" "$br" "$ts" "$tc" "$tr" "$os" "$oc" "$orr" "$same"
	rm -f "$label".blktrace.* btt.out ours.out
}

echo "wall time, CPU time (user + system), peak RSS; btt's RSS is the larger of blkparse's and btt's"
one devices -d "$NDEVS"
one names -p "$NNAMES" -e 1
