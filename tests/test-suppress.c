/* SPDX-License-Identifier: MIT */
#include "sf-suppress.h"
#include "sf-test.h"

#define STATIC SF_CLASS_STATIC
#define INTERACTIVE SF_CLASS_INTERACTIVE
#define ANIMATING SF_CLASS_ANIMATING
#define VIDEO SF_CLASS_VIDEO
#define BLINKING SF_CLASS_BLINKING
#define TICKING SF_CLASS_TICKING
#define CHANGED SF_COMMIT_CHANGED
#define EMPTY SF_COMMIT_EMPTY
#define IDENTICAL SF_COMMIT_IDENTICAL
#define NOW SF_REPAINT_NOW
#define DEFER SF_REPAINT_DEFER
#define NOTHING SF_REPAINT_NOTHING

static const sf_time_t t0 = SF_SEC(500);

static void
expect_decision(bool *sf_test_failed_, const struct sf_repaint_gate *gate,
		const struct sf_suppress_params *params, sf_time_t now,
		enum sf_repaint_decision decision,
		enum sf_repaint_reason reason, sf_time_t deadline)
{
	sf_time_t got_deadline = 0;
	enum sf_repaint_reason got_reason = SF_REPAINT_REASON_NONE;

	sf_assert_int_eq(sf_repaint_gate_decide(gate, params, now,
						&got_deadline, &got_reason),
			 decision);
	sf_assert_str_eq(sf_repaint_reason_name(got_reason),
			 sf_repaint_reason_name(reason));
	if (decision == DEFER)
		sf_assert_int_eq(got_deadline, deadline);
}

#define EXPECT(gate_, params_, now_, decision_, reason_, deadline_)	\
	do {								\
		expect_decision(sf_test_failed_, gate_, params_, now_,	\
				decision_, SF_REPAINT_REASON_##reason_,	\
				deadline_);				\
		if (*sf_test_failed_)					\
			return;						\
	} while (0)

/* The defaults, with the tick staleness the cases below were written
 * for: 15 s, so blink (30 s), tick and redundant (1 s) deadlines all
 * differ. */
static void
test_params(struct sf_suppress_params *p)
{
	sf_suppress_params_init_default(p);
	p->tick_max_staleness = SF_SEC(15);
}

SF_TEST(defaults)
{
	struct sf_suppress_params p;

	sf_suppress_params_init_default(&p);
	sf_assert(p.enabled);
	sf_assert_int_eq(p.idle_delay, SF_SEC(3));
	sf_assert_int_eq(p.blink_max_staleness, SF_SEC(30));
	sf_assert_int_eq(p.tick_max_staleness, SF_SEC(30));
	sf_assert_int_eq(p.redundant_max_staleness, SF_SEC(1));
	sf_assert_int_eq(p.background_frame_interval, SF_MSEC(200));
}

SF_TEST(single_commit_rules)
{
	static const struct {
		bool enabled;
		enum sf_class cls;
		enum sf_commit_kind kind;
		bool idle;
		bool held;
		enum sf_repaint_decision decision;
		enum sf_repaint_reason reason;
		sf_time_t staleness;
	} cases[] = {
		/* Redundant commits, whatever the class or the user; while
		 * the user is away as long as the shorter of a blink's and a
		 * tick's (Firefox's empty commits around its caret woke the
		 * display once a second). */
		{ true, STATIC, EMPTY, true, true, DEFER,
		  SF_REPAINT_REASON_REDUNDANT, SF_SEC(15) },
		{ true, STATIC, EMPTY, false, true, DEFER,
		  SF_REPAINT_REASON_REDUNDANT, SF_SEC(1) },
		{ true, VIDEO, IDENTICAL, false, true, DEFER,
		  SF_REPAINT_REASON_REDUNDANT, SF_SEC(1) },
		{ true, INTERACTIVE, EMPTY, false, true, DEFER,
		  SF_REPAINT_REASON_REDUNDANT, SF_SEC(1) },
		{ true, BLINKING, IDENTICAL, false, true, DEFER,
		  SF_REPAINT_REASON_REDUNDANT, SF_SEC(1) },
		/* Nothing new from a blink or a tick while the user is away
		 * waits as long as its class would (a blink drawn on and off
		 * in one go: the backlog of a client the Xorg module held). */
		{ true, BLINKING, IDENTICAL, true, true, DEFER,
		  SF_REPAINT_REASON_REDUNDANT, SF_SEC(30) },
		{ true, TICKING, EMPTY, true, true, DEFER,
		  SF_REPAINT_REASON_REDUNDANT, SF_SEC(15) },
		{ true, TICKING, IDENTICAL, false, true, DEFER,
		  SF_REPAINT_REASON_REDUNDANT, SF_SEC(1) },
		{ true, ANIMATING, IDENTICAL, true, true, DEFER,
		  SF_REPAINT_REASON_REDUNDANT, SF_SEC(15) },
		/* Blinks and ticks only while the user is idle. */
		{ true, BLINKING, CHANGED, true, true, DEFER,
		  SF_REPAINT_REASON_BLINK_IDLE, SF_SEC(30) },
		{ true, TICKING, CHANGED, true, true, DEFER,
		  SF_REPAINT_REASON_TICK_IDLE, SF_SEC(15) },
		{ true, BLINKING, CHANGED, false, false, NOW,
		  SF_REPAINT_REASON_CHANGED, 0 },
		{ true, TICKING, CHANGED, false, false, NOW,
		  SF_REPAINT_REASON_CHANGED, 0 },
		/* Real changes always paint. */
		{ true, STATIC, CHANGED, true, false, NOW,
		  SF_REPAINT_REASON_CHANGED, 0 },
		{ true, INTERACTIVE, CHANGED, true, false, NOW,
		  SF_REPAINT_REASON_CHANGED, 0 },
		{ true, ANIMATING, CHANGED, true, false, NOW,
		  SF_REPAINT_REASON_CHANGED, 0 },
		{ true, VIDEO, CHANGED, true, false, NOW,
		  SF_REPAINT_REASON_CHANGED, 0 },
		/* Disabled: everything paints. */
		{ false, STATIC, EMPTY, true, false, NOW,
		  SF_REPAINT_REASON_DISABLED, 0 },
		{ false, BLINKING, CHANGED, true, false, NOW,
		  SF_REPAINT_REASON_DISABLED, 0 },
		{ false, VIDEO, CHANGED, false, false, NOW,
		  SF_REPAINT_REASON_DISABLED, 0 },
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++) {
		struct sf_suppress_params p;
		struct sf_repaint_gate gate;

		printf("# case %zu: %s %s idle=%d enabled=%d\n", i,
		       sf_class_name(cases[i].cls),
		       cases[i].kind == CHANGED ? "changed" :
		       cases[i].kind == EMPTY ? "empty" : "identical",
		       cases[i].idle, cases[i].enabled);
		test_params(&p);
		p.enabled = cases[i].enabled;
		sf_repaint_gate_init(&gate);
		sf_assert_int_eq(sf_repaint_gate_add_commit(&gate, &p,
							    cases[i].cls,
							    cases[i].kind,
							    cases[i].idle, t0),
				 cases[i].held);
		sf_assert(gate.pending);
		sf_assert_int_eq(gate.pending_since, t0);
		sf_assert_int_eq(gate.must_paint, !cases[i].held);
		sf_assert_int_eq(gate.deferred, cases[i].held ? 1 : 0);
		expect_decision(sf_test_failed_, &gate, &p, t0,
				cases[i].decision, cases[i].reason,
				t0 + cases[i].staleness);
		if (*sf_test_failed_)
			return;
	}
}

SF_TEST(deadline_is_smallest_staleness)
{
	struct sf_suppress_params p;
	struct sf_repaint_gate gate;

	test_params(&p);
	sf_repaint_gate_init(&gate);
	sf_assert(sf_repaint_gate_add_commit(&gate, &p, BLINKING, CHANGED,
					     true, t0));
	EXPECT(&gate, &p, t0, DEFER, BLINK_IDLE, t0 + SF_SEC(30));
	/* A later tick with an earlier flush time pulls it in. */
	sf_assert(sf_repaint_gate_add_commit(&gate, &p, TICKING, CHANGED,
					     true, t0 + SF_SEC(5)));
	EXPECT(&gate, &p, t0 + SF_SEC(5), DEFER, TICK_IDLE, t0 + SF_SEC(20));
	sf_assert(sf_repaint_gate_add_commit(&gate, &p, STATIC, IDENTICAL,
					     false, t0 + SF_SEC(10)));
	EXPECT(&gate, &p, t0 + SF_SEC(10), DEFER, REDUNDANT, t0 + SF_SEC(11));
	/* A later blink does not push it out. */
	sf_assert(sf_repaint_gate_add_commit(&gate, &p, BLINKING, CHANGED,
					     true, t0 + SF_MSEC(10500)));
	EXPECT(&gate, &p, t0 + SF_MSEC(10500), DEFER, BLINK_IDLE,
	       t0 + SF_SEC(11));
	sf_assert_int_eq(gate.deferred, 4);
	sf_assert_int_eq(gate.pending_since, t0);
	EXPECT(&gate, &p, t0 + SF_SEC(11) - 1, DEFER, BLINK_IDLE,
	       t0 + SF_SEC(11));
	EXPECT(&gate, &p, t0 + SF_SEC(11), NOW, STALE, 0);
}

SF_TEST(stale_flush)
{
	static const struct {
		enum sf_class cls;
		enum sf_commit_kind kind;
		sf_time_t staleness;
	} cases[] = {
		{ BLINKING, CHANGED, SF_SEC(30) },
		{ TICKING, CHANGED, SF_SEC(15) },
		{ ANIMATING, EMPTY, SF_SEC(15) },
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++) {
		struct sf_suppress_params p;
		struct sf_repaint_gate gate;
		sf_time_t due = t0 + cases[i].staleness;
		sf_time_t deadline = 0;
		enum sf_repaint_reason reason;

		test_params(&p);
		sf_repaint_gate_init(&gate);
		sf_assert(sf_repaint_gate_add_commit(&gate, &p, cases[i].cls,
						     cases[i].kind, true, t0));
		sf_assert_int_eq(sf_repaint_gate_decide(&gate, &p, due - 1,
							&deadline, &reason),
				 DEFER);
		sf_assert_int_eq(deadline, due);
		sf_assert_int_eq(sf_repaint_gate_decide(&gate, &p, due,
							&deadline, &reason),
				 NOW);
		sf_assert_int_eq(reason, SF_REPAINT_REASON_STALE);
		/* Late is still stale, never dropped. */
		sf_assert_int_eq(sf_repaint_gate_decide(&gate, &p,
							due + SF_SEC(3600),
							&deadline, &reason),
				 NOW);
		sf_assert_int_eq(reason, SF_REPAINT_REASON_STALE);
		sf_repaint_gate_painted(&gate);
		EXPECT(&gate, &p, due, NOTHING, NONE, 0);
	}
}

SF_TEST(forces_always_paint)
{
	static const uint32_t forces[] = {
		SF_FORCE_POINTER_MOVED, SF_FORCE_GEOMETRY, SF_FORCE_PLANE,
		SF_FORCE_OTHER, SF_FORCE_GEOMETRY | SF_FORCE_PLANE,
		0,	/* no reason given still paints */
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(forces); i++) {
		struct sf_suppress_params p;
		struct sf_repaint_gate gate;

		test_params(&p);

		/* Alone. */
		sf_repaint_gate_init(&gate);
		sf_repaint_gate_force(&gate, forces[i], t0);
		sf_assert(gate.pending);
		sf_assert_int_ne(gate.force, 0);
		sf_assert_int_eq(gate.force & forces[i], forces[i]);
		EXPECT(&gate, &p, t0, NOW, FORCED, 0);

		/* On top of held damage: flushes it. */
		sf_repaint_gate_init(&gate);
		sf_assert(sf_repaint_gate_add_commit(&gate, &p, BLINKING,
						     CHANGED, true, t0));
		EXPECT(&gate, &p, t0, DEFER, BLINK_IDLE, t0 + SF_SEC(30));
		sf_repaint_gate_force(&gate, forces[i], t0 + SF_SEC(1));
		sf_assert_int_eq(gate.pending_since, t0);
		EXPECT(&gate, &p, t0 + SF_SEC(1), NOW, FORCED, 0);
	}
}

SF_TEST(disabled_paints_everything)
{
	struct sf_suppress_params p;
	struct sf_repaint_gate gate;

	test_params(&p);
	p.enabled = false;
	sf_repaint_gate_init(&gate);
	sf_repaint_gate_force(&gate, SF_FORCE_OTHER, t0);
	EXPECT(&gate, &p, t0, NOW, DISABLED, 0);

	/* Held while enabled, then the configuration turns it off. */
	p.enabled = true;
	sf_repaint_gate_init(&gate);
	sf_assert(sf_repaint_gate_add_commit(&gate, &p, TICKING, CHANGED,
					     true, t0));
	EXPECT(&gate, &p, t0, DEFER, TICK_IDLE, t0 + SF_SEC(15));
	p.enabled = false;
	EXPECT(&gate, &p, t0, NOW, DISABLED, 0);
	/* Nothing pending stays nothing, even disabled. */
	sf_repaint_gate_painted(&gate);
	EXPECT(&gate, &p, t0, NOTHING, NONE, 0);
}

SF_TEST(blink_while_user_active_paints)
{
	struct sf_suppress_params p;
	struct sf_repaint_gate gate;

	test_params(&p);
	sf_repaint_gate_init(&gate);
	sf_assert(!sf_repaint_gate_add_commit(&gate, &p, BLINKING, CHANGED,
					      false, t0));
	EXPECT(&gate, &p, t0, NOW, CHANGED, 0);
}

SF_TEST(mixed_blink_and_changed_paints)
{
	static const bool changed_first[] = { false, true };

	for (size_t i = 0; i < SF_ARRAY_LENGTH(changed_first); i++) {
		struct sf_suppress_params p;
		struct sf_repaint_gate gate;

		test_params(&p);
		sf_repaint_gate_init(&gate);
		if (changed_first[i])
			sf_assert(!sf_repaint_gate_add_commit(
					  &gate, &p, STATIC, CHANGED, true,
					  t0));
		sf_assert(sf_repaint_gate_add_commit(&gate, &p, BLINKING,
						     CHANGED, true, t0));
		if (!changed_first[i]) {
			EXPECT(&gate, &p, t0, DEFER, BLINK_IDLE,
			       t0 + SF_SEC(30));
			sf_assert(!sf_repaint_gate_add_commit(
					  &gate, &p, STATIC, CHANGED, true,
					  t0));
		}
		EXPECT(&gate, &p, t0, NOW, CHANGED, 0);
	}
}

SF_TEST(nothing_pending)
{
	struct sf_suppress_params p;
	struct sf_repaint_gate gate;
	sf_time_t deadline = 0;
	enum sf_repaint_reason reason = SF_REPAINT_REASON_STALE;

	test_params(&p);
	sf_repaint_gate_init(&gate);
	sf_assert(!gate.pending);
	sf_assert_int_eq(sf_repaint_gate_decide(&gate, &p, t0, &deadline,
						&reason),
			 NOTHING);
	sf_assert_int_eq(reason, SF_REPAINT_REASON_NONE);
	sf_assert_int_eq(deadline, SF_TIME_NEVER);
	/* The out parameters are optional. */
	sf_assert_int_eq(sf_repaint_gate_decide(&gate, &p, t0, NULL, NULL),
			 NOTHING);
}

SF_TEST(painted_clears)
{
	struct sf_suppress_params p;
	struct sf_repaint_gate gate;

	test_params(&p);
	sf_repaint_gate_init(&gate);
	sf_assert(sf_repaint_gate_add_commit(&gate, &p, STATIC, EMPTY, true,
					     t0));
	sf_repaint_gate_force(&gate, SF_FORCE_PLANE, t0);
	sf_assert(!sf_repaint_gate_add_commit(&gate, &p, VIDEO, CHANGED,
					      true, t0));
	EXPECT(&gate, &p, t0, NOW, FORCED, 0);
	sf_repaint_gate_painted(&gate);
	sf_assert(!gate.pending);
	sf_assert(!gate.must_paint);
	sf_assert_int_eq(gate.force, 0);
	sf_assert_int_eq(gate.deferred, 0);
	EXPECT(&gate, &p, t0 + SF_SEC(100), NOTHING, NONE, 0);

	/* The old 1 s deadline does not linger into the next hold. */
	sf_time_t later = t0 + SF_SEC(100);
	sf_assert(sf_repaint_gate_add_commit(&gate, &p, BLINKING, CHANGED,
					     true, later));
	sf_assert_int_eq(gate.pending_since, later);
	EXPECT(&gate, &p, later, DEFER, BLINK_IDLE, later + SF_SEC(30));
}

SF_TEST(every_defer_has_a_finite_deadline)
{
	/* Even absurd staleness settings give a deadline: deferred damage
	 * is never lost. */
	static const sf_time_t staleness[] = {
		0, 1, SF_SEC(30), SF_TIME_NEVER / 2, SF_TIME_NEVER, -5,
	};

	for (size_t s = 0; s < SF_ARRAY_LENGTH(staleness); s++) {
		struct sf_suppress_params p;

		test_params(&p);
		p.blink_max_staleness = staleness[s];
		p.tick_max_staleness = staleness[s];
		p.redundant_max_staleness = staleness[s];
		for (int cls = 0; cls < SF_CLASS_COUNT; cls++)
		for (int kind = CHANGED; kind <= IDENTICAL; kind++)
		for (int idle = 0; idle < 2; idle++) {
			struct sf_repaint_gate gate;
			sf_time_t deadline = SF_TIME_NEVER;
			enum sf_repaint_reason reason;

			sf_repaint_gate_init(&gate);
			bool held = sf_repaint_gate_add_commit(&gate, &p, cls,
							       kind, idle,
							       t0);
			enum sf_repaint_decision d = sf_repaint_gate_decide(
				&gate, &p, t0, &deadline, &reason);
			sf_assert_int_ne(d, NOTHING);
			if (d == DEFER) {
				sf_assert(held);
				sf_assert_int_lt(deadline, SF_TIME_NEVER);
				sf_assert_int_gt(deadline, t0);
			}
			if (held && staleness[s] <= 0) {
				sf_assert_int_eq(d, NOW);
				sf_assert_int_eq(reason,
						 SF_REPAINT_REASON_STALE);
			} else if (held) {
				sf_assert_int_eq(d, DEFER);
			}
		}
	}
}

SF_TEST(throttle_intervals)
{
	static const struct {
		enum sf_class cls;
		bool focused, idle;
		sf_time_t interval;
	} cases[] = {
		/* Nothing but a blink or a tick is ever delayed: their
		 * repaints are held, never their frame callbacks. */
		{ BLINKING, true, true, 0 },
		{ BLINKING, false, true, 0 },
		{ BLINKING, true, false, 0 },
		{ TICKING, true, true, 0 },
		{ TICKING, false, true, 0 },
		{ TICKING, false, false, 0 },
		{ ANIMATING, false, true, SF_MSEC(200) },
		{ ANIMATING, true, true, 0 },
		{ ANIMATING, false, false, 0 },
		{ VIDEO, false, true, 0 },	/* a video plays on */
		{ VIDEO, true, true, 0 },
		{ STATIC, false, true, 0 },
		{ INTERACTIVE, false, true, 0 },
	};
	struct sf_suppress_params p;

	test_params(&p);
	for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++) {
		printf("# case %zu: %s focused=%d idle=%d\n", i,
		       sf_class_name(cases[i].cls), cases[i].focused,
		       cases[i].idle);
		sf_assert_int_eq(sf_suppress_throttle_interval(&p,
							       cases[i].cls,
							       cases[i].focused,
							       cases[i].idle),
				 cases[i].interval);
	}

	/* 0 turns the background throttle off. */
	p.background_frame_interval = 0;
	sf_assert_int_eq(sf_suppress_throttle_interval(&p, ANIMATING, false,
						       true),
			 0);
	/* Disabled suppression throttles nothing. */
	test_params(&p);
	p.enabled = false;
	sf_assert_int_eq(sf_suppress_throttle_interval(&p, BLINKING, false,
						       true),
			 0);
	sf_assert_int_eq(sf_suppress_throttle_interval(&p, ANIMATING, false,
						       true),
			 0);
}

/* A surface nobody watches closely (background priority, or on an
 * output that is off) is throttled freely, blinks and ticks included. */
SF_TEST(unwatched_intervals)
{
	static const struct {
		enum sf_class cls;
		sf_time_t interval;
	} cases[] = {
		{ BLINKING, SF_SEC(30) },
		{ TICKING, SF_SEC(15) },
		{ ANIMATING, SF_MSEC(200) },
		{ VIDEO, SF_MSEC(200) },
		{ STATIC, 0 },
		{ INTERACTIVE, 0 },
	};
	struct sf_suppress_params p;

	test_params(&p);
	for (size_t i = 0; i < SF_ARRAY_LENGTH(cases); i++)
		sf_assert_int_eq(sf_suppress_unwatched_interval(&p,
								cases[i].cls),
				 cases[i].interval);
	p.enabled = false;
	sf_assert_int_eq(sf_suppress_unwatched_interval(&p, BLINKING), 0);
}

SF_TEST(reason_names)
{
	static const struct {
		enum sf_repaint_reason reason;
		const char *name;
	} names[] = {
		{ SF_REPAINT_REASON_NONE, "none" },
		{ SF_REPAINT_REASON_DISABLED, "disabled" },
		{ SF_REPAINT_REASON_CHANGED, "changed" },
		{ SF_REPAINT_REASON_FORCED, "forced" },
		{ SF_REPAINT_REASON_STALE, "stale" },
		{ SF_REPAINT_REASON_BLINK_IDLE, "blink-idle" },
		{ SF_REPAINT_REASON_TICK_IDLE, "tick-idle" },
		{ SF_REPAINT_REASON_REDUNDANT, "redundant" },
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(names); i++)
		sf_assert_str_eq(sf_repaint_reason_name(names[i].reason),
				 names[i].name);
	sf_assert_str_eq(sf_repaint_reason_name((enum sf_repaint_reason)99),
			 "invalid");
}

/* A held blink never leaves the caret hidden: what may be held, by the
 * state the commit shows and the state the screen shows. */
SF_TEST(a_blink_is_held_only_while_the_screen_keeps_the_caret)
{
	static const struct {
		enum sf_blink_phase newest, shown;
		bool hold;
	} table[] = {
		{ SF_BLINK_PHASE_HIDDEN, SF_BLINK_PHASE_SHOWN, true },
		{ SF_BLINK_PHASE_HIDDEN, SF_BLINK_PHASE_UNKNOWN, true },
		{ SF_BLINK_PHASE_HIDDEN, SF_BLINK_PHASE_HIDDEN, true },
		/* The caret is on screen already: nothing to show. */
		{ SF_BLINK_PHASE_SHOWN, SF_BLINK_PHASE_SHOWN, true },
		/* It brings the caret back (a toolkit's last frame). */
		{ SF_BLINK_PHASE_SHOWN, SF_BLINK_PHASE_HIDDEN, false },
		{ SF_BLINK_PHASE_SHOWN, SF_BLINK_PHASE_UNKNOWN, false },
		/* Nobody can tell what it shows. */
		{ SF_BLINK_PHASE_UNKNOWN, SF_BLINK_PHASE_SHOWN, false },
		{ SF_BLINK_PHASE_UNKNOWN, SF_BLINK_PHASE_HIDDEN, false },
		{ SF_BLINK_PHASE_UNKNOWN, SF_BLINK_PHASE_UNKNOWN, false },
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(table); i++)
		sf_assert_int_eq(sf_suppress_blink_may_hold(table[i].newest,
							    table[i].shown),
				 table[i].hold);
}

/* An adapter that holds a blinking client (Xorg) holds it only behind
 * a commit that shows the caret: the one that would end its blinking is
 * never what waits. */
SF_TEST(a_blink_is_throttled_only_after_showing_the_caret)
{
	sf_assert(sf_suppress_blink_may_throttle(SF_BLINK_PHASE_SHOWN));
	sf_assert(!sf_suppress_blink_may_throttle(SF_BLINK_PHASE_HIDDEN));
	sf_assert(!sf_suppress_blink_may_throttle(SF_BLINK_PHASE_UNKNOWN));
}

SF_TEST_MAIN()
