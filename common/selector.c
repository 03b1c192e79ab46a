/* SPDX-License-Identifier: MIT */
#include <math.h>
#include "sf-selector.h"

/*
 * The selector is a pure function of its input, the time and the time of
 * the last switch: no clock, no allocation, O(modes * votes).
 *
 * Every rule and every vote turns into a requirement, "at least this
 * candidate"; the strongest requirement wins.  Votes with a content rate
 * then choose the cadence among the candidates at or above it.  Only a
 * drop waits for the dwell; a raise is never held back, except one made
 * for a measured content rate (see sf-selector.h).
 *
 * Two modes bound the choice: the native one, the user's (what the
 * output ran when stillframe took it), which nothing measured, no input
 * and no interactive surface goes above; and the panel's preferred one,
 * which a game may ask for.  Only explicit hints go higher.
 */

/* Exact multiples and 1000/1001 pairs: within 1/1000 (0.1 %). */
#define EXACT_TOLERANCE 1000
/* Repeating cadences: within 1/200, wide enough that 23.976 fps on a
 * 60 Hz panel is still the 3:2 pulldown it looks like. */
#define PATTERN_TOLERANCE 200
/* Longer cadences than this many content frames look irregular. */
#define PATTERN_MAX_PERIOD 10
/* A measured rate is a guess from a few frame intervals, each late or
 * early by a scheduling slice: within 1/25 (4 %) of a cadence a mode
 * plays exactly (its refresh, or a half or a third of it), it is taken as
 * that cadence.  Without this a 60 fps video on Xorg, measured between
 * 58.0 and 62.0 fps, asked for 75 Hz and the rate went back and forth
 * every dwell.  Narrower than 25 fps is from 24: a 50 Hz mode is not
 * mistaken for a 48 Hz one's cadence. */
#define MEASURED_TOLERANCE 25
/* A measured rate below 1 Hz is sporadic updates, not a cadence. */
#define SPORADIC_MHZ 1000
/* The lowest candidate whose weighted score is within this of the best
 * wins: a small surface's slightly smoother cadence is not worth a
 * faster mode for the whole output. */
#define SCORE_MARGIN 0.05
/* A vote's weight is never taken as less than this, so a vote from a
 * surface with a zero or garbage area still counts a little. */
#define MIN_WEIGHT 0.001

/* Which rule asked for the chosen rate.  When two rules ask for the same
 * rate the more specific one (lower value) names the reason. */
enum rule {
	RULE_INPUT = 0,
	RULE_GAME,
	RULE_INTERACTIVE,
	RULE_NEW,
	RULE_UNKNOWN,
	RULE_RANGE,
	RULE_RATE,
	RULE_POINTER,
	RULE_IDLE,
};

static const char *const rule_reasons[] = {
	[RULE_INPUT] = "input",
	[RULE_GAME] = "game",
	[RULE_INTERACTIVE] = "interactive",
	[RULE_NEW] = "new surface",
	[RULE_UNKNOWN] = "content rate unknown",
	[RULE_RANGE] = "content range",
	[RULE_RATE] = "content rate",
	[RULE_POINTER] = "pointer",
	[RULE_IDLE] = "idle",
};

struct candidates {
	const struct sf_selector_input *in;
	enum sf_refresh_switch refresh_switch;
	int32_t width, height;
	size_t native;			/* the user's mode */
	size_t panel;			/* the panel's preferred mode */
};

struct requirement {
	size_t mode;
	enum rule rule;
};

void
sf_selector_params_init_default(struct sf_selector_params *params)
{
	params->active_refresh_mhz = 0;
	params->idle_min_mhz = 30000;
	/* mutter keeps the cursor at no less than 30 Hz. */
	params->pointer_min_mhz = 30000;
	params->min_dwell = SF_SEC(2);
	params->refresh_switch = SF_REFRESH_SWITCH_SEAMLESS;
}

void
sf_selector_init(struct sf_selector *sel,
		 const struct sf_selector_params *params)
{
	*sel = (struct sf_selector){ .params = *params };
}

void
sf_selector_notify_switched(struct sf_selector *sel, sf_time_t now)
{
	sel->last_change = now;
	sel->changed_once = true;
	if (sel->content_proposed) {
		sel->last_content_change = now;
		sel->content_changed_once = true;
	}
	sel->content_proposed = false;
	sel->transition = false;
	sel->pending = false;
}

/* |a - b| < b / inverse_tolerance, in integers so that a pair 0.0999 %
 * apart never rounds into an exact match. */
static bool
near(uint64_t a, uint64_t b, uint64_t inverse_tolerance)
{
	uint64_t diff = a > b ? a - b : b - a;

	return diff * inverse_tolerance < b;
}

static uint64_t
nearest_multiple(double ratio)
{
	double n = round(ratio);

	return n < 1.0 ? 1 : (uint64_t)n;
}

/*
 * The score, for content at c and refresh r (both mHz):
 *
 *   1.0           r = n * c within 0.1 %, n >= 1 (every frame shown for
 *                 the same number of vsyncs);
 *   0.8           r = n * c * 1001/1000 or n * c * 1000/1001 within 0.1 %
 *                 (a fractional pair: one repeated frame every ~40 s);
 *   0.5 * r / c   r < c (frames are dropped; worse the more are);
 *   0.5 + 0.25/q  q content frames span a whole number of vsyncs, for the
 *                 smallest q in 2..10 (a short repeating cadence judders
 *                 evenly: 3:2 pulldown, 24 fps at 60 Hz, gets 0.625);
 *   0.5           otherwise (an irregular hitch, like 24 fps at 50 Hz).
 *
 * So anything at or above the content rate beats anything below it, and
 * every judder scores below a fractional pair.
 */
double
sf_selector_cadence_score(uint32_t content_mhz, uint32_t refresh_mhz)
{
	uint64_t c = content_mhz, r = refresh_mhz;

	if (c == 0 || r == 0)
		return 0.0;

	uint64_t n = nearest_multiple((double)r / (double)c);
	if (near(r, n * c, EXACT_TOLERANCE))
		return 1.0;
	/* r against n * c * 1001/1000, both sides scaled by 1000. */
	n = nearest_multiple((double)r * 1000.0 / ((double)c * 1001.0));
	if (near(r * 1000, n * c * 1001, EXACT_TOLERANCE))
		return 0.8;
	/* r against n * c * 1000/1001, both sides scaled by 1001. */
	n = nearest_multiple((double)r * 1001.0 / ((double)c * 1000.0));
	if (near(r * 1001, n * c * 1000, EXACT_TOLERANCE))
		return 0.8;

	if (r < c)
		return 0.5 * (double)r / (double)c;

	for (uint64_t q = 2; q <= PATTERN_MAX_PERIOD; q++) {
		uint64_t vsyncs = nearest_multiple((double)(q * r) / (double)c);
		if (near(q * r, vsyncs * c, PATTERN_TOLERANCE))
			return 0.5 + 0.25 / (double)q;
	}
	return 0.5;
}

static uint32_t
refresh_of(const struct candidates *cs, size_t mode)
{
	return cs->in->modes[mode].refresh_mhz;
}

static bool
same_resolution(const struct candidates *cs, size_t mode)
{
	const struct sf_mode *m = &cs->in->modes[mode];

	return m->width == cs->width && m->height == cs->height;
}

/* SEAMLESS keeps to modes that do not blank the panel, but going back to
 * the native mode, or staying, is always allowed.  A mode of unknown
 * refresh (0 mHz) is never a candidate but as the user's own or the
 * current one: nothing tells what it saves or costs. */
static bool
is_candidate(const struct candidates *cs, size_t mode)
{
	if (!same_resolution(cs, mode))
		return false;
	if (refresh_of(cs, mode) == 0 && mode != cs->in->current &&
	    mode != cs->native)
		return false;
	if (cs->refresh_switch == SF_REFRESH_SWITCH_ALWAYS)
		return true;
	return mode == cs->in->current || mode == cs->native ||
	       mode == cs->panel || cs->in->modes[mode].seamless;
}

/* The preferred mode at this resolution (the fastest one if the panel
 * has several), else the fastest mode at this resolution.  A mode of
 * unknown refresh (0 mHz) is the panel's best only if no other is
 * known: a game sent to it might get any rate. */
static size_t
find_native(const struct candidates *cs)
{
	const struct sf_selector_input *in = cs->in;
	size_t best = in->current;
	bool best_preferred = in->modes[best].preferred &&
			      refresh_of(cs, best) > 0;

	for (size_t i = 0; i < in->n_modes; i++) {
		if (!same_resolution(cs, i) || refresh_of(cs, i) == 0)
			continue;
		bool preferred = in->modes[i].preferred;
		if (preferred != best_preferred) {
			if (preferred) {
				best = i;
				best_preferred = true;
			}
			continue;
		}
		if (refresh_of(cs, i) > refresh_of(cs, best))
			best = i;
	}
	return best;
}

static size_t
fastest(const struct candidates *cs)
{
	size_t best = cs->in->current;

	for (size_t i = 0; i < cs->in->n_modes; i++) {
		if (!is_candidate(cs, i))
			continue;
		if (refresh_of(cs, i) > refresh_of(cs, best))
			best = i;
	}
	return best;
}

/* Nothing but an explicit request goes above the native mode. */
static size_t
capped(const struct candidates *cs, size_t mode)
{
	if (refresh_of(cs, mode) > refresh_of(cs, cs->native))
		return cs->native;
	return mode;
}

static bool
slowest_at_least(const struct candidates *cs, uint32_t min_mhz, size_t *out)
{
	bool found = false;

	for (size_t i = 0; i < cs->in->n_modes; i++) {
		if (!is_candidate(cs, i) || refresh_of(cs, i) < min_mhz)
			continue;
		if (!found || refresh_of(cs, i) < refresh_of(cs, *out)) {
			*out = i;
			found = true;
		}
	}
	return found;
}

/* The lowest candidate at or above `min_mhz`; the fastest if none is. */
static size_t
slowest_at_least_or_fastest(const struct candidates *cs, uint32_t min_mhz)
{
	size_t mode;

	if (slowest_at_least(cs, min_mhz, &mode))
		return mode;
	return fastest(cs);
}

/* Ties go to the faster mode: input deserves the smoother one. */
static size_t
closest(const struct candidates *cs, uint32_t target_mhz)
{
	size_t best = cs->in->current;
	uint32_t best_dist = UINT32_MAX;

	for (size_t i = 0; i < cs->in->n_modes; i++) {
		if (!is_candidate(cs, i))
			continue;
		uint32_t r = refresh_of(cs, i);
		uint32_t dist = r > target_mhz ? r - target_mhz :
						 target_mhz - r;
		if (dist < best_dist ||
		    (dist == best_dist && r > refresh_of(cs, best))) {
			best = i;
			best_dist = dist;
		}
	}
	return best;
}

/* A range vote: the lowest candidate inside [min, max] (max 0: no upper
 * bound); if none is inside, the closest one above it; if all are below
 * it, the fastest. */
static size_t
range_mode(const struct candidates *cs, const struct sf_vote *v)
{
	uint32_t max_mhz = v->max_mhz ? v->max_mhz : UINT32_MAX;
	size_t mode;

	if (max_mhz < v->min_mhz)
		max_mhz = v->min_mhz;
	if (slowest_at_least(cs, v->min_mhz, &mode) &&
	    refresh_of(cs, mode) <= max_mhz)
		return mode;
	if (max_mhz < UINT32_MAX && slowest_at_least(cs, max_mhz + 1, &mode))
		return mode;
	return fastest(cs);
}

/*
 * The content rate a vote asks the cadence to fit, or 0.  A measured
 * (heuristic) rate is a guess: sporadic updates ask for nothing, and a
 * rate below the idle floor (`*guess` set) counts only at modes that play
 * it without judder, such as 24 fps at 48 Hz above a 30 Hz floor; at any
 * other mode it scores a flat 0.5 so that it pulls nowhere and the floor
 * serves it.  Explicit rates, and measured rates of surfaces that say
 * they show video, always count in full.
 */
static uint32_t
snap_measured(const struct candidates *cs, uint32_t rate)
{
	uint64_t best = rate, best_diff = UINT64_MAX;

	for (size_t i = 0; i < cs->in->n_modes; i++) {
		if (!is_candidate(cs, i))
			continue;
		for (uint64_t n = 1; n <= 3; n++) {
			uint64_t cadence = refresh_of(cs, i) / n;
			uint64_t diff = cadence > rate ? cadence - rate :
							 rate - cadence;
			if (diff * MEASURED_TOLERANCE <= cadence &&
			    diff < best_diff) {
				best = cadence;
				best_diff = diff;
			}
		}
	}
	return (uint32_t)best;
}

static uint32_t
vote_rate(const struct candidates *cs, const struct sf_selector_params *p,
	  const struct sf_vote *v, bool *guess)
{
	*guess = false;
	if (v->rate_mhz == 0)
		return 0;
	if (v->type == SF_VOTE_EXACT_OR_MULTIPLE)
		return v->rate_mhz;
	if (v->type != SF_VOTE_HEURISTIC || v->content == SF_CONTENT_GAME)
		return 0;
	if (v->content == SF_CONTENT_VIDEO)
		return snap_measured(cs, v->rate_mhz);
	if (v->rate_mhz < SPORADIC_MHZ)
		return 0;
	uint32_t rate = snap_measured(cs, v->rate_mhz);
	*guess = rate < p->idle_min_mhz;
	return rate;
}

static double
vote_weight(const struct sf_vote *v)
{
	if (!(v->weight > MIN_WEIGHT))
		return MIN_WEIGHT;
	return v->weight > 1.0 ? 1.0 : v->weight;
}

static void
require(const struct candidates *cs, struct requirement *req, size_t mode,
	enum rule rule)
{
	uint32_t have = refresh_of(cs, req->mode), want = refresh_of(cs, mode);

	if (want > have || (want == have && rule < req->rule)) {
		req->mode = mode;
		req->rule = rule;
	}
}

static double
weighted_score(const struct candidates *cs,
	       const struct sf_selector_params *p, size_t mode)
{
	const struct sf_selector_input *in = cs->in;
	double sum = 0.0, weights = 0.0;

	for (size_t j = 0; j < in->n_votes; j++) {
		bool guess;
		uint32_t rate = vote_rate(cs, p, &in->votes[j], &guess);
		if (rate == 0)
			continue;
		double w = vote_weight(&in->votes[j]);
		double score = sf_selector_cadence_score(rate,
							 refresh_of(cs, mode));
		if (guess && score < 0.8)
			score = 0.5;
		sum += w * score;
		weights += w;
	}
	return weights > 0.0 ? sum / weights : 0.0;
}

/* The candidate at or above `min_mhz` whose cadence, weighted over the
 * rate votes, is best: the lowest one within SCORE_MARGIN of the best. */
static size_t
cadence_mode(const struct candidates *cs, const struct sf_selector_params *p,
	     uint32_t min_mhz, uint32_t max_mhz, size_t fallback)
{
	const struct sf_selector_input *in = cs->in;
	double best = -1.0;

	for (size_t i = 0; i < in->n_modes; i++) {
		if (!is_candidate(cs, i) || refresh_of(cs, i) < min_mhz ||
		    refresh_of(cs, i) > max_mhz)
			continue;
		double score = weighted_score(cs, p, i);
		if (score > best)
			best = score;
	}

	size_t mode = fallback;
	bool found = false;
	for (size_t i = 0; i < in->n_modes; i++) {
		if (!is_candidate(cs, i) || refresh_of(cs, i) < min_mhz ||
		    refresh_of(cs, i) > max_mhz)
			continue;
		if (weighted_score(cs, p, i) < best - SCORE_MARGIN)
			continue;
		if (!found || refresh_of(cs, i) < refresh_of(cs, mode)) {
			mode = i;
			found = true;
		}
	}
	return mode;
}

static void
set_out(struct sf_selection *out, size_t mode, const char *reason,
	sf_time_t retry_at)
{
	out->mode = mode;
	out->reason = reason;
	out->retry_at = retry_at;
}

/* The native mode: the user's if the adapter knows it and it is at this
 * resolution, else the panel's preferred one. */
static size_t
user_native(const struct candidates *cs)
{
	const struct sf_selector_input *in = cs->in;

	if (in->has_user_mode && in->user_mode < in->n_modes &&
	    same_resolution(cs, in->user_mode))
		return in->user_mode;
	return cs->panel;
}

/* The mode a busy surface whose rate is not known yet needs: native,
 * so that a new animation is not shown too slow, and a client paced by
 * the output does not read the low rate as its own.  But while the user
 * is idle, outside the idle drop itself, such a burst is no reason to
 * switch: a page's timer, a clock redrawn with a flood of commits around
 * it, a page redrawn whole for a moment (read as a video), a toolkit's
 * housekeeping (Firefox's page, idle, switched 60 -> 30 -> 60 Hz eight
 * times in 50 s), nor is a deeper idle stage.  It keeps the mode the
 * output runs; a rate that then holds (a video, an animation) is a
 * content rate, and moves the output after a dwell. */
static size_t
unknown_rate_mode(const struct candidates *cs,
		  const struct sf_selector_input *in,
		  const struct sf_selector *sel)
{
	if (in->state >= SF_STATE_LOW_REFRESH &&
	    !(sel->transition && sel->transition_from_active))
		return in->current;
	return cs->native;
}

static sf_time_t
add_time(sf_time_t t, sf_time_t d)
{
	return t <= SF_TIME_NEVER - d ? t + d : SF_TIME_NEVER;
}

/*
 * A switch for a measured content rate (not a transition, not a raise a
 * rule or a client's request demands) is carried out only once the
 * same target has been wanted for a dwell, and a number of dwells after
 * the previous one: returns when, or 0 if now.
 */
static sf_time_t
content_switch_due(struct sf_selector *sel, size_t chosen, sf_time_t now)
{
	const struct sf_selector_params *p = &sel->params;

	if (p->min_dwell <= 0)
		return 0;
	if (!sel->pending || sel->pending_mode != chosen) {
		sel->pending = true;
		sel->pending_mode = chosen;
		sel->pending_since = now;
	}
	sf_time_t due = add_time(sel->pending_since, p->min_dwell);
	if (sel->content_changed_once) {
		sf_time_t interval = p->min_dwell <=
			SF_TIME_NEVER / SF_SELECTOR_CONTENT_INTERVALS ?
			p->min_dwell * SF_SELECTOR_CONTENT_INTERVALS :
			SF_TIME_NEVER;
		sf_time_t next = add_time(sel->last_content_change, interval);
		if (next > due)
			due = next;
	}
	return now < due ? due : 0;
}

void
sf_selector_choose(struct sf_selector *sel,
		   const struct sf_selector_input *in, sf_time_t now,
		   struct sf_selection *out)
{
	const struct sf_selector_params *p = &sel->params;

	sel->content_proposed = false;
	if (in->n_modes == 0 || in->current >= in->n_modes) {
		set_out(out, in->current, "no candidate", SF_TIME_NEVER);
		return;
	}
	if (p->refresh_switch == SF_REFRESH_SWITCH_NEVER) {
		set_out(out, in->current, "refresh switching disabled",
			SF_TIME_NEVER);
		return;
	}
	/* A new idle state, the pointer starting or stopping, or a new
	 * surface's first seconds starting or ending (the idle drop they
	 * held back) is a transition until the switch it asks for is made. */
	bool any_new = false;
	for (size_t j = 0; j < in->n_votes; j++)
		any_new = any_new || in->votes[j].new_surface;
	if (!sel->seen || in->state != sel->last_state ||
	    in->pointer_moving != sel->last_pointer ||
	    any_new != sel->last_new) {
		bool from_active = !sel->seen ||
				   sel->last_state == SF_STATE_ACTIVE;
		sel->transition_from_active =
			(sel->transition && sel->transition_from_active) ||
			from_active;
		sel->transition = true;
	}
	sel->seen = true;
	sel->last_state = in->state;
	sel->last_pointer = in->pointer_moving;
	sel->last_new = any_new;

	struct candidates cs = {
		.in = in,
		.refresh_switch = p->refresh_switch,
		.width = in->modes[in->current].width,
		.height = in->modes[in->current].height,
	};
	cs.panel = find_native(&cs);
	cs.native = user_native(&cs);

	/* The idle floor is the weakest rule; everything else may only
	 * raise the requirement above it. */
	struct requirement req = {
		.mode = capped(&cs, slowest_at_least_or_fastest(
						&cs, p->idle_min_mhz)),
		.rule = RULE_IDLE,
	};
	/* What measured rates require, kept apart: raising for them is a
	 * content-rate switch. */
	struct requirement measured = req;
	bool opinion = false, explicit_rate = false, measured_rate = false;
	uint32_t explicit_max_mhz = 0;

	if (in->pointer_moving)
		require(&cs, &req,
			capped(&cs, slowest_at_least_or_fastest(
					    &cs, p->pointer_min_mhz)),
			RULE_POINTER);
	if (in->state == SF_STATE_ACTIVE) {
		/* An active-refresh the user set is theirs to choose. */
		size_t active = p->active_refresh_mhz ?
			closest(&cs, p->active_refresh_mhz) : cs.native;
		require(&cs, &req, active, RULE_INPUT);
	}

	bool any_rate = false;
	for (size_t j = 0; j < in->n_votes; j++) {
		const struct sf_vote *v = &in->votes[j];
		bool game = v->content == SF_CONTENT_GAME &&
			    (v->type == SF_VOTE_MIN || v->type == SF_VOTE_MAX ||
			     v->type == SF_VOTE_HEURISTIC);

		if (v->new_surface) {
			require(&cs, &req, cs.native, RULE_NEW);
			opinion = true;
		}
		if (game) {
			require(&cs, &req, cs.panel, RULE_GAME);
			opinion = true;
			continue;
		}
		switch (v->type) {
		case SF_VOTE_NONE:
		case SF_VOTE_MIN:
			break;
		case SF_VOTE_MAX:
			require(&cs, &req, cs.native, RULE_INTERACTIVE);
			opinion = true;
			break;
		case SF_VOTE_RANGE:
			require(&cs, &req, range_mode(&cs, v), RULE_RANGE);
			opinion = true;
			break;
		case SF_VOTE_HEURISTIC:
		case SF_VOTE_EXACT_OR_MULTIPLE: {
			bool guess;
			uint32_t rate = vote_rate(&cs, p, v, &guess);
			bool heuristic = v->type == SF_VOTE_HEURISTIC;
			size_t mode;
			/* A busy surface whose rate is not known yet runs
			 * at native: anything lower may be too slow for it,
			 * and a client paced by the output would read it as
			 * its own rate. */
			if (heuristic && v->rate_mhz == 0) {
				require(&cs, &req,
					unknown_rate_mode(&cs, in, sel),
					RULE_UNKNOWN);
				opinion = true;
				break;
			}
			/* Even a sporadic rate had its say: the floor. */
			if (v->rate_mhz)
				opinion = true;
			if (rate == 0)
				break;
			any_rate = true;
			explicit_rate = explicit_rate || !heuristic;
			if (!heuristic && rate > explicit_max_mhz)
				explicit_max_mhz = rate;
			measured_rate = measured_rate || heuristic;
			/* Never below the content rate if a mode can keep
			 * up with it (up to native, for a measured one). */
			if (guess || !slowest_at_least(&cs, rate, &mode))
				break;
			if (heuristic)
				require(&cs, &measured, capped(&cs, mode),
					RULE_RATE);
			else
				require(&cs, &req, mode, RULE_RATE);
			break;
		}
		}
	}

	/* What the rules and the clients' requests alone demand. */
	struct requirement hard = req;
	if (measured.rule == RULE_RATE)
		require(&cs, &req, measured.mode, RULE_RATE);

	size_t chosen = req.mode;
	const char *reason = rule_reasons[req.rule];
	if (req.rule == RULE_IDLE && opinion)
		reason = "idle floor";
	if (any_rate) {
		uint32_t floor_mhz = refresh_of(&cs, req.mode);
		uint32_t ceiling_mhz = refresh_of(&cs, cs.native);
		size_t fast;
		/* Only content a client says is faster than native goes
		 * above it, to the first mode that keeps up. */
		if (explicit_max_mhz > ceiling_mhz &&
		    slowest_at_least(&cs, explicit_max_mhz, &fast))
			ceiling_mhz = refresh_of(&cs, fast);
		if (ceiling_mhz < floor_mhz)
			ceiling_mhz = floor_mhz;
		size_t mode = cadence_mode(&cs, p, floor_mhz, ceiling_mhz,
					   req.mode);
		if (refresh_of(&cs, mode) > floor_mhz) {
			chosen = mode;
			reason = rule_reasons[RULE_RATE];
		}
	}

	/* Of two modes at the same rate, staying costs nothing. */
	uint32_t current_mhz = refresh_of(&cs, in->current);
	if (refresh_of(&cs, chosen) == current_mhz)
		chosen = in->current;
	if (chosen == in->current) {
		sel->transition = false;
		sel->pending = false;
		set_out(out, chosen, reason, SF_TIME_NEVER);
		return;
	}

	/* A client's own rate, with no measured one beside it, is served
	 * at once, as any request. */
	bool content = !sel->transition &&
		       refresh_of(&cs, hard.mode) <= current_mhz &&
		       (measured_rate || !explicit_rate);
	if (content) {
		sf_time_t due = content_switch_due(sel, chosen, now);
		if (due) {
			set_out(out, in->current, "settling", due);
			return;
		}
	}
	if (refresh_of(&cs, chosen) < current_mhz && sel->changed_once &&
	    p->min_dwell > 0 && now - sel->last_change < p->min_dwell) {
		set_out(out, in->current, "dwell",
			add_time(sel->last_change, p->min_dwell));
		return;
	}
	sel->content_proposed = content;
	set_out(out, chosen, reason, SF_TIME_NEVER);
}

/* |a - b| <= b * percent / 100 */
static bool
within_percent(uint32_t a, uint32_t b, uint32_t percent)
{
	uint64_t diff = a > b ? a - b : b - a;

	return diff * 100 <= (uint64_t)b * percent;
}

static void
start_candidate(struct sf_rate_settle *rs, uint32_t mhz, sf_time_t now)
{
	rs->candidate_mhz = mhz;
	rs->candidate_since = now;
	rs->candidate_sum = mhz;
	rs->candidate_n = 1;
}

uint32_t
sf_rate_settle_update(struct sf_rate_settle *rs, bool busy,
		      uint32_t measured_mhz, uint32_t current_mhz,
		      uint32_t native_mhz, sf_time_t settle, sf_time_t now)
{
	if (!busy) {
		if (rs->quiet_since == 0)
			rs->quiet_since = now > 0 ? now : 1;
		else if (now - rs->quiet_since >= SF_RATE_FORGET)
			rs->settled_mhz = 0;
		rs->candidate_mhz = 0;
		return rs->settled_mhz;
	}
	if (rs->quiet_since && now - rs->quiet_since >= SF_RATE_FORGET)
		rs->settled_mhz = 0;
	rs->quiet_since = 0;
	if (measured_mhz == 0)
		return rs->settled_mhz;
	if (rs->settled_mhz &&
	    within_percent(measured_mhz, rs->settled_mhz,
			   SF_RATE_SETTLE_BAND)) {
		rs->candidate_mhz = 0;
		return rs->settled_mhz;
	}
	/* Below native, a reading may show the content is faster than
	 * settled, but a slower one may be the output's doing: a page
	 * that renders slowly draws fewer frames at a lower rate (35 fps at
	 * 60 Hz, 30 at 48 Hz), and following it down went 60 -> 48 -> 30. */
	if (rs->settled_mhz && measured_mhz < rs->settled_mhz &&
	    current_mhz < native_mhz) {
		rs->candidate_mhz = 0;
		return rs->settled_mhz;
	}
	/* Paced by the output: the content may be faster, as fast as
	 * native.  Read so, and like any rate it counts once it holds for
	 * a dwell: an animation that starts while the output idles at
	 * 30 Hz gets native then, a burst of a page's redraws does not
	 * move an idle output at all. */
	bool paced = current_mhz < native_mhz &&
		     near(measured_mhz, current_mhz, MEASURED_TOLERANCE);
	if (paced)
		measured_mhz = native_mhz;
	if (rs->candidate_mhz &&
	    within_percent(measured_mhz, rs->candidate_mhz,
			   SF_RATE_SETTLE_BAND)) {
		rs->candidate_sum += measured_mhz;
		rs->candidate_n++;
		if (now - rs->candidate_since >= settle) {
			uint32_t mean = (uint32_t)(rs->candidate_sum /
						   rs->candidate_n);
			rs->settled_mhz = mean;
			rs->candidate_mhz = 0;
		}
		return rs->settled_mhz;
	}
	if (settle <= 0) {
		rs->settled_mhz = measured_mhz;
		rs->candidate_mhz = 0;
		return rs->settled_mhz;
	}
	start_candidate(rs, measured_mhz, now);
	return rs->settled_mhz;
}

sf_time_t
sf_rate_settle_due(const struct sf_rate_settle *rs, sf_time_t settle)
{
	if (!rs->candidate_mhz)
		return SF_TIME_NEVER;
	return add_time(rs->candidate_since, settle);
}
