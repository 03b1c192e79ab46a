/* SPDX-License-Identifier: MIT */
/*
 * stillframectl fbc IMAGE: reads a PNG (libpng) or a binary PPM, runs
 * its lines and its columns through the framebuffer-compression estimate
 * of common/ and prints the ratio, what the display engine would read
 * per second at the given refresh, and advice.  Needs no compositor,
 * but with --screen it takes Weston's outputs instead, as they are
 * (ctl-screen.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SF_CTL_HAVE_PNG
#include <png.h>
#endif

#include "ctl-commands.h"
#include "ctl-screen.h"
#include "sf-fbc.h"

/* Larger than any panel; keeps a hostile header from asking for
 * gigabytes. */
#define MAX_SIDE 16384

struct image {
	uint32_t width, height;
	uint32_t *pixels;	/* 0xRRGGBB, row by row */
};

static void
fbc_usage(FILE *f)
{
	fprintf(f,
		"usage: stillframectl fbc [--refresh HZ] [--json] IMAGE\n"
		"       stillframectl fbc [--refresh HZ] [--json] --screen\n"
		"Estimates how well IMAGE (a wallpaper, a screenshot: PNG or\n"
		"binary PPM) compresses under line-by-line run-length framebuffer\n"
		"compression, what the display reads per second at HZ (60), and\n"
		"what would compress better.  --screen takes each output of the\n"
		"Weston at $WAYLAND_DISPLAY instead (weston_screenshooter: Weston\n"
		"10 run with --debug); --json prints one line per output.\n");
}

#define usage_error(...) sf_ctl_command_usage_error("fbc", __VA_ARGS__)

static int
read_error(const char *path, const char *why)
{
	fprintf(stderr, "stillframectl: fbc: %s: %s\n", path, why);
	return 1;
}

static bool
image_alloc(struct image *img, uint32_t width, uint32_t height)
{
	if (width == 0 || height == 0 || width > MAX_SIDE ||
	    height > MAX_SIDE)
		return false;
	img->width = width;
	img->height = height;
	img->pixels = calloc((size_t)width * height, sizeof(*img->pixels));
	return img->pixels != NULL;
}

/* One header number of a PPM: digits after blanks and # comments. */
static bool
ppm_number(FILE *f, unsigned long *value)
{
	int c;

	for (;;) {
		c = getc(f);
		if (c == '#') {
			while (c != '\n' && c != EOF)
				c = getc(f);
			continue;
		}
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
	}
	if (c < '0' || c > '9')
		return false;
	*value = 0;
	while (c >= '0' && c <= '9') {
		if (*value > 1000000)
			return false;
		*value = *value * 10 + (unsigned long)(c - '0');
		c = getc(f);
	}
	/* One blank ends the number; after maxval the samples start. */
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int
load_ppm(const char *path, FILE *f, struct image *img)
{
	unsigned long width, height, maxval;

	if (!ppm_number(f, &width) || !ppm_number(f, &height) ||
	    !ppm_number(f, &maxval))
		return read_error(path, "not a valid binary PPM header");
	if (maxval == 0 || maxval > 65535)
		return read_error(path, "PPM maxval is not in 1..65535");
	if (!image_alloc(img, (uint32_t)width, (uint32_t)height))
		return read_error(path, "image size is not in 1x1..16384x16384 "
				  "(or out of memory)");

	size_t sample = maxval > 255 ? 2 : 1;
	size_t row_bytes = (size_t)width * 3 * sample;
	unsigned char *row = malloc(row_bytes);

	if (!row)
		return read_error(path, "out of memory");
	for (uint32_t y = 0; y < img->height; y++) {
		if (fread(row, 1, row_bytes, f) != row_bytes) {
			free(row);
			return read_error(path, "PPM data ends early");
		}
		for (uint32_t x = 0; x < img->width; x++) {
			uint32_t rgb = 0;

			for (int ch = 0; ch < 3; ch++) {
				const unsigned char *s =
					row + ((size_t)x * 3 + ch) * sample;
				unsigned v = sample == 2 ? (unsigned)s[0] << 8 |
								   s[1]
							 : s[0];

				/* To 8 bits, as a framebuffer holds it. */
				rgb = rgb << 8 | (uint32_t)(v * 255 / maxval);
			}
			img->pixels[(size_t)y * img->width + x] = rgb;
		}
	}
	free(row);
	return 0;
}

#ifdef SF_CTL_HAVE_PNG
static int
load_png(const char *path, struct image *img)
{
	png_image png;

	memset(&png, 0, sizeof(png));
	png.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&png, path))
		return read_error(path, png.message);
	png.format = PNG_FORMAT_RGB;
	if (!image_alloc(img, png.width, png.height)) {
		png_image_free(&png);
		return read_error(path, "image size is not in 1x1..16384x16384 "
				  "(or out of memory)");
	}

	unsigned char *rgb = malloc(PNG_IMAGE_SIZE(png));

	if (!rgb) {
		png_image_free(&png);
		return read_error(path, "out of memory");
	}
	if (!png_image_finish_read(&png, NULL, rgb, 0, NULL)) {
		free(rgb);
		return read_error(path, png.message);
	}
	for (size_t i = 0; i < (size_t)img->width * img->height; i++)
		img->pixels[i] = (uint32_t)rgb[3 * i] << 16 |
				 (uint32_t)rgb[3 * i + 1] << 8 | rgb[3 * i + 2];
	free(rgb);
	return 0;
}
#endif

static int
load_image(const char *path, struct image *img)
{
	unsigned char magic[8] = { 0 };
	FILE *f = fopen(path, "rb");

	if (!f)
		return read_error(path, strerror(errno));
	size_t n = fread(magic, 1, sizeof(magic), f);
	int ret;

	if (n >= 2 && magic[0] == 'P' && magic[1] == '6') {
		if (fseek(f, 2, SEEK_SET) != 0)
			ret = read_error(path, strerror(errno));
		else
			ret = load_ppm(path, f, img);
	} else if (n == 8 && memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0) {
#ifdef SF_CTL_HAVE_PNG
		ret = load_png(path, img);
#else
		ret = read_error(path, "a PNG, and this stillframectl was "
				 "built without libpng (libpng-dev)");
#endif
	} else {
		ret = read_error(path, "neither a PNG nor a binary PPM (P6)");
	}
	fclose(f);
	return ret;
}

static void
estimate_image(const struct image *img, struct sf_fbc_estimate *lines,
	       struct sf_fbc_estimate *columns, uint32_t *column)
{
	sf_fbc_estimate_init(lines);
	for (uint32_t y = 0; y < img->height; y++)
		sf_fbc_estimate_add_line(lines,
					 img->pixels + (size_t)y * img->width,
					 img->width);
	sf_fbc_estimate_init(columns);
	for (uint32_t x = 0; x < img->width; x++) {
		for (uint32_t y = 0; y < img->height; y++)
			column[y] = img->pixels[(size_t)y * img->width + x];
		sf_fbc_estimate_add_line(columns, column, img->height);
	}
}

static const char *
advice_text(enum sf_fbc_advice advice)
{
	switch (advice) {
	case SF_FBC_ADVICE_GOOD:
		return "compresses well: the display reads little memory "
		       "while it shows this";
	case SF_FBC_ADVICE_TURN:
		return "it changes along its lines (a horizontal gradient, "
		       "vertical stripes); the same picture turned a quarter, "
		       "changing from top to bottom instead, compresses far "
		       "better";
	case SF_FBC_ADVICE_BUSY:
		return "busy content (a photo, noise, dithering) barely "
		       "compresses; a flat colour or a vertical gradient saves "
		       "memory bandwidth at every refresh";
	case SF_FBC_ADVICE_FAIR:
		return "compresses somewhat; larger areas of one colour per "
		       "line would compress better";
	}
	return "";
}

/* `what` is "image" (path a file) or "output" (path its name). */
static void
print_result(const char *what, const char *path, const struct image *img,
	     double refresh, const struct sf_fbc_estimate *lines,
	     const struct sf_fbc_estimate *columns, bool json)
{
	enum sf_fbc_advice advice = sf_fbc_advise(lines, columns);
	double ratio = sf_fbc_estimate_ratio(lines);
	double raw_mbs = (double)lines->raw_bytes * refresh / 1e6;
	double compressed_mbs = (double)lines->compressed_bytes * refresh /
				1e6;

	if (json) {
		printf("{\"%s\": ", what);
		sf_ctl_json_string(path);
		printf(", \"width\": %u, \"height\": %u, \"ratio\": %.3f, "
		       "\"lines\": %u, \"lines_compressed\": %u, "
		       "\"turned_ratio\": %.3f, \"refresh_hz\": %.3f, "
		       "\"read_mb_per_s\": %.3f, "
		       "\"read_mb_per_s_uncompressed\": %.3f, \"advice\": ",
		       img->width, img->height, ratio, lines->lines,
		       lines->lines_compressed,
		       sf_fbc_estimate_ratio(columns), refresh,
		       compressed_mbs, raw_mbs);
		sf_ctl_json_string(sf_fbc_advice_name(advice));
		fputs("}\n", stdout);
		return;
	}
	printf("%s: %s, %ux%u\n", what, path, img->width, img->height);
	printf("compression: %.2fx (estimated: line-by-line run lengths)\n",
	       ratio);
	printf("lines that compress: %u of %u (%.1f%%)\n",
	       lines->lines_compressed, lines->lines,
	       100.0 * lines->lines_compressed / lines->lines);
	printf("turned a quarter: %.2fx\n", sf_fbc_estimate_ratio(columns));
	printf("scan-out at %.0f Hz reads %.1f MB/s (%.1f MB/s "
	       "uncompressed)\n", refresh, compressed_mbs, raw_mbs);
	printf("advice: %s: %s\n", sf_fbc_advice_name(advice),
	       advice_text(advice));
}

/* Estimates and prints one image; the result's exit status. */
static int
estimate_and_print(const char *what, const char *path,
		   const struct image *img, double refresh, bool json)
{
	uint32_t *column = malloc(sizeof(*column) * img->height);

	if (!column)
		return read_error(path, "out of memory");

	struct sf_fbc_estimate lines, columns;

	estimate_image(img, &lines, &columns, column);
	print_result(what, path, img, refresh, &lines, &columns, json);
	free(column);
	return 0;
}

struct screen_options {
	double refresh;
	bool json;
};

static int
screen_shot(void *data, const char *output, uint32_t width, uint32_t height,
	    uint32_t *pixels)
{
	const struct screen_options *o = data;
	struct image img = { width, height, pixels };

	return estimate_and_print("output", output, &img, o->refresh,
				  o->json);
}

int
sf_ctl_cmd_fbc(int argc, char **argv, enum sf_ctl_choice choice)
{
	static const struct option options[] = {
		{ "refresh", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "screen", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sf_ctl_options opts = {
		.command = "fbc", .table = options, .letters = ":h",
		.usage = fbc_usage,
	};
	double refresh = 60.0;
	bool json = false, screen = false;
	int c;

	while ((c = sf_ctl_next_own_option(&opts, argc, argv)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 's':
			screen = true;
			break;
		case 'r':
			if (!sf_ctl_parse_number(optarg, 1, 1000, &refresh))
				return usage_error(
					"--refresh %s: expected Hz from 1 to "
					"1000", optarg);
			break;
		}
	}
	if (opts.status != 0)
		return sf_ctl_options_exit(&opts);
	if (screen) {
		struct screen_options o = { refresh, json };

		if (optind < argc)
			return usage_error("--screen takes no IMAGE ('%s')",
					       argv[optind]);
		return sf_ctl_screen_capture(screen_shot, &o);
	}
	if (optind != argc - 1)
		return usage_error(optind >= argc ? "missing IMAGE" :
							"one IMAGE only");

	const char *path = argv[optind];
	struct image img = { 0 };
	int ret = load_image(path, &img);

	if (ret != 0) {
		free(img.pixels);
		return ret;
	}

	ret = estimate_and_print("image", path, &img, refresh, json);
	free(img.pixels);
	return ret;
}
