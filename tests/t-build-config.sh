#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The build and the suite on a machine that lacks the optional parts.
#  1. An analyzer built without libzstd (make NO_ZSTD=1, in a build
#     directory of its own, -O0 for speed): a .zst input is refused with one
#     line naming the file, and the damage test (tests/lib/hard-damage.py,
#     a short run) takes that refusal as clean, not as a damage message
#     without an offset.
#  2. The configuration change (libzstd found again) rebuilds the objects:
#     the same build directory then reads the .zst input (objects built
#     without zstd linked with -lzstd would still refuse it), and a third
#     make has nothing to do.
#  3. Tests that need a tool which is missing skip (exit 77) and name the
#     package; they do not fail: blkparse hidden from PATH for the
#     version-8 tests, zstd hidden from the fuzz driver (which must not
#     then claim a crash).
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
export TOP BIN
. "$TOP/tests/lib/skip.sh"
. "$TOP/tests/lib/hide.sh"
need_tools make python3 cc pkg-config zstd
pkg-config --exists libzstd || skip "needs libzstd (Debian package libzstd-dev) to test the change of configuration"
work=$(mktemp -d /tmp/t-build-config.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
b=$work/b
progs="$b/bin/blkscope $b/bin/blkscope-parse $b/bin/blkscope-analyze"
build() {	# build ARGS...: the three programs into $b, quietly
	env -u BUILD -u SANITIZE make -C "$TOP" -s -j2 BUILD="$b" NO_BPF=1 OPTFLAGS=-O0 "$@" $progs \
		>"$work/make.log" 2>&1 || { tail -20 "$work/make.log"; fail "make $* failed"; }
}
zstd_input() {	# a .zst copy of a sample
	cp "$TOP/samples/rec-dd-direct/"*.blktrace.0 "$work/z.blktrace.0"
	zstd -q --rm "$work/z.blktrace.0"
}

# 1. without libzstd
build NO_ZSTD=1
grep -q ' zstd= ' "$b/config.stamp" || fail "config.stamp does not say zstd is off: $(cat "$b/config.stamp")"
zstd_input
rc=0
"$b/bin/blkscope" parse -i "$work/z" -o /dev/null >/dev/null 2>"$work/err" || rc=$?
[ "$rc" = 1 ] && grep -q 'z.blktrace.0.zst.*built without libzstd' "$work/err" ||
	fail "a no-zstd build reading a .zst input: exit $rc, $(cat "$work/err")"
# the damage test's outcomes for such a build: 80 copies hold a few .zst ones
mkdir "$work/dmg"
python3 "$TOP/tests/lib/hard-damage.py" "$b/bin" "$work/dmg" 80 3 "$TOP"/samples/*.bin \
	"$TOP"/samples/rec-*/*.blktrace.[0-9] >"$work/dmg.out" 2>&1 || { cat "$work/dmg.out"; fail "the damage check on a no-zstd build"; }
grep -q 'refused' "$work/dmg.out" || { cat "$work/dmg.out"; fail "no refused .zst copy in the damage run"; }
echo "no-zstd build: $(head -1 "$work/dmg.out")"

# 2. libzstd found again: everything it changes is rebuilt
build
grep -q ' zstd=1 ' "$b/config.stamp" || fail "config.stamp does not say zstd is on"
"$b/bin/blkscope" parse -i "$work/z" -o "$work/p.txt" >/dev/null 2>"$work/err" ||
	fail "after the rebuild with libzstd, .zst is still refused: $(cat "$work/err")"
grep -q ' Q  WS ' "$work/p.txt" || fail "parse of the .zst input printed no queued write"
env -u BUILD -u SANITIZE make -C "$TOP" --no-print-directory -q BUILD="$b" NO_BPF=1 OPTFLAGS=-O0 $progs ||
	fail "a third make with the same configuration would rebuild (the stamp changed)"

# 3. a missing tool is a skip naming its package, never a failure
p=$(hide_tools "$work/path-noblkparse" blkparse btt iowatcher)
for t in t-format-v8 t-format-v8-zoned; do
	rc=0
	PATH=$p "$TOP/tests/$t.sh" >"$work/$t.out" 2>&1 || rc=$?
	[ "$rc" = 77 ] && grep -q 'SKIP: needs blkparse (Debian package blktrace' "$work/$t.out" ||
		{ cat "$work/$t.out"; fail "$t without blkparse: exit $rc, not a skip naming blktrace"; }
done
p=$(hide_tools "$work/path-nozstd" zstd)
rc=0
PATH=$p FUZZ_BUILD="$work/fuzz" FUZZ_TARGETS=fuzz_trace FUZZ_SECONDS=1 "$TOP/fuzz/run-fuzz.sh" \
	>"$work/fuzz.out" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q 'needs zstd' "$work/fuzz.out" ||
	{ cat "$work/fuzz.out"; fail "run-fuzz.sh without zstd: exit $rc (2 = could not set up; 1 would mean a crash)"; }
grep -q 'need_tools python3 zstd' "$TOP/tests/t-hard-fuzz.sh" || fail "t-hard-fuzz does not skip without zstd"
echo OK
