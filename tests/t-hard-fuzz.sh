#!/usr/bin/env bash
# Fuzzing in CI: build the libFuzzer targets (fuzz/, clang with
# -fsanitize=fuzzer,address,undefined), replay every committed regression
# input (fuzz/regress/TARGET/*: each crasher ever found), then fuzz each
# target for FUZZ_SECONDS, two at a time (default 30: five targets fit in
# CI's half hour beside both suites; `make fuzz` runs longer).  Any crash,
# sanitizer report, hang or out-of-memory fails the test and names the
# input left in build/fuzz/crashes/.
#
# Under SANITIZE=1 the suite runs a second time; fuzzing again there would
# repeat the same work, so only the regression inputs are replayed (said so
# below).  FUZZ_SECONDS=0 does the same anywhere.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$TOP"
FUZZ_BUILD=build/fuzz
targets="fuzz_trace fuzz_tagresp fuzz_parse fuzz_analyze fuzz_attr"

. "$TOP/tests/lib/skip.sh"
command -v clang >/dev/null || skip "needs clang (with libFuzzer: libclang-rt-dev) to build the fuzzers"
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' >"$probe/p.c"
clang -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" 2>"$probe/err" ||
	{ cat "$probe/err"; skip "clang cannot link -fsanitize=fuzzer (install libclang-rt-dev / compiler-rt)"; }

# the fuzz build has its own objects; BUILD from the test runner must not leak in
env -u BUILD make -s -j2 fuzz-build >"$probe/build.log" 2>&1 || { tail -40 "$probe/build.log"; echo "FAIL: fuzz targets do not build"; exit 1; }

# 1. every crasher ever found, replayed (each input run once)
nreg=0
for t in $targets; do
	dir=fuzz/regress/$t
	[ -d "$dir" ] || continue
	files=("$dir"/*)
	[ -e "${files[0]}" ] || continue
	if ! "$FUZZ_BUILD/bin/$t" -runs=1 -close_fd_mask=1 "${files[@]}" >"$probe/$t.reg" 2>&1; then
		grep -E 'Running:|ERROR|runtime error|SUMMARY' "$probe/$t.reg" | tail -8
		echo "FAIL: $t: a regression input crashes again"
		exit 1
	fi
	nreg=$((nreg + ${#files[@]}))
	echo "regressions: $t: ${#files[@]} inputs replayed, no crash"
done
[ "$nreg" -gt 0 ] || { echo "FAIL: no regression inputs found under fuzz/regress"; exit 1; }

# 2. new fuzzing
secs=${FUZZ_SECONDS:-30}
if [ "${SANITIZE:-}" = 1 ] || [ "$secs" = 0 ]; then
	echo "SKIPPED new fuzzing: ${SANITIZE:+SANITIZE=1 run (the fuzzers are sanitizer builds already; the plain suite fuzzes)}${SANITIZE:-FUZZ_SECONDS=0}; regression inputs only"
	echo OK
	exit 0
fi
# the seed corpora (fuzz/seed.sh) are made with python3 and zstd
need_tools python3 zstd
rc=0
FUZZ_BUILD=$FUZZ_BUILD FUZZ_SECONDS=$secs FUZZ_TARGETS="$targets" fuzz/run-fuzz.sh || rc=$?
case $rc in
0) ;;
2) echo "FAIL: fuzz/run-fuzz.sh could not set up (see above): nothing was fuzzed"; exit 1 ;;
*) echo "FAIL: fuzzing found a crash (inputs in $FUZZ_BUILD/crashes/)"; exit 1 ;;
esac
echo OK
