/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf-trace-file.h"

bool
sf_trace_read_file(const char *prog, const char *path,
		   sf_scenario_emit_t emit, void *data)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	bool ok = true, header = false;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return false;
	}
	while (ok && getline(&line, &cap, f) >= 0) {
		struct sf_trace_event ev;
		char err[256];

		lineno++;
		switch (sf_trace_parse_line(line, &ev, err, sizeof(err))) {
		case SF_TRACE_BLANK:
			continue;
		case SF_TRACE_ERROR:
			fprintf(stderr, "%s:%lu: %s\n", path, lineno, err);
			ok = false;
			continue;
		case SF_TRACE_OK:
			break;
		}
		if (!header && ev.type != SF_TRACE_HEADER) {
			fprintf(stderr, "%s:%lu: a trace starts with "
				"\"stillframe-trace %d\"\n", path, lineno,
				SF_TRACE_VERSION);
			ok = false;
			continue;
		}
		header = true;
		if (!emit(data, &ev)) {
			fprintf(stderr, "%s:%lu: event rejected\n", path,
				lineno);
			ok = false;
		}
	}
	if (ok && ferror(f)) {
		fprintf(stderr, "%s: %s: read error\n", prog, path);
		ok = false;
	}
	if (ok && !header) {
		fprintf(stderr, "%s: empty trace\n", path);
		ok = false;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return ok;
}

bool
sf_trace_config_option(struct sf_config *config, const char *assignment,
		       char *err, size_t err_size)
{
	const char *eq = strchr(assignment, '=');
	char key[128];

	if (!eq || eq == assignment ||
	    (size_t)(eq - assignment) >= sizeof(key)) {
		snprintf(err, err_size, "%s: expected KEY=VALUE", assignment);
		return false;
	}
	memcpy(key, assignment, (size_t)(eq - assignment));
	key[eq - assignment] = '\0';
	return sf_config_set(config, SF_CONFIG_NS_INI, key, eq + 1, err,
			     err_size) == SF_CONFIG_OK;
}
