/* SPDX-License-Identifier: MIT */
#ifndef SF_PLATFORM_H
#define SF_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sf-types.h"
#include "sf-stats.h"

/*
 * The machine's power interfaces, which the core's decisions act on:
 * GPU (and memory) reclocking through the kernel driver's sysfs or
 * debugfs files, the panel backlight, battery power, and the display's
 * self-refresh status.  Everything is read and written under a root
 * prefix ("/" on a real system, a fake tree in the tests), and only the
 * attributes this layer knows, under devices it discovered: nothing a
 * configuration names is written as given.
 *
 * Before the first write the user's values go to a state file; they are
 * put back on sf_platform_destroy(), and by the next
 * sf_platform_create() if the process died first.
 */

struct sf_platform;

enum sf_platform_log_level {
	SF_PLATFORM_LOG_DEBUG = 0,
	SF_PLATFORM_LOG_INFO,
	SF_PLATFORM_LOG_ERROR,
};

/* The kernel side of a write: returns 0 or an errno.  NULL in the
 * options means the real one (open, write, close). */
typedef int (*sf_platform_write_fn)(void *data, const char *path,
				    const char *value);

struct sf_platform_options {
	const char *root;		/* NULL or "/": the real system */
	/* NULL: $XDG_RUNTIME_DIR/stillframe/platform-state, or
	 * /run/stillframe/platform-state for root (or without
	 * XDG_RUNTIME_DIR); under a fake root, ROOT/run/stillframe/...  */
	const char *state_path;
	bool reclock;			/* GPU clocks at all */
	bool reclock_memory;		/* amdgpu memory clock, one head only */
	bool reclock_nouveau;		/* nouveau debugfs pstate */
	bool backlight;
	/* Put back what a previous run left in the state file. */
	bool restore_leftovers;
	void (*log)(void *data, enum sf_platform_log_level level,
		    const char *message);
	void *log_data;
	sf_platform_write_fn write;	/* tests only */
	void *write_data;
};

void
sf_platform_options_init(struct sf_platform_options *options);

struct sf_config;

/* The options a stillframe configuration asks for (reclock,
 * reclock-memory, reclock-nouveau, platform-root). */
void
sf_platform_options_from_config(struct sf_platform_options *options,
				const struct sf_config *config);

/* Discovers GPUs, connectors, backlights and batteries.  NULL only when
 * out of memory; a machine with nothing to drive gives an empty one. */
struct sf_platform *
sf_platform_create(const struct sf_platform_options *options);

/* Puts back everything changed, removes the state file, frees.
 * NULL-safe. */
void
sf_platform_destroy(struct sf_platform *platform);

/* GPU clocks for every discovered GPU with a backend.  Returns false when
 * no GPU took the change (none there, no permission, backed off). */
bool
sf_platform_set_reclock(struct sf_platform *platform,
			enum sf_reclock_level level);

enum sf_reclock_level
sf_platform_get_reclock(const struct sf_platform *platform);

/* The internal panel's backlight in percent of its maximum, never above
 * the user's level; 100 puts the user's level back. */
bool
sf_platform_set_backlight(struct sf_platform *platform, int32_t percent);

/* One output's wish for the one panel backlight.  An adapter states 100
 * for each output it drives when the output appears; the panel follows
 * the brightest wish, so it dims only once every such output is dim,
 * and any of them waking brightens it. */
bool
sf_platform_set_output_backlight(struct sf_platform *platform,
				 const char *output, int32_t percent);

/* The output is gone: its wish no longer counts. */
void
sf_platform_forget_output(struct sf_platform *platform, const char *output);

/* Whether the named output (an adapter's connector name: "eDP-1",
 * "LVDS1", "DSI-1"...) is an internal panel, whose backlight this is. */
bool
sf_platform_output_is_internal(const char *name);

/* Battery power, summed over the batteries. */
struct sf_power_sample {
	bool present;			/* a battery was found */
	bool discharging;		/* every battery is discharging */
	bool have_power;
	double watts;			/* power_now, or |current| x voltage */
	bool have_energy;
	double energy_wh;		/* energy_now, or charge_now x voltage */
};

void
sf_platform_read_power(struct sf_platform *platform,
		       struct sf_power_sample *out);

/* What was found and what a low clock would write, as "key value" lines
 * (stillframectl platform); also the display's PSR/FBC/DRRS status,
 * read at most once per 10 s per file. */
void
sf_platform_describe(struct sf_platform *platform, sf_time_t now,
		     struct sf_writer *writer);

/* Puts back what the state file holds, removes it and reports each value
 * through the log; for stillframectl restore.  Returns the number of
 * values put back, or -1 if the file could not be read. */
int
sf_platform_restore_state(const struct sf_platform_options *options);

/* The state file the options name (the default when NULL). */
const char *
sf_platform_state_path(const struct sf_platform_options *options,
		       char *buf, size_t size);

#endif /* SF_PLATFORM_H */
