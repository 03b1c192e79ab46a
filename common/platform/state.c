/* SPDX-License-Identifier: MIT */
/*
 * The state file: the user's values, written before stillframe changes
 * them, so that they can be put back by the next start (or by
 * stillframectl restore) if the process dies first.  One line each:
 *
 *	gpu i915 sys/class/drm/card0 gt_min_freq_mhz 300
 *	backlight sys/class/backlight/intel_backlight brightness 700
 *
 * A line is only ever put back onto a device this run discovered, with
 * the backend that drives it: the file names no path that is written
 * as given.  Lines for devices not found now (a driver that loads later)
 * and values that could not be written stay in the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "platform-private.h"

#define STATE_HEADER "# stillframe platform state 1: the user's values, to put back"

static const char *const backlight_attrs[] = { "brightness", NULL };

static void
make_parent_dir(const char *path)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return;
	*slash = '\0';
	/* Each missing level; EEXIST is fine, a failure shows at open. */
	for (char *s = dir + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(dir, 0755);
		*s = '/';
	}
	mkdir(dir, 0700);
}

int
sf_state_write(struct sf_platform *p)
{
	char tmp[PATH_MAX + 8];
	int entries = 0;

	for (int i = 0; i < p->n_gpus; i++)
		entries += p->gpus[i].backend ? p->gpus[i].saved.n : 0;
	entries += p->backlight.found && p->backlight.saved >= 0;
	entries += p->kept_len > 0;
	if (entries == 0) {
		/* Nothing of the user's is changed: no file, but only ours
		 * goes (another run's leftovers wait for restore). */
		if (p->state_written)
			unlink(p->state_path);
		p->state_written = false;
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.new", p->state_path);
	make_parent_dir(p->state_path);
	FILE *f = fopen(tmp, "we");
	if (!f)
		goto fail;
	fprintf(f, "%s\n", STATE_HEADER);
	fwrite(p->kept, 1, p->kept_len, f);
	for (int i = 0; i < p->n_gpus; i++) {
		const struct sf_gpu *gpu = &p->gpus[i];
		for (int j = 0; gpu->backend && j < gpu->saved.n; j++)
			fprintf(f, "gpu %s %s %s %s\n", gpu->backend->name,
				gpu->dir, gpu->saved.attrs[j].attr,
				gpu->saved.attrs[j].value);
	}
	if (p->backlight.found && p->backlight.saved >= 0) {
		fprintf(f, "backlight %s brightness %ld\n", p->backlight.dir,
			p->backlight.saved);
	}
	if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
		fclose(f);
		unlink(tmp);
		goto fail;
	}
	fclose(f);
	if (rename(tmp, p->state_path) != 0) {
		unlink(tmp);
		goto fail;
	}
	p->state_written = true;
	return 0;
fail:;
	int err = errno;
	/* Never change what could not be saved first. */
	sf_platform_log(p, SF_PLATFORM_LOG_ERROR, "cannot write the state file "
			"%s: %s; nothing is changed without it",
			p->state_path, strerror(err));
	return err ? err : EIO;
}

void
sf_state_remove(struct sf_platform *p)
{
	unlink(p->state_path);
}

static void
keep_line(struct sf_platform *p, const char *line)
{
	size_t len = strlen(line);

	if (p->kept_len + len + 2 > sizeof(p->kept))
		return;
	memcpy(p->kept + p->kept_len, line, len);
	p->kept_len += len;
	p->kept[p->kept_len++] = '\n';
	p->kept[p->kept_len] = '\0';
}

static struct sf_gpu *
find_gpu(struct sf_platform *p, const char *backend, const char *dir)
{
	for (int i = 0; i < p->n_gpus; i++)
		if (p->gpus[i].backend &&
		    strcmp(p->gpus[i].backend->name, backend) == 0 &&
		    strcmp(p->gpus[i].dir, dir) == 0)
			return &p->gpus[i];
	return NULL;
}

int
sf_state_restore(struct sf_platform *p)
{
	FILE *f = fopen(p->state_path, "re");
	char line[1024];
	int restored = 0;
	/* What each GPU had, gathered before any is put back. */
	struct sf_saved leftovers[SF_GPU_MAX] = { 0 };

	if (!f)
		return errno == ENOENT ? 0 : -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		char kind[16], a[64], dir[PATH_MAX], attr[64];
		int value_at = 0;
		if (strncmp(line, "gpu ", 4) == 0 &&
		    sscanf(line, "%15s %63s %4095s %63s %n", kind, a, dir, attr,
			   &value_at) == 4 && value_at > 0) {
			struct sf_gpu *gpu = find_gpu(p, a, dir);
			if (!gpu) {
				sf_platform_log(p, SF_PLATFORM_LOG_INFO,
						"state file %s: %s (%s) is not a "
						"GPU found now; its line is "
						"kept for later", p->state_path,
						dir, a);
				keep_line(p, line);
				continue;
			}
			sf_saved_set(&leftovers[gpu - p->gpus], attr,
				     line + value_at);
		} else if (sscanf(line, "backlight %4095s %63s %n", dir, attr,
				  &value_at) == 2 && value_at > 0) {
			if (!p->backlight.found ||
			    strcmp(dir, p->backlight.dir) != 0 ||
			    strcmp(attr, "brightness") != 0) {
				sf_platform_log(p, SF_PLATFORM_LOG_INFO,
						"state file %s: %s is not the "
						"backlight found now; its line "
						"is kept for later",
						p->state_path, dir);
				keep_line(p, line);
				continue;
			}
			const char *value = line + value_at;
			if (sf_attr_write(p, dir, attr, backlight_attrs,
					  value) == 0) {
				sf_platform_log(p, SF_PLATFORM_LOG_INFO,
						"put back %s/%s = %s, left by "
						"a previous run", dir, attr,
						value);
				restored++;
			} else {
				keep_line(p, line);
			}
		} else {
			sf_platform_log(p, SF_PLATFORM_LOG_INFO, "state file %s: "
					"line \"%s\" is not understood; "
					"dropped", p->state_path, line);
		}
	}
	fclose(f);
	for (int i = 0; i < p->n_gpus; i++) {
		struct sf_gpu *gpu = &p->gpus[i];
		if (leftovers[i].n == 0)
			continue;
		gpu->saved = leftovers[i];
		int err = gpu->backend->restore(p, gpu);
		for (int j = 0; j < gpu->saved.n; j++)
			sf_platform_log(p, SF_PLATFORM_LOG_INFO, "%s %s/%s = %s, "
					"left by a previous run",
					err ? "could not put back" : "put back",
					gpu->dir, gpu->saved.attrs[j].attr,
					gpu->saved.attrs[j].value);
		if (!err)
			restored += gpu->saved.n;
		if (err) {
			/* Lowering it again would save low values over
			 * the user's: left alone until they are back. */
			gpu->disabled = true;
			snprintf(gpu->why_disabled, sizeof(gpu->why_disabled),
				 "a previous run's values could not be put "
				 "back: %s", strerror(err));
		}
		for (int j = 0; err && j < gpu->saved.n; j++) {
			char kept[1024];
			snprintf(kept, sizeof(kept), "gpu %s %s %s %s",
				 gpu->backend->name, gpu->dir,
				 gpu->saved.attrs[j].attr,
				 gpu->saved.attrs[j].value);
			keep_line(p, kept);
		}
		memset(&gpu->saved, 0, sizeof(gpu->saved));
	}
	/* What could not be put back stays for stillframectl restore or
	 * the next start; nothing left, no file. */
	if (p->kept_len)
		sf_state_write(p);
	else
		sf_state_remove(p);
	return restored;
}
