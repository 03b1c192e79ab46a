#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""TAP: the pictures stillframe-check reads back at rest
(tools/check/sf_check_picture.py): a PPM as the fake-KMS double writes
it, an XWD as `xwd -root` writes it, both written here pixel by pixel;
bad files give PictureError, never a wrong picture.

    test-picture.py TOOLS_CHECK_DIR
"""

import struct
import sys

sys.path.insert(0, sys.argv[1])
from sf_check_picture import (Picture, PictureError,  # noqa: E402
                              read_ppm, read_xwd)

count = 0
failed = 0


def ok(cond, name, diag=""):
    global count, failed
    count += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", count, name))
    if not cond:
        failed += 1
        for line in str(diag).splitlines():
            print("# " + line)


# A 40 x 3 screen: pixel (x, y) is (x, y, 200 - x).
W, H = 40, 3
WANT = bytes(v for y in range(H) for x in range(W) for v in (x, y, 200 - x))


def ppm(header=b"P6\n%d %d\n255\n" % (W, H), pixels=WANT):
    return header + pixels


def xwd(bpp=32, byte_order=0, masks=(0xff0000, 0xff00, 0xff), pad=4,
        ncolors=0, visual=4, cut=0):
    name = b"root\0"
    header_size = 100 + len(name)
    stride = W * bpp // 8 + pad
    fields = (header_size, 7, 2, 24, W, H, 0, byte_order, 32, byte_order,
              32, bpp, stride, visual, masks[0], masks[1], masks[2], 8,
              256, ncolors, W, H, 0, 0, 0)
    out = struct.pack(">25I", *fields) + name + b"\0" * 12 * ncolors
    order = "little" if byte_order == 0 else "big"
    for y in range(H):
        row = b""
        for x in range(W):
            r, g, b = x, y, 200 - x
            v = 0
            for level, mask in zip((r, g, b), masks):
                shift = (mask & -mask).bit_length() - 1
                v |= (level * (mask >> shift) // 255) << shift
            row += v.to_bytes(bpp // 8, order)
        out += row + b"\0" * pad
    return out[:len(out) - cut] if cut else out


ok(read_ppm(ppm()).rgb == WANT, "a P6 PPM")
ok(read_ppm(ppm(b"P6 # the fake-KMS double\n%d %d 255\n" % (W, H))).rgb ==
   WANT, "a P6 PPM with a comment")
for what, data in (("a P3 PPM", ppm(b"P3\n%d %d\n255\n" % (W, H))),
                   ("a PPM of maxval 65535",
                    ppm(b"P6\n%d %d\n65535\n" % (W, H))),
                   ("a PPM cut short", ppm()[:-7]),
                   ("a PPM header cut short", b"P6\n40"),
                   ("a PPM header of words", b"P6\nforty three\n255\n")):
    try:
        read_ppm(data)
        ok(False, "%s: PictureError" % what)
    except PictureError:
        ok(True, "%s: PictureError" % what)

for bpp, order, name in ((32, 0, "32 bits, LSB first"),
                         (32, 1, "32 bits, MSB first"),
                         (24, 0, "24 bits, LSB first")):
    got = read_xwd(xwd(bpp=bpp, byte_order=order))
    ok((got.width, got.height, got.rgb) == (W, H, WANT),
       "an XWD of %s" % name)
got = read_xwd(xwd(ncolors=3))
ok(got.rgb == WANT, "an XWD with a colour map before its pixels")
for what, data in (("an XWD cut short", xwd(cut=5)),
                   ("an XWD header cut short", xwd()[:60]),
                   ("a pseudo-colour XWD", xwd(visual=3)),
                   ("an XWD of 16 bits", xwd(bpp=16,
                                             masks=(0xf800, 0x7e0, 0x1f)))):
    try:
        read_xwd(data)
        ok(False, "%s: PictureError" % what)
    except PictureError:
        ok(True, "%s: PictureError" % what)

# Tile differences: the largest channel difference inside one tile.
a = Picture(W, H, WANT)
b = bytearray(WANT)
b[(1 * W + 33) * 3 + 2] += 3        # pixel (33, 1), blue, 3 levels
b[(2 * W + 5) * 3] += 60            # pixel (5, 2), red, 60 levels
b = Picture(W, H, bytes(b))
ok([a.tile_difference(b, i, 32) for i in (0, 1)] == [60, 3],
   "tile differences: 60 levels in tile 0, 3 in tile 1")
ok(a.tile_difference(Picture(W, 2, WANT[:W * 2 * 3]), 0, 32) is None,
   "pictures of two screen sizes: no difference given")
try:
    Picture(W, H, WANT[:-1])
    ok(False, "a picture one byte short: PictureError")
except PictureError:
    ok(True, "a picture one byte short: PictureError")
print("1..%d" % count)
sys.exit(1 if failed else 0)
