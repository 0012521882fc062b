#!/usr/bin/env bash
# Misbehaving plugins (tests/tags/bad-plugin.py) through blkscope-tag-check:
# each yields exactly one error line naming the plugin and the event index,
# exit status 1, the summary of what was answered, no hang (60 s limit) and
# no process left behind (tests/tags/no-orphans.py).
set -euo pipefail
. "$(dirname "$0")/lib/tags.sh"

# 150k events: more than twice the host's window (64 Ki) and far more than
# the pipes hold (1 MiB = 21k records), so every failure happens while the
# host still has events to send.
tr=$(gen_trace rob -n 150000 -p 4 -s 5)
total=$((150000 + 7))	# + TIMESTAMP, 3 PROCESS notes, MESSAGE, P, U

bad() {	# MODE EVENT REGEX [tag-check options...]
	local mode=$1 ev=$2 re=$3; shift 3
	run_guarded "$tags_tmp/out" "$tags_tmp/err" "$BIN/blkscope-tag-check" "$@" "$BAD" "$mode" 1234 -- "$tr"
	[ "$rc" -eq 1 ] || { cat "$tags_tmp/err"; fail "$mode: exit status $rc, want 1"; }
	expect_one_error "$tags_tmp/err" "^blkscope tag-check: tag plugin '$BAD $mode 1234': event $ev: $re; tags are incomplete\$"
	grep -q "^$total events, " "$tags_tmp/out" || { cat "$tags_tmp/out"; fail "$mode: summary missing"; }
	grep -q '^FAILED' "$tags_tmp/out" || fail "$mode: no FAILED line"
	echo "ok: $mode -> $(cut -d: -f3- "$tags_tmp/err" | head -c 100)"
}

bad crash 1234 'plugin killed by signal 11 \(Segmentation fault\) before answering it.*'
bad exit0 1234 'plugin exited with status 0 before answering it.*'
bad exit3 "$total" 'after the last event: plugin exited with status 3'
bad unknown 1234 'unknown response type 7'
bad longlabel 1234 'NEW_TAG 5: label of 5000 bytes, over the 4096-byte limit'
bad nonul 1234 'NEW_TAG 5: label of 5 bytes does not end with a NUL'
bad emptylabel 1234 'NEW_TAG 5: empty label.*'
bad undeclared 1234 'TAG_IO for undeclared tag 7'
# tag 0 is not declared just because it is the first number (host caches)
run_guarded "$tags_tmp/out" "$tags_tmp/err" "$BIN/blkscope-tag-check" "$BAD" zero 0 -- "$tr"
[ "$rc" -eq 1 ] || fail "zero: status $rc"
expect_one_error "$tags_tmp/err" "event 0: TAG_IO for undeclared tag 0; tags are incomplete\$"
echo "ok: zero"
bad manytags 1234 'NEW_TAG 66535: more than 65536 tags declared'
bad tagflood 1234 'more than 65536 TAG_IO answers for one event'
bad truncated 1234 'plugin exited with status 0 before answering it \(its output ends inside a response\)'
bad extra "$total" 'response \(type 0\) after the END of the last event'
# writes 100000 ENDs before reading: must not deadlock; the surplus is caught
bad early '[0-9]+' 'response \(type 0\) for an event not sent yet.*'
# never answers: the configurable timeout ends it
start=$(date +%s)
bad silent 1234 'no answer for 3.0 s \(the tag timeout\)' -t 3
bad hang 1234 'no answer for 2.5 s \(the tag timeout\)' --timeout 2.5
[ $(($(date +%s) - start)) -lt 40 ] || fail "timeouts took too long (the option was ignored?)"

# A plugin that exits leaving a process that holds its stdout: done when it
# exits (every event answered), not when that process finally lets go.
start=$(date +%s)
rc=0
BAD_PLUGIN_PIDFILE="$tags_tmp/daemon.pid" timeout 60 "$BIN/blkscope-tag-check" "$BAD" daemon -- "$tr" \
	>"$tags_tmp/out" 2>"$tags_tmp/err" || rc=$?
kill "$(cat "$tags_tmp/daemon.pid")" 2>/dev/null || true
[ "$rc" -eq 0 ] || { cat "$tags_tmp/err"; fail "daemon: status $rc"; }
[ $(($(date +%s) - start)) -lt 20 ] || fail "daemon: waited for the left-behind process"
echo "ok: daemon"

# Cannot start: one line, status 1.
rc=0
"$BIN/blkscope-tag-check" "$tags_tmp/no-such-plugin" -- "$tr" >/dev/null 2>"$tags_tmp/err" || rc=$?
[ "$rc" -eq 1 ] || fail "missing plugin: status $rc"
grep -q "tag plugin '.*no-such-plugin': cannot start: No such file or directory" "$tags_tmp/err" ||
	fail "missing plugin: message"

# The well-behaved control: same trace, same script, all answered.
run_guarded "$tags_tmp/out" "$tags_tmp/err" "$BIN/blkscope-tag-check" "$BAD" good -- "$tr"
[ "$rc" -eq 0 ] || { cat "$tags_tmp/err"; fail "good plugin: status $rc"; }
grep -q "^$total events, $total answered" "$tags_tmp/out" || fail "good plugin: not all answered"
[ ! -s "$tags_tmp/err" ] || { cat "$tags_tmp/err"; fail "good plugin: stderr not empty"; }
echo "PASS"
