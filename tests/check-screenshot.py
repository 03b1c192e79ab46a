#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that a browser's screenshot of a timeline shows a picture.

usage: check-screenshot.py PNG MIN-COLOURS RRGGBB...

Decodes the PNG by hand (zlib and the five row filters; 8-bit RGB or
RGBA, not interlaced, as Chromium writes them) and fails unless it has
at least MIN-COLOURS distinct colours and every RRGGBB colour covers at
least 200 pixels (within 3 per channel).  Prints the counts.
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type "
                         f"{colour}, interlace {interlace}")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        row = bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = row[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                row[i] = (row[i] + pred) & 255
        rows.append(row)
        prev = row
    return width, height, bpp, rows


def main():
    path, min_colours = sys.argv[1], int(sys.argv[2])
    wanted = [tuple(int(h[i:i + 2], 16) for i in (0, 2, 4)) for h in sys.argv[3:]]
    width, height, bpp, rows = read_png(path)
    counts = {}
    for row in rows:
        for x in range(0, width * bpp, bpp):
            px = (row[x], row[x + 1], row[x + 2])
            counts[px] = counts.get(px, 0) + 1
    ok = True
    print(f"{path}: {width}x{height}, {len(counts)} colours")
    if len(counts) < min_colours:
        print(f"{path}: fewer than {min_colours} colours: blank?")
        ok = False
    for want in wanted:
        n = sum(c for px, c in counts.items()
                if all(abs(p - w) <= 3 for p, w in zip(px, want)))
        name = "%02x%02x%02x" % want
        print(f"{path}: #{name}: {n} pixels")
        if n < 200:
            print(f"{path}: the lane colour #{name} is missing")
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
