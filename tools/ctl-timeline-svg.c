/* SPDX-License-Identifier: MIT */
/*
 * stillframectl timeline's drawing: the replay's samples as plain SVG
 * 1.1 with presentation attributes only, so that any browser or viewer
 * shows it the same.  Elements carry stable ids and classes
 * (refresh-NAME, state-NAME, repaints-NAME, dpms-NAME, backlight-NAME,
 * reclock, inputs, time-axis, legend; input-mark and bar with data-time)
 * for tests and for anyone who post-processes it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl-timeline.h"

/* The picture: 1200 px wide, lanes right of a label column. */
#define WIDTH 1200
#define PLOT_X 150.0
#define PLOT_W 1010.0
#define LABEL_X 12.0

/* Band lanes: one coloured run per stretch of the same value. */
enum band {
	BAND_STATE,
	BAND_DPMS,
	BAND_RECLOCK,
};

struct swatch {
	const char *name;
	const char *fill;
	const char *text;		/* label colour on it */
};

static const struct swatch state_swatches[SF_STATE_COUNT] = {
	[SF_STATE_ACTIVE] = { "active", "#e4572e", "#ffffff" },
	[SF_STATE_LOW_REFRESH] = { "low-refresh", "#f3a712", "#222222" },
	[SF_STATE_DIM] = { "dim", "#7fb069", "#222222" },
	[SF_STATE_DPMS_STANDBY] = { "standby", "#3f88c5", "#ffffff" },
	[SF_STATE_DPMS_OFF] = { "off", "#2e3a59", "#ffffff" },
};

static const struct swatch dpms_swatches[] = {
	[SF_DPMS_ON] = { "on", "#ffe59e", "#222222" },
	[SF_DPMS_STANDBY] = { "standby", "#3f88c5", "#ffffff" },
	[SF_DPMS_OFF] = { "off", "#2e3a59", "#ffffff" },
};

static const struct swatch reclock_swatches[] = {
	[SF_RECLOCK_NORMAL] = { "normal", "#d9d9d9", "#222222" },
	[SF_RECLOCK_LOW] = { "low", "#8e5ea2", "#ffffff" },
};

static const struct swatch input_swatches[SF_INPUT_KIND_COUNT] = {
	[SF_INPUT_POINTER] = { "pointer", "#2a9d8f", NULL },
	[SF_INPUT_KEY] = { "key", "#d62828", NULL },
	[SF_INPUT_BUTTON] = { "button", "#264653", NULL },
	[SF_INPUT_TOUCH] = { "touch", "#9b5de5", NULL },
};

#define REPAINT_FILL "#1d6fa5"
#define SUPPRESSED_FILL "#f28e2b"
#define REFRESH_STROKE "#5b2a86"
#define REFRESH_FILL "#e3d7f0"
#define BACKLIGHT_STROKE "#c79a00"
#define BACKLIGHT_FILL "#fff1b8"
#define LANE_BACKGROUND "#f6f6f6"
#define GRID_STROKE "#e2e2e2"
#define AXIS_STROKE "#555555"
#define TEXT_DIM "#555555"

static double
x_of(const struct timeline *tl, sf_time_t t)
{
	return PLOT_X + PLOT_W * ((double)t / (double)tl->span);
}


/* --- drawing --- */

/* Text for XML, in content and in attribute values alike. */
static void
put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*s, f); break;
		}
	}
}

/* Where sample i's interval starts. */
static sf_time_t
sample_start(const struct timeline *tl, const struct lane_output *lo,
	     size_t i)
{
	if (i > 0)
		return lo->samples[i - 1].time;
	return lo->samples[0].time > tl->step ?
		       lo->samples[0].time - tl->step : 0;
}

/* The last state reported holds until the trace ends. */
static sf_time_t
sample_end(const struct timeline *tl, const struct lane_output *lo,
	   size_t i)
{
	if (i + 1 == lo->n && tl->end > lo->samples[i].time)
		return tl->end;
	return lo->samples[i].time;
}

static unsigned
band_value(const struct sample *s, enum band band)
{
	switch (band) {
	case BAND_STATE: return s->state;
	case BAND_DPMS: return s->dpms;
	case BAND_RECLOCK: return s->reclock;
	}
	return 0;
}

/* A lane's grey background with the time grid (under what the lane
 * shows) and its name in the label column. */
static void
lane_frame(FILE *f, const struct timeline *tl, double y, double h,
	   const char *label)
{
	fprintf(f, "<rect class=\"lane-background\" x=\"%.1f\" y=\"%.1f\" "
		"width=\"%.1f\" height=\"%.1f\" fill=\"" LANE_BACKGROUND
		"\"/>\n", PLOT_X, y, PLOT_W, h);
	fprintf(f, "<path class=\"grid\" stroke=\"" GRID_STROKE "\" "
		"stroke-width=\"1\" d=\"");
	for (long i = 1; i * tl->tick_s < seconds(tl->span) - 1e-9; i++)
		fprintf(f, "M%.2f %.1fV%.1f", PLOT_X + PLOT_W * i * tl->tick_s /
			seconds(tl->span), y, y + h);
	fprintf(f, "\"/>\n");
	fprintf(f, "<text class=\"lane-label\" x=\"%.1f\" y=\"%.1f\" "
		"font-size=\"13\" fill=\"#222222\">%s</text>\n", LABEL_X,
		y + h / 2 + 4.5, label);
}

/* An axis value at the right edge of the label column. */
static void
value_label(FILE *f, double y, const char *text)
{
	fprintf(f, "<text class=\"value-label\" x=\"%.1f\" y=\"%.1f\" "
		"font-size=\"10\" text-anchor=\"end\" fill=\"" TEXT_DIM
		"\">%s</text>\n", PLOT_X - 5, y + 3.5, text);
}

static void
band_run(FILE *f, const struct timeline *tl, const struct swatch *sw,
	 const char *cls, sf_time_t from, sf_time_t to, double y, double h)
{
	double x0 = x_of(tl, from), x1 = x_of(tl, to);

	fprintf(f, "<rect class=\"run %s-%s\" x=\"%.2f\" y=\"%.1f\" "
		"width=\"%.2f\" height=\"%.1f\" fill=\"%s\" "
		"data-start=\"%.3f\" data-end=\"%.3f\"><title>%s %.1f-%.1f s"
		"</title></rect>\n", cls, sw->name, x0, y, x1 - x0, h,
		sw->fill, seconds(from), seconds(to), sw->name, seconds(from),
		seconds(to));
	/* Names where they fit: about 6.5 px a character at 11 px. */
	if (x1 - x0 >= strlen(sw->name) * 6.5 + 8)
		fprintf(f, "<text class=\"run-label\" x=\"%.1f\" y=\"%.1f\" "
			"font-size=\"11\" text-anchor=\"middle\" "
			"fill=\"%s\">%s</text>\n", (x0 + x1) / 2,
			y + h / 2 + 4, sw->text, sw->name);
}

static void
draw_band(FILE *f, const struct timeline *tl, const struct lane_output *lo,
	  enum band band, const char *id, double y, double h)
{
	static const struct {
		const char *cls;
		const char *label;
		const struct swatch *swatches;
	} bands[] = {
		[BAND_STATE] = { "state", "idle state", state_swatches },
		[BAND_DPMS] = { "dpms", "DPMS", dpms_swatches },
		[BAND_RECLOCK] = { "reclock", "GPU clocks", reclock_swatches },
	};
	const char *cls = bands[band].cls;

	fprintf(f, "<g id=\"");
	put_escaped(f, id);
	fprintf(f, "\" class=\"lane %s\">\n", cls);
	lane_frame(f, tl, y, h, bands[band].label);
	size_t run = 0;

	for (size_t i = 1; lo && i <= lo->n; i++) {
		unsigned v = band_value(&lo->samples[run], band);

		if (i < lo->n && band_value(&lo->samples[i], band) == v)
			continue;
		band_run(f, tl, &bands[band].swatches[v], cls,
			 sample_start(tl, lo, run), sample_end(tl, lo, i - 1),
			 y, h);
		run = i;
	}
	fprintf(f, "</g>\n");
}

/* A step line of `value` (0..max) with the area under it filled. */
static void
draw_steps(FILE *f, const struct timeline *tl, const struct lane_output *lo,
	   double (*value)(const struct sample *), double max, double y,
	   double h, const char *stroke, const char *fill)
{
	if (!lo->n)
		return;
	double base = y + h;
	double x = x_of(tl, sample_start(tl, lo, 0));

	for (int pass = 0; pass < 2; pass++) {
		double last = -1;

		/* First the filled area, then the line over it. */
		if (pass == 0)
			fprintf(f, "<path fill=\"%s\" stroke=\"none\" "
				"d=\"M%.2f %.1f", fill, x, base);
		else
			fprintf(f, "<path class=\"line\" fill=\"none\" "
				"stroke=\"%s\" stroke-width=\"2\" d=\"M%.2f "
				"%.1f", stroke, x,
				base - h * value(&lo->samples[0]) / max);
		for (size_t i = 0; i < lo->n; i++) {
			double v = value(&lo->samples[i]);

			if (v != last)
				fprintf(f, " H%.2f V%.1f",
					x_of(tl, sample_start(tl, lo, i)),
					base - h * v / max);
			last = v;
		}
		fprintf(f, " H%.2f", x_of(tl, sample_end(tl, lo, lo->n - 1)));
		if (pass == 0)
			fprintf(f, " V%.1f Z", base);
		fprintf(f, "\"/>\n");
	}
}

static double
refresh_hz(const struct sample *s)
{
	return s->refresh_mhz / 1000.0;
}

/* The light the panel gives: none while DPMS has it blanked. */
static double
light_percent(const struct sample *s)
{
	return s->dpms == SF_DPMS_ON ? s->backlight : 0;
}

static void
draw_refresh(FILE *f, const struct timeline *tl, const struct lane_output *lo,
	     const char *id, double y, double h)
{
	double max = 1;
	char text[32];

	for (size_t i = 0; i < lo->n; i++)
		if (refresh_hz(&lo->samples[i]) > max)
			max = refresh_hz(&lo->samples[i]);
	fprintf(f, "<g id=\"");
	put_escaped(f, id);
	fprintf(f, "\" class=\"lane refresh\" data-max-hz=\"%g\">\n", max);
	lane_frame(f, tl, y, h, "refresh (Hz)");
	snprintf(text, sizeof(text), "%g", max);
	value_label(f, y, text);
	value_label(f, y + h, "0");
	draw_steps(f, tl, lo, refresh_hz, max, y, h, REFRESH_STROKE,
		   REFRESH_FILL);

	/* Each stretch at one rate says which, where there is room. */
	size_t run = 0;

	for (size_t i = 1; i <= lo->n; i++) {
		double hz = refresh_hz(&lo->samples[run]);

		if (i < lo->n && refresh_hz(&lo->samples[i]) == hz)
			continue;
		double x0 = x_of(tl, sample_start(tl, lo, run));
		double x1 = x_of(tl, sample_end(tl, lo, i - 1));

		run = i;
		if (x1 - x0 < 48)
			continue;
		/* Above the line, or under it where it runs along the top. */
		double line_y = y + h - h * hz / max;
		double ty = line_y - 5 < y + 11 ? line_y + 14 : line_y - 5;

		fprintf(f, "<text class=\"refresh-label\" x=\"%.1f\" "
			"y=\"%.1f\" font-size=\"11\" fill=\"" REFRESH_STROKE
			"\">%g Hz</text>\n", x0 + 4, ty, hz);
	}
	fprintf(f, "</g>\n");
}

/* 1, 2 or 5 times a power of ten, at least v. */
static double
nice_ceiling(double v)
{
	double p = 1;

	if (v <= 1)
		return 1;
	while (p * 10 < v)
		p *= 10;
	if (v <= p)
		return p;
	if (v <= 2 * p)
		return 2 * p;
	if (v <= 5 * p)
		return 5 * p;
	return 10 * p;
}

struct bar {
	sf_time_t from, to;
	double repaints, suppressed;	/* per second */
};

static void
draw_repaints(FILE *f, const struct timeline *tl,
	      const struct lane_output *lo, const char *id, double y, double h)
{
	size_t per_bar = (lo->n + TARGET_BARS - 1) / TARGET_BARS;
	size_t min_per_bar = (size_t)((MIN_BAR + tl->step - 1) / tl->step);

	if (per_bar < min_per_bar)
		per_bar = min_per_bar;
	if (per_bar < 1)
		per_bar = 1;

	size_t n_bars = (lo->n + per_bar - 1) / per_bar;
	struct bar *bars = calloc(n_bars ? n_bars : 1, sizeof(*bars));
	double max = 0;
	uint64_t total_repaints = 0, total_suppressed = 0;

	for (size_t b = 0; bars && b < n_bars; b++) {
		size_t first = b * per_bar;
		size_t last = first + per_bar < lo->n ? first + per_bar - 1 :
							lo->n - 1;
		uint64_t rep = 0, sup = 0;

		for (size_t i = first; i <= last; i++) {
			rep += lo->samples[i].repaints;
			sup += lo->samples[i].suppressed;
		}
		total_repaints += rep;
		total_suppressed += sup;
		bars[b].from = sample_start(tl, lo, first);
		bars[b].to = lo->samples[last].time;
		double dt = seconds(bars[b].to - bars[b].from);

		bars[b].repaints = dt > 0 ? rep / dt : 0;
		bars[b].suppressed = dt > 0 ? sup / dt : 0;
		if (bars[b].repaints + bars[b].suppressed > max)
			max = bars[b].repaints + bars[b].suppressed;
	}
	max = nice_ceiling(max);

	char text[32];

	fprintf(f, "<g id=\"");
	put_escaped(f, id);
	fprintf(f, "\" class=\"lane repaints\" data-repaints=\"%llu\" "
		"data-suppressed=\"%llu\" data-max-per-second=\"%g\">\n",
		(unsigned long long)total_repaints,
		(unsigned long long)total_suppressed, max);
	lane_frame(f, tl, y, h, "repaints /s");
	snprintf(text, sizeof(text), "%g", max);
	value_label(f, y, text);
	value_label(f, y + h, "0");
	for (size_t b = 0; bars && b < n_bars; b++) {
		double x0 = x_of(tl, bars[b].from), x1 = x_of(tl, bars[b].to);
		double w = x1 - x0 > 2 ? x1 - x0 - 0.6 : x1 - x0;
		double hr = h * bars[b].repaints / max;
		double hs = h * bars[b].suppressed / max;

		if (hr > 0)
			fprintf(f, "<rect class=\"bar repaints\" x=\"%.2f\" "
				"y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
				"fill=\"" REPAINT_FILL "\" data-time=\"%.3f\" "
				"data-per-second=\"%.2f\"/>\n", x0, y + h - hr,
				w, hr, seconds(bars[b].from),
				bars[b].repaints);
		if (hs > 0)
			fprintf(f, "<rect class=\"bar suppressed\" x=\"%.2f\" "
				"y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
				"fill=\"" SUPPRESSED_FILL "\" data-time=\"%.3f\" "
				"data-per-second=\"%.2f\"/>\n", x0,
				y + h - hr - hs, w, hs, seconds(bars[b].from),
				bars[b].suppressed);
	}
	fprintf(f, "</g>\n");
	free(bars);
}

static void
draw_backlight(FILE *f, const struct timeline *tl,
	       const struct lane_output *lo, const char *id, double y,
	       double h)
{
	fprintf(f, "<g id=\"");
	put_escaped(f, id);
	fprintf(f, "\" class=\"lane backlight\">\n");
	lane_frame(f, tl, y, h, "backlight (%)");
	value_label(f, y, "100");
	value_label(f, y + h, "0");
	draw_steps(f, tl, lo, light_percent, 100, y, h, BACKLIGHT_STROKE,
		   BACKLIGHT_FILL);
	fprintf(f, "</g>\n");
}

static void
draw_inputs(FILE *f, const struct timeline *tl, double y, double row_h)
{
	/* Pointer motion comes in floods, keys one by one: a row each. */
	static const enum sf_input_kind rows[SF_INPUT_KIND_COUNT] = {
		SF_INPUT_POINTER, SF_INPUT_KEY, SF_INPUT_BUTTON,
		SF_INPUT_TOUCH,
	};
	double h = row_h * SF_INPUT_KIND_COUNT;

	fprintf(f, "<g id=\"inputs\" class=\"lane inputs\" "
		"data-count=\"%zu\">\n", tl->n_marks);
	lane_frame(f, tl, y, h, "input");
	for (int r = 0; r < SF_INPUT_KIND_COUNT; r++)
		fprintf(f, "<text class=\"value-label\" x=\"%.1f\" y=\"%.1f\" "
			"font-size=\"9\" text-anchor=\"end\" fill=\""
			TEXT_DIM "\">%s</text>\n", PLOT_X - 5,
			y + row_h * r + row_h / 2 + 3,
			input_swatches[rows[r]].name);
	for (size_t i = 0; i < tl->n_marks; i++) {
		const struct mark *m = &tl->marks[i];
		int r = 0;

		while (r < SF_INPUT_KIND_COUNT - 1 && rows[r] != m->kind)
			r++;
		double x = x_of(tl, m->time);

		fprintf(f, "<line class=\"input-mark input-%s\" x1=\"%.2f\" "
			"y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"1.2\" data-time=\"%.3f\" "
			"data-kind=\"%s\"/>\n", input_swatches[m->kind].name,
			x, y + row_h * r + 1, x, y + row_h * (r + 1) - 1,
			input_swatches[m->kind].fill, seconds(m->time),
			input_swatches[m->kind].name);
	}
	fprintf(f, "</g>\n");
}

static void
format_time(char *buf, size_t size, double s, double span_s)
{
	long whole = lround(s);

	if (span_s < 120)
		snprintf(buf, size, "%g s", s);
	else if (span_s < 3 * 3600)
		snprintf(buf, size, "%ld:%02ld", whole / 60, whole % 60);
	else
		snprintf(buf, size, "%ld:%02ld h", whole / 3600,
			 whole / 60 % 60);
}

/* The time axis under the lanes. */
static void
draw_time_axis(FILE *f, const struct timeline *tl, double axis_y)
{
	double span_s = seconds(tl->span);
	double step = tl->tick_s;

	fprintf(f, "<g id=\"time-axis\" class=\"axis\" data-end=\"%.3f\" "
		"data-span=\"%.3f\">\n", seconds(tl->end), span_s);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"" AXIS_STROKE "\" stroke-width=\"1\"/>\n", PLOT_X,
		axis_y, PLOT_X + PLOT_W, axis_y);
	for (long i = 0; i * step <= span_s + 1e-9; i++) {
		double s = i * step;
		double x = PLOT_X + PLOT_W * s / span_s;
		char text[32];

		format_time(text, sizeof(text), s, span_s);
		fprintf(f, "<line class=\"tick\" x1=\"%.2f\" y1=\"%.1f\" "
			"x2=\"%.2f\" y2=\"%.1f\" stroke=\"" AXIS_STROKE "\" "
			"data-time=\"%.3f\"/>\n", x, axis_y, x, axis_y + 5, s);
		fprintf(f, "<text class=\"tick-label\" x=\"%.2f\" y=\"%.1f\" "
			"font-size=\"11\" text-anchor=\"middle\" fill=\"#222222\" "
			"data-time=\"%.3f\">%s</text>\n", x, axis_y + 18, s,
			text);
	}
	fprintf(f, "<text class=\"axis-title\" x=\"%.1f\" y=\"%.1f\" "
		"font-size=\"12\" text-anchor=\"middle\" fill=\"" TEXT_DIM
		"\">time since the trace started (%s); the trace ends at "
		"%.3f s</text>\n", PLOT_X + PLOT_W / 2, axis_y + 36,
		span_s < 120 ? "seconds" : span_s < 3 * 3600 ? "min:s" :
		"h:min", seconds(tl->end));
	fprintf(f, "</g>\n");
}

struct legend {
	FILE *f;
	double x, y;
};

/* One swatch (a square, or a line when `line`) and its text; wraps. */
static void
legend_item(struct legend *lg, const char *fill, const char *text,
	    bool line)
{
	double w = 22 + strlen(text) * 6.6 + 14;

	if (lg->x + w > PLOT_X + PLOT_W) {
		lg->x = PLOT_X;
		lg->y += 20;
	}
	if (line)
		fprintf(lg->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>\n",
			lg->x, lg->y + 7, lg->x + 16, lg->y + 7, fill);
	else
		fprintf(lg->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" "
			"height=\"14\" fill=\"%s\" stroke=\"#888888\" "
			"stroke-width=\"0.5\"/>\n", lg->x, lg->y, fill);
	fprintf(lg->f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" "
		"fill=\"#222222\">%s</text>\n", lg->x + 22, lg->y + 11.5, text);
	lg->x += w;
}

/* A row of the legend with its heading in the label column. */
static void
legend_row(struct legend *lg, const char *heading)
{
	if (lg->x > PLOT_X)
		lg->y += 22;
	lg->x = PLOT_X;
	fprintf(lg->f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" "
		"font-weight=\"bold\" fill=\"#222222\">%s</text>\n", LABEL_X,
		lg->y + 11.5, heading);
}

static void
draw_legend(FILE *f, double y)
{
	struct legend lg = { f, PLOT_X, y };

	fprintf(f, "<g id=\"legend\">\n");
	legend_row(&lg, "idle state");
	for (int i = 0; i < SF_STATE_COUNT; i++)
		legend_item(&lg, state_swatches[i].fill,
			    state_swatches[i].name, false);
	legend_row(&lg, "per output");
	legend_item(&lg, REFRESH_STROKE, "refresh rate", true);
	legend_item(&lg, REPAINT_FILL, "repaints", false);
	legend_item(&lg, SUPPRESSED_FILL, "suppressed repaints", false);
	legend_item(&lg, BACKLIGHT_STROKE, "backlight", true);
	legend_row(&lg, "DPMS");
	for (size_t i = 0; i < 3; i++)
		legend_item(&lg, dpms_swatches[i].fill, dpms_swatches[i].name,
			    false);
	legend_row(&lg, "GPU clocks");
	for (size_t i = 0; i < 2; i++)
		legend_item(&lg, reclock_swatches[i].fill,
			    reclock_swatches[i].name, false);
	legend_row(&lg, "input");
	for (int i = 0; i < SF_INPUT_KIND_COUNT; i++)
		legend_item(&lg, input_swatches[i].fill,
			    input_swatches[i].name, true);
	fprintf(f, "</g>\n");
}

/* Heights of the parts, top to bottom. */
#define HEAD_H 84.0
#define OUTPUT_NAME_H 24.0
#define REFRESH_H 64.0
#define STATE_H 26.0
#define REPAINTS_H 64.0
#define DPMS_H 18.0
#define BACKLIGHT_H 30.0
#define GAP 8.0
#define SECTION_GAP 18.0
#define OUTPUT_H (OUTPUT_NAME_H + REFRESH_H + STATE_H + REPAINTS_H + \
		  DPMS_H + BACKLIGHT_H + 4 * GAP + SECTION_GAP)
#define RECLOCK_H 18.0
#define INPUT_ROW_H 11.0
#define GLOBAL_H (RECLOCK_H + GAP + 4 * INPUT_ROW_H + 8)
#define AXIS_H 50.0
#define LEGEND_H (5 * 22.0 + 16)

static void
draw_state(FILE *f, const struct timeline *tl, const struct lane_output *lo,
	   const char *id, double y, double h)
{
	draw_band(f, tl, lo, BAND_STATE, id, y, h);
}

static void
draw_dpms(FILE *f, const struct timeline *tl, const struct lane_output *lo,
	  const char *id, double y, double h)
{
	draw_band(f, tl, lo, BAND_DPMS, id, y, h);
}

/* An output's lanes, top to bottom; ids are ID-NAME. */
static const struct {
	const char *id;
	double height;
	void (*draw)(FILE *f, const struct timeline *tl,
		     const struct lane_output *lo, const char *id, double y,
		     double h);
} output_lanes[] = {
	{ "refresh", REFRESH_H, draw_refresh },
	{ "state", STATE_H, draw_state },
	{ "repaints", REPAINTS_H, draw_repaints },
	{ "dpms", DPMS_H, draw_dpms },
	{ "backlight", BACKLIGHT_H, draw_backlight },
};

static void
draw_output(FILE *f, const struct timeline *tl, const struct lane_output *lo,
	    double y)
{
	uint64_t repaints = 0, suppressed = 0;
	char id[SF_TRACE_MAX_NAME + 16];

	for (size_t i = 0; i < lo->n; i++) {
		repaints += lo->samples[i].repaints;
		suppressed += lo->samples[i].suppressed;
	}
	fprintf(f, "<g id=\"output-");
	put_escaped(f, lo->name);
	fprintf(f, "\" class=\"output\" data-name=\"");
	put_escaped(f, lo->name);
	fprintf(f, "\">\n<text class=\"output-name\" x=\"%.1f\" y=\"%.1f\" "
		"font-size=\"15\" font-weight=\"bold\" fill=\"#111111\">",
		LABEL_X, y + 16);
	put_escaped(f, lo->name);
	fprintf(f, "</text>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" "
		"fill=\"" TEXT_DIM "\">%llu repaints, %llu suppressed",
		PLOT_X, y + 16, (unsigned long long)repaints,
		(unsigned long long)suppressed);
	if (repaints + suppressed)
		fprintf(f, " (%.0f%% of the attempts)",
			100.0 * suppressed / (repaints + suppressed));
	fprintf(f, "</text>\n");
	y += OUTPUT_NAME_H;
	for (size_t i = 0; i < sizeof(output_lanes) / sizeof(output_lanes[0]);
	     i++) {
		snprintf(id, sizeof(id), "%s-%s", output_lanes[i].id,
			 lo->name);
		output_lanes[i].draw(f, tl, lo, id, y, output_lanes[i].height);
		y += output_lanes[i].height + GAP;
	}
	fprintf(f, "</g>\n");
}

void
sf_ctl_timeline_render(FILE *f, const struct timeline *tl)
{
	double height = HEAD_H + tl->n_outputs * OUTPUT_H + GLOBAL_H +
			AXIS_H + LEGEND_H;
	const char *title = tl->title ? tl->title : "stillframe timeline";

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		"font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n"
		"<title>", WIDTH, height, WIDTH, height);
	put_escaped(f, title);
	fprintf(f, "</title>\n<desc>What stillframe decided while "
		"replaying the trace ");
	put_escaped(f, tl->trace_path);
	fprintf(f, " through its policy core: refresh rate, idle state, "
		"repaints, DPMS, backlight, GPU clocks and input over "
		"time.</desc>\n");
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%.0f\" "
		"fill=\"#ffffff\"/>\n", WIDTH, height);
	fprintf(f, "<text id=\"title\" x=\"%.1f\" y=\"30\" font-size=\"21\" "
		"font-weight=\"bold\" fill=\"#111111\">", LABEL_X);
	put_escaped(f, title);
	fprintf(f, "</text>\n<text id=\"subtitle\" x=\"%.1f\" y=\"52\" "
		"font-size=\"13\" fill=\"" TEXT_DIM "\">", LABEL_X);
	put_escaped(f, tl->trace_path);
	fprintf(f, ": %.1f s, %zu output%s, %zu input events, replayed "
		"through the stillframe core</text>\n", seconds(tl->end),
		tl->n_outputs, tl->n_outputs == 1 ? "" : "s", tl->n_marks);
	if (tl->energy.baseline_j > 0)
		fprintf(f, "<text id=\"energy\" x=\"%.1f\" y=\"70\" "
			"font-size=\"13\" fill=\"" TEXT_DIM "\">energy "
			"model estimate: %.2f W on average, %.2f W without "
			"stillframe (%.0f%% less)</text>\n", LABEL_X,
			tl->energy.actual_avg_w, tl->energy.baseline_avg_w,
			100.0 * (1 - tl->energy.actual_j /
				 tl->energy.baseline_j));

	double y = HEAD_H;

	for (size_t i = 0; i < tl->n_outputs; i++) {
		draw_output(f, tl, &tl->outputs[i], y);
		y += OUTPUT_H;
	}
	draw_band(f, tl, tl->n_outputs ? &tl->outputs[0] : NULL,
		  BAND_RECLOCK, "reclock", y, RECLOCK_H);
	y += RECLOCK_H + GAP;
	draw_inputs(f, tl, y, INPUT_ROW_H);
	y += 4 * INPUT_ROW_H + 8;
	draw_time_axis(f, tl, y);
	draw_legend(f, y + AXIS_H);
	fprintf(f, "</svg>\n");
}
