#!/bin/bash
# Larger generated workloads against btt: bs-gen-trace's bulk workload
# (random and sequential IO, merges that the requests do not cover, plugs)
# and its bench workload (back-merged bios covered by their request, random
# and sequential streams, 32 in flight), with -A and every side file; and
# bulk I/O spread over three devices (per-device tables and totals).
set -euo pipefail
source "$TOP/tests/lib/analyze.sh"
bt_need_tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

bs-gen-trace -n 300000 -s 7 -o bulk >/dev/null
bt_compare_all bulk
bt_compare_all bulk -A -l @ -q @ -z @ -p @.perio -I @.iostat -S 2
bs-gen-trace -w bench -n 300000 -o bench
bt_compare_all bench
bt_compare_all bench -A -a -l @ -q @ -p @.perio -I @.iostat
bs-gen-trace -n 100000 -s 3 --devices 3 -o multi
bt_compare_all multi
bt_compare_all multi -A -l @ -q @ -p @.perio -I @.iostat
echo OK
