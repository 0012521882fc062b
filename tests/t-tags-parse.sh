#!/usr/bin/env bash
# blkscope parse --tag-plugin: each event line ends with its tag, the text
# is otherwise unchanged, the tags are the ones tag-check reports, and a
# failing plugin leaves the full text and one error line.
set -euo pipefail
. "$(dirname "$0")/lib/tags.sh"
P="$BIN/blkscope-parse"
[ -x "$P" ] || fail "missing $P"

tr=$(gen_trace parse -n 20000 -p 5 -u 1 -s 17)

"$P" "$tr" >"$tags_tmp/plain"
"$P" --tag-plugin "$TAG_BY_PID -g db:1001,1002" "$tr" >"$tags_tmp/tagged" 2>"$tags_tmp/err"
[ ! -s "$tags_tmp/err" ] || { cat "$tags_tmp/err"; fail "stderr not empty"; }
sed -E 's/ \[tag [0-9]+: [^]]*\]$//' "$tags_tmp/tagged" | cmp - "$tags_tmp/plain" ||
	fail "text differs beyond the tag suffix"
n=$(grep -c ' \[tag [0-9]*: ' "$tags_tmp/tagged")
[ "$n" -eq 8000 ] || fail "$n tagged lines, want 8000 (every Q and D)"

# the same tags, in the same order, as tag-check assigns
"$BIN/blkscope-tag-check" -v "$TAG_BY_PID" -g db:1001,1002 -- "$tr" |
	sed -nE 's/^event [0-9]+: .* -> tag ([0-9]+) \((.*)\)$/\1: \2/p' >"$tags_tmp/want"
sed -nE 's/.* \[tag ([0-9]+: .*)\]$/\1/p' "$tags_tmp/tagged" >"$tags_tmp/got"
diff -u "$tags_tmp/want" "$tags_tmp/got" >&2 || fail "parse and tag-check disagree"
grep -q ' \[tag [0-9]*: db\]$' "$tags_tmp/tagged" || fail "group label missing"
echo "ok: tagged text"

# a plugin that crashes: all the text, one error line, status 1, nothing left behind
run_guarded "$tags_tmp/out" "$tags_tmp/err" "$P" --tag-plugin "$BAD crash 3000" "$tr"
[ "$rc" -eq 1 ] || fail "crash: status $rc"
expect_one_error "$tags_tmp/err" "^blkscope parse: tag plugin '$BAD crash 3000': event 3000: plugin killed by signal 11"
sed -E 's/ \[tag [0-9]+: [^]]*\]$//' "$tags_tmp/out" | cmp - "$tags_tmp/plain" || fail "crash: text incomplete"
echo "ok: failing plugin"
echo "PASS"
