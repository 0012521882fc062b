#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The rules of the test scripts themselves (tests/README.md, "Writing a
# test"): a test that touches global state declares it with the line
# `# exclusive: yes` in its leading comment block, the one thing
# tests/run-tests.sh reads to run it alone (holding the lock file).  A test
# whose code (comments aside) runs losetup, mounts or writes tracefs, runs
# the recorder (blkscope-record, `blkscope record`, tests/lib/record.sh) or
# the tracefs oracle (tests/lib/oracle.sh), or runs fio, and lacks the line,
# fails here with file:line and what it uses.  A declaration outside the
# header (where run-tests.sh does not look) fails too.  The checker is first
# run on two made-up tests, one that must fail and one that must pass.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$TOP"
. tests/lib/skip.sh
need_tools python3
work=$(mktemp -d /tmp/t-tests-rules.XXXXXX)
trap 'rm -rf "$work"' EXIT

check() {	# TEST...: prints the violations, exit 1 if any
	python3 - "$@" <<'PY'
import os
import re
import sys

USES = [
    ("loop devices (losetup)", re.compile(r"\blosetup\b")),
    ("tracefs", re.compile(r"tracefs|/sys/kernel/(debug/)?tracing")),
    ("the recorder", re.compile(r"blkscope-record\b|blkscope\"?\s+record\b")),
    ("the recorder or the tracefs oracle", re.compile(r"lib/(record|oracle)\.sh")),
    ("fio", re.compile(r"\bfio\s+--|need_tools.*\bfio\b")),
]
bad = 0
for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    end = next((i for i, l in enumerate(lines) if l.strip() and not l.startswith("#")), len(lines))
    declared = "# exclusive: yes" in lines[:end]
    name = os.path.basename(path)
    for n, line in enumerate(lines, 1):
        if n > end and line.lstrip().startswith("# exclusive:"):
            print("%s:%d: '# exclusive:' below the header: run-tests.sh does not see it" % (name, n))
            bad += 1
        if declared or line.lstrip().startswith("#"):
            continue
        what = next((w for w, rx in USES if rx.search(line)), None)
        if what:
            print("%s:%d: uses %s without a '# exclusive: yes' header line: %s"
                  % (name, n, what, line.strip()[:70]))
            bad += 1
            break
sys.exit(1 if bad else 0)
PY
}

# the checker itself: a made-up test that attaches a loop device undeclared
printf '#!/bin/sh\n# attaches a loop device\nset -e\nlosetup -f --show /dev/shm/x\n' \
	>"$work/t-undeclared.sh"
printf '#!/bin/sh\n# attaches a loop device\n# exclusive: yes\nset -e\nlosetup -f /dev/shm/x\n' \
	>"$work/t-declared.sh"
if check "$work/t-undeclared.sh" >"$work/out"; then
	echo "FAIL: the check passed a test that runs losetup undeclared"
	exit 1
fi
grep -q 't-undeclared.sh:4: uses loop devices' "$work/out" || { cat "$work/out"; exit 1; }
check "$work/t-declared.sh" || { echo "FAIL: the check refused a declared test"; exit 1; }

# every test but this one (whose patterns and made-up tests name what they look for)
check $(ls tests/t-*.sh | grep -v '/t-tests-rules\.sh$') ||
	{ echo "FAIL: declare these tests exclusive (tests/README.md)"; exit 1; }
n=0
for t in tests/t-*.sh; do
	if sed -n '1,/^[^#]/p' "$t" | grep -qx '# exclusive: yes'; then n=$((n + 1)); fi
done
echo "OK: every test that touches global state declares it ($n exclusive tests)"
