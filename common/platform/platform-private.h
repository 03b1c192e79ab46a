/* SPDX-License-Identifier: MIT */
#ifndef SF_PLATFORM_PRIVATE_H
#define SF_PLATFORM_PRIVATE_H

/*
 * Inside the platform layer: attribute I/O under the root prefix, the
 * discovered devices, and the reclock backends' table.
 */
#include <limits.h>
#include <stdarg.h>

#include "sf-platform.h"

#define SF_ATTR_VALUE_MAX 4096
#define SF_SAVED_MAX 8
#define SF_GPU_MAX 8
#define SF_CONNECTOR_MAX 16
#define SF_BATTERY_MAX 4

/* One attribute's value as it was before stillframe changed it. */
struct sf_saved_attr {
	char attr[48];			/* relative to the device directory */
	char value[256];
};

struct sf_saved {
	struct sf_saved_attr attrs[SF_SAVED_MAX];
	int n;
};

struct sf_gpu;

/* A driver's way of lowering clocks.  Every path it writes is one of its
 * `attrs`, relative to the device directory it was detected in. */
struct sf_reclock_backend {
	const char *name;		/* "i915", "amdgpu", ... */
	const char *const *attrs;	/* NULL-terminated: what it may write */
	bool (*detect)(struct sf_platform *p, struct sf_gpu *gpu);
	/* Saves into gpu->saved what set_low changes, then changes it. */
	int (*set_low)(struct sf_platform *p, struct sf_gpu *gpu);
	/* Puts gpu->saved back, in an order the driver accepts. */
	int (*restore)(struct sf_platform *p, struct sf_gpu *gpu);
	/* "key value" lines: current values and what set_low would write. */
	void (*describe)(struct sf_platform *p, struct sf_gpu *gpu,
			 struct sf_writer *w);
};

struct sf_gpu {
	char card[16];			/* "card0", or a devfreq device name */
	int minor;			/* N of cardN, or -1 */
	char driver[32];
	char dir[PATH_MAX];		/* root-relative, e.g. sys/class/drm/card0 */
	const struct sf_reclock_backend *backend;
	struct sf_saved saved;		/* valid while low */
	struct sf_saved written;	/* what set_low wrote, to notice others */
	bool low;
	bool disabled;			/* no permission, or backed off */
	char why_disabled[160];
};

struct sf_connector {
	char name[32];			/* "eDP-1" */
	int minor;
	bool internal;
	bool lit;			/* enabled and DPMS on */
};

struct sf_backlight {
	bool found;
	char dir[PATH_MAX];		/* sys/class/backlight/<name> */
	char name[64];
	char type[16];
	long max;
	long saved;			/* the user's level, while dimmed */
	long written;
	bool dimmed;
	bool disabled;
};

struct sf_platform {
	struct sf_platform_options options;
	char root[PATH_MAX];		/* "" for the real system */
	char state_path[PATH_MAX];
	bool state_written;		/* the file there is this run's */
	/* A previous run's lines not put back (device not found now, or
	 * the write failed): kept in the file for a later try. */
	char kept[4096];
	size_t kept_len;
	struct sf_gpu gpus[SF_GPU_MAX];
	int n_gpus;
	struct sf_connector connectors[SF_CONNECTOR_MAX];
	int n_connectors;
	struct sf_backlight backlight;
	struct {
		char output[32];
		int32_t percent;
	} backlight_wishes[SF_CONNECTOR_MAX];	/* one per output */
	int n_backlight_wishes;
	char batteries[SF_BATTERY_MAX][64];	/* sys/class/power_supply/X */
	int n_batteries;
	enum sf_reclock_level reclock;
	/* Rate limit of the display status readers. */
	struct {
		char path[PATH_MAX];
		sf_time_t read_at;
		char text[512];
	} status_cache[8];
	int n_status_cache;
};

/* --- sysfs.c --- */

void
sf_platform_log(struct sf_platform *p, enum sf_platform_log_level level,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* root + "/" + rel. */
void
sf_platform_path(const struct sf_platform *p, const char *rel, char *out,
		 size_t size);

/* Reads a whole attribute, without the trailing newline.  Returns 0 or an
 * errno. */
int
sf_attr_read(const struct sf_platform *p, const char *dir, const char *attr,
	     char *out, size_t size);

int
sf_attr_read_long(const struct sf_platform *p, const char *dir,
		  const char *attr, long *out);

bool
sf_attr_exists(const struct sf_platform *p, const char *dir,
	       const char *attr);

/* Writes dir/attr, refusing any attribute the backend does not list.
 * On failure logs once what failed, naming the file and, for EACCES and
 * EPERM, the permission that is missing.  Returns 0 or an errno. */
int
sf_attr_write(struct sf_platform *p, const char *dir, const char *attr,
	      const char *const *allowed, const char *value);

/* Saves dir/attr's current value into saved (once per attr). */
int
sf_saved_take(const struct sf_platform *p, struct sf_saved *saved,
	      const char *dir, const char *attr);

const char *
sf_saved_get(const struct sf_saved *saved, const char *attr);

void
sf_saved_set(struct sf_saved *saved, const char *attr, const char *value);

/* --- reclock.c --- */

extern const struct sf_reclock_backend *const sf_reclock_backends[];

const struct sf_reclock_backend *
sf_reclock_backend_find(const char *name);

/* How many displays of the GPU are lit (memory reclocking needs one). */
int
sf_platform_lit_heads(const struct sf_platform *p, int minor);

/* --- state.c --- */

/* Writes every low GPU's and the dimmed backlight's saved values. */
int
sf_state_write(struct sf_platform *p);

void
sf_state_remove(struct sf_platform *p);

/* Puts back what the file holds; returns how many values, or -1. */
int
sf_state_restore(struct sf_platform *p);

#endif /* SF_PLATFORM_PRIVATE_H */
