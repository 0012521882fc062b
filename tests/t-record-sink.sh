#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The recorder's output (record/rec_sink.c) on synthetic records written in
# pieces of every size: through a pipe read slowly (a stalling disk) every
# byte arrives in order, the waits for the disk are counted and the resident
# set does not grow; plain and zstd files read back identical.  No root needed.
# exclusive: yes
set -euo pipefail
T=${BIN:?}/bs-test-record-sink
. "$(dirname "$0")/lib/skip.sh"
need_built "$T" "it is built with the recorder: clang, bpftool, libbpf, liburing"
"$T"
