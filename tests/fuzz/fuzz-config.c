/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the option parser both adapters hand their raw
 * strings to (sf_config_set), in both namespaces.  The input is text:
 * "key=value" lines go in as weston.ini keys, 'Option "Name" "Value"'
 * lines as xorg.conf options; a leading '#' is dropped so that the
 * commented example files in doc/examples/ are useful seeds.  Whatever
 * is accepted must format back to a value that is accepted again and
 * formats the same: what status prints is what the user can write.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sf-config.h"
#include "sf-governor.h"
#include "sf-selector.h"
#include "sf-suppress.h"
#include "sf-energy.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LINE_MAX_LEN 1024

static void
check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz-config: %s\n", what);
		abort();
	}
}

/* Copies the next quoted string at `*p` into `out`; false if none. */
static bool
next_quoted(const char **p, char *out, size_t size)
{
	const char *s = strchr(*p, '"');
	if (!s)
		return false;
	const char *e = strchr(s + 1, '"');
	if (!e)
		e = s + 1 + strlen(s + 1);
	size_t len = (size_t)(e - s - 1);
	if (len >= size)
		len = size - 1;
	memcpy(out, s + 1, len);
	out[len] = '\0';
	*p = *e ? e + 1 : e;
	return true;
}

static void
set_and_check(struct sf_config *cfg, enum sf_config_namespace ns,
	      const char *name, const char *value)
{
	char err[512];
	char before[SF_CONFIG_STRING_MAX + 64];
	char after[SF_CONFIG_STRING_MAX + 64];
	const struct sf_option *opt = sf_config_find(ns, name);

	if (opt)
		sf_config_format_value(cfg, opt, before, sizeof(before));
	enum sf_config_status st = sf_config_set(cfg, ns, name, value, err,
						 sizeof(err));
	check(st >= SF_CONFIG_OK && st <= SF_CONFIG_OUT_OF_RANGE,
	      "status out of range");
	if (st != SF_CONFIG_OK) {
		check(err[0] != '\0', "an error without a message");
		if (opt) {
			/* A refused value leaves the option alone. */
			sf_config_format_value(cfg, opt, after, sizeof(after));
			check(strcmp(before, after) == 0,
			      "a refused value changed the option");
		}
		return;
	}
	check(opt != NULL, "an unknown key was accepted");

	/* Round trip: the formatted value is accepted and is stable. */
	sf_config_format_value(cfg, opt, before, sizeof(before));
	st = sf_config_set(cfg, ns, name, before, err, sizeof(err));
	if (st != SF_CONFIG_OK) {
		fprintf(stderr, "fuzz-config: %s=%s: %s\n", name, before,
			err);
		abort();
	}
	sf_config_format_value(cfg, opt, after, sizeof(after));
	check(strcmp(before, after) == 0, "formatted value not stable");
}

static void
parse_line(struct sf_config *cfg, char *line)
{
	char name[LINE_MAX_LEN], value[LINE_MAX_LEN];

	while (*line == '#' || *line == ' ' || *line == '\t')
		line++;
	if (strncmp(line, "Option", 6) == 0) {
		const char *p = line + 6;
		if (next_quoted(&p, name, sizeof(name)) &&
		    next_quoted(&p, value, sizeof(value)))
			set_and_check(cfg, SF_CONFIG_NS_XORG, name, value);
		return;
	}
	char *eq = strchr(line, '=');
	if (!eq)
		return;
	*eq = '\0';
	set_and_check(cfg, SF_CONFIG_NS_INI, line, eq + 1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sf_config cfg;
	char line[LINE_MAX_LEN];
	size_t len = 0;

	sf_config_init_defaults(&cfg);
	for (size_t i = 0; i <= size; i++) {
		if (i < size && data[i] != '\n' && data[i] != '\0') {
			if (len < sizeof(line) - 1)
				line[len++] = (char)data[i];
			continue;
		}
		line[len] = '\0';
		parse_line(&cfg, line);
		len = 0;
	}

	/* Whatever was set, the derived parameters and queries work. */
	struct sf_governor_params gov;
	struct sf_selector_params sel;
	struct sf_suppress_params sup;
	struct sf_energy_params energy;
	sf_config_governor_params(&cfg, SF_OUTPUT_KIND_INTERNAL, &gov);
	sf_config_governor_params(&cfg, SF_OUTPUT_KIND_EXTERNAL, &gov);
	sf_config_selector_params(&cfg, &sel);
	sf_config_suppress_params(&cfg, &sup);
	sf_config_energy_params(&cfg, &energy);
	sf_config_output_selected(&cfg, "eDP-1", true);
	sf_config_output_selected(&cfg, NULL, false);
	sf_config_output_unneeded(&cfg, "HDMI-A-1", SF_OUTPUT_KIND_EXTERNAL);
	sf_config_app_priority(&cfg, "foot", NULL);
	sf_config_app_priority(&cfg, "xterm", "XTerm");
	return 0;
}
