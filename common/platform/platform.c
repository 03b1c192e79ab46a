/* SPDX-License-Identifier: MIT */
/*
 * The platform object: discovery of GPUs, connectors, the backlight and
 * batteries under the root, the reclock and backlight requests with
 * their restore, the battery sampler and the description that
 * stillframectl platform prints.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef SF_HAVE_LIBDRM
#include <xf86drm.h>
#include <xf86drmMode.h>
#endif

#include "platform-private.h"
#include "sf-config.h"

static const char *const backlight_attrs[] = { "brightness", NULL };

void
sf_platform_options_init(struct sf_platform_options *options)
{
	*options = (struct sf_platform_options){
		.reclock = true,
		.reclock_memory = true,
		.backlight = true,
		.restore_leftovers = true,
	};
}

void
sf_platform_options_from_config(struct sf_platform_options *options,
				const struct sf_config *config)
{
	sf_platform_options_init(options);
	options->reclock = config->reclock && config->enable;
	options->reclock_memory = config->reclock_memory;
	options->reclock_nouveau = config->reclock_nouveau;
	options->backlight = config->enable;
	options->root = config->platform_root;
}

const char *
sf_platform_state_path(const struct sf_platform_options *options,
		       char *buf, size_t size)
{
	if (options->state_path) {
		snprintf(buf, size, "%s", options->state_path);
		return buf;
	}
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	const char *root = options->root;
	if (root && root[strspn(root, "/")] != '\0')
		/* A fake tree keeps its own state, as /run would. */
		snprintf(buf, size, "%s/run/stillframe/platform-state", root);
	else if (geteuid() == 0 || !runtime || runtime[0] != '/')
		snprintf(buf, size, "/run/stillframe/platform-state");
	else
		snprintf(buf, size, "%s/stillframe/platform-state", runtime);
	return buf;
}

bool
sf_platform_output_is_internal(const char *name)
{
	return sf_output_kind_from_name(name) == SF_OUTPUT_KIND_INTERNAL;
}

/* The basename of a symlink's target: a device's driver. */
static bool
read_link_name(const struct sf_platform *p, const char *rel, char *out,
	       size_t size)
{
	char path[PATH_MAX], target[PATH_MAX];

	sf_platform_path(p, rel, path, sizeof(path));
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	const char *base = strrchr(target, '/');
	snprintf(out, size, "%s", base ? base + 1 : target);
	return true;
}

static DIR *
open_class(const struct sf_platform *p, const char *rel)
{
	char path[PATH_MAX];

	sf_platform_path(p, rel, path, sizeof(path));
	return opendir(path);
}

/* Calls fn for each device of a sysfs class directory, with its name and
 * its path under the root, while fn returns true. */
static void
for_each_device(struct sf_platform *p, const char *class_rel,
		bool (*fn)(struct sf_platform *p, const char *name,
			   const char *dir))
{
	DIR *d = open_class(p, class_rel);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%s/%s", class_rel, e->d_name);
		if (!fn(p, e->d_name, dir))
			break;
	}
	closedir(d);
}

static void
add_gpu(struct sf_platform *p, const char *card, int minor,
	const char *driver, const char *dir)
{
	if (p->n_gpus == SF_GPU_MAX)
		return;
	struct sf_gpu *gpu = &p->gpus[p->n_gpus];
	memset(gpu, 0, sizeof(*gpu));
	snprintf(gpu->card, sizeof(gpu->card), "%s", card);
	gpu->minor = minor;
	snprintf(gpu->driver, sizeof(gpu->driver), "%s", driver);
	snprintf(gpu->dir, sizeof(gpu->dir), "%s", dir);
	for (int i = 0; sf_reclock_backends[i]; i++) {
		struct sf_gpu probe = *gpu;
		/* nouveau's files are in debugfs, by the minor */
		if (strcmp(sf_reclock_backends[i]->name, "nouveau") == 0)
			snprintf(probe.dir, sizeof(probe.dir),
				 "sys/kernel/debug/dri/%d", minor);
		if (sf_reclock_backends[i]->detect(p, &probe)) {
			*gpu = probe;
			gpu->backend = sf_reclock_backends[i];
			break;
		}
	}
	p->n_gpus++;
	sf_platform_log(p, SF_PLATFORM_LOG_INFO, "gpu %s: driver %s, %s",
			card, driver[0] ? driver : "unknown",
			gpu->backend ? gpu->backend->name : "no reclock backend");
}

static void
add_connector(struct sf_platform *p, int minor, const char *name, bool lit)
{
	if (p->n_connectors == SF_CONNECTOR_MAX)
		return;
	struct sf_connector *c = &p->connectors[p->n_connectors++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->minor = minor;
	c->internal = sf_platform_output_is_internal(name);
	c->lit = lit;
}

#ifdef SF_HAVE_LIBDRM
/* The connectors through KMS: the kernel's own types and state, without
 * probing.  Returns false when KMS does not answer. */
static bool
kms_connectors(struct sf_platform *p, int fd, int minor)
{
	drmModeResPtr res = drmModeGetResources(fd);

	for (int i = 0; res && i < res->count_connectors; i++) {
		drmModeConnectorPtr c =
			drmModeGetConnectorCurrent(fd, res->connectors[i]);
		if (!c)
			continue;
		const char *type = drmModeGetConnectorTypeName(c->connector_type);
		char name[32];
		snprintf(name, sizeof(name), "%s-%u", type ? type : "Unknown",
			 c->connector_type_id);
		add_connector(p, minor, name,
			      c->connection == DRM_MODE_CONNECTED &&
			      c->encoder_id != 0);
		drmModeFreeConnector(c);
	}
	bool ok = res != NULL;
	drmModeFreeResources(res);
	return ok;
}
#endif

/*
 * cardN's driver and connectors through its device node, when it opens
 * (the real system only): the name from drmGetVersion, the connectors
 * from KMS; else the sysfs driver link.  Returns whether the connectors
 * came from KMS (if not, the sysfs connector directories give them).
 */
static bool
probe_card(struct sf_platform *p, int minor, char *driver, size_t size)
{
	bool from_kms = false;
	char rel[64];

	driver[0] = '\0';
#ifdef SF_HAVE_LIBDRM
	char node[64];
	snprintf(node, sizeof(node), "/dev/dri/card%d", minor);
	int fd = p->root[0] ? -1 : open(node, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		drmVersionPtr v = drmGetVersion(fd);
		if (v && v->name)
			snprintf(driver, size, "%s", v->name);
		drmFreeVersion(v);
		from_kms = kms_connectors(p, fd, minor);
		close(fd);
	}
#endif
	if (!driver[0]) {
		snprintf(rel, sizeof(rel), "sys/class/drm/card%d/device/driver",
			 minor);
		read_link_name(p, rel, driver, size);
	}
	return from_kms;
}

/* Cards first, with their connectors from KMS where it answers; then,
 * for the others, the connectors' sysfs directories (cardN-NAME). */
static void
discover_drm(struct sf_platform *p)
{
	DIR *d = open_class(p, "sys/class/drm");
	struct dirent *e;
	bool from_kms[SF_GPU_MAX * 4] = { false };

	if (!d)
		return;
	for (int pass = 0; pass < 2; pass++, rewinddir(d)) {
		while ((e = readdir(d))) {
			int minor, end = 0;
			if (sscanf(e->d_name, "card%d%n", &minor, &end) != 1 ||
			    minor < 0 || minor >= (int)SF_ARRAY_LENGTH(from_kms))
				continue;
			char dir[PATH_MAX];
			snprintf(dir, sizeof(dir), "sys/class/drm/%s",
				 e->d_name);
			if (pass == 0 && e->d_name[end] == '\0') {
				char driver[32];
				from_kms[minor] = probe_card(p, minor, driver,
							     sizeof(driver));
				add_gpu(p, e->d_name, minor, driver, dir);
			} else if (pass == 1 && e->d_name[end] == '-' &&
				   !from_kms[minor]) {
				char enabled[32] = "", dpms[32] = "";
				sf_attr_read(p, dir, "enabled", enabled,
					     sizeof(enabled));
				sf_attr_read(p, dir, "dpms", dpms,
					     sizeof(dpms));
				add_connector(p, minor, e->d_name + end + 1,
					      strcmp(enabled, "enabled") == 0 &&
					      strcmp(dpms, "On") == 0);
			}
		}
	}
	closedir(d);
}

static bool
add_devfreq(struct sf_platform *p, const char *name, const char *dir)
{
	char link[PATH_MAX], driver[32] = "";

	snprintf(link, sizeof(link), "%s/device/driver", dir);
	if (!read_link_name(p, link, driver, sizeof(driver)))
		return true;
	add_gpu(p, name, -1, driver, dir);
	/* Not a GPU's devfreq (a bus, a memory controller): gone. */
	if (!p->gpus[p->n_gpus - 1].backend)
		p->n_gpus--;
	return true;
}

/* The kernel ABI's order of preference: firmware, platform, raw. */
static int
backlight_rank(const char *type)
{
	return strcmp(type, "firmware") == 0 ? 0 :
	       strcmp(type, "platform") == 0 ? 1 :
	       strcmp(type, "raw") == 0 ? 2 : 3;
}

/* Keeps the backlight if it is the first usable one or a better one. */
static bool
consider_backlight(struct sf_platform *p, const char *name,
		   const char *dir)
{
	struct sf_backlight *b = &p->backlight;
	char type[16] = "";
	long max;

	if (sf_attr_read(p, dir, "type", type, sizeof(type)) ||
	    sf_attr_read_long(p, dir, "max_brightness", &max) ||
	    max <= 0)
		return true;
	if (b->found && backlight_rank(type) >= backlight_rank(b->type))
		return true;
	b->found = true;
	snprintf(b->dir, sizeof(b->dir), "%s", dir);
	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->type, sizeof(b->type), "%s", type);
	b->max = max;
	return true;
}

static void
discover_backlight(struct sf_platform *p)
{
	struct sf_backlight *b = &p->backlight;

	b->saved = -1;
	for_each_device(p, "sys/class/backlight", consider_backlight);
	if (b->found)
		sf_platform_log(p, SF_PLATFORM_LOG_INFO, "backlight %s (%s), "
				"maximum %ld", b->name, b->type, b->max);
}

/* Keeps the device if it is a battery, until SF_BATTERY_MAX are kept. */
static bool
add_battery(struct sf_platform *p, const char *name, const char *dir)
{
	char type[32];

	(void)name;
	if (sf_attr_read(p, dir, "type", type, sizeof(type)) == 0 &&
	    strcmp(type, "Battery") == 0)
		snprintf(p->batteries[p->n_batteries++],
			 sizeof(p->batteries[0]), "%s", dir);
	return p->n_batteries < SF_BATTERY_MAX;
}

struct sf_platform *
sf_platform_create(const struct sf_platform_options *options)
{
	struct sf_platform *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->options = *options;
	p->options.state_path = NULL;	/* not kept: copied below */
	const char *root = options->root ? options->root : "/";
	/* "" + "/sys/..." for the real system; no trailing slash. */
	snprintf(p->root, sizeof(p->root), "%s", root);
	size_t len = strlen(p->root);
	while (len > 0 && p->root[len - 1] == '/')
		p->root[--len] = '\0';
	sf_platform_state_path(options, p->state_path, sizeof(p->state_path));

	discover_drm(p);
	for_each_device(p, "sys/class/devfreq", add_devfreq);
	discover_backlight(p);
	for_each_device(p, "sys/class/power_supply", add_battery);
	if (options->restore_leftovers) {
		int n = sf_state_restore(p);
		if (n < 0)
			sf_platform_log(p, SF_PLATFORM_LOG_ERROR, "cannot read "
					"the state file %s: %s", p->state_path,
					strerror(errno));
	}
	return p;
}

void
sf_platform_destroy(struct sf_platform *p)
{
	if (!p)
		return;
	p->options.reclock = true;	/* putting back is always allowed */
	sf_platform_set_reclock(p, SF_RECLOCK_NORMAL);
	sf_platform_set_backlight(p, 100);
	sf_state_write(p);		/* removes it when nothing is left */
	free(p);
}

/* Whether someone else changed what stillframe wrote; if so, their
 * value stands and the GPU is left alone from now on. */
static bool
gpu_changed_underneath(struct sf_platform *p, struct sf_gpu *gpu)
{
	for (int i = 0; i < gpu->written.n; i++) {
		const struct sf_saved_attr *w = &gpu->written.attrs[i];
		char now[256];
		if (sf_attr_read(p, gpu->dir, w->attr, now, sizeof(now)) ||
		    strcmp(now, w->value) == 0)
			continue;
		snprintf(gpu->why_disabled, sizeof(gpu->why_disabled),
			 "%s changed to %s by another program", w->attr, now);
		sf_platform_log(p, SF_PLATFORM_LOG_INFO, "gpu %s (%s): %s/%s is "
				"now %s, not the %s stillframe wrote: another "
				"program (TLP, power-profiles-daemon, GameMode, "
				"a user) changed it; stillframe keeps its "
				"value and leaves this GPU alone", gpu->card,
				gpu->backend->name, gpu->dir, w->attr, now,
				w->value);
		return true;
	}
	return false;
}

static void
gpu_forget(struct sf_platform *p, struct sf_gpu *gpu)
{
	memset(&gpu->saved, 0, sizeof(gpu->saved));
	memset(&gpu->written, 0, sizeof(gpu->written));
	gpu->low = false;
	sf_state_write(p);
}

static bool
gpu_set_low(struct sf_platform *p, struct sf_gpu *gpu)
{
	memset(&gpu->saved, 0, sizeof(gpu->saved));
	memset(&gpu->written, 0, sizeof(gpu->written));
	int err = gpu->backend->set_low(p, gpu);
	if (!err) {
		gpu->low = true;
		sf_platform_log(p, SF_PLATFORM_LOG_INFO, "gpu %s (%s): clocks "
				"lowered", gpu->card, gpu->backend->name);
		return true;
	}
	/* Half a change is undone; then the cause decides whether to try
	 * again at the next idle. */
	if (gpu->saved.n)
		gpu->backend->restore(p, gpu);
	gpu_forget(p, gpu);
	if (err == EACCES || err == EPERM || err == EROFS || err == ENOTSUP ||
	    err == ENOENT) {
		gpu->disabled = true;
		snprintf(gpu->why_disabled, sizeof(gpu->why_disabled), "%s",
			 strerror(err));
		sf_platform_log(p, SF_PLATFORM_LOG_INFO, "gpu %s (%s): not "
				"reclocked from now on (%s)", gpu->card,
				gpu->backend->name, strerror(err));
	}
	return false;
}

static void
gpu_restore(struct sf_platform *p, struct sf_gpu *gpu)
{
	if (gpu_changed_underneath(p, gpu)) {
		gpu->disabled = true;
		gpu_forget(p, gpu);
		return;
	}
	int err = gpu->backend->restore(p, gpu);
	if (err) {
		/* The state file keeps the values, for the next start or
		 * stillframectl restore; no more lowering meanwhile. */
		sf_platform_log(p, SF_PLATFORM_LOG_ERROR, "gpu %s (%s): the "
				"user's clocks could not all be put back (%s); "
				"they stay in %s", gpu->card, gpu->backend->name,
				strerror(err), p->state_path);
		gpu->low = false;
		gpu->disabled = true;
		snprintf(gpu->why_disabled, sizeof(gpu->why_disabled),
			 "putting back failed: %s", strerror(err));
		return;
	}
	sf_platform_log(p, SF_PLATFORM_LOG_INFO, "gpu %s (%s): the user's "
			"clocks put back", gpu->card, gpu->backend->name);
	gpu_forget(p, gpu);
}

bool
sf_platform_set_reclock(struct sf_platform *p, enum sf_reclock_level level)
{
	bool any = false;

	if (!p)
		return false;
	for (int i = 0; i < p->n_gpus; i++) {
		struct sf_gpu *gpu = &p->gpus[i];
		if (!gpu->backend)
			continue;
		if (level == SF_RECLOCK_NORMAL) {
			if (gpu->low)
				gpu_restore(p, gpu);
			any = true;
		} else if (p->options.reclock && !gpu->disabled && !gpu->low) {
			any |= gpu_set_low(p, gpu);
		} else if (gpu->low) {
			any = true;
		}
	}
	p->reclock = level;
	return any;
}

enum sf_reclock_level
sf_platform_get_reclock(const struct sf_platform *p)
{
	return p ? p->reclock : SF_RECLOCK_NORMAL;
}

int
sf_platform_lit_heads(const struct sf_platform *p, int minor)
{
	int n = 0;

	for (int i = 0; i < p->n_connectors; i++) {
		char dir[PATH_MAX], enabled[32] = "", dpms[32] = "";
		const struct sf_connector *c = &p->connectors[i];
		if (c->minor != minor)
			continue;
		/* Read now: outputs go on and off while stillframe runs. */
		snprintf(dir, sizeof(dir), "sys/class/drm/card%d-%s", minor,
			 c->name);
		sf_attr_read(p, dir, "enabled", enabled, sizeof(enabled));
		sf_attr_read(p, dir, "dpms", dpms, sizeof(dpms));
		n += strcmp(enabled, "enabled") == 0 && strcmp(dpms, "On") == 0;
	}
	return n;
}

bool
sf_platform_set_backlight(struct sf_platform *p, int32_t percent)
{
	struct sf_backlight *b = p ? &p->backlight : NULL;
	long now;
	char value[32];

	if (!b || !b->found || b->disabled ||
	    (!p->options.backlight && !b->dimmed) ||
	    sf_attr_read_long(p, b->dir, "brightness", &now))
		return false;
	if (percent >= 100) {
		if (!b->dimmed)
			return true;
		b->dimmed = false;
		if (now != b->written) {
			/* A brightness key while dimmed: the user's new
			 * level stands. */
			sf_platform_log(p, SF_PLATFORM_LOG_INFO, "backlight %s: "
					"set to %ld while dimmed (not by "
					"stillframe); kept", b->name, now);
		} else {
			snprintf(value, sizeof(value), "%ld", b->saved);
			if (sf_attr_write(p, b->dir, "brightness",
					  backlight_attrs, value))
				return false;
		}
		b->saved = -1;
		sf_state_write(p);
		return true;
	}
	long target = (long)ceil((double)b->max * percent / 100.0);
	if (target < 1)
		target = 1;
	long user = b->dimmed ? b->saved : now;
	if (target >= user)
		return true;	/* already at most that bright */
	if (!b->dimmed) {
		b->saved = now;
		if (sf_state_write(p)) {
			b->saved = -1;
			return false;
		}
	}
	snprintf(value, sizeof(value), "%ld", target);
	int err = sf_attr_write(p, b->dir, "brightness", backlight_attrs,
				value);
	if (err) {
		if (err == EACCES || err == EPERM || err == EROFS)
			b->disabled = true;
		if (!b->dimmed) {
			b->saved = -1;
			sf_state_write(p);
		}
		return false;
	}
	b->dimmed = true;
	b->written = target;
	return true;
}

static int
find_wish(const struct sf_platform *p, const char *output)
{
	for (int i = 0; i < p->n_backlight_wishes; i++)
		if (strcmp(p->backlight_wishes[i].output, output) == 0)
			return i;
	return -1;
}

static bool
apply_wishes(struct sf_platform *p)
{
	int32_t brightest = p->n_backlight_wishes ? 0 : 100;

	for (int i = 0; i < p->n_backlight_wishes; i++)
		if (p->backlight_wishes[i].percent > brightest)
			brightest = p->backlight_wishes[i].percent;
	return sf_platform_set_backlight(p, brightest);
}

bool
sf_platform_set_output_backlight(struct sf_platform *p, const char *output,
				 int32_t percent)
{
	if (!p)
		return false;
	int i = find_wish(p, output);
	if (i < 0) {
		if (p->n_backlight_wishes == SF_CONNECTOR_MAX)
			return false;
		i = p->n_backlight_wishes++;
		snprintf(p->backlight_wishes[i].output,
			 sizeof(p->backlight_wishes[i].output), "%s", output);
	}
	p->backlight_wishes[i].percent = percent;
	return apply_wishes(p);
}

void
sf_platform_forget_output(struct sf_platform *p, const char *output)
{
	int i = p ? find_wish(p, output) : -1;

	if (i < 0)
		return;
	p->backlight_wishes[i] =
		p->backlight_wishes[--p->n_backlight_wishes];
	apply_wishes(p);
}

void
sf_platform_read_power(struct sf_platform *p, struct sf_power_sample *out)
{
	*out = (struct sf_power_sample){ .discharging = p->n_batteries > 0 };
	for (int i = 0; i < p->n_batteries; i++) {
		const char *dir = p->batteries[i];
		char status[32] = "";
		long power, current, voltage = 0, energy, charge;
		out->present = true;
		sf_attr_read(p, dir, "status", status, sizeof(status));
		if (strcmp(status, "Discharging") != 0)
			out->discharging = false;
		bool have_voltage = !sf_attr_read_long(p, dir, "voltage_now",
						       &voltage);
		/* Units: µW, µA, µV, µWh, µAh.  current_now's sign
		 * differs between drivers. */
		if (!sf_attr_read_long(p, dir, "power_now", &power)) {
			out->watts += labs(power) / 1e6;
			out->have_power = true;
		} else if (have_voltage &&
			   !sf_attr_read_long(p, dir, "current_now", &current)) {
			out->watts += (double)labs(current) * voltage / 1e12;
			out->have_power = true;
		}
		if (!sf_attr_read_long(p, dir, "energy_now", &energy)) {
			out->energy_wh += energy / 1e6;
			out->have_energy = true;
		} else if (have_voltage &&
			   !sf_attr_read_long(p, dir, "charge_now", &charge)) {
			out->energy_wh += (double)charge * voltage / 1e12;
			out->have_energy = true;
		}
	}
}

/* A debugfs status file, read at most every 10 s: some (amdgpu's PSR
 * state) send a firmware command per read. */
static const char *
status_read(struct sf_platform *p, const char *dir, const char *attr,
	    sf_time_t now)
{
	char path[PATH_MAX];
	int slot = -1;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	for (int i = 0; i < p->n_status_cache; i++)
		if (strcmp(p->status_cache[i].path, path) == 0)
			slot = i;
	if (slot >= 0 && now - p->status_cache[slot].read_at < SF_SEC(10))
		return p->status_cache[slot].text[0] ?
			p->status_cache[slot].text : NULL;
	if (slot < 0) {
		if (p->n_status_cache == (int)SF_ARRAY_LENGTH(p->status_cache))
			return NULL;
		slot = p->n_status_cache++;
		snprintf(p->status_cache[slot].path,
			 sizeof(p->status_cache[slot].path), "%s", path);
	}
	char *text = p->status_cache[slot].text;
	p->status_cache[slot].read_at = now;
	if (sf_attr_read(p, dir, attr, text, sizeof(p->status_cache[0].text)))
		text[0] = '\0';
	/* One line: "a; b; c". */
	for (char *s = text; *s; s++)
		if (*s == '\n')
			*s = ';';
	return text[0] ? text : NULL;
}

static void
describe_display_status(struct sf_platform *p, sf_time_t now,
			struct sf_writer *w)
{
	static const char *const i915_files[] = {
		"i915_edp_psr_status", "i915_fbc_status", "i915_drrs_status",
	};
	static const char *const amdgpu_files[] = {
		"psr_state", "psr_residency",
	};

	for (int i = 0; i < p->n_gpus; i++) {
		const struct sf_gpu *gpu = &p->gpus[i];
		char dir[PATH_MAX];
		if (gpu->minor < 0)
			continue;
		snprintf(dir, sizeof(dir), "sys/kernel/debug/dri/%d",
			 gpu->minor);
		if (strcmp(gpu->driver, "i915") == 0) {
			for (size_t j = 0; j < SF_ARRAY_LENGTH(i915_files); j++) {
				const char *t = status_read(p, dir,
							    i915_files[j], now);
				if (t)
					sf_writer_printf(w, "display.%s.%s %s\n",
							 gpu->card,
							 i915_files[j], t);
			}
		} else if (strcmp(gpu->driver, "amdgpu") == 0) {
			for (int c = 0; c < p->n_connectors; c++) {
				const struct sf_connector *con =
					&p->connectors[c];
				if (con->minor != gpu->minor || !con->internal)
					continue;
				char cdir[PATH_MAX + 40];
				snprintf(cdir, sizeof(cdir), "%s/%s", dir,
					 con->name);
				for (size_t j = 0;
				     j < SF_ARRAY_LENGTH(amdgpu_files); j++) {
					const char *t = status_read(
						p, cdir, amdgpu_files[j], now);
					if (t)
						sf_writer_printf(
							w, "display.%s-%s.%s %s\n",
							gpu->card, con->name,
							amdgpu_files[j], t);
				}
			}
		}
	}
}

void
sf_platform_describe(struct sf_platform *p, sf_time_t now,
		     struct sf_writer *w)
{
	sf_writer_printf(w, "root %s\n", p->root[0] ? p->root : "/");
	sf_writer_printf(w, "state_file %s%s\n", p->state_path,
			 access(p->state_path, F_OK) == 0 ? " (present)" : "");
	sf_writer_printf(w, "gpus %d\n", p->n_gpus);
	for (int i = 0; i < p->n_gpus; i++) {
		struct sf_gpu *gpu = &p->gpus[i];
		sf_writer_printf(w, "gpu.%s.driver %s\n", gpu->card,
				 gpu->driver[0] ? gpu->driver : "unknown");
		if (!gpu->backend) {
			sf_writer_printf(w, "gpu.%s.backend none\n", gpu->card);
			continue;
		}
		sf_writer_printf(w, "gpu.%s.backend %s\n", gpu->card,
				 gpu->backend->name);
		sf_writer_printf(w, "gpu.%s.dir %s\n", gpu->card, gpu->dir);
		if (gpu->disabled)
			sf_writer_printf(w, "gpu.%s.clocks left alone (%s)\n",
					 gpu->card, gpu->why_disabled);
		else
			sf_writer_printf(w, "gpu.%s.clocks %s\n", gpu->card,
					 gpu->low ? "low" : "normal");
		gpu->backend->describe(p, gpu, w);
	}
	for (int i = 0; i < p->n_connectors; i++) {
		const struct sf_connector *c = &p->connectors[i];
		sf_writer_printf(w, "connector.card%d-%s %s %s\n", c->minor,
				 c->name, c->internal ? "internal" : "external",
				 c->lit ? "lit" : "off");
	}
	const struct sf_backlight *b = &p->backlight;
	if (b->found) {
		long now_level = -1;
		sf_attr_read_long(p, b->dir, "brightness", &now_level);
		sf_writer_printf(w, "backlight %s type %s brightness %ld max "
				 "%ld%s\n", b->name, b->type, now_level, b->max,
				 b->dimmed ? " (dimmed)" : "");
	} else {
		sf_writer_printf(w, "backlight none\n");
	}
	struct sf_power_sample s;
	sf_platform_read_power(p, &s);
	if (!s.present) {
		sf_writer_printf(w, "battery none\n");
	} else {
		sf_writer_printf(w, "battery.discharging %d\n", s.discharging);
		if (s.have_power)
			sf_writer_printf(w, "battery.power_w %.2f\n", s.watts);
		if (s.have_energy)
			sf_writer_printf(w, "battery.energy_wh %.2f\n",
					 s.energy_wh);
	}
	describe_display_status(p, now, w);
}

int
sf_platform_restore_state(const struct sf_platform_options *options)
{
	struct sf_platform_options o = *options;

	o.restore_leftovers = false;
	struct sf_platform *p = sf_platform_create(&o);
	if (!p)
		return -1;
	int n = sf_state_restore(p);
	free(p);	/* nothing of its own to put back */
	return n;
}
