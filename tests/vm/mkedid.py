#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a synthetic EDID 1.3 blob whose only modes are the ones asked for.

    mkedid.py OUT.bin 1920x1080@120 1920x1080@60 1920x1080@48 1920x1080@30

The first mode is the preferred one.  Up to 4 modes go into the base block
as detailed timings; up to 6 more go into a CTA-861 extension block.
Timings use a fixed, reduced horizontal blanking and enough vertical blanking
for ~460 us, so every mode of one size shares hactive/vactive and differs
only in pixel clock / vtotal (like a panel that can be downclocked).
"""
import math
import sys


def timing(w, h, hz):
    hfp, hsync, hbp = 48, 32, 80
    vfp, vsync = 3, 5
    # vertical blanking of at least 460 us (CVT reduced-blanking rule)
    vblank = max(vfp + vsync + 6,
                 math.ceil(460e-6 * hz * h / (1 - 460e-6 * hz)))
    htot = w + hfp + hsync + hbp
    vtot = h + vblank
    clock_10khz = round(htot * vtot * hz / 10000)
    return dict(w=w, h=h, hblank=htot - w, vblank=vblank, hfp=hfp,
                hsync=hsync, vfp=vfp, vsync=vsync, clock=clock_10khz)


def dtd(t, wmm, hmm):
    if not 0 < t["clock"] <= 0xFFFF:
        sys.exit("mkedid: pixel clock out of range for %dx%d" % (t["w"], t["h"]))
    b = bytearray(18)
    b[0:2] = t["clock"].to_bytes(2, "little")
    b[2] = t["w"] & 0xFF
    b[3] = t["hblank"] & 0xFF
    b[4] = ((t["w"] >> 8) << 4) | (t["hblank"] >> 8)
    b[5] = t["h"] & 0xFF
    b[6] = t["vblank"] & 0xFF
    b[7] = ((t["h"] >> 8) << 4) | (t["vblank"] >> 8)
    b[8] = t["hfp"] & 0xFF
    b[9] = t["hsync"] & 0xFF
    b[10] = ((t["vfp"] & 0xF) << 4) | (t["vsync"] & 0xF)
    b[11] = (((t["hfp"] >> 8) & 3) << 6) | (((t["hsync"] >> 8) & 3) << 4) | \
            (((t["vfp"] >> 4) & 3) << 2) | ((t["vsync"] >> 4) & 3)
    b[12] = wmm & 0xFF
    b[13] = hmm & 0xFF
    b[14] = ((wmm >> 8) << 4) | (hmm >> 8)
    b[17] = 0x1A  # digital separate sync, +hsync, -vsync
    return bytes(b)


def checksum(block):
    block[127] = (256 - sum(block[:127]) % 256) % 256


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = sys.argv[1]
    modes = []
    for spec in sys.argv[2:]:
        size, hz = spec.split("@")
        w, h = (int(x) for x in size.lower().split("x"))
        modes.append(timing(w, h, float(hz)))
    if len(modes) > 10:
        sys.exit("mkedid: at most 10 modes")
    wmm, hmm = 344, 194  # a 15.6" panel

    base = bytearray(128)
    base[0:8] = b"\x00\xff\xff\xff\xff\xff\xff\x00"
    m = "SFV"
    mid = ((ord(m[0]) - 64) << 10) | ((ord(m[1]) - 64) << 5) | (ord(m[2]) - 64)
    base[8:10] = mid.to_bytes(2, "big")
    base[10:12] = (0x0001).to_bytes(2, "little")
    base[16], base[17] = 1, 2024 - 1990
    base[18], base[19] = 1, 3
    base[20] = 0x80                      # digital input
    base[21], base[22] = wmm // 10, hmm // 10
    base[23] = 120                       # gamma 2.2
    base[24] = 0x2A                      # DPMS active-off, RGB, preferred timing
    base[25:35] = bytes([0xEE, 0x91, 0xA3, 0x54, 0x4C, 0x99, 0x26, 0x0F,
                         0x50, 0x54])    # sRGB-ish chromaticity
    base[35:38] = b"\x00\x00\x00"        # no established timings
    base[38:54] = b"\x01\x01" * 8        # no standard timings
    for i in range(4):
        off = 54 + 18 * i
        if i < len(modes):
            base[off:off + 18] = dtd(modes[i], wmm, hmm)
        else:
            base[off:off + 18] = bytes([0, 0, 0, 0x10] + [0] * 14)  # dummy
    rest = modes[4:]
    base[126] = 1 if rest else 0
    checksum(base)
    blob = bytes(base)

    if rest:
        ext = bytearray(128)
        ext[0], ext[1], ext[2], ext[3] = 0x02, 0x03, 4, 0
        for i, t in enumerate(rest):
            ext[4 + 18 * i:4 + 18 * (i + 1)] = dtd(t, wmm, hmm)
        checksum(ext)
        blob += bytes(ext)

    with open(out, "wb") as f:
        f.write(blob)


if __name__ == "__main__":
    main()
