#!/usr/bin/env python3
"""crafted.py - hand-made traces for the per-I/O model's rules, each with
the answer worked out by hand from the kernel's rules (docs/analyze.md,
"The per-I/O model"), checked against `blkscope export --format jsonl` and
`blkscope analyze --json`.

Usage: crafted.py BIN WORKDIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import blktrace  # noqa: E402

BIN, WORK = sys.argv[1], sys.argv[2]
MAGIC = blktrace.MAGIC_V7
R, W, F, S, FUA, DISCARD = 1, 2, 4, 8, 1 << 15, 1 << 13
QUEUE, REQUEUE, ISSUE, COMPLETE, FS = 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8
A_Q, A_M, A_F, A_G, A_R, A_D, A_C, A_I, A_X, A_A = 1, 2, 3, 4, 6, 7, 8, 12, 13, 15
DEV = 8 << 20
bad = 0


def act(basic, cats):
    return basic | cats << 16


def ev(t, cpu, a, cats, sector, nbytes, pid=100, dev=DEV, pdu=b"", seq=None):
    return dict(t=t, cpu=cpu, action=act(a, cats), sector=sector, bytes=nbytes, pid=pid, dev=dev, pdu=pdu,
                seq=seq)


NOTE_FLAGGED_MESSAGE = 0x04000102


def note(t, cpu, text, dev=DEV):
    """A flagged MESSAGE note (an 8-byte id slot of zeros, then the text): no sequence number."""
    return dict(t=t, cpu=cpu, action=NOTE_FLAGGED_MESSAGE, sector=0, bytes=0, pid=0, dev=dev,
                pdu=bytes(8) + text.encode(), seq=0)


def write(name, events):
    """Per-CPU files of NAME, each in time order (a note after an event of its time),
    sequences 1, 2, ... (or as given; notes have none)."""
    by_cpu = {}
    for e in sorted(events, key=lambda e: (e["t"], e["action"] == NOTE_FLAGGED_MESSAGE)):
        by_cpu.setdefault(e["cpu"], []).append(e)
    for cpu in range(max(by_cpu) + 1):
        out = bytearray()
        n = 0
        for e in by_cpu.get(cpu, []):
            n += e["action"] != NOTE_FLAGGED_MESSAGE
            seq = e["seq"] if e["seq"] is not None else n
            rec = blktrace.Record(MAGIC, seq, e["t"], e["sector"], e["bytes"], e["action"], e["pid"],
                                  e["dev"], cpu, 0, len(e["pdu"]))
            out += blktrace.pack(rec, e["pdu"])
        open(os.path.join(WORK, "%s.blktrace.%d" % (name, cpu)), "wb").write(out)


def export(name):
    path = os.path.join(WORK, name + ".jsonl")
    subprocess.run([BIN + "/blkscope-export", "--format", "jsonl", "-o", path, os.path.join(WORK, name)],
                   check=True, stderr=subprocess.DEVNULL)
    return [json.loads(line) for line in open(path)]


def analyze(name):
    path = os.path.join(WORK, name + ".json")
    subprocess.run([BIN + "/blkscope-analyze", "--json", path, os.path.join(WORK, name)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return json.load(open(path))


def check(cond, what):
    global bad
    print(("ok: " if cond else "FAIL: ") + what)
    bad += not cond


def split_bio():
    """A 1 MiB write split in two (X), each fragment its own request: one I/O,
    Q2C to the last C, D2C from the first D, G2I of the lead fragment."""
    x = (2048 + 1024).to_bytes(8, "big")
    write("split", [ev(1000, 0, A_Q, W | S | QUEUE, 2048, 1 << 20),
                    ev(2000, 0, A_X, W | S, 2048, 1024 * 512, pdu=x),
                    ev(3000, 0, A_G, W | S | QUEUE, 2048, 1024 * 512),
                    ev(3500, 0, A_I, W | S | QUEUE | FS, 2048, 1024 * 512),
                    ev(4000, 0, A_D, W | S | ISSUE | FS, 2048, 1024 * 512),
                    ev(5000, 0, A_G, W | S | QUEUE, 3072, 1024 * 512),
                    ev(5200, 0, A_I, W | S | QUEUE | FS, 3072, 1024 * 512),
                    ev(6000, 0, A_D, W | S | ISSUE | FS, 3072, 1024 * 512),
                    ev(50000, 1, A_C, W | S | COMPLETE | FS, 2048, 1024 * 512),
                    ev(90000, 1, A_C, W | S | COMPLETE | FS, 3072, 1024 * 512)])
    rows = export("split")
    check(len(rows) == 1 and rows[0]["bytes"] == 1 << 20 and rows[0]["status"] == "done",
          "split: one I/O of 1 MiB, done")
    r = rows[0]
    check(r["q2c"] == 89000 and r["d2c"] == 86000 and r["splits"] == 1, "split: Q2C 89000 ns to the last C, "
          "D2C 86000 from the first D, 2 fragments (%s %s %s)" % (r["q2c"], r["d2c"], r["splits"]))
    check(r["q2g"] == 2000 and r["g2i"] == 500 and r["i2d"] == 500, "split: Q2G, G2I, I2D of the lead "
          "fragment (%s %s %s)" % (r["q2g"], r["g2i"], r["i2d"]))
    a = analyze("split")
    check(a["operations"][0]["bytes"] == 1 << 20 and a["health"]["clean"], "split: 1 MiB written, clean")


def requeue_no_redispatch():
    """Issued, requeued, inserted again, never issued again: no I2D (its D came before the I)."""
    write("requeue", [ev(1000, 0, A_Q, R | QUEUE, 800, 4096),
                      ev(1100, 0, A_G, R | QUEUE, 800, 4096),
                      ev(1200, 0, A_I, R | QUEUE | FS, 800, 4096),
                      ev(1300, 0, A_D, R | ISSUE | FS, 800, 4096),
                      ev(1400, 0, A_R, R | REQUEUE | FS, 800, 4096),
                      ev(1500, 0, A_I, R | QUEUE | FS, 800, 4096)])
    r = export("requeue")[0]
    check(r["status"] == "open" and r["i2d"] is None and r["q2d"] is None and r["requeues"] == 1,
          "requeue: open, no I2D or Q2D from the D before the requeue (%s %s)" % (r["i2d"], r["q2d"]))


def fua_emulated():
    """FUA write on a device without FUA: data D/C without FUA, the post-flush, then the
    zero-byte C that ends the flush sequence: that is the I/O's completion."""
    write("fua", [ev(1000, 0, A_Q, W | S | FUA | QUEUE, 3200, 4096),
                  ev(1100, 0, A_G, W | S | FUA | QUEUE, 3200, 4096),
                  ev(1300, 0, A_D, W | S | ISSUE | FS, 3200, 4096),
                  ev(9000, 1, A_C, W | S | COMPLETE | FS, 3200, 4096),
                  ev(9500, 0, A_D, R | F | ISSUE | FS, 0, 0),
                  ev(20000, 1, A_C, R | F | COMPLETE | FS, 0, 0),
                  ev(20500, 1, A_C, W | S | COMPLETE | FS, 3200, 0)])
    r = export("fua")[0]
    check(r["q2c"] == 19500 and r["d2c"] == 19200, "FUA: complete at the end of the flush sequence "
          "(q2c %s d2c %s)" % (r["q2c"], r["d2c"]))
    a = analyze("fua")
    c = a["devices"][0]["counters"]["requests_completed"]
    check(c["write"] == 1 and c["flush"] == 1, "FUA: one write request, one flush request (%s)" % c)


def empty_preflush():
    """fsync's empty preflush: Q/G without data, the flush request's D/C, the zero-byte C."""
    write("flush", [ev(1000, 0, A_Q, W | S | F | QUEUE, 0, 0),
                    ev(1100, 0, A_G, W | S | F | QUEUE, 0, 0),
                    ev(1300, 0, A_D, R | F | ISSUE | FS, 0, 0),
                    ev(8000, 1, A_C, R | F | COMPLETE | FS, 0, 0),
                    ev(8100, 1, A_C, W | S | COMPLETE | FS, 0, 0)])
    r = export("flush")[0]
    check(r["status"] == "done" and r["q2c"] == 7100 and r["d2c"] == 6800,
          "preflush: done at the zero-byte C, D from the flush request (%s %s)" % (r["q2c"], r["d2c"]))


def dm_stack():
    """A dm device (253,0) remapping onto 8,0: two I/Os, the lower one a continuation;
    the dm bio completes by a bio C (no FS)."""
    dm = 253 << 20
    remap = (253 << 20).to_bytes(4, "big") + DEV.to_bytes(4, "big") + (100).to_bytes(8, "big")
    write("dm", [ev(1000, 0, A_Q, R | QUEUE, 100, 4096, dev=dm),
                 ev(1500, 0, A_A, R | QUEUE, 2148, 4096, pdu=remap),
                 ev(1600, 0, A_Q, R | QUEUE, 2148, 4096),
                 ev(1700, 0, A_G, R | QUEUE, 2148, 4096),
                 ev(1800, 0, A_D, R | ISSUE | FS, 2148, 4096),
                 ev(9000, 1, A_C, R | COMPLETE | FS, 2148, 4096),
                 ev(9500, 1, A_C, R | COMPLETE, 100, 4096, dev=dm)])
    rows = {r["device"]: r for r in export("dm")}
    check(rows["253,0"]["q2c"] == 8500 and rows["8,0"]["q2c"] == 7400,
          "dm: the dm bio's Q2C 8500, the disk's 7400 (%s %s)" % (rows["253,0"]["q2c"], rows["8,0"]["q2c"]))


def lost_events():
    """A sequence gap on the completing CPU: the I/O in flight across it is counted, in no latency."""
    evs = [ev(500, 1, A_Q, R | QUEUE, 64, 4096, seq=1), ev(600, 1, A_C, R | COMPLETE | FS, 64, 4096, seq=2),
           ev(1000, 0, A_Q, R | QUEUE, 800, 4096), ev(1100, 0, A_G, R | QUEUE, 800, 4096),
           ev(1200, 0, A_D, R | ISSUE | FS, 800, 4096),
           ev(5000, 1, A_C, R | COMPLETE | FS, 800, 4096, seq=5)]
    evs += [ev(9000 + i * 100, 0, a, c, 1600, 4096) for i, (a, c) in
            enumerate([(A_Q, R | QUEUE), (A_G, R | QUEUE), (A_D, R | ISSUE | FS)])]
    evs.append(ev(20000, 1, A_C, R | COMPLETE | FS, 1600, 4096, seq=6))
    write("lost", evs)
    a = analyze("lost")
    h = a["health"]
    check(not h["clean"] and h["lost_events"] == 2 and h["ios"]["lossy"]["ios"] == 1,
          "loss: 2 events lost (sequence 3 and 4), 1 I/O touched, not clean (%s)" % h["findings"])
    check(a["all"]["stages"]["Q2C"]["n"] == 2 and a["all"]["lossy"] == 1,
          "loss: the I/O in flight across the gap has no Q2C, the others have")
    html = os.path.join(WORK, "lost.html")
    txt = subprocess.run([BIN + "/blkscope-analyze", "--html", html, os.path.join(WORK, "lost")],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode()
    page = open(html).read()
    check(txt.startswith("==================== Trace Health: NOT CLEAN") and
          '<div class="health" role="alert"><h2>This trace is not clean</h2><ul>\n<li>LOST EVENTS: 2 events' in page,
          "loss: said at the top of the text report and of the HTML page")


def snapshot_triggers():
    """A flight-recorder snapshot's trigger notes (absolute times; genesis 1000 here):
    a D2C trigger on a C (its I/O found among those just completed), a Q2D trigger on a D
    (its I/O found when it completes later), an error trigger whose Q is not in the trace,
    a signal, and an expression that needs escaping in every output."""
    g = 1000   # the first event: times in the report are relative to it
    evil = '<b>"x"&amp;\\y'
    write("trig", [ev(g, 0, A_Q, W | QUEUE, 100, 4096), ev(g + 100, 0, A_G, W | QUEUE, 100, 4096),
                   ev(g + 200, 0, A_I, W | QUEUE | FS, 100, 4096), ev(g + 1000, 0, A_D, W | ISSUE | FS, 100, 4096),
                   ev(g + 499000, 1, A_C, W | COMPLETE | FS, 100, 4096),
                   note(g + 499000, 1, "blkscope trigger n=1 kind=latency expr=D2C>100us dev=8,0 sector=100 "
                        "bytes=4096 rwbs=W q=%d d=%d c=%d latency=498000" % (g, g + 1000, g + 499000)),
                   ev(g + 600000, 0, A_Q, R | QUEUE, 200, 4096), ev(g + 600100, 0, A_G, R | QUEUE, 200, 4096),
                   ev(g + 600200, 0, A_I, R | QUEUE | FS, 200, 4096),
                   ev(g + 900000, 0, A_D, R | ISSUE | FS, 200, 4096),
                   note(g + 900000, 0, "blkscope trigger n=2 kind=latency expr=Q2D>100us dev=8,0 sector=200 "
                        "bytes=4096 rwbs=R q=%d d=%d latency=300000" % (g + 600000, g + 900000)),
                   ev(g + 950000, 1, A_C, R | COMPLETE | FS, 200, 4096),
                   ev(g + 960000, 1, A_C, W | COMPLETE | FS, 999, 4096),
                   note(g + 960000, 1, "blkscope trigger n=3 kind=error expr=%s dev=8,0 sector=999 bytes=4096 "
                        "rwbs=W c=%d error=65531" % (evil, g + 960000)),
                   note(g + 970000, 0, "blkscope trigger n=4 kind=signal expr=signal sender=4242")])
    a = analyze("trig")
    here = os.path.dirname(os.path.abspath(__file__))
    valid = subprocess.run([sys.executable, os.path.join(here, "..", "extras", "jsonschema_lite.py"),
                            os.path.join(here, "..", "..", "docs", "analyze-schema.json"),
                            os.path.join(WORK, "trig.json")], stdout=subprocess.DEVNULL).returncode == 0
    check(valid, "triggers: the JSON report validates against docs/analyze-schema.json")
    t = a["triggers"]
    check(len(t) == 4 and [x["n"] for x in t] == [1, 2, 3, 4], "triggers: four, in order (%d)" % len(t))
    io = t[0]["io"] or {}
    check(t[0]["time_ns"] == 499000 and io.get("sector") == 100 and io.get("d2c_ns") == 498000
          and io.get("q2c_ns") == 499000 and io.get("c_ns") == 499000,
          "trigger on a C: its I/O found, D2C 498000 (%s)" % t[0])
    io = t[1]["io"] or {}
    check(t[1]["time_ns"] == 900000 and io.get("sector") == 200 and io.get("q2d_ns") == 300000
          and io.get("c_ns") == 950000, "trigger on a D: its I/O found at its C (%s)" % t[1])
    check(t[2]["io"] is None and t[2]["error"] == -5 and t[2]["expr"] == evil,
          "error trigger: no I/O (queued before the trace), error -5, expression as written (%s)" % t[2])
    check(t[3]["kind"] == "signal" and t[3]["sender"] == 4242 and "io" not in t[3], "signal trigger (%s)" % t[3])
    html = os.path.join(WORK, "trig.html")
    txt = subprocess.run([BIN + "/blkscope-analyze", "--html", html, os.path.join(WORK, "trig")], check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode()
    page = open(html).read()
    check("&lt;b&gt;&quot;x&quot;&amp;amp;" in page or "&lt;b&gt;\"x\"&amp;amp;" in page,
          "HTML: the expression escaped")
    check(page.count('class="trig"') >= 4, "HTML: the triggers marked in the time charts")
    check("#2 Q2D>100us (latency) at 0.000900 s" in txt and "Q2D 300µs" in txt,
          "text: trigger #2 with the model's Q2D")


split_bio()
requeue_no_redispatch()
fua_emulated()
empty_preflush()
dm_stack()
lost_events()
snapshot_triggers()
sys.exit(1 if bad else 0)
