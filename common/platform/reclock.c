/* SPDX-License-Identifier: MIT */
/*
 * GPU reclock backends, one per kernel interface.  Each saves exactly
 * what it is about to change, lowers it in an order the driver accepts,
 * and puts the saved values back in the reverse order.  The interfaces,
 * their values and their errors are the drivers' own (amdgpu_pm.c,
 * radeon_pm.c, intel_rps.c, xe_gt_freq.c, devfreq.c, nouveau_debugfs.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "platform-private.h"

/* Writes an attribute of the GPU's; with `check`, remembers the value so
 * that a later change by someone else is noticed (only for attributes
 * that read back what was written). */
static int
gpu_write(struct sf_platform *p, struct sf_gpu *gpu, const char *attr,
	  const char *value, bool check)
{
	int err = sf_attr_write(p, gpu->dir, attr, gpu->backend->attrs, value);

	if (!err && check)
		sf_saved_set(&gpu->written, attr, value);
	return err;
}

static int
gpu_write_long(struct sf_platform *p, struct sf_gpu *gpu, const char *attr,
	       long value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", value);
	return gpu_write(p, gpu, attr, buf, true);
}

/* Writes a saved value back, if it was saved. */
static int
gpu_put_back(struct sf_platform *p, struct sf_gpu *gpu, const char *attr)
{
	const char *value = sf_saved_get(&gpu->saved, attr);

	return value ? gpu_write(p, gpu, attr, value, false) : 0;
}

static bool
driver_is(const struct sf_gpu *gpu, const char *name)
{
	return strcmp(gpu->driver, name) == 0;
}

/* --- i915: RPS frequency limits in MHz --- */

static const char *const i915_attrs[] = {
	"gt_min_freq_mhz", "gt_max_freq_mhz", "gt_boost_freq_mhz", NULL,
};

static bool
i915_detect(struct sf_platform *p, struct sf_gpu *gpu)
{
	return driver_is(gpu, "i915") &&
	       sf_attr_exists(p, gpu->dir, "gt_min_freq_mhz") &&
	       sf_attr_exists(p, gpu->dir, "gt_RPn_freq_mhz");
}

/* The driver refuses a max below the current min and a min above the
 * current max: going down the min moves first, going up the max. */
static int
i915_set_low(struct sf_platform *p, struct sf_gpu *gpu)
{
	long rpn;
	int err = sf_attr_read_long(p, gpu->dir, "gt_RPn_freq_mhz", &rpn);

	for (int i = 0; !err && i < 3; i++)
		err = sf_saved_take(p, &gpu->saved, gpu->dir, i915_attrs[i]);
	if (err)
		return err;
	if ((err = sf_state_write(p)))
		return err;
	if (!(err = gpu_write_long(p, gpu, "gt_min_freq_mhz", rpn)) &&
	    !(err = gpu_write_long(p, gpu, "gt_max_freq_mhz", rpn)))
		err = gpu_write_long(p, gpu, "gt_boost_freq_mhz", rpn);
	return err;
}

static int
i915_restore(struct sf_platform *p, struct sf_gpu *gpu)
{
	/* Without a saved value, the driver's boot defaults. */
	static const struct {
		const char *attr, *dir, *fallback;
	} order[] = {
		{ "gt_max_freq_mhz", "gt/gt0/.defaults", "rps_max_freq_mhz" },
		{ "gt_min_freq_mhz", "gt/gt0/.defaults", "rps_min_freq_mhz" },
		{ "gt_boost_freq_mhz", ".", "gt_RP0_freq_mhz" },
	};
	int first_err = 0;

	for (size_t i = 0; i < SF_ARRAY_LENGTH(order); i++) {
		const char *value = sf_saved_get(&gpu->saved, order[i].attr);
		char buf[64], dir[PATH_MAX];
		if (!value) {
			snprintf(dir, sizeof(dir), "%s/%s", gpu->dir,
				 order[i].dir);
			if (sf_attr_read(p, dir, order[i].fallback, buf,
					 sizeof(buf)))
				continue;
			value = buf;
		}
		int err = gpu_write(p, gpu, order[i].attr, value, false);
		if (err && !first_err)
			first_err = err;
	}
	return first_err;
}

static void
describe_attrs(struct sf_platform *p, struct sf_gpu *gpu,
	       const char *const *attrs, struct sf_writer *w)
{
	char value[256];

	for (; *attrs; attrs++)
		if (!sf_attr_read(p, gpu->dir, *attrs, value, sizeof(value)))
			sf_writer_printf(w, "gpu.%s.%s %s\n", gpu->card,
					 *attrs, value);
}

static void
i915_describe(struct sf_platform *p, struct sf_gpu *gpu, struct sf_writer *w)
{
	long rpn = 0;

	describe_attrs(p, gpu, i915_attrs, w);
	sf_attr_read_long(p, gpu->dir, "gt_RPn_freq_mhz", &rpn);
	sf_writer_printf(w, "gpu.%s.low gt_min_freq_mhz=%ld gt_max_freq_mhz="
			 "%ld gt_boost_freq_mhz=%ld\n", gpu->card, rpn, rpn,
			 rpn);
}

static const struct sf_reclock_backend i915_backend = {
	.name = "i915",
	.attrs = i915_attrs,
	.detect = i915_detect,
	.set_low = i915_set_low,
	.restore = i915_restore,
	.describe = i915_describe,
};

/* --- xe: per-GT frequency limits in MHz --- */

#define XE_MAX_GTS 4
static const char *const xe_attrs[] = {
	"device/tile0/gt0/freq0/min_freq", "device/tile0/gt0/freq0/max_freq",
	"device/tile0/gt1/freq0/min_freq", "device/tile0/gt1/freq0/max_freq",
	"device/tile0/gt2/freq0/min_freq", "device/tile0/gt2/freq0/max_freq",
	"device/tile0/gt3/freq0/min_freq", "device/tile0/gt3/freq0/max_freq",
	NULL,
};

static bool
xe_detect(struct sf_platform *p, struct sf_gpu *gpu)
{
	return driver_is(gpu, "xe") &&
	       sf_attr_exists(p, gpu->dir, "device/tile0/gt0/freq0/min_freq");
}

/* The GT answers EAGAIN while it resets: a few tries, 20 ms apart. */
static int
xe_write(struct sf_platform *p, struct sf_gpu *gpu, const char *attr,
	 const char *value, bool check)
{
	int err = EAGAIN;

	for (int tries = 0; tries < 5 && err == EAGAIN; tries++) {
		if (tries) {
			struct timespec ts = { 0, 20 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
		err = gpu_write(p, gpu, attr, value, check);
	}
	if (err == EAGAIN)
		sf_platform_log(p, SF_PLATFORM_LOG_ERROR, "gpu %s (xe): %s/%s "
				"stayed busy (EAGAIN) for 5 tries; left as it "
				"is", gpu->card, gpu->dir, attr);
	return err;
}

static int
xe_set_low(struct sf_platform *p, struct sf_gpu *gpu)
{
	char rpn[XE_MAX_GTS][32];
	int n = 0, err = 0;

	for (; n < XE_MAX_GTS; n++) {
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%s/device/tile0/gt%d/freq0",
			 gpu->dir, n);
		if (sf_attr_read(p, dir, "rpn_freq", rpn[n], sizeof(rpn[n])))
			break;
		if ((err = sf_saved_take(p, &gpu->saved, gpu->dir,
					 xe_attrs[2 * n])) ||
		    (err = sf_saved_take(p, &gpu->saved, gpu->dir,
					 xe_attrs[2 * n + 1])))
			return err;
	}
	if (n == 0)
		return ENOENT;
	if ((err = sf_state_write(p)))
		return err;
	/* min first, so that max never goes below it */
	for (int i = 0; i < n && !err; i++)
		if (!(err = xe_write(p, gpu, xe_attrs[2 * i], rpn[i], true)))
			err = xe_write(p, gpu, xe_attrs[2 * i + 1], rpn[i],
				       true);
	return err;
}

static int
xe_restore(struct sf_platform *p, struct sf_gpu *gpu)
{
	int first_err = 0;

	for (int i = 0; i < XE_MAX_GTS; i++) {
		for (int j = 1; j >= 0; j--) {	/* max first */
			const char *attr = xe_attrs[2 * i + j];
			const char *value = sf_saved_get(&gpu->saved, attr);
			int err = value ? xe_write(p, gpu, attr, value,
						   false) : 0;
			if (err && !first_err)
				first_err = err;
		}
	}
	return first_err;
}

static void
xe_describe(struct sf_platform *p, struct sf_gpu *gpu, struct sf_writer *w)
{
	for (int i = 0; i < XE_MAX_GTS; i++) {
		char dir[PATH_MAX], min[32], max[32], rpn[32];
		snprintf(dir, sizeof(dir), "%s/device/tile0/gt%d/freq0",
			 gpu->dir, i);
		if (sf_attr_read(p, dir, "min_freq", min, sizeof(min)) ||
		    sf_attr_read(p, dir, "max_freq", max, sizeof(max)) ||
		    sf_attr_read(p, dir, "rpn_freq", rpn, sizeof(rpn)))
			break;
		sf_writer_printf(w, "gpu.%s.gt%d min_freq=%s max_freq=%s\n",
				 gpu->card, i, min, max);
		sf_writer_printf(w, "gpu.%s.low gt%d min_freq=%s max_freq=%s\n",
				 gpu->card, i, rpn, rpn);
	}
}

static const struct sf_reclock_backend xe_backend = {
	.name = "xe",
	.attrs = xe_attrs,
	.detect = xe_detect,
	.set_low = xe_set_low,
	.restore = xe_restore,
	.describe = xe_describe,
};

/* --- amdgpu: performance level, power profile, DPM levels --- */

static const char *const amdgpu_attrs[] = {
	"device/power_dpm_force_performance_level",
	"device/pp_power_profile_mode",
	"device/pp_dpm_sclk",
	"device/pp_dpm_mclk",
	NULL,
};
#define AMDGPU_LEVEL "device/power_dpm_force_performance_level"
#define AMDGPU_PROFILE "device/pp_power_profile_mode"
#define AMDGPU_SCLK "device/pp_dpm_sclk"
#define AMDGPU_MCLK "device/pp_dpm_mclk"

static bool
amdgpu_detect(struct sf_platform *p, struct sf_gpu *gpu)
{
	return driver_is(gpu, "amdgpu") &&
	       sf_attr_exists(p, gpu->dir, AMDGPU_LEVEL);
}

/*
 * pp_power_profile_mode's table differs between ASIC generations, but
 * every profile's line starts with its index, blanks and its name, and
 * the active one carries a '*' before the ':' ("3D_FULL_SCREEN *:",
 * "BOOTUP_DEFAULT*:"); the lines under a profile start with a number
 * followed by '('.  Finds the index of `name` and of the active one.
 */
static void
amdgpu_parse_profiles(const char *table, const char *name, int *index,
		      int *active)
{
	*index = -1;
	*active = -1;
	for (const char *line = table; line && *line;) {
		const char *end = strchr(line, '\n');
		const char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		char *after;
		long n = strtol(s, &after, 10);
		const char *colon = memchr(line, ':', end ? (size_t)(end - line) :
							    strlen(line));
		if (after != s && (*after == ' ' || *after == '\t') && colon &&
		    n >= 0 && n <= 9) {
			const char *q = after;
			while (*q == ' ' || *q == '\t')
				q++;
			size_t len = strspn(q, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					    "0123456789_");
			if (len == strlen(name) && strncmp(q, name, len) == 0)
				*index = (int)n;
			if (memchr(q, '*', (size_t)(colon - q)))
				*active = (int)n;
		}
		line = end ? end + 1 : NULL;
	}
}

/* The indices marked '*' in a pp_dpm_* table: "1" or "0 1". */
static void
amdgpu_dpm_mask(const char *table, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (const char *line = table; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		if (memchr(line, '*', n) && len + 4 < size)
			len += (size_t)snprintf(out + len, size - len, "%s%ld",
						len ? " " : "",
						strtol(line, NULL, 10));
		line = end ? end + 1 : NULL;
	}
}

/* Memory clock switches need vertical blanking time; with several heads
 * lit they flicker or black out, so the memory clock moves with one at
 * most, and only with ReclockMemory on. */
static bool
amdgpu_may_lower_memory(struct sf_platform *p, const struct sf_gpu *gpu)
{
	return p->options.reclock_memory &&
	       sf_platform_lit_heads(p, gpu->minor) <= 1;
}

static int
amdgpu_set_low(struct sf_platform *p, struct sf_gpu *gpu)
{
	char level[64], table[SF_ATTR_VALUE_MAX], buf[64];
	int err = sf_attr_read(p, gpu->dir, AMDGPU_LEVEL, level,
			       sizeof(level));
	int saving = -1, active = -1;

	if (err)
		return err;
	sf_saved_set(&gpu->saved, AMDGPU_LEVEL, level);
	if (!sf_attr_read(p, gpu->dir, AMDGPU_PROFILE, table, sizeof(table)))
		amdgpu_parse_profiles(table, "POWER_SAVING", &saving, &active);
	if (saving >= 0 && active >= 0) {
		snprintf(buf, sizeof(buf), "%d", active);
		sf_saved_set(&gpu->saved, AMDGPU_PROFILE, buf);
	}
	/* Masks only mean something to restore when the user chose them. */
	if (strcmp(level, "manual") == 0) {
		const char *tables[] = { AMDGPU_SCLK, AMDGPU_MCLK };
		for (int i = 0; i < 2; i++) {
			if (sf_attr_read(p, gpu->dir, tables[i], table,
					 sizeof(table)))
				continue;
			amdgpu_dpm_mask(table, buf, sizeof(buf));
			if (buf[0])
				sf_saved_set(&gpu->saved, tables[i], buf);
		}
	}
	if ((err = sf_state_write(p)))
		return err;
	/* The profile and the DPM masks take effect in manual only. */
	if ((err = gpu_write(p, gpu, AMDGPU_LEVEL, "manual", true)))
		return err;
	if (saving >= 0 && active >= 0) {
		snprintf(buf, sizeof(buf), "%d", saving);
		gpu_write(p, gpu, AMDGPU_PROFILE, buf, false);
	}
	gpu_write(p, gpu, AMDGPU_SCLK, "0", false);
	if (amdgpu_may_lower_memory(p, gpu))
		gpu_write(p, gpu, AMDGPU_MCLK, "0", false);
	else
		sf_platform_log(p, SF_PLATFORM_LOG_DEBUG, "gpu %s (amdgpu): "
				"memory clock left alone (%s)", gpu->card,
				p->options.reclock_memory ?
					"more than one display lit" :
					"ReclockMemory is off");
	return 0;
}

static int
amdgpu_restore(struct sf_platform *p, struct sf_gpu *gpu)
{
	/* The profile while still in manual; the level then resets the
	 * masks, and a user's manual masks go back last. */
	gpu_put_back(p, gpu, AMDGPU_PROFILE);
	int err = gpu_put_back(p, gpu, AMDGPU_LEVEL);
	const char *level = sf_saved_get(&gpu->saved, AMDGPU_LEVEL);
	if (!err && level && strcmp(level, "manual") == 0) {
		gpu_put_back(p, gpu, AMDGPU_SCLK);
		gpu_put_back(p, gpu, AMDGPU_MCLK);
	}
	return err;
}

static void
amdgpu_describe(struct sf_platform *p, struct sf_gpu *gpu,
		struct sf_writer *w)
{
	char level[64], table[SF_ATTR_VALUE_MAX];
	int saving = -1, active = -1;

	if (!sf_attr_read(p, gpu->dir, AMDGPU_LEVEL, level, sizeof(level)))
		sf_writer_printf(w, "gpu.%s.%s %s\n", gpu->card, AMDGPU_LEVEL,
				 level);
	if (!sf_attr_read(p, gpu->dir, AMDGPU_PROFILE, table, sizeof(table)))
		amdgpu_parse_profiles(table, "POWER_SAVING", &saving, &active);
	if (active >= 0)
		sf_writer_printf(w, "gpu.%s.%s %d\n", gpu->card,
				 AMDGPU_PROFILE, active);
	bool mclk = amdgpu_may_lower_memory(p, gpu);
	sf_writer_printf(w, "gpu.%s.low %s=manual", gpu->card, AMDGPU_LEVEL);
	if (saving >= 0)
		sf_writer_printf(w, " %s=%d", AMDGPU_PROFILE, saving);
	sf_writer_printf(w, " %s=0%s\n", AMDGPU_SCLK,
			 mclk ? " " AMDGPU_MCLK "=0" : "");
	sf_writer_printf(w, "gpu.%s.lit_heads %d\n", gpu->card,
			 sf_platform_lit_heads(p, gpu->minor));
}

static const struct sf_reclock_backend amdgpu_backend = {
	.name = "amdgpu",
	.attrs = amdgpu_attrs,
	.detect = amdgpu_detect,
	.set_low = amdgpu_set_low,
	.restore = amdgpu_restore,
	.describe = amdgpu_describe,
};

/* --- radeon: dpm state and level, or the legacy profile --- */

static const char *const radeon_attrs[] = {
	"device/power_dpm_state",
	"device/power_dpm_force_performance_level",
	"device/power_profile",
	NULL,
};

static bool
radeon_detect(struct sf_platform *p, struct sf_gpu *gpu)
{
	return driver_is(gpu, "radeon") &&
	       sf_attr_exists(p, gpu->dir, "device/power_method");
}

static int
radeon_set_low(struct sf_platform *p, struct sf_gpu *gpu)
{
	char method[32];
	int err = sf_attr_read(p, gpu->dir, "device/power_method", method,
			       sizeof(method));

	if (err)
		return err;
	if (strcmp(method, "dpm") == 0) {
		if ((err = sf_saved_take(p, &gpu->saved, gpu->dir,
					 radeon_attrs[0])) ||
		    (err = sf_saved_take(p, &gpu->saved, gpu->dir,
					 radeon_attrs[1])) ||
		    (err = sf_state_write(p)))
			return err;
		if (!(err = gpu_write(p, gpu, radeon_attrs[0], "battery",
				      true)))
			err = gpu_write(p, gpu, radeon_attrs[1], "low", true);
		return err;
	}
	if (strcmp(method, "profile") == 0) {
		/* The seed article's method: the legacy low profile. */
		if ((err = sf_saved_take(p, &gpu->saved, gpu->dir,
					 radeon_attrs[2])) ||
		    (err = sf_state_write(p)))
			return err;
		return gpu_write(p, gpu, radeon_attrs[2], "low", true);
	}
	sf_platform_log(p, SF_PLATFORM_LOG_INFO, "gpu %s (radeon): power "
			"method %s reclocks by itself; left alone", gpu->card,
			method);
	return ENOTSUP;
}

static int
radeon_restore(struct sf_platform *p, struct sf_gpu *gpu)
{
	int err = gpu_put_back(p, gpu, radeon_attrs[1]);
	int err2 = gpu_put_back(p, gpu, radeon_attrs[0]);
	int err3 = gpu_put_back(p, gpu, radeon_attrs[2]);

	return err ? err : err2 ? err2 : err3;
}

static void
radeon_describe(struct sf_platform *p, struct sf_gpu *gpu,
		struct sf_writer *w)
{
	static const char *const all[] = {
		"device/power_method", "device/power_dpm_state",
		"device/power_dpm_force_performance_level",
		"device/power_profile", NULL,
	};
	char method[32] = "";

	describe_attrs(p, gpu, all, w);
	sf_attr_read(p, gpu->dir, "device/power_method", method,
		     sizeof(method));
	if (strcmp(method, "dpm") == 0)
		sf_writer_printf(w, "gpu.%s.low %s=battery %s=low\n",
				 gpu->card, radeon_attrs[0], radeon_attrs[1]);
	else if (strcmp(method, "profile") == 0)
		sf_writer_printf(w, "gpu.%s.low %s=low\n", gpu->card,
				 radeon_attrs[2]);
	else
		sf_writer_printf(w, "gpu.%s.low none (power method %s)\n",
				 gpu->card, method);
}

static const struct sf_reclock_backend radeon_backend = {
	.name = "radeon",
	.attrs = radeon_attrs,
	.detect = radeon_detect,
	.set_low = radeon_set_low,
	.restore = radeon_restore,
	.describe = radeon_describe,
};

/* --- devfreq GPUs (panfrost, lima, msm, etnaviv): max_freq in Hz --- */

static const char *const devfreq_attrs[] = {
	"max_freq", "min_freq", "governor", NULL,
};

static bool
devfreq_detect(struct sf_platform *p, struct sf_gpu *gpu)
{
	static const char *const drivers[] = {
		"panfrost", "panthor", "lima", "msm", "adreno", "etnaviv",
	};

	for (size_t i = 0; i < SF_ARRAY_LENGTH(drivers); i++)
		if (driver_is(gpu, drivers[i]))
			return sf_attr_exists(p, gpu->dir, "max_freq") &&
			       sf_attr_exists(p, gpu->dir,
					      "available_frequencies");
	return false;
}

static long
devfreq_lowest(struct sf_platform *p, struct sf_gpu *gpu)
{
	char list[SF_ATTR_VALUE_MAX];
	long lowest = -1;

	if (sf_attr_read(p, gpu->dir, "available_frequencies", list,
			 sizeof(list)))
		return -1;
	for (char *s = list, *end; *s; s = end) {
		long f = strtol(s, &end, 10);
		if (end == s)
			break;
		if (f > 0 && (lowest < 0 || f < lowest))
			lowest = f;
	}
	return lowest;
}

static int
devfreq_set_low(struct sf_platform *p, struct sf_gpu *gpu)
{
	long lowest = devfreq_lowest(p, gpu);
	int err = 0;

	if (lowest < 0)
		return ENOENT;
	for (int i = 0; !err && devfreq_attrs[i]; i++)
		err = sf_saved_take(p, &gpu->saved, gpu->dir, devfreq_attrs[i]);
	if (err || (err = sf_state_write(p)))
		return err;
	/* max overrides min, so min need not move */
	return gpu_write_long(p, gpu, "max_freq", lowest);
}

/* Each saved value that differs now goes back: the limits, and the
 * governor in case something switched it meanwhile. */
static int
devfreq_restore(struct sf_platform *p, struct sf_gpu *gpu)
{
	int first_err = 0;

	for (int i = 0; devfreq_attrs[i]; i++) {
		const char *value = sf_saved_get(&gpu->saved, devfreq_attrs[i]);
		char now[256];
		if (!value || (!sf_attr_read(p, gpu->dir, devfreq_attrs[i], now,
					     sizeof(now)) &&
			       strcmp(now, value) == 0))
			continue;
		int err = gpu_write(p, gpu, devfreq_attrs[i], value, false);
		if (err && !first_err)
			first_err = err;
	}
	return first_err;
}

static void
devfreq_describe(struct sf_platform *p, struct sf_gpu *gpu,
		 struct sf_writer *w)
{
	describe_attrs(p, gpu, devfreq_attrs, w);
	sf_writer_printf(w, "gpu.%s.low max_freq=%ld\n", gpu->card,
			 devfreq_lowest(p, gpu));
}

static const struct sf_reclock_backend devfreq_backend = {
	.name = "devfreq",
	.attrs = devfreq_attrs,
	.detect = devfreq_detect,
	.set_low = devfreq_set_low,
	.restore = devfreq_restore,
	.describe = devfreq_describe,
};

/* --- nouveau: the debugfs pstate, only when asked for --- */

static const char *const nouveau_attrs[] = { "pstate", NULL };

static bool
nouveau_detect(struct sf_platform *p, struct sf_gpu *gpu)
{
	return driver_is(gpu, "nouveau") && p->options.reclock_nouveau &&
	       sf_attr_exists(p, gpu->dir, "pstate");
}

/* Lines "07: core 405 MHz memory 810 MHz AC DC *": the first pstate is
 * the lowest; " AC" and " DC" after the last "MHz" mark the user's
 * choice for each power source, and on the closing "AC:" line (the
 * current clocks) they mean auto.  No mark: none, the boot clocks. */
static void
nouveau_parse(const char *table, char *lowest, char *ac, char *dc,
	      size_t size)
{
	lowest[0] = '\0';
	snprintf(ac, size, "none");
	snprintf(dc, size, "none");
	for (const char *line = table; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		char copy[256], id[8];
		snprintf(copy, sizeof(copy), "%.*s", (int)n, line);
		line = end ? end + 1 : NULL;
		if (n < 4 || copy[2] != ':')
			continue;
		bool current = strncmp(copy, "AC", 2) == 0 ||
			       strncmp(copy, "DC", 2) == 0;
		snprintf(id, sizeof(id), "%s", current ? "auto" : "");
		if (!current) {
			snprintf(id, sizeof(id), "%.2s", copy);
			if (!lowest[0])
				snprintf(lowest, size, "%s", id);
		}
		const char *marks = copy;
		for (const char *m; (m = strstr(marks, "MHz"));)
			marks = m + 3;
		if (strstr(marks, " AC"))
			snprintf(ac, size, "%s", id);
		if (strstr(marks, " DC"))
			snprintf(dc, size, "%s", id);
	}
}

static int
nouveau_set_low(struct sf_platform *p, struct sf_gpu *gpu)
{
	char table[SF_ATTR_VALUE_MAX], lowest[8], ac[8], dc[8], buf[16];
	int err = sf_attr_read(p, gpu->dir, "pstate", table, sizeof(table));

	if (err)
		return err;
	nouveau_parse(table, lowest, ac, dc, sizeof(lowest));
	if (!lowest[0])
		return ENOENT;
	/* Saved as what writes each back: "ac:0f", "dc:auto", "ac:none".
	 * The low pstate is written for both sources. */
	snprintf(buf, sizeof(buf), "ac:%s", ac);
	sf_saved_set(&gpu->saved, "pstate", buf);
	snprintf(buf, sizeof(buf), "dc:%s", dc);
	sf_saved_set(&gpu->saved, "pstate.dc", buf);
	if ((err = sf_state_write(p)))
		return err;
	return gpu_write(p, gpu, "pstate", lowest, false);
}

static int
nouveau_restore(struct sf_platform *p, struct sf_gpu *gpu)
{
	int err = gpu_put_back(p, gpu, "pstate");
	const char *dc = sf_saved_get(&gpu->saved, "pstate.dc");

	if (!err && dc)
		err = gpu_write(p, gpu, "pstate", dc, false);
	return err;
}

static void
nouveau_describe(struct sf_platform *p, struct sf_gpu *gpu,
		 struct sf_writer *w)
{
	char table[SF_ATTR_VALUE_MAX], lowest[8], ac[8], dc[8];

	if (sf_attr_read(p, gpu->dir, "pstate", table, sizeof(table)))
		return;
	nouveau_parse(table, lowest, ac, dc, sizeof(lowest));
	sf_writer_printf(w, "gpu.%s.pstate ac=%s dc=%s\n", gpu->card, ac,
			 dc);
	sf_writer_printf(w, "gpu.%s.low pstate=%s\n", gpu->card, lowest);
}

static const struct sf_reclock_backend nouveau_backend = {
	.name = "nouveau",
	.attrs = nouveau_attrs,
	.detect = nouveau_detect,
	.set_low = nouveau_set_low,
	.restore = nouveau_restore,
	.describe = nouveau_describe,
};

const struct sf_reclock_backend *const sf_reclock_backends[] = {
	&i915_backend,
	&xe_backend,
	&amdgpu_backend,
	&radeon_backend,
	&devfreq_backend,
	&nouveau_backend,
	NULL,
};

const struct sf_reclock_backend *
sf_reclock_backend_find(const char *name)
{
	for (int i = 0; sf_reclock_backends[i]; i++)
		if (strcmp(sf_reclock_backends[i]->name, name) == 0)
			return sf_reclock_backends[i];
	return NULL;
}
