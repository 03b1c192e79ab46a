/* SPDX-License-Identifier: MIT */
/*
 * sf-vm-input: real input for the VM tests.  It creates one uinput
 * device with libevdev, a keyboard and a relative pointer with buttons,
 * which the guest kernel then offers through evdev like any USB mouse
 * and keyboard, and libinput in Weston or Xorg picks it up.  It reads
 * line commands on stdin:
 *
 *	key CODE	press and release an evdev key (30 = KEY_A)
 *	motion DX DY	relative pointer motion
 *	button		press and release BTN_LEFT
 *	sleep MS	wait
 *	ready PATH	create PATH once the device exists (for a test to
 *			wait on)
 *
 * and exits at the end of its input.  A bad line is reported on stderr
 * and skipped.  Exit status: 0, or 1 if the device could not be made
 * (no /dev/uinput, no permission).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>

static void
write_events(struct libevdev_uinput *ui, const struct input_event *ev,
	     size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int rc = libevdev_uinput_write_event(ui, ev[i].type,
						     ev[i].code, ev[i].value);
		if (rc < 0)
			fprintf(stderr, "sf-vm-input: write: %s\n",
				strerror(-rc));
	}
}

static void
press_release(struct libevdev_uinput *ui, unsigned int code)
{
	const struct input_event ev[] = {
		{ .type = EV_KEY, .code = (__u16)code, .value = 1 },
		{ .type = EV_SYN, .code = SYN_REPORT, .value = 0 },
		{ .type = EV_KEY, .code = (__u16)code, .value = 0 },
		{ .type = EV_SYN, .code = SYN_REPORT, .value = 0 },
	};

	write_events(ui, ev, sizeof(ev) / sizeof(ev[0]));
}

static void
motion(struct libevdev_uinput *ui, int dx, int dy)
{
	const struct input_event ev[] = {
		{ .type = EV_REL, .code = REL_X, .value = dx },
		{ .type = EV_REL, .code = REL_Y, .value = dy },
		{ .type = EV_SYN, .code = SYN_REPORT, .value = 0 },
	};

	write_events(ui, ev, sizeof(ev) / sizeof(ev[0]));
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static bool
parse_int(const char *s, long min, long max, long *out)
{
	char *end;

	if (!s)
		return false;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static struct libevdev_uinput *
device_create(void)
{
	struct libevdev *dev = libevdev_new();
	struct libevdev_uinput *ui = NULL;

	if (!dev)
		return NULL;
	libevdev_set_name(dev, "stillframe VM test input");
	libevdev_enable_event_type(dev, EV_REL);
	libevdev_enable_event_code(dev, EV_REL, REL_X, NULL);
	libevdev_enable_event_code(dev, EV_REL, REL_Y, NULL);
	libevdev_enable_event_type(dev, EV_KEY);
	libevdev_enable_event_code(dev, EV_KEY, BTN_LEFT, NULL);
	libevdev_enable_event_code(dev, EV_KEY, BTN_RIGHT, NULL);
	/* The keyboard part: every key up to KEY_MICMUTE, so any test key
	 * code is accepted and libinput sees a full keyboard. */
	for (unsigned int code = KEY_ESC; code <= KEY_MICMUTE; code++)
		libevdev_enable_event_code(dev, EV_KEY, code, NULL);

	int rc = libevdev_uinput_create_from_device(
		dev, LIBEVDEV_UINPUT_OPEN_MANAGED, &ui);
	libevdev_free(dev);
	if (rc < 0) {
		fprintf(stderr, "sf-vm-input: cannot create a uinput device "
			"(/dev/uinput: %s)\n", strerror(-rc));
		return NULL;
	}
	return ui;
}

int
main(void)
{
	struct libevdev_uinput *ui = device_create();
	char line[256];

	if (!ui)
		return 1;
	fprintf(stderr, "sf-vm-input: %s\n",
		libevdev_uinput_get_devnode(ui) ?
			libevdev_uinput_get_devnode(ui) : "(no node yet)");
	while (fgets(line, sizeof(line), stdin)) {
		char *save = NULL;
		char *cmd = strtok_r(line, " \t\r\n", &save);
		char *a = cmd ? strtok_r(NULL, " \t\r\n", &save) : NULL;
		char *b = a ? strtok_r(NULL, " \t\r\n", &save) : NULL;
		long x, y;

		if (!cmd)
			continue;
		if (strcmp(cmd, "key") == 0 && parse_int(a, 1, KEY_MAX, &x)) {
			press_release(ui, (unsigned int)x);
		} else if (strcmp(cmd, "button") == 0) {
			press_release(ui, BTN_LEFT);
		} else if (strcmp(cmd, "motion") == 0 &&
			   parse_int(a, -10000, 10000, &x) &&
			   parse_int(b, -10000, 10000, &y)) {
			motion(ui, (int)x, (int)y);
		} else if (strcmp(cmd, "sleep") == 0 &&
			   parse_int(a, 0, 600000, &x)) {
			sleep_ms(x);
		} else if (strcmp(cmd, "ready") == 0 && a) {
			int fd = open(a, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd >= 0)
				close(fd);
			else
				fprintf(stderr, "sf-vm-input: %s: %s\n", a,
					strerror(errno));
		} else {
			fprintf(stderr, "sf-vm-input: bad command: %s (key "
				"CODE | motion DX DY | button | sleep MS | "
				"ready PATH)\n", cmd);
		}
	}
	libevdev_uinput_destroy(ui);
	return 0;
}
