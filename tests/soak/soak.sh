#!/usr/bin/env bash
# soak.sh - long recording at full load (`make soak`; not part of make test).
#
# Records a loop device for SOAK_SECONDS (default 600) while fio keeps it
# saturated (2 jobs x QD32 random 4 KiB reads, io_uring, direct), samples
# the recorder's resident set every 10 s, and checks at the end:
#   - 0 dropped events (the summary's Total drops),
#   - RSS flat: after the first 30 s, no sample exceeds the 30 s one by
#     more than 1 MiB,
#   - the files are valid: blkscope parse reads every record with no
#     damage message, and holds as many events as the summary counted.
# SOAK_DIR (default /var/tmp) holds the files while checking (about 50 MB
# per second of load uncompressed; SOAK_ZSTD=1 records with --zstd);
# they are removed at the end unless SOAK_KEEP=1.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/record.sh"
. "$TOP/tests/lib/hard.sh"
rec_require fio
secs=${SOAK_SECONDS:-600}
interval=10
[ "$secs" -ge 30 ] || rec_die "SOAK_SECONDS must be at least 30"
zopt=()
[ "${SOAK_ZSTD:-0}" = 1 ] && zopt=(--zstd)

need_mb=$(( secs * 55 / (${#zopt[@]} ? 5 : 1) ))
dir=$(mktemp -d "${SOAK_DIR:-/var/tmp}/blkscope-soak.XXXXXX")
[ "${SOAK_KEEP:-0}" = 1 ] || rec_defer "rm -rf '$dir'"
avail_mb=$(df -Pm "$dir" | awk 'NR == 2 { print $4 }')
[ "$avail_mb" -gt "$need_mb" ] || rec_die "$dir has $avail_mb MB free, the soak may need $need_mb MB (set SOAK_DIR or SOAK_ZSTD=1)"
REC_WORK=$dir
rec_loop 512

echo "soak: $secs s of fio load on $REC_LOOP, files in $dir${zopt:+ (zstd)}"
hard_fio_load "$REC_LOOP" $((secs + 30))
sleep 2		# fio at full speed before the recording starts
"$REC" -d "$REC_LOOP" -D "$dir" -o soak -w "$secs" "${zopt[@]}" 2>"$dir/rec.err" &
rpid=$!
rec_defer "kill -9 $rpid 2>/dev/null"

# RSS every 10 s while it runs
samples=() t=0
printf '%6s %10s %10s %10s %10s\n' "t (s)" "RSS (KiB)" "anon" "file" "shmem"
while kill -0 "$rpid" 2>/dev/null; do
	read -r rss anon file shm < <(awk '/^VmRSS:/ { r = $2 } /^RssAnon:/ { a = $2 } /^RssFile:/ { f = $2 }
		/^RssShmem:/ { s = $2 } END { print r, a, f, s }' /proc/"$rpid"/status 2>/dev/null || true)
	[ -n "$rss" ] || break
	samples+=("$rss")
	printf '%6d %10d %10d %10d %10d\n' "$t" "$rss" "$anon" "$file" "$shm"
	sleep "$interval"
	t=$((t + interval))
done
rc=0
wait "$rpid" || rc=$?
kill "$HARD_FIO_PID" 2>/dev/null || true
cat "$dir/rec.err"
[ "$rc" -eq 0 ] || rec_die "the recorder exited with $rc"

fail=0
drops=$(awk '$1 == "Total:" { print $7 }' "$dir/rec.err" | tail -1)
events=$(awk '$1 == "Total:" { print $2 }' "$dir/rec.err" | tail -1)
[ "$drops" = 0 ] || { echo "FAIL: $drops dropped events"; fail=1; }

# flat: the write buffers are a fixed pool touched at start and the stages
# are bounded, so after the first 30 s (rings, stages at full size) no
# sample may exceed the 30 s sample by more than 1 MiB, whatever the disk
# did meanwhile
n=${#samples[@]}
if [ "$n" -lt 6 ]; then
	echo "FAIL: fewer than 6 RSS samples"; fail=1
else
	base=${samples[3]} max=0
	for ((i = 3; i < n; i++)); do
		[ "${samples[i]}" -gt "$max" ] && max=${samples[i]}
	done
	allow=1024
	echo "RSS: ${samples[0]} KiB at start, $base KiB at 30 s, peak $max KiB after it (allowed +$allow KiB), last ${samples[n-1]} KiB"
	[ $((max - base)) -le "$allow" ] || { echo "FAIL: RSS grew $((max - base)) KiB after the first 30 s"; fail=1; }
fi

# valid: every record read, no damage, counts agree
start=$(date +%s)
"$BIN"/blkscope parse -f '' -D "$dir" -i soak >"$dir/parse.out" 2>"$dir/parse.err" ||
	{ cat "$dir/parse.err"; echo "FAIL: blkscope parse failed"; fail=1; }
if grep -qi "offset\|damage\|bad magic" "$dir/parse.err"; then cat "$dir/parse.err"; echo "FAIL: damage reported"; fail=1; fi
entries=$(sed -n 's/^Events (soak): \([0-9]*\) entries.*/\1/p' "$dir/parse.out")
[ -n "$entries" ] && [ "$entries" -ge "$events" ] ||
	{ echo "FAIL: parse read ${entries:-no} entries, the recorder counted $events events"; fail=1; }
echo "files: $(du -sh "$dir" | cut -f1), recorder counted $events events, parse read ${entries:-?} records in $(($(date +%s) - start)) s"
[ "$fail" -eq 0 ] || exit 1
echo "soak OK: $secs s, $events events, 0 drops, RSS flat"
