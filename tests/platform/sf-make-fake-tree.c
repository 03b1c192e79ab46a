/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE at the hardware boundary, for the integration tests: makes
 * a fake sysfs tree (fake-kernel.c) with an i915 GPU whose user runs it
 * at 400-1100 MHz (RPn 300), an internal panel eDP-1 lit, and a raw
 * backlight at 800 of 1000, and prints its directory.  The tree stays;
 * the caller removes it.
 *
 * With --battery STATUS it also has an ACPI battery BAT0 in that status
 * ("Discharging", "Charging", "Full") drawing 10 W at 12 V with 40 Wh
 * left, whose power_now the tests then write as the power they want
 * stillframectl measure to see.  A Weston or Xorg pointed at it (platform-root)
 * writes its files as plain files, without the kernel's rules.
 */
#include <stdio.h>
#include <string.h>

#include "fake-kernel.h"

int
main(int argc, char **argv)
{
	const char *battery = NULL;

	if (argc == 3 && strcmp(argv[1], "--battery") == 0) {
		battery = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "usage: sf-make-fake-tree [--battery STATUS]\n");
		return 2;
	}

	struct sf_fake_kernel *fk = sf_fake_kernel_create();

	if (!fk) {
		fprintf(stderr, "sf-make-fake-tree: cannot make a tree\n");
		return 1;
	}
	sf_fake_add_i915(fk, 0, 300, 700, 1100);
	sf_fake_poke(fk, "sys/class/drm/card0/gt_min_freq_mhz", "400");
	sf_fake_add_connector(fk, 0, "eDP-1", true);
	sf_fake_add_backlight(fk, "intel_backlight", "raw", 1000, 800);
	if (battery)
		sf_fake_add_battery(fk, "BAT0", battery, 10000000, -1,
				    12000000, 40000000, -1);
	puts(sf_fake_kernel_root(fk));
	return 0;	/* not destroyed: that would remove the tree */
}
