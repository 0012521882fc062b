#!/usr/bin/env bash
# A 1M-event trace through the C plugin (analyze and tag-check) and the
# Python plugin (tag-check): no deadlock however much is in flight, every
# event answered, every I/O tagged, nothing left behind.
set -euo pipefail
. "$(dirname "$0")/lib/tags.sh"

tr=$(gen_trace big -n 1000000 -p 40 -u 4 -s 13)
events=$((1000000 + 40))	# + TIMESTAMP, 36 PROCESS notes, MESSAGE, P, U
ios=200000

run_guarded "$tags_tmp/rep" "$tags_tmp/err" "$BIN/blkscope-analyze" --tag-plugin "$TAG_BY_PID" "$tr"
[ "$rc" -eq 0 ] || { cat "$tags_tmp/err"; fail "analyze: status $rc"; }
[ ! -s "$tags_tmp/err" ] || { cat "$tags_tmp/err"; fail "analyze: stderr not empty"; }
grep -q "^40 tags declared, $((2 * ios)) events tagged" "$tags_tmp/rep" || fail "analyze: tag summary"
sed -n '/^==* Tags (plugin/,/^(latencies/p' "$tags_tmp/rep" | grep -E '^ +[0-9]+ ' |
	awk -v n=$ios '{s += $(NF-7)} END {if (s != n) {print "sum " s; exit 1}}' || fail "analyze: tagged I/Os != $ios"
grep -qE '^ +- untagged +0 +0 ' "$tags_tmp/rep" || fail "analyze: untagged I/Os"
echo "ok: analyze, C plugin"

n=0
for plugin in "$TAG_BY_PID" "python3 $PY_TAG_BY_PID"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	run_guarded "$tags_tmp/out$n" "$tags_tmp/err" "$BIN/blkscope-tag-check" $plugin -- "$tr"
	[ "$rc" -eq 0 ] || { cat "$tags_tmp/err"; fail "tag-check $plugin: status $rc"; }
	grep -q "^$events events, $events answered, 40 tags declared, $((2 * ios)) TAG_IO answers" "$tags_tmp/out$n" ||
		{ tail -3 "$tags_tmp/out$n"; fail "tag-check $plugin: summary"; }
	echo "ok: tag-check $plugin"
done
cmp "$tags_tmp/out1" "$tags_tmp/out2" || fail "C and Python per-tag summaries differ"
echo "PASS"
