/* SPDX-License-Identifier: MIT */
#ifndef SF_REPLAY_H
#define SF_REPLAY_H

#include "sf-core.h"
#include "sf-energy.h"
#include "sf-trace.h"

/*
 * The replay engine: runs trace events through a real sf_core on a
 * virtual clock.  It stands in for the compositor around the core: each
 * output repaints at its next vblank (at its current refresh) when
 * something committed or the pointer moved, asks the core first, and
 * honours deferrals until the core schedules a repaint.  Nothing here is
 * random, so the same trace always gives the same decisions.
 */

struct sf_replay;

/* What happened to one output during one report interval. */
struct sf_replay_report {
	sf_time_t time;			/* end of the interval */
	const char *output;
	enum sf_idle_state state;
	uint32_t refresh_mhz;
	uint64_t repaints, suppressed;	/* during the interval */
	enum sf_dpms_level dpms;
	int32_t backlight;
	enum sf_reclock_level reclock;
	struct sf_energy_totals energy;	/* since the start */
	double actual_w, baseline_w;	/* average over the interval */
};

struct sf_replay_options {
	const struct sf_config *config;
	/* Core log lines; NULL drops them. */
	void (*log)(void *data, sf_time_t now, enum sf_log_level level,
		    const char *message);
	/* Called every `report_interval` of virtual time, per output. */
	sf_time_t report_interval;
	void (*report)(void *data, const struct sf_replay_report *report);
	void *data;
	/* Make set_mode fail, to exercise the core's error paths. */
	bool fail_mode_switch;
};

struct sf_replay *
sf_replay_create(const struct sf_replay_options *options);

void
sf_replay_destroy(struct sf_replay *replay);

/* Feeds one event; events must come in time order.  Returns false and
 * fills `err` for an event that does not fit the run (unknown id, time
 * going backwards, a duplicate id). */
bool
sf_replay_feed(struct sf_replay *replay, const struct sf_trace_event *ev,
	       char *err, size_t err_size);

/* Runs the virtual clock up to `end` (timers, repaints, reports). */
void
sf_replay_run_until(struct sf_replay *replay, sf_time_t end);

sf_time_t
sf_replay_now(const struct sf_replay *replay);

struct sf_core *
sf_replay_get_core(struct sf_replay *replay);

/* The core's output for a trace output id, or NULL. */
struct sf_output *
sf_replay_get_output(struct sf_replay *replay, uint32_t id);

/* The core's surface for a trace surface id, or NULL. */
struct sf_surface *
sf_replay_get_surface(struct sf_replay *replay, uint32_t id);

/* What the replay's stand-in hardware did. */
struct sf_replay_counts {
	uint64_t mode_sets, dpms_sets, backlight_sets, reclock_sets;
	uint64_t repaint_requests;	/* schedule_repaint from the core */
	uint64_t recorded_repaints;	/* "repaint" events in the trace */
};

void
sf_replay_get_counts(const struct sf_replay *replay,
		     struct sf_replay_counts *out);

#endif /* SF_REPLAY_H */
