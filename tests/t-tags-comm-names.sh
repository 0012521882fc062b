#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tag-by-comm -g names match process names the way the reports show them:
# "jbd2" takes jbd2/loop0-8 and "kworker" kworker/u8:2 (btt and analyze cut
# names at '/'), an exact full name still matches, and a -g name no I/O
# came from is named on stderr once, at the end, without failing the run.
# The expected tags come from the script that wrote the trace (each pid's
# I/O count), compared with analyze's tag table.
set -euo pipefail
: "${BIN:?}" "${TOP:?}"
. "$TOP/tests/lib/skip.sh"
need_tools python3
work=$(mktemp -d /tmp/t-tags-comm-names.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }

python3 "$TOP/tests/lib/drown-gen.py" 12 2>truth.json | "$BIN/bs-gen-trace" -w script -o t >/dev/null
"$BIN/blkscope-analyze" --tag-plugin "$BIN/tag-by-comm -g writers:dd,jbd2 -g wb:kworker -g full:tar -g typo:jdb2" t \
	>report 2>err || { cat err; fail "analyze with the plugin failed"; }
python3 - report truth.json <<'PY'
import json, re, sys
text, truth = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
n = lambda pred: sum(v["ios"] for k, v in truth.items() if pred(k))
want = {"writers": n(lambda k: k.startswith("dd (") or k.startswith("jbd2/")),
        "wb": n(lambda k: k.startswith("kworker/")), "full": n(lambda k: k.startswith("tar (")),
        "fio": n(lambda k: k.startswith("fio ("))}
got = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s+\d+ (\S+)\s+(\d+) ", text, re.M)}
for k, v in want.items():
    assert got.get(k) == v, (k, got.get(k), v, got)
assert "typo" not in got, got
print("ok: tags", ", ".join("%s %d" % kv for kv in sorted(want.items())))
PY
[ "$(grep -c "tag-by-comm: -g typo: no I/O from a process named 'jdb2'" err)" = 1 ] || { cat err; fail "the unmatched -g name is not named once"; }
! grep -q "writers\|wb:\|full:" err || { cat err; fail "a matched name was reported"; }
echo OK
