/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stddef.h>

#include "sf-classifier.h"

/*
 * The classifier works on the newest run of commits that fit a pattern,
 * not on the whole ring, so that old history (a typing burst before the
 * cursor started blinking) never delays detection, and a pattern is
 * recognised after SF_CLASSIFIER_MIN_COMMITS commits: three intervals,
 * which is within three periods for every pattern below.
 *
 * Order of the rules:
 *   1. frequent updates: ANIMATING or VIDEO by damaged area, unless they
 *      follow input (scrolling, dragging, key repeat: INTERACTIVE);
 *   2. BLINKING: small, same extents, regular full period (on + off) in
 *      [blink_min, blink_max], content alternating between two states;
 *   3. TICKING: small, single intervals of 1 s or 0.5 s, content that
 *      keeps changing (a seconds display, a colon drawn with the
 *      seconds);
 *   4. the newest commit follows input: INTERACTIVE;
 *   5. anything else, including sporadic updates, is STATIC.
 * Without pixel hashes a 50% duty blink at a 0.5 s or 1 s interval cannot
 * be told from a tick; it is classed TICKING, the class with the shorter
 * staleness, so the screen is never more out of date than a tick allows.
 */

/* Enough for every pattern: the ring holds this many commits. */
#define MAX_RUN SF_ACTIVITY_RING_SIZE

/* Rates a measured rate snaps to, in mHz: film, PAL, NTSC and the usual
 * panel rates.  Snapping keeps a vote stable against timer jitter. */
static const uint32_t known_rates_mhz[] = {
	23976, 24000, 25000, 29970, 30000, 48000, 50000,
	59940, 60000, 72000, 90000, 120000, 144000,
};
#define SNAP_TOLERANCE 0.01
/* A run measures its rate no better than its intervals' jitter over
 * its span: mpv's first frames of a 60 fps video on Xorg come 10 to
 * 23 ms apart, and twelve of them read 63.1 fps, which no 60 Hz mode
 * fits.  The tolerance grows with that uncertainty, up to this. */
#define SNAP_TOLERANCE_MAX 0.08

/* Tick cadences. */
static const sf_time_t tick_intervals[] = {
	SF_MSEC(1000),
	SF_MSEC(500),
};

void
sf_classifier_params_init_default(struct sf_classifier_params *params)
{
	*params = (struct sf_classifier_params){
		.inactive = SF_MSEC(1200),
		.input_window = SF_MSEC(500),
		.blink_min_period = SF_MSEC(200),
		.blink_max_period = SF_MSEC(2000),
		.small_fraction = 0.05,
		.small_pixels = 64 * 64,
		.tick_fraction = 0.5,
		.frequent_interval = SF_MSEC(101),
		.video_min_fraction = 0.25,
		.tolerance = 0.15,
	};
}

/* The commits with damage, newest first.  Empty commits change nothing
 * on screen, so they neither make nor break a pattern. */
struct history {
	const struct sf_commit_record *rec[MAX_RUN];
	uint32_t n;
};

static void
history_init(struct history *h, const struct sf_surface_activity *activity)
{
	/* The ring read in place, newest first (sf_surface_activity_get):
	 * this runs on every commit. */
	uint32_t newest = activity->head - 1;

	h->n = 0;
	for (uint32_t age = 0; age < activity->len; age++) {
		const struct sf_commit_record *r =
			&activity->ring[(newest - age) % SF_ACTIVITY_RING_SIZE];
		/* Only what changes the screen: an empty commit, or one
		 * whose pixels are as before (a toolkit that commits its
		 * window twice in a row for each blink), is no frame. */
		if (r->kind == SF_COMMIT_CHANGED)
			h->rec[h->n++] = r;
	}
}

/* Interval between commit i and the older commit i + 1. */
static sf_time_t
interval(const struct history *h, uint32_t i)
{
	return h->rec[i]->time - h->rec[i + 1]->time;
}

static bool
within(double value, double target, double tolerance)
{
	return fabs(value - target) <= tolerance * target;
}

/* At most `fraction` of the surface, or small_pixels if that is more. */
static bool
area_within(const struct sf_classifier_params *params,
	    const struct sf_surface_activity *activity,
	    const struct sf_commit_record *r, double fraction)
{
	double limit = fraction * (double)activity->width *
		       (double)activity->height;
	if (limit < params->small_pixels)
		limit = params->small_pixels;
	return r->area <= limit;
}

static bool
is_small(const struct sf_classifier_params *params,
	 const struct sf_surface_activity *activity,
	 const struct sf_commit_record *r)
{
	return area_within(params, activity, r, params->small_fraction);
}

static bool
is_tick_sized(const struct sf_classifier_params *params,
	      const struct sf_surface_activity *activity,
	      const struct sf_commit_record *r)
{
	return area_within(params, activity, r, params->tick_fraction);
}

static bool
same_box(const struct sf_box *a, const struct sf_box *b)
{
	return a->x1 == b->x1 && a->y1 == b->y1 && a->x2 == b->x2 &&
	       a->y2 == b->y2;
}

static bool
same_extents(const struct sf_commit_record *a, const struct sf_commit_record *b)
{
	return same_box(&a->extents, &b->extents);
}

/* How many of the newest `n` commits in a row have their content known. */
static uint32_t
hashed_run(const struct history *h, uint32_t n)
{
	uint32_t i = 0;

	while (i < n && h->rec[i]->has_hash)
		i++;
	return i;
}

/* Two states taking turns: A B A B ... */
static bool
alternates(const struct history *h, uint32_t n)
{
	for (uint32_t i = 0; i + 1 < n; i++) {
		if (h->rec[i]->hash == h->rec[i + 1]->hash)
			return false;
		if (i + 2 < n && h->rec[i]->hash != h->rec[i + 2]->hash)
			return false;
	}
	return true;
}

/* Snaps to the nearest known rate within `tolerance` (at least
 * SNAP_TOLERANCE, at most SNAP_TOLERANCE_MAX). */
static uint32_t
snap_rate(double hz, double tolerance)
{
	double mhz = hz * 1000.0;
	uint32_t best = 0;

	if (tolerance < SNAP_TOLERANCE)
		tolerance = SNAP_TOLERANCE;
	if (tolerance > SNAP_TOLERANCE_MAX)
		tolerance = SNAP_TOLERANCE_MAX;
	double best_err = tolerance;
	/* Only a rate within the tolerance of its own value can match:
	 * |mhz - k| <= tolerance * k. */
	double lowest = mhz / (1 + tolerance);
	double highest = mhz / (1 - tolerance);

	for (size_t i = 0; i < SF_ARRAY_LENGTH(known_rates_mhz); i++) {
		if (known_rates_mhz[i] < lowest ||
		    known_rates_mhz[i] > highest)
			continue;
		double err = fabs(mhz - known_rates_mhz[i]) / known_rates_mhz[i];
		if (err <= best_err) {
			best_err = err;
			best = known_rates_mhz[i];
		}
	}
	if (best)
		return best;
	if (mhz >= UINT32_MAX)
		return UINT32_MAX;
	return (uint32_t)lround(mhz);
}

static bool
follows_input(const struct sf_classifier_params *params,
	      const struct sf_commit_record *newest, sf_time_t last_input)
{
	return last_input != 0 && newest->time >= last_input &&
	       newest->time - last_input <= params->input_window;
}

/* A gap of this many typical intervals or more held frames that never
 * came (dropped, or merged into the next one): 1.75 leaves the long
 * half of a 3:2 pulldown (1.5) a single frame. */
#define MISSED_FRAME_RATIO 1.75

/*
 * The frames the newest `run` intervals span.  Each interval is a frame,
 * except a gap of MISSED_FRAME_RATIO typical (median) intervals or more,
 * which counts the frames that fit in it: one dropped frame among 16
 * would otherwise read a steady 60 fps as 56.3, a rate no mode fits.
 */
static double
frames_in_run(const struct history *h, uint32_t run, sf_time_t shortest,
	      sf_time_t longest)
{
	sf_time_t sorted[MAX_RUN];

	if (run == 0)
		return 0;
	/* The median is at least the shortest interval: no gap can be a
	 * missed frame, and each interval is one (the steady case, on
	 * every commit of an animation). */
	if ((double)longest < MISSED_FRAME_RATIO * (double)shortest)
		return run;
	for (uint32_t i = 0; i < run; i++) {
		sf_time_t d = interval(h, i);
		uint32_t j = i;
		for (; j > 0 && sorted[j - 1] > d; j--)
			sorted[j] = sorted[j - 1];
		sorted[j] = d;
	}
	double median = (double)sorted[run / 2];
	double frames = 0;
	for (uint32_t i = 0; i < run; i++) {
		double ratio = median > 0 ? (double)interval(h, i) / median : 1;
		frames += ratio >= MISSED_FRAME_RATIO ? round(ratio) : 1;
	}
	return frames;
}

/* Rule 1.  Returns false when the newest commits are not frequent. */
static bool
classify_frequent(const struct sf_classifier_params *params,
		  const struct sf_surface_activity *activity,
		  const struct history *h, struct sf_classification *out)
{
	/* The newest three intervals decide whether updates are frequent
	 * now; a single late frame among them does not. */
	sf_time_t d[3] = { interval(h, 0), interval(h, 1), interval(h, 2) };
	sf_time_t lo = d[0] < d[1] ? d[0] : d[1];
	sf_time_t hi = d[0] < d[1] ? d[1] : d[0];
	sf_time_t median = d[2] < lo ? lo : d[2] > hi ? hi : d[2];
	if (median >= params->frequent_interval)
		return false;

	/* The run goes back while frames keep coming; a dropped frame or
	 * two (up to twice the frequent interval) does not end it. */
	uint32_t run = 0;
	sf_time_t span = 0, shortest = 0, longest = 0;
	double area = 0;
	while (run + 1 < h->n &&
	       interval(h, run) <= 2 * params->frequent_interval) {
		sf_time_t gap = interval(h, run);
		if (run == 0 || gap < shortest)
			shortest = gap;
		if (gap > longest)
			longest = gap;
		span += gap;
		area += h->rec[run]->area;
		run++;
	}
	double surface = (double)activity->width * (double)activity->height;
	double fraction = surface > 0 ? area / run / surface : 0;
	double hz = span > 0 ? frames_in_run(h, run, shortest, longest) *
				       SF_NSEC_PER_SEC / (double)span : 0;

	out->cls = fraction >= params->video_min_fraction ? SF_CLASS_VIDEO :
							    SF_CLASS_ANIMATING;
	/* Only the run's ends set its span: each end is off by up to
	 * half the intervals' spread. */
	double uncertainty = span > 0 ? (double)(longest - shortest) /
						(double)span : 0;
	out->rate_mhz = run >= SF_CLASSIFIER_RATE_MIN_INTERVALS ?
				snap_rate(hz, uncertainty) : 0;
	return true;
}

/* Rule 2.  Returns the full period, or 0 when the commits do not blink;
 * *known_commits is how many of the newest blinking commits have their
 * content known (hashed). */
static sf_time_t
blink_period(const struct sf_classifier_params *params,
	     const struct sf_surface_activity *activity,
	     const struct history *h, uint32_t *known_commits)
{
	const struct sf_commit_record *newest = h->rec[0];
	uint32_t n = 0;

	while (n < h->n && same_extents(h->rec[n], newest) &&
	       is_small(params, activity, h->rec[n]))
		n++;
	if (n < SF_CLASSIFIER_MIN_COMMITS)
		return 0;

	/* On and off may differ (xterm: 600 ms on, 300 ms off): the full
	 * period, two intervals, is what stays regular. */
	sf_time_t first = interval(h, 0) + interval(h, 1);
	if (first < params->blink_min_period ||
	    first > params->blink_max_period)
		return 0;
	uint32_t run = 2;		/* pair sums checked so far: 1 */
	sf_time_t sum = first;
	uint32_t pairs = 1;
	while (run + 1 < n) {
		sf_time_t p = interval(h, run - 1) + interval(h, run);
		if (!within((double)p, (double)first, params->tolerance))
			break;
		sum += p;
		pairs++;
		run++;
	}
	uint32_t commits = run + 1;
	if (commits < SF_CLASSIFIER_MIN_COMMITS)
		return 0;

	/* Judged by the newest commits whose content is known, when there
	 * are enough of them: an older one whose pixels were not read (the
	 * caret's first redraw after a burst of output, when the window
	 * was animating and read only now and then) says nothing either
	 * way, and would keep the blink's states unknown until it left
	 * the history, some six seconds of xterm's blinks. */
	uint32_t known = hashed_run(h, commits);
	if (known >= SF_CLASSIFIER_MIN_COMMITS) {
		if (!alternates(h, known))
			return 0;
	} else {
		/* Unknown content: a regular single interval at a tick
		 * cadence is left to the tick rule (see the top). */
		for (size_t i = 0; i < SF_ARRAY_LENGTH(tick_intervals); i++) {
			double t = (double)tick_intervals[i];
			if (within((double)interval(h, 0), t, params->tolerance) &&
			    within((double)interval(h, 1), t, params->tolerance))
				return 0;
		}
	}
	*known_commits = known;
	return sum / pairs;
}

/* Which of the two states of the newest `commits` blinking commits, all
 * hashed (blink_period says why only those), shows the caret
 * (sf-classifier.h says why by ink first, then by time). */
static void
learn_phases(const struct history *h, uint32_t commits,
	     struct sf_classification *out)
{
	const struct sf_commit_record *a = h->rec[0], *b = h->rec[1];
	bool a_shown;

	if (commits < SF_CLASSIFIER_MIN_COMMITS)
		return;
	if (a->ink != b->ink) {
		a_shown = a->ink > b->ink;
	} else {
		/* Commit i's state lasts until commit i - 1: the even
		 * ones are a's, the odd ones b's.  Pairs only, so that
		 * both sides have as many. */
		sf_time_t a_time = 0, b_time = 0;
		uint32_t i = 1;
		for (; i + 1 < commits; i += 2) {
			b_time += interval(h, i - 1);
			a_time += interval(h, i);
		}
		if (i == 1)
			return;
		if ((double)a_time >= SF_CLASSIFIER_DUTY_RATIO * (double)b_time)
			a_shown = true;
		else if ((double)b_time >=
			 SF_CLASSIFIER_DUTY_RATIO * (double)a_time)
			a_shown = false;
		else
			return;
	}
	out->phases_known = true;
	out->shown_hash = a_shown ? a->hash : b->hash;
	out->hidden_hash = a_shown ? b->hash : a->hash;
	out->blink_extents = a->extents;
}

/* The newest commits redraw one place in two states taking turns: a
 * blink starting (again), whatever came before it. */
static bool
blink_starting(const struct history *h)
{
	const uint32_t n = SF_CLASSIFIER_MIN_COMMITS - 1;

	if (h->n < n || hashed_run(h, n) < n)
		return false;
	for (uint32_t i = 1; i < n; i++)
		if (!same_extents(h->rec[i], h->rec[0]))
			return false;
	return alternates(h, n);
}

/* Rule 3.  Returns the tick interval, or 0.  Not while a blink starts
 * again: a line printed into a blinking terminal half a second after a
 * blink, and the caret blinking on the row below it, would otherwise
 * read as ticks (mixed content, regular intervals), and the next line
 * would be held as one. */
static sf_time_t
tick_period(const struct sf_classifier_params *params,
	    const struct sf_surface_activity *activity,
	    const struct history *h)
{
	if (blink_starting(h))
		return 0;
	for (size_t t = 0; t < SF_ARRAY_LENGTH(tick_intervals); t++) {
		double target = (double)tick_intervals[t];
		uint32_t run = 0;
		sf_time_t span = 0;
		/* Both ends of every interval are ticks: a large first
		 * frame a second before the first tick is not one. */
		while (run + 1 < h->n &&
		       is_tick_sized(params, activity, h->rec[run]) &&
		       is_tick_sized(params, activity, h->rec[run + 1]) &&
		       within((double)interval(h, run), target,
			      params->tolerance)) {
			span += interval(h, run);
			run++;
		}
		uint32_t commits = run + 1;
		if (commits < SF_CLASSIFIER_MIN_COMMITS)
			continue;
		if (!is_tick_sized(params, activity, h->rec[run]))
			continue;
		if (hashed_run(h, commits) == commits &&
		    alternates(h, commits))
			continue;	/* a blink at another period */
		return span / run;
	}
	return 0;
}

void
sf_classify(const struct sf_classifier_params *params,
	    const struct sf_surface_activity *activity,
	    sf_time_t last_input, sf_time_t now,
	    struct sf_classification *out)
{
	struct history h;
	sf_time_t period;
	uint32_t known_commits = 0;

	*out = (struct sf_classification){ .cls = SF_CLASS_STATIC };
	history_init(&h, activity);
	if (h.n == 0)
		return;

	const struct sf_commit_record *newest = h.rec[0];
	bool input = follows_input(params, newest, last_input);

	if (h.n < SF_CLASSIFIER_MIN_COMMITS) {
		if (input)
			out->cls = SF_CLASS_INTERACTIVE;
	} else if (classify_frequent(params, activity, &h, out)) {
		if (input)
			*out = (struct sf_classification){
				.cls = SF_CLASS_INTERACTIVE,
			};
	} else if ((period = blink_period(params, activity, &h,
					  &known_commits)) > 0) {
		out->cls = SF_CLASS_BLINKING;
		out->period = period;
		learn_phases(&h, known_commits, out);
	} else if ((period = tick_period(params, activity, &h)) > 0) {
		out->cls = SF_CLASS_TICKING;
		out->period = period;
	} else if (input) {
		out->cls = SF_CLASS_INTERACTIVE;
	}

	/* Quiet for longer than the pattern allows: it has stopped. */
	sf_time_t hold = params->inactive;
	if (2 * out->period > hold)
		hold = 2 * out->period;
	if (now - newest->time > hold)
		*out = (struct sf_classification){ .cls = SF_CLASS_STATIC };
}

enum sf_blink_phase
sf_classifier_blink_phase(const struct sf_classification *cls,
			  const struct sf_commit_record *commit)
{
	if (cls->cls != SF_CLASS_BLINKING || !cls->phases_known || !commit ||
	    !commit->has_hash ||
	    !same_box(&commit->extents, &cls->blink_extents))
		return SF_BLINK_PHASE_UNKNOWN;
	if (commit->hash == cls->shown_hash)
		return SF_BLINK_PHASE_SHOWN;
	if (commit->hash == cls->hidden_hash)
		return SF_BLINK_PHASE_HIDDEN;
	return SF_BLINK_PHASE_UNKNOWN;
}

bool
sf_classifier_commit_fits(const struct sf_classifier_params *params,
			  const struct sf_surface_activity *activity,
			  sf_time_t last_input,
			  const struct sf_classification *cls)
{
	const struct sf_commit_record *newest =
		sf_surface_activity_get(activity, 0);

	if (!newest || follows_input(params, newest, last_input))
		return false;
	switch (cls->cls) {
	case SF_CLASS_BLINKING:
		return is_small(params, activity, newest);
	case SF_CLASS_TICKING:
		return is_tick_sized(params, activity, newest);
	case SF_CLASS_ANIMATING:
	case SF_CLASS_VIDEO:
		return true;
	case SF_CLASS_STATIC:
	case SF_CLASS_INTERACTIVE:
	case SF_CLASS_COUNT:
		break;
	}
	return false;
}
