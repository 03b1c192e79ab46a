/* SPDX-License-Identifier: MIT */
/*
 * fake-kernel: a TEST DOUBLE at the hardware boundary, never linked into
 * stillframe itself.  It stands in for the kernel's sysfs and debugfs:
 * the builders lay out real directory trees (files, class symlinks,
 * driver links) under a mkdtemp() root, as the drivers named below do,
 * and sf_fake_kernel_write() is the platform layer's write hook, which
 * applies each driver's store() rules.  An accepted write changes the
 * files as the kernel would and goes to the journal; a refused one
 * returns the driver's errno and changes nothing.
 *
 * Reads need no hook: the platform layer reads the tree with open(),
 * readdir() and readlink(), like the real one.  File modes cannot make
 * a file read-only for root, so read-only is the write hook's answer.
 * Failures to build the tree abort: a test on half a tree would mislead.
 *
 * relpath arguments are relative to the root, without a leading '/':
 * "sys/class/drm/card0/gt_min_freq_mhz".
 */
#ifndef SF_FAKE_KERNEL_H
#define SF_FAKE_KERNEL_H

#include <stdbool.h>

struct sf_fake_kernel;

/* An empty root, mkdtemp("/tmp/sf-fake-kernel.XXXXXX"). */
struct sf_fake_kernel *sf_fake_kernel_create(void);
/* Removes the whole tree.  NULL-safe. */
void sf_fake_kernel_destroy(struct sf_fake_kernel *fk);
const char *sf_fake_kernel_root(const struct sf_fake_kernel *fk);
/* The write hook (sf_platform_write_fn): `path` is the full path, root
 * included; one trailing "\n" of `value` is ignored, as by the kernel's
 * parsers.  Returns 0 or the errno the kernel would. */
int sf_fake_kernel_write(void *fk, const char *path, const char *value);

/* Builders.  `card` is the DRM minor N of cardN; its PCI device is
 * 0000:00:DD.0 with DD = N + 2 in hex (card0 at 00:02.0, as Intel's). */
void sf_fake_add_i915(struct sf_fake_kernel *fk, int card, int rpn, int rp1,
		      int rp0);
void sf_fake_add_xe(struct sf_fake_kernel *fk, int card, int n_gts, int rpn,
		    int rpe, int rp0);

enum sf_fake_amdgpu_table {
	SF_FAKE_AMDGPU_TABLE_POLARIS,	/* smu7, 3D_FULL_SCREEN active */
	SF_FAKE_AMDGPU_TABLE_NAVI,	/* navi10, BOOTUP_DEFAULT active */
};
void sf_fake_add_amdgpu(struct sf_fake_kernel *fk, int card,
			enum sf_fake_amdgpu_table table);
/* power_method "dpm", "profile" or "dynpm"; the power_dpm_* files exist
 * with "dpm" only, as radeon_pm_late_init() creates them. */
void sf_fake_add_radeon(struct sf_fake_kernel *fk, int card,
			const char *power_method);
/* The card, and debugfs dri/N/pstate with pstates 07, 0a and 0f. */
void sf_fake_add_nouveau(struct sf_fake_kernel *fk, int card);
/* A platform device with a devfreq ("ff9a0000.gpu", "panfrost"). */
void sf_fake_add_devfreq_gpu(struct sf_fake_kernel *fk, const char *dev_name,
			     const char *driver);
/* cardN-<name>: connected, enabled, On; or disconnected, disabled, Off. */
void sf_fake_add_connector(struct sf_fake_kernel *fk, int card,
			   const char *name, bool enabled_on);
/* type "firmware", "platform" or "raw". */
void sf_fake_add_backlight(struct sf_fake_kernel *fk, const char *name,
			   const char *type, int max, int brightness);
/* An ACPI battery: power_now if power_now_uw >= 0, else current_now
 * (which may be negative); energy_now if energy_now_uwh >= 0, else
 * charge_now.  voltage_now always. */
void sf_fake_add_battery(struct sf_fake_kernel *fk, const char *name,
			 const char *status, long power_now_uw,
			 long current_now_ua, long voltage_now_uv,
			 long energy_now_uwh, long charge_now_uah);
void sf_fake_add_mains(struct sf_fake_kernel *fk, const char *name,
		       bool online);
/* debugfs dri/N: i915_edp_psr_status, i915_fbc_status, i915_drrs_status. */
void sf_fake_add_i915_debugfs(struct sf_fake_kernel *fk, int card);

/* Controls. */
/* Writes to the file fail with EACCES from now on, as without the udev
 * rule's permission. */
void sf_fake_set_readonly(struct sf_fake_kernel *fk, const char *relpath);
/* Writes to the file fail with err from now on (EIO: the device did not
 * answer; EINVAL: a driver that refuses the value), until set again with
 * err 0. */
void sf_fake_set_write_error(struct sf_fake_kernel *fk, const char *relpath,
			     int err);
/* The next n writes to an xe min_freq or max_freq fail with EAGAIN. */
void sf_fake_set_eagain(struct sf_fake_kernel *fk, int n);
/* Another program writes the file: no rules, no journal; a "\n" is
 * added unless `value` ends with one. */
void sf_fake_poke(struct sf_fake_kernel *fk, const char *relpath,
		  const char *value);
/* The file's content without its trailing newline, malloc'd; NULL if it
 * does not exist. */
char *sf_fake_read(struct sf_fake_kernel *fk, const char *relpath);
/* Every accepted write in order, "relpath=value\n" each, relpath as the
 * writer named it ("sys/class/drm/card0/gt_min_freq_mhz=300\n"). */
const char *sf_fake_journal(const struct sf_fake_kernel *fk);
void sf_fake_journal_clear(struct sf_fake_kernel *fk);
/* How many writes were refused, for any reason. */
int sf_fake_rejections(const struct sf_fake_kernel *fk);

#endif
