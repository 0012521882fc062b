#!/usr/bin/env bash
# bench-parse: blkscope parse vs blkparse on a generated 2-CPU trace of
# BENCH_EVENTS events (default 10M) in /dev/shm:
#   text  blkparse -i T -o /dev/null        vs  blkscope parse -i T -o /dev/null
#   dump  blkparse -O -d D -i T (D in /dev/shm, and D = /dev/null)  vs the same
#   dump of the same number of events from 64 CPU files, to /dev/null
# Prints events/s, the ratio, peak RSS; checks that the outputs are identical.
# The box is shared: next to wall time, each row gives user+sys CPU seconds
# and the CPU ratio, which other load disturbs less.
# Targets (issue): text >= 10x, dump >= 20x blkparse's events/s, RSS <= 64 MiB.
set -euo pipefail
: "${BIN:?}"
N=${BENCH_EVENTS:-10000000}
RUNS=${BENCH_RUNS:-3}
command -v blkparse >/dev/null || { echo "blkparse is not installed"; exit 1; }

dir=$(mktemp -d /dev/shm/bench-parse.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

# measure CMD...: sets SECS (wall), CPU (user+sys) and RSS_KB (peak) for one run
if [ -x /usr/bin/time ]; then
	measure() {
		/usr/bin/time -f '%e %M %U %S' -o "$dir/.time" "$@" >/dev/null 2>&1
		read -r SECS RSS_KB u s <"$dir/.time"
		CPU=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u + s}')
	}
else
	# no GNU time: wall clock from date, peak RSS from getrusage(RUSAGE_CHILDREN)
	measure() {
		python3 - "$@" >"$dir/.time" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.2f %d %.2f" % (time.monotonic() - t, r.ru_maxrss, r.ru_utime + r.ru_stime))
PY
		read -r SECS RSS_KB CPU <"$dir/.time"
	}
fi

# best CMD...: best wall time of $RUNS runs -> BEST, best CPU time -> BCPU,
# and the largest RSS -> PEAK
best() {
	local i
	BEST= BCPU= PEAK=0
	for ((i = 0; i < RUNS; i++)); do
		measure "$@"
		if [ -z "$BEST" ] || awk "BEGIN{exit !($SECS < $BEST)}"; then BEST=$SECS; fi
		if [ -z "$BCPU" ] || awk "BEGIN{exit !($CPU < $BCPU)}"; then BCPU=$CPU; fi
		[ "$RSS_KB" -gt "$PEAK" ] && PEAK=$RSS_KB
		rm -f "$dir/dump"
	done
}

rate() { awk -v n="$N" -v s="$1" 'BEGIN{ if (s <= 0) s = 0.005; printf "%.2f", n / s / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b <= 0) b = 0.005; printf "%.1f", a / b }'; }

row() {	# LABEL REF_SECS REF_RSS OUR_SECS OUR_RSS REF_CPU OUR_CPU
	printf '%-28s blkparse %7.2fs %7s Mev/s %6d KiB | blkscope %6.2fs %7s Mev/s %6d KiB | x%s\n' \
		"$1" "$2" "$(rate "$2")" "$3" "$4" "$(rate "$4")" "$5" "$(ratio "$2" "$4")"
	printf '%-28s blkparse %7.2fs cpu %21s | blkscope %6.2fs cpu %21s | x%s cpu\n' \
		"" "$6" "" "$7" "" "$(ratio "$6" "$7")"
}

echo "generating $N events on 2 CPUs in $dir ..."
"$BIN/bs-gen-trace" -n "$N" -c 2 -o T
du -sh "$dir" | sed 's/^/trace size: /'

# correctness first (untimed): same text, same dump
ref_sum=$(blkparse -i T 2>&1 | md5sum)
our_sum=$("$BIN/blkscope-parse" -i T 2>&1 | md5sum)
[ "$ref_sum" = "$our_sum" ] && echo "text output: identical" || echo "text output: DIFFERENT"
blkparse -O -d ref.dump -i T >/dev/null 2>&1
"$BIN/blkscope-parse" -O -d our.dump -i T >/dev/null 2>&1
cmp -s ref.dump our.dump && echo "dump: identical" || echo "dump: DIFFERENT"
rm -f ref.dump our.dump

# the same number of events from a 64-CPU host: the merge's cost per event
# must not grow with the number of CPU files (blkparse walks a list of them)
"$BIN/bs-gen-trace" -n "$N" -c 64 -o T64
blkparse -O -d ref.dump -i T64 >/dev/null 2>&1
"$BIN/blkscope-parse" -O -d our.dump -i T64 >/dev/null 2>&1
cmp -s ref.dump our.dump && echo "dump, 64 CPUs: identical" || echo "dump, 64 CPUs: DIFFERENT"
rm -f ref.dump our.dump

RUNS_REF=${BENCH_REF_RUNS:-2}
saved=$RUNS; RUNS=$RUNS_REF
best blkparse -i T -o /dev/null; rt=$BEST rr=$PEAK rtc=$BCPU
best blkparse -O -d "$dir/dump" -i T; rd=$BEST rdr=$PEAK rdc=$BCPU
best blkparse -O -d /dev/null -i T; rn=$BEST rnr=$PEAK rnc=$BCPU
best blkparse -O -d /dev/null -i T64; r64=$BEST r64r=$PEAK r64c=$BCPU
RUNS=$saved
best "$BIN/blkscope-parse" -i T -o /dev/null; ot=$BEST or=$PEAK otc=$BCPU
best "$BIN/blkscope-parse" -O -d "$dir/dump" -i T; od=$BEST odr=$PEAK odc=$BCPU
best "$BIN/blkscope-parse" -O -d /dev/null -i T; on=$BEST onr=$PEAK onc=$BCPU
best "$BIN/blkscope-parse" -O -d /dev/null -i T64; o64=$BEST o64r=$PEAK o64c=$BCPU

echo "events: $N; best of $RUNS runs (blkparse: $RUNS_REF); wall time, events/s, peak RSS"
row "text -o /dev/null" "$rt" "$rr" "$ot" "$or" "$rtc" "$otc"
row "-O -d FILE (tmpfs)" "$rd" "$rdr" "$od" "$odr" "$rdc" "$odc"
row "-O -d /dev/null" "$rn" "$rnr" "$on" "$onr" "$rnc" "$onc"
row "-O -d /dev/null, 64 CPUs" "$r64" "$r64r" "$o64" "$o64r" "$r64c" "$o64c"
echo "targets: text >= 10x, dump >= 20x, blkscope peak RSS <= 65536 KiB"
