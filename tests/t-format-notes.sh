#!/usr/bin/env bash
# Unit tests of blkscope's notes (format/bs_notes.c): the end note and the
# trigger note round-trip, malformed texts are refused, and the PROCESS,
# TIMESTAMP and host notes have the kernel's layout.
set -euo pipefail
"$BIN/bs-test-notes"
