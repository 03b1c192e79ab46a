#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes a test image for stillframectl fbc: make-test-image.py PATTERN
# WIDTH HEIGHT OUT.{ppm,png}, PATTERN one of flat, vertical (colour
# changing from top to bottom), horizontal (from left to right) and noise.
# PNG is written by hand (zlib, no imaging library) so the tests need
# nothing beyond python3.
import random
import struct
import sys
import zlib


def pixel(pattern, x, y, w, h, rng):
    if pattern == "flat":
        return (32, 48, 64)
    if pattern == "vertical":
        v = y * 255 // max(h - 1, 1)
        return (v, v // 2, 255 - v)
    if pattern == "horizontal":
        v = x * 255 // max(w - 1, 1)
        return (v, v // 2, 255 - v)
    if pattern == "noise":
        return (rng.randrange(256), rng.randrange(256), rng.randrange(256))
    raise SystemExit(f"make-test-image.py: unknown pattern {pattern!r}")


def rows(pattern, w, h):
    rng = random.Random(1)
    for y in range(h):
        yield bytes(c for x in range(w)
                    for c in pixel(pattern, x, y, w, h, rng))


def png_chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + \
        struct.pack(">I", zlib.crc32(body) & 0xffffffff)


def main():
    pattern, w, h, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        sys.argv[4]
    with open(out, "wb") as f:
        if out.endswith(".ppm"):
            f.write(b"P6\n# stillframe test image\n%d %d\n255\n" % (w, h))
            for row in rows(pattern, w, h):
                f.write(row)
        else:
            raw = b"".join(b"\0" + row for row in rows(pattern, w, h))
            f.write(b"\x89PNG\r\n\x1a\n")
            # 8-bit RGB, no interlace.
            f.write(png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2,
                                                   0, 0, 0)))
            f.write(png_chunk(b"IDAT", zlib.compress(raw)))
            f.write(png_chunk(b"IEND", b""))


main()
