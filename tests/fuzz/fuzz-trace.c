/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the trace parser (sf_trace_parse_line) and the
 * replay engine fed what it parses, as stillframe-replay does with a
 * trace file.  Every event that parses must format to a line that parses
 * back to the same text; the engine must refuse what does not fit the
 * run with a message, and survive the rest.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sf-config.h"
#include "sf-replay.h"
#include "sf-trace.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LINE_MAX_LEN 1024
/* Virtual time the engine may be asked to run: it paints every vblank,
 * so a trace that jumps a day ahead would take seconds per input. */
#define MAX_TIME SF_SEC(60)

static void
check_round_trip(const struct sf_trace_event *ev)
{
	char first[LINE_MAX_LEN * 2], second[LINE_MAX_LEN * 2], err[256];
	struct sf_trace_event again;

	int n = sf_trace_format_event(ev, first, sizeof(first));
	if (n < 0 || (size_t)n >= sizeof(first))
		abort();
	if (sf_trace_parse_line(first, &again, err, sizeof(err)) !=
	    SF_TRACE_OK) {
		fprintf(stderr, "fuzz-trace: '%s' does not parse back: %s\n",
			first, err);
		abort();
	}
	sf_trace_format_event(&again, second, sizeof(second));
	if (strcmp(first, second) != 0) {
		fprintf(stderr, "fuzz-trace: '%s' came back as '%s'\n",
			first, second);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sf_config cfg;
	char line[LINE_MAX_LEN], err[256];
	size_t len = 0;
	bool alive = true;

	sf_config_init_defaults(&cfg);
	struct sf_replay_options options = { .config = &cfg };
	struct sf_replay *replay = sf_replay_create(&options);
	if (!replay)
		abort();

	for (size_t i = 0; i <= size && alive; i++) {
		if (i < size && data[i] != '\n') {
			if (len < sizeof(line) - 1)
				line[len++] = (char)data[i];
			continue;
		}
		line[len] = '\0';
		len = 0;

		struct sf_trace_event ev;
		err[0] = '\0';
		enum sf_trace_status st = sf_trace_parse_line(line, &ev, err,
							      sizeof(err));
		if (st == SF_TRACE_ERROR && err[0] == '\0')
			abort();
		if (st != SF_TRACE_OK)
			continue;
		check_round_trip(&ev);
		if (ev.time < 0 || ev.time > MAX_TIME)
			continue;
		err[0] = '\0';
		if (!sf_replay_feed(replay, &ev, err, sizeof(err))) {
			if (err[0] == '\0')
				abort();
			/* stillframe-replay stops at the first refusal. */
			alive = false;
		}
	}
	if (alive)
		sf_replay_run_until(replay, sf_replay_now(replay) + SF_SEC(2));
	sf_replay_destroy(replay);
	return 0;
}
