#!/usr/bin/env python3
"""pngcheck.py - did the charts of a blkscope HTML report draw?

Usage: pngcheck.py SCREENSHOT.png NAME=X,Y,W,H [NAME=X,Y,W,H ...]

Each NAME=X,Y,W,H is a chart's plot area in screenshot pixels, as the
page's layout put it (tests/extras/probe.js reads it from the DOM: the
<svg>'s data-plot through its screen transform).  A box that does not fit
in the screenshot is cut off: a failure.  Inside it (axis lines excluded)
we count "ink": pixels that are
saturated (max-min channel >= 40) or dark (max channel < 0x90), i.e. data
drawn in color, not white background, light grid lines or gray notes.

Prints one line per chart and exits 1 if any chart is missing from the
screenshot or has too little ink (< 300 pixels or < 0.2% of its area).
Stdlib only (zlib); decodes 8-bit RGB/RGBA non-interlaced PNGs.
"""
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("%s: not a PNG" % path)
    pos, idat = 8, []
    width = height = ctype = None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise SystemExit("%s: unsupported PNG (depth %d, color type %d, interlace %d)"
                                 % (path, depth, ctype, interlace))
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    raw = zlib.decompress(b"".join(idat))
    bpp = 3 if ctype == 2 else 4
    stride = width * bpp
    rows = []
    prev = bytearray(stride)
    mask7 = int.from_bytes(b"\x7f" * stride, "little")
    mask8 = int.from_bytes(b"\x80" * stride, "little")
    p = 0
    for _ in range(height):
        ft = raw[p]
        line = bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        if ft == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ft == 2:
            # bytewise add without carries, on the whole row at once
            a = int.from_bytes(line, "little")
            b = int.from_bytes(prev, "little")
            s = ((a & mask7) + (b & mask7)) ^ ((a ^ b) & mask8)
            line = bytearray(s.to_bytes(stride, "little"))
        elif ft == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        elif ft != 0:
            raise SystemExit("%s: bad filter type %d" % (path, ft))
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    width, height, bpp, rows = read_png(sys.argv[1])
    bad = 0
    for arg in sys.argv[2:]:
        name, box = arg.split("=")
        bx, by, bw, bh = (int(v) for v in box.split(","))
        if bx < 0 or by < 0 or bx + bw > width or by + bh > height:
            print("%-24s CUT OFF: box %dx%d at (%d,%d) outside the %dx%d screenshot"
                  % (name, bw, bh, bx, by, width, height))
            bad += 1
            continue
        # off the axis lines
        x0, y0, x1, y1 = bx + 3, by + 3, bx + bw - 3, by + bh - 3
        ink = 0
        colors = set()
        for y in range(max(y0, 0), min(y1, height - 1) + 1):
            row = rows[y]
            for x in range(max(x0, 0), min(x1, width - 1) + 1):
                i = x * bpp
                r, g, b = row[i], row[i + 1], row[i + 2]
                hi, lo = max(r, g, b), min(r, g, b)
                if hi - lo >= 40 or hi < 0x90:
                    ink += 1
                    if len(colors) < 64:
                        colors.add((r >> 4, g >> 4, b >> 4))
        area = max((x1 - x0 + 1) * (y1 - y0 + 1), 1)
        ok = ink >= 300 and ink >= area * 0.002
        print("%-24s %s box %dx%d at (%d,%d) ink %d px (%.2f%%), %d color(s)"
              % (name, "drew" if ok else "EMPTY", x1 - x0 + 1, y1 - y0 + 1, x0, y0, ink,
                 100.0 * ink / area, len(colors)))
        bad += not ok
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
