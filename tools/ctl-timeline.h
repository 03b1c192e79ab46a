/* SPDX-License-Identifier: MIT */
/*
 * Inside stillframectl timeline: what the replay gathered (ctl-timeline.c)
 * for the drawing (ctl-timeline-svg.c).
 */
#ifndef STILLFRAMECTL_TIMELINE_H
#define STILLFRAMECTL_TIMELINE_H

#include <stdbool.h>
#include <stdio.h>

#include "sf-replay.h"
#include "sf-trace-file.h"

#define PROG "stillframectl: timeline"
/* The replay engine's limit. */
#define MAX_OUTPUTS 16

/* Repaints per second are averaged over bars of at least MIN_BAR (a
 * rate over 10 ms says little), about TARGET_BARS of them. */
#define TARGET_BARS 300
#define MIN_BAR (500 * SF_NSEC_PER_MSEC)

struct sample {
	sf_time_t time;			/* end of its report interval */
	uint32_t refresh_mhz;
	uint32_t repaints, suppressed;
	int32_t backlight;
	enum sf_idle_state state;
	enum sf_dpms_level dpms;
	enum sf_reclock_level reclock;
};

struct lane_output {
	char name[SF_TRACE_MAX_NAME];
	struct sample *samples;
	size_t n, cap;
};

struct mark {
	sf_time_t time;
	enum sf_input_kind kind;
};

struct timeline {
	const char *trace_path;
	const char *title;
	sf_time_t end;			/* of the trace */
	sf_time_t span;			/* of the time axis, > 0 */
	sf_time_t step;			/* report interval */
	double tick_s;			/* between time axis ticks */
	struct mark *marks;
	size_t n_marks, marks_cap;
	struct lane_output outputs[MAX_OUTPUTS];
	size_t n_outputs;
	/* Reports come per tick in the replay's output order. */
	sf_time_t tick;
	size_t tick_index;
	struct sf_replay *replay;
	struct sf_energy_totals energy;
	bool out_of_memory;
};


static inline double
seconds(sf_time_t t)
{
	return (double)t / SF_NSEC_PER_SEC;
}

/* The whole picture, SVG 1.1, into `f`. */
void
sf_ctl_timeline_render(FILE *f, const struct timeline *tl);

#endif /* STILLFRAMECTL_TIMELINE_H */
