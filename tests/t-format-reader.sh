#!/usr/bin/env bash
# Unit tests of format/: native/swapped records, damage of every kind,
# empty/missing per-CPU files, zstd, stdin, merge order, notes, writer.
set -euo pipefail
"$BIN/bs-test-format"
