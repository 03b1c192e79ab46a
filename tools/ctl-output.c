/* SPDX-License-Identifier: MIT */
/*
 * stillframectl output [NAME [on|off|auto]]: the outputs' power, or one
 * output powered on or off while connected, or handed back to
 * unneeded-outputs (auto).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ctl-backend.h"
#include "ctl-commands.h"

static const struct sf_ctl_power_row *
find(const struct sf_ctl_power_row *rows, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	return NULL;
}

static int
run(struct sf_ctl_conn *conn, const char *name, bool set,
    enum sf_ctl_power power)
{
	const struct sf_ctl_backend *b = conn->backend;
	struct sf_ctl_power_row *rows = NULL;
	size_t n = 0;
	int ret = b->list_power(conn, &rows, &n);
	const struct sf_ctl_power_row *row;

	if (ret != 0 || !name) {
		for (size_t i = 0; ret == 0 && i < n; i++)
			puts(rows[i].line);
		free(rows);
		return ret;
	}
	if (!(row = find(rows, n, name))) {
		fprintf(stderr, "stillframectl: stillframe manages no output called '%s'; it has:",
			name);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, " %s", rows[i].name);
		fprintf(stderr, "%s\n", b->output_note);
		free(rows);
		return 1;
	}
	if (set)
		ret = b->set_power(conn, row, power);
	if (set && ret == 0) {
		free(rows);
		rows = NULL;
		ret = b->list_power(conn, &rows, &n);
		row = ret == 0 ? find(rows, n, name) : NULL;
		if (ret == 0 && !row) {
			fprintf(stderr, "stillframectl: %s went away\n", name);
			ret = 1;
		}
	}
	if (ret == 0)
		puts(row->line);
	/* auto may rightly leave it either way; on and off must hold. */
	if (ret == 0 && set && power != SF_CTL_POWER_AUTO &&
	    row->powered != (power == SF_CTL_POWER_ON)) {
		fprintf(stderr, "stillframectl: %s is still %s: the %s could not power it %s (its log says why)\n",
			name, row->powered ? "on" : "off", b->server,
			sf_ctl_power_name(power));
		ret = 1;
	}
	free(rows);
	return ret;
}

int
sf_ctl_cmd_output(int argc, char **argv, enum sf_ctl_choice choice)
{
	struct sf_ctl_options o = {
		.command = "output", .takes = "", .choice = &choice,
	};
	enum sf_ctl_power power = SF_CTL_POWER_AUTO;
	const char *name = NULL;
	bool set = false;

	while (sf_ctl_next_option(&o, argc, argv) != -1)
		;
	if (o.status != 0)
		return sf_ctl_options_exit(&o);

	int rest = argc - optind;

	if (rest > 2)
		return sf_ctl_usage_error("output: unexpected argument '%s'",
					  argv[optind + 2]);
	if (rest >= 1)
		name = argv[optind];
	if (rest == 2) {
		const char *w = argv[optind + 1];

		set = true;
		if (strcmp(w, "on") == 0)
			power = SF_CTL_POWER_ON;
		else if (strcmp(w, "off") == 0)
			power = SF_CTL_POWER_OFF;
		else if (strcmp(w, "auto") == 0)
			power = SF_CTL_POWER_AUTO;
		else
			return sf_ctl_usage_error("output: '%s' is not on, off or auto",
						  w);
	}

	struct sf_ctl_conn *conn;
	int ret = sf_ctl_connect(choice, &conn);

	if (ret == 0)
		ret = run(conn, name, set, power);
	sf_ctl_disconnect(conn);
	return ret;
}
