#!/usr/bin/env bash
# The files a user names on the command line (parse -o and -d, analyze
# --json/--csv/--html, btt's -o NAME.*, compare --json, export -o) are
# created as the side files are: an earlier run's file is refused in one
# line that says --force replaces it, and with --force our own regular
# file is replaced; /dev/null takes output as usual, but a planted symlink
# is not followed, a FIFO is neither waited on nor written, and a file of
# another user (checked as root, when setpriv can become nobody) is left
# alone, --force or not: one line naming the file and why, exit 1.
set -euo pipefail
: "${BIN:?}" "${TOP:?}"
. "$TOP/tests/lib/skip.sh"
need_tools python3 mkfifo
dir=$(mktemp -d /tmp/blkscope-outputs.XXXXXX)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
cd "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$BIN/bs-gen-trace" -n 2000 -c 2 -o tr >/dev/null
echo precious >victim
ln -s "$dir/victim" link.out
mkfifo fifo.out

# refused CMD...: exit 1 within the timeout, one line naming the path, victim intact
refused() {
	local rc=0 what=$1
	shift
	timeout 20 "$@" >/dev/null 2>err || rc=$?
	[ "$rc" -ne 124 ] || fail "$*: hung (on a FIFO?)"
	[ "$rc" -eq 1 ] || { cat err >&2; fail "$*: exit $rc, not 1"; }
	[ "$(wc -l <err)" -eq 1 ] || { cat err >&2; fail "$*: not one line"; }
	grep -q "cannot create .*$what" err || { cat err >&2; fail "$*: message: $(cat err)"; }
	[ "$(cat victim)" = precious ] || fail "$*: wrote through the symlink"
}

for path in link.out fifo.out; do
	[ $path = link.out ] && why="is a symlink" || why="exists and is a FIFO"
	refused "$why" "$BIN/blkscope-parse" -i tr -o $path
	refused "$why" "$BIN/blkscope-parse" -i tr -d $path
	refused "$why" "$BIN/blkscope-analyze" --btt-only --json $path tr
	refused "$why" "$BIN/blkscope-analyze" --btt-only --html $path tr
	refused "$why" "$BIN/blkscope-compare" --json $path tr tr
done
[ -L link.out ] && [ -p fifo.out ] || fail "the planted files were replaced"
echo "ok: symlink and FIFO refused by parse -o/-d, analyze --json/--html, compare --json"

# our own earlier output: refused without --force (left as it is), replaced with it; /dev/null works
"$BIN/blkscope-parse" -i tr -o text.out -d dump.out >/dev/null 2>&1
mv text.out text.ref
mv dump.out dump.ref
echo stale >text.out
echo stale >dump.out
for o in "-o text.out" "-d dump.out"; do
	rc=0
	"$BIN/blkscope-parse" -i tr $o >/dev/null 2>err || rc=$?
	[ $rc = 1 ] && grep -q "cannot create .*: it exists (from an earlier run?); pass --force to replace it" err ||
		{ cat err >&2; fail "parse $o over an earlier file: exit $rc"; }
done
[ "$(cat text.out)" = stale ] && [ "$(cat dump.out)" = stale ] || fail "refused, but written"
"$BIN/blkscope-parse" --force -i tr -o text.out -d dump.out >/dev/null 2>&1
cmp -s text.out text.ref || fail "parse --force -o did not replace our own file"
cmp -s dump.out dump.ref || fail "parse --force -d did not replace our own file"
"$BIN/blkscope-parse" -i tr -o /dev/null -d /dev/null >/dev/null 2>&1 || fail "/dev/null refused"
"$BIN/blkscope-analyze" --btt-only --json /dev/null tr >/dev/null || fail "/dev/null refused by analyze"
"$BIN/blkscope-export" -o /dev/null tr >/dev/null || fail "/dev/null refused by export"
[ -c /dev/null ] || fail "export removed /dev/null"
echo stale >r.json
for cmd in "$BIN/blkscope-analyze --btt-only --json r.json tr" "$BIN/blkscope-compare --json r.json tr tr" \
	   "$BIN/blkscope-export -o r.json --format jsonl tr" "$BIN/blkscope-analyze --btt-only -o r tr"; do
	[ -e r.avg ] || echo stale >r.avg
	rc=0
	$cmd >/dev/null 2>err || rc=$?
	[ $rc = 1 ] && [ "$(wc -l <err)" = 1 ] && grep -q "cannot create r\..*pass --force to replace it" err ||
		{ cat err >&2; fail "$cmd over an earlier file: exit $rc"; }
	[ "$(cat r.json)" = stale ] || fail "$cmd: refused, but written"
done
"$BIN/blkscope-analyze" --force --btt-only --json r.json tr >/dev/null
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' r.json || fail "analyze --force --json did not replace our own file"
echo stale >r.json
"$BIN/blkscope-compare" --force --json r.json tr tr >/dev/null
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' r.json || fail "compare --force --json did not replace our own file"
"$BIN/blkscope-export" --force -o r.json --format jsonl tr
[ "$(head -c 1 r.json)" = "{" ] || fail "export --force did not replace our own file"
echo "ok: our own files refused without --force and replaced with it, /dev/null written"

# another user's file at the path (root only: nobody plants it)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"; }
	shared=$(mktemp -d /tmp/blkscope-shared.XXXXXX)
	trap 'rm -rf "$dir" "$shared"' EXIT
	chmod 1777 "$shared"
	as_nobody sh -c "echo theirs >'$shared/theirs.out'; chmod 666 '$shared/theirs.out'"
	refused "belongs to uid 65534" "$BIN/blkscope-parse" -i tr -d "$shared/theirs.out"
	refused "belongs to uid 65534" "$BIN/blkscope-analyze" --btt-only --json "$shared/theirs.out" tr
	refused "belongs to uid 65534" "$BIN/blkscope-analyze" --force --btt-only --json "$shared/theirs.out" tr
	refused "belongs to uid 65534" "$BIN/blkscope-export" --force -o "$shared/theirs.out" tr
	[ "$(cat "$shared/theirs.out")" = theirs ] || fail "another user's file was written"
	echo "ok: another user's writable file left alone"
else
	echo "skipped the other-user case (needs root and setpriv)"
fi
