#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a screen read back shows: a binary PPM (P6) from the fake-KMS
double, or an XWD dump (32 bits a pixel, as xwd writes from a real
Xorg).

usage: screen.py window SHOT RRGGBB
           the bounding box "X1 Y1 X2 Y2" of the pixels that are not the
           background colour RRGGBB (the windows); exit 1 if none
       screen.py region X1 Y1 X2 Y2 SHOT...
           a digest of the pixels in the box, a line per shot, to compare
           shots by
       screen.py differ X1 Y1 X2 Y2 REF SHOT...
           a line per shot: how many pixels in the box differ from REF's
           by more than an eye can tell (TOLERANCE levels in a channel)
       screen.py block MIN-W MIN-H SHOT...
           a line per shot: the box of a solid dark block at least MIN-W
           by MIN-H pixels (a terminal's block cursor drawn in black), or
           "none"
       screen.py dark X1 Y1 X2 Y2 SHOT...
           a line per shot: how many dark pixels the box holds (text in
           black on a light terminal)

Imported (PYTHONPATH set to this folder), ink(XWD-BYTES) counts the
pixels of a window dump inside its border that differ from its most
common one (the ink on a terminal).

Python starts slowly on a busy machine: a test takes its shots first and
has them read in one go.

On a screen the pointer sits in the top left corner (the tests move it
there): the POINTER x POINTER pixels there are no part of any answer.
An XWD dump of a window has no pointer.
"""
import collections
import hashlib
import struct
import sys

POINTER = 48
DARK = 64
# Weston's pixman renderer draws a translucent shadow a level or three
# apart when it draws it in other pieces (a repaint clipped to other
# damage): GTK's window shadow came out 0xbf or 0xc0 over a 0xc0
# background.  No eye tells that; a caret is some 200 levels off.
TOLERANCE = 8


def read_xwd(data, path):
    """As read_ppm, from an XWD dump: header, colour map, then rows."""
    h = struct.unpack(">25I", data[:100])
    size, width, height, bpp, stride = h[0], h[4], h[5], h[11], h[12]
    if bpp != 32:
        raise ValueError(f"{path}: {bpp} bits a pixel, not 32")
    order = "<" if h[7] == 0 else ">"
    body = data[size + 12 * h[19]:]
    out = bytearray()
    for y in range(height):
        for v in struct.unpack_from(f"{order}{width}I", body, y * stride):
            out += bytes(((v >> 16) & 255, (v >> 8) & 255, v & 255))
    return width, height, bytes(out), 0


def ink(data):
    """The pixels of an XWD window dump, inside its border, that are not
    its most common colour."""
    h = struct.unpack(">25I", data[:100])
    size, width, height, stride = h[0], h[4], h[5], h[12]
    ncolors, border = h[19], h[24]
    order = "<" if h[7] == 0 else ">"
    body = data[size + 12 * ncolors:]
    pixels = collections.Counter()
    for y in range(border, height - border):
        row = struct.unpack_from(order + "%dI" % width, body, y * stride)
        pixels.update(row[border:width - border])
    return sum(pixels.values()) - pixels.most_common(1)[0][1]


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(b"P6"):
        return read_xwd(data, path)
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not an 8-bit binary PPM")
    width, height = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:]
    if len(pixels) < width * height * 3:
        raise ValueError(f"{path}: short")
    return width, height, pixels, POINTER


def in_pointer(corner, x, y):
    return x < corner and y < corner


def window(path, colour):
    width, height, px, corner = read_ppm(path)
    bg = bytes.fromhex(colour)
    x1, y1, x2, y2 = width, height, 0, 0
    for y in range(height):
        row = px[y * width * 3:(y + 1) * width * 3]
        if row == bg * width:
            continue
        for x in range(width):
            if row[3 * x:3 * x + 3] != bg and not in_pointer(corner, x, y):
                x1, x2 = min(x1, x), max(x2, x + 1)
                y1, y2 = min(y1, y), max(y2, y + 1)
    if x2 <= x1:
        return 1
    print(x1, y1, x2, y2)
    return 0


def region(path, x1, y1, x2, y2):
    width, height, px, _ = read_ppm(path)
    h = hashlib.sha256()
    for y in range(max(y1, 0), min(y2, height)):
        h.update(px[(y * width + x1) * 3:(y * width + x2) * 3])
    return h.hexdigest()[:16]


def differ(ref, path, x1, y1, x2, y2):
    width, height, want, _ = read_ppm(ref)
    w2, h2, px, corner = read_ppm(path)
    if (w2, h2) != (width, height):
        return width * height
    n = 0
    for y in range(max(y1, 0), min(y2, height)):
        for x in range(max(x1, 0), min(x2, width)):
            p = (y * width + x) * 3
            if in_pointer(corner, x, y):
                continue
            if (abs(px[p] - want[p]) > TOLERANCE or
                    abs(px[p + 1] - want[p + 1]) > TOLERANCE or
                    abs(px[p + 2] - want[p + 2]) > TOLERANCE):
                n += 1
    return n


def block(path, min_w, min_h):
    width, height, px, corner = read_ppm(path)
    # run[x]: dark pixels in a row ending at this row, column x.
    run = [0] * width
    for y in range(height):
        base = y * width * 3
        wide = 0
        for x in range(width):
            p = base + 3 * x
            dark = (px[p] < DARK and px[p + 1] < DARK and px[p + 2] < DARK
                    and not in_pointer(corner, x, y))
            run[x] = run[x] + 1 if dark else 0
            wide = wide + 1 if run[x] >= min_h else 0
            if wide >= min_w:
                return f"{x + 1 - wide} {y + 1 - min_h} {x + 1} {y + 1}"
    return "none"


def dark(path, x1, y1, x2, y2):
    width, height, px, corner = read_ppm(path)
    n = 0
    for y in range(max(y1, 0), min(y2, height)):
        for x in range(max(x1, 0), min(x2, width)):
            p = (y * width + x) * 3
            if (px[p] < DARK and px[p + 1] < DARK and px[p + 2] < DARK
                    and not in_pointer(corner, x, y)):
                n += 1
    return n


def main(argv):
    if len(argv) == 4 and argv[1] == "window":
        return window(argv[2], argv[3])
    if len(argv) >= 7 and argv[1] == "region":
        box = map(int, argv[2:6])
        x1, y1, x2, y2 = box
        for shot in argv[6:]:
            print(region(shot, x1, y1, x2, y2))
        return 0
    if len(argv) >= 8 and argv[1] == "differ":
        x1, y1, x2, y2 = map(int, argv[2:6])
        for shot in argv[7:]:
            print(differ(argv[6], shot, x1, y1, x2, y2))
        return 0
    if len(argv) >= 7 and argv[1] == "dark":
        x1, y1, x2, y2 = map(int, argv[2:6])
        for shot in argv[6:]:
            print(dark(shot, x1, y1, x2, y2))
        return 0
    if len(argv) >= 5 and argv[1] == "block":
        for shot in argv[4:]:
            print(block(shot, int(argv[2]), int(argv[3])))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
