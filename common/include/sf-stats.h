/* SPDX-License-Identifier: MIT */
#ifndef SF_STATS_H
#define SF_STATS_H

#include <stddef.h>
#include "sf-types.h"
#include "sf-energy.h"

/*
 * Counters per output and per surface, and their two serialisations:
 * a "key value" text for status interfaces and the Prometheus text
 * exposition format (node_exporter textfile collector).
 */

struct sf_output_stats {
	uint64_t commits;		/* surface commits on this output */
	uint64_t repaints;		/* repaints let through */
	uint64_t suppressed;		/* repaints held */
	uint64_t stale_flushes;		/* held damage painted at deadline */
	uint64_t mode_switches;
	uint64_t dpms_changes;
	uint64_t backlight_changes;
	sf_time_t time_in_state[SF_STATE_COUNT];
	enum sf_idle_state state;
	sf_time_t state_since;
	uint32_t refresh_mhz;
	/* Output power (unneeded-outputs, stillframectl output). */
	bool powered;
	uint64_t power_changes;
	sf_time_t powered_off_time;	/* closed periods */
	sf_time_t powered_off_since;	/* while !powered */
};

struct sf_surface_stats {
	uint64_t commits;
	uint64_t empty;
	uint64_t identical;
	uint64_t held;			/* contributions a repaint gate held */
	uint64_t throttled_frames;	/* frame callbacks released late */
};

void
sf_output_stats_init(struct sf_output_stats *stats,
		     enum sf_idle_state state, sf_time_t now);

void
sf_output_stats_enter_state(struct sf_output_stats *stats,
			    enum sf_idle_state state, sf_time_t now);

/* Time spent in `state`, the running period included. */
sf_time_t
sf_output_stats_time_in_state(const struct sf_output_stats *stats,
			      enum sf_idle_state state, sf_time_t now);

/* The output's power changed (stats->powered still holds the old). */
void
sf_output_stats_set_powered(struct sf_output_stats *stats, bool powered,
			    sf_time_t now);

/* Time spent powered off, the running period included. */
sf_time_t
sf_output_stats_powered_off_time(const struct sf_output_stats *stats,
				 sf_time_t now);

/* Where serialised text goes. */
struct sf_writer {
	void (*write)(void *data, const char *text, size_t len);
	void *data;
};

void
sf_writer_printf(struct sf_writer *writer, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A writer into a caller-owned buffer; output past the end is cut off
 * but `needed` keeps counting. */
struct sf_buffer_writer {
	struct sf_writer writer;
	char *buf;
	size_t size, len, needed;
};

void
sf_buffer_writer_init(struct sf_buffer_writer *bw, char *buf, size_t size);

struct sf_stats_output_view {
	const char *name;
	const struct sf_output_stats *stats;
	enum sf_output_kind kind;
	enum sf_output_power power_request;
};

struct sf_stats_surface_view {
	uint32_t id;
	const char *label;		/* app_id or WM_CLASS, may be NULL */
	enum sf_class cls;
	const struct sf_surface_stats *stats;
};

struct sf_stats_view {
	sf_time_t now;
	struct sf_energy_totals energy;
	enum sf_reclock_level reclock;
	const struct sf_stats_output_view *outputs;
	size_t n_outputs;
	const struct sf_stats_surface_view *surfaces;
	size_t n_surfaces;
};

void
sf_stats_write_text(const struct sf_stats_view *view,
		    struct sf_writer *writer);

void
sf_stats_write_prometheus(const struct sf_stats_view *view,
			  struct sf_writer *writer);

#endif /* SF_STATS_H */
