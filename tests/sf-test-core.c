/* SPDX-License-Identifier: MIT */
/* The C tests' recording adapter and timer (sf-test-core.h). */
#include "sf-test-core.h"

#include <stdio.h>
#include <string.h>

void
sf_test_core_init(struct sf_test_core *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->backlight = 100;
}

void
sf_test_core_track(struct sf_test_core *rec, int i, struct sf_output *output)
{
	if (i < 0 || i >= SF_TEST_CORE_MAX_OUTPUTS)
		return;
	rec->outputs[i] = output;
	rec->powered[i] = true;
}

int
sf_test_core_index(const struct sf_test_core *rec,
		   const struct sf_output *output)
{
	for (int i = 0; i < SF_TEST_CORE_MAX_OUTPUTS; i++)
		if (output && rec->outputs[i] == output)
			return i;
	return -1;
}

static void
rec_log(void *data, enum sf_log_level level, const char *message)
{
	struct sf_test_core *rec = data;

	if (level == SF_LOG_ERROR)
		snprintf(rec->last_error, sizeof(rec->last_error), "%s",
			 message);
	else if (level == SF_LOG_INFO)
		snprintf(rec->last_info, sizeof(rec->last_info), "%s",
			 message);
}

static bool
rec_set_mode(void *data, struct sf_output *output, size_t mode)
{
	struct sf_test_core *rec = data;

	rec->calls++;
	rec->mode_calls++;
	if (rec->mode_fails)
		return false;
	rec->mode = mode;
	return true;
}

static bool
rec_set_dpms(void *data, struct sf_output *output, enum sf_dpms_level level)
{
	struct sf_test_core *rec = data;
	int i = sf_test_core_index(rec, output);

	rec->calls++;
	rec->dpms = level;
	if (i >= 0) {
		rec->output_dpms[i] = level;
		rec->dpms_calls[i]++;
	}
	return true;
}

static bool
rec_set_backlight(void *data, struct sf_output *output, int32_t percent)
{
	struct sf_test_core *rec = data;

	rec->calls++;
	rec->backlight = percent;
	return true;
}

static bool
rec_set_reclock(void *data, enum sf_reclock_level level)
{
	struct sf_test_core *rec = data;

	rec->calls++;
	rec->reclock = level;
	return true;
}

static void
rec_schedule_repaint(void *data, struct sf_output *output)
{
	struct sf_test_core *rec = data;
	int i = sf_test_core_index(rec, output);

	rec->repaint_requests++;
	if (i >= 0)
		rec->repaints[i]++;
}

static bool
rec_set_output_power(void *data, struct sf_output *output, bool on)
{
	struct sf_test_core *rec = data;
	int i = sf_test_core_index(rec, output);

	rec->calls++;
	if (rec->power_fails)
		return false;
	if (i >= 0) {
		rec->powered[i] = on;
		rec->power_calls[i]++;
	}
	return true;
}

const struct sf_core_interface sf_test_core_interface = {
	.log = rec_log,
	.set_mode = rec_set_mode,
	.set_dpms = rec_set_dpms,
	.set_backlight = rec_set_backlight,
	.set_reclock = rec_set_reclock,
	.schedule_repaint = rec_schedule_repaint,
	.set_output_power = rec_set_output_power,
};

const struct sf_core_interface sf_test_core_interface_no_power = {
	.log = rec_log,
	.set_mode = rec_set_mode,
	.set_dpms = rec_set_dpms,
	.set_backlight = rec_set_backlight,
	.set_reclock = rec_set_reclock,
	.schedule_repaint = rec_schedule_repaint,
};

bool
sf_test_core_run(struct sf_core *core, sf_time_t from, sf_time_t until,
		 const struct sf_test_clock *clock)
{
	sf_time_t now = from, last = 0;
	bool started = false;
	int same = 0;

	for (int n = 0; !clock || !clock->max_dispatches ||
			n < clock->max_dispatches; n++) {
		sf_time_t next = sf_core_next_deadline(core);
		if (next > until)
			return true;
		if (next < now)
			next = now;
		same = started && next == last ? same + 1 : 0;
		if (same > SF_TEST_CORE_MAX_SAME)
			return false;
		started = true;
		last = next;
		now = next;
		if (clock && clock->before)
			clock->before(clock->data, next);
		sf_core_dispatch(core, next);
		if (clock && clock->after)
			clock->after(clock->data, next);
	}
	return true;
}

void
sf_test_core_run_until(struct sf_core *core, sf_time_t until)
{
	static const struct sf_test_clock unit = {
		.max_dispatches = SF_TEST_CORE_MAX_DISPATCHES,
	};

	sf_test_core_run(core, INT64_MIN, until, &unit);
}
