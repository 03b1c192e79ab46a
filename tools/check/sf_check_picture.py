# SPDX-License-Identifier: MIT
"""A picture of the whole screen, read back by a witness: the fake-KMS
double's "shot" (binary PPM, P6) on Weston, `xwd -root` on X.

The frame logs say whether a tile changed (a hash of its pixels); a
picture says by how much two screens differ where the hashes disagree.
Two runs of stock can draw the same window with colours one or two
levels apart (a toolkit's blurred shadow, blended in a different order
from one run to the next); no user sees that, and no hold makes it.
"""

import struct


class PictureError(Exception):
    pass


class Picture:
    """WIDTH x HEIGHT pixels, RGB bytes row by row."""

    def __init__(self, width, height, rgb):
        if width <= 0 or height <= 0 or len(rgb) != width * height * 3:
            raise PictureError("%d x %d pixels need %d bytes, not %d"
                               % (width, height, width * height * 3,
                                  len(rgb)))
        self.width = width
        self.height = height
        self.rgb = rgb

    def tile_difference(self, other, idx, tile):
        """The largest difference of one colour channel, in levels of
        255, between this picture and OTHER inside tile IDX (tiles of
        TILE x TILE pixels, row by row), or None when the two pictures
        are not of the same screen."""
        if (self.width, self.height) != (other.width, other.height):
            return None
        cols = (self.width + tile - 1) // tile
        x0, y0 = (idx % cols) * tile, (idx // cols) * tile
        if y0 >= self.height:
            return None
        x1, y1 = min(x0 + tile, self.width), min(y0 + tile, self.height)
        largest = 0
        for y in range(y0, y1):
            a = (y * self.width + x0) * 3
            b = (y * self.width + x1) * 3
            row, other_row = self.rgb[a:b], other.rgb[a:b]
            if row == other_row:
                continue
            largest = max(largest, max(abs(p - q) for p, q
                                       in zip(row, other_row)))
        return largest


def read_ppm(data):
    """A binary PPM (P6, maxval 255), as the fake-KMS double writes."""
    fields = []
    pos = 0
    while len(fields) < 4:
        while pos < len(data) and data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            while pos < len(data) and data[pos:pos + 1] != b"\n":
                pos += 1
            continue
        start = pos
        while pos < len(data) and not data[pos:pos + 1].isspace():
            pos += 1
        if start == pos:
            raise PictureError("a PPM header ends early")
        fields.append(data[start:pos])
    if fields[0] != b"P6":
        raise PictureError("not a binary PPM (P6)")
    try:
        width, height, maxval = (int(f) for f in fields[1:])
    except ValueError:
        raise PictureError("a PPM header that is not numbers")
    if maxval != 255:
        raise PictureError("a PPM of maxval %d, not 255" % maxval)
    pos += 1        # the one white space before the pixels
    return Picture(width, height, bytes(data[pos:pos + width * height * 3]))


# An XWD file (X11's xwd): a header of 25 big-endian 32-bit fields, the
# window's name, the colour map, then the pixels as the server gave them.
XWD_FIELDS = ("header_size", "file_version", "pixmap_format",
              "pixmap_depth", "pixmap_width", "pixmap_height", "xoffset",
              "byte_order", "bitmap_unit", "bitmap_bit_order",
              "bitmap_pad", "bits_per_pixel", "bytes_per_line",
              "visual_class", "red_mask", "green_mask", "blue_mask",
              "bits_per_rgb", "colormap_entries", "ncolors",
              "window_width", "window_height", "window_x", "window_y",
              "window_bdrwidth")
XWD_VERSION = 7
XWD_ZPIXMAP = 2
XWD_COLOR_SIZE = 12
XWD_TRUECOLOR = 4


def shift_of(mask):
    shift = 0
    while mask and not mask & 1:
        mask >>= 1
        shift += 1
    return shift, mask


def read_bytes_per_channel(data, start, stride, width, height, order,
                           channels):
    """32 bits a pixel, a byte a channel: each channel is every fourth
    byte of a row, taken with a slice (a Python loop per pixel would
    take seconds for a screen)."""
    rgb = bytearray(width * height * 3)
    for y in range(height):
        row = data[start + y * stride:start + y * stride + width * 4]
        out = rgb[y * width * 3:(y + 1) * width * 3]
        for c, (shift, _) in enumerate(channels):
            byte = shift // 8 if order == "little" else 3 - shift // 8
            out[c::3] = row[byte::4]
        rgb[y * width * 3:(y + 1) * width * 3] = out
    return rgb


def read_xwd(data):
    """A true-colour ZPixmap of 24 or 32 bits a pixel (a root window on
    a TrueColor visual, as the dummy driver and every desktop have)."""
    size = 4 * len(XWD_FIELDS)
    if len(data) < size:
        raise PictureError("an XWD header ends early")
    h = dict(zip(XWD_FIELDS, struct.unpack(">25I", data[:size])))
    if h["file_version"] != XWD_VERSION or h["pixmap_format"] != XWD_ZPIXMAP:
        raise PictureError("not an XWD ZPixmap of version 7")
    if h["visual_class"] != XWD_TRUECOLOR or \
            h["bits_per_pixel"] not in (24, 32):
        raise PictureError("an XWD picture of %d bits a pixel, visual "
                           "class %d: only true colour is read"
                           % (h["bits_per_pixel"], h["visual_class"]))
    width, height, stride = (h["pixmap_width"], h["pixmap_height"],
                             h["bytes_per_line"])
    bpp = h["bits_per_pixel"] // 8
    start = h["header_size"] + h["ncolors"] * XWD_COLOR_SIZE
    if stride < width * bpp or len(data) < start + stride * height:
        raise PictureError("an XWD picture shorter than its header says")
    order = "little" if h["byte_order"] == 0 else "big"
    channels = [shift_of(h[m]) for m in ("red_mask", "green_mask",
                                         "blue_mask")]
    if bpp == 4 and all(mask == 0xff and shift % 8 == 0
                        for shift, mask in channels):
        return Picture(width, height, bytes(
            read_bytes_per_channel(data, start, stride, width, height,
                                   order, channels)))
    rgb = bytearray(width * height * 3)
    out = 0
    for y in range(height):
        row = start + y * stride
        for x in range(width):
            p = row + x * bpp
            v = int.from_bytes(data[p:p + bpp], order)
            for shift, mask in channels:
                level = (v >> shift) & mask
                rgb[out] = level * 255 // mask if mask else 0
                out += 1
    return Picture(width, height, bytes(rgb))


def read_picture(path):
    """The picture at PATH (PPM or XWD, told by its first bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"P6":
        return read_ppm(data)
    return read_xwd(data)
