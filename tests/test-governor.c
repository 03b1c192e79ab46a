/* SPDX-License-Identifier: MIT */
#include "sf-governor.h"
#include "sf-test.h"

/* Helpers take the harness's failure flag so they can assert; callers
 * wrap them in CHECK() to stop at the first failure. */
#define CHECK(call_)							\
	do {								\
		call_;							\
		if (*sf_test_failed_)					\
			return;						\
	} while (0)

#define ACTIVE SF_STATE_ACTIVE
#define LOW SF_STATE_LOW_REFRESH
#define DIM SF_STATE_DIM
#define STANDBY SF_STATE_DPMS_STANDBY
#define OFF SF_STATE_DPMS_OFF
#define NORMAL SF_RECLOCK_NORMAL
#define RLOW SF_RECLOCK_LOW

static const sf_time_t t0 = SF_SEC(1000);

struct step {
	sf_time_t at;			/* offset from the last input */
	enum sf_idle_state from, to;
	enum sf_reclock_level rfrom, rto;
	enum sf_governor_reason reason;
};

static void
expect_transition(bool *sf_test_failed_,
		  const struct sf_governor_transition *tr,
		  enum sf_idle_state from, enum sf_idle_state to,
		  enum sf_reclock_level rfrom, enum sf_reclock_level rto,
		  enum sf_governor_reason reason)
{
	sf_assert_str_eq(sf_idle_state_name(tr->from),
			 sf_idle_state_name(from));
	sf_assert_str_eq(sf_idle_state_name(tr->to), sf_idle_state_name(to));
	sf_assert_int_eq(tr->reclock_from, rfrom);
	sf_assert_int_eq(tr->reclock_to, rto);
	sf_assert_str_eq(sf_governor_reason_name(tr->reason),
			 sf_governor_reason_name(reason));
}

/* The governor announces `at` as its next deadline, does nothing just
 * before it and makes exactly the expected transition at it. */
static void
expect_step(bool *sf_test_failed_, struct sf_governor *gov, sf_time_t at,
	    const struct step *s)
{
	struct sf_governor_transition tr;

	sf_assert_int_eq(sf_governor_next_deadline(gov), at);
	sf_assert(!sf_governor_update(gov, at - 1, &tr));
	sf_assert(sf_governor_update(gov, at, &tr));
	CHECK(expect_transition(sf_test_failed_, &tr, s->from, s->to,
				s->rfrom, s->rto, s->reason));
	sf_assert_int_eq(gov->state, s->to);
	sf_assert_int_eq(gov->reclock, s->rto);
}

/* Calls update() at each announced deadline until `state` is reached;
 * *at is the time it got there. */
static void
walk_to(bool *sf_test_failed_, struct sf_governor *gov,
	enum sf_idle_state state, sf_time_t *at)
{
	struct sf_governor_transition tr;
	sf_time_t now = gov->last_input;

	for (int i = 0; i < 16 && gov->state != state; i++) {
		now = sf_governor_next_deadline(gov);
		if (now == SF_TIME_NEVER)
			break;
		sf_assert(sf_governor_update(gov, now, &tr));
	}
	*at = now;
	sf_assert_int_eq(gov->state, state);
}

/* The defaults, with the low-refresh stage 1 s after input instead of
 * 5 s: the tests below walk the stages and count from there. */
static void
params_init_test(struct sf_governor_params *p)
{
	sf_governor_params_init_default(p);
	p->stage_timeout[LOW] = SF_SEC(1);
}

static void
init_default(struct sf_governor *gov)
{
	struct sf_governor_params params;

	params_init_test(&params);
	sf_governor_init(gov, &params, t0);
}

SF_TEST(defaults)
{
	struct sf_governor_params p;

	sf_governor_params_init_default(&p);
	sf_assert_int_eq(p.stage_timeout[LOW], SF_SEC(5));
	sf_assert_int_eq(p.stage_timeout[DIM], SF_SEC(120));
	sf_assert_int_eq(p.stage_timeout[STANDBY], SF_SEC(300));
	sf_assert_int_eq(p.stage_timeout[OFF], SF_SEC(600));
	sf_assert(p.reclock);
	sf_assert_int_eq(p.reclock_delay, SF_SEC(2));
	sf_assert_int_eq(p.quick_wake_window, SF_SEC(10));
	sf_assert_int_eq(p.max_backoff, 2);

	struct sf_governor gov;
	sf_governor_init(&gov, &p, t0);
	sf_assert_int_eq(gov.state, ACTIVE);
	sf_assert_int_eq(gov.cap, OFF);
	sf_assert_int_eq(gov.reclock, NORMAL);
	sf_assert_int_eq(gov.backoff, 0);
}

SF_TEST(walks_every_stage_at_announced_deadlines)
{
	static const struct step steps[] = {
		{ SF_SEC(1), ACTIVE, LOW, NORMAL, NORMAL,
		  SF_GOVERNOR_REASON_TIMEOUT },
		{ SF_SEC(3), LOW, LOW, NORMAL, RLOW,
		  SF_GOVERNOR_REASON_SETTLED },
		{ SF_SEC(120), LOW, DIM, RLOW, RLOW,
		  SF_GOVERNOR_REASON_TIMEOUT },
		{ SF_SEC(300), DIM, STANDBY, RLOW, RLOW,
		  SF_GOVERNOR_REASON_TIMEOUT },
		{ SF_SEC(600), STANDBY, OFF, RLOW, RLOW,
		  SF_GOVERNOR_REASON_TIMEOUT },
	};
	struct sf_governor gov;
	struct sf_governor_transition tr;

	init_default(&gov);
	for (size_t i = 0; i < SF_ARRAY_LENGTH(steps); i++)
		CHECK(expect_step(sf_test_failed_, &gov, t0 + steps[i].at,
				  &steps[i]));
	sf_assert_int_eq(sf_governor_next_deadline(&gov), SF_TIME_NEVER);
	sf_assert(!sf_governor_update(&gov, t0 + SF_SEC(86400), &tr));
	sf_assert_int_eq(gov.state, OFF);
}

SF_TEST(stage_timeouts_table)
{
	/* Reclock off so only stage transitions show. */
	static const struct {
		const char *name;
		sf_time_t timeout[SF_STATE_COUNT];
		struct { sf_time_t at; enum sf_idle_state to; } seq[4];
		size_t n;
	} cases[] = {
		{ "dim disabled", { 0, SF_SEC(1), 0, SF_SEC(300), SF_SEC(600) },
		  { { SF_SEC(1), LOW }, { SF_SEC(300), STANDBY },
		    { SF_SEC(600), OFF } }, 3 },
		{ "low refresh disabled",
		  { 0, 0, SF_SEC(120), SF_SEC(300), SF_SEC(600) },
		  { { SF_SEC(120), DIM }, { SF_SEC(300), STANDBY },
		    { SF_SEC(600), OFF } }, 3 },
		{ "only off", { 0, 0, 0, 0, SF_SEC(60) },
		  { { SF_SEC(60), OFF } }, 1 },
		/* A shallower stage with a longer timeout holds the deeper
		 * ones back; each still gets its own transition. */
		{ "misordered",
		  { 0, SF_SEC(1), SF_SEC(400), SF_SEC(300), SF_SEC(600) },
		  { { SF_SEC(1), LOW }, { SF_SEC(400), DIM },
		    { SF_SEC(400), STANDBY }, { SF_SEC(600), OFF } }, 4 },
		{ "all disabled", { 0, 0, 0, 0, 0 }, { { 0, ACTIVE } }, 0 },
	};

	for (size_t c = 0; c < SF_ARRAY_LENGTH(cases); c++) {
		struct sf_governor_params p;
		struct sf_governor gov;
		struct sf_governor_transition tr;

		printf("# case: %s\n", cases[c].name);
		params_init_test(&p);
		p.reclock = false;
		for (int s = 0; s < SF_STATE_COUNT; s++)
			p.stage_timeout[s] = cases[c].timeout[s];
		sf_governor_init(&gov, &p, t0);

		for (size_t i = 0; i < cases[c].n; i++) {
			sf_time_t at = t0 + cases[c].seq[i].at;
			enum sf_idle_state from = gov.state;

			sf_assert_int_eq(sf_governor_next_deadline(&gov), at);
			sf_assert(!sf_governor_update(&gov, at - 1, &tr));
			sf_assert(sf_governor_update(&gov, at, &tr));
			sf_assert_int_eq(tr.from, from);
			sf_assert_int_eq(tr.to, cases[c].seq[i].to);
			sf_assert_int_eq(tr.reason,
					 SF_GOVERNOR_REASON_TIMEOUT);
			sf_assert_int_eq(tr.reclock_to, NORMAL);
		}
		sf_assert_int_eq(sf_governor_next_deadline(&gov),
				 SF_TIME_NEVER);
		sf_assert(!sf_governor_update(&gov, t0 + SF_SEC(100000), &tr));
	}
}

SF_TEST(late_update_makes_one_transition_per_call)
{
	static const enum sf_idle_state order[] = { LOW, DIM, STANDBY, OFF };
	struct sf_governor gov;
	struct sf_governor_transition tr;
	sf_time_t now = t0 + SF_SEC(3600);

	init_default(&gov);
	for (size_t i = 0; i < SF_ARRAY_LENGTH(order); i++) {
		sf_assert(sf_governor_update(&gov, now, &tr));
		sf_assert_int_eq(tr.to, order[i]);
		sf_assert_int_eq(tr.reason, SF_GOVERNOR_REASON_TIMEOUT);
	}
	/* The reclock was settled from when LOW_REFRESH was entered. */
	sf_assert_int_eq(sf_governor_next_deadline(&gov), now + SF_SEC(2));
	sf_assert(!sf_governor_update(&gov, now, &tr));
	sf_assert(sf_governor_update(&gov, now + SF_SEC(2), &tr));
	sf_assert_int_eq(tr.from, OFF);
	sf_assert_int_eq(tr.to, OFF);
	sf_assert_int_eq(tr.reclock_to, RLOW);
	sf_assert_int_eq(tr.reason, SF_GOVERNOR_REASON_SETTLED);
	sf_assert(!sf_governor_update(&gov, now + SF_SEC(2), &tr));
}

SF_TEST(input_from_each_state_returns_active)
{
	static const struct {
		enum sf_idle_state state;
		bool reclocked;
	} cases[] = {
		{ LOW, false }, { LOW, true }, { DIM, true },
		{ STANDBY, true }, { OFF, true },
	};

	for (size_t c = 0; c < SF_ARRAY_LENGTH(cases); c++) {
		struct sf_governor gov;
		struct sf_governor_transition tr;
		sf_time_t now;

		init_default(&gov);
		if (cases[c].reclocked) {
			CHECK(walk_to(sf_test_failed_, &gov, cases[c].state,
				      &now));
			if (gov.reclock == NORMAL) {
				now += SF_SEC(2);
				sf_assert(sf_governor_update(&gov, now, &tr));
			}
			sf_assert_int_eq(gov.reclock, RLOW);
		} else {
			now = t0 + SF_SEC(1);
			sf_assert(sf_governor_update(&gov, now, &tr));
			sf_assert_int_eq(gov.reclock, NORMAL);
		}
		sf_assert_int_eq(gov.state, cases[c].state);

		now += SF_MSEC(500);
		sf_assert(sf_governor_notify_input(&gov, now, &tr));
		CHECK(expect_transition(sf_test_failed_, &tr, cases[c].state,
					ACTIVE,
					cases[c].reclocked ? RLOW : NORMAL,
					NORMAL, SF_GOVERNOR_REASON_INPUT));
		sf_assert_int_eq(gov.state, ACTIVE);
		sf_assert_int_eq(gov.reclock, NORMAL);
		sf_assert_int_eq(gov.last_input, now);
		/* The full LOW_REFRESH timeout again, counted from now. */
		sf_assert_int_eq(sf_governor_next_deadline(&gov),
				 now + SF_SEC(1));
		/* More input while ACTIVE changes nothing. */
		sf_assert(!sf_governor_notify_input(&gov, now + 1, &tr));
	}
}

SF_TEST(cap_holds_low_refresh_for_hours)
{
	struct sf_governor gov;
	struct sf_governor_transition tr;

	init_default(&gov);
	sf_assert(!sf_governor_set_cap(&gov, LOW, t0, &tr));
	sf_assert(sf_governor_update(&gov, t0 + SF_SEC(1), &tr));
	sf_assert_int_eq(tr.to, LOW);
	sf_assert(sf_governor_update(&gov, t0 + SF_SEC(3), &tr));
	sf_assert_int_eq(tr.reclock_to, RLOW);
	sf_assert_int_eq(sf_governor_next_deadline(&gov), SF_TIME_NEVER);

	/* Hours later, polled every minute: never past the cap. */
	for (sf_time_t t = SF_SEC(60); t <= SF_SEC(5 * 3600); t += SF_SEC(60))
		sf_assert(!sf_governor_update(&gov, t0 + t, &tr));
	sf_assert_int_eq(gov.state, LOW);
	sf_assert_int_eq(gov.reclock, RLOW);

	/* Cap released (the video ended): the held-back stages wait their
	 * full timeouts from the release, not from the input hours ago. */
	sf_time_t now = t0 + SF_SEC(5 * 3600);
	sf_assert(!sf_governor_set_cap(&gov, OFF, now, &tr));
	sf_assert_int_eq(sf_governor_next_deadline(&gov), now + SF_SEC(120));
	sf_assert(!sf_governor_update(&gov, now + SF_SEC(119), &tr));
	static const struct {
		sf_time_t after;
		enum sf_idle_state to;
	} order[] = {
		{ SF_SEC(120), DIM },
		{ SF_SEC(300), STANDBY },
		{ SF_SEC(600), OFF },
	};
	for (size_t i = 0; i < SF_ARRAY_LENGTH(order); i++) {
		sf_assert(sf_governor_update(&gov, now + order[i].after, &tr));
		sf_assert_int_eq(tr.to, order[i].to);
	}
	sf_assert(!sf_governor_update(&gov, now + SF_SEC(600), &tr));
}

SF_TEST(cap_lifts_deeper_state_at_once)
{
	static const struct {
		enum sf_idle_state cap, to;
		bool dim_enabled;
		enum sf_reclock_level rto;
	} cases[] = {
		{ OFF, OFF, true, RLOW },	/* not lower: no change */
		{ STANDBY, STANDBY, true, RLOW },
		{ DIM, DIM, true, RLOW },
		{ LOW, LOW, true, RLOW },
		{ ACTIVE, ACTIVE, true, NORMAL },
		/* A disabled stage is never shown, even as a cap. */
		{ DIM, LOW, false, RLOW },
	};

	for (size_t c = 0; c < SF_ARRAY_LENGTH(cases); c++) {
		struct sf_governor_params p;
		struct sf_governor gov;
		struct sf_governor_transition tr;

		params_init_test(&p);
		if (!cases[c].dim_enabled)
			p.stage_timeout[DIM] = 0;
		sf_governor_init(&gov, &p, t0);
		sf_time_t now;
		CHECK(walk_to(sf_test_failed_, &gov, OFF, &now));
		sf_assert_int_eq(gov.reclock, RLOW);

		now += SF_SEC(5);
		bool changed = sf_governor_set_cap(&gov, cases[c].cap, now,
						   &tr);
		sf_assert_int_eq(changed, cases[c].to != OFF);
		sf_assert_int_eq(gov.state, cases[c].to);
		sf_assert_int_eq(gov.reclock, cases[c].rto);
		if (changed) {
			CHECK(expect_transition(sf_test_failed_, &tr, OFF,
						cases[c].to, RLOW,
						cases[c].rto,
						SF_GOVERNOR_REASON_CAP));
			sf_assert_int_eq(gov.entered_at, now);
		}
		/* Nothing deeper than the cap is scheduled. */
		sf_assert(!sf_governor_update(&gov, now + SF_SEC(10000), &tr));
		sf_assert_int_eq(gov.state, cases[c].to);
	}
}

SF_TEST(cap_active_never_leaves_active)
{
	struct sf_governor gov;
	struct sf_governor_transition tr;

	init_default(&gov);
	sf_assert(!sf_governor_set_cap(&gov, ACTIVE, t0, &tr));
	sf_assert_int_eq(sf_governor_next_deadline(&gov), SF_TIME_NEVER);
	sf_assert(!sf_governor_update(&gov, t0 + SF_SEC(3600), &tr));
	sf_assert_int_eq(gov.state, ACTIVE);
	sf_assert_int_eq(gov.reclock, NORMAL);
}

SF_TEST(reclock_waits_for_delay)
{
	struct sf_governor gov;
	struct sf_governor_transition tr;

	init_default(&gov);
	sf_assert(sf_governor_update(&gov, t0 + SF_SEC(1), &tr));
	sf_assert_int_eq(gov.reclock, NORMAL);
	sf_assert_int_eq(sf_governor_next_deadline(&gov), t0 + SF_SEC(3));
	sf_assert(!sf_governor_update(&gov, t0 + SF_SEC(3) - 1, &tr));
	sf_assert_int_eq(gov.reclock, NORMAL);
	sf_assert(sf_governor_update(&gov, t0 + SF_SEC(3), &tr));
	sf_assert_int_eq(gov.reclock, RLOW);
	sf_assert_int_eq(tr.from, LOW);
	sf_assert_int_eq(tr.to, LOW);
	sf_assert_int_eq(tr.reason, SF_GOVERNOR_REASON_SETTLED);
}

SF_TEST(reclock_not_while_busy)
{
	struct sf_governor gov;
	struct sf_governor_transition tr;

	init_default(&gov);
	sf_assert(!sf_governor_set_content_busy(&gov, true, t0, &tr));
	sf_assert(sf_governor_update(&gov, t0 + SF_SEC(1), &tr));
	sf_assert_int_eq(gov.state, LOW);
	/* Busy content: the next thing to do is DIM, not the reclock. */
	sf_assert_int_eq(sf_governor_next_deadline(&gov), t0 + SF_SEC(120));
	sf_assert(!sf_governor_update(&gov, t0 + SF_SEC(60), &tr));
	sf_assert_int_eq(gov.reclock, NORMAL);

	/* Quiet again at 60 s: the delay counts from there. */
	sf_time_t quiet = t0 + SF_SEC(60);
	sf_assert(!sf_governor_set_content_busy(&gov, false, quiet, &tr));
	sf_assert_int_eq(sf_governor_next_deadline(&gov), quiet + SF_SEC(2));
	sf_assert(!sf_governor_update(&gov, quiet + SF_SEC(2) - 1, &tr));
	sf_assert(sf_governor_update(&gov, quiet + SF_SEC(2), &tr));
	sf_assert_int_eq(gov.reclock, RLOW);

	/* Busy while LOW: NORMAL at once, the state stays. */
	sf_time_t busy = quiet + SF_SEC(10);
	sf_assert(sf_governor_set_content_busy(&gov, true, busy, &tr));
	CHECK(expect_transition(sf_test_failed_, &tr, LOW, LOW, RLOW, NORMAL,
				SF_GOVERNOR_REASON_BUSY));
	sf_assert_int_eq(gov.reclock, NORMAL);
	sf_assert_int_eq(gov.state, LOW);
	/* Repeating the same busy state reports nothing. */
	sf_assert(!sf_governor_set_content_busy(&gov, true, busy + 1, &tr));
}

SF_TEST(reclock_reset_by_refresh_change)
{
	struct sf_governor gov;
	struct sf_governor_transition tr;

	init_default(&gov);
	sf_assert(sf_governor_update(&gov, t0 + SF_SEC(1), &tr));
	/* The selector changes the refresh rate 1.5 s into LOW_REFRESH. */
	sf_time_t change = t0 + SF_MSEC(2500);
	sf_governor_notify_refresh_changed(&gov, change);
	sf_assert_int_eq(sf_governor_next_deadline(&gov), change + SF_SEC(2));
	sf_assert(!sf_governor_update(&gov, t0 + SF_SEC(3), &tr));
	sf_assert(!sf_governor_update(&gov, change + SF_SEC(2) - 1, &tr));
	sf_assert_int_eq(gov.reclock, NORMAL);
	sf_assert(sf_governor_update(&gov, change + SF_SEC(2), &tr));
	sf_assert_int_eq(gov.reclock, RLOW);

	/* A refresh change before LOW_REFRESH does not delay it beyond
	 * entering LOW_REFRESH plus the delay. */
	init_default(&gov);
	sf_governor_notify_refresh_changed(&gov, t0 + SF_MSEC(100));
	sf_assert(sf_governor_update(&gov, t0 + SF_SEC(1), &tr));
	sf_assert_int_eq(sf_governor_next_deadline(&gov), t0 + SF_SEC(3));
}

SF_TEST(reclock_disabled)
{
	struct sf_governor_params p;
	struct sf_governor gov;
	struct sf_governor_transition tr;

	params_init_test(&p);
	p.reclock = false;
	sf_governor_init(&gov, &p, t0);
	sf_assert(sf_governor_update(&gov, t0 + SF_SEC(1), &tr));
	sf_assert_int_eq(sf_governor_next_deadline(&gov), t0 + SF_SEC(120));
	sf_assert(!sf_governor_update(&gov, t0 + SF_SEC(100), &tr));
	sf_assert_int_eq(gov.reclock, NORMAL);
}

SF_TEST(backoff_after_quick_wake)
{
	/* Consecutive idle periods.  Each row: when DIM, STANDBY and OFF
	 * are due in this period (offsets from its last input), then the
	 * state the user wakes from, how long after entering it, and the
	 * backoff that leaves for the next period. */
	static const struct {
		sf_time_t dim, standby, off;
		enum sf_idle_state wake_from;
		sf_time_t wake_after;
		unsigned backoff;
	} rounds[] = {
		{ SF_SEC(120), SF_SEC(300), SF_SEC(600), DIM, SF_SEC(5), 1 },
		{ SF_SEC(240), SF_SEC(600), SF_SEC(1200), STANDBY, SF_SEC(10),
		  2 },
		/* At max_backoff it stays. */
		{ SF_SEC(480), SF_SEC(1200), SF_SEC(2400), OFF, SF_SEC(1), 2 },
		/* Just outside the window: a real idle period, reset. */
		{ SF_SEC(480), SF_SEC(1200), SF_SEC(2400), DIM,
		  SF_SEC(10) + 1, 0 },
		{ SF_SEC(120), SF_SEC(300), SF_SEC(600), OFF, SF_SEC(3), 1 },
		{ SF_SEC(240), SF_SEC(600), SF_SEC(1200), OFF, SF_SEC(3600),
		  0 },
		{ SF_SEC(120), SF_SEC(300), SF_SEC(600), DIM, 0, 1 },
	};
	struct sf_governor gov;
	struct sf_governor_transition tr;

	init_default(&gov);
	for (size_t r = 0; r < SF_ARRAY_LENGTH(rounds); r++) {
		sf_time_t start = gov.last_input;
		const sf_time_t at[] = {
			[DIM] = rounds[r].dim,
			[STANDBY] = rounds[r].standby,
			[OFF] = rounds[r].off,
		};

		printf("# round %zu\n", r);
		/* LOW_REFRESH never backs off. */
		sf_assert_int_eq(sf_governor_next_deadline(&gov),
				 start + SF_SEC(1));
		sf_assert(sf_governor_update(&gov, start + SF_SEC(1), &tr));
		sf_assert_int_eq(tr.to, LOW);
		sf_assert(sf_governor_update(&gov, start + SF_SEC(3), &tr));
		sf_assert_int_eq(tr.reclock_to, RLOW);
		for (int s = DIM; s <= (int)rounds[r].wake_from; s++) {
			sf_time_t due = start + at[s];

			sf_assert_int_eq(sf_governor_next_deadline(&gov), due);
			sf_assert(!sf_governor_update(&gov, due - 1, &tr));
			sf_assert(sf_governor_update(&gov, due, &tr));
			sf_assert_int_eq(tr.to, s);
		}

		sf_time_t wake = gov.entered_at + rounds[r].wake_after;
		sf_assert(sf_governor_notify_input(&gov, wake, &tr));
		sf_assert_int_eq(tr.from, rounds[r].wake_from);
		sf_assert_int_eq(gov.backoff, rounds[r].backoff);
	}
}

SF_TEST(input_while_low_refresh_keeps_backoff)
{
	struct sf_governor gov;
	struct sf_governor_transition tr;

	init_default(&gov);
	sf_time_t dim;
	CHECK(walk_to(sf_test_failed_, &gov, DIM, &dim));
	sf_assert(sf_governor_notify_input(&gov, dim + SF_SEC(1), &tr));
	sf_assert_int_eq(gov.backoff, 1);
	/* Waking from LOW_REFRESH says nothing about the deep stages. */
	sf_time_t low;
	CHECK(walk_to(sf_test_failed_, &gov, LOW, &low));
	sf_assert(sf_governor_notify_input(&gov, low + SF_SEC(60), &tr));
	sf_assert_int_eq(gov.backoff, 1);
}

SF_TEST(periodic_input_keeps_active)
{
	struct sf_governor gov;
	struct sf_governor_transition tr;
	sf_time_t period = SF_MSEC(900);

	init_default(&gov);
	for (sf_time_t t = t0; t < t0 + SF_SEC(3600); t += period) {
		sf_assert(!sf_governor_notify_input(&gov, t, &tr));
		sf_time_t next = sf_governor_next_deadline(&gov);
		sf_assert_int_gt(next, t + period);
		sf_assert(!sf_governor_update(&gov, t + period / 2, &tr));
		sf_assert(!sf_governor_update(&gov, t + period - 1, &tr));
		sf_assert_int_eq(gov.state, ACTIVE);
		sf_assert_int_eq(gov.reclock, NORMAL);
	}
}

SF_TEST(idle_state_is_monotone)
{
	struct sf_governor gov;
	struct sf_governor_transition tr;
	enum sf_idle_state last = ACTIVE;
	int transitions = 0;

	init_default(&gov);
	/* Content comes and goes (busy, refresh changes) while idle;
	 * none of it may move the state back. */
	for (sf_time_t t = t0; t <= t0 + SF_SEC(700); t += SF_MSEC(250)) {
		bool busy = (t / SF_SEC(7)) % 2 == 0;
		if (sf_governor_set_content_busy(&gov, busy, t, &tr)) {
			sf_assert_int_eq(tr.from, tr.to);
			sf_assert_int_eq(tr.reclock_to, NORMAL);
		}
		if ((t / SF_MSEC(250)) % 13 == 0)
			sf_governor_notify_refresh_changed(&gov, t);
		while (sf_governor_update(&gov, t, &tr)) {
			sf_assert_int_ge(tr.to, tr.from);
			sf_assert_int_eq(tr.from, last);
			if (tr.to != tr.from)
				transitions++;
			last = tr.to;
		}
		sf_assert_int_ge(gov.state, last);
	}
	sf_assert_int_eq(gov.state, OFF);
	sf_assert_int_eq(transitions, 4);
}

SF_TEST(low_refresh_reentry_needs_full_timeout)
{
	struct sf_governor gov;
	struct sf_governor_transition tr;

	init_default(&gov);
	sf_time_t now;
	CHECK(walk_to(sf_test_failed_, &gov, DIM, &now));
	now += SF_SEC(30);
	sf_assert(sf_governor_notify_input(&gov, now, &tr));
	sf_assert(!sf_governor_update(&gov, now + SF_SEC(1) - 1, &tr));
	sf_assert_int_eq(gov.state, ACTIVE);
	sf_assert(sf_governor_update(&gov, now + SF_SEC(1), &tr));
	sf_assert_int_eq(gov.state, LOW);
}

SF_TEST(deepest_state_within_a_wake_latency)
{
	struct sf_governor_params p;
	struct sf_governor gov;

	sf_governor_params_init_default(&p);
	sf_governor_init(&gov, &p, 0);
	/* A panel: one frame back from low refresh and dim, 50 ms from
	 * standby, 250 ms from off. */
	sf_assert_int_eq(sf_governor_deepest_within(&gov, 0), ACTIVE);
	sf_assert_int_eq(sf_governor_deepest_within(&gov, SF_MSEC(40)), DIM);
	sf_assert_int_eq(sf_governor_deepest_within(&gov, SF_MSEC(100)),
			 SF_STATE_DPMS_STANDBY);
	sf_assert_int_eq(sf_governor_deepest_within(&gov, SF_SEC(1)),
			 SF_STATE_DPMS_OFF);
	/* A monitor takes longer; a disabled stage is no answer. */
	for (int st = 0; st < SF_STATE_COUNT; st++)
		p.wake_latency[st] = sf_governor_default_wake_latency(
			SF_OUTPUT_KIND_EXTERNAL, st);
	p.stage_timeout[SF_STATE_DIM] = 0;
	sf_governor_set_params(&gov, &p);
	sf_assert_int_eq(sf_governor_deepest_within(&gov, SF_MSEC(40)), LOW);
	sf_assert_int_eq(sf_governor_deepest_within(&gov, SF_SEC(1)),
			 SF_STATE_DPMS_STANDBY);
	sf_assert_int_eq(sf_governor_deepest_within(&gov, SF_SEC(3)),
			 SF_STATE_DPMS_OFF);
}

SF_TEST(reason_names)
{
	static const struct {
		enum sf_governor_reason reason;
		const char *name;
	} names[] = {
		{ SF_GOVERNOR_REASON_TIMEOUT, "timeout" },
		{ SF_GOVERNOR_REASON_INPUT, "input" },
		{ SF_GOVERNOR_REASON_CAP, "cap" },
		{ SF_GOVERNOR_REASON_SETTLED, "settled" },
		{ SF_GOVERNOR_REASON_BUSY, "busy" },
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(names); i++)
		sf_assert_str_eq(sf_governor_reason_name(names[i].reason),
				 names[i].name);
	sf_assert_str_eq(sf_governor_reason_name(
				 (enum sf_governor_reason)99), "invalid");
}

SF_TEST_MAIN()
