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
 * Which of its two states a blinking surface's commit shows.  The
 * classification learns it from the states' content, and only where
 * the content says it:
 *   1. ink (struct sf_tile_change): the state with more pixels unlike
 *      their surroundings shows the caret.  A caret, a block cursor or
 *      a blinking dot is drawn over a background and erased to it, so
 *      this holds whatever the colours and whatever the toolkit's
 *      timing, and it needs no history: the states are told apart from
 *      their first alternation on, before any input, also for a window
 *      nobody has typed in yet (a dialog's entry focused on map).
 *   2. equal ink (a block cursor exactly over a tile, or a trace
 *      without ink): the state shown longer is the caret's, as
 *      toolkits that blink unevenly show it longer than they hide it
 *      (xterm 600/300 ms, GTK 800/400 ms), by SF_CLASSIFIER_DUTY_RATIO
 *      at least, over every on/off pair of the run.
 *   3. otherwise (even ink and timing, no hashes): UNKNOWN, and the
 *      repaint policy treats the blink as unknown content.
 * The states are learnt from the newest commits of the run whose pixels
 * were read, SF_CLASSIFIER_MIN_COMMITS of them at least: an older one
 * without (the caret's first redraw after a burst of output, read when
 * the window was animating) neither tells them nor hides them.
 * A commit whose hash or place is neither state's is UNKNOWN too: it is
 * something else than the blink.  Not the state seen after the user
 * typed: typing moves the caret and redraws text, so that commit
 * shares neither the blink's tiles nor its hashes.
 */
#define SF_CLASSIFIER_DUTY_RATIO 1.3

enum sf_blink_phase
sf_classifier_blink_phase(const struct sf_classification *cls,
			  const struct sf_commit_record *commit);

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
