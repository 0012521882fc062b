#!/usr/bin/env bash
# Unit tests of the Parquet writer (parquet/): its encoders decoded
# back, UTF-8 repair, API errors, file framing; then the fixture files are
# written once to see that every column kind goes through without error.
set -euo pipefail
"$BIN/bs-test-parquet"
tmp=$(mktemp -d /tmp/blkscope-parquet.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$BIN/bs-test-parquet" --fixtures "$tmp"
for f in kinds plain one empty; do
	# magic at both ends
	[ "$(head -c 4 "$tmp/$f.parquet")" = PAR1 ] || { echo "$f: no leading magic"; exit 1; }
	[ "$(tail -c 4 "$tmp/$f.parquet")" = PAR1 ] || { echo "$f: no trailing magic"; exit 1; }
done
echo "ok"
