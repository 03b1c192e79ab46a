/* SPDX-License-Identifier: MIT */
/*
 * The screen's tiles, their last hashes and the ones damage touched
 * since they were last read.  The hash is the one the Weston side
 * computes from its framebuffer (tests/sf-tile-hash.h), so that one
 * screen reads the same in both logs.
 */
#include "sf-bench-x-frames.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf-bench-x-output.h"
#include "sf-tile-hash.h"


/* What one tile row's read covers: its first marked tile to its last. */
struct band {
	uint32_t first, last;		/* first > last: nothing marked */
	xcb_get_image_cookie_t cookie;
};

struct sf_bench_frames_tile {
	uint32_t index;			/* row * columns + column */
	uint64_t hash;
	uint32_t ink;			/* tests/sf-tile-hash.h */
};

struct sf_bench_frames {
	xcb_connection_t *conn;
	xcb_window_t root;
	xcb_damage_damage_t damage;
	uint16_t width, height;
	uint32_t columns, rows;

	uint64_t *hashes;		/* per tile, the last read */
	bool *known;			/* per tile, hashes[] holds one */
	bool *marked;			/* per tile, touched since */
	bool any_marked;
	bool any_hinted;		/* a top-level's damage marked */
	int64_t root_owed_until;	/* a frame the root did not tell */
	struct sf_bench_frames_tile *changed;	/* room for every tile */
	struct band *bands;		/* one per row */
};

static void *
alloc_or_exit(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "sf-bench-x: out of memory\n");
		exit(1);
	}
	return p;
}

static void
grid_free(struct sf_bench_frames *frames)
{
	free(frames->hashes);
	free(frames->known);
	free(frames->marked);
	free(frames->changed);
	free(frames->bands);
}

static void
grid_set(struct sf_bench_frames *frames, uint16_t width, uint16_t height)
{
	grid_free(frames);
	frames->width = width;
	frames->height = height;
	frames->columns = (width + SF_BENCH_FRAMES_TILE - 1u) /
			  SF_BENCH_FRAMES_TILE;
	frames->rows = (height + SF_BENCH_FRAMES_TILE - 1u) /
		       SF_BENCH_FRAMES_TILE;
	size_t n = (size_t)frames->columns * frames->rows;
	frames->hashes = alloc_or_exit(n, sizeof(*frames->hashes));
	frames->known = alloc_or_exit(n, sizeof(*frames->known));
	frames->marked = alloc_or_exit(n, sizeof(*frames->marked));
	frames->changed = alloc_or_exit(n, sizeof(*frames->changed));
	frames->bands = alloc_or_exit(frames->rows, sizeof(*frames->bands));
	/* No tile is known: the first frame after lists them all. */
	for (size_t i = 0; i < n; i++)
		frames->marked[i] = true;
	frames->any_marked = true;
}

static void
screen_print(uint16_t width, uint16_t height)
{
	printf("screen %u %u %u", (unsigned)width, (unsigned)height,
	       (unsigned)SF_BENCH_FRAMES_TILE);
	sf_bench_x_line_end();
}

struct sf_bench_frames *
sf_bench_frames_create(xcb_connection_t *conn, xcb_window_t root)
{
	/* Asked, not taken from the connection's setup: the caller
	 * selected the root's ConfigureNotify first, so no resize falls
	 * between this answer and the events. */
	xcb_get_geometry_reply_t *geometry = xcb_get_geometry_reply(conn,
		xcb_get_geometry(conn, root), NULL);
	if (!geometry)
		sf_bench_x_connection_lost();
	struct sf_bench_frames *frames = alloc_or_exit(1, sizeof(*frames));

	frames->conn = conn;
	frames->root = root;
	/* Raw: each notify carries its own rectangle and nothing has to
	 * be subtracted, so no drawing between a subtract and a read can
	 * be lost. */
	frames->damage = xcb_generate_id(conn);
	xcb_damage_create(conn, frames->damage, root,
			  XCB_DAMAGE_REPORT_LEVEL_RAW_RECTANGLES);
	grid_set(frames, geometry->width, geometry->height);
	screen_print(geometry->width, geometry->height);
	free(geometry);
	return frames;
}

void
sf_bench_frames_resize(struct sf_bench_frames *frames, uint16_t width,
		       uint16_t height)
{
	if (width == frames->width && height == frames->height)
		return;
	grid_set(frames, width, height);
	screen_print(width, height);
}

/* How long after a frame only a top-level's damage showed the root's
 * notifies of the same drawing may still come.  Xorg 21.1 sends the
 * notifies of one drawing to both objects, but they do not always reach
 * us in one read: the root's often come 1.2 to 5 ms after the
 * top-level's, and in about one run of two of stillframe-check on st,
 * a line printed after a long idle had its top-level's notify at once
 * and the root's not for seconds, until the next drawing, so the line
 * seemed never shown.  So a top-level's damage has its tiles read
 * too. */
#define ROOT_LATE_US 100000

/* Marks the tiles a rectangle of the screen touches, clipped to it (a
 * screen that shrank may still report outside it). */
static void
mark(struct sf_bench_frames *frames, int32_t x0, int32_t y0, int32_t x1,
     int32_t y1)
{
	if (x0 < 0)
		x0 = 0;
	if (y0 < 0)
		y0 = 0;
	if (x1 > frames->width)
		x1 = frames->width;
	if (y1 > frames->height)
		y1 = frames->height;
	if (x0 >= x1 || y0 >= y1)
		return;

	uint32_t c0 = (uint32_t)x0 / SF_BENCH_FRAMES_TILE;
	uint32_t c1 = (uint32_t)(x1 - 1) / SF_BENCH_FRAMES_TILE;
	uint32_t r0 = (uint32_t)y0 / SF_BENCH_FRAMES_TILE;
	uint32_t r1 = (uint32_t)(y1 - 1) / SF_BENCH_FRAMES_TILE;
	for (uint32_t r = r0; r <= r1; r++)
		for (uint32_t c = c0; c <= c1; c++)
			frames->marked[r * frames->columns + c] = true;
}

bool
sf_bench_frames_handle_damage(struct sf_bench_frames *frames,
			      const xcb_damage_notify_event_t *ev)
{
	if (ev->damage != frames->damage)
		return false;

	/* The root's rectangles are in screen coordinates.  Drawing that
	 * touched no pixel still makes a frame, "frame T 0", as the
	 * Weston side's empty repaints do. */
	frames->any_marked = true;
	mark(frames, ev->area.x, ev->area.y, ev->area.x + ev->area.width,
	     ev->area.y + ev->area.height);
	return true;
}

void
sf_bench_frames_handle_toplevel_damage(struct sf_bench_frames *frames,
				       const xcb_damage_notify_event_t *ev)
{
	/* The rectangle is in the window's coordinates, from its inside
	 * origin, which the geometry gives in the screen's. */
	int32_t x0 = ev->geometry.x + ev->area.x;
	int32_t y0 = ev->geometry.y + ev->area.y;

	frames->any_hinted = true;
	mark(frames, x0, y0, x0 + ev->area.width, y0 + ev->area.height);
}

/* Whether the server's images of a depth have 32 bits per pixel and
 * rows padded to 32 bits: a row is then its width * 4 bytes. */
static bool
format_is_32(xcb_connection_t *conn, uint8_t depth)
{
	const xcb_setup_t *setup = xcb_get_setup(conn);
	xcb_format_iterator_t it = xcb_setup_pixmap_formats_iterator(setup);

	for (; it.rem; xcb_format_next(&it))
		if (it.data->depth == depth)
			return it.data->bits_per_pixel == 32 &&
			       it.data->scanline_pad == 32;
	return false;
}

/* The tile's hash, and its ink into *ink. */
static uint64_t
tile_hash(const uint8_t *data, uint32_t stride, uint32_t x, uint32_t w,
	  uint32_t h, bool msb_first, uint32_t *ink)
{
	uint64_t hash = SF_TILE_HASH_START;
	uint32_t rgbs[SF_TILE_INK_PIXELS];
	size_t n = 0;

	for (uint32_t y = 0; y < h; y++) {
		const uint8_t *p = data + (size_t)y * stride + (size_t)x * 4;
		for (uint32_t i = 0; i < w; i++, p += 4) {
			/* The pixel's value, whatever the server's byte
			 * order. */
			uint32_t rgb = msb_first ?
				(uint32_t)p[3] | (uint32_t)p[2] << 8 |
				(uint32_t)p[1] << 16 :
				(uint32_t)p[0] | (uint32_t)p[1] << 8 |
				(uint32_t)p[2] << 16;
			hash = sf_tile_hash_pixel(hash, rgb);
			if (n < SF_TILE_INK_PIXELS)
				rgbs[n++] = rgb;
		}
	}
	*ink = sf_tile_ink(rgbs, n);
	return hash;
}

/* The marked tiles of a row's band, hashed; false on a format we do not
 * hash. */
static bool
row_hash(struct sf_bench_frames *frames, uint32_t row, uint32_t c0,
	 uint32_t c1, const xcb_get_image_reply_t *image, size_t *n_changed)
{
	uint32_t x0 = c0 * SF_BENCH_FRAMES_TILE;
	uint32_t x1 = (c1 + 1) * SF_BENCH_FRAMES_TILE;
	if (x1 > frames->width)
		x1 = frames->width;
	uint32_t y0 = row * SF_BENCH_FRAMES_TILE;
	uint32_t h = frames->height - y0 < SF_BENCH_FRAMES_TILE ?
		     frames->height - y0 : SF_BENCH_FRAMES_TILE;
	uint32_t stride = (x1 - x0) * 4;

	if (!format_is_32(frames->conn, image->depth) ||
	    (size_t)xcb_get_image_data_length(image) < (size_t)stride * h)
		return false;
	const uint8_t *data = xcb_get_image_data(image);
	bool msb_first = xcb_get_setup(frames->conn)->image_byte_order ==
			 XCB_IMAGE_ORDER_MSB_FIRST;

	for (uint32_t c = c0; c <= c1; c++) {
		uint32_t index = row * frames->columns + c;
		if (!frames->marked[index])
			continue;
		frames->marked[index] = false;
		uint32_t x = c * SF_BENCH_FRAMES_TILE;
		uint32_t w = x1 - x < SF_BENCH_FRAMES_TILE ?
			     x1 - x : SF_BENCH_FRAMES_TILE;
		uint32_t ink;
		uint64_t hash = tile_hash(data, stride, x - x0, w, h,
					  msb_first, &ink);
		if (frames->known[index] && hash == frames->hashes[index])
			continue;
		frames->known[index] = true;
		frames->hashes[index] = hash;
		frames->changed[(*n_changed)++] = (struct sf_bench_frames_tile) {
			.index = index, .hash = hash, .ink = ink,
		};
	}
	return true;
}

/* Reads back the marked tiles and hashes them; frames->changed lists
 * those whose hash differs from the last one read, *n_changed of them.
 * False when the server's pixels are not 32 bits. */
static bool
tiles_read(struct sf_bench_frames *frames, size_t *n_changed)
{
	bool ok = true;

	*n_changed = 0;
	frames->any_marked = false;
	frames->any_hinted = false;

	/* One GetImage per tile row, from its first marked tile to its
	 * last: a caret's blink reads a tile or two, not the screen.  All
	 * are sent before the first reply is awaited, one round trip in
	 * all.  The request is a fixed 20 bytes, so the maximum request
	 * length never applies; a reply's length is 32 bits of 4-byte
	 * units, which the server fills in bands of its own (dix's
	 * DoGetImage), so even the whole screen could be one request:
	 * rows only keep each read to what was marked. */
	for (uint32_t r = 0; r < frames->rows; r++) {
		struct band *band = &frames->bands[r];
		band->first = frames->columns;
		band->last = 0;
		for (uint32_t c = 0; c < frames->columns; c++) {
			if (!frames->marked[r * frames->columns + c])
				continue;
			if (band->first == frames->columns)
				band->first = c;
			band->last = c;
		}
		if (band->first > band->last)
			continue;
		uint32_t x0 = band->first * SF_BENCH_FRAMES_TILE;
		uint32_t x1 = (band->last + 1) * SF_BENCH_FRAMES_TILE;
		uint32_t y0 = r * SF_BENCH_FRAMES_TILE;
		uint32_t y1 = y0 + SF_BENCH_FRAMES_TILE;
		if (x1 > frames->width)
			x1 = frames->width;
		if (y1 > frames->height)
			y1 = frames->height;
		band->cookie = xcb_get_image(frames->conn,
			XCB_IMAGE_FORMAT_Z_PIXMAP, frames->root,
			(int16_t)x0, (int16_t)y0, (uint16_t)(x1 - x0),
			(uint16_t)(y1 - y0), UINT32_MAX);
	}

	for (uint32_t r = 0; r < frames->rows; r++) {
		struct band *band = &frames->bands[r];
		if (band->first > band->last)
			continue;
		/* No reply: the screen shrank before we heard (its
		 * ConfigureNotify sets a new grid), or the connection is
		 * gone, which the caller sees.  The row's tiles stay
		 * marked for the next read. */
		xcb_get_image_reply_t *image = xcb_get_image_reply(
			frames->conn, band->cookie, NULL);
		if (image && ok)
			ok = row_hash(frames, r, band->first, band->last,
				      image, n_changed);
		free(image);
	}
	return ok;
}

bool
sf_bench_frames_flush(struct sf_bench_frames *frames)
{
	if (!frames->any_marked && !frames->any_hinted)
		return false;

	int64_t t = sf_bench_x_now_us();
	bool root_said = frames->any_marked, hinted = frames->any_hinted;
	size_t n;
	bool ok = tiles_read(frames, &n);
	if (xcb_connection_has_error(frames->conn))
		sf_bench_x_connection_lost();
	if (!ok) {
		sf_bench_x_stamp("error", t);
		printf(" unsupported image format");
		sf_bench_x_line_end();
		exit(2);
	}
	/* A top-level's damage alone makes a frame only when pixels
	 * changed: under a compositing manager it was drawn offscreen,
	 * and the screen changes when the manager paints.  After a frame
	 * a top-level's damage had a part in, the root's notifies of the
	 * same drawing may still come: an empty frame then is that same
	 * frame. */
	bool owed = frames->root_owed_until > t;
	if (root_said)
		frames->root_owed_until = 0;
	if (n == 0 && (!root_said || owed))
		return true;
	if (hinted && n > 0)
		frames->root_owed_until = t + ROOT_LATE_US;
	sf_bench_x_stamp("frame", t);
	printf(" %zu", n);
	for (size_t i = 0; i < n; i++)
		printf(" %" PRIu32 ":%016" PRIx64 ":%" PRIu32,
		       frames->changed[i].index, frames->changed[i].hash,
		       frames->changed[i].ink);
	sf_bench_x_line_end();
	return true;
}
