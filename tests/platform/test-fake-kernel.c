/* SPDX-License-Identifier: MIT */
/*
 * The self-test of fake-kernel.c, the TEST DOUBLE at the hardware
 * boundary that stands in for the kernel's sysfs and debugfs: every
 * builder lays out the kernel's tree, and the write hook takes and
 * refuses what each driver does, changing the files only when it takes.
 * A double that drifted from the kernel would make the platform tests
 * pass for the wrong reason, so each rule is pinned here.  TAP output.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake-kernel.h"

static int n_tests, n_failed;

/* A value on one TAP line: newlines as "\n". */
static const char *
escaped(const char *text, char *buf, size_t size)
{
	size_t n = 0;

	for (; text && *text && n + 3 < size; text++) {
		if (*text == '\n') {
			buf[n++] = '\\';
			buf[n++] = 'n';
		} else {
			buf[n++] = *text;
		}
	}
	buf[n] = '\0';
	return text ? buf : "(absent)";
}

static void
check(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
check(bool ok, const char *fmt, ...)
{
	va_list ap;

	n_tests++;
	if (!ok)
		n_failed++;
	printf("%s %d - ", ok ? "ok" : "not ok", n_tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* The hook as the platform layer calls it: root + "/" + rel. */
static int
wr(struct sf_fake_kernel *fk, const char *rel, const char *value)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", sf_fake_kernel_root(fk), rel);
	return sf_fake_kernel_write(fk, path, value);
}

static void
check_wr(struct sf_fake_kernel *fk, const char *rel, const char *value,
	 int expected)
{
	int err = wr(fk, rel, value);
	char buf[1024];

	check(err == expected, "write \"%s\" to %s: %s (expected %s)",
	      escaped(value, buf, sizeof(buf)), rel,
	      err ? strerror(err) : "ok", expected ? strerror(expected) : "ok");
}

/* The file reads `expected`; NULL: the file does not exist. */
static void
check_is(struct sf_fake_kernel *fk, const char *rel, const char *expected)
{
	char *text = sf_fake_read(fk, rel);
	bool ok = expected ? text && strcmp(text, expected) == 0 : !text;
	char buf[1024];

	check(ok, "%s reads \"%s\"", rel, escaped(expected, buf, sizeof(buf)));
	if (!ok)
		printf("# got: \"%s\"\n", escaped(text, buf, sizeof(buf)));
	free(text);
}

static void
check_link(struct sf_fake_kernel *fk, const char *rel, const char *target)
{
	char path[PATH_MAX], buf[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", sf_fake_kernel_root(fk), rel);
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	check(strcmp(buf, target) == 0, "%s -> %s", rel, target);
	if (strcmp(buf, target) != 0)
		printf("# got: %s\n", buf);
}

/* Both names lead to the same directory (or file). */
static void
check_same(struct sf_fake_kernel *fk, const char *a, const char *b)
{
	char pa[PATH_MAX], pb[PATH_MAX], ra[PATH_MAX], rb[PATH_MAX];

	snprintf(pa, sizeof(pa), "%s/%s", sf_fake_kernel_root(fk), a);
	snprintf(pb, sizeof(pb), "%s/%s", sf_fake_kernel_root(fk), b);
	check(realpath(pa, ra) && realpath(pb, rb) && strcmp(ra, rb) == 0,
	      "%s is %s", a, b);
}

/* The line of `table` that starts with `start` contains `part`. */
static bool
line_has(const char *table, const char *start, const char *part)
{
	for (const char *l = table; l && *l; l = strchr(l, '\n'), l += !!l) {
		size_t n = strcspn(l, "\n");
		if (strncmp(l, start, strlen(start)) == 0) {
			char buf[512];
			snprintf(buf, sizeof(buf), "%.*s", (int)n, l);
			return strstr(buf, part) != NULL;
		}
	}
	return false;
}

static void
check_line(struct sf_fake_kernel *fk, const char *rel, const char *start,
	   const char *part, bool expected)
{
	char *text = sf_fake_read(fk, rel);

	check(line_has(text, start, part) == expected, "%s: line \"%s\" %s "
	      "\"%s\"", rel, start, expected ? "has" : "lacks", part);
	free(text);
}

#define CARD0 "sys/class/drm/card0/"
#define PCI0 "sys/devices/pci0000:00/0000:00:02.0"

static void
test_core(void)
{
	struct sf_fake_kernel *fk = sf_fake_kernel_create();
	const char *root = sf_fake_kernel_root(fk);
	char path[PATH_MAX], saved_root[PATH_MAX];
	struct stat st;

	check(strncmp(root, "/tmp/sf-fake-kernel.", 20) == 0 &&
	      stat(root, &st) == 0 && S_ISDIR(st.st_mode),
	      "the root is a fresh directory under /tmp");
	sf_fake_add_i915(fk, 0, 300, 700, 1100);
	check(sf_fake_kernel_write(fk, "/etc/passwd", "x") == EACCES,
	      "a path outside the root: EACCES");
	snprintf(path, sizeof(path), "%s/../../etc/passwd", root);
	check(sf_fake_kernel_write(fk, path, "x") == EACCES,
	      "a path that leaves the root through '..': EACCES");
	check_wr(fk, CARD0 "no_such_file", "1", ENOENT);
	check_wr(fk, "sys/class/drm/card0", "1", EISDIR);
	check_wr(fk, CARD0 "dev", "1", EACCES);
	check(sf_fake_rejections(fk) == 5, "every refusal is counted");
	check(strcmp(sf_fake_journal(fk), "") == 0,
	      "refusals stay out of the journal");

	check_wr(fk, CARD0 "gt_min_freq_mhz", "400\n", 0);
	check_wr(fk, PCI0 "/drm/card0/gt_max_freq_mhz", "900", 0);
	check(strcmp(sf_fake_journal(fk),
		     CARD0 "gt_min_freq_mhz=400\n"
		     PCI0 "/drm/card0/gt_max_freq_mhz=900\n") == 0,
	      "the journal names the file as written, without the newline");
	sf_fake_journal_clear(fk);
	check(strcmp(sf_fake_journal(fk), "") == 0, "the journal clears");
	check_is(fk, CARD0 "gt_min_freq_mhz", "400");
	check_is(fk, CARD0 "missing", NULL);

	/* another program: no rules, no journal */
	sf_fake_poke(fk, CARD0 "gt_min_freq_mhz", "5000");
	check_is(fk, CARD0 "gt_min_freq_mhz", "5000");
	check(strcmp(sf_fake_journal(fk), "") == 0, "a poke is not journaled");
	sf_fake_poke(fk, CARD0 "gt_min_freq_mhz", "400\n");
	char *text = sf_fake_read(fk, CARD0 "gt_min_freq_mhz");
	check(text && strcmp(text, "400") == 0,
	      "a poke ending in a newline gets no second one");
	free(text);

	/* read-only by the file, whatever name reaches it */
	sf_fake_set_readonly(fk, CARD0 "gt_max_freq_mhz");
	check_wr(fk, CARD0 "gt_max_freq_mhz", "1000", EACCES);
	check_wr(fk, PCI0 "/drm/card0/gt_max_freq_mhz", "1000", EACCES);
	check_is(fk, CARD0 "gt_max_freq_mhz", "900");
	check_wr(fk, CARD0 "gt_min_freq_mhz", "300", 0);

	snprintf(saved_root, sizeof(saved_root), "%s", root);
	sf_fake_kernel_destroy(fk);
	check(stat(saved_root, &st) < 0 && errno == ENOENT,
	      "destroy removes the tree");
	sf_fake_kernel_destroy(NULL);
	check(true, "destroy takes NULL");
}

static void
test_i915(void)
{
	struct sf_fake_kernel *fk = sf_fake_kernel_create();

	sf_fake_add_i915(fk, 0, 300, 700, 1100);
	check_link(fk, "sys/class/drm/card0",
		   "../../devices/pci0000:00/0000:00:02.0/drm/card0");
	check_link(fk, PCI0 "/drm/card0/device", "../../../0000:00:02.0");
	check_link(fk, PCI0 "/driver", "../../../bus/pci/drivers/i915");
	check_same(fk, CARD0 "device/driver", "sys/bus/pci/drivers/i915");
	check_is(fk, CARD0 "gt_min_freq_mhz", "300");
	check_is(fk, CARD0 "gt_max_freq_mhz", "1100");
	check_is(fk, CARD0 "gt_boost_freq_mhz", "1100");
	check_is(fk, CARD0 "gt_RPn_freq_mhz", "300");
	check_is(fk, CARD0 "gt_RP1_freq_mhz", "700");
	check_is(fk, CARD0 "gt_RP0_freq_mhz", "1100");
	check_is(fk, CARD0 "gt_cur_freq_mhz", "700");
	check_is(fk, CARD0 "gt_act_freq_mhz", "700");
	check_is(fk, CARD0 "gt/gt0/.defaults/rps_min_freq_mhz", "300");
	check_is(fk, CARD0 "gt/gt0/.defaults/rps_max_freq_mhz", "1100");

	check_wr(fk, CARD0 "gt_RP0_freq_mhz", "1100", EACCES);
	check_wr(fk, CARD0 "gt_RPn_freq_mhz", "300", EACCES);
	check_wr(fk, CARD0 "gt_cur_freq_mhz", "300", EACCES);
	check_wr(fk, CARD0 "gt/gt0/.defaults/rps_min_freq_mhz", "1", EACCES);
	check_wr(fk, CARD0 "gt_min_freq_mhz", "abc", EINVAL);
	check_wr(fk, CARD0 "gt_min_freq_mhz", "-300", EINVAL);
	check_wr(fk, CARD0 "gt_min_freq_mhz", "", EINVAL);
	check_wr(fk, CARD0 "gt_min_freq_mhz", "99999999999", ERANGE);
	check_wr(fk, CARD0 "gt_min_freq_mhz", "299", EINVAL);
	check_wr(fk, CARD0 "gt_min_freq_mhz", "1101", EINVAL);
	check_wr(fk, CARD0 "gt_max_freq_mhz", "299", EINVAL);
	check_wr(fk, CARD0 "gt_max_freq_mhz", "1101", EINVAL);
	check_wr(fk, CARD0 "gt_boost_freq_mhz", "299", EINVAL);
	check_wr(fk, CARD0 "gt_boost_freq_mhz", "1101", EINVAL);
	check_is(fk, CARD0 "gt_min_freq_mhz", "300");
	check_is(fk, CARD0 "gt_max_freq_mhz", "1100");

	/* the soft limits may not cross */
	check_wr(fk, CARD0 "gt_max_freq_mhz", "500", 0);
	check_is(fk, CARD0 "gt_cur_freq_mhz", "500");
	check_is(fk, CARD0 "gt_act_freq_mhz", "500");
	check_wr(fk, CARD0 "gt_min_freq_mhz", "600", EINVAL);
	check_wr(fk, CARD0 "gt_min_freq_mhz", "0x1f4", 0);	/* base 0 */
	check_is(fk, CARD0 "gt_min_freq_mhz", "500");
	check_wr(fk, CARD0 "gt_max_freq_mhz", "400", EINVAL);
	check_wr(fk, CARD0 "gt_boost_freq_mhz", "300", 0);
	check_is(fk, CARD0 "gt_boost_freq_mhz", "300");
	check_wr(fk, CARD0 "gt_max_freq_mhz", "1100", 0);
	check_wr(fk, CARD0 "gt_min_freq_mhz", "1100", 0);
	check_is(fk, CARD0 "gt_cur_freq_mhz", "1100");

	sf_fake_add_i915_debugfs(fk, 0);
	check_is(fk, "sys/kernel/debug/dri/0/i915_edp_psr_status",
		 "Sink support: yes [0x03]\nPSR mode: PSR1 enabled\n"
		 "Source PSR ctl: enabled [0x81f00e26]\n"
		 "Source PSR status: SRDENT [0x40040006]");
	check_is(fk, "sys/kernel/debug/dri/0/i915_fbc_status",
		 "FBC enabled\nCompressing: yes");
	check_line(fk, "sys/kernel/debug/dri/0/i915_drrs_status",
		   "DRRS enabled:", "yes", true);
	check_line(fk, "sys/kernel/debug/dri/0/i915_drrs_status",
		   "DRRS refresh rate:", "low", true);
	check_wr(fk, "sys/kernel/debug/dri/0/i915_fbc_status", "0", EACCES);
	sf_fake_kernel_destroy(fk);
}

#define XE0 "sys/class/drm/card1/device/tile0/gt0/freq0/"
#define XE1 "sys/class/drm/card1/device/tile0/gt1/freq0/"

static void
test_xe(void)
{
	struct sf_fake_kernel *fk = sf_fake_kernel_create();

	sf_fake_add_xe(fk, 1, 2, 250, 600, 1500);
	check_link(fk, "sys/class/drm/card1",
		   "../../devices/pci0000:00/0000:00:03.0/drm/card1");
	check_same(fk, "sys/class/drm/card1/device/driver",
		   "sys/bus/pci/drivers/xe");
	check_is(fk, XE0 "min_freq", "250");
	check_is(fk, XE0 "max_freq", "1500");
	check_is(fk, XE0 "rpn_freq", "250");
	check_is(fk, XE0 "rpe_freq", "600");
	check_is(fk, XE0 "rp0_freq", "1500");
	check_is(fk, XE0 "act_freq", "600");
	check_is(fk, XE0 "cur_freq", "600");
	check_is(fk, XE1 "max_freq", "1500");
	check_is(fk, "sys/class/drm/card1/device/tile0/gt2/freq0/min_freq",
		 NULL);

	check_wr(fk, XE0 "rpn_freq", "250", EACCES);
	check_wr(fk, XE0 "act_freq", "250", EACCES);
	check_wr(fk, XE0 "min_freq", "249", EINVAL);
	check_wr(fk, XE0 "max_freq", "1501", EINVAL);
	check_wr(fk, XE0 "max_freq", "fast", EINVAL);
	/* min above max: taken, a fixed request */
	check_wr(fk, XE0 "max_freq", "400", 0);
	check_wr(fk, XE0 "min_freq", "800", 0);
	check_is(fk, XE0 "min_freq", "800");
	check_is(fk, XE0 "cur_freq", "800");
	check_wr(fk, XE0 "max_freq", "300", 0);
	check_is(fk, XE1 "max_freq", "1500");

	sf_fake_set_eagain(fk, 2);
	check_wr(fk, XE1 "rpe_freq", "600", EACCES);	/* not counted */
	check_wr(fk, XE1 "min_freq", "300", EAGAIN);
	check_wr(fk, XE1 "max_freq", "300", EAGAIN);
	check_is(fk, XE1 "max_freq", "1500");
	check_wr(fk, XE1 "max_freq", "300", 0);
	check_is(fk, XE1 "max_freq", "300");
	sf_fake_kernel_destroy(fk);
}

#define AMD "sys/class/drm/card0/device/"

static const char polaris_initial[] =
	"NUM        MODE_NAME     SCLK_UP_HYST   SCLK_DOWN_HYST SCLK_ACTIVE_LEVEL     MCLK_UP_HYST   MCLK_DOWN_HYST MCLK_ACTIVE_LEVEL\n"
	"  0   BOOTUP_DEFAULT:        -                -                -                -                -                -\n"
	"  1 3D_FULL_SCREEN *:        0              100               30                0              100               10\n"
	"  2     POWER_SAVING:       10                0               30                -                -                -\n"
	"  3            VIDEO:        -                -                -               10               16               31\n"
	"  4               VR:        0               11               50                0              100               10\n"
	"  5          COMPUTE:        0                5               30                -                -                -\n"
	"  6           CUSTOM:        -                -                -                -                -                -";

static void
test_amdgpu_polaris(void)
{
	struct sf_fake_kernel *fk = sf_fake_kernel_create();

	sf_fake_add_amdgpu(fk, 0, SF_FAKE_AMDGPU_TABLE_POLARIS);
	check_same(fk, AMD "driver", "sys/bus/pci/drivers/amdgpu");
	check_is(fk, AMD "power_dpm_force_performance_level", "auto");
	check_is(fk, AMD "power_dpm_state", "balanced");
	check_is(fk, AMD "pp_dpm_sclk",
		 "0: 500Mhz \n1: 1200Mhz *\n2: 1800Mhz ");
	check_is(fk, AMD "pp_dpm_mclk", "0: 96Mhz \n1: 875Mhz *");
	check_is(fk, AMD "pp_power_profile_mode", polaris_initial);

	check_wr(fk, AMD "power_dpm_force_performance_level", "fast", EINVAL);
	check_wr(fk, AMD "power_dpm_force_performance_level", "profile_exit",
		 EINVAL);
	check_wr(fk, AMD "pp_dpm_sclk", "0", EINVAL);	/* not manual */
	/* smu7 takes a profile in manual only */
	check_wr(fk, AMD "pp_power_profile_mode", "2", EINVAL);
	check_wr(fk, AMD "power_dpm_force_performance_level", "manual\n", 0);
	check_is(fk, AMD "power_dpm_force_performance_level", "manual");

	check_wr(fk, AMD "pp_dpm_sclk", "2", 0);
	check_line(fk, AMD "pp_dpm_sclk", "2:", "*", true);
	check_line(fk, AMD "pp_dpm_sclk", "1:", "*", false);
	check_wr(fk, AMD "pp_dpm_sclk", "2 0", 0);
	check_line(fk, AMD "pp_dpm_sclk", "0:", "*", true);
	check_line(fk, AMD "pp_dpm_sclk", "2:", "*", false);
	check_wr(fk, AMD "pp_dpm_sclk", "3", EINVAL);
	check_wr(fk, AMD "pp_dpm_sclk", "32", EINVAL);
	check_wr(fk, AMD "pp_dpm_sclk", "one", EINVAL);
	check_wr(fk, AMD "pp_dpm_sclk", "", EINVAL);
	check_line(fk, AMD "pp_dpm_sclk", "0:", "*", true);
	check_wr(fk, AMD "pp_dpm_mclk", "2", EINVAL);
	check_wr(fk, AMD "pp_dpm_mclk", "0", 0);
	check_line(fk, AMD "pp_dpm_mclk", "0:", "*", true);
	/* the same level again changes nothing */
	check_wr(fk, AMD "power_dpm_force_performance_level", "manual", 0);
	check_line(fk, AMD "pp_dpm_mclk", "0:", "*", true);

	/* the profile: only the first character, in place */
	check_wr(fk, AMD "pp_power_profile_mode", "x", EINVAL);
	check_wr(fk, AMD "pp_power_profile_mode", "7", EINVAL);
	/* CUSTOM needs its settings */
	check_wr(fk, AMD "pp_power_profile_mode", "6", EINVAL);
	check_wr(fk, AMD "pp_power_profile_mode", "25", 0);
	check_line(fk, AMD "pp_power_profile_mode", "  2   POWER_SAVING *:",
		   "       10                0               30", true);
	check_line(fk, AMD "pp_power_profile_mode", "  1   3D_FULL_SCREEN:",
		   "        0              100", true);
	check_wr(fk, AMD "pp_power_profile_mode", "6 0 5 30 0 0 10 16 31", 0);
	check_line(fk, AMD "pp_power_profile_mode", "  6         CUSTOM *:",
		   "-", true);
	check_wr(fk, AMD "pp_power_profile_mode", "1", 0);
	check_is(fk, AMD "pp_power_profile_mode", polaris_initial);

	/* a level resets the masks */
	check_wr(fk, AMD "power_dpm_force_performance_level", "auto", 0);
	check_line(fk, AMD "pp_dpm_sclk", "1:", "*", true);
	check_line(fk, AMD "pp_dpm_mclk", "1:", "*", true);
	check_wr(fk, AMD "power_dpm_force_performance_level", "low", 0);
	check_line(fk, AMD "pp_dpm_sclk", "0:", "*", true);
	check_line(fk, AMD "pp_dpm_mclk", "0:", "*", true);
	check_wr(fk, AMD "power_dpm_force_performance_level", "high", 0);
	check_line(fk, AMD "pp_dpm_sclk", "2:", "*", true);
	check_line(fk, AMD "pp_dpm_mclk", "1:", "*", true);
	/* strncmp() on the known names, as amdgpu_pm.c */
	check_wr(fk, AMD "power_dpm_force_performance_level", "lowest", 0);
	check_is(fk, AMD "power_dpm_force_performance_level", "low");

	/* profile_exit goes back to the level before the profile_* ones */
	check_wr(fk, AMD "power_dpm_force_performance_level", "profile_peak",
		 0);
	check_wr(fk, AMD "power_dpm_force_performance_level",
		 "profile_min_sclk", 0);
	check_wr(fk, AMD "power_dpm_force_performance_level", "profile_exit",
		 0);
	check_is(fk, AMD "power_dpm_force_performance_level", "low");
	check_line(fk, AMD "pp_dpm_sclk", "0:", "*", true);
	check_wr(fk, AMD "power_dpm_force_performance_level",
		 "perf_determinism", 0);
	check_wr(fk, AMD "power_dpm_force_performance_level",
		 "profile_standard", 0);

	check_wr(fk, AMD "power_dpm_state", "battery", 0);
	check_is(fk, AMD "power_dpm_state", "battery");
	check_wr(fk, AMD "power_dpm_state", "performance", 0);
	check_wr(fk, AMD "power_dpm_state", "quiet", EINVAL);
	check_is(fk, AMD "power_dpm_state", "performance");
	check_wr(fk, AMD "vendor", "0", EACCES);
	sf_fake_kernel_destroy(fk);
}

static void
test_amdgpu_navi(void)
{
	struct sf_fake_kernel *fk = sf_fake_kernel_create();

	sf_fake_add_amdgpu(fk, 0, SF_FAKE_AMDGPU_TABLE_NAVI);
	char *initial = sf_fake_read(fk, AMD "pp_power_profile_mode");
	check_line(fk, AMD "pp_power_profile_mode", " 0 BOOTUP_DEFAULT*:", "",
		   true);
	check_line(fk, AMD "pp_power_profile_mode", " 2   POWER_SAVING :", "",
		   true);
	/* swsmu takes a profile in auto too */
	check_wr(fk, AMD "pp_power_profile_mode", "2", 0);
	check_line(fk, AMD "pp_power_profile_mode", " 2   POWER_SAVING*:", "",
		   true);
	check_line(fk, AMD "pp_power_profile_mode", " 0 BOOTUP_DEFAULT :", "",
		   true);
	check_line(fk, AMD "pp_power_profile_mode",
		   "                   1(       SOCCLK)", "3276800", true);
	check_wr(fk, AMD "pp_power_profile_mode", "6 1 2 3", EINVAL);
	check_wr(fk, AMD "pp_power_profile_mode", "8", EINVAL);
	check_wr(fk, AMD "pp_power_profile_mode", "0", 0);
	char *back = sf_fake_read(fk, AMD "pp_power_profile_mode");
	check(initial && back && strcmp(initial, back) == 0,
	      "navi: the table is back as it was, byte for byte");
	free(initial);
	free(back);
	sf_fake_kernel_destroy(fk);
}

#define RADEON "sys/class/drm/card0/device/"

static void
test_radeon(void)
{
	struct sf_fake_kernel *fk = sf_fake_kernel_create();

	sf_fake_add_radeon(fk, 0, "dpm");
	check_same(fk, RADEON "driver", "sys/bus/pci/drivers/radeon");
	check_is(fk, RADEON "power_method", "dpm");
	check_is(fk, RADEON "power_profile", "default");
	check_is(fk, RADEON "power_dpm_state", "balanced");
	check_is(fk, RADEON "power_dpm_force_performance_level", "auto");
	check_wr(fk, RADEON "power_method", "profile", EINVAL);
	check_wr(fk, RADEON "power_profile", "low", EINVAL);
	check_wr(fk, RADEON "power_dpm_state", "battery", 0);
	check_wr(fk, RADEON "power_dpm_state", "saver", EINVAL);
	check_wr(fk, RADEON "power_dpm_force_performance_level", "low", 0);
	check_wr(fk, RADEON "power_dpm_force_performance_level", "manual",
		 EINVAL);
	check_is(fk, RADEON "power_dpm_state", "battery");
	check_is(fk, RADEON "power_dpm_force_performance_level", "low");
	sf_fake_kernel_destroy(fk);

	fk = sf_fake_kernel_create();
	sf_fake_add_radeon(fk, 0, "profile");
	check_is(fk, RADEON "power_dpm_state", NULL);
	check_wr(fk, RADEON "power_dpm_state", "battery", ENOENT);
	check_wr(fk, RADEON "power_profile", "mid", 0);
	check_wr(fk, RADEON "power_profile", "lowest", 0);	/* strncmp */
	check_is(fk, RADEON "power_profile", "low");
	check_wr(fk, RADEON "power_profile", "max", EINVAL);
	check_wr(fk, RADEON "power_method", "static", EINVAL);
	check_wr(fk, RADEON "power_method", "dynpm", 0);
	check_wr(fk, RADEON "power_profile", "high", EINVAL);
	sf_fake_kernel_destroy(fk);

	fk = sf_fake_kernel_create();
	sf_fake_add_radeon(fk, 0, "dynpm");
	check_wr(fk, RADEON "power_profile", "low", EINVAL);
	check_wr(fk, RADEON "power_method", "profile", 0);
	check_wr(fk, RADEON "power_profile", "auto", 0);
	check_is(fk, RADEON "power_profile", "auto");
	sf_fake_kernel_destroy(fk);
}

#define PSTATE "sys/kernel/debug/dri/0/pstate"

static void
test_nouveau(void)
{
	struct sf_fake_kernel *fk = sf_fake_kernel_create();
	static const char initial[] =
		"07: core 405 MHz memory 810 MHz\n"
		"0a: core 540 MHz memory 1600 MHz\n"
		"0f: core 862 MHz memory 2505 MHz\n"
		"AC: core 540 MHz memory 1600 MHz";

	sf_fake_add_nouveau(fk, 0);
	check_same(fk, "sys/class/drm/card0/device/driver",
		   "sys/bus/pci/drivers/nouveau");
	check_is(fk, PSTATE, initial);
	/* no prefix: AC and DC */
	check_wr(fk, PSTATE, "07", 0);
	check_is(fk, PSTATE, "07: core 405 MHz memory 810 MHz AC DC *\n"
		 "0a: core 540 MHz memory 1600 MHz\n"
		 "0f: core 862 MHz memory 2505 MHz\n"
		 "AC: core 405 MHz memory 810 MHz");
	check_wr(fk, PSTATE, "dc:0f", 0);
	check_line(fk, PSTATE, "07:", "MHz AC *", true);
	check_line(fk, PSTATE, "0f:", "MHz DC", true);
	/* auto: the highest, marked on the current line */
	check_wr(fk, PSTATE, "ac:auto", 0);
	check_line(fk, PSTATE, "0f:", "MHz DC *", true);
	check_is(fk, PSTATE, "07: core 405 MHz memory 810 MHz\n"
		 "0a: core 540 MHz memory 1600 MHz\n"
		 "0f: core 862 MHz memory 2505 MHz DC *\n"
		 "AC: core 862 MHz memory 2505 MHz AC");
	check_wr(fk, PSTATE, "AC:0A", 0);			/* any case */
	check_line(fk, PSTATE, "0a:", "MHz AC *", true);
	check_line(fk, PSTATE, "AC:", "MHz AC", false);
	check_wr(fk, PSTATE, "0b", EINVAL);
	check_wr(fk, PSTATE, "fast", EINVAL);
	check_wr(fk, PSTATE, "ac:", EINVAL);
	check_wr(fk, PSTATE, "none", 0);
	check_is(fk, PSTATE, initial);
	sf_fake_kernel_destroy(fk);
}

#define DF "sys/class/devfreq/ff9a0000.gpu/"

static void
test_devfreq(void)
{
	struct sf_fake_kernel *fk = sf_fake_kernel_create();

	sf_fake_add_devfreq_gpu(fk, "ff9a0000.gpu", "panfrost");
	check_link(fk, "sys/class/devfreq/ff9a0000.gpu",
		   "../../devices/platform/ff9a0000.gpu/devfreq/ff9a0000.gpu");
	check_link(fk, DF "device", "../../../ff9a0000.gpu");
	check_same(fk, DF "device", "sys/devices/platform/ff9a0000.gpu");
	check_same(fk, DF "device/driver", "sys/bus/platform/drivers/panfrost");
	check_is(fk, DF "governor", "simple_ondemand");
	check_is(fk, DF "available_governors",
		 "userspace powersave performance simple_ondemand");
	check_is(fk, DF "available_frequencies",
		 "200000000 300000000 400000000 600000000 800000000");
	check_is(fk, DF "min_freq", "200000000");
	check_is(fk, DF "max_freq", "800000000");
	check_is(fk, DF "cur_freq", "400000000");
	check_is(fk, DF "target_freq", "400000000");

	check_wr(fk, DF "max_freq", "300000000", 0);
	check_is(fk, DF "max_freq", "300000000");
	check_is(fk, DF "cur_freq", "300000000");
	check_is(fk, DF "target_freq", "300000000");
	/* a minimum above the maximum yields, and comes back with it */
	check_wr(fk, DF "min_freq", "600000000", 0);
	check_is(fk, DF "min_freq", "300000000");
	check_wr(fk, DF "max_freq", "0", 0);
	check_is(fk, DF "max_freq", "800000000");
	check_is(fk, DF "min_freq", "600000000");
	check_is(fk, DF "cur_freq", "600000000");
	check_wr(fk, DF "min_freq", "0", 0);
	check_is(fk, DF "min_freq", "200000000");
	check_wr(fk, DF "max_freq", "900000000", 0);
	check_is(fk, DF "max_freq", "800000000");
	check_wr(fk, DF "min_freq", "fast", EINVAL);
	check_wr(fk, DF "max_freq", "-1", EINVAL);
	/* limits poked by someone else are the requests from then on */
	sf_fake_poke(fk, DF "max_freq", "400000000");
	check_wr(fk, DF "min_freq", "300000000", 0);
	check_is(fk, DF "max_freq", "400000000");

	check_wr(fk, DF "governor", "performance", 0);
	check_is(fk, DF "governor", "performance");
	check_wr(fk, DF "governor", "ondemand", EINVAL);
	check_wr(fk, DF "cur_freq", "200000000", EACCES);
	check_wr(fk, DF "available_frequencies", "1", EACCES);
	sf_fake_kernel_destroy(fk);
}

#define BL "sys/class/backlight/"

static void
test_backlight_and_connectors(void)
{
	struct sf_fake_kernel *fk = sf_fake_kernel_create();

	sf_fake_add_backlight(fk, "intel_backlight", "raw", 1000, 800);
	sf_fake_add_backlight(fk, "acpi_video0", "firmware", 15, 10);
	sf_fake_add_backlight(fk, "dell_backlight", "platform", 7, 7);
	check_link(fk, BL "acpi_video0",
		   "../../devices/pci0000:00/0000:00:02.0/backlight/"
		   "acpi_video0");
	check_same(fk, BL "acpi_video0/device", PCI0);
	check_same(fk, BL "dell_backlight/device",
		   "sys/devices/platform/dell_backlight");
	check_is(fk, BL "intel_backlight/type", "raw");
	check_is(fk, BL "acpi_video0/type", "firmware");
	check_is(fk, BL "dell_backlight/type", "platform");
	check_is(fk, BL "intel_backlight/max_brightness", "1000");
	check_is(fk, BL "intel_backlight/brightness", "800");
	check_is(fk, BL "intel_backlight/actual_brightness", "800");
	check_is(fk, BL "intel_backlight/bl_power", "0");
	check_wr(fk, BL "acpi_video0/brightness", "16", EINVAL);
	check_wr(fk, BL "acpi_video0/brightness", "-1", EINVAL);
	check_wr(fk, BL "acpi_video0/brightness", "dim", EINVAL);
	check_is(fk, BL "acpi_video0/brightness", "10");
	check_wr(fk, BL "acpi_video0/brightness", "15\n", 0);
	check_wr(fk, BL "acpi_video0/brightness", "0", 0);
	check_is(fk, BL "acpi_video0/brightness", "0");
	check_is(fk, BL "acpi_video0/actual_brightness", "0");
	check_wr(fk, BL "acpi_video0/max_brightness", "20", EACCES);
	check_wr(fk, BL "acpi_video0/actual_brightness", "1", EACCES);
	check_wr(fk, BL "acpi_video0/type", "raw", EACCES);
	check_wr(fk, BL "acpi_video0/bl_power", "4", 0);
	check_is(fk, BL "acpi_video0/bl_power", "4");

	sf_fake_add_connector(fk, 0, "eDP-1", true);
	sf_fake_add_connector(fk, 0, "HDMI-A-1", false);
	check_link(fk, "sys/class/drm/card0-eDP-1",
		   "../../devices/pci0000:00/0000:00:02.0/drm/card0/"
		   "card0-eDP-1");
	check_is(fk, "sys/class/drm/card0-eDP-1/status", "connected");
	check_is(fk, "sys/class/drm/card0-eDP-1/enabled", "enabled");
	check_is(fk, "sys/class/drm/card0-eDP-1/dpms", "On");
	check_is(fk, "sys/class/drm/card0-HDMI-A-1/status", "disconnected");
	check_is(fk, "sys/class/drm/card0-HDMI-A-1/enabled", "disabled");
	check_is(fk, "sys/class/drm/card0-HDMI-A-1/dpms", "Off");
	check_wr(fk, "sys/class/drm/card0-eDP-1/dpms", "Off", EACCES);
	sf_fake_kernel_destroy(fk);
}

#define PS "sys/class/power_supply/"

static void
test_power_supplies(void)
{
	struct sf_fake_kernel *fk = sf_fake_kernel_create();

	sf_fake_add_battery(fk, "BAT0", "Discharging", 7200000, -1, 12000000,
			    41000000, -1);
	sf_fake_add_battery(fk, "BAT1", "Full", -1, -1500000, 11800000, -1,
			    3000000);
	sf_fake_add_mains(fk, "AC", true);
	sf_fake_add_mains(fk, "ADP2", false);
	check_is(fk, PS "BAT0/type", "Battery");
	check_is(fk, PS "BAT0/status", "Discharging");
	check_is(fk, PS "BAT0/present", "1");
	check_is(fk, PS "BAT0/voltage_now", "12000000");
	check_is(fk, PS "BAT0/power_now", "7200000");
	check_is(fk, PS "BAT0/current_now", NULL);
	check_is(fk, PS "BAT0/energy_now", "41000000");
	check_is(fk, PS "BAT0/charge_now", NULL);
	check_is(fk, PS "BAT1/status", "Full");
	check_is(fk, PS "BAT1/power_now", NULL);
	check_is(fk, PS "BAT1/current_now", "-1500000");
	check_is(fk, PS "BAT1/voltage_now", "11800000");
	check_is(fk, PS "BAT1/energy_now", NULL);
	check_is(fk, PS "BAT1/charge_now", "3000000");
	check_is(fk, PS "AC/type", "Mains");
	check_is(fk, PS "AC/online", "1");
	check_is(fk, PS "ADP2/online", "0");
	check_link(fk, PS "BAT0", "../../devices/LNXSYSTM:00/LNXSYBUS:00/"
		   "PNP0C0A:00/power_supply/BAT0");
	check_wr(fk, PS "BAT0/status", "Charging", EACCES);
	check_wr(fk, PS "AC/online", "0", EACCES);
	sf_fake_kernel_destroy(fk);
}

int
main(void)
{
	test_core();
	test_i915();
	test_xe();
	test_amdgpu_polaris();
	test_amdgpu_navi();
	test_radeon();
	test_nouveau();
	test_devfreq();
	test_backlight_and_connectors();
	test_power_supplies();
	printf("1..%d\n", n_tests);
	return n_failed ? 1 : 0;
}
