#!/usr/bin/env bash
# Issue 13, finding 8: a plugin's descendants do not outlive the analysis,
# even one that left the plugin's process group and session (setsid) and
# closed nothing: tests/tags/bad-plugin.py "daemon" starts `sleep 60` in a
# new session holding the plugin's stdout.  After blkscope-analyze,
# blkscope-tag-check and blkscope-parse return (normally, and after the
# plugin failed), that sleep must be gone, and nothing may be left for
# the guard (tests/tags/no-orphans.py) to find.
set -euo pipefail
. "$(dirname "$0")/lib/tags.sh"

tr=$(gen_trace orph -n 5000 -p 3 -s 1)
cd "$tags_tmp"
export BAD_PLUGIN_PIDFILE=$tags_tmp/daemon.pid

gone() {	# LABEL: the daemon's pid must not name a live process any more
	local pid
	pid=$(cat "$BAD_PLUGIN_PIDFILE")
	rm -f "$BAD_PLUGIN_PIDFILE"
	if kill -0 "$pid" 2>/dev/null && ! grep -q '^[^ ]* ([^)]*) Z' "/proc/$pid/stat" 2>/dev/null; then
		kill -9 "$pid" 2>/dev/null || true
		fail "$1: the plugin's setsid grandchild (pid $pid) survived"
	fi
	echo "ok: $1: no survivor"
}

start=$(date +%s)
run_guarded out err "$BIN/blkscope-analyze" --tag-plugin "$BAD daemon" -o "$tags_tmp/bt" "$tr"
[ "$rc" -eq 0 ] || { cat err >&2; fail "analyze: status $rc"; }
gone analyze

run_guarded out err "$BIN/blkscope-tag-check" "$BAD" daemon -- "$tr"
[ "$rc" -eq 0 ] || { cat err >&2; fail "tag-check: status $rc"; }
gone tag-check

run_guarded out err "$BIN/blkscope-parse" --tag-plugin "$BAD daemon" -i "$tr" -o "$tags_tmp/parse.txt"
[ "$rc" -eq 0 ] || { cat err >&2; fail "parse: status $rc"; }
gone parse

# the plugin fails (an unknown response at event 100) with its daemon running
run_guarded out err "$BIN/blkscope-tag-check" "$BAD" daemon-unknown 100 -- "$tr"
[ "$rc" -eq 1 ] || { cat err >&2; fail "failing plugin: status $rc"; }
gone "failing plugin"

# none of this waited for the 60 s sleep
[ $(($(date +%s) - start)) -lt 30 ] || fail "waited for the left-behind process"
