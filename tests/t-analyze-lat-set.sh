#!/usr/bin/env bash
# Unit test of a report slice (analyze/report/report_lat.c): a slice of one
# I/O keeps its stage times, not sketches (issue 13: 1M processes with an
# I/O each); adds, merges in both directions (one sample into sketches,
# sketches into one sample), moves and chains must read exactly as plain
# sketches of the same values (tests/extras/report_lat_check.c).  Again with
# 8-bit counters, which wrap all the time.
set -euo pipefail
. "$TOP/tests/lib/extras.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
san=()
[ "${SANITIZE:-}" = 1 ] && san=(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
for bits in 32 8; do
	"${CC:-cc}" -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE "${san[@]}" \
		-DSK_COUNT_BITS=$bits -I"$TOP/format" -I"$TOP/util" -I"$TOP/analyze" -I"$TOP/analyze/report" \
		-o "$tmp/check$bits" "$EXTRAS_DIR/report_lat_check.c" "$TOP/analyze/report/report_lat.c" \
		"$TOP/analyze/report/sketch.c" "$TOP/util/bs_alloc.c"
	"$tmp/check$bits"
done
