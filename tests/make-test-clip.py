#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the test "video": make-test-clip.py OUT.y4m.  A 10 s, 24 fps
# clip (played looped): a bar sweeping across a grey field, a new
# picture every frame.  YUV4MPEG2, which mpv plays without ffmpeg's
# command-line tools.  For rc-xorg-mpv and bench/corpus.
import sys

W, H, FRAMES = 160, 120, 240


def main(path):
    with open(path, "wb") as f:
        f.write(b"YUV4MPEG2 W%d H%d F24:1 Ip A1:1 C420jpeg\n" % (W, H))
        chroma = bytes([128]) * (W * H // 2)
        for i in range(FRAMES):
            x = i * (W - 16) // FRAMES
            row = bytearray([60]) * W
            row[x:x + 16] = bytes([235]) * 16
            f.write(b"FRAME\n" + bytes(row) * H + chroma)


if __name__ == "__main__":
    main(sys.argv[1])
