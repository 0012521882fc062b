#!/usr/bin/env bash
# btt's side files (-l/-q/-z latency files, -o histograms) are created
# safely.  Without --force anything at a side file's name (an earlier run's
# file, a planted symlink or FIFO) refuses the run before the input is read,
# in one line.  With --force an existing regular file of ours is replaced
# (as btt does), but a symlink planted at the path is not followed, and a
# FIFO there is neither waited on nor written: one message naming the file,
# the rest of the analysis goes on.
set -euo pipefail
: "${BIN:?}"
dir=$(mktemp -d /tmp/blkscope-sidefiles.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$BIN/bs-gen-trace" -o tr -w hostile-devs -n 3	# devices 8,0 8,1 8,2: one read each
mkdir clean && (cd clean && "$BIN/blkscope-analyze" --btt-only ../tr -l lat -o bt >report)
[ -s clean/lat_8,0_d2c.dat ] || fail "no latency file in the clean run"

echo "precious" >victim
ln -s "$dir/victim" lat_8,0_d2c.dat		# symlink: must not be followed
mkfifo lat_8,1_d2c.dat				# FIFO: must not hang or be written
echo "stale stale stale stale" >lat_8,2_d2c.dat	# our old output: replaced
ln -s "$dir/victim" bt_qhist.dat
rc=0
timeout 20 "$BIN/blkscope-analyze" --btt-only tr -l lat -o bt2 >report 2>err || rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <err)" = 1 ] && grep -q -- "-l: cannot create side file lat_8,.*--force" err ||
	{ cat err >&2; fail "without --force: exit $rc, not one line naming a side file"; }
[ ! -s report ] && [ ! -e bt2.avg ] || fail "without --force: a report was written"
rc=0
timeout 20 "$BIN/blkscope-analyze" --btt-only --force tr -l lat -o bt >report 2>err || rc=$?
[ "$rc" -ne 124 ] || fail "hung on the FIFO"
[ "$(cat victim)" = precious ] || fail "wrote through a planted symlink"
[ -L lat_8,0_d2c.dat ] && [ -p lat_8,1_d2c.dat ] || fail "the planted files were replaced"
grep -q "side file lat_8,0_d2c.dat is a symlink" err || { cat err >&2; fail "symlink: message"; }
grep -q "side file lat_8,1_d2c.dat exists and is a FIFO" err || { cat err >&2; fail "FIFO: message"; }
grep -q "side file bt_qhist.dat is a symlink" err || { cat err >&2; fail "-o histogram: message"; }
cmp -s lat_8,2_d2c.dat clean/lat_8,2_d2c.dat || fail "a stale regular file was not replaced by the new output"
cmp -s report clean/report && cmp -s bt.avg clean/bt.avg || fail "the report changed"
echo "ok: symlink refused, FIFO refused without waiting, stale file replaced, report intact"
