#!/usr/bin/env bash
# bench-flight.sh - what the flight recorder (record --ring) costs and holds.
#
# 1. Cost, in alternating rounds (order rotated each round) of fio 4k random
#    reads, io_uring, QD32, on a loop device over /dev/shm: untraced; plain
#    recording into files in /dev/shm; armed (--ring 64M --trigger
#    'D2C>10s' --trigger signal: it never fires); armed with the cheapest
#    useful set of events (-a issue -a complete: D and C only, which D2C
#    triggers and the analyzer's D2C need), and armed with --events Q,D,C
#    (the other tracepoints' programs not loaded).  Prints IOPS, the ratio to
#    untraced, fio's CPU per I/O and the recorder's CPU while tracing.
# 2. History: seconds of history one MiB of --ring holds at 10k, 100k and
#    as many IOPS as fio reaches (300k asked), raw and with --ring-zstd 1
#    and 3 (from the recorder's own "History:" line: the span it holds over
#    the bytes it holds), and the recorder's CPU for it.
# 3. Time from a trigger to the snapshot on disk (--after 0, a full 64 MiB
#    history under fio load): SIGUSR1 to "written".
#
#   ROUNDS=5 SECONDS_PER_RUN=2 tests/bench/bench-flight.sh
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/record.sh"
rec_require fio python3 bc
ROUNDS=${ROUNDS:-5}
RUNTIME=${SECONDS_PER_RUN:-2}
rec_loop 512
OUT=$(mktemp -d /dev/shm/blkscope-bench-flight.XXXXXX)
rec_defer "rm -rf '$OUT'"
dd if=/dev/urandom of="$REC_LOOP" bs=1M count=512 oflag=direct status=none

fio_iops() {	# fio_iops [RATE]: read IOPS; fio's CPU ns per I/O into $OUT/fio.cpu
	fio --name=bench --filename="$REC_LOOP" --rw=randread --bs=4k --ioengine=io_uring \
		--iodepth=32 --direct=1 --runtime="$RUNTIME" --time_based ${1:+--rate_iops=$1} \
		--output-format=json --output="$OUT/fio.json" >/dev/null
	python3 -c 'import json,sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(round(j["read"]["iops"]))
with open(sys.argv[2], "w") as f:
	print(round((j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1e6 / max(j["read"]["total_ios"], 1)), file=f)' \
		"$OUT/fio.json" "$OUT/fio.cpu"
}

start_rec() {	# start_rec ERR ARGS...: the recorder in the background until it traces
	local err=$1 i
	shift
	"$BIN/blkscope-record" -v -d "$REC_LOOP" "$@" 2>"$err" &
	RPID=$!
	for i in $(seq 200); do
		grep -q "tracing $REC_LOOP" "$err" && return 0
		sleep 0.05
	done
	cat "$err" >&2
	rec_die "the recorder did not start"
}

stop_rec() {
	kill -INT "$RPID"
	wait "$RPID" || { cat "$1" >&2; rec_die "the recorder failed"; }
}

run_mode() {	# run_mode MODE [RATE]: IOPS; the recorder's summary in $OUT/MODE.err
	local mode=$1 iops
	rm -rf "$OUT/files" "$OUT/snaps"
	case $mode in
	untraced) fio_iops "${2:-}"; return ;;
	plain) start_rec "$OUT/$mode.err" -D "$OUT/files" ;;
	armed) start_rec "$OUT/$mode.err" -D "$OUT/snaps" --ring 64M --trigger 'D2C>10s' --trigger signal ;;
	cheap) start_rec "$OUT/$mode.err" -D "$OUT/snaps" --ring 64M --trigger 'D2C>10s' \
		--trigger signal -a issue -a complete ;;
	qdc) start_rec "$OUT/$mode.err" -D "$OUT/snaps" --ring 64M --trigger 'D2C>10s' \
		--trigger signal --events Q,D,C ;;
	esac
	iops=$(fio_iops "${2:-}")
	stop_rec "$OUT/$mode.err"
	echo "$iops"
}

cpu_of() {	# the recorder's CPU while tracing, s
	awk '/^CPU time while tracing:/ { print $5 + $8 }' "$1"
}
events_of() {
	awk '$1 == "Total:" { print $2 }' "$1"
}
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
div() { echo "scale=3; $1 / $2" | bc -l; }

echo "bench-flight: fio 4k randread, io_uring, QD32, loop over /dev/shm; $ROUNDS rounds x 5 modes x ${RUNTIME}s"
echo "  load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
declare -A ratio cpu evs fcpu
modes=(untraced plain armed cheap qdc)
for ((r = 1; r <= ROUNDS; r++)); do
	line="  round $r:"
	for ((k = 0; k < 5; k++)); do
		m=${modes[(k + r) % 5]}
		v=$(run_mode "$m")
		eval "iops_$m=$v"
		fcpu[$m]+="$(cat "$OUT/fio.cpu") "
		if [ "$m" != untraced ]; then
			cpu[$m]+="$(cpu_of "$OUT/$m.err") "
			evs[$m]+="$(events_of "$OUT/$m.err") "
		fi
	done
	for m in "${modes[@]}"; do
		v=$(eval echo "\$iops_$m")
		line+=" $m $v"
		[ "$m" = untraced ] || { ratio[$m]+="$(div "$v" "$iops_untraced") "; line+=" ($(div "$v" "$iops_untraced"))"; }
	done
	echo "$line"
done
for m in plain armed cheap qdc; do
	# shellcheck disable=SC2086
	printf '  %-8s IOPS/untraced median %s; recorder CPU while tracing median %s s per %ss run (%s events); fio CPU/IO %s ns (untraced %s)\n' \
		"$m" "$(median ${ratio[$m]})" "$(median ${cpu[$m]})" "$RUNTIME" "$(median ${evs[$m]})" \
		"$(median ${fcpu[$m]})" "$(median ${fcpu[untraced]})"
done

echo "  seconds of history per MiB of --ring (fio ${RUNTIME}s at each rate):"
for rate in 10000 100000 300000; do
	for z in 0 1 3; do
		zopt=()
		[ "$z" = 0 ] || zopt=(--ring-zstd="$z")
		rm -rf "$OUT/snaps"
		start_rec "$OUT/h.err" -D "$OUT/snaps" --ring 256M --trigger signal "${zopt[@]}"
		iops=$(fio_iops "$rate")
		stop_rec "$OUT/h.err"
		read -r span kib < <(sed -n 's/^History: [0-9]* records, \([0-9.]*\) s, \([0-9]*\) KiB.*/\1 \2/p' "$OUT/h.err")
		printf '    %6s IOPS asked, %6d reached, zstd %s: %8.3f s/MiB (%s s in %s KiB), recorder CPU %s s\n' \
			"$rate" "$iops" "$z" "$(echo "$span / ($kib / 1024)" | bc -l)" "$span" "$kib" "$(cpu_of "$OUT/h.err")"
	done
done

echo "  trigger to snapshot on disk (--after 0, 64 MiB history, under fio):"
for z in 0 1; do
	zopt=()
	[ "$z" = 0 ] || zopt=(--ring-zstd="$z")
	rm -rf "$OUT/snaps"
	start_rec "$OUT/t.err" -D "$OUT/snaps" --ring 64M --trigger signal --after 0s "${zopt[@]}"
	fio --name=load --filename="$REC_LOOP" --rw=randread --bs=4k --ioengine=io_uring --iodepth=32 \
		--direct=1 --runtime=$((RUNTIME + 2)) --time_based --output=/dev/null &
	fpid=$!
	sleep "$RUNTIME"
	t0=$(date +%s%N)
	kill -USR1 "$RPID"
	until grep -q "snapshot .* written" "$OUT/t.err"; do sleep 0.01; done
	t1=$(date +%s%N)
	wait "$fpid"
	stop_rec "$OUT/t.err"
	printf '    zstd %s: %d ms for %s\n' "$z" $(((t1 - t0) / 1000000)) \
		"$(sed -n 's/.*written: \([0-9]* events, [0-9]* KiB\).*/\1/p' "$OUT/t.err")"
done
echo "  load after: $(cut -d' ' -f1-3 /proc/loadavg)"
