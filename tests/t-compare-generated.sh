#!/usr/bin/env bash
# blkscope compare on generated trace pairs whose true change is known
# (bs-gen-trace --delay / --slow-pid: the stage's latency becomes the delay
# plus, within one generator step of 1..4000 ns, the same distribution):
#  - I2D +100 us: I2D named as the stage, its p50/p90/p99 deltas within
#    [100, 104] us widened by the reported interval and the sketch error,
#    D2C not significant, the --fail-if exit codes;
#  - pid 2003 (postgres) +200 us D2C: D2C named, postgres's share first,
#    postgres's D2C p50 delta within [200, 204] us likewise, fio unchanged;
#  - no change, other random seeds: "no significant change" in the total
#    and nothing significant in any row, --fail-if exits 0.
# exclusive: yes
set -euo pipefail
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/skip.sh"
need_tools python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
N=200000
"$BIN/bs-gen-trace" -n $N -s 1 -o base
"$BIN/bs-gen-trace" -n $N -s 1 --delay I2D=100000 -o i2d
"$BIN/bs-gen-trace" -n $N -s 1 -P 2003=200000 -o slow
for s in 2 3 4; do "$BIN/bs-gen-trace" -n $N -s $s -o same$s; done
cmp() { "$BIN/blkscope-compare" "$@"; }

# JSON checks: python3 check.py FILE STAGE... (see each call)
cat >check.py <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
mode = sys.argv[2]
assert doc["schema"] == "blkscope-compare" and doc["version"] == 1, "schema"
rows = {(r["kind"], r["name"]): r for r in doc["rows"]}
def q(kind, name, stage, pct):
    return rows[(kind, name)]["stages"][stage][pct]
def within(kind, name, stage, pct, lo_ns, hi_ns):
    e = q(kind, name, stage, pct)
    b = e["before_ns"]
    # the reported interval's half width (in ns of the before value) plus
    # both values' sketch error: how far the estimate may be from the truth
    half = (e["ci"][1] - e["ci"][0]) / 2 * b
    tol = half + (e["before_ns"] + e["after_ns"]) / 128
    d = e["delta_ns"]
    ok = lo_ns - tol <= d <= hi_ns + tol
    print(f"{kind} {name} {stage} {pct}: delta {d:.0f} ns, want [{lo_ns}, {hi_ns}] +- {tol:.0f}: {'ok' if ok else 'BAD'}")
    assert ok
    assert e["significant"], "not significant"
def nosig(kind=None):
    bad = [(r["kind"], r["name"], s, p) for r in doc["rows"] if kind in (None, r["kind"])
           for s, st in r["stages"].items() for p in ("p50", "p90", "p99", "p99.9") if st[p]["significant"]]
    print(f"significant ({kind or 'any row'}):", bad[:5])
    assert not bad
if mode == "i2d":
    assert doc["where"]["top_stage"] == "I2D", doc["where"]
    for p in ("p50", "p90", "p99"):
        within("total", "all", "I2D", p, 100000, 104000)
    for p in ("p50", "p90", "p99", "p99.9"):
        assert not q("total", "all", "D2C", p)["significant"], "D2C moved"
elif mode == "slow":
    assert doc["where"]["top_stage"] == "D2C", doc["where"]
    sh = doc["where"]["shares"][0]
    assert sh["kind"] == "process" and sh["name"] == "postgres" and sh["after"] > sh["before"], sh
    within("process", "postgres", "D2C", "p50", 200000, 204000)
    for p in ("p50", "p90", "p99", "p99.9"):
        assert not q("process", "fio", "D2C", p)["significant"], "fio moved"
elif mode == "same":
    nosig()
PY

# holds LINES: stderr (err) names exactly these --fail-if expressions
holds() {
	local want got
	want=$(printf '%s\n' "$@" | sort)
	got=$(sed -n "s/^blkscope compare: fail-if '\(.*\)' holds: .*/\1/p" err | sort)
	[ "$want" = "$got" ] || { echo "fail-if: want [$want], got [$got]"; cat err; exit 1; }
	[ "$(wc -l <err)" -eq $# ]
}

echo "== I2D +100 us"
rc=0
cmp --json i2d.json --fail-if 'I2D.p50>+10%' --fail-if 'read.I2D.p99>+50us' --fail-if 'Q2D.p90>+50us' \
	--fail-if 'I2D.p50>+0.5ms' --fail-if 'D2C.p99>+5%' --fail-if 'I2D.p50<-10%' base i2d >i2d.txt 2>err || rc=$?
[ $rc -eq 3 ]
holds 'I2D.p50>+10%' 'read.I2D.p99>+50us' 'Q2D.p90>+50us'
grep -q "fail-if 'I2D.p50>+10%' holds: I2D p50 +[0-9.]*% (CI +" err
python3 check.py i2d.json i2d
grep -q 'of which +[0-9.]* µs is I2D: the I/O scheduler' i2d.txt

echo "== postgres +200 us D2C"
rc=0
cmp --json slow.json --fail-if 'postgres.D2C.p50>+100us' --fail-if 'fio.D2C.p50>+5%' base slow >slow.txt 2>err || rc=$?
[ $rc -eq 3 ]
holds 'postgres.D2C.p50>+100us'
python3 check.py slow.json slow
grep -q 'is D2C: after dispatch' slow.txt
grep -q 'process postgres: .* of the Q2C time (+' slow.txt

echo "== no change, other seeds"
for s in 2 3 4; do
	rc=0
	cmp --json same$s.json --fail-if 'Q2C.p99>+1%' --fail-if 'D2C.p50>+1%' --fail-if 'Q2C.p50<-1%' \
		base same$s >same$s.txt 2>err || rc=$?
	[ $rc -eq 0 ] && [ ! -s err ]
	python3 check.py same$s.json same
	grep -q '^  total: no significant change in any stage' same$s.txt
done

echo "== a breakdown neither trace has: exit 1"
rc=0; cmp -T 0.01 --fail-if 'nosuch.D2C.p50>+1%' base same2 >/dev/null 2>err || rc=$?
[ $rc -eq 1 ] && grep -q "no breakdown named 'nosuch'" err
echo ok
