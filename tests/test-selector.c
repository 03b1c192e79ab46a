/* SPDX-License-Identifier: MIT */
#include "sf-selector.h"
#include "sf-test.h"

#define ACTIVE SF_STATE_ACTIVE
#define LOW SF_STATE_LOW_REFRESH
#define DIM SF_STATE_DIM
#define STANDBY SF_STATE_DPMS_STANDBY
#define OFF SF_STATE_DPMS_OFF
#define SEAMLESS SF_REFRESH_SWITCH_SEAMLESS
#define ALWAYS SF_REFRESH_SWITCH_ALWAYS
#define NEVER SF_REFRESH_SWITCH_NEVER

/* Modes: the native one is preferred and, like a real panel's, not
 * seamless; the lower ones are. */
#define FHD(mhz) { 1920, 1080, (mhz), true, false }
#define FHD_NATIVE(mhz) { 1920, 1080, (mhz), false, true }
#define FHD_SEAMED(mhz) { 1920, 1080, (mhz), false, false }
#define HD(mhz) { 1280, 720, (mhz), true, false }

/* Votes. */
#define EXACT(mhz, w) { SF_VOTE_EXACT_OR_MULTIPLE, (mhz), 0, 0, \
			SF_CONTENT_NONE, (w), false }
#define VIDEO(mhz) { SF_VOTE_EXACT_OR_MULTIPLE, (mhz), 0, 0, \
		     SF_CONTENT_VIDEO, 1.0, false }
#define MEASURED(mhz) { SF_VOTE_HEURISTIC, (mhz), 0, 0, \
			SF_CONTENT_NONE, 1.0, false }
#define RANGE(lo, hi) { SF_VOTE_RANGE, 0, (lo), (hi), SF_CONTENT_NONE, \
			1.0, false }
#define SIMPLE(type) { (type), 0, 0, 0, SF_CONTENT_NONE, 1.0, false }

#define MAX_MODES 6
#define MAX_VOTES 3

static const sf_time_t t0 = SF_SEC(100);

struct choose_case {
	const char *name;
	struct sf_mode modes[MAX_MODES];	/* ends at refresh 0 */
	size_t current;
	struct sf_vote votes[MAX_VOTES];
	size_t n_votes;
	enum sf_idle_state state;
	bool pointer_moving;
	/* Overrides of the defaults; 0 keeps the default. */
	uint32_t idle_min_mhz, pointer_min_mhz, active_mhz;
	enum sf_refresh_switch refresh_switch;
	size_t expect;
	const char *reason;
};

static size_t
count_modes(const struct sf_mode *modes)
{
	size_t n = 0;

	while (n < MAX_MODES && modes[n].refresh_mhz)
		n++;
	return n;
}

static void
case_params(const struct choose_case *c, struct sf_selector_params *p)
{
	sf_selector_params_init_default(p);
	if (c->idle_min_mhz)
		p->idle_min_mhz = c->idle_min_mhz;
	if (c->pointer_min_mhz)
		p->pointer_min_mhz = c->pointer_min_mhz;
	if (c->active_mhz)
		p->active_refresh_mhz = c->active_mhz;
	p->refresh_switch = c->refresh_switch;
}

static void
case_input(const struct choose_case *c, struct sf_selector_input *in)
{
	*in = (struct sf_selector_input){
		.modes = c->modes,
		.n_modes = count_modes(c->modes),
		.current = c->current,
		.votes = c->votes,
		.n_votes = c->n_votes,
		.state = c->state,
		.pointer_moving = c->pointer_moving,
	};
}

static void
expect_selection(bool *sf_test_failed_, const struct sf_selection *got,
		 size_t mode, const char *reason, sf_time_t retry_at)
{
	sf_assert_int_eq(got->mode, mode);
	sf_assert_str_eq(got->reason, reason);
	sf_assert_int_eq(got->retry_at, retry_at);
}

#define EXPECT(got_, mode_, reason_, retry_)				\
	do {								\
		expect_selection(sf_test_failed_, got_, mode_, reason_,	\
				 retry_);				\
		if (*sf_test_failed_)					\
			return;						\
	} while (0)

SF_TEST(defaults)
{
	struct sf_selector_params p;
	struct sf_selector sel;

	sf_selector_params_init_default(&p);
	sf_assert_int_eq(p.active_refresh_mhz, 0);
	sf_assert_int_eq(p.idle_min_mhz, 30000);
	sf_assert_int_eq(p.pointer_min_mhz, 30000);
	sf_assert_int_eq(p.min_dwell, SF_SEC(2));
	sf_assert_int_eq(p.refresh_switch, SEAMLESS);

	p.idle_min_mhz = 12345;
	sf_selector_init(&sel, &p);
	sf_assert_int_eq(sel.params.idle_min_mhz, 12345);
	sf_assert(!sel.changed_once);
	sf_selector_notify_switched(&sel, t0);
	sf_assert(sel.changed_once);
	sf_assert_int_eq(sel.last_change, t0);
}

SF_TEST(cadence_score_table)
{
	static const struct {
		uint32_t content, refresh;
		double expect;
	} cases[] = {
		{ 24000, 48000, 1.0 },
		{ 24000, 72000, 1.0 },
		{ 24000, 120000, 1.0 },
		{ 23976, 47952, 1.0 },
		{ 25000, 50000, 1.0 },
		{ 30000, 60000, 1.0 },
		{ 60000, 60000, 1.0 },
		{ 60000, 59951, 1.0 },	/* a real panel's "60 Hz" */
		{ 23976, 48000, 0.8 },	/* fractional pairs */
		{ 24000, 47952, 0.8 },
		{ 59940, 60000, 0.8 },
		{ 24000, 60000, 0.625 },	/* 3:2 pulldown */
		{ 23976, 60000, 0.625 },
		{ 24000, 40000, 0.5 + 0.25 / 3 },
		{ 24000, 30000, 0.5 + 0.25 / 4 },
		{ 24000, 50000, 0.5 },	/* one hitch every half second */
		{ 60000, 30000, 0.25 },	/* below the content rate */
		{ 48000, 24000, 0.25 },
		{ 0, 60000, 0.0 },
		{ 24000, 0, 0.0 },
		{ 0, 0, 0.0 },
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++) {
		double got = sf_selector_cadence_score(cases[i].content,
						       cases[i].refresh);
		if (fabs(got - cases[i].expect) > 1e-9)
			printf("# %" PRIu32 " mHz at %" PRIu32 " mHz\n",
			       cases[i].content, cases[i].refresh);
		sf_assert_double_near(got, cases[i].expect, 1e-9);
	}
}

SF_TEST(cadence_score_orders_judder)
{
	double pulldown = sf_selector_cadence_score(24000, 60000);
	double hitch = sf_selector_cadence_score(24000, 50000);

	sf_assert(pulldown < 0.8);
	sf_assert(pulldown > hitch);

	/* Whatever the cadence, keeping up beats dropping frames. */
	static const uint32_t contents[] = { 23976, 24000, 25000, 29970,
					     30000, 50000, 60000 };
	for (size_t i = 0; i < SF_ARRAY_LENGTH(contents); i++) {
		uint32_t c = contents[i];
		for (uint32_t r = 20000; r <= 240000; r += 1000) {
			double s = sf_selector_cadence_score(c, r);
			sf_assert(s >= 0.0 && s <= 1.0);
			if (r < c)
				sf_assert(s < 0.5);
			else
				sf_assert(s >= 0.5);
		}
	}
}

static const struct choose_case choose_cases[] = {
	/* Content rates. */
	{ "24 fps video plays at 48 Hz",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { VIDEO(24000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  1, "content rate" },
	{ "measured 24 fps of a video surface",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { { SF_VOTE_HEURISTIC, 24000, 0, 0, SF_CONTENT_VIDEO, 1.0, false } }, 1,
	  LOW, false, 0, 0, 0, SEAMLESS, 1, "content rate" },
	/* A measured rate jitters by a few percent around the cadence. */
	{ "a 60 fps video measured at 61.3 fps plays at 60 Hz",
	  { FHD_NATIVE(85024), FHD(75025), FHD(60020) }, 2,
	  { { SF_VOTE_HEURISTIC, 61330, 0, 0, SF_CONTENT_VIDEO, 1.0, false } }, 1,
	  LOW, false, 0, 0, 0, SEAMLESS, 2, "content rate" },
	{ "a 60 fps animation measured at 61.3 fps plays at 60 Hz",
	  { FHD_NATIVE(85024), FHD(75025), FHD(60020) }, 2,
	  { MEASURED(61330) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  2, "content rate" },
	{ "a 60 fps video measured at 58.8 fps plays at 60 Hz",
	  { FHD_NATIVE(85024), FHD(75025), FHD(60020) }, 1,
	  { { SF_VOTE_HEURISTIC, 58770, 0, 0, SF_CONTENT_VIDEO, 1.0, false } }, 1,
	  LOW, false, 0, 0, 0, SEAMLESS, 2, "content rate" },
	{ "a 60 fps video measured at 62.0 fps plays at 60 Hz",
	  { FHD_NATIVE(85024), FHD(75025), FHD(60020) }, 2,
	  { { SF_VOTE_HEURISTIC, 62030, 0, 0, SF_CONTENT_VIDEO, 1.0, false } }, 1,
	  LOW, false, 0, 0, 0, SEAMLESS, 2, "content rate" },
	{ "a measured 25 fps video is no 24 fps: 50 Hz, not 48",
	  { FHD_NATIVE(60000), FHD(50000), FHD(48000), FHD(30000) }, 0,
	  { { SF_VOTE_HEURISTIC, 25000, 0, 0, SF_CONTENT_VIDEO, 1.0, false } }, 1,
	  LOW, false, 0, 0, 0, SEAMLESS, 1, "content rate" },
	{ "a measured 66 fps is no 60 fps: 75 Hz",
	  { FHD_NATIVE(85024), FHD(75025), FHD(60020) }, 2,
	  { MEASURED(66000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  1, "content rate" },
	{ "measured 24.4 fps of a video plays at 48 Hz",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { { SF_VOTE_HEURISTIC, 24400, 0, 0, SF_CONTENT_VIDEO, 1.0, false } }, 1,
	  LOW, false, 0, 0, 0, SEAMLESS, 1, "content rate" },
	{ "measured 24 fps below the floor still finds 48 Hz",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { MEASURED(24000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  1, "content rate" },
	{ "measured 24 fps with only 60 and 30 Hz leaves it to the floor",
	  { FHD_NATIVE(60000), FHD(30000) }, 0,
	  { MEASURED(24000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  1, "idle floor" },
	{ "measured 24 fps of a video surface with only 60 and 30 Hz",
	  { FHD_NATIVE(60000), FHD(30000) }, 1,
	  { { SF_VOTE_HEURISTIC, 24000, 0, 0, SF_CONTENT_VIDEO, 1.0, false } }, 1,
	  LOW, false, 0, 0, 0, SEAMLESS, 0, "content rate" },
	{ "24 fps with only 60 and 30 Hz keeps 60",
	  { FHD_NATIVE(60000), FHD(30000) }, 1,
	  { VIDEO(24000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  0, "content rate" },
	{ "24 fps takes no exact multiple above native",
	  { FHD_NATIVE(60000), FHD(72000), FHD(120000) }, 0,
	  { VIDEO(24000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  0, "content rate" },
	{ "24 fps takes the lowest exact multiple up to native",
	  { FHD(60000), FHD(72000), FHD_NATIVE(120000) }, 2,
	  { VIDEO(24000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  1, "content rate" },
	{ "23.976 fps takes 47.952 over 48",
	  { FHD_NATIVE(60000), FHD(47952), FHD(48000) }, 0,
	  { VIDEO(23976) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  1, "content rate" },
	{ "23.976 fps takes its fractional pair 48",
	  { FHD_NATIVE(60000), FHD(48000) }, 0,
	  { VIDEO(23976) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  1, "content rate" },
	{ "25 fps plays at 50 Hz",
	  { FHD_NATIVE(60000), FHD(50000), FHD(48000) }, 0,
	  { VIDEO(25000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  1, "content rate" },
	{ "30 fps plays at 30 Hz",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { VIDEO(30000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  3, "content rate" },
	{ "measured 60 fps keeps 60 Hz",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { MEASURED(60000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  0, "content rate" },
	{ "a vote with no area still counts",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { EXACT(24000, 0.0) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  1, "content rate" },
	{ "an explicit rate from a game is honoured",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { { SF_VOTE_EXACT_OR_MULTIPLE, 24000, 0, 0, SF_CONTENT_GAME,
	      1.0, false } }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  1, "content rate" },

	/* Weighting: the big surface decides the cadence. */
	{ "full-screen 30 fps beats a 5% 24 fps thumbnail",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { EXACT(30000, 1.0), EXACT(24000, 0.05) }, 2, LOW, false,
	  0, 0, 0, SEAMLESS, 3, "content rate" },
	{ "full-screen 24 fps beats a 5% 30 fps thumbnail",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { EXACT(24000, 1.0), EXACT(30000, 0.05) }, 2, LOW, false,
	  0, 0, 0, SEAMLESS, 1, "content rate" },
	{ "two big surfaces at 24 and 30 fps meet at a 120 Hz native",
	  { FHD(60000), FHD(48000), FHD(30000), FHD_NATIVE(120000) }, 0,
	  { EXACT(24000, 1.0), EXACT(30000, 1.0) }, 2, LOW, false,
	  0, 0, 0, SEAMLESS, 3, "content rate" },
	{ "two big surfaces at 24 and 30 fps never meet above native",
	  { FHD_NATIVE(60000), FHD(48000), FHD(30000), FHD(120000) }, 0,
	  { EXACT(24000, 1.0), EXACT(30000, 1.0) }, 2, LOW, false,
	  0, 0, 0, SEAMLESS, 2, "content rate" },
	{ "a small 60 fps surface is never played slower",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 3,
	  { EXACT(30000, 1.0),
	    { SF_VOTE_HEURISTIC, 60000, 0, 0, SF_CONTENT_NONE, 0.05, false } }, 2,
	  LOW, false,
	  0, 0, 0, SEAMLESS, 0, "content rate" },

	/* Ranges: the lowest mode inside, else the closest above. */
	{ "range [40, 50] takes its lowest mode",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { RANGE(40000, 50000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  2, "content range" },
	{ "range [42, 45] with no mode inside takes the next above",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { RANGE(42000, 45000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  1, "content range" },
	{ "range [90, 120] above every mode takes the fastest",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 3,
	  { RANGE(90000, 120000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  0, "content range" },
	{ "range with only a minimum",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { RANGE(45000, 0) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  1, "content range" },
	{ "range below the floor gets the floor",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000),
	    FHD(24000) }, 0,
	  { RANGE(20000, 26000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  3, "idle floor" },

	/* Idle and its floor. */
	{ "idle with no votes takes the lowest mode above the floor",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000),
	    FHD(24000) }, 0,
	  { { 0 } }, 0, LOW, false, 0, 0, 0, SEAMLESS, 3, "idle" },
	{ "static and silent surfaces ask for nothing",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000),
	    FHD(24000) }, 0,
	  { SIMPLE(SF_VOTE_MIN), SIMPLE(SF_VOTE_NONE) }, 2, LOW, false,
	  0, 0, 0, SEAMLESS, 3, "idle" },
	{ "a lower floor lets 24 Hz in",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000),
	    FHD(24000) }, 0,
	  { { 0 } }, 0, LOW, false, 20000, 0, 0, SEAMLESS, 4, "idle" },
	{ "a floor above every lower mode keeps the native one",
	  { FHD_NATIVE(60000), FHD(48000) }, 0,
	  { { 0 } }, 0, LOW, false, 70000, 0, 0, SEAMLESS, 0, "idle" },
	{ "dim behaves like low refresh",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { { 0 } }, 0, DIM, false, 0, 0, 0, SEAMLESS, 3, "idle" },
	{ "standby behaves like low refresh",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { { 0 } }, 0, STANDBY, false, 0, 0, 0, SEAMLESS, 3, "idle" },
	{ "off behaves like low refresh",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { { 0 } }, 0, OFF, false, 0, 0, 0, SEAMLESS, 3, "idle" },
	{ "sporadic updates do not raise the rate",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { MEASURED(200) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  3, "idle floor" },
	{ "a measured rate below the floor with judder everywhere",
	  { FHD_NATIVE(60000), FHD(48000), FHD(30000), FHD(24000) }, 0,
	  { MEASURED(13000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  2, "idle floor" },
	{ "a measured rate below the floor does not chase judder",
	  { FHD_NATIVE(60000), FHD(35000), FHD(30000) }, 0,
	  { MEASURED(14000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  2, "idle floor" },
	{ "sporadic updates do not chase an exact multiple",
	  { FHD_NATIVE(60000), FHD(48000), FHD(42000), FHD(30000) }, 0,
	  { MEASURED(700) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  3, "idle floor" },
	{ "a measured rate below the floor that the floor plays",
	  { FHD_NATIVE(60000), FHD(48000), FHD(30000), FHD(24000) }, 0,
	  { MEASURED(10000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  2, "idle floor" },

	/* Pointer, input and interactive content. */
	{ "a moving pointer over static content",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { SIMPLE(SF_VOTE_MIN) }, 1, LOW, true, 0, 48000, 0, SEAMLESS,
	  1, "pointer" },
	{ "a moving pointer at the default floor",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { { 0 } }, 0, LOW, true, 0, 0, 0, SEAMLESS, 3, "pointer" },
	{ "a pointer floor below the content rate",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 0,
	  { VIDEO(24000) }, 1, LOW, true, 0, 40000, 0, SEAMLESS,
	  1, "content rate" },
	{ "input takes the native mode",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 3,
	  { SIMPLE(SF_VOTE_MIN) }, 1, ACTIVE, false, 0, 0, 0, SEAMLESS,
	  0, "input" },
	{ "input takes the mode closest to the active rate",
	  { FHD_NATIVE(120000), FHD(60000), FHD(48000) }, 2,
	  { { 0 } }, 0, ACTIVE, false, 0, 0, 59000, SEAMLESS,
	  1, "input" },
	{ "between two modes as close to the active rate, the faster",
	  { FHD_NATIVE(120000), FHD(60000), FHD(48000) }, 2,
	  { { 0 } }, 0, ACTIVE, false, 0, 0, 54000, SEAMLESS,
	  1, "input" },
	{ "input takes a 24 fps video at 72 Hz to native, not above",
	  { FHD_NATIVE(60000), FHD(72000), FHD(120000) }, 1,
	  { VIDEO(24000) }, 1, ACTIVE, false, 0, 0, 0, SEAMLESS,
	  0, "input" },
	{ "input takes a faster native even from a 24 fps video at 72 Hz",
	  { FHD(60000), FHD(72000), FHD_NATIVE(120000) }, 1,
	  { VIDEO(24000) }, 1, ACTIVE, false, 0, 0, 0, SEAMLESS,
	  2, "input" },
	{ "an interactive surface while idle takes the native mode",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 3,
	  { SIMPLE(SF_VOTE_MAX) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  0, "interactive" },
	{ "a game takes the native mode",
	  { FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000) }, 3,
	  { { SF_VOTE_HEURISTIC, 30000, 0, 0, SF_CONTENT_GAME, 1.0, false } }, 1,
	  LOW, false, 0, 0, 0, SEAMLESS, 0, "game" },
	{ "native is the preferred mode, not the fastest",
	  { FHD(120000), FHD_NATIVE(60000), FHD(30000) }, 2,
	  { SIMPLE(SF_VOTE_MAX) }, 1, LOW, false, 0, 0, 0, ALWAYS,
	  1, "interactive" },

	/* What may be switched to. */
	{ "seamless keeps an idle drop off a seamed mode",
	  { FHD_NATIVE(60000), FHD_SEAMED(30000), FHD(48000) }, 0,
	  { { 0 } }, 0, LOW, false, 0, 0, 0, SEAMLESS, 2, "idle" },
	{ "always drops to the seamed mode",
	  { FHD_NATIVE(60000), FHD_SEAMED(30000), FHD(48000) }, 0,
	  { { 0 } }, 0, LOW, false, 0, 0, 0, ALWAYS, 1, "idle" },
	{ "seamless keeps video off a seamed 48 Hz",
	  { FHD_NATIVE(60000), FHD_SEAMED(48000), FHD(30000) }, 2,
	  { VIDEO(24000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  0, "content rate" },
	{ "always lets video use a seamed 48 Hz",
	  { FHD_NATIVE(60000), FHD_SEAMED(48000), FHD(30000) }, 2,
	  { VIDEO(24000) }, 1, LOW, false, 0, 0, 0, ALWAYS,
	  1, "content rate" },
	{ "seamless may stay on a seamed current mode",
	  { FHD_NATIVE(60000), FHD_SEAMED(48000), FHD(30000) }, 1,
	  { VIDEO(24000) }, 1, LOW, false, 0, 0, 0, SEAMLESS,
	  1, "content rate" },
	{ "of two equal modes the seamless one",
	  { FHD_NATIVE(60000), FHD_SEAMED(30000), FHD(30000) }, 0,
	  { { 0 } }, 0, LOW, false, 0, 0, 0, SEAMLESS, 2, "idle" },
	{ "of two equal modes the current one",
	  { FHD_NATIVE(60000), FHD(30000), FHD(30000) }, 2,
	  { { 0 } }, 0, LOW, false, 0, 0, 0, ALWAYS, 2, "idle" },
	{ "never switching stays when idle",
	  { FHD_NATIVE(60000), FHD(48000), FHD(30000) }, 0,
	  { { 0 } }, 0, LOW, false, 0, 0, 0, NEVER,
	  0, "refresh switching disabled" },
	{ "never switching stays on input",
	  { FHD_NATIVE(60000), FHD(48000), FHD(30000) }, 2,
	  { SIMPLE(SF_VOTE_MAX) }, 1, ACTIVE, false, 0, 0, 0, NEVER,
	  2, "refresh switching disabled" },

	/* Only the current resolution. */
	{ "idle never leaves the resolution",
	  { FHD_NATIVE(60000), HD(30000), FHD(48000), HD(60000) }, 0,
	  { { 0 } }, 0, LOW, false, 0, 0, 0, ALWAYS, 2, "idle" },
	{ "input returns to the native mode of the resolution",
	  { FHD_NATIVE(60000), HD(30000), FHD(48000), HD(60000) }, 2,
	  { { 0 } }, 0, ACTIVE, false, 0, 0, 0, ALWAYS, 0, "input" },
	{ "without a preferred mode the fastest is native",
	  { { 1280, 720, 60000, false, true }, FHD(48000), FHD(50000),
	    FHD(30000) }, 3,
	  { { 0 } }, 0, ACTIVE, false, 0, 0, 0, SEAMLESS, 2, "input" },
	{ "a lower resolution drops among its own modes",
	  { FHD_NATIVE(60000), HD(30000), FHD(48000), HD(60000) }, 3,
	  { { 0 } }, 0, LOW, false, 0, 0, 0, SEAMLESS, 1, "idle" },
	{ "a lower resolution never takes another's native mode",
	  { FHD_NATIVE(60000), HD(30000), FHD(48000), HD(50000) }, 1,
	  { { 0 } }, 0, ACTIVE, false, 0, 0, 0, SEAMLESS, 3, "input" },
};

SF_TEST(choose_table)
{
	for (size_t i = 0; i < SF_ARRAY_LENGTH(choose_cases); i++) {
		const struct choose_case *c = &choose_cases[i];
		struct sf_selector_params p;
		struct sf_selector sel;
		struct sf_selector_input in;
		struct sf_selection out;

		case_params(c, &p);
		case_input(c, &in);
		sf_selector_init(&sel, &p);
		sf_selector_choose(&sel, &in, t0, &out);
		expect_selection(sf_test_failed_, &out, c->expect, c->reason,
				 SF_TIME_NEVER);
		if (*sf_test_failed_) {
			printf("# case: %s\n", c->name);
			return;
		}
	}
}

SF_TEST(choose_with_no_valid_mode)
{
	static const struct sf_mode modes[] = { FHD_NATIVE(60000) };
	struct sf_selector_params p;
	struct sf_selector sel;
	struct sf_selection out;

	sf_selector_params_init_default(&p);
	sf_selector_init(&sel, &p);
	struct sf_selector_input in = { .modes = modes, .n_modes = 0 };
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 0, "no candidate", SF_TIME_NEVER);
	in.n_modes = 1;
	in.current = 1;
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 1, "no candidate", SF_TIME_NEVER);
}

static const struct sf_mode dwell_modes[] = {
	FHD_NATIVE(60000), FHD(48000), FHD(40000), FHD(30000),
};
static const struct sf_vote video24[] = { VIDEO(24000) };

static void
dwell_setup(struct sf_selector *sel, struct sf_selector_input *in,
	    size_t current)
{
	struct sf_selector_params p;

	sf_selector_params_init_default(&p);
	sf_selector_init(sel, &p);
	*in = (struct sf_selector_input){
		.modes = dwell_modes,
		.n_modes = SF_ARRAY_LENGTH(dwell_modes),
		.current = current,
		.state = LOW,
	};
}

SF_TEST(dwell_holds_a_drop_until_it_has_passed)
{
	struct sf_selector sel;
	struct sf_selector_input in;
	struct sf_selection out;

	dwell_setup(&sel, &in, 0);
	sf_selector_notify_switched(&sel, t0);
	sf_selector_choose(&sel, &in, t0 + SF_SEC(1), &out);
	EXPECT(&out, 0, "dwell", t0 + SF_SEC(2));
	sf_selector_choose(&sel, &in, t0 + SF_SEC(2) - 1, &out);
	EXPECT(&out, 0, "dwell", t0 + SF_SEC(2));
	sf_selector_choose(&sel, &in, t0 + SF_SEC(2), &out);
	EXPECT(&out, 3, "idle", SF_TIME_NEVER);

	/* A partial drop, 48 -> 30 Hz, with no transition behind it is a
	 * content-rate switch: it waits for its target to hold a dwell. */
	in.current = 1;
	sf_selector_notify_switched(&sel, t0 + SF_SEC(5));
	sf_selector_choose(&sel, &in, t0 + SF_SEC(6), &out);
	EXPECT(&out, 1, "settling", t0 + SF_SEC(8));
	sf_selector_choose(&sel, &in, t0 + SF_SEC(8), &out);
	EXPECT(&out, 3, "idle", SF_TIME_NEVER);
}

SF_TEST(dwell_never_delays_a_raise)
{
	struct sf_selector sel;
	struct sf_selector_input in;
	struct sf_selection out;

	dwell_setup(&sel, &in, 3);
	sf_selector_notify_switched(&sel, t0);

	in.state = ACTIVE;
	sf_selector_choose(&sel, &in, t0 + SF_MSEC(1), &out);
	EXPECT(&out, 0, "input", SF_TIME_NEVER);

	in.state = LOW;
	in.votes = video24;
	in.n_votes = 1;
	sf_selector_choose(&sel, &in, t0 + SF_MSEC(1), &out);
	EXPECT(&out, 1, "content rate", SF_TIME_NEVER);

	in.votes = NULL;
	in.n_votes = 0;
	in.pointer_moving = true;
	sel.params.pointer_min_mhz = 40000;
	sf_selector_choose(&sel, &in, t0 + SF_MSEC(1), &out);
	EXPECT(&out, 2, "pointer", SF_TIME_NEVER);

	/* Staying put is not held either. */
	in.pointer_moving = false;
	sf_selector_choose(&sel, &in, t0 + SF_MSEC(1), &out);
	EXPECT(&out, 3, "idle", SF_TIME_NEVER);
}

SF_TEST(dwell_holds_a_drop_to_the_input_rate)
{
	static const struct sf_mode modes[] = {
		FHD_NATIVE(60000), FHD(120000),
	};
	static const struct sf_vote game[] = {
		{ SF_VOTE_MAX, 0, 0, 0, SF_CONTENT_GAME, 1.0, false },
	};
	struct sf_selector_params p;
	struct sf_selector sel;
	struct sf_selection out;

	sf_selector_params_init_default(&p);
	sf_selector_init(&sel, &p);
	/* A range vote took the panel to 120 Hz and has gone; input and a
	 * game now ask for the native 60 Hz, which is a drop. */
	struct sf_selector_input in = {
		.modes = modes,
		.n_modes = SF_ARRAY_LENGTH(modes),
		.current = 1,
		.votes = game,
		.n_votes = 1,
		.state = ACTIVE,
	};
	sf_selector_notify_switched(&sel, t0);
	sf_selector_choose(&sel, &in, t0 + SF_SEC(1), &out);
	EXPECT(&out, 1, "dwell", t0 + SF_SEC(2));
	sf_selector_choose(&sel, &in, t0 + SF_SEC(3), &out);
	EXPECT(&out, 0, "input", SF_TIME_NEVER);
}

SF_TEST(no_dwell_before_the_first_switch)
{
	struct sf_selector sel;
	struct sf_selector_input in;
	struct sf_selection out;

	dwell_setup(&sel, &in, 0);
	sf_selector_choose(&sel, &in, 0, &out);
	EXPECT(&out, 3, "idle", SF_TIME_NEVER);
	sf_selector_choose(&sel, &in, SF_MSEC(1), &out);
	EXPECT(&out, 3, "idle", SF_TIME_NEVER);
}

SF_TEST(zero_dwell_drops_at_once)
{
	struct sf_selector sel;
	struct sf_selector_input in;
	struct sf_selection out;

	dwell_setup(&sel, &in, 0);
	sel.params.min_dwell = 0;
	sf_selector_notify_switched(&sel, t0);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 3, "idle", SF_TIME_NEVER);
}

SF_TEST(dwell_retry_does_not_overflow)
{
	struct sf_selector sel;
	struct sf_selector_input in;
	struct sf_selection out;

	dwell_setup(&sel, &in, 0);
	sel.params.min_dwell = SF_TIME_NEVER;
	sf_selector_notify_switched(&sel, t0);
	sf_selector_choose(&sel, &in, t0 + SF_SEC(3600), &out);
	EXPECT(&out, 0, "dwell", SF_TIME_NEVER);
}

SF_TEST(choosing_does_not_assume_the_switch)
{
	struct sf_selector sel;
	struct sf_selector_input in;
	struct sf_selection out;

	dwell_setup(&sel, &in, 0);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 3, "idle", SF_TIME_NEVER);
	sf_assert(!sel.changed_once);
	/* The switch did not happen: asking again gives the same answer. */
	sf_selector_choose(&sel, &in, t0 + 1, &out);
	EXPECT(&out, 3, "idle", SF_TIME_NEVER);
}

/* --- refresh changes are rare and never above native --- */

/* fake-KMS's modes: 60 Hz is the user's and the panel's preferred. */
static const struct sf_mode kms_modes[] = {
	FHD(120000), FHD_NATIVE(60000), FHD(48000), FHD(30000),
};
/* The X dummy's, none preferred; the user runs 60 Hz. */
static const struct sf_mode x_modes[] = {
	FHD(85000), FHD(75000), FHD(72000), FHD(60000), FHD(48000),
	FHD(30000),
};

static void
native_setup(struct sf_selector *sel, struct sf_selector_input *in,
	     const struct sf_mode *modes, size_t n_modes, size_t user,
	     size_t current, const struct sf_vote *votes, size_t n_votes,
	     enum sf_idle_state state)
{
	struct sf_selector_params p;

	sf_selector_params_init_default(&p);
	sf_selector_init(sel, &p);
	*in = (struct sf_selector_input){
		.modes = modes,
		.n_modes = n_modes,
		.current = current,
		.votes = votes,
		.n_votes = n_votes,
		.state = state,
		.has_user_mode = true,
		.user_mode = user,
	};
}

/* Finding 5: any input during a 24 fps video picked 120 Hz, above the
 * panel's native 60, where 24 fps plays exactly. */
SF_TEST(nothing_measured_or_input_goes_above_the_user_mode)
{
	static const struct sf_vote video[] = {
		{ SF_VOTE_HEURISTIC, 24000, 0, 0, SF_CONTENT_VIDEO, 1.0,
		  false },
	};
	static const struct sf_vote anim40[] = { MEASURED(40000) };
	static const struct sf_vote anim100[] = { MEASURED(100000) };
	static const struct sf_vote interactive[] = { SIMPLE(SF_VOTE_MAX) };
	static const struct sf_vote fresh[] = {
		{ SF_VOTE_MIN, 0, 0, 0, SF_CONTENT_NONE, 1.0, true },
	};
	struct sf_selector sel;
	struct sf_selector_input in;
	struct sf_selection out;

	native_setup(&sel, &in, kms_modes, 4, 1, 1, video, 1, ACTIVE);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 1, "input", SF_TIME_NEVER);
	/* 40 fps plays exactly at 120 Hz only: measured, it stays at 60. */
	native_setup(&sel, &in, kms_modes, 4, 1, 3, anim40, 1, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 1, "content rate", SF_TIME_NEVER);
	native_setup(&sel, &in, kms_modes, 4, 1, 3, anim100, 1, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 1, "content rate", SF_TIME_NEVER);
	native_setup(&sel, &in, kms_modes, 4, 1, 3, interactive, 1, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 1, "interactive", SF_TIME_NEVER);
	native_setup(&sel, &in, kms_modes, 4, 1, 3, fresh, 1, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 1, "new surface", SF_TIME_NEVER);

	/* On X, with no preferred mode, native is the user's 60 Hz, not
	 * the fastest 85 Hz. */
	native_setup(&sel, &in, x_modes, 6, 3, 5, NULL, 0, ACTIVE);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 3, "input", SF_TIME_NEVER);
	native_setup(&sel, &in, x_modes, 6, 3, 5, anim40, 1, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 3, "content rate", SF_TIME_NEVER);
}

SF_TEST(a_client_s_request_may_go_above_native)
{
	static const struct sf_vote range[] = { RANGE(100000, 0) };
	static const struct sf_vote exact[] = { EXACT(100000, 1.0) };
	static const struct sf_vote exact24[] = {
		EXACT(24000, 1.0),
		{ SF_VOTE_MIN, 0, 0, 0, SF_CONTENT_NONE, 1.0, true },
	};
	static const struct sf_vote game[] = {
		{ SF_VOTE_MAX, 0, 0, 0, SF_CONTENT_GAME, 1.0, false },
	};
	struct sf_selector sel;
	struct sf_selector_input in;
	struct sf_selection out;

	native_setup(&sel, &in, kms_modes, 4, 1, 1, range, 1, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 0, "content range", SF_TIME_NEVER);
	native_setup(&sel, &in, kms_modes, 4, 1, 1, exact, 1, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 0, "content rate", SF_TIME_NEVER);
	/* 24 fps content plays best at 120 Hz, but the client asks for
	 * nothing faster than native: 48 Hz, or 60 Hz while a new window
	 * holds the output at native. */
	native_setup(&sel, &in, kms_modes, 4, 1, 1, exact24, 2, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 1, "new surface", SF_TIME_NEVER);
	in.n_votes = 1;
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 2, "content rate", SF_TIME_NEVER);
	/* A game (_VARIABLE_REFRESH) gets the panel's own best mode: the
	 * fastest on X's dummy, above the user's 60 Hz. */
	native_setup(&sel, &in, x_modes, 6, 3, 3, game, 1, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 0, "game", SF_TIME_NEVER);
}

/* A mode of unknown refresh (0 mHz: an adapter found no rate in its
 * timings) tells nothing of what it saves or costs.  The user's own is
 * theirs, kept while they type; any other is never chosen, not even as
 * the panel's best mode for a game. */
SF_TEST(a_mode_of_unknown_refresh_is_never_chosen)
{
	static const struct sf_mode user_unknown[] = {
		FHD(0), FHD_NATIVE(204800), FHD(30000),
	};
	static const struct sf_mode preferred_unknown[] = {
		FHD(60000), FHD_NATIVE(0), FHD(144000), FHD(0),
	};
	static const struct sf_mode both_unknown[] = {
		FHD(0), FHD_NATIVE(0), FHD(120000),
	};
	static const struct sf_vote game[] = {
		{ SF_VOTE_MAX, 0, 0, 0, SF_CONTENT_GAME, 1.0, false },
	};
	static const struct sf_vote range[] = { RANGE(0, 1000) };
	struct sf_selector sel;
	struct sf_selector_input in;
	struct sf_selection out;

	/* Input keeps the user's mode, though the panel prefers another. */
	native_setup(&sel, &in, user_unknown, 3, 0, 0, NULL, 0, ACTIVE);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 0, "input", SF_TIME_NEVER);
	native_setup(&sel, &in, user_unknown, 3, 0, 0, NULL, 0, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 0, "idle", SF_TIME_NEVER);
	/* A game gets the fastest known mode, not a preferred one of
	 * unknown refresh. */
	native_setup(&sel, &in, preferred_unknown, 4, 0, 0, game, 1, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 2, "game", SF_TIME_NEVER);
	/* Nor does a range below 1 Hz: the slowest known mode above it
	 * serves it. */
	native_setup(&sel, &in, preferred_unknown, 4, 0, 0, range, 1, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 0, "content range", SF_TIME_NEVER);
	/* Taken above the user's unknown rate by a game, an output is not
	 * moved to the panel's preferred mode of unknown refresh. */
	native_setup(&sel, &in, both_unknown, 3, 0, 2, game, 1, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 2, "game", SF_TIME_NEVER);
	/* Without it, back to the user's own once that holds. */
	in.n_votes = 0;
	sf_selector_choose(&sel, &in, t0 + 1, &out);
	EXPECT(&out, 2, "settling", t0 + 1 + SF_SEC(2));
	sf_selector_choose(&sel, &in, t0 + 1 + SF_SEC(2), &out);
	EXPECT(&out, 0, "idle", SF_TIME_NEVER);
}

/* Finding 10: a content-rate switch needs its target held for a dwell,
 * and comes five dwells after the last one at the earliest. */
SF_TEST(a_content_rate_switch_waits_for_a_steady_target)
{
	static const struct sf_vote v24[] = { MEASURED(24000) };
	static const struct sf_vote v30[] = { MEASURED(30000) };
	static const struct sf_vote v60[] = { MEASURED(60000) };
	struct sf_selector sel;
	struct sf_selector_input in;
	struct sf_selection out;

	/* Idle, at 60 Hz for an unknown rate; the rate becomes 24 fps. */
	static const struct sf_vote unknown[] = { MEASURED(0) };
	native_setup(&sel, &in, kms_modes, 4, 1, 1, unknown, 1, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 1, "content rate unknown", SF_TIME_NEVER);
	in.votes = v24;
	sf_selector_choose(&sel, &in, t0 + SF_SEC(1), &out);
	EXPECT(&out, 1, "settling", t0 + SF_SEC(3));
	/* It wanders for a moment: the wait starts again. */
	in.votes = v60;
	sf_selector_choose(&sel, &in, t0 + SF_SEC(2), &out);
	EXPECT(&out, 1, "content rate", SF_TIME_NEVER);
	in.votes = v24;
	sf_selector_choose(&sel, &in, t0 + SF_SEC(2) + 1, &out);
	EXPECT(&out, 1, "settling", t0 + SF_SEC(4) + 1);
	sf_selector_choose(&sel, &in, t0 + SF_SEC(4) + 1, &out);
	EXPECT(&out, 2, "content rate", SF_TIME_NEVER);
	sf_selector_notify_switched(&sel, t0 + SF_SEC(4) + 1);
	in.current = 2;

	/* A new rate right after: not before 10 s from the last switch. */
	in.votes = v30;
	sf_selector_choose(&sel, &in, t0 + SF_SEC(5), &out);
	EXPECT(&out, 2, "settling", t0 + SF_SEC(14) + 1);
	sf_selector_choose(&sel, &in, t0 + SF_SEC(9), &out);
	EXPECT(&out, 2, "settling", t0 + SF_SEC(14) + 1);
	sf_selector_choose(&sel, &in, t0 + SF_SEC(14) + 1, &out);
	EXPECT(&out, 3, "content rate", SF_TIME_NEVER);
}

SF_TEST(idle_and_wake_transitions_do_not_wait_for_content)
{
	static const struct sf_vote v24[] = { MEASURED(24000) };
	struct sf_selector sel;
	struct sf_selector_input in;
	struct sf_selection out;

	native_setup(&sel, &in, kms_modes, 4, 1, 2, v24, 1, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	sf_selector_notify_switched(&sel, t0);
	/* Input: native at once. */
	in.state = ACTIVE;
	sf_selector_choose(&sel, &in, t0 + SF_MSEC(100), &out);
	EXPECT(&out, 1, "input", SF_TIME_NEVER);
	sf_selector_notify_switched(&sel, t0 + SF_MSEC(100));
	in.current = 1;
	/* Idle again: back to 48 Hz once the dwell since the last change
	 * has passed, not after a content-rate wait. */
	in.state = LOW;
	sf_selector_choose(&sel, &in, t0 + SF_SEC(1), &out);
	EXPECT(&out, 1, "dwell", t0 + SF_SEC(2) + SF_MSEC(100));
	sf_selector_choose(&sel, &in, t0 + SF_SEC(2) + SF_MSEC(100), &out);
	EXPECT(&out, 2, "content rate", SF_TIME_NEVER);
}

/* A busy surface whose rate is not known (yet, or paced by the output)
 * runs at native: at the idle drop it keeps the output there.  But once
 * the user is idle and the output dropped, a burst of commits (Firefox
 * redrawing its page around a JavaScript clock, a page timer) is no
 * reason to switch, even one that looks like a video for a moment: it
 * keeps the mode the output runs until its rate is known, and then, as
 * a content rate, waits for a dwell.  Each such burst switched the
 * panel 30 -> 60 -> 30 Hz. */
SF_TEST(an_unknown_rate_runs_at_native_but_moves_no_idle_output)
{
	static const struct sf_vote unknown[] = { MEASURED(0) };
	struct sf_selector sel;
	struct sf_selector_input in;
	struct sf_selection out;

	/* At the idle drop (a transition) it keeps native. */
	native_setup(&sel, &in, kms_modes, 4, 1, 3, unknown, 1, ACTIVE);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 1, "input", SF_TIME_NEVER);
	in.state = LOW;
	sf_selector_choose(&sel, &in, t0 + SF_SEC(5), &out);
	EXPECT(&out, 1, "content rate unknown", SF_TIME_NEVER);

	/* Dropped with nothing busy: a burst later moves nothing. */
	native_setup(&sel, &in, kms_modes, 4, 1, 3, NULL, 0, LOW);
	sf_selector_choose(&sel, &in, t0, &out);
	EXPECT(&out, 3, "idle", SF_TIME_NEVER);
	in.current = 3;
	sf_selector_notify_switched(&sel, t0);
	in.votes = unknown;
	in.n_votes = 1;
	sf_selector_choose(&sel, &in, t0 + 1, &out);
	sf_assert_int_eq(out.mode, 3);
	/* Nor when the user goes deeper into idle. */
	in.state = DIM;
	sf_selector_choose(&sel, &in, t0 + SF_SEC(120), &out);
	sf_assert_int_eq(out.mode, 3);
	sf_selector_choose(&sel, &in, t0 + SF_SEC(121), &out);
	sf_assert_int_eq(out.mode, 3);
}

/* --- a surface's measured rate, steadied --- */

#define SETTLE SF_SEC(2)

SF_TEST(a_steady_rate_settles_after_a_dwell)
{
	struct sf_rate_settle rs = { 0 };

	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 0, 60000, 60000,
					       SETTLE, t0), 0);
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 24000, 60000, 60000,
					       SETTLE, t0), 0);
	sf_assert_int_eq(sf_rate_settle_due(&rs, SETTLE), t0 + SETTLE);
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 23976, 60000, 60000,
					       SETTLE, t0 + SF_SEC(1)), 0);
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 23976, 60000, 60000,
					       SETTLE, t0 + SETTLE),
			 (24000 + 23976 + 23976) / 3);
	sf_assert_int_eq(sf_rate_settle_due(&rs, SETTLE), SF_TIME_NEVER);
	/* No dwell: the first reading is the rate. */
	rs = (struct sf_rate_settle){ 0 };
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 24000, 60000, 60000,
					       0, t0), 24000);
}

/* mpv at 24 fps read "25 Hz" once and went 48 -> 75 Hz; a glitch read
 * 23 fps and went 48 -> 30 -> 48. */
SF_TEST(a_settled_rate_holds_against_single_readings)
{
	struct sf_rate_settle rs = { 0 };
	sf_time_t t = t0;

	sf_rate_settle_update(&rs, true, 24000, 60000, 60000, SETTLE, t);
	t += SETTLE;
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 24000, 48000, 60000,
					       SETTLE, t), 24000);
	static const uint32_t odd[] = { 25000, 23000, 30000, 12000, 0 };
	for (size_t i = 0; i < SF_ARRAY_LENGTH(odd); i++) {
		t += SF_MSEC(500);
		sf_assert_int_eq(sf_rate_settle_update(&rs, true, odd[i],
						       48000, 60000, SETTLE,
						       t), 24000);
		t += SF_MSEC(500);
		sf_assert_int_eq(sf_rate_settle_update(&rs, true, 24000,
						       48000, 60000, SETTLE,
						       t), 24000);
	}
	/* A few seconds without frames (a pause, a seek) keep it too. */
	sf_rate_settle_update(&rs, false, 0, 48000, 60000, SETTLE, t + 1);
	sf_assert_int_eq(sf_rate_settle_update(&rs, false, 0, 48000, 60000,
					       SETTLE, t + SF_SEC(5)), 24000);
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 0, 48000, 60000,
					       SETTLE, t + SF_SEC(6)), 24000);
	/* A new rate replaces it by holding as long. */
	t += SF_SEC(7);
	sf_rate_settle_update(&rs, true, 30000, 48000, 60000, SETTLE, t);
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 29970, 48000, 60000,
					       SETTLE, t + SETTLE),
			 (30000 + 29970) / 2);
	/* Long gone: forgotten. */
	t += SF_SEC(10);
	sf_rate_settle_update(&rs, false, 0, 48000, 60000, SETTLE, t);
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 0, 48000, 60000,
					       SETTLE, t + SF_RATE_FORGET), 0);
}

/* Finding 5: a CSS animation read anywhere from 40 to 57 fps. */
SF_TEST(a_wandering_rate_never_settles)
{
	static const uint32_t readings[] = {
		41000, 52000, 57000, 44000, 48000, 55000, 40000, 50000,
		56000, 45000,
	};
	struct sf_rate_settle rs = { 0 };

	for (int i = 0; i < 120; i++)
		sf_assert_int_eq(sf_rate_settle_update(
					 &rs, true, readings[i % 10], 60000,
					 60000, SETTLE,
					 t0 + i * SF_MSEC(700)), 0);
}

/* Stop 23's feedback loop, finding 11: a reading equal to the output's
 * rate while that is below native is the output's pace, not content:
 * the content may be as fast as native.  Like any reading it counts
 * once it holds for a dwell (a burst of a page's redraws while the
 * user is idle must not switch the panel). */
SF_TEST(a_rate_paced_by_a_low_output_reads_as_native_after_a_dwell)
{
	struct sf_rate_settle rs = { 0 };

	for (int i = 0; i < 20; i++)
		sf_assert_int_eq(sf_rate_settle_update(
					 &rs, true, 30000, 30000, 60000,
					 SETTLE, t0 + i * SF_SEC(1)),
				 i * SF_SEC(1) < SETTLE ? 0 : 60000);
	/* At native the same reading is the content's own rate. */
	sf_rate_settle_update(&rs, true, 30000, 60000, 60000, SETTLE, t0);
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 30000, 60000, 60000,
					       SETTLE, t0 + SETTLE), 30000);
	/* ... and stays it once the output plays it at 30 Hz. */
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 30000, 30000, 60000,
					       SETTLE, t0 + SF_SEC(9)), 30000);
	/* A settled 24 fps read at the output's 48 Hz for a moment (a
	 * video catching up): still 24.  For a dwell: as fast as native. */
	rs = (struct sf_rate_settle){ .settled_mhz = 24000 };
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 48000, 48000, 60000,
					       SETTLE, t0), 24000);
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 24000, 48000, 60000,
					       SETTLE, t0 + SF_MSEC(300)),
			 24000);
	sf_rate_settle_update(&rs, true, 48000, 48000, 60000, SETTLE, t0 + 1);
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 48000, 48000, 60000,
					       SETTLE, t0 + SETTLE + 1), 60000);
}

/* A page that renders slowly drew 35 fps at 60 Hz and 30 at 48 Hz;
 * following it down went 60 -> 48 -> 30 Hz.  Below native a slower
 * reading never lowers a settled rate; at native it does. */
SF_TEST(below_native_a_slower_reading_keeps_the_settled_rate)
{
	struct sf_rate_settle rs = { .settled_mhz = 35000 };

	for (int i = 0; i < 10; i++)
		sf_assert_int_eq(sf_rate_settle_update(
					 &rs, true, 30000, 48000, 60000,
					 SETTLE, t0 + i * SF_SEC(1)), 35000);
	/* Faster still counts. */
	sf_rate_settle_update(&rs, true, 45000, 48000, 60000, SETTLE, t0);
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 45000, 48000, 60000,
					       SETTLE, t0 + SETTLE), 45000);
	sf_rate_settle_update(&rs, true, 30000, 60000, 60000, SETTLE, t0);
	sf_assert_int_eq(sf_rate_settle_update(&rs, true, 30000, 60000, 60000,
					       SETTLE, t0 + SETTLE), 30000);
}

/* X reads a 24 fps video as 23.98 and 25 fps in turn: it settles at
 * their mean, which a 48 Hz mode plays, not 75 Hz (3 x 25). */
SF_TEST(a_rate_settles_at_the_mean_of_its_readings)
{
	struct sf_rate_settle rs = { 0 };
	static const uint32_t readings[] = { 25000, 23976, 25000, 23976 };

	for (int i = 0; i < 4; i++)
		sf_rate_settle_update(&rs, true, readings[i], 85000, 85000,
				      SETTLE, t0 + i * SF_MSEC(700));
	sf_assert_int_eq(rs.settled_mhz, (25000 * 2 + 23976 * 2) / 4);
}

SF_TEST_MAIN()
