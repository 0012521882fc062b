#!/usr/bin/env bash
# blkscope analyze --tag-plugin: tags reach every I/O for its whole life
# (Q -> C), the per-tag table matches an independent count, btt's own
# report is unchanged, and misbehaving plugins leave the (untagged)
# analysis intact: one error line, exit status 1, "TAGS INCOMPLETE", no
# hang, no process left behind.
set -euo pipefail
. "$(dirname "$0")/lib/tags.sh"
A="$BIN/blkscope-analyze"
[ -x "$A" ] || fail "missing $A"

tr=$(gen_trace an -n 50000 -p 6 -u 1 -s 11)
ios=10000

# rows of the per-tag table: "TAG LABEL... IOs completed bytes ..." -> "LABEL|IOs|completed"
tag_rows() {
	sed -n '/^==* Tags (plugin/,/^(latencies/p' "$1" | grep -E '^ +([0-9]+|-) ' |
		sed -E 's/^ +([0-9]+|-) (.{28}) +([0-9]+) +([0-9]+) .*/\2|\3|\4/; s/ +\|/|/'
}

# 1. tag-by-pid: each process's tag holds exactly the I/Os it queued.
"$A" --tag-plugin "$TAG_BY_PID" "$tr" >"$tags_tmp/rep" 2>"$tags_tmp/err"
[ ! -s "$tags_tmp/err" ] || { cat "$tags_tmp/err"; fail "stderr not empty"; }
tag_rows "$tags_tmp/rep" | sort >"$tags_tmp/got"
python3 - "$tr.blktrace.0" <<'PY' | sort >"$tags_tmp/want"
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.environ["TOP"] + "/tests/lib")
import blktrace
data = open(sys.argv[1], "rb").read()
names, qs = {}, {}
for _, r, pdu in blktrace.records(data):
    if blktrace.is_note(r.action):
        if blktrace.basic(r.action) == blktrace.TN_PROCESS:
            names[r.pid] = blktrace.comm(pdu).decode()
    elif r.action & 0xffff == blktrace.TA_QUEUE:
        qs[r.pid] = qs.get(r.pid, 0) + 1
for pid, n in qs.items():
    print("%s (%d)|%d|%d" % (names.get(pid, "?"), pid, n, n))
print("untagged|0|0")
PY
diff -u "$tags_tmp/want" "$tags_tmp/got" >&2 || fail "per-tag I/O counts differ from the trace"
grep -q "^6 tags declared, 20000 events tagged" "$tags_tmp/rep" || fail "tag count line"
echo "ok: per-tag table matches the trace ($(wc -l <"$tags_tmp/got") rows)"

# 2. btt's report is the same with and without tagging.
"$A" --btt-only "$tr" >"$tags_tmp/plain"
"$A" --btt-only --tag-plugin "$TAG_BY_PID" "$tr" >"$tags_tmp/tagged"
diff -u "$tags_tmp/plain" "$tags_tmp/tagged" >&2 || fail "--tag-plugin changed btt's report"
echo "ok: btt report unchanged"

# 3. A tag given at any event covers the whole I/O; the first one wins.
for case in "C:by-C" "DC:by-D" "QDC:by-Q" "Q:by-Q"; do
	letters=${case%%:*} want=${case#*:}
	"$A" --tag-plugin "python3 $TOP/tests/tags/tag-by-action.py $letters" "$tr" >"$tags_tmp/rep"
	tag_rows "$tags_tmp/rep" >"$tags_tmp/rows"
	grep -qx "$want|$ios|$ios" "$tags_tmp/rows" || { cat "$tags_tmp/rows"; fail "$letters: all I/Os should be in $want"; }
	grep -qx "untagged|0|0" "$tags_tmp/rows" || { cat "$tags_tmp/rows"; fail "$letters: untagged I/Os"; }
done
echo "ok: whole-life attribution (C only, D before C, Q first)"

# 4. Machine-readable outputs carry the tags: JSON groups named by label.
"$A" --tag-plugin "$TAG_BY_COMM" --json "$tags_tmp/r.json" --csv "$tags_tmp/csv" --html "$tags_tmp/r.html" \
	"$tr" >/dev/null
python3 - "$tags_tmp/r.json" <<'PY'
import json, sys
g = {x["name"]: x for x in json.load(open(sys.argv[1]))["groups"]}
assert g["worker"]["ios"] > 0 and g["untagged"]["ios"] == 0, g.keys()
assert sum(x["ios"] for x in g.values()) == 10000, [(k, v["ios"]) for k, v in g.items()]
PY
grep -q '^group,worker,' "$tags_tmp/csv/slices.csv" || fail "CSV has no tag group"
grep -q '>proc3<' "$tags_tmp/r.html" || fail "HTML has no tag legend"
# a trace on stdin (pipe mode) is tagged the same way
"$A" --tag-plugin "$TAG_BY_COMM" --json "$tags_tmp/s.json" - <"$tr.blktrace.0" >/dev/null
cmp "$tags_tmp/r.json" "$tags_tmp/s.json" >/dev/null ||
	python3 - "$tags_tmp/r.json" "$tags_tmp/s.json" <<'PY' || fail "stdin: different tag groups"
import json, sys
a, b = ({g["name"]: g["ios"] for g in json.load(open(f))["groups"]} for f in sys.argv[1:])
assert a == b, (a, b)
PY
echo "ok: JSON, CSV, HTML, stdin"

# 5. Command-line handling: quoting, no shell, bad values.
"$A" --tag-plugin "$BAD argv 'two words' \"say \\\"hi\\\"\" \$HOME *" "$tr" >/dev/null 2>"$tags_tmp/err"
grep -qxF '["argv", "two words", "say \"hi\"", "$HOME", "*"]' "$tags_tmp/err" ||
	{ cat "$tags_tmp/err"; fail "--tag-plugin word splitting"; }
"$BIN/blkscope-tag-check" -c "$(printf '%s\targv\n a\\ b\\\\ "" \047\\\047' "$BAD")" "$tr" >/dev/null 2>"$tags_tmp/err"
grep -qxF '["argv", "a b\\", "", "\\"]' "$tags_tmp/err" || { cat "$tags_tmp/err"; fail "tabs, newlines, backslashes"; }
rc=0; "$BIN/blkscope-tag-check" -c "$BAD argv \\" "$tr" >/dev/null 2>"$tags_tmp/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "trailing backslash" "$tags_tmp/err" || fail "trailing backslash"
rc=0; "$A" --tag-plugin "x 'y" "$tr" >/dev/null 2>"$tags_tmp/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "unterminated ' quote" "$tags_tmp/err" || fail "unterminated quote"
rc=0; "$A" --tag-plugin x --tag-timeout soon "$tr" >/dev/null 2>"$tags_tmp/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "tag-timeout: 'soon' is not a number of seconds" "$tags_tmp/err" || fail "bad --tag-timeout"
rc=0; "$A" --tag-plugin "$TAG_BY_PID" --group-by pid "$tr" >/dev/null 2>"$tags_tmp/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "cannot be combined with --group" "$tags_tmp/err" || fail "--group-by accepted"
rc=0; "$A" --tag-plugin "$tags_tmp/nope" "$tr" >/dev/null 2>"$tags_tmp/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "cannot start: No such file" "$tags_tmp/err" || fail "missing plugin"
echo "ok: command line"

# 6. Misbehaving plugins: the analysis survives, untagged.
bad() {	# MODE EVENT-REGEX MESSAGE-REGEX [analyze options]
	local mode=$1 ev=$2 re=$3; shift 3
	run_guarded "$tags_tmp/rep" "$tags_tmp/err" "$A" "$@" --tag-plugin "$BAD $mode 2000" "$tr"
	[ "$rc" -eq 1 ] || { cat "$tags_tmp/err"; fail "$mode: status $rc, want 1"; }
	expect_one_error "$tags_tmp/err" "^blkscope analyze: tag plugin '$BAD $mode 2000': event $ev: $re; tags are incomplete\$"
	grep -q '^TAGS INCOMPLETE' "$tags_tmp/rep" || fail "$mode: report does not say tags are incomplete"
	grep -q '^ *ALL ' "$tags_tmp/rep" || fail "$mode: btt report missing"
	tag_rows "$tags_tmp/rep" | awk -F'|' -v n=$ios '{s += $2} END {exit s != n}' ||
		fail "$mode: tagged + untagged I/Os != $ios"
	echo "ok: $mode"
}
bad crash 2000 'plugin killed by signal 11.*'
bad exit0 2000 'plugin exited with status 0 before answering it.*'
bad unknown 2000 'unknown response type 7'
bad longlabel 2000 'NEW_TAG 5: label of 5000 bytes, over the 4096-byte limit'
bad nonul 2000 'NEW_TAG 5: label of 5 bytes does not end with a NUL'
bad undeclared 2000 'TAG_IO for undeclared tag 7'
bad early '[0-9]+' 'response \(type 0\) for an event not sent yet.*'
bad silent 2000 'no answer for 3.0 s \(the tag timeout\)' --tag-timeout 3
bad exit3 $((50000 + 9)) 'after the last event: plugin exited with status 3'
echo "PASS"
