/* SPDX-License-Identifier: MIT */
#ifndef SF_SCENARIO_H
#define SF_SCENARIO_H

#include "sf-trace.h"

/*
 * Built-in scenarios, generated as trace events so that they can be
 * replayed, dumped to a file and edited.
 */

typedef bool (*sf_scenario_emit_t)(void *data, const struct sf_trace_event *ev);

/* The demo: typing; an idle desktop with a blinking text cursor and a
 * seconds clock; a 24 fps video; pointer motion; a long idle; the user
 * coming back.  About 12 minutes of trace time. */
bool
sf_scenario_demo(sf_scenario_emit_t emit, void *data);

/* Looks a scenario up by name ("demo"). */
bool
sf_scenario_by_name(const char *name, sf_scenario_emit_t emit, void *data);

#endif /* SF_SCENARIO_H */
