/* SPDX-License-Identifier: MIT */
/*
 * Part of stillframe-test-fake-kms.so, the TEST DOUBLE standing in for a
 * KMS backend (fake-kms.c): its frame log, what reached the "hardware"
 * frame by frame, for stillframe-check to judge from outside.  The
 * format is in fake-kms.c's header comment.
 *
 * Each record is built whole in memory and handed to the kernel in one
 * write(2) on a plain descriptor, not stdio, whose buffer would split a
 * frame line of a few kilobytes: a reader following the file sees whole
 * lines, each as soon as it is written.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pixman.h>
#include <libweston/libweston.h>

#include "fake-kms-frame-log.h"
#include "sf-tile-hash.h"
#include "weston-backend-api.h"

#define TILE 32
/* Far beyond any headless output a test makes; bounds the buffers. */
#define MAX_SIDE 16384
/* " IDX:HASH:INK": IDX below MAX_SIDE^2 / TILE^2, 16 hex digits, INK
 * at most TILE^2. */
#define TILE_TEXT_MAX (1 + 10 + 1 + 16 + 1 + 4)
/* "frame T N" and the newline. */
#define FRAME_HEAD_MAX 64
/* An input record: the command's words come from a FIFO line of at most
 * 1023 bytes, so they fit with the keyword and the time. */
#define INPUT_RECORD_MAX 1200


struct sf_frame_log {
	char *path;
	int fd;			/* -1 once logging stopped */
	/* The output to log; NULL until the first output created names it,
	 * so that the same head plugged in again is followed again. */
	char *output_name;
	struct weston_output *output;	/* followed now, or NULL */

	int32_t width, height;	/* as the last screen line said; 0: none */
	uint32_t refresh;	/* as the last mode line said */
	size_t cols, rows;
	uint32_t *pixels;	/* width * height, kept across frames */
	uint64_t *hashes;	/* the last logged frame's, per tile */
	uint64_t *next_hashes;	/* this frame's */
	bool have_hashes;	/* false: the next frame lists every tile */
	bool read_back_checked;	/* since the last screen line */
	char *line;		/* a frame record */
	size_t line_size;
};

int64_t
sf_frame_log_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Milliseconds with three decimals, as %.3f prints them, from whole
 * microseconds (sf-bench-x prints its times the same way). */
static int
format_time(char *buf, size_t size, int64_t us)
{
	return snprintf(buf, size, "%" PRId64 ".%03" PRId64, us / 1000,
			us % 1000);
}

/* Logging stops for good: a reader would rather see the log end than
 * a log with frames missing. */
static void
log_stop(struct sf_frame_log *log, const char *why)
{
	if (log->fd < 0)
		return;
	weston_log("fake-kms: frame log %s: %s; no more frames are logged\n",
		   log->path, why);
	close(log->fd);
	log->fd = -1;
}

static bool
log_write(struct sf_frame_log *log, const char *buf, size_t len)
{
	while (log->fd >= 0 && len > 0) {
		ssize_t n = write(log->fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			char why[128];

			snprintf(why, sizeof why, "write failed: %s",
				 n < 0 ? strerror(errno) : "nothing written");
			log_stop(log, why);
			return false;
		}
		buf += n;
		len -= (size_t)n;
	}
	return log->fd >= 0;
}

/* Records that fit a small buffer: screen, mode. */
static void
log_record(struct sf_frame_log *log, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	int len = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof buf) {
		log_stop(log, "a record did not fit its buffer");
		return;
	}
	log_write(log, buf, (size_t)len);
}

static bool
grow(void **p, size_t count, size_t size)
{
	void *grown = realloc(*p, count * size);

	if (!grown)
		return false;
	*p = grown;
	return true;
}

/* A screen line for the output's current size, and buffers to match;
 * the next frame lists every tile. */
static bool
screen_start(struct sf_frame_log *log, struct weston_output *output)
{
	int32_t w = output->current_mode->width;
	int32_t h = output->current_mode->height;

	if (w <= 0 || h <= 0 || w > MAX_SIDE || h > MAX_SIDE) {
		log_stop(log, "the output's size is out of range");
		return false;
	}
	size_t cols = ((size_t)w + TILE - 1) / TILE;
	size_t rows = ((size_t)h + TILE - 1) / TILE;
	size_t tiles = cols * rows;
	size_t line_size = FRAME_HEAD_MAX + tiles * TILE_TEXT_MAX;

	if (!grow((void **)&log->pixels, (size_t)w * (size_t)h,
		  sizeof *log->pixels) ||
	    !grow((void **)&log->hashes, tiles, sizeof *log->hashes) ||
	    !grow((void **)&log->next_hashes, tiles,
		  sizeof *log->next_hashes) ||
	    !grow((void **)&log->line, line_size, 1)) {
		log_stop(log, "out of memory");
		return false;
	}
	log->width = w;
	log->height = h;
	log->cols = cols;
	log->rows = rows;
	log->line_size = line_size;
	log->have_hashes = false;
	log->read_back_checked = false;
	log_record(log, "screen %" PRId32 " %" PRId32 " %d\n", w, h, TILE);
	return log->fd >= 0;
}

static void
mode_record(struct sf_frame_log *log, uint32_t refresh)
{
	char t[32];

	format_time(t, sizeof t, sf_frame_log_now_us());
	log->refresh = refresh;
	log_record(log, "mode %s %" PRIu32 "\n", t, refresh);
}

static void
follow(struct sf_frame_log *log, struct weston_output *output)
{
	log->output = output;
	weston_log("fake-kms: frame log %s follows output %s\n", log->path,
		   output->name);
	if (screen_start(log, output))
		mode_record(log, (uint32_t)output->current_mode->refresh);
}

struct sf_frame_log *
sf_frame_log_create(const char *path, const char *output_name)
{
	struct sf_frame_log *log = calloc(1, sizeof *log);

	if (!log) {
		weston_log("fake-kms: frame log %s: out of memory; going on "
			   "without it\n", path);
		return NULL;
	}
	log->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (log->fd < 0) {
		weston_log("fake-kms: cannot open the frame log %s: %s; going "
			   "on without it\n", path, strerror(errno));
		free(log);
		return NULL;
	}
	log->path = strdup(path);
	if (output_name)
		log->output_name = strdup(output_name);
	if (!log->path || (output_name && !log->output_name)) {
		weston_log("fake-kms: frame log %s: out of memory; going on "
			   "without it\n", path);
		sf_frame_log_destroy(log);
		return NULL;
	}
	weston_log("fake-kms: frame log %s, of output %s\n", path,
		   output_name ? output_name : "(the first created)");
	return log;
}

void
sf_frame_log_destroy(struct sf_frame_log *log)
{
	if (!log)
		return;
	if (log->fd >= 0)
		close(log->fd);
	free(log->path);
	free(log->output_name);
	free(log->pixels);
	free(log->hashes);
	free(log->next_hashes);
	free(log->line);
	free(log);
}

void
sf_frame_log_output_created(struct sf_frame_log *log,
			    struct weston_output *output)
{
	if (!log || log->fd < 0 || log->output)
		return;
	if (!log->output_name) {
		log->output_name = strdup(output->name);
		if (!log->output_name) {
			log_stop(log, "out of memory");
			return;
		}
	} else if (strcmp(log->output_name, output->name) != 0) {
		return;
	}
	follow(log, output);
}

void
sf_frame_log_output_gone(struct sf_frame_log *log,
			 struct weston_output *output)
{
	if (!log || log->output != output)
		return;
	/* Plugged in again, it starts with a screen line. */
	log->output = NULL;
	log->width = 0;
	log->height = 0;
}

/* HASH with N more pixels (tests/sf-tile-hash.h). */
static uint64_t
hash_pixels(uint64_t h, const uint32_t *px, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = sf_tile_hash_pixel(h, px[i] & 0x00ffffff);
	return h;
}

/*
 * The pixman renderer only, as the shot command: the GL renderer reads
 * back bottom row first, in a format of its choosing; the noop renderer
 * (Weston without --use-pixman or --use-gl) "reads back" by leaving the
 * buffer as it was, which would log a screen that never changes.  So
 * the first read after a screen line goes into two different fills: a
 * renderer that reads back gives the same pixels both times.
 */
static bool
read_back(struct sf_frame_log *log, struct weston_output *output)
{
	size_t n = (size_t)log->width * (size_t)log->height;

	if (output->compositor->capabilities & WESTON_CAP_CAPTURE_YFLIP)
		return false;
	if (log->read_back_checked)
		return sf_test_read_pixels(output, log->pixels, log->width,
					   log->height);
	memset(log->pixels, 0x00, n * sizeof *log->pixels);
	if (!sf_test_read_pixels(output, log->pixels, log->width,
				 log->height))
		return false;
	uint64_t first = hash_pixels(SF_TILE_HASH_START, log->pixels, n);
	memset(log->pixels, 0xff, n * sizeof *log->pixels);
	if (!sf_test_read_pixels(output, log->pixels, log->width,
				 log->height) ||
	    hash_pixels(SF_TILE_HASH_START, log->pixels, n) != first)
		return false;
	log->read_back_checked = true;
	return true;
}

/* The ink of tile I (tests/sf-tile-hash.h). */
static uint32_t
tile_ink(const struct sf_frame_log *log, size_t i)
{
	uint32_t rgb[SF_TILE_INK_PIXELS];
	size_t x0 = (i % log->cols) * TILE, y0 = (i / log->cols) * TILE;
	size_t w = (size_t)log->width - x0 < TILE ?
		   (size_t)log->width - x0 : TILE;
	size_t h = (size_t)log->height - y0 < TILE ?
		   (size_t)log->height - y0 : TILE;
	size_t n = 0;

	for (size_t y = y0; y < y0 + h; y++)
		for (size_t x = x0; x < x0 + w; x++)
			rgb[n++] = log->pixels[y * (size_t)log->width + x] &
				   0x00ffffff;
	return sf_tile_ink(rgb, n);
}

/* Each tile's hash, walking the image row by row: a tile's rows still
 * reach its hash in order, and the image is read once, in order. */
static void
hash_tiles(struct sf_frame_log *log)
{
	size_t w = (size_t)log->width;
	size_t h = (size_t)log->height;

	for (size_t i = 0; i < log->cols * log->rows; i++)
		log->next_hashes[i] = SF_TILE_HASH_START;
	for (size_t y = 0; y < h; y++) {
		const uint32_t *row = log->pixels + y * w;
		uint64_t *tile_row = log->next_hashes + (y / TILE) * log->cols;

		for (size_t col = 0; col < log->cols; col++) {
			size_t x = col * TILE;
			size_t n = w - x < TILE ? w - x : TILE;

			tile_row[col] = hash_pixels(tile_row[col], row + x, n);
		}
	}
}

void
sf_frame_log_frame(struct sf_frame_log *log, struct weston_output *output,
		   int64_t time_us)
{
	if (!log || log->fd < 0 || output != log->output)
		return;
	if (output->current_mode->width != log->width ||
	    output->current_mode->height != log->height) {
		if (!screen_start(log, output))
			return;
	}
	if (!read_back(log, output)) {
		log_stop(log, "cannot read the output's pixels back (the "
			 "pixman renderer reads back: weston --use-pixman)");
		return;
	}
	hash_tiles(log);

	size_t tiles = log->cols * log->rows;
	size_t changed = 0;
	for (size_t i = 0; i < tiles; i++)
		if (!log->have_hashes || log->next_hashes[i] != log->hashes[i])
			changed++;

	char t[32];
	format_time(t, sizeof t, time_us);
	size_t len = (size_t)snprintf(log->line, log->line_size,
				      "frame %s %zu", t, changed);
	for (size_t i = 0; i < tiles; i++) {
		if (log->have_hashes && log->next_hashes[i] == log->hashes[i])
			continue;
		len += (size_t)snprintf(log->line + len, log->line_size - len,
					" %zu:%016" PRIx64 ":%" PRIu32, i,
					log->next_hashes[i],
					tile_ink(log, i));
	}
	log->line[len++] = '\n';

	uint64_t *swap = log->hashes;
	log->hashes = log->next_hashes;
	log->next_hashes = swap;
	log->have_hashes = true;
	log_write(log, log->line, len);
}

void
sf_frame_log_mode(struct sf_frame_log *log, struct weston_output *output)
{
	if (!log || log->fd < 0 || output != log->output)
		return;
	uint32_t refresh = (uint32_t)output->current_mode->refresh;
	if (refresh != log->refresh)
		mode_record(log, refresh);
}

void
sf_frame_log_input(struct sf_frame_log *log, const char *fmt, ...)
{
	if (!log || log->fd < 0)
		return;

	char buf[INPUT_RECORD_MAX];
	int len = snprintf(buf, sizeof buf, "input ");
	len += format_time(buf + len, sizeof buf - (size_t)len,
			   sf_frame_log_now_us());
	buf[len++] = ' ';
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + len, sizeof buf - (size_t)len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)(len + n) + 1 >= sizeof buf) {
		weston_log("fake-kms: frame log %s: an input command too long "
			   "to log\n", log->path);
		return;
	}
	len += n;
	buf[len++] = '\n';
	log_write(log, buf, (size_t)len);
}
