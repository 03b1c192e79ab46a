/* SPDX-License-Identifier: MIT */
#ifndef SF_CLASSIFIER_H
#define SF_CLASSIFIER_H

#include "sf-activity.h"

/*
 * The blink/tick classifier.  Stateless: it looks at a surface's commit
 * ring, the last user input and the time, and says what the surface is
 * doing.  The cost is bounded by SF_ACTIVITY_RING_SIZE.
 */

struct sf_classifier_params {
	/* A surface is static once its newest commit is older than this
	 * many of its own periods (or than `inactive` if it has none). */
	sf_time_t inactive;		/* default 1200 ms, as Android */
	/* Commits this close after input are interactive. */
	sf_time_t input_window;		/* default 500 ms */
	/* Blink: full on+off period within [blink_min, blink_max]. */
	sf_time_t blink_min_period;	/* default 200 ms */
	sf_time_t blink_max_period;	/* default 2000 ms */
	/* "Small" damage: at most this fraction of the surface ... */
	double small_fraction;		/* default 0.05 */
	/* ... or at most this many pixels, whichever is larger. */
	uint32_t small_pixels;		/* default 64 * 64 */
	/* Ticks may be larger: an analog clock's second hand redraws
	 * tiles along both its old and its new position, a good part of
	 * a small clock.  At most this fraction (or small_pixels). */
	double tick_fraction;		/* default 0.5 */
	/* Frequent: intervals below this make a surface animating. */
	sf_time_t frequent_interval;	/* default 101 ms, as Android */
	/* Video: damage at least this fraction of the surface. */
	double video_min_fraction;	/* default 0.25 */
	/* Relative interval tolerance for "regular". */
	double tolerance;		/* default 0.15 */
};

struct sf_classification {
	enum sf_class cls;
	/* ANIMATING, VIDEO: measured rate, snapped to a known video rate
	 * when close, in mHz; 0 until SF_CLASSIFIER_RATE_MIN_INTERVALS
	 * intervals have measured it.  0 otherwise. */
	uint32_t rate_mhz;
	/* BLINKING, TICKING: full period (on+off for blinks). 0 otherwise. */
	sf_time_t period;
};

void
sf_classifier_params_init_default(struct sf_classifier_params *params);

/* Commits needed before anything but STATIC/INTERACTIVE is reported. */
#define SF_CLASSIFIER_MIN_COMMITS 4

/* Frame intervals needed before a rate is reported.  The first frames
 * of a player come in a burst: three of mpv's read 73.9 fps for a
 * 60 fps video, and the output went to 75 Hz and back two seconds
 * later.  Twelve are 200 ms at 60 fps. */
#define SF_CLASSIFIER_RATE_MIN_INTERVALS 12

void
sf_classify(const struct sf_classifier_params *params,
	    const struct sf_surface_activity *activity,
	    sf_time_t last_input, sf_time_t now,
	    struct sf_classification *out);

/*
 * Whether the newest commit still fits `cls` as far as its size and
 * cause go, leaving timing aside: small for BLINKING and TICKING, and
 * for every class not following input.  For a surface whose frame
 * callbacks are held, whose commits come when they are released rather
 * than on its own cadence.
 */
bool
sf_classifier_commit_fits(const struct sf_classifier_params *params,
			  const struct sf_surface_activity *activity,
			  sf_time_t last_input,
			  const struct sf_classification *cls);

#endif /* SF_CLASSIFIER_H */
