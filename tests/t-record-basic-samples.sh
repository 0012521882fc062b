#!/usr/bin/env bash
# The committed recordings (samples/rec-*, made by tests/gen/record-samples.sh)
# are valid blktrace files: every CPU file walks cleanly (magic, whole
# records, time order, sequence from 1), blkparse reads them without
# complaint and finds the events each one was made to contain.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
here=$(cd "$(dirname "$0")" && pwd)
TOP=${TOP:-${here%/tests}}
need_tools blkparse python3
S=$TOP/samples

# expect DIR ACTION RWBS MIN: at least MIN lines of that action and RWBS
expect() {
	local n
	n=$(awk -v a="$2" -v r="$3" '$6 == a && $7 == r { n++ } END { print n + 0 }' <<<"$out")
	[ "$n" -ge "$4" ] || rec_die "$1: expected >= $4 '$2 $3' lines, got $n"
}

for d in rec-dd-direct rec-deadline-buffered rec-part-discard; do
	python3 "$(dirname "$0")/lib/record-walk.py" "$S/$d"/loop0.blktrace.* >/dev/null || rec_die "$d: bad file"
	out=$(rec_blkparse -D "$S/$d" -i loop0)
	pipe=$(cat "$S/$d"/loop0.blktrace.* | rec_blkparse -i -)
	grep -q '^Skips: 0' <<<"$pipe" || rec_die "$d: sequence gaps"
	if grep -q '(null)' <<<"$out"; then rec_die "$d: an event without a PROCESS note"; fi
	case $d in
	rec-dd-direct)
		expect $d Q WS 9; expect $d Q RS 8; expect $d C RS 8; expect $d X WS 1 ;;
	rec-deadline-buffered)
		expect $d M WS 1; expect $d I WS 1; expect $d D FN 1; expect $d Q RA 1 ;;
	rec-part-discard)
		expect $d A WS 4; expect $d D DS 1; expect $d C DS 1 ;;
	esac
done
echo OK
