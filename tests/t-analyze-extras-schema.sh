#!/usr/bin/env bash
# --json documents validate against docs/analyze-schema.json (with the
# stdlib validator tests/extras/jsonschema_lite.py), for every grouping
# and for an empty input; broken documents are rejected, so validation
# can fail.
set -euo pipefail
. "$TOP/tests/lib/extras.sh"
extras_need_python
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
h=$(extras_harness "$tmp")
cd "$tmp"

python3 "$EXTRAS_DIR/brute.py" --gen 500 3 s.txt
"$h" --json plain.json s.txt
"$h" --json comm.json --group-by comm s.txt
"$h" --json pid.json --group-by pid --interval 2ms s.txt
"$h" --json expl.json --group a=100 --group b=101,102 s.txt
: >empty.txt
"$h" --json empty.json empty.txt
for f in plain comm pid expl empty; do
	extras_validate "$f.json"
done
# tags: a tagged sample turns groups on (untagged + the tag)
printf '%s\n' "8,0 0 4096 1 a read 0 - - - 10 21 0 0 -1" "8,0 8 4096 1 a read 5 - - - 10 127 0 0 3" >tag.txt
"$h" --json tag.json tag.txt
extras_validate tag.json
python3 -c '
import json, sys
g = {x["name"]: (x["tag"], x["ios"]) for x in json.load(open("tag.json"))["groups"]}
assert g == {"untagged": (None, 1), "tag 3": (3, 1)}, g'
# through the real analyzer too
bs-gen-trace -D . -o mixed
blkscope-analyze --btt-only --json real.json --group-by comm mixed >/dev/null
extras_validate real.json

# broken documents must be rejected
python3 - plain.json <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
def put(name, f):
    x = copy.deepcopy(d)
    f(x)
    json.dump(x, open(name, "w"))
put("bad-missing.json", lambda x: x.pop("timeseries"))
put("bad-version.json", lambda x: x.update(version=1))
put("bad-type.json", lambda x: x["all"].update(ios="12"))
put("bad-extra.json", lambda x: x["all"].update(latency=1))
put("bad-negative.json", lambda x: x["devices"][0].update(bytes=-1))
put("bad-notobserved.json", lambda x: x["all"]["stages"].update(Q2G={"observed": False, "n": 0, "p99": 0}))
put("bad-observed.json", lambda x: x["all"]["stages"]["D2C"].pop("p99"))
put("bad-zero.json", lambda x: x["all"]["stages"].update(Q2G={"observed": True, "n": 0}))
put("bad-op.json", lambda x: x["operations"][0].update(op="trim"))
put("bad-device.json", lambda x: x["devices"][0].update(device="sda"))
put("bad-series.json", lambda x: x["timeseries"]["series"][0]["q2c"]["p50"].append("x"))
put("bad-bool.json", lambda x: x["all"]["stages"]["D2C"].update(observed=1))
open("bad-notjson.json", "w").write("{\"schema\": ")
PY
for f in bad-*.json; do
	if extras_validate "$f" >"$f.out"; then
		echo "FAIL: $f was accepted" >&2
		exit 1
	fi
	echo "rejected: $(head -1 "$f.out")"
done
