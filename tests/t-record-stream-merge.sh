#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The `-o -` merge (record/rec_stream.c) on synthetic per-CPU records through a
# real sink: every record once, the stream in time order, each CPU's
# sequence rising, PDUs intact, and with a watermark that never moves the
# stage limit still bounds memory (early releases counted).  No root needed.
# exclusive: yes
set -euo pipefail
T=${BIN:?}/bs-test-record-stream
. "$(dirname "$0")/lib/skip.sh"
need_built "$T" "it is built with the recorder: clang, bpftool, libbpf, liburing"
"$T"
