#!/usr/bin/env bash
# The per-I/O model's rules on hand-made traces, each answer worked out by
# hand (tests/model/crafted.py): a split bio is one I/O (Q2C to its last
# C, its lead fragment's stages), a requeue without a new dispatch has no
# I2D, an emulated FUA write and an empty preflush complete at the end of
# the flush sequence, a dm bio and its disk's continuation, a sequence gap
# that touches an I/O in flight.
set -euo pipefail
. "$TOP/tests/lib/skip.sh"
need_tools python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$TOP/tests/model/crafted.py" "$BIN" "$work"
