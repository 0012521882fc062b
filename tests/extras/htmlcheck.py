#!/usr/bin/env python3
"""htmlcheck.py - static checks of a blkscope HTML report or SVG chart.

Usage: htmlcheck.py CHECK FILE [ARGS]
  nosci FILE...        no number in scientific notation (1e+06, 5e-05,
                       1.38e+03s) in any text the reader sees
  titles FILE          every chart (<svg>) has <title> hover text
  colors FILE          no two lines / group rows of one chart share a color
  note FILE N M        every group chart says "the N of M groups with the most I/Os shown"
  summary HTML JSON    the summary panel's worst interval and stage shares
                       agree with the --json report
  hover FILE CHART     print the chart's per-interval hover values as JSON
                       lines: {"t0": ns, "t1": ns, "LABEL": ns or number}

Also imported by tests (charts(), hover()).  Stdlib only.
"""
import json
import re
import sys

UNITS = {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9}
SUFFIX = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def charts(doc):
    """{name: svg text} of every chart (<svg data-chart=...>, else numbered)."""
    out = {}
    for i, m in enumerate(re.finditer(r"<svg\b[^>]*>.*?</svg>", doc, re.S)):
        n = re.search(r'data-chart="([^"]+)"', m.group(0)[:400])
        out[n.group(1) if n else "svg%d" % i] = m.group(0)
    return out


def visible_text(doc):
    doc = re.sub(r"<(script|style)\b.*?</\1>", " ", doc, flags=re.S)
    return re.sub(r"<[^>]*>", "\n", doc)


def value(s):
    """'12.5µs' -> 12500 (ns), '4.1k' -> 4100, '-' -> None."""
    s = s.strip()
    if s == "-":
        return None
    m = re.fullmatch(r"(-?[0-9.]+)(ns|µs|ms|s)", s)
    if m:
        return float(m.group(1)) * UNITS[m.group(2)]
    m = re.fullmatch(r"(-?[0-9.]+)([kMGT]?)", s)
    if m:
        return float(m.group(1)) * SUFFIX[m.group(2)]
    raise ValueError("not a value: %r" % s)


def hover(svg):
    """Per-interval hover columns: [{"t0":, "t1":, label: value}], labels as the page shows them."""
    rows = []
    g = re.search(r'<g class="hv".*?</g>', svg, re.S)
    if not g:
        return rows
    for t in re.findall(r"<title>([^<]*)</title>", g.group(0)):
        span, _, rest = t.partition(": ")
        t0, t1 = span.split("-")
        row = {"t0": value(t0), "t1": value(t1)}
        prev = ""
        for item in rest.split(", "):
            words = item.rsplit(" ", 1)
            label = words[0]
            # "p99 416µs" after "Q2C p50 ...": the label's first word carries over
            if prev and re.fullmatch(r"p[0-9.]+", label) and " " in prev:
                label = prev.split(" ")[0] + " " + label
            row[label] = value(words[1])
            prev = label
        rows.append(row)
    return rows


def check_nosci(paths):
    bad = 0
    sci = re.compile(r"(?<![\w.#-])[0-9]+(\.[0-9]+)?[eE][+-]?[0-9]+")
    for p in paths:
        for line in visible_text(read(p)).splitlines():
            if sci.search(line):
                print("%s: scientific notation: %s" % (p, line.strip()))
                bad += 1
    return bad


def check_titles(path):
    bad = 0
    cs = charts(read(path))
    if not cs:
        print("%s: no charts" % path)
        return 1
    for name, svg in cs.items():
        if "<title>" not in svg:
            print("%s: chart %s has no <title> hover text" % (path, name))
            bad += 1
    return bad


def check_colors(path):
    bad = 0
    for name, svg in charts(read(path)).items():
        lines = re.findall(r'<path fill="none" stroke="(#[0-9a-fA-F]{6})"[^>]*stroke-width', svg)
        rows = re.findall(r'<text x="[0-9.]+" y="[0-9.]+" fill="(#[0-9a-fA-F]{6})" text-anchor="end"', svg)
        for kind, cols in (("lines", lines), ("group rows", rows)):
            if len(set(cols)) != len(cols):
                print("%s: chart %s: %s share a color: %s" % (path, name, kind, " ".join(cols)))
                bad += 1
    return bad


def check_note(path, n, m):
    bad = 0
    want = "the %s of %s groups with the most I/Os shown" % (n, m)
    cs = charts(read(path))
    if not any("groups" in name for name in cs):
        print("%s: no group charts" % path)
        return 1
    for name, svg in cs.items():
        if "groups" in name and want not in svg:
            print("%s: chart %s does not say '%s'" % (path, name, want))
            bad += 1
    return bad


def check_summary(html, js):
    doc, rep = read(html), json.load(open(js))
    m = re.search(r"<section id=summary([^>]*)>", doc)
    if not m:
        print("no summary panel")
        return 1
    attrs = dict(re.findall(r'data-([a-z0-9-]+)="([^"]*)"', m.group(1)))
    ts = rep["timeseries"]
    allser = [s for s in ts["series"] if s["name"] == "all" and s["kind"] == "all"][0]
    p99 = allser["q2c"]["p99"]
    best = max((v for v in p99 if v is not None), default=None)
    bad = 0
    if best is None:
        return 0 if "worst-start-ns" not in attrs else 1
    wb = p99.index(best)
    want = {"worst-start-ns": ts["start_ns"][wb], "worst-q2c-p99-ns": best}
    for k, v in want.items():
        got = int(attrs.get(k, "-1"))
        print("%-18s page %d json %d" % (k, got, v))
        bad += got != v
    sums = rep["all"]["time_parts"]
    tot = sum(sums.values())
    q2c = rep["all"]["stages"]["Q2C"]
    if q2c["observed"] and q2c["n"] * q2c["avg"] and abs(tot - q2c["n"] * q2c["avg"]) > q2c["n"]:
        print("time parts add up to %d ns, the completed I/Os' Q2C to %d" % (tot, q2c["n"] * q2c["avg"]))
        bad += 1
    for s, v in sums.items():
        if not v:
            if "share-" + s.lower() in attrs:
                print("share %s shown for a part no I/O went through" % s)
                bad += 1
            continue
        got = float(attrs.get("share-" + s.lower(), "nan"))
        exp = 100.0 * v / tot
        print("share %s: page %.1f%% json %.2f%%" % (s, got, exp))
        bad += not abs(got - exp) <= 0.2
    return bad


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "nosci":
        bad = check_nosci(args)
    elif cmd == "titles":
        bad = check_titles(args[0])
    elif cmd == "colors":
        bad = check_colors(args[0])
    elif cmd == "note":
        bad = check_note(args[0], args[1], args[2])
    elif cmd == "summary":
        bad = check_summary(args[0], args[1])
    elif cmd == "hover":
        for row in hover(charts(read(args[0]))[args[1]]):
            print(json.dumps(row))
        bad = 0
    else:
        raise SystemExit(__doc__)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
