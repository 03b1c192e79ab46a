/* SPDX-License-Identifier: MIT */
/*
 * fake-kernel: a TEST DOUBLE at the hardware boundary, never linked into
 * stillframe itself.  It stands in for the kernel's sysfs and debugfs so
 * that the platform layer runs unchanged on a tree under a temporary
 * root.  The layouts follow the kernel's (class entries are symlinks to
 * the device directories, drivers are links into sys/bus), and the write
 * hook refuses and accepts what the drivers' store() functions do:
 * intel_rps.c and i915_sysfs.c, xe_gt_freq.c and xe_guc_pc.c,
 * amdgpu_pm.c with amd_powerplay.c (smu7) or amdgpu_smu.c (navi10),
 * radeon_pm.c, nouveau_debugfs.c with nvkm clk, devfreq.c, backlight.c.
 *
 * The files are the state, so that a poke by "another program" or a
 * forked child's writes are seen by the next write; only what the
 * kernel keeps and does not show is kept here (amdgpu's level from
 * before a profile_* level, devfreq's PM QoS requests).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake-kernel.h"

#define VALUE_MAX 4096		/* a sysfs store() sees at most a page */
#define ARRAY_LENGTH(a) (sizeof(a) / sizeof((a)[0]))

struct sf_fake_kernel;
struct fake_dev;

/* A driver's store(): 0 or the errno, the files changed only on 0. */
typedef int (*store_fn)(struct sf_fake_kernel *fk, struct fake_dev *dev,
			const char *attr, const char *val);

/* A directory whose files have a store(); every other file refuses. */
struct fake_dev {
	struct fake_dev *next;
	store_fn store;
	char dir[PATH_MAX];		/* real path, relative to the root */
	enum sf_fake_amdgpu_table table;
	char saved_level[32];		/* amdgpu: for profile_exit */
	unsigned long long qos_min_khz;	/* devfreq: user requests, */
	unsigned long long qos_max_khz;	/* 0 for no maximum */
	unsigned long long shown_min;	/* what min_freq, max_freq said */
	unsigned long long shown_max;
};

struct sf_fake_kernel {
	char root[PATH_MAX];
	char real_root[PATH_MAX];	/* /tmp may itself be a symlink */
	struct fake_dev *devs;
	char **readonly;		/* real paths, relative to the root */
	int *readonly_err;		/* the errno each of them answers */
	int n_readonly;
	char *journal;
	size_t journal_len, journal_size;
	int eagain;
	int rejections;
	int supplies;			/* numbers the ACPI parents */
};

/* --- the tree --- */

static _Noreturn void
die(const char *what, const char *path)
{
	fprintf(stderr, "fake-kernel: %s %s: %s\n", what, path,
		strerror(errno));
	abort();
}

static void *
xalloc(void *old, size_t size)
{
	void *p = realloc(old, size);

	if (!p)
		die("out of memory for", "the fake kernel");
	return p;
}

/* "a/b" into out; a path too long for PATH_MAX is a bug of the test. */
static char *
join(char *out, const char *a, const char *b)
{
	char buf[PATH_MAX];	/* out may be a */
	int n = snprintf(buf, sizeof(buf), "%s/%s", a, b);

	if (n < 0 || n >= PATH_MAX) {
		errno = ENAMETOOLONG;
		die("path", a);
	}
	memcpy(out, buf, (size_t)n + 1);
	return out;
}

static char *
vformat(char *out, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static char *
vformat(char *out, size_t size, const char *fmt, va_list ap)
{
	int n = vsnprintf(out, size, fmt, ap);

	if (n < 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		die("text too long:", fmt);
	}
	return out;
}

static char *
format(char *out, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static char *
format(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat(out, size, fmt, ap);
	va_end(ap);
	return out;
}

static void
make_dirs(const char *path)
{
	char buf[PATH_MAX];

	format(buf, sizeof(buf), "%s", path);
	for (char *s = buf + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			die("mkdir", buf);
		if (!c)
			break;
		*s = c;
	}
}

static void
write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t len = strlen(text), done = 0;

	if (fd < 0)
		die("open", path);
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("write", path);
		done += (size_t)n;
	}
	if (close(fd) < 0)
		die("close", path);
}

/* Reads a whole file; NULL if it cannot be opened. */
static char *
read_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0, size = 256;

	if (fd < 0)
		return NULL;
	char *text = xalloc(NULL, size);
	for (;;) {
		if (len + 1 == size)
			text = xalloc(text, size *= 2);
		ssize_t n = read(fd, text + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	text[len] = '\0';
	return text;
}

/* root/dir/name := the formatted text; the directories come first. */
static void
put(struct sf_fake_kernel *fk, const char *dir, const char *name,
    const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void
put(struct sf_fake_kernel *fk, const char *dir, const char *name,
    const char *fmt, ...)
{
	char path[PATH_MAX], text[VALUE_MAX];
	va_list ap;

	join(path, fk->root, dir);
	make_dirs(path);
	va_start(ap, fmt);
	vformat(text, sizeof(text), fmt, ap);
	va_end(ap);
	write_file(join(path, path, name), text);
}

/* root/dir/name -> the formatted target, relative like the kernel's. */
static void
put_link(struct sf_fake_kernel *fk, const char *dir, const char *name,
	 const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void
put_link(struct sf_fake_kernel *fk, const char *dir, const char *name,
	 const char *fmt, ...)
{
	char path[PATH_MAX], target[PATH_MAX];
	va_list ap;

	join(path, fk->root, dir);
	make_dirs(path);
	join(path, path, name);
	va_start(ap, fmt);
	vformat(target, sizeof(target), fmt, ap);
	va_end(ap);
	unlink(path);		/* a device added again: a new link */
	if (symlink(target, path) < 0)
		die("symlink", path);
}

/* sys/class/<class>/<name> -> ../../devices/...: a class directory is
 * two levels under sys, and `real` starts with "sys/". */
static void
class_link(struct sf_fake_kernel *fk, const char *class, const char *name,
	   const char *real)
{
	char dir[PATH_MAX];

	put_link(fk, join(dir, "sys/class", class), name, "../../%s",
		 real + strlen("sys/"));
}

/* The file's content without its trailing newline into buf; false if
 * it cannot be read. */
static bool
get(struct sf_fake_kernel *fk, const char *dir, const char *name, char *buf,
    size_t size)
{
	char path[PATH_MAX];
	char *text = read_file(join(path, join(path, fk->root, dir), name));

	if (!text)
		return false;
	size_t len = strlen(text);
	if (len && text[len - 1] == '\n')
		text[--len] = '\0';
	snprintf(buf, size, "%s", text);
	free(text);
	return true;
}

static long long
get_number(struct sf_fake_kernel *fk, const char *dir, const char *name)
{
	char buf[64];

	return get(fk, dir, name, buf, sizeof(buf)) ? strtoll(buf, NULL, 10)
						    : 0;
}

static struct fake_dev *
add_dev(struct sf_fake_kernel *fk, store_fn store, const char *dir)
{
	struct fake_dev *dev = xalloc(NULL, sizeof(*dev));

	memset(dev, 0, sizeof(*dev));
	dev->store = store;
	format(dev->dir, sizeof(dev->dir), "%s", dir);
	dev->next = fk->devs;
	fk->devs = dev;
	return dev;
}

static void
remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char child[PATH_MAX];
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			remove_tree(join(child, path, e->d_name));
	}
	if (d)
		closedir(d);
	rmdir(path);
}

/* --- parsing, as the kernel's helpers do --- */

/* kstrtoul(): an optional '+', digits in `base` (0: 0x and 0 prefixes
 * too), nothing after; EINVAL, or ERANGE above `max`. */
static int
parse_ulong(const char *s, int base, unsigned long long max,
	    unsigned long long *out)
{
	if (*s == '+')
		s++;
	if (!isxdigit((unsigned char)*s) ||
	    (base != 16 && !isdigit((unsigned char)*s)))
		return EINVAL;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, base);
	if (*end)
		return EINVAL;
	if (errno == ERANGE || v > max)
		return ERANGE;
	*out = v;
	return 0;
}

/* The drivers' strncmp(name, buf, strlen(name)): a known name followed
 * by anything is that name. */
static const char *
match_prefix(const char *const *names, const char *value)
{
	for (; *names; names++)
		if (strncmp(*names, value, strlen(*names)) == 0)
			return *names;
	return NULL;
}

static int
index_of(const char *const *names, const char *name)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}

static long long
clamp(long long v, long long lo, long long hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* --- i915: intel_rps.c behind the legacy gt_*_freq_mhz files --- */

static int
i915_store(struct sf_fake_kernel *fk, struct fake_dev *dev, const char *attr,
	   const char *val)
{
	static const char *const names[] = {
		"gt_min_freq_mhz", "gt_max_freq_mhz", "gt_boost_freq_mhz",
		NULL,
	};
	int which = index_of(names, attr);
	unsigned long long v;

	if (which < 0)
		return EACCES;	/* 0444: kernfs refuses at open */
	int err = parse_ulong(val, 0, UINT32_MAX, &v);
	if (err)
		return err;
	long long f = (long long)v;
	long long rpn = get_number(fk, dev->dir, "gt_RPn_freq_mhz");
	long long rp0 = get_number(fk, dev->dir, "gt_RP0_freq_mhz");
	long long min = get_number(fk, dev->dir, "gt_min_freq_mhz");
	long long max = get_number(fk, dev->dir, "gt_max_freq_mhz");
	/* set_min_freq(), set_max_freq(): the hardware range, and neither
	 * soft limit may cross the other; boost: the hardware range. */
	if (f < rpn || f > rp0 || (which == 0 && f > max) ||
	    (which == 1 && f < min))
		return EINVAL;
	put(fk, dev->dir, attr, "%lld\n", f);
	if (which == 2)
		return 0;
	/* The request is clamped into the new limits right away. */
	min = which == 0 ? f : min;
	max = which == 1 ? f : max;
	long long cur = clamp(get_number(fk, dev->dir, "gt_cur_freq_mhz"),
			      min, max);
	put(fk, dev->dir, "gt_cur_freq_mhz", "%lld\n", cur);
	put(fk, dev->dir, "gt_act_freq_mhz", "%lld\n", cur);
	return 0;
}

/* --- xe: xe_gt_freq.c, a GuC SLPC request per GT --- */

static int
xe_store(struct sf_fake_kernel *fk, struct fake_dev *dev, const char *attr,
	 const char *val)
{
	bool is_min = strcmp(attr, "min_freq") == 0;
	unsigned long long v;

	if (!is_min && strcmp(attr, "max_freq") != 0)
		return EACCES;
	if (fk->eagain > 0) {	/* the GuC busy, as during a GT reset */
		fk->eagain--;
		return EAGAIN;
	}
	int err = parse_ulong(val, 0, UINT32_MAX, &v);
	if (err)
		return err;
	long long f = (long long)v;
	/* pc_set_min_freq(), pc_set_max_freq(): only rpn..rp0; a min above
	 * the max is taken and becomes a fixed request. */
	if (f < get_number(fk, dev->dir, "rpn_freq") ||
	    f > get_number(fk, dev->dir, "rp0_freq"))
		return EINVAL;
	put(fk, dev->dir, attr, "%lld\n", f);
	long long min = get_number(fk, dev->dir, "min_freq");
	long long max = get_number(fk, dev->dir, "max_freq");
	long long cur = min >= max ? min :
		clamp(get_number(fk, dev->dir, "cur_freq"), min, max);
	put(fk, dev->dir, "cur_freq", "%lld\n", cur);
	put(fk, dev->dir, "act_freq", "%lld\n", cur);
	return 0;
}

/* --- amdgpu: amdgpu_pm.c --- */

static const char *const amdgpu_levels[] = {
	"auto", "low", "high", "manual", "profile_exit", "profile_standard",
	"profile_min_sclk", "profile_min_mclk", "profile_peak",
	"perf_determinism", NULL,
};
static const int amdgpu_sclk_mhz[] = { 500, 1200, 1800 };
static const int amdgpu_mclk_mhz[] = { 96, 875 };
#define AMDGPU_CUSTOM 6		/* PP_SMC_POWER_PROFILE_CUSTOM */

/* smu7_get_power_profile_mode(): the kernel's widths ("%14s *" for the
 * active name, "%16s" for the others), 3D_FULL_SCREEN active. */
static const char amdgpu_polaris_table[] =
	"NUM        MODE_NAME     SCLK_UP_HYST   SCLK_DOWN_HYST SCLK_ACTIVE_LEVEL     MCLK_UP_HYST   MCLK_DOWN_HYST MCLK_ACTIVE_LEVEL\n"
	"  0   BOOTUP_DEFAULT:        -                -                -                -                -                -\n"
	"  1 3D_FULL_SCREEN *:        0              100               30                0              100               10\n"
	"  2     POWER_SAVING:       10                0               30                -                -                -\n"
	"  3            VIDEO:        -                -                -               10               16               31\n"
	"  4               VR:        0               11               50                0              100               10\n"
	"  5          COMPUTE:        0                5               30                -                -                -\n"
	"  6           CUSTOM:        -                -                -                -                -                -\n";

/* navi10_get_power_profile_mode(): "%2d %14s%s:", the marker '*' or ' '
 * right after the name; BOOTUP_DEFAULT active. */
static const char amdgpu_navi_table[] =
	"PROFILE_INDEX(NAME) CLOCK_TYPE(NAME) FPS MinFreqType MinActiveFreqType MinActiveFreq BoosterFreqType BoosterFreq PD_Data_limit_c PD_Data_limit_a PD_Data_limit_m PD_Data_limit_w\n"
	" 0 BOOTUP_DEFAULT*:\n"
	"                   0(       GFXCLK)       0       5       1       0       4     800 4587520  -65536       0      10\n"
	"                   1(       SOCCLK)       0       5       1       0       1       0 3276800   -6553   -6553       0\n"
	" 1 3D_FULL_SCREEN :\n"
	"                   0(       GFXCLK)       0       5       1       0       4     650 4587520  -65536       0      10\n"
	" 2   POWER_SAVING :\n"
	"                   0(       GFXCLK)       0       5       1       0       0       0 4587520  -65536       0      10\n"
	" 3          VIDEO :\n"
	"                   0(       GFXCLK)       0       5       1       0       4     500 4587520  -65536       0      10\n"
	" 4             VR :\n"
	"                   0(       GFXCLK)       0       5       1       0       4     500 4587520  -65536       0      10\n"
	" 5        COMPUTE :\n"
	"                   0(       GFXCLK)       0       5       1       0       4     500 4587520  -65536       0      10\n"
	" 6         CUSTOM :\n"
	"                   0(       GFXCLK)       0       5       1       0       4     500 4587520  -65536       0      10\n";

/* print_clock_levels(): "%d: %uMhz %s\n", so an unmarked line ends in a
 * blank, as on the real thing. */
static void
amdgpu_put_clock(struct sf_fake_kernel *fk, struct fake_dev *dev,
		 const char *attr, const int *mhz, int n, int now)
{
	char text[256];
	size_t len = 0;

	for (int i = 0; i < n; i++)
		len += strlen(format(text + len, sizeof(text) - len,
				     "%d: %dMhz %s\n", i, mhz[i],
				     i == now ? "*" : ""));
	put(fk, dev->dir, attr, "%s", text);
}

/* The profile_* levels but profile_exit: the UMD pstate mask. */
static bool
amdgpu_is_umd_pstate(const char *level)
{
	return strncmp(level, "profile_", 8) == 0 &&
	       strcmp(level, "profile_exit") != 0;
}

static int
amdgpu_store_level(struct sf_fake_kernel *fk, struct fake_dev *dev,
		   const char *val)
{
	const char *level = match_prefix(amdgpu_levels, val);
	char cur[64] = "";

	if (!level)
		return EINVAL;
	get(fk, dev->dir, "power_dpm_force_performance_level", cur,
	    sizeof(cur));
	/* amdgpu_dpm_force_performance_level(): the same level is a no-op */
	if (strcmp(cur, level) == 0)
		return 0;
	if (strcmp(level, "profile_exit") == 0) {
		if (!amdgpu_is_umd_pstate(cur))
			return EINVAL;
		level = dev->saved_level;	/* smu's saved_dpm_level */
	} else if (amdgpu_is_umd_pstate(level) && !amdgpu_is_umd_pstate(cur)) {
		format(dev->saved_level, sizeof(dev->saved_level), "%s", cur);
	}
	put(fk, dev->dir, "power_dpm_force_performance_level", "%s\n", level);
	/* A new level drops manual masks: the boot level, the lowest for
	 * low, the highest for high. */
	int n_sclk = ARRAY_LENGTH(amdgpu_sclk_mhz);
	int n_mclk = ARRAY_LENGTH(amdgpu_mclk_mhz);
	bool low = strcmp(level, "low") == 0, high = strcmp(level, "high") == 0;
	amdgpu_put_clock(fk, dev, "pp_dpm_sclk", amdgpu_sclk_mhz, n_sclk,
			 low ? 0 : high ? n_sclk - 1 : 1);
	amdgpu_put_clock(fk, dev, "pp_dpm_mclk", amdgpu_mclk_mhz, n_mclk,
			 low ? 0 : high ? n_mclk - 1 : 1);
	return 0;
}

/* amdgpu_read_mask() then force_clock_level(), which only manual takes;
 * the lowest level of the mask is where an idle GPU runs. */
static int
amdgpu_store_clock(struct sf_fake_kernel *fk, struct fake_dev *dev,
		   const char *attr, const int *mhz, int n, const char *val)
{
	char level[64] = "", buf[VALUE_MAX];
	int lowest = -1;

	get(fk, dev->dir, "power_dpm_force_performance_level", level,
	    sizeof(level));
	if (strcmp(level, "manual") != 0)
		return EINVAL;
	format(buf, sizeof(buf), "%s", val);
	for (char *s = buf; s;) {	/* strsep(" \n") */
		char *tok = s;
		s += strcspn(s, " \n");
		if (*s)
			*s++ = '\0';
		else
			s = NULL;
		if (!*tok)
			break;	/* the kernel stops at an empty token */
		unsigned long long i;
		if (parse_ulong(tok, 0, 31, &i) || i >= (unsigned)n)
			return EINVAL;
		if (lowest < 0 || (int)i < lowest)
			lowest = (int)i;
	}
	if (lowest < 0)
		return EINVAL;
	amdgpu_put_clock(fk, dev, attr, mhz, n, lowest);
	return 0;
}

/* A profile's line starts with its index and a blank and has a ':'; the
 * headers and the per-clock lines ("0(  GFXCLK)") do not. */
static char *
amdgpu_profile_colon(char *line, char *eol, int *index)
{
	char *s = line, *end;

	while (*s == ' ')
		s++;
	if (!isdigit((unsigned char)*s))
		return NULL;
	long n = strtol(s, &end, 10);
	if (*end != ' ')
		return NULL;
	*index = (int)n;
	return memchr(end, ':', (size_t)(eol - end));
}

/* Rewrites the marker in place, keeping the line's length. */
static void
amdgpu_mark(char *line, char *colon, enum sf_fake_amdgpu_table table,
	    bool on)
{
	char field[17], name[17] = "";

	if (table == SF_FAKE_AMDGPU_TABLE_NAVI) {
		colon[-1] = on ? '*' : ' ';
		return;
	}
	if (colon - line < 16)
		return;
	memcpy(field, colon - 16, 16);
	field[16] = '\0';
	sscanf(field, "%16s", name);
	snprintf(field, sizeof(field), on ? "%14.14s *" : "%16.16s", name);
	memcpy(colon - 16, field, 16);
}

/* CUSTOM needs its settings (none are saved): 8 numbers for smu7, 10
 * (a clock type and its values) for navi10. */
static int
amdgpu_custom_params(const char *val, enum sf_fake_amdgpu_table table)
{
	int n = 0;

	for (const char *s = val + 1; *s;) {
		char *end;
		while (*s == ' ' || *s == '\n')
			s++;
		if (!*s)
			break;
		strtol(s, &end, 0);
		if (end == s || (*end && *end != ' ' && *end != '\n'))
			return EINVAL;
		n++;
		s = end;
	}
	if (table == SF_FAKE_AMDGPU_TABLE_POLARIS)
		return n >= 8 ? 0 : EINVAL;
	return n == 10 ? 0 : EINVAL;
}

static int
amdgpu_store_profile(struct sf_fake_kernel *fk, struct fake_dev *dev,
		     const char *val)
{
	char level[64] = "", path[PATH_MAX];
	bool found = false;

	/* tmp[0] = *buf; kstrtol(tmp): the first character only */
	if (!isdigit((unsigned char)val[0]))
		return EINVAL;
	int mode = val[0] - '0';
	get(fk, dev->dir, "power_dpm_force_performance_level", level,
	    sizeof(level));
	/* pp_set_power_profile_mode(): powerplay takes it in manual only */
	if (dev->table == SF_FAKE_AMDGPU_TABLE_POLARIS &&
	    strcmp(level, "manual") != 0)
		return EINVAL;
	if (mode == AMDGPU_CUSTOM && amdgpu_custom_params(val, dev->table))
		return EINVAL;
	char *text = read_file(join(path, join(path, fk->root, dev->dir),
				    "pp_power_profile_mode"));
	if (!text)
		return EINVAL;
	for (int pass = 0; pass < 2; pass++) {
		for (char *line = text; *line;) {
			char *eol = line + strcspn(line, "\n");
			int index;
			char *colon = amdgpu_profile_colon(line, eol, &index);
			if (colon && pass == 0)
				found |= index == mode;
			else if (colon)
				amdgpu_mark(line, colon, dev->table,
					    index == mode);
			line = *eol ? eol + 1 : eol;
		}
		if (!found)
			break;
	}
	if (found)
		write_file(path, text);
	free(text);
	return found ? 0 : EINVAL;
}

/* power_dpm_state, in amdgpu and radeon alike */
static const char *const dpm_states[] = {
	"battery", "balanced", "performance", NULL,
};

static int
amdgpu_store(struct sf_fake_kernel *fk, struct fake_dev *dev, const char *attr,
	     const char *val)
{
	if (strcmp(attr, "power_dpm_force_performance_level") == 0)
		return amdgpu_store_level(fk, dev, val);
	if (strcmp(attr, "pp_dpm_sclk") == 0)
		return amdgpu_store_clock(fk, dev, attr, amdgpu_sclk_mhz,
					  ARRAY_LENGTH(amdgpu_sclk_mhz), val);
	if (strcmp(attr, "pp_dpm_mclk") == 0)
		return amdgpu_store_clock(fk, dev, attr, amdgpu_mclk_mhz,
					  ARRAY_LENGTH(amdgpu_mclk_mhz), val);
	if (strcmp(attr, "pp_power_profile_mode") == 0)
		return amdgpu_store_profile(fk, dev, val);
	if (strcmp(attr, "power_dpm_state") == 0) {
		const char *state = match_prefix(dpm_states, val);
		if (!state)
			return EINVAL;
		put(fk, dev->dir, attr, "%s\n", state);
		return 0;
	}
	return EACCES;
}

/* --- radeon: radeon_pm.c --- */

static int
radeon_store(struct sf_fake_kernel *fk, struct fake_dev *dev, const char *attr,
	     const char *val)
{
	static const char *const methods[] = { "dynpm", "profile", NULL };
	static const char *const profiles[] = {
		"default", "auto", "low", "mid", "high", NULL,
	};
	static const char *const levels[] = { "low", "high", "auto", NULL };
	const char *const *names;
	char method[32] = "";

	get(fk, dev->dir, "power_method", method, sizeof(method));
	if (strcmp(attr, "power_method") == 0) {
		/* "we don't support the legacy modes with dpm" */
		if (strcmp(method, "dpm") == 0)
			return EINVAL;
		names = methods;
	} else if (strcmp(attr, "power_profile") == 0) {
		if (strcmp(method, "profile") != 0)
			return EINVAL;
		names = profiles;
	} else if (strcmp(attr, "power_dpm_state") == 0) {
		names = dpm_states;	/* present with dpm only */
	} else if (strcmp(attr, "power_dpm_force_performance_level") == 0) {
		names = levels;
	} else {
		return EACCES;
	}
	const char *name = match_prefix(names, val);
	if (!name)
		return EINVAL;
	put(fk, dev->dir, attr, "%s\n", name);
	return 0;
}

/* --- nouveau: debugfs pstate, nvkm_clk_ustate() --- */

static const struct {
	int id, core, memory;
} nouveau_pstates[] = {
	{ 0x07, 405, 810 },
	{ 0x0a, 540, 1600 },
	{ 0x0f, 862, 2505 },
};
#define NOUVEAU_BOOT 1		/* the boot clocks are those of 0a */
#define NOUVEAU_NONE (-1)	/* no user pstate: boot clocks */
#define NOUVEAU_AUTO (-2)	/* the highest allowed (clk->astate) */

/* nouveau_debugfs_pstate_get(): the user's AC and DC choices marked on
 * their lines or, for auto, on the current one; '*' on the pstate set;
 * then the current clocks, on AC power. */
static void
nouveau_put(struct sf_fake_kernel *fk, struct fake_dev *dev, int ac, int dc)
{
	int n = (int)ARRAY_LENGTH(nouveau_pstates);
	int now = ac >= 0 ? ac : ac == NOUVEAU_AUTO ? n - 1 : -1;
	char text[VALUE_MAX];
	size_t len = 0;

	for (int i = 0; i <= n; i++) {
		int c = i < n ? i : now >= 0 ? now : NOUVEAU_BOOT;
		char id[8];
		if (i < n)
			format(id, sizeof(id), "%02x", nouveau_pstates[i].id);
		else
			format(id, sizeof(id), "AC");
		bool mark_ac = i < n ? ac == i : ac == NOUVEAU_AUTO;
		bool mark_dc = i < n ? dc == i : dc == NOUVEAU_AUTO;
		len += strlen(format(text + len, sizeof(text) - len,
				     "%s: core %d MHz memory %d MHz%s%s%s\n",
				     id, nouveau_pstates[c].core,
				     nouveau_pstates[c].memory,
				     mark_ac ? " AC" : "", mark_dc ? " DC" : "",
				     i < n && now == i ? " *" : ""));
	}
	put(fk, dev->dir, "pstate", "%s", text);
}

/* The choices back from the file's markers. */
static void
nouveau_get(struct sf_fake_kernel *fk, struct fake_dev *dev, int *ac, int *dc)
{
	char path[PATH_MAX];
	char *text = read_file(join(path, join(path, fk->root, dev->dir),
				    "pstate"));
	int i = 0;

	*ac = *dc = NOUVEAU_NONE;
	for (char *line = text; line && *line; i++) {
		char *eol = line + strcspn(line, "\n");
		char *next = *eol ? eol + 1 : NULL;
		const char *marks = line;
		*eol = '\0';
		/* the markers come after the last "MHz"; the current line
		 * ("AC:", "DC:") carries those of auto */
		for (const char *s; (s = strstr(marks, "MHz"));)
			marks = s + 3;
		int choice = line[0] == 'A' || line[0] == 'D' ? NOUVEAU_AUTO
							       : i;
		if (strstr(marks, " AC"))
			*ac = choice;
		if (strstr(marks, " DC"))
			*dc = choice;
		line = next;
	}
	free(text);
}

static int
nouveau_store(struct sf_fake_kernel *fk, struct fake_dev *dev,
	      const char *attr, const char *val)
{
	int pwr = -1;		/* no prefix: both AC and DC */
	int req = -1;

	if (strcmp(attr, "pstate") != 0)
		return EACCES;
	if (strncasecmp(val, "dc:", 3) == 0) {
		pwr = 0;
		val += 3;
	} else if (strncasecmp(val, "ac:", 3) == 0) {
		pwr = 1;
		val += 3;
	}
	if (strcasecmp(val, "none") == 0) {
		req = NOUVEAU_NONE;
	} else if (strcasecmp(val, "auto") == 0) {
		req = NOUVEAU_AUTO;
	} else {
		unsigned long long id;
		int err = parse_ulong(val, 16, INT_MAX, &id);
		if (err)
			return err;
		for (int i = 0; i < (int)ARRAY_LENGTH(nouveau_pstates); i++)
			if (nouveau_pstates[i].id == (int)id)
				req = i;
		if (req < 0)
			return EINVAL;
	}
	int ac, dc;
	nouveau_get(fk, dev, &ac, &dc);
	if (pwr != 0)
		ac = req;
	if (pwr != 1)
		dc = req;
	nouveau_put(fk, dev, ac, dc);
	return 0;
}

/* --- devfreq: devfreq.c, limits through PM QoS in kHz --- */

static const unsigned long long devfreq_table[] = {
	200000000, 300000000, 400000000, 600000000, 800000000,
};
#define DEVFREQ_LOWEST devfreq_table[0]
#define DEVFREQ_HIGHEST devfreq_table[ARRAY_LENGTH(devfreq_table) - 1]

/* get_freq_range(): the requests within the OPP table's range, the
 * minimum yielding to the maximum; the frequency follows. */
static void
devfreq_put(struct sf_fake_kernel *fk, struct fake_dev *dev)
{
	unsigned long long min = dev->qos_min_khz * 1000;
	unsigned long long max = dev->qos_max_khz ?
		dev->qos_max_khz * 1000 : DEVFREQ_HIGHEST;

	min = min < DEVFREQ_LOWEST ? DEVFREQ_LOWEST : min;
	max = max > DEVFREQ_HIGHEST ? DEVFREQ_HIGHEST : max;
	min = min > max ? max : min;
	long long cur = clamp(get_number(fk, dev->dir, "cur_freq"),
			      (long long)min, (long long)max);
	put(fk, dev->dir, "min_freq", "%llu\n", min);
	put(fk, dev->dir, "max_freq", "%llu\n", max);
	put(fk, dev->dir, "cur_freq", "%lld\n", cur);
	put(fk, dev->dir, "target_freq", "%lld\n", cur);
	dev->shown_min = min;
	dev->shown_max = max;
}

static int
devfreq_store(struct sf_fake_kernel *fk, struct fake_dev *dev,
	      const char *attr, const char *val)
{
	bool is_min = strcmp(attr, "min_freq") == 0;
	unsigned long long v;

	if (strcmp(attr, "governor") == 0) {
		char list[VALUE_MAX] = "";
		get(fk, dev->dir, "available_governors", list, sizeof(list));
		for (char *s = strtok(list, " "); s; s = strtok(NULL, " "))
			if (strcmp(s, val) == 0) {
				put(fk, dev->dir, attr, "%s\n", val);
				return 0;
			}
		return EINVAL;
	}
	if (!is_min && strcmp(attr, "max_freq") != 0)
		return EACCES;
	if (parse_ulong(val, 10, ULLONG_MAX / 1000, &v))
		return EINVAL;	/* sscanf("%lu") found no number */
	/* Limits written by someone else (a poke, a forked child) are the
	 * requests now. */
	unsigned long long min = get_number(fk, dev->dir, "min_freq");
	unsigned long long max = get_number(fk, dev->dir, "max_freq");
	if (min != dev->shown_min || max != dev->shown_max) {
		dev->qos_min_khz = min / 1000;
		dev->qos_max_khz = max >= DEVFREQ_HIGHEST ? 0 : max / 1000;
	}
	/* Rounded so that the allowed range never shrinks; 0: no maximum. */
	if (is_min)
		dev->qos_min_khz = v / 1000;
	else
		dev->qos_max_khz = (v + 999) / 1000;
	if (dev->qos_min_khz > INT32_MAX)
		dev->qos_min_khz = INT32_MAX;
	if (dev->qos_max_khz > INT32_MAX)
		dev->qos_max_khz = 0;
	devfreq_put(fk, dev);
	return 0;
}

/* --- backlight: backlight.c --- */

static int
backlight_store(struct sf_fake_kernel *fk, struct fake_dev *dev,
		const char *attr, const char *val)
{
	unsigned long long v;
	int err;

	if (strcmp(attr, "brightness") == 0) {
		if ((err = parse_ulong(val, 0, ULONG_MAX, &v)))
			return err;
		long long max = get_number(fk, dev->dir, "max_brightness");
		if (max < 0 || v > (unsigned long long)max)
			return EINVAL;
		put(fk, dev->dir, attr, "%llu\n", v);
		put(fk, dev->dir, "actual_brightness", "%llu\n", v);
		return 0;
	}
	if (strcmp(attr, "bl_power") == 0) {
		/* bl_power_store() takes any number; the panel blanks */
		if ((err = parse_ulong(val, 0, ULONG_MAX, &v)))
			return err;
		put(fk, dev->dir, attr, "%llu\n", v);
		return 0;
	}
	return EACCES;
}

/* --- the write hook --- */

/* The errno a write to the file fails with (the last one set), or 0. */
static int
write_error(const struct sf_fake_kernel *fk, const char *real_rel)
{
	for (int i = fk->n_readonly - 1; i >= 0; i--)
		if (strcmp(fk->readonly[i], real_rel) == 0)
			return fk->readonly_err[i];
	return 0;
}

/* The file's real path relative to the root, in out; an errno if it is
 * missing or outside the root. */
static int
resolve(const struct sf_fake_kernel *fk, const char *path, char *out)
{
	char real[PATH_MAX];
	size_t n = strlen(fk->real_root);

	if (!realpath(path, real))
		return errno;
	if (strncmp(real, fk->real_root, n) != 0 || real[n] != '/')
		return EACCES;
	format(out, PATH_MAX, "%s", real + n + 1);
	return 0;
}

static void
journal_add(struct sf_fake_kernel *fk, const char *rel, const char *val)
{
	size_t need = fk->journal_len + strlen(rel) + strlen(val) + 3;

	if (need > fk->journal_size) {
		fk->journal_size = need * 2;
		fk->journal = xalloc(fk->journal, fk->journal_size);
	}
	fk->journal_len += (size_t)sprintf(fk->journal + fk->journal_len,
					   "%s=%s\n", rel, val);
}

static int
store(struct sf_fake_kernel *fk, const char *path, const char *value)
{
	size_t n = strlen(fk->root);
	char rel[PATH_MAX], val[VALUE_MAX];
	struct stat st;

	if (strncmp(path, fk->root, n) != 0 || path[n] != '/')
		return EACCES;	/* never the real sysfs */
	int err = resolve(fk, path, rel);
	if (err)
		return err;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return EISDIR;
	err = write_error(fk, rel);
	if (err)
		return err;
	size_t len = strlen(value);
	if (len >= sizeof(val))
		return EINVAL;
	memcpy(val, value, len + 1);
	if (len && val[len - 1] == '\n')
		val[--len] = '\0';

	char *slash = strrchr(rel, '/');
	struct fake_dev *dev = fk->devs;
	if (!slash)
		return EACCES;
	*slash = '\0';
	while (dev && strcmp(dev->dir, rel) != 0)
		dev = dev->next;
	const char *attr = slash + 1;
	if (!dev)
		return EACCES;	/* a file without store() */
	err = dev->store(fk, dev, attr, val);
	if (!err)
		journal_add(fk, path + n + strspn(path + n, "/"), val);
	return err;
}

int
sf_fake_kernel_write(void *data, const char *path, const char *value)
{
	struct sf_fake_kernel *fk = data;
	int err = store(fk, path, value);

	if (err)
		fk->rejections++;
	return err;
}

/* --- the object --- */

struct sf_fake_kernel *
sf_fake_kernel_create(void)
{
	struct sf_fake_kernel *fk = xalloc(NULL, sizeof(*fk));

	memset(fk, 0, sizeof(*fk));
	format(fk->root, sizeof(fk->root), "/tmp/sf-fake-kernel.XXXXXX");
	if (!mkdtemp(fk->root))
		die("mkdtemp", fk->root);
	if (!realpath(fk->root, fk->real_root))
		die("realpath", fk->root);
	fk->journal_size = 1;
	fk->journal = xalloc(NULL, fk->journal_size);
	fk->journal[0] = '\0';
	return fk;
}

void
sf_fake_kernel_destroy(struct sf_fake_kernel *fk)
{
	if (!fk)
		return;
	remove_tree(fk->root);
	while (fk->devs) {
		struct fake_dev *next = fk->devs->next;
		free(fk->devs);
		fk->devs = next;
	}
	for (int i = 0; i < fk->n_readonly; i++)
		free(fk->readonly[i]);
	free(fk->readonly);
	free(fk->readonly_err);
	free(fk->journal);
	free(fk);
}

const char *
sf_fake_kernel_root(const struct sf_fake_kernel *fk)
{
	return fk->root;
}

/* --- builders --- */

/* Device 2 for card0, where Intel puts its GPU; 00.0 is the host
 * bridge. */
static char *
pci_dir(char *out, int card)
{
	return format(out, PATH_MAX, "sys/devices/pci0000:00/0000:00:%02x.0",
		      card + 2);
}

static char *
card_dir(char *out, int card)
{
	char pci[PATH_MAX];

	return format(out, PATH_MAX, "%s/drm/card%d", pci_dir(pci, card),
		      card);
}

/* The PCI device bound to `driver` and its DRM card with the links the
 * platform layer follows: class/drm/cardN, cardN/device, device/driver. */
static void
add_pci_card(struct sf_fake_kernel *fk, int card, const char *driver,
	     const char *vendor)
{
	char pci[PATH_MAX], drm[PATH_MAX], name[32], dir[PATH_MAX];

	pci_dir(pci, card);
	card_dir(drm, card);
	put(fk, pci, "vendor", "%s\n", vendor);
	put(fk, pci, "class", "0x030000\n");
	put(fk, drm, "dev", "226:%d\n", card);
	put_link(fk, drm, "device", "../../../%s", strrchr(pci, '/') + 1);
	class_link(fk, "drm", format(name, sizeof(name), "card%d", card), drm);
	join(dir, fk->root, "sys/bus/pci/drivers");
	make_dirs(join(dir, dir, driver));
	put_link(fk, pci, "driver", "../../../bus/pci/drivers/%s", driver);
}

void
sf_fake_add_i915(struct sf_fake_kernel *fk, int card, int rpn, int rp1,
		 int rp0)
{
	char dir[PATH_MAX], defaults[PATH_MAX];

	add_pci_card(fk, card, "i915", "0x8086");
	card_dir(dir, card);
	put(fk, dir, "gt_min_freq_mhz", "%d\n", rpn);
	put(fk, dir, "gt_max_freq_mhz", "%d\n", rp0);
	put(fk, dir, "gt_boost_freq_mhz", "%d\n", rp0);
	put(fk, dir, "gt_RPn_freq_mhz", "%d\n", rpn);
	put(fk, dir, "gt_RP1_freq_mhz", "%d\n", rp1);
	put(fk, dir, "gt_RP0_freq_mhz", "%d\n", rp0);
	put(fk, dir, "gt_cur_freq_mhz", "%d\n", rp1);
	put(fk, dir, "gt_act_freq_mhz", "%d\n", rp1);
	join(defaults, dir, "gt/gt0/.defaults");
	put(fk, defaults, "rps_min_freq_mhz", "%d\n", rpn);
	put(fk, defaults, "rps_max_freq_mhz", "%d\n", rp0);
	add_dev(fk, i915_store, dir);
}

void
sf_fake_add_xe(struct sf_fake_kernel *fk, int card, int n_gts, int rpn,
	       int rpe, int rp0)
{
	char pci[PATH_MAX], dir[PATH_MAX];

	add_pci_card(fk, card, "xe", "0x8086");
	pci_dir(pci, card);
	for (int i = 0; i < n_gts; i++) {
		format(dir, sizeof(dir), "%s/tile0/gt%d/freq0", pci, i);
		put(fk, dir, "min_freq", "%d\n", rpn);
		put(fk, dir, "max_freq", "%d\n", rp0);
		put(fk, dir, "rpn_freq", "%d\n", rpn);
		put(fk, dir, "rpe_freq", "%d\n", rpe);
		put(fk, dir, "rp0_freq", "%d\n", rp0);
		put(fk, dir, "act_freq", "%d\n", rpe);
		put(fk, dir, "cur_freq", "%d\n", rpe);
		add_dev(fk, xe_store, dir);
	}
}

void
sf_fake_add_amdgpu(struct sf_fake_kernel *fk, int card,
		   enum sf_fake_amdgpu_table table)
{
	char pci[PATH_MAX];

	add_pci_card(fk, card, "amdgpu", "0x1002");
	pci_dir(pci, card);
	struct fake_dev *dev = add_dev(fk, amdgpu_store, pci);
	dev->table = table;
	format(dev->saved_level, sizeof(dev->saved_level), "auto");
	put(fk, pci, "power_dpm_force_performance_level", "auto\n");
	put(fk, pci, "power_dpm_state", "balanced\n");
	amdgpu_put_clock(fk, dev, "pp_dpm_sclk", amdgpu_sclk_mhz,
			 ARRAY_LENGTH(amdgpu_sclk_mhz), 1);
	amdgpu_put_clock(fk, dev, "pp_dpm_mclk", amdgpu_mclk_mhz,
			 ARRAY_LENGTH(amdgpu_mclk_mhz), 1);
	put(fk, pci, "pp_power_profile_mode", "%s",
	    table == SF_FAKE_AMDGPU_TABLE_NAVI ? amdgpu_navi_table
					       : amdgpu_polaris_table);
}

void
sf_fake_add_radeon(struct sf_fake_kernel *fk, int card,
		   const char *power_method)
{
	char pci[PATH_MAX];

	add_pci_card(fk, card, "radeon", "0x1002");
	pci_dir(pci, card);
	put(fk, pci, "power_method", "%s\n", power_method);
	put(fk, pci, "power_profile", "default\n");
	if (strcmp(power_method, "dpm") == 0) {
		put(fk, pci, "power_dpm_state", "balanced\n");
		put(fk, pci, "power_dpm_force_performance_level", "auto\n");
	}
	add_dev(fk, radeon_store, pci);
}

void
sf_fake_add_nouveau(struct sf_fake_kernel *fk, int card)
{
	char dir[PATH_MAX];

	add_pci_card(fk, card, "nouveau", "0x10de");
	format(dir, sizeof(dir), "sys/kernel/debug/dri/%d", card);
	nouveau_put(fk, add_dev(fk, nouveau_store, dir), NOUVEAU_NONE,
		    NOUVEAU_NONE);
}

void
sf_fake_add_devfreq_gpu(struct sf_fake_kernel *fk, const char *dev_name,
			const char *driver)
{
	char plat[PATH_MAX], dir[PATH_MAX], drivers[PATH_MAX];

	join(plat, "sys/devices/platform", dev_name);
	join(drivers, fk->root, "sys/bus/platform/drivers");
	make_dirs(join(drivers, drivers, driver));
	put_link(fk, plat, "driver", "../../../bus/platform/drivers/%s",
		 driver);
	format(dir, sizeof(dir), "%s/devfreq/%s", plat, dev_name);
	put_link(fk, dir, "device", "../../../%s", dev_name);
	class_link(fk, "devfreq", dev_name, dir);
	put(fk, dir, "governor", "simple_ondemand\n");
	put(fk, dir, "available_governors",
	    "userspace powersave performance simple_ondemand\n");
	put(fk, dir, "available_frequencies",
	    "200000000 300000000 400000000 600000000 800000000\n");
	put(fk, dir, "cur_freq", "400000000\n");
	devfreq_put(fk, add_dev(fk, devfreq_store, dir));
}

void
sf_fake_add_connector(struct sf_fake_kernel *fk, int card, const char *name,
		      bool enabled_on)
{
	char drm[PATH_MAX], con[64], dir[PATH_MAX];

	card_dir(drm, card);
	format(con, sizeof(con), "card%d-%s", card, name);
	join(dir, drm, con);
	put(fk, dir, "status", enabled_on ? "connected\n" : "disconnected\n");
	put(fk, dir, "enabled", enabled_on ? "enabled\n" : "disabled\n");
	put(fk, dir, "dpms", enabled_on ? "On\n" : "Off\n");
	class_link(fk, "drm", con, dir);
}

void
sf_fake_add_backlight(struct sf_fake_kernel *fk, const char *name,
		      const char *type, int max, int brightness)
{
	char dir[PATH_MAX];

	/* acpi_video0 and amdgpu_bl0 hang off the GPU, dell_backlight and
	 * the like off a platform device. */
	if (strcmp(type, "platform") == 0)
		format(dir, sizeof(dir), "sys/devices/platform/%s/backlight/%s",
		       name, name);
	else
		format(dir, sizeof(dir), "sys/devices/pci0000:00/0000:00:02.0/"
		       "backlight/%s", name);
	put(fk, dir, "type", "%s\n", type);
	put(fk, dir, "max_brightness", "%d\n", max);
	put(fk, dir, "brightness", "%d\n", brightness);
	put(fk, dir, "actual_brightness", "%d\n", brightness);
	put(fk, dir, "bl_power", "0\n");
	put_link(fk, dir, "device", "../..");
	class_link(fk, "backlight", name, dir);
	add_dev(fk, backlight_store, dir);
}

void
sf_fake_add_battery(struct sf_fake_kernel *fk, const char *name,
		    const char *status, long power_now_uw, long current_now_ua,
		    long voltage_now_uv, long energy_now_uwh,
		    long charge_now_uah)
{
	char dir[PATH_MAX];

	/* drivers/acpi/battery.c shows power_now and energy_* for a battery
	 * reporting in mW, current_now and charge_* for one in mA. */
	format(dir, sizeof(dir), "sys/devices/LNXSYSTM:00/LNXSYBUS:00/"
	       "PNP0C0A:%02x/power_supply/%s", fk->supplies++, name);
	put(fk, dir, "type", "Battery\n");
	put(fk, dir, "status", "%s\n", status);
	put(fk, dir, "present", "1\n");
	put(fk, dir, "voltage_now", "%ld\n", voltage_now_uv);
	if (power_now_uw >= 0)
		put(fk, dir, "power_now", "%ld\n", power_now_uw);
	else
		put(fk, dir, "current_now", "%ld\n", current_now_ua);
	if (energy_now_uwh >= 0)
		put(fk, dir, "energy_now", "%ld\n", energy_now_uwh);
	else
		put(fk, dir, "charge_now", "%ld\n", charge_now_uah);
	class_link(fk, "power_supply", name, dir);
}

void
sf_fake_add_mains(struct sf_fake_kernel *fk, const char *name, bool online)
{
	char dir[PATH_MAX];

	format(dir, sizeof(dir), "sys/devices/LNXSYSTM:00/LNXSYBUS:00/"
	       "ACPI0003:%02x/power_supply/%s", fk->supplies++, name);
	put(fk, dir, "type", "Mains\n");
	put(fk, dir, "online", "%d\n", online ? 1 : 0);
	class_link(fk, "power_supply", name, dir);
}

void
sf_fake_add_i915_debugfs(struct sf_fake_kernel *fk, int card)
{
	char dir[PATH_MAX];

	format(dir, sizeof(dir), "sys/kernel/debug/dri/%d", card);
	put(fk, dir, "i915_edp_psr_status",
	    "Sink support: yes [0x03]\n"
	    "PSR mode: PSR1 enabled\n"
	    "Source PSR ctl: enabled [0x81f00e26]\n"
	    "Source PSR status: SRDENT [0x40040006]\n");
	put(fk, dir, "i915_fbc_status", "FBC enabled\nCompressing: yes\n");
	put(fk, dir, "i915_drrs_status",
	    "[CRTC:80:pipe A]:\n"
	    "DRRS enabled: yes\n"
	    "DRRS active: yes\n"
	    "DRRS refresh rate: low\n"
	    "DRRS busy frontbuffer bits: 0x0\n");
}

/* --- controls --- */

void
sf_fake_set_readonly(struct sf_fake_kernel *fk, const char *relpath)
{
	sf_fake_set_write_error(fk, relpath, EACCES);
}

void
sf_fake_set_write_error(struct sf_fake_kernel *fk, const char *relpath,
			int err)
{
	char path[PATH_MAX], rel[PATH_MAX];

	/* By the real path, as permissions belong to the file, not to the
	 * name it is reached by. */
	if (resolve(fk, join(path, fk->root, relpath), rel))
		format(rel, sizeof(rel), "%s", relpath);
	fk->readonly = xalloc(fk->readonly,
			      (size_t)(fk->n_readonly + 1) * sizeof(char *));
	fk->readonly_err = xalloc(fk->readonly_err,
				  (size_t)(fk->n_readonly + 1) * sizeof(int));
	fk->readonly[fk->n_readonly] = xalloc(NULL, strlen(rel) + 1);
	strcpy(fk->readonly[fk->n_readonly], rel);
	fk->readonly_err[fk->n_readonly++] = err;
}

void
sf_fake_set_eagain(struct sf_fake_kernel *fk, int n)
{
	fk->eagain = n;
}

void
sf_fake_poke(struct sf_fake_kernel *fk, const char *relpath,
	     const char *value)
{
	char path[PATH_MAX], dir[PATH_MAX];
	size_t len = strlen(value);
	char *text = xalloc(NULL, len + 2);

	join(path, fk->root, relpath);
	format(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	make_dirs(dir);
	memcpy(text, value, len + 1);
	if (!len || value[len - 1] != '\n')
		strcpy(text + len, "\n");
	write_file(path, text);
	free(text);
}

char *
sf_fake_read(struct sf_fake_kernel *fk, const char *relpath)
{
	char path[PATH_MAX];
	char *text = read_file(join(path, fk->root, relpath));
	size_t len = text ? strlen(text) : 0;

	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	return text;
}

const char *
sf_fake_journal(const struct sf_fake_kernel *fk)
{
	return fk->journal;
}

void
sf_fake_journal_clear(struct sf_fake_kernel *fk)
{
	fk->journal_len = 0;
	fk->journal[0] = '\0';
}

int
sf_fake_rejections(const struct sf_fake_kernel *fk)
{
	return fk->rejections;
}
