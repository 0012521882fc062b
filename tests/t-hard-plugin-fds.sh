#!/usr/bin/env bash
# Issue 13, finding 7: a tagging plugin inherits only its stdin, stdout and
# stderr.  blkscope-analyze has its report files open while the plugin runs
# (-o: bt.avg, bt.dat, bt.msg; -p: the per-IO file; -l: latency side
# files); a plugin that lists /proc/self/fd must see 0, 1 and 2 only.  The
# same through blkscope-tag-check and blkscope-parse.
set -euo pipefail
. "$(dirname "$0")/lib/tags.sh"
FDP="$TOP/tests/tags/fd-plugin.py"

tr=$(gen_trace fds -n 2000 -p 3 -s 1)
cd "$tags_tmp"

check() {	# LABEL LISTING
	local label=$1 got
	[ -s "$2" ] || fail "$label: the plugin wrote no listing"
	got=$(cut -d' ' -f1 "$2" | tr '\n' ' ')
	if [ "$got" != "0 1 2 " ]; then
		sed 's/^/    /' "$2" >&2
		fail "$label: the plugin inherited descriptors beyond 0 1 2: $got"
	fi
	echo "ok: $label: the plugin holds only 0 1 2"
}

run_guarded out err "$BIN/blkscope-analyze" --tag-plugin "$FDP $tags_tmp/analyze.fds" \
	-o "$tags_tmp/bt" -p "$tags_tmp/per-io" -l "$tags_tmp/lat" "$tr"
[ "$rc" -eq 0 ] || { cat err >&2; fail "analyze: status $rc"; }
[ -s "$tags_tmp/bt.avg" ] && [ -s "$tags_tmp/per-io" ] || fail "analyze: report files missing"
check analyze analyze.fds

run_guarded out err "$BIN/blkscope-tag-check" "$FDP" "$tags_tmp/check.fds" -- "$tr"
[ "$rc" -eq 0 ] || { cat err >&2; fail "tag-check: status $rc"; }
check tag-check check.fds

run_guarded out err "$BIN/blkscope-parse" --tag-plugin "$FDP $tags_tmp/parse.fds" -i "$tr" -o "$tags_tmp/parse.txt"
[ "$rc" -eq 0 ] || { cat err >&2; fail "parse: status $rc"; }
check parse parse.fds
