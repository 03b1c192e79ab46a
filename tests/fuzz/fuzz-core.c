/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the whole policy core (classifier, governor,
 * selector, repaint gate) driven through its public API by an event
 * stream decoded from the input, as an adapter would drive it: outputs
 * with random modes come and go, surfaces commit random damage, input,
 * hints, focus and inhibitors arrive, repaints are asked for and the
 * core is dispatched at increasing virtual times.  After every step the
 * invariants below are checked, and a violation aborts so that libFuzzer
 * keeps the input:
 *  - every state is in range: idle state, DPMS level, reclock level,
 *    backlight, the current mode an index into the output's modes
 *    (which someone else may replace: sf_output_set_modes) and at the
 *    user's resolution: the core changes only the refresh;
 *  - the core never switches to a mode of unknown refresh (0 mHz) other
 *    than the user's own: it cannot tell what such a mode saves or costs;
 *  - a deferred repaint always has a flush deadline: while the adapter
 *    holds damage the core asked it to hold, the core's next deadline
 *    is not NEVER;
 *  - after input, within the same dispatch, every powered output the
 *    core drives runs at least at its native refresh, the floor while
 *    the user is active: the user's own mode (see check_floor());
 *  - dispatching makes progress: the core never asks to be called back
 *    at the same instant over and over.
 * The stand-in adapter records what the core asks for, as
 * tests/test-core.c's recorder does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz-input.h"
#include "sf-config.h"
#include "sf-core.h"
#include "sf-test-core.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_OUTPUTS 4
#define MAX_MODES 6
#define MAX_SURFACES 16

struct fz_output {
	struct sf_output *output;
	struct sf_mode modes[MAX_MODES];
	size_t n_modes;
	size_t user;		/* the user's mode: current at create or
				 * when someone else set modes */
	enum sf_dpms_level dpms;
	int32_t backlight;
	unsigned inhibits;
	bool deferred;		/* holding damage the core deferred */
};

struct fz_surface {
	struct sf_surface *surface;
	unsigned inhibits;
};

struct fz {
	struct fz_input in;	/* first: fuzz-input.h */
	sf_time_t now;
	struct sf_core *core;
	bool paused;
	struct fz_output outputs[MAX_OUTPUTS];
	struct fz_surface surfaces[MAX_SURFACES];
};

static const char *const output_names[] = {
	"eDP-1", "HDMI-A-1", "DP-2", "Virtual-1",
};

static void
fail(struct fz *f, const char *what)
{
	fprintf(stderr, "fuzz-core: invariant broken at %lld ns: %s\n",
		(long long)f->now, what);
	abort();
}

static struct fz_output *
output_of(struct fz *f, struct sf_output *output)
{
	struct fz_output *o = sf_output_get_user_data(output);

	/* The core asks before the adapter has tied its data: at create. */
	return o;
}

/* Set SF_FUZZ_VERBOSE to see the core's decisions for a crashing input
 * (./fuzz-core CRASH_FILE). */
static bool verbose;

static void
rec_log(void *data, enum sf_log_level level, const char *message)
{
	struct fz *f = data;

	if (level > SF_LOG_ERROR)
		fail(data, "log level out of range");
	if (verbose)
		fprintf(stderr, "%10.3f ms: %s\n", f->now / 1e6, message);
}

static bool
rec_set_mode(void *data, struct sf_output *output, size_t mode)
{
	struct fz_output *o = output_of(data, output);

	if (!o)
		return true;
	if (mode >= o->n_modes)
		fail(data, "set_mode beyond the output's modes");
	if (o->modes[mode].refresh_mhz == 0 && mode != o->user)
		fail(data, "set_mode to a mode of unknown refresh");
	return true;
}

static bool
rec_set_dpms(void *data, struct sf_output *output, enum sf_dpms_level level)
{
	struct fz_output *o = output_of(data, output);

	if (level > SF_DPMS_OFF)
		fail(data, "DPMS level out of range");
	if (o)
		o->dpms = level;
	return true;
}

static bool
rec_set_backlight(void *data, struct sf_output *output, int32_t percent)
{
	struct fz_output *o = output_of(data, output);

	if (percent < 0 || percent > 100)
		fail(data, "backlight out of range");
	if (o)
		o->backlight = percent;
	return true;
}

static bool
rec_set_reclock(void *data, enum sf_reclock_level level)
{
	if (level > SF_RECLOCK_LOW)
		fail(data, "reclock level out of range");
	return true;
}

static void
rec_schedule_repaint(void *data, struct sf_output *output)
{
	struct fz_output *o = output_of(data, output);

	if (o)
		o->deferred = false;
}

/* Dark, an output shows nothing and holds its damage without a
 * deadline; lit again, it paints (sf-core.h): either way the adapter
 * holds nothing the core must flush. */
static bool
rec_set_output_power(void *data, struct sf_output *output, bool on)
{
	struct fz_output *o = output_of(data, output);

	if (o)
		o->deferred = false;
	return true;
}

static const struct sf_core_interface fz_interface = {
	.log = rec_log,
	.set_mode = rec_set_mode,
	.set_dpms = rec_set_dpms,
	.set_backlight = rec_set_backlight,
	.set_reclock = rec_set_reclock,
	.schedule_repaint = rec_schedule_repaint,
	.set_output_power = rec_set_output_power,
};

static void
check_states(struct fz *f)
{
	bool deferred = false;

	if (sf_core_get_reclock(f->core) > SF_RECLOCK_LOW)
		fail(f, "reclock level out of range");
	for (int i = 0; i < MAX_OUTPUTS; i++) {
		struct fz_output *o = &f->outputs[i];
		if (!o->output)
			continue;
		if (sf_output_get_state(o->output) >= SF_STATE_COUNT)
			fail(f, "idle state out of range");
		size_t cur = sf_output_get_mode(o->output);
		if (cur >= o->n_modes)
			fail(f, "current mode out of range");
		if (o->modes[cur].width != o->modes[o->user].width ||
		    o->modes[cur].height != o->modes[o->user].height)
			fail(f, "the core left the user's resolution");
		deferred |= o->deferred;
	}
	if (deferred && sf_core_next_deadline(f->core) == SF_TIME_NEVER)
		fail(f, "a deferred repaint without a flush deadline");
}

/*
 * The floor while the user is active (active-refresh at its default, 0)
 * is the core's native mode: the user's own, the one the output ran when
 * the core took it or that someone else set since (sf-selector.h).  Not
 * the panel's preferred or fastest mode: input never raises an output
 * above what the user chose, so an output the user runs at 48 Hz, or at
 * a mode of unknown refresh (0 mHz), stays there when they type.  A
 * client's explicit rate, a game or a range may take it higher.
 */
static void
check_floor(struct fz *f)
{
	if (f->paused)
		return;
	for (int i = 0; i < MAX_OUTPUTS; i++) {
		struct fz_output *o = &f->outputs[i];
		if (!o->output || !sf_output_is_powered(o->output))
			continue;
		size_t cur = sf_output_get_mode(o->output);
		if (sf_output_get_state(o->output) != SF_STATE_ACTIVE)
			fail(f, "input did not wake an output");
		uint32_t native = o->modes[o->user].refresh_mhz;
		if (o->modes[cur].refresh_mhz < native) {
			fprintf(stderr, "fuzz-core: output %d at mode %zu, "
				"%u mHz, the user's mode %zu, %u mHz\n", i,
				cur, o->modes[cur].refresh_mhz, o->user,
				native);
			fail(f, "below the user's refresh after input");
		}
	}
}

static void
clock_before(void *data, sf_time_t at)
{
	struct fz *f = data;

	f->now = at;
}

static void
clock_after(void *data, sf_time_t at)
{
	check_states(data);
}

/* Runs the core's timers up to `until`, as an adapter's timer does
 * (sf-test-core.h), checking the states after each, then once more at
 * `until`. */
static void
run_until(struct fz *f, sf_time_t until)
{
	const struct sf_test_clock clock = {
		.before = clock_before,
		.after = clock_after,
		.data = f,
	};

	if (!sf_test_core_run(f->core, f->now, until, &clock))
		fail(f, "dispatch makes no progress");
	f->now = until;
	sf_core_dispatch(f->core, f->now);
}

/* An output's modes and the index of the current one. */
static size_t
random_modes(struct fz *f, struct fz_output *o)
{
	o->n_modes = 1 + byte(f) % MAX_MODES;
	for (size_t i = 0; i < o->n_modes; i++) {
		uint8_t b = byte(f);
		struct sf_mode *m = &o->modes[i];
		/* Mostly one resolution, sometimes a second one. */
		m->width = b & 0x80 ? 1280 : 1920;
		m->height = b & 0x80 ? 720 : 1080;
		m->refresh_mhz = u16(f) * 4;
		m->seamless = b & 1;
		m->preferred = b & 2;
	}
	return byte(f) % o->n_modes;
}

static void
op_output_create(struct fz *f)
{
	int slot = byte(f) % MAX_OUTPUTS;
	struct fz_output *o = &f->outputs[slot];

	if (o->output)
		return;
	*o = (struct fz_output){ .backlight = 100 };
	size_t current = random_modes(f, o);
	o->user = current;
	o->output = sf_output_create(f->core, output_names[slot], o->modes,
				     o->n_modes, current, f->now);
	if (!o->output)
		fail(f, "sf_output_create failed");
	sf_output_set_user_data(o->output, o);
	sf_output_set_kind(o->output, byte(f) % 3, f->now);
}

static void
op_output_destroy(struct fz *f)
{
	struct fz_output *o = &f->outputs[byte(f) % MAX_OUTPUTS];

	sf_output_destroy(o->output);
	o->output = NULL;
	o->deferred = false;
}

static struct fz_output *
some_output(struct fz *f)
{
	struct fz_output *o = &f->outputs[byte(f) % MAX_OUTPUTS];

	return o->output ? o : NULL;
}

static struct fz_surface *
some_surface(struct fz *f)
{
	struct fz_surface *s = &f->surfaces[byte(f) % MAX_SURFACES];

	return s->surface ? s : NULL;
}

static void
op_surface(struct fz *f)
{
	struct fz_surface *s = &f->surfaces[byte(f) % MAX_SURFACES];
	uint8_t what = byte(f);

	if (!s->surface) {
		s->surface = sf_surface_create(f->core, u16(f), u16(f),
					       f->now);
		if (!s->surface)
			fail(f, "sf_surface_create failed");
		s->inhibits = 0;
		return;
	}
	switch (what % 9) {
	case 0:
		sf_surface_destroy(s->surface);
		s->surface = NULL;
		break;
	case 1: {
		struct fz_output *o = some_output(f);
		sf_surface_set_output(s->surface, o ? o->output : NULL,
				      byte(f) / 255.0, f->now);
		break;
	}
	case 2:
		for (int i = 0; i < MAX_SURFACES; i++)
			if (f->surfaces[i].surface)
				sf_surface_set_focused(f->surfaces[i].surface,
						       &f->surfaces[i] == s,
						       f->now);
		break;
	case 3:
		if (byte(f) & 1) {
			s->inhibits++;
			sf_surface_inhibit(s->surface, f->now);
		} else if (s->inhibits > 0) {
			s->inhibits--;
			sf_surface_uninhibit(s->surface, f->now);
		}
		break;
	case 4:
		sf_surface_set_content_rate(s->surface, byte(f), byte(f),
					    f->now);
		break;
	case 5:
		sf_surface_set_rate_range(s->surface, u32(f), u32(f),
					  f->now);
		break;
	case 6:
		sf_surface_set_content_type(s->surface, byte(f) % 4, f->now);
		sf_surface_set_priority(s->surface, byte(f) % 3, f->now);
		break;
	case 7:
		sf_surface_set_size(s->surface, u16(f), u16(f));
		sf_surface_set_held(s->surface, byte(f) & 1);
		break;
	case 8: {
		/* A part of another window, or of none; cycles and self
		 * links included. */
		struct fz_surface *p = &f->surfaces[byte(f) % MAX_SURFACES];
		sf_surface_set_parent(s->surface, p->surface);
		break;
	}
	}
}

static void
op_commit(struct fz *f)
{
	struct fz_surface *s = some_surface(f);
	struct sf_box boxes[4];
	uint8_t b = byte(f);
	uint32_t n = b % 5;

	if (!s)
		return;
	for (uint32_t i = 0; i < n; i++) {
		boxes[i].x1 = (int16_t)u16(f);
		boxes[i].y1 = (int16_t)u16(f);
		boxes[i].x2 = boxes[i].x1 + byte(f);
		boxes[i].y2 = boxes[i].y1 + byte(f);
	}
	struct sf_commit_desc commit = {
		.time = f->now,
		.boxes = n ? boxes : NULL,
		.n_boxes = n,
		.has_hash = b & 0x10,
		.hash = byte(f) % 4,	/* few hashes: repeats are likely */
		.unchanged = b & 0x20,
	};
	sf_surface_should_read_pixels(s->surface);
	sf_surface_commit(s->surface, &commit);
	sf_surface_may_hold_client(s->surface, f->now);
	sf_surface_get_frame_interval(s->surface, f->now);
}

static void
op_input(struct fz *f)
{
	sf_core_notify_input(f->core, byte(f) % SF_INPUT_KIND_COUNT, f->now);
	sf_core_dispatch(f->core, f->now);
	check_floor(f);
}

static void
op_repaint(struct fz *f)
{
	struct fz_output *o = some_output(f);
	sf_time_t deadline = SF_TIME_NEVER;

	if (!o)
		return;
	uint32_t force = byte(f) & 0x1f;
	enum sf_repaint_decision d = sf_output_repaint(o->output, force,
						       f->now, &deadline);
	if (d > SF_REPAINT_NOTHING)
		fail(f, "repaint decision out of range");
	if (d == SF_REPAINT_DEFER && !sf_output_is_powered(o->output)) {
		o->deferred = false;
	} else if (d == SF_REPAINT_DEFER) {
		if (deadline == SF_TIME_NEVER)
			fail(f, "a repaint deferred without a deadline");
		o->deferred = true;
	} else {
		o->deferred = false;
	}
}

static void
op_output_misc(struct fz *f)
{
	struct fz_output *o = some_output(f);
	uint8_t what = byte(f);

	if (!o)
		return;
	switch (what % 5) {
	case 0:
		if (what & 0x80) {
			o->inhibits++;
			sf_output_inhibit(o->output, f->now);
		} else if (o->inhibits > 0) {
			o->inhibits--;
			sf_output_uninhibit(o->output, f->now);
		}
		break;
	case 1:
		sf_output_request_power(o->output, (what >> 3) % 3, f->now);
		break;
	case 2:
		if (!(what & 0x40)) {
			sf_output_notify_hotplug(o->output, f->now);
			break;
		}
		/* Someone else set a mode: the adapter's new list. */
		size_t current = random_modes(f, o);
		o->user = current;
		if (!sf_output_set_modes(o->output, o->modes, o->n_modes,
					 current, f->now))
			fail(f, "sf_output_set_modes failed");
		if (sf_output_get_mode(o->output) != current)
			fail(f, "the new modes' current one is not current");
		break;
	case 3:
		sf_core_notify_keep_awake(f->core, f->now);
		break;
	case 4:
		f->paused = !f->paused;
		sf_core_set_paused(f->core, f->paused, f->now);
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { .in = { .data = data, .size = size } };
	struct sf_config cfg;

	/* Every output is the selector's to drive, so that the floor
	 * applies to all of them. */
	verbose = getenv("SF_FUZZ_VERBOSE") != NULL;
	sf_config_init_defaults(&cfg);
	if (sf_config_set(&cfg, SF_CONFIG_NS_INI, "outputs", "all", NULL,
			  0) != SF_CONFIG_OK)
		abort();
	f.core = sf_core_create(&cfg, &fz_interface, &f, 0);
	if (!f.core)
		abort();

	while (f.in.size > 0) {
		switch (byte(&f) % 9) {
		case 0:
			op_output_create(&f);
			break;
		case 1:
			op_output_destroy(&f);
			break;
		case 2:
			op_surface(&f);
			break;
		case 3:
		case 4:
			op_commit(&f);
			break;
		case 5:
			op_input(&f);
			break;
		case 6:
			op_repaint(&f);
			break;
		case 7:
			op_output_misc(&f);
			break;
		case 8:
			/* Up to about 65 s ahead, finely at first. */
			run_until(&f, f.now + SF_MSEC(1) *
				  (sf_time_t)u16(&f) * (byte(&f) % 4 + 1));
			break;
		}
		check_states(&f);
	}
	for (int i = 0; i < MAX_SURFACES; i++)
		sf_surface_destroy(f.surfaces[i].surface);
	sf_core_destroy(f.core);
	return 0;
}
