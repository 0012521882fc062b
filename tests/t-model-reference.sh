#!/usr/bin/env bash
# The per-I/O model I/O by I/O against a deliberately independent
# reference (tests/lib/ioref.py: pairs Q, X, D and C by the sectors they
# cover, reads blkparse's own -d dump): every I/O's Q2C, fragment count
# and D2C as `blkscope export` gives them.  Traces: generated random I/O
# (back merges, 50 in flight), the bench workload (merged bios covered by
# their requests), the every-feature scenario (splits, front merges,
# requeues, remaps, flushes, two devices) and the committed real
# recordings (splits, buffered writes with merges and a flush, a
# partition's remaps and a discard).
set -euo pipefail
. "$TOP/tests/lib/skip.sh"
need_tools blkparse python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$BIN/bs-gen-trace" -w random -s 3 -n 300000 -o random >/dev/null
"$BIN/bs-gen-trace" -w bench -n 300000 -o bench >/dev/null
"$BIN/bs-gen-trace" -o mixed >/dev/null
for s in rec-dd-direct rec-deadline-buffered rec-part-discard; do
	cp "$TOP/samples/$s"/loop0.blktrace.* . && for f in loop0.blktrace.*; do mv "$f" "$s.${f#loop0.}"; done
done
fail=0
for t in random bench mixed rec-dd-direct rec-deadline-buffered rec-part-discard; do
	blkparse -q -O -d "$t.dump" -i "$t" >/dev/null
	"$BIN/blkscope-export" --format jsonl -o "$t.jsonl" "$t" 2>"$t.err" || { cat "$t.err"; exit 1; }
	python3 "$TOP/tests/model/ref_vs_export.py" "$t.dump" "$t.jsonl" || fail=1
done
exit $fail
