/* SPDX-License-Identifier: MIT */
/*
 * The platform layer against fake sysfs trees (fake-kernel.c, a test
 * double of the kernel's files and their rules): each reclock backend
 * lowers and puts back exactly, in an order the driver accepts; errors
 * (read-only files, EAGAIN, a method that reclocks by itself) change
 * nothing and say why; a crash is repaired from the state file; a value
 * changed underneath is left to whoever changed it; the backlight, the
 * battery sampler and the description.
 */
#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sf-test.h"
#include "sf-platform.h"
#include "platform-private.h"
#include "fake-kernel.h"

struct fixture {
	struct sf_fake_kernel *fk;
	struct sf_platform_options options;
	char log[16384];
	size_t log_len;
	char state[4096];
};

static void
capture_log(void *data, enum sf_platform_log_level level, const char *msg)
{
	struct fixture *f = data;
	int n = snprintf(f->log + f->log_len, sizeof(f->log) - f->log_len,
			 "%d %s\n", (int)level, msg);

	if (n > 0 && f->log_len + (size_t)n < sizeof(f->log))
		f->log_len += (size_t)n;
}

static void
fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->fk = sf_fake_kernel_create();
	sf_platform_options_init(&f->options);
	f->options.root = sf_fake_kernel_root(f->fk);
	f->options.write = sf_fake_kernel_write;
	f->options.write_data = f->fk;
	f->options.log = capture_log;
	f->options.log_data = f;
	sf_platform_state_path(&f->options, f->state, sizeof(f->state));
}

static void
fixture_finish(struct fixture *f)
{
	sf_fake_kernel_destroy(f->fk);
}

/* The fake file's content, freed at the next call. */
static const char *
value(struct fixture *f, const char *rel)
{
	static char *last;

	free(last);
	last = sf_fake_read(f->fk, rel);
	return last;
}

static char *
read_state(struct fixture *f)
{
	FILE *file = fopen(f->state, "r");
	static char buf[4096];

	if (!file)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, file);
	buf[n] = '\0';
	fclose(file);
	return buf;
}

static bool
state_exists(struct fixture *f)
{
	return access(f->state, F_OK) == 0;
}

/* Position of `needle` in the journal, or -1. */
static long
journal_at(struct fixture *f, const char *needle)
{
	const char *j = sf_fake_journal(f->fk);
	const char *at = strstr(j, needle);

	return at ? at - j : -1;
}

#define I915 "sys/class/drm/card0/"

SF_TEST(i915_lowers_to_rpn_and_puts_back_in_the_drivers_order)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_i915(f.fk, 0, 300, 700, 1100);
	sf_fake_add_connector(f.fk, 0, "eDP-1", true);
	sf_fake_poke(f.fk, I915 "gt_min_freq_mhz", "400");
	sf_fake_poke(f.fk, I915 "gt_boost_freq_mhz", "1050");
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_eq(value(&f, I915 "gt_min_freq_mhz"), "300");
	sf_assert_str_eq(value(&f, I915 "gt_max_freq_mhz"), "300");
	sf_assert_str_eq(value(&f, I915 "gt_boost_freq_mhz"), "300");
	/* down: the minimum first, else the driver refuses the maximum */
	sf_assert_int_lt(journal_at(&f, "gt_min_freq_mhz=300"),
			 journal_at(&f, "gt_max_freq_mhz=300"));
	const char *state = read_state(&f);
	sf_assert_str_contains(state, "gpu i915 sys/class/drm/card0 "
			       "gt_min_freq_mhz 400\n");
	sf_assert_str_contains(state, "gpu i915 sys/class/drm/card0 "
			       "gt_max_freq_mhz 1100\n");
	sf_assert_str_contains(state, "gpu i915 sys/class/drm/card0 "
			       "gt_boost_freq_mhz 1050\n");

	sf_fake_journal_clear(f.fk);
	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_NORMAL));
	sf_assert_str_eq(value(&f, I915 "gt_min_freq_mhz"), "400");
	sf_assert_str_eq(value(&f, I915 "gt_max_freq_mhz"), "1100");
	sf_assert_str_eq(value(&f, I915 "gt_boost_freq_mhz"), "1050");
	/* up: the maximum first */
	sf_assert_int_lt(journal_at(&f, "gt_max_freq_mhz=1100"),
			 journal_at(&f, "gt_min_freq_mhz=400"));
	sf_assert_int_eq(sf_fake_rejections(f.fk), 0);
	sf_assert(!state_exists(&f));
	sf_platform_destroy(p);
	fixture_finish(&f);
}

SF_TEST(destroy_puts_everything_back)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_i915(f.fk, 0, 300, 700, 1100);
	sf_fake_add_backlight(f.fk, "intel_backlight", "raw", 1000, 800);
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert(sf_platform_set_backlight(p, 30));
	sf_assert_str_eq(value(&f, "sys/class/backlight/intel_backlight/"
			       "brightness"), "300");
	sf_platform_destroy(p);
	sf_assert_str_eq(value(&f, I915 "gt_max_freq_mhz"), "1100");
	sf_assert_str_eq(value(&f, "sys/class/backlight/intel_backlight/"
			       "brightness"), "800");
	sf_assert(!state_exists(&f));
	fixture_finish(&f);
}

#define XE "sys/class/drm/card0/device/tile0/"

SF_TEST(xe_retries_eagain_and_handles_every_gt)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_xe(f.fk, 0, 2, 250, 600, 1500);
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_fake_set_eagain(f.fk, 2);
	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_eq(value(&f, XE "gt0/freq0/min_freq"), "250");
	sf_assert_str_eq(value(&f, XE "gt0/freq0/max_freq"), "250");
	sf_assert_str_eq(value(&f, XE "gt1/freq0/max_freq"), "250");
	sf_fake_journal_clear(f.fk);
	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_NORMAL));
	sf_assert_str_eq(value(&f, XE "gt0/freq0/min_freq"), "250");
	sf_assert_str_eq(value(&f, XE "gt0/freq0/max_freq"), "1500");
	sf_assert_str_eq(value(&f, XE "gt1/freq0/max_freq"), "1500");
	sf_assert_int_lt(journal_at(&f, "gt0/freq0/max_freq=1500"),
			 journal_at(&f, "gt0/freq0/min_freq=250"));
	sf_platform_destroy(p);
	fixture_finish(&f);
}

SF_TEST(xe_that_stays_busy_is_left_as_it_was)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_xe(f.fk, 0, 1, 250, 600, 1500);
	sf_fake_poke(f.fk, XE "gt0/freq0/min_freq", "600");
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_fake_set_eagain(f.fk, 1000);
	sf_assert(!sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_contains(f.log, "stayed busy (EAGAIN) for 5 tries");
	sf_assert_str_eq(value(&f, XE "gt0/freq0/min_freq"), "600");
	sf_assert_str_eq(value(&f, XE "gt0/freq0/max_freq"), "1500");
	sf_assert(!state_exists(&f));
	sf_platform_destroy(p);
	fixture_finish(&f);
}

#define AMD "sys/class/drm/card0/device/"

static bool
marked(const char *table, const char *line_start)
{
	const char *at = table ? strstr(table, line_start) : NULL;
	const char *end = at ? strchr(at, '\n') : NULL;

	return at && memchr(at, '*', end ? (size_t)(end - at) : strlen(at));
}

SF_TEST(amdgpu_uses_manual_power_saving_and_one_heads_memory_clock)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_amdgpu(f.fk, 0, SF_FAKE_AMDGPU_TABLE_POLARIS);
	sf_fake_add_connector(f.fk, 0, "eDP-1", true);
	sf_fake_add_connector(f.fk, 0, "HDMI-A-1", false);
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_eq(value(&f, AMD "power_dpm_force_performance_level"),
			 "manual");
	sf_assert(marked(value(&f, AMD "pp_power_profile_mode"),
			 "POWER_SAVING"));
	sf_assert(marked(value(&f, AMD "pp_dpm_sclk"), "0:"));
	sf_assert(marked(value(&f, AMD "pp_dpm_mclk"), "0:"));
	sf_fake_journal_clear(f.fk);
	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_NORMAL));
	sf_assert_str_eq(value(&f, AMD "power_dpm_force_performance_level"),
			 "auto");
	sf_assert(marked(value(&f, AMD "pp_power_profile_mode"),
			 "3D_FULL_SCREEN"));
	/* the profile while still manual, then the level */
	sf_assert_int_lt(journal_at(&f, "pp_power_profile_mode=1"),
			 journal_at(&f, "power_dpm_force_performance_level="
				    "auto"));
	sf_assert_int_eq(sf_fake_rejections(f.fk), 0);
	sf_platform_destroy(p);
	fixture_finish(&f);
}

SF_TEST(amdgpu_leaves_memory_alone_with_two_heads_lit)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_amdgpu(f.fk, 0, SF_FAKE_AMDGPU_TABLE_NAVI);
	sf_fake_add_connector(f.fk, 0, "eDP-1", true);
	sf_fake_add_connector(f.fk, 0, "DP-1", true);
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert(marked(value(&f, AMD "pp_power_profile_mode"),
			 "POWER_SAVING"));
	sf_assert(marked(value(&f, AMD "pp_dpm_sclk"), "0:"));
	sf_assert_int_eq(journal_at(&f, "pp_dpm_mclk"), -1);
	sf_assert_str_contains(f.log, "more than one display lit");
	sf_platform_destroy(p);
	sf_assert(marked(value(&f, AMD "pp_power_profile_mode"),
			 "BOOTUP_DEFAULT"));
	fixture_finish(&f);
}

SF_TEST(amdgpu_memory_clock_stays_with_reclock_memory_off)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_amdgpu(f.fk, 0, SF_FAKE_AMDGPU_TABLE_POLARIS);
	sf_fake_add_connector(f.fk, 0, "eDP-1", true);
	f.options.reclock_memory = false;
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_int_eq(journal_at(&f, "pp_dpm_mclk"), -1);
	sf_platform_destroy(p);
	fixture_finish(&f);
}

SF_TEST(amdgpu_users_manual_masks_come_back)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_amdgpu(f.fk, 0, SF_FAKE_AMDGPU_TABLE_POLARIS);
	char path[4096];
	snprintf(path, sizeof(path), "%s/" AMD
		 "power_dpm_force_performance_level",
		 sf_fake_kernel_root(f.fk));
	sf_assert_int_eq(sf_fake_kernel_write(f.fk, path, "manual"), 0);
	snprintf(path, sizeof(path), "%s/" AMD "pp_dpm_sclk",
		 sf_fake_kernel_root(f.fk));
	sf_assert_int_eq(sf_fake_kernel_write(f.fk, path, "2"), 0);
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert(marked(value(&f, AMD "pp_dpm_sclk"), "0:"));
	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_NORMAL));
	sf_assert_str_eq(value(&f, AMD "power_dpm_force_performance_level"),
			 "manual");
	sf_assert(marked(value(&f, AMD "pp_dpm_sclk"), "2:"));
	sf_platform_destroy(p);
	fixture_finish(&f);
}

#define RADEON "sys/class/drm/card0/device/"

SF_TEST(radeon_dpm_and_profile_methods)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_radeon(f.fk, 0, "dpm");
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_eq(value(&f, RADEON "power_dpm_state"), "battery");
	sf_assert_str_eq(value(&f, RADEON "power_dpm_force_performance_level"),
			 "low");
	sf_platform_destroy(p);
	sf_assert_str_eq(value(&f, RADEON "power_dpm_state"), "balanced");
	sf_assert_str_eq(value(&f, RADEON "power_dpm_force_performance_level"),
			 "auto");
	fixture_finish(&f);

	fixture_init(&f);
	sf_fake_add_radeon(f.fk, 0, "profile");
	p = sf_platform_create(&f.options);
	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_eq(value(&f, RADEON "power_profile"), "low");
	sf_platform_destroy(p);
	sf_assert_str_eq(value(&f, RADEON "power_profile"), "default");
	sf_assert_int_eq(sf_fake_rejections(f.fk), 0);
	fixture_finish(&f);
}

SF_TEST(radeon_dynpm_is_left_alone_and_says_so)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_radeon(f.fk, 0, "dynpm");
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(!sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_contains(f.log, "power method dynpm reclocks by itself");
	sf_assert_str_eq(sf_fake_journal(f.fk), "");
	sf_assert(!state_exists(&f));
	sf_platform_destroy(p);
	fixture_finish(&f);
}

#define DEVFREQ "sys/class/devfreq/ff9a0000.gpu/"

SF_TEST(devfreq_gpu_caps_max_freq_at_its_lowest)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_devfreq_gpu(f.fk, "ff9a0000.gpu", "panfrost");
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_eq(value(&f, DEVFREQ "max_freq"), "200000000");
	sf_assert_str_eq(value(&f, DEVFREQ "governor"), "simple_ondemand");
	/* someone switches the governor meanwhile: it comes back too */
	sf_fake_poke(f.fk, DEVFREQ "governor", "performance");
	sf_platform_destroy(p);
	sf_assert_str_eq(value(&f, DEVFREQ "max_freq"), "800000000");
	sf_assert_str_eq(value(&f, DEVFREQ "governor"), "simple_ondemand");
	fixture_finish(&f);
}

#define PSTATE "sys/kernel/debug/dri/0/pstate"

/* "AC DC" as the pstate file marks them: an id, auto or none each. */
static const char *
pstate_choices(struct fixture *f)
{
	static char out[32];
	char ac[8] = "none", dc[8] = "none";
	char *text = sf_fake_read(f->fk, PSTATE);

	for (char *line = text; line && *line;) {
		char *eol = line + strcspn(line, "\n");
		char *next = *eol ? eol + 1 : NULL;
		*eol = '\0';
		char *marks = line;
		for (char *m; (m = strstr(marks, "MHz"));)
			marks = m + 3;
		const char *id = line[0] == 'A' ? "auto" : line;
		if (strstr(marks, " AC"))
			snprintf(ac, sizeof(ac), "%.*s", line[0] == 'A' ? 4 : 2,
				 id);
		if (strstr(marks, " DC"))
			snprintf(dc, sizeof(dc), "%.*s", line[0] == 'A' ? 4 : 2,
				 id);
		line = next;
	}
	free(text);
	snprintf(out, sizeof(out), "%s %s", ac, dc);
	return out;
}

SF_TEST(nouveau_only_when_asked)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_nouveau(f.fk, 0);
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(!sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_eq(sf_fake_journal(f.fk), "");
	sf_platform_destroy(p);

	f.options.reclock_nouveau = true;
	p = sf_platform_create(&f.options);
	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_int_ge(journal_at(&f, PSTATE "=07"), 0);
	const char *before = "none none";
	sf_platform_destroy(p);
	/* no pstate was chosen: none again, not auto (the highest) */
	sf_assert_int_ge(journal_at(&f, PSTATE "=ac:none"), 0);
	sf_assert_int_ge(journal_at(&f, PSTATE "=dc:none"), 0);
	sf_assert_str_eq(pstate_choices(&f), before);

	/* auto on AC, 0a on battery: both exactly so again */
	char path[4096];
	snprintf(path, sizeof(path), "%s/" PSTATE, sf_fake_kernel_root(f.fk));
	sf_assert_int_eq(sf_fake_kernel_write(f.fk, path, "ac:auto"), 0);
	sf_assert_int_eq(sf_fake_kernel_write(f.fk, path, "dc:0a"), 0);
	sf_assert_str_eq(pstate_choices(&f), "auto 0a");
	p = sf_platform_create(&f.options);
	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_eq(pstate_choices(&f), "07 07");
	sf_platform_destroy(p);
	sf_assert_str_eq(pstate_choices(&f), "auto 0a");
	fixture_finish(&f);
}

SF_TEST(a_file_it_may_not_write_is_named_and_nothing_changes)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_i915(f.fk, 0, 300, 700, 1100);
	sf_fake_set_readonly(f.fk, I915 "gt_max_freq_mhz");
	sf_fake_poke(f.fk, I915 "gt_min_freq_mhz", "500");
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(!sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_contains(f.log, I915 "gt_max_freq_mhz: Permission "
			       "denied; stillframe needs write access");
	sf_assert_str_contains(f.log, "70-stillframe.rules");
	/* the minimum it had lowered is back */
	sf_assert_str_eq(value(&f, I915 "gt_min_freq_mhz"), "500");
	sf_assert(!state_exists(&f));
	/* and it does not try again */
	sf_fake_journal_clear(f.fk);
	sf_assert(!sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_eq(sf_fake_journal(f.fk), "");
	sf_platform_destroy(p);
	fixture_finish(&f);
}

/* EIO (the device did not answer) and EINVAL (the driver refused the
 * value): half a change is undone and nothing saved, as with EACCES,
 * but the fault may pass, so the next idle tries again. */
static void
check_transient_write_error(bool *sf_test_failed_, int err,
			    const char *why)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_i915(f.fk, 0, 300, 700, 1100);
	sf_fake_set_write_error(f.fk, I915 "gt_max_freq_mhz", err);
	sf_fake_poke(f.fk, I915 "gt_min_freq_mhz", "500");
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(!sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_contains(f.log, I915 "gt_max_freq_mhz: ");
	sf_assert_str_contains(f.log, why);
	sf_assert_str_eq(value(&f, I915 "gt_min_freq_mhz"), "500");
	sf_assert_str_eq(value(&f, I915 "gt_max_freq_mhz"), "1100");
	sf_assert(!state_exists(&f));
	/* the fault gone, the next idle lowers the clocks */
	sf_fake_set_write_error(f.fk, I915 "gt_max_freq_mhz", 0);
	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_eq(value(&f, I915 "gt_max_freq_mhz"), "300");
	sf_platform_destroy(p);
	sf_assert_str_eq(value(&f, I915 "gt_max_freq_mhz"), "1100");
	sf_assert_str_eq(value(&f, I915 "gt_min_freq_mhz"), "500");
	fixture_finish(&f);
}

SF_TEST(eio_from_a_file_is_named_undone_and_tried_again)
{
	check_transient_write_error(sf_test_failed_, EIO, "Input/output error");
}

SF_TEST(einval_from_a_driver_is_named_undone_and_tried_again)
{
	check_transient_write_error(sf_test_failed_, EINVAL,
				    "Invalid argument");
}

/* A stillframe that lowers the clocks (and dims to `percent`, unless
 * 100) and dies without putting anything back, in a child process. */
static void
die_while_low(struct fixture *f, int32_t percent)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct sf_platform *p = sf_platform_create(&f->options);
		sf_platform_set_reclock(p, SF_RECLOCK_LOW);
		if (percent < 100)
			sf_platform_set_backlight(p, percent);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

SF_TEST(a_crash_is_repaired_at_the_next_start)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_i915(f.fk, 0, 300, 700, 1100);
	sf_fake_add_backlight(f.fk, "intel_backlight", "raw", 1000, 800);

	die_while_low(&f, 10);
	sf_assert_str_eq(value(&f, I915 "gt_max_freq_mhz"), "300");
	sf_assert_str_eq(value(&f, "sys/class/backlight/intel_backlight/"
			       "brightness"), "100");
	sf_assert(state_exists(&f));

	struct sf_platform *p = sf_platform_create(&f.options);
	sf_assert_str_eq(value(&f, I915 "gt_max_freq_mhz"), "1100");
	sf_assert_str_eq(value(&f, I915 "gt_min_freq_mhz"), "300");
	sf_assert_str_eq(value(&f, "sys/class/backlight/intel_backlight/"
			       "brightness"), "800");
	sf_assert_str_contains(f.log, "left by a previous run");
	sf_assert(!state_exists(&f));
	sf_platform_destroy(p);
	fixture_finish(&f);
}

SF_TEST(restore_state_puts_back_without_an_adapter)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_i915(f.fk, 0, 300, 700, 1100);

	die_while_low(&f, 100);
	sf_assert_int_eq(sf_platform_restore_state(&f.options), 3);
	sf_assert_str_eq(value(&f, I915 "gt_max_freq_mhz"), "1100");
	sf_assert(!state_exists(&f));
	/* nothing left: nothing to do */
	sf_assert_int_eq(sf_platform_restore_state(&f.options), 0);
	fixture_finish(&f);
}

SF_TEST(values_that_cannot_be_put_back_stay_in_the_state_file)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_i915(f.fk, 0, 300, 700, 1100);

	die_while_low(&f, 100);
	sf_fake_set_readonly(f.fk, I915 "gt_max_freq_mhz");
	struct sf_platform *p = sf_platform_create(&f.options);
	sf_assert_str_contains(f.log, "could not put back");
	sf_assert_str_contains(read_state(&f), "gpu i915 sys/class/drm/card0 "
			       "gt_max_freq_mhz 1100\n");
	/* and that GPU is not lowered over them */
	sf_fake_journal_clear(f.fk);
	sf_assert(!sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_eq(sf_fake_journal(f.fk), "");
	sf_platform_destroy(p);
	/* still there after this run, for stillframectl restore */
	sf_assert(state_exists(&f));
	fixture_finish(&f);
}

SF_TEST(looking_does_not_touch_a_previous_runs_leftovers)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_i915(f.fk, 0, 300, 700, 1100);

	die_while_low(&f, 100);
	f.options.restore_leftovers = false;
	struct sf_platform *p = sf_platform_create(&f.options);
	sf_platform_destroy(p);
	sf_assert(state_exists(&f));
	sf_assert_str_eq(value(&f, I915 "gt_max_freq_mhz"), "300");
	fixture_finish(&f);
}

SF_TEST(state_file_lines_for_devices_not_found_are_kept_not_written)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_i915(f.fk, 0, 300, 700, 1100);
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/run", sf_fake_kernel_root(f.fk));
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/run/stillframe",
		 sf_fake_kernel_root(f.fk));
	mkdir(dir, 0700);
	FILE *file = fopen(f.state, "w");
	fprintf(file, "gpu i915 etc/passwd gt_min_freq_mhz 1\n"
		      "gpu amdgpu " I915 "gt_min_freq_mhz 1\n"
		      "backlight etc brightness 1\n"
		      "rm -rf /\n");
	fclose(file);
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert_str_eq(sf_fake_journal(f.fk), "");
	sf_assert_str_contains(f.log, "etc/passwd (i915) is not a GPU found "
			       "now");
	sf_assert_str_contains(f.log, "is not understood");
	/* Not written, and not lost either: kept for a later try; the line
	 * nobody understands goes. */
	const char *state = read_state(&f);
	sf_assert_str_contains(state, "gpu i915 etc/passwd gt_min_freq_mhz 1\n");
	sf_assert_str_contains(state, "backlight etc brightness 1\n");
	sf_assert(!strstr(state, "rm -rf"));
	sf_platform_destroy(p);
	fixture_finish(&f);
}

SF_TEST(only_listed_attributes_are_written)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_i915(f.fk, 0, 300, 700, 1100);
	struct sf_platform *p = sf_platform_create(&f.options);
	static const char *const allowed[] = { "gt_min_freq_mhz", NULL };

	sf_assert_int_eq(sf_attr_write(p, "sys/class/drm/card0",
				       "gt_RP0_freq_mhz", allowed, "1"), EPERM);
	sf_assert_int_eq(sf_attr_write(p, "sys/class/drm/card0",
				       "../card0/gt_min_freq_mhz", allowed,
				       "1"), EPERM);
	sf_assert_str_eq(sf_fake_journal(f.fk), "");
	sf_assert_str_contains(f.log, "not an attribute stillframe drives");
	sf_platform_destroy(p);
	fixture_finish(&f);
}

SF_TEST(a_value_changed_underneath_is_kept_and_the_gpu_left_alone)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_i915(f.fk, 0, 300, 700, 1100);
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_fake_poke(f.fk, I915 "gt_max_freq_mhz", "800");	/* TLP */
	sf_fake_journal_clear(f.fk);
	sf_platform_set_reclock(p, SF_RECLOCK_NORMAL);
	sf_assert_str_eq(value(&f, I915 "gt_max_freq_mhz"), "800");
	sf_assert_str_eq(sf_fake_journal(f.fk), "");
	sf_assert_str_contains(f.log, "another program");
	sf_assert(!state_exists(&f));
	sf_assert(!sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert_str_eq(sf_fake_journal(f.fk), "");
	sf_platform_destroy(p);
	fixture_finish(&f);
}

#define ACPI_BL "sys/class/backlight/acpi_video0/brightness"

SF_TEST(backlight_prefers_firmware_and_never_brightens)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_backlight(f.fk, "intel_backlight", "raw", 1000, 800);
	sf_fake_add_backlight(f.fk, "acpi_video0", "firmware", 15, 10);
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(sf_platform_set_backlight(p, 30));
	sf_assert_str_eq(value(&f, ACPI_BL), "5");	/* ceil(15 * 0.3) */
	sf_assert_str_eq(value(&f, "sys/class/backlight/intel_backlight/"
			       "brightness"), "800");
	sf_assert_str_contains(read_state(&f), "backlight sys/class/backlight/"
			       "acpi_video0 brightness 10");
	sf_assert(sf_platform_set_backlight(p, 100));
	sf_assert_str_eq(value(&f, ACPI_BL), "10");
	sf_assert(!state_exists(&f));
	/* dimmer than the target already: left as it is */
	sf_fake_poke(f.fk, ACPI_BL, "2");
	sf_fake_journal_clear(f.fk);
	sf_assert(sf_platform_set_backlight(p, 30));
	sf_assert_str_eq(sf_fake_journal(f.fk), "");
	sf_platform_destroy(p);
	fixture_finish(&f);
}

SF_TEST(backlight_set_by_the_user_while_dimmed_is_kept)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_backlight(f.fk, "acpi_video0", "firmware", 15, 10);
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(sf_platform_set_backlight(p, 30));
	sf_fake_poke(f.fk, ACPI_BL, "12");	/* a brightness key */
	sf_assert(sf_platform_set_backlight(p, 100));
	sf_assert_str_eq(value(&f, ACPI_BL), "12");
	sf_assert_str_contains(f.log, "while dimmed (not by stillframe); "
			       "kept");
	sf_platform_destroy(p);
	sf_assert_str_eq(value(&f, ACPI_BL), "12");
	fixture_finish(&f);
}

SF_TEST(the_panel_dims_only_once_every_driven_output_is_dim)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_backlight(f.fk, "acpi_video0", "firmware", 100, 80);
	struct sf_platform *p = sf_platform_create(&f.options);

	sf_assert(sf_platform_set_output_backlight(p, "eDP-1", 100));
	sf_assert(sf_platform_set_output_backlight(p, "HDMI-A-1", 100));
	sf_assert(sf_platform_set_output_backlight(p, "eDP-1", 30));
	sf_assert_str_eq(value(&f, ACPI_BL), "80");	/* HDMI-A-1 awake */
	sf_assert(sf_platform_set_output_backlight(p, "HDMI-A-1", 50));
	sf_assert_str_eq(value(&f, ACPI_BL), "50");	/* the brighter */
	sf_platform_forget_output(p, "HDMI-A-1");
	sf_assert_str_eq(value(&f, ACPI_BL), "30");
	sf_assert(sf_platform_set_output_backlight(p, "eDP-1", 100));
	sf_assert_str_eq(value(&f, ACPI_BL), "80");
	sf_platform_destroy(p);
	fixture_finish(&f);
}

SF_TEST(battery_power_from_power_now_or_current_and_voltage)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_battery(f.fk, "BAT0", "Discharging", 7200000, -1, 12000000,
			    41000000, -1);
	sf_fake_add_battery(f.fk, "BAT1", "Discharging", -1, -1500000,
			    12000000, -1, 3000000);
	sf_fake_add_mains(f.fk, "AC", false);
	struct sf_platform *p = sf_platform_create(&f.options);
	struct sf_power_sample s;

	sf_platform_read_power(p, &s);
	sf_assert(s.present && s.discharging && s.have_power && s.have_energy);
	sf_assert_double_near(s.watts, 7.2 + 18.0, 1e-9);
	sf_assert_double_near(s.energy_wh, 41.0 + 36.0, 1e-9);
	sf_fake_poke(f.fk, "sys/class/power_supply/BAT1/status", "Charging");
	sf_platform_read_power(p, &s);
	sf_assert(!s.discharging);
	sf_platform_destroy(p);
	fixture_finish(&f);
}

static void
append(void *data, const char *text, size_t len)
{
	struct fixture *f = data;

	if (f->log_len + len < sizeof(f->log)) {
		memcpy(f->log + f->log_len, text, len);
		f->log_len += len;
		f->log[f->log_len] = '\0';
	}
}

SF_TEST(describe_says_what_is_there_and_what_low_would_write)
{
	struct fixture f;
	fixture_init(&f);
	sf_fake_add_i915(f.fk, 0, 300, 700, 1100);
	sf_fake_add_i915_debugfs(f.fk, 0);
	sf_fake_add_connector(f.fk, 0, "eDP-1", true);
	sf_fake_add_connector(f.fk, 0, "HDMI-A-1", false);
	f.options.log = NULL;
	struct sf_platform *p = sf_platform_create(&f.options);
	struct sf_writer w = { .write = append, .data = &f };

	sf_platform_describe(p, SF_SEC(100), &w);
	sf_assert_str_contains(f.log, "gpu.card0.driver i915\n");
	sf_assert_str_contains(f.log, "gpu.card0.backend i915\n");
	sf_assert_str_contains(f.log, "gpu.card0.clocks normal\n");
	sf_assert_str_contains(f.log, "gpu.card0.gt_max_freq_mhz 1100\n");
	sf_assert_str_contains(f.log, "gpu.card0.low gt_min_freq_mhz=300 "
			       "gt_max_freq_mhz=300 gt_boost_freq_mhz=300\n");
	sf_assert_str_contains(f.log, "connector.card0-eDP-1 internal lit\n");
	sf_assert_str_contains(f.log, "connector.card0-HDMI-A-1 external off\n");
	sf_assert_str_contains(f.log, "display.card0.i915_edp_psr_status ");
	sf_assert_str_contains(f.log, "PSR1 enabled");
	sf_assert_str_eq(sf_fake_journal(f.fk), "");

	/* The status files are read at most every 10 s. */
	sf_fake_poke(f.fk, "sys/kernel/debug/dri/0/i915_fbc_status",
		     "FBC disabled: stolen memory not initialised");
	f.log_len = 0;
	sf_platform_describe(p, SF_SEC(105), &w);
	sf_assert(!strstr(f.log, "stolen memory"));
	f.log_len = 0;
	sf_platform_describe(p, SF_SEC(111), &w);
	sf_assert_str_contains(f.log, "stolen memory not initialised");
	sf_platform_destroy(p);
	fixture_finish(&f);
}

SF_TEST(a_machine_without_any_of_it)
{
	struct fixture f;
	fixture_init(&f);
	struct sf_platform *p = sf_platform_create(&f.options);
	struct sf_power_sample s;

	sf_assert(!sf_platform_set_reclock(p, SF_RECLOCK_LOW));
	sf_assert(!sf_platform_set_backlight(p, 30));
	sf_platform_read_power(p, &s);
	sf_assert(!s.present && !s.have_power);
	sf_platform_destroy(p);
	sf_platform_destroy(NULL);
	sf_assert(!state_exists(&f));
	fixture_finish(&f);
}

SF_TEST(internal_panels_by_name)
{
	sf_assert(sf_platform_output_is_internal("eDP-1"));
	sf_assert(sf_platform_output_is_internal("LVDS1"));
	sf_assert(sf_platform_output_is_internal("DSI-1"));
	sf_assert(!sf_platform_output_is_internal("HDMI-A-1"));
	sf_assert(!sf_platform_output_is_internal("DUMMY0"));
}

SF_TEST_MAIN()
