/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>

#include "config.h"
#include "stillframe-control-v1-client-protocol.h"
#include "stillframe-v1-client-protocol.h"	/* the priority enum */
#include "stillframectl-x.h"
#include "stillframectl-fbc.h"
#include "stillframectl-measure.h"
#include "stillframectl-platform.h"
#include "stillframectl-timeline.h"
#include "stillframectl-trace.h"

/* stillframectl: looks at and steers the stillframe plugin of a running
 * Weston through stillframe_control_v1, or the Xorg module through the
 * STILLFRAME extension (stillframectl-x.c). */

_Static_assert((int)SF_CTL_PRIORITY_NORMAL ==
	       (int)STILLFRAME_SURFACE_V1_PRIORITY_NORMAL &&
	       (int)SF_CTL_PRIORITY_ESSENTIAL ==
	       (int)STILLFRAME_SURFACE_V1_PRIORITY_ESSENTIAL &&
	       (int)SF_CTL_PRIORITY_BACKGROUND ==
	       (int)STILLFRAME_SURFACE_V1_PRIORITY_BACKGROUND,
	       "--priority is numbered as stillframe_surface_v1 does");


#define EXIT_USAGE 2

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: stillframectl [--help | --version] [--x11 | --wayland]\n"
		"                     COMMAND [ARGS]\n"
		"Looks at and steers stillframe inside the Wayland compositor of\n"
		"$WAYLAND_DISPLAY, or the X server of $DISPLAY when only DISPLAY\n"
		"is set (--x11 and --wayland choose).\n"
		"\n"
		"commands:\n"
		"  status [--json]        print the status counters\n"
		"  status --prom FILE     write them to FILE as a Prometheus\n"
		"                         node_exporter textfile, atomically (Weston)\n"
		"  top [--interval S] [--count N] [--all] [--json]\n"
		"                         print each surface's wakeups per second\n"
		"                         every S seconds (default 1), N times\n"
		"  pause                  put back the user's settings and stop acting\n"
		"  resume                 act again\n"
		"  hint SURFACE-ID [--rate NUM[/DEN]] [--range MIN-MAX]\n"
		"       [--priority normal|essential|background]\n"
		"                         set a surface's hints (refresh in Hz);\n"
		"                         hints not given are withdrawn\n"
		"  hint SURFACE-ID --clear\n"
		"                         withdraw every hint of the surface\n"
		"  output [NAME [on|off|auto]]\n"
		"                         show the outputs' power, or power one on\n"
		"                         or off while connected, or hand it back\n"
		"                         to unneeded-outputs (auto)\n"
		"  platform [--root DIR] [--try SECONDS] [--nouveau] [--verbose]\n"
		"                         print the GPUs, panels, backlight and battery\n"
		"                         found here and what low clocks would write;\n"
		"                         --try lowers them for a while and measures\n"
		"  restore [--root DIR]   put back what a stillframe that died left in\n"
		"                         its state file\n"
		"  trace --for SECONDS -o FILE\n"
		"                         record what stillframe sees as a trace\n"
		"                         for stillframe-replay (- for stdout)\n"
		"  fbc [--refresh HZ] [--json] IMAGE\n"
		"                         estimate how well a wallpaper or screenshot\n"
		"                         (PNG or PPM) compresses in the framebuffer\n"
		"  timeline TRACE -o FILE.svg [--option KEY=VALUE] [--title TEXT]\n"
		"                         replay a trace through the policy core and\n"
		"                         draw refresh, idle state, repaints, DPMS,\n"
		"                         GPU clocks and input over time\n"
		"  measure --for SECONDS [--interval S] [--force] [--json]\n"
		"          [--root DIR]   the battery's mean power over SECONDS\n"
		"  measure --ab --for SECONDS [--window S] [--settle S] ...\n"
		"                         stillframe paused and running in turns:\n"
		"                         the difference, with a 95%% confidence\n"
		"                         interval (see 'measure --help')\n"
		"On X11, hint takes a WINDOW (0x40000c or decimal) instead of a\n"
		"SURFACE-ID, and the server takes hints only from the window's\n"
		"own client.  platform, restore, fbc and timeline need neither,\n"
		"nor does measure without --ab.\n");
}

static int
usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("stillframectl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'stillframectl --help'.\n", stderr);
	return EXIT_USAGE;
}

int
sf_ctl_command_usage_error(const char *command, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "stillframectl: %s: ", command);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'stillframectl %s --help'.\n", command);
	return EXIT_USAGE;
}

/* --- what libwayland says --- */

/* libwayland-client reports errors through its log handler; keep the
 * last message for our own, single, error line instead. */
static char wayland_message[512];

static void
wayland_log(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

static void
wayland_log(const char *fmt, va_list ap)
{
	vsnprintf(wayland_message, sizeof(wayland_message), fmt, ap);
	size_t len = strlen(wayland_message);

	while (len && wayland_message[len - 1] == '\n')
		wayland_message[--len] = '\0';
}

void
sf_ctl_wayland_log_capture(void)
{
	wl_log_set_handler_client(wayland_log);
}

const char *
sf_ctl_wayland_message(void)
{
	return wayland_message;
}

/* --- the connection --- */

struct ctl {
	const char *socket;		/* for messages */
	struct wl_display *display;
	struct wl_registry *registry;
	struct stillframe_control_v1 *control;
	bool paused;
	bool have_paused;
	uint32_t hint_surface;		/* for an unknown_surface error */
	uint32_t control_version;	/* as bound */
};

static void
control_handle_paused(void *data, struct stillframe_control_v1 *control,
		      uint32_t paused)
{
	struct ctl *ctl = data;

	ctl->paused = paused != 0;
	ctl->have_paused = true;
}

static const struct stillframe_control_v1_listener control_listener = {
	.paused = control_handle_paused,
};

static void
registry_handle_global(void *data, struct wl_registry *registry,
		       uint32_t name, const char *interface, uint32_t version)
{
	struct ctl *ctl = data;

	if (ctl->control ||
	    strcmp(interface, stillframe_control_v1_interface.name) != 0)
		return;
	/* 2 has set_output_power, 3 get_status_prometheus, 4
	 * record_trace; an older plugin offers less. */
	ctl->control_version = version < 4 ? version : 4;
	ctl->control = wl_registry_bind(registry, name,
					&stillframe_control_v1_interface,
					ctl->control_version);
	stillframe_control_v1_add_listener(ctl->control, &control_listener,
					   ctl);
}

static void
registry_handle_global_remove(void *data, struct wl_registry *registry,
			      uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_handle_global,
	.global_remove = registry_handle_global_remove,
};

/* After a failed dispatch: says why, returns the exit status. */
static int
connection_error(struct ctl *ctl)
{
	int err = wl_display_get_error(ctl->display);

	if (err != EPROTO) {
		fprintf(stderr,
			"stillframectl: lost the connection to the compositor at %s: %s\n",
			ctl->socket, strerror(err));
		return 1;
	}

	const struct wl_interface *interface = NULL;
	uint32_t id = 0;
	uint32_t code = wl_display_get_protocol_error(ctl->display, &interface,
						      &id);

	if (interface == &stillframe_control_v1_interface &&
	    code == STILLFRAME_CONTROL_V1_ERROR_UNKNOWN_SURFACE) {
		fprintf(stderr,
			"stillframectl: no tracked surface has id %u (see 'stillframectl status')\n",
			ctl->hint_surface);
		return 1;
	}
	fprintf(stderr, "stillframectl: the compositor refused a request");
	if (wayland_message[0])
		fprintf(stderr, ": %s", wayland_message);
	else
		fprintf(stderr, ": error %u on %s@%u", code,
			interface ? interface->name : "?", id);
	fputc('\n', stderr);
	return 1;
}

static int
ctl_connect(struct ctl *ctl)
{
	const char *name = getenv("WAYLAND_DISPLAY");

	*ctl = (struct ctl){ .socket = name ? name : "wayland-0" };
	sf_ctl_wayland_log_capture();
	ctl->display = wl_display_connect(NULL);
	if (!ctl->display) {
		int err = errno;

		fprintf(stderr,
			"stillframectl: no Wayland compositor at %s%s: %s\n",
			ctl->socket,
			name ? "" : " (WAYLAND_DISPLAY is not set)",
			wayland_message[0] ? wayland_message : strerror(err));
		return 1;
	}
	ctl->registry = wl_display_get_registry(ctl->display);
	wl_registry_add_listener(ctl->registry, &registry_listener, ctl);
	/* The first round trip lists the globals, the second brings the
	 * paused event sent on bind. */
	if (wl_display_roundtrip(ctl->display) < 0)
		return connection_error(ctl);
	if (!ctl->control) {
		fprintf(stderr,
			"stillframectl: the compositor at %s does not offer stillframe_control_v1: "
			"is weston running with modules=stillframe.so? "
			"(It is offered only to the compositor's own user.)\n",
			ctl->socket);
		return 1;
	}
	if (wl_display_roundtrip(ctl->display) < 0)
		return connection_error(ctl);
	return 0;
}

static void
ctl_disconnect(struct ctl *ctl)
{
	if (ctl->control)
		stillframe_control_v1_destroy(ctl->control);
	if (ctl->registry)
		wl_registry_destroy(ctl->registry);
	if (ctl->display) {
		wl_display_flush(ctl->display);
		wl_display_disconnect(ctl->display);
	}
}

/* --- a status report --- */

struct pair {
	char *key;
	char *value;
};

struct pairs {
	struct pair *v;
	size_t n, cap;
};

struct surface_entry {
	uint32_t id;
	struct pairs fields;
};

struct status {
	char **lines;
	size_t n_lines, cap_lines;
	bool done;
	bool out_of_memory;

	struct pairs flat;		/* every line but the surfaces' */
	struct surface_entry *surfaces;
	size_t n_surfaces, cap_surfaces;
};

static bool
grow(void **array, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return true;

	size_t new_cap = *cap ? *cap * 2 : 16;
	void *p = realloc(*array, new_cap * size);

	if (!p)
		return false;
	*array = p;
	*cap = new_cap;
	return true;
}

static bool
pairs_add(struct pairs *pairs, const char *key, size_t key_len,
	  const char *value, size_t value_len)
{
	if (!grow((void **)&pairs->v, &pairs->cap, pairs->n,
		  sizeof(*pairs->v)))
		return false;

	struct pair *pair = &pairs->v[pairs->n];

	pair->key = strndup(key, key_len);
	pair->value = strndup(value, value_len);
	if (!pair->key || !pair->value) {
		free(pair->key);
		free(pair->value);
		return false;
	}
	pairs->n++;
	return true;
}

static const char *
pairs_get(const struct pairs *pairs, const char *key)
{
	for (size_t i = 0; i < pairs->n; i++)
		if (strcmp(pairs->v[i].key, key) == 0)
			return pairs->v[i].value;
	return NULL;
}

static void
pairs_free(struct pairs *pairs)
{
	for (size_t i = 0; i < pairs->n; i++) {
		free(pairs->v[i].key);
		free(pairs->v[i].value);
	}
	free(pairs->v);
	*pairs = (struct pairs){ 0 };
}

static void
status_free(struct status *st)
{
	for (size_t i = 0; i < st->n_lines; i++)
		free(st->lines[i]);
	free(st->lines);
	pairs_free(&st->flat);
	for (size_t i = 0; i < st->n_surfaces; i++)
		pairs_free(&st->surfaces[i].fields);
	free(st->surfaces);
	*st = (struct status){ 0 };
}

static struct surface_entry *
status_surface(struct status *st, uint32_t id)
{
	for (size_t i = 0; i < st->n_surfaces; i++)
		if (st->surfaces[i].id == id)
			return &st->surfaces[i];
	if (!grow((void **)&st->surfaces, &st->cap_surfaces, st->n_surfaces,
		  sizeof(*st->surfaces)))
		return NULL;

	struct surface_entry *entry = &st->surfaces[st->n_surfaces++];

	*entry = (struct surface_entry){ .id = id };
	return entry;
}

/* "surface.N" gives 1, "surface.N.sub" gives 2 with *sub set, anything
 * else 0. */
static int
parse_surface_key(const char *key, uint32_t *id, const char **sub)
{
	static const char prefix[] = "surface.";
	const char *p = key + sizeof(prefix) - 1;
	uint64_t value = 0;

	if (strncmp(key, prefix, sizeof(prefix) - 1) != 0 ||
	    *p < '0' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		value = value * 10 + (uint64_t)(*p - '0');
		if (value > UINT32_MAX)
			return 0;
	}
	*id = (uint32_t)value;
	if (*p == '\0')
		return 1;
	if (*p == '.' && p[1] != '\0') {
		*sub = p + 1;
		return 2;
	}
	return 0;
}

/* "class=static commits=3 ... label=some text": label takes the rest of
 * the line, as it may hold spaces. */
static bool
parse_surface_fields(struct pairs *fields, const char *value)
{
	const char *p = value;

	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (strncmp(p, "label=", 6) == 0)
			return pairs_add(fields, "label", 5, p + 6,
					 strlen(p + 6));

		const char *end = strchr(p, ' ');
		const char *eq = memchr(p, '=', end ? (size_t)(end - p)
						    : strlen(p));

		if (!end)
			end = p + strlen(p);
		if (eq && !pairs_add(fields, p, (size_t)(eq - p), eq + 1,
				     (size_t)(end - eq - 1)))
			return false;
		p = end;
	}
	return true;
}

static bool
status_parse_line(struct status *st, const char *line)
{
	const char *space = strchr(line, ' ');
	size_t key_len = space ? (size_t)(space - line) : strlen(line);
	const char *value = space ? space + 1 : "";
	char *key = strndup(line, key_len);
	const char *sub = NULL;
	uint32_t id;
	bool ok = true;

	if (!key)
		return false;
	switch (parse_surface_key(key, &id, &sub)) {
	case 1: {
		struct surface_entry *entry = status_surface(st, id);

		ok = entry && parse_surface_fields(&entry->fields, value);
		break;
	}
	case 2: {
		struct surface_entry *entry = status_surface(st, id);

		ok = entry && pairs_add(&entry->fields, sub, strlen(sub),
					value, strlen(value));
		break;
	}
	default:
		ok = pairs_add(&st->flat, key, key_len, value, strlen(value));
		break;
	}
	free(key);
	return ok;
}

static void
status_handle_line(void *data, struct stillframe_status_v1 *status,
		   const char *text)
{
	struct status *st = data;
	char *line = strdup(text);

	if (!line || !grow((void **)&st->lines, &st->cap_lines, st->n_lines,
			   sizeof(*st->lines))) {
		free(line);
		st->out_of_memory = true;
		return;
	}
	st->lines[st->n_lines++] = line;
}

static void
status_handle_done(void *data, struct stillframe_status_v1 *status)
{
	struct status *st = data;

	st->done = true;
	stillframe_status_v1_destroy(status);
}

static const struct stillframe_status_v1_listener status_listener = {
	.line = status_handle_line,
	.done = status_handle_done,
};

/* The report's lines, as they came. */
static int
fetch_lines(struct ctl *ctl, struct stillframe_status_v1 *status,
	    struct status *st)
{
	*st = (struct status){ 0 };
	stillframe_status_v1_add_listener(status, &status_listener, st);
	while (!st->done)
		if (wl_display_dispatch(ctl->display) < 0)
			return connection_error(ctl);
	return 0;
}

static int
fetch_status(struct ctl *ctl, struct status *st)
{
	int ret = fetch_lines(ctl, stillframe_control_v1_get_status(ctl->control),
			      st);

	if (ret != 0)
		return ret;
	for (size_t i = 0; i < st->n_lines && !st->out_of_memory; i++)
		if (!status_parse_line(st, st->lines[i]))
			st->out_of_memory = true;
	if (st->out_of_memory) {
		fprintf(stderr, "stillframectl: out of memory\n");
		return 1;
	}
	return 0;
}

/* --- JSON --- */

void
sf_ctl_json_string(const char *s)
{
	putchar('"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", stdout); break;
		case '\\': fputs("\\\\", stdout); break;
		case '\n': fputs("\\n", stdout); break;
		case '\t': fputs("\\t", stdout); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				printf("\\u%04x", *p);
			else
				putchar(*p);
			break;
		}
	}
	putchar('"');
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A JSON number, exactly as the grammar has it (so no "007", "inf"). */
static bool
is_json_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (is_digit(*s))
		while (is_digit(*s))
			s++;
	else
		return false;
	if (*s == '.') {
		s++;
		if (!is_digit(*s))
			return false;
		while (is_digit(*s))
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!is_digit(*s))
			return false;
		while (is_digit(*s))
			s++;
	}
	return *s == '\0';
}

/* Numbers and booleans stay what they are; labels are always text. */
static void
json_value(const char *key, const char *value)
{
	bool text = strcmp(key, "label") == 0;

	if (!text && (is_json_number(value) || strcmp(value, "true") == 0 ||
		      strcmp(value, "false") == 0))
		fputs(value, stdout);
	else
		sf_ctl_json_string(value);
}

static void
json_members(const struct pairs *pairs, bool *first)
{
	for (size_t i = 0; i < pairs->n; i++) {
		if (!*first)
			fputs(", ", stdout);
		*first = false;
		sf_ctl_json_string(pairs->v[i].key);
		fputs(": ", stdout);
		json_value(pairs->v[i].key, pairs->v[i].value);
	}
}

static void
print_status_json(const struct status *st)
{
	bool first = true;

	putchar('{');
	json_members(&st->flat, &first);
	if (!first)
		fputs(", ", stdout);
	fputs("\"surfaces\": [", stdout);
	for (size_t i = 0; i < st->n_surfaces; i++) {
		const struct surface_entry *entry = &st->surfaces[i];
		bool first_field = false;

		printf("%s{\"id\": %u", i ? ", " : "", entry->id);
		json_members(&entry->fields, &first_field);
		putchar('}');
	}
	fputs("]}\n", stdout);
}

/* --- commands --- */

static int
cmd_status(struct ctl *ctl, bool json)
{
	struct status st;
	int ret = fetch_status(ctl, &st);

	if (ret == 0) {
		if (json)
			print_status_json(&st);
		else
			for (size_t i = 0; i < st.n_lines; i++)
				puts(st.lines[i]);
	}
	status_free(&st);
	return ret;
}

int
sf_ctl_output_file_open(struct sf_ctl_output_file *of, const char *path,
			const char *what, bool allow_stdout)
{
	*of = (struct sf_ctl_output_file){ .path = path, .what = what };
	if (allow_stdout && strcmp(path, "-") == 0) {
		of->f = stdout;
		return 0;
	}

	size_t len = strlen(path) + 32;

	of->tmp = malloc(len);
	if (!of->tmp) {
		fprintf(stderr, "stillframectl: out of memory\n");
		return 1;
	}
	snprintf(of->tmp, len, "%s.tmp.%ld", path, (long)getpid());
	of->f = fopen(of->tmp, "w");
	if (!of->f) {
		fprintf(stderr, "stillframectl: %s: cannot create %s: %s\n",
			what, of->tmp, strerror(errno));
		free(of->tmp);
		of->tmp = NULL;
		return 1;
	}
	return 0;
}

int
sf_ctl_output_file_close(struct sf_ctl_output_file *of, bool keep)
{
	const char *name = of->tmp ? of->tmp : "standard output";
	int ret = 0;

	if (!of->f)
		return 1;
	bool written = fflush(of->f) == 0 && !ferror(of->f) &&
		       (!of->tmp || fsync(fileno(of->f)) == 0);
	if ((of->tmp && fclose(of->f) != 0) || !written) {
		fprintf(stderr, "stillframectl: %s: cannot write %s: %s\n",
			of->what, name, strerror(errno));
		ret = 1;
	}
	of->f = NULL;
	if (!of->tmp)
		return ret;
	if (keep && ret == 0 && rename(of->tmp, of->path) != 0) {
		fprintf(stderr, "stillframectl: %s: cannot rename %s to %s: %s\n",
			of->what, of->tmp, of->path, strerror(errno));
		ret = 1;
	}
	if (!keep || ret != 0)
		unlink(of->tmp);
	free(of->tmp);
	of->tmp = NULL;
	return ret;
}

/* Written next to FILE and renamed over it, so that node_exporter's
 * textfile collector never reads half a file. */
static int
write_prometheus_file(const char *path, const struct status *st)
{
	struct sf_ctl_output_file of;

	if (sf_ctl_output_file_open(&of, path, "status --prom", false) != 0)
		return 1;
	for (size_t i = 0; i < st->n_lines; i++)
		fprintf(of.f, "%s\n", st->lines[i]);
	return sf_ctl_output_file_close(&of, true);
}

static int
cmd_status_prometheus(struct ctl *ctl, const char *path)
{
	struct status st;

	if (ctl->control_version < 3) {
		fprintf(stderr, "stillframectl: the compositor's stillframe is too old for --prom (stillframe_control_v1 version %u; --prom needs 3)\n",
			ctl->control_version);
		return 1;
	}

	int ret = fetch_lines(ctl, stillframe_control_v1_get_status_prometheus(
					   ctl->control), &st);

	if (ret == 0 && st.out_of_memory) {
		fprintf(stderr, "stillframectl: out of memory\n");
		ret = 1;
	}
	if (ret == 0)
		ret = write_prometheus_file(path, &st);
	status_free(&st);
	return ret;
}

/* --- trace --- */

struct wl_trace {
	struct ctl *ctl;
	struct stillframe_trace_v1 *trace;
	FILE *out;
	struct sf_ctl_trace_progress *progress;
	bool refused;
	char refusal[256];
};

static void
trace_handle_text(void *data, struct stillframe_trace_v1 *trace,
		  const char *text)
{
	struct wl_trace *wt = data;

	if (wt->out)
		fputs(text, wt->out);
}

static void
trace_handle_read_done(void *data, struct stillframe_trace_v1 *trace,
		       uint32_t events, uint32_t dropped, uint32_t pending,
		       uint32_t finished)
{
	struct wl_trace *wt = data;

	if (!wt->progress)
		return;
	wt->progress->events = events;
	wt->progress->dropped = dropped;
	wt->progress->finished = finished != 0;
}

static void
trace_handle_refused(void *data, struct stillframe_trace_v1 *trace,
		     uint32_t reason, const char *message)
{
	struct wl_trace *wt = data;

	wt->refused = true;
	snprintf(wt->refusal, sizeof(wt->refusal), "%s", message);
}

static const struct stillframe_trace_v1_listener trace_listener = {
	.text = trace_handle_text,
	.read_done = trace_handle_read_done,
	.refused = trace_handle_refused,
};

static int
wl_trace_start(void *data)
{
	struct wl_trace *wt = data;
	struct ctl *ctl = wt->ctl;

	if (ctl->control_version < 4) {
		fprintf(stderr, "stillframectl: the compositor's stillframe is too old for trace (stillframe_control_v1 version %u; trace needs 4)\n",
			ctl->control_version);
		return 1;
	}
	wt->trace = stillframe_control_v1_record_trace(ctl->control);
	stillframe_trace_v1_add_listener(wt->trace, &trace_listener, wt);
	if (wl_display_roundtrip(ctl->display) < 0)
		return connection_error(ctl);
	if (wt->refused) {
		fprintf(stderr, "stillframectl: trace: the compositor does not record: %s\n",
			wt->refusal);
		return 1;
	}
	return 0;
}

static int
wl_trace_read(void *data, FILE *out, struct sf_ctl_trace_progress *progress)
{
	struct wl_trace *wt = data;

	wt->out = out;
	wt->progress = progress;
	stillframe_trace_v1_read(wt->trace);
	/* The text and read_done come before the round trip's answer. */
	if (wl_display_roundtrip(wt->ctl->display) < 0)
		return connection_error(wt->ctl);
	return 0;
}

static int
wl_trace_stop(void *data)
{
	struct wl_trace *wt = data;

	stillframe_trace_v1_stop(wt->trace);
	return 0;
}

static const struct sf_ctl_trace_backend wl_trace_backend = {
	.start = wl_trace_start,
	.read = wl_trace_read,
	.stop = wl_trace_stop,
};

static int
cmd_trace(struct ctl *ctl, double seconds, const char *path)
{
	struct wl_trace wt = { .ctl = ctl };
	int ret = sf_ctl_trace_run(&wl_trace_backend, &wt, seconds, path);

	if (wt.trace)
		stillframe_trace_v1_destroy(wt.trace);
	return ret;
}

struct top_row {
	uint32_t id;
	double commits, held, throttled;	/* per second */
	const char *cls;
	const char *label;
};

static uint64_t
field_u64(const struct surface_entry *entry, const char *key)
{
	const char *value = pairs_get(&entry->fields, key);

	return value ? strtoull(value, NULL, 10) : 0;
}

/* A counter's growth; a surface that is new (or an id that was reused,
 * so the counter went down) counts from 0. */
static double
rate(uint64_t now, uint64_t before, bool have_before, double seconds)
{
	uint64_t delta = have_before && now >= before ? now - before : now;

	return (double)delta / seconds;
}

static int
compare_rows(const void *a, const void *b)
{
	const struct top_row *ra = a, *rb = b;

	if (ra->commits != rb->commits)
		return ra->commits < rb->commits ? 1 : -1;
	return ra->id < rb->id ? -1 : ra->id > rb->id;
}

double
sf_ctl_monotonic_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
sf_ctl_sleep_seconds(double seconds)
{
	struct timespec ts = {
		.tv_sec = (time_t)seconds,
		.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9),
	};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* One output's line of `top`: its state and how often it painted. */
struct top_output {
	char name[128];
	const char *state;
	double refresh_hz;
	double repaints, suppressed;	/* per second */
};

static void
print_top(const struct top_output *outputs, size_t n_outputs,
	  const struct top_row *rows, size_t n, double elapsed,
	  double since_start, bool json, bool all)
{
	if (json) {
		printf("{\"time_s\": %.3f, \"interval_s\": %.3f, \"outputs\": [",
		       since_start, elapsed);
		for (size_t i = 0; i < n_outputs; i++) {
			printf("%s{\"name\": ", i ? ", " : "");
			sf_ctl_json_string(outputs[i].name);
			fputs(", \"state\": ", stdout);
			sf_ctl_json_string(outputs[i].state);
			printf(", \"refresh_hz\": %.3f, \"repaints_per_s\": %.2f, "
			       "\"suppressed_per_s\": %.2f}",
			       outputs[i].refresh_hz, outputs[i].repaints,
			       outputs[i].suppressed);
		}
		fputs("], \"surfaces\": [", stdout);
		for (size_t i = 0; i < n; i++) {
			printf("%s{\"id\": %u, \"commits_per_s\": %.2f, "
			       "\"held_per_s\": %.2f, \"throttled_per_s\": %.2f, "
			       "\"class\": ",
			       i ? ", " : "", rows[i].id, rows[i].commits,
			       rows[i].held, rows[i].throttled);
			sf_ctl_json_string(rows[i].cls);
			fputs(", \"label\": ", stdout);
			sf_ctl_json_string(rows[i].label);
			putchar('}');
		}
		fputs("]}\n", stdout);
		fflush(stdout);
		return;
	}

	printf("%-12s %-12s %9s %10s %12s   at %.0f s\n", "output", "state",
	       "refresh", "repaints/s", "suppressed/s", since_start);
	for (size_t i = 0; i < n_outputs; i++)
		printf("%-12s %-12s %6.2f Hz %10.1f %12.1f\n", outputs[i].name,
		       outputs[i].state, outputs[i].refresh_hz,
		       outputs[i].repaints, outputs[i].suppressed);
	printf("%9s %8s %11s  %-12s %7s  %s\n", "commits/s", "held/s",
	       "throttled/s", "class", "surface", "label");
	size_t quiet = 0;
	for (size_t i = 0; i < n; i++) {
		/* A static surface that did nothing is most of them
		 * (cursors, backgrounds, idle windows). */
		if (!all && rows[i].commits == 0 && rows[i].held == 0 &&
		    rows[i].throttled == 0 && strcmp(rows[i].cls, "static") == 0) {
			quiet++;
			continue;
		}
		printf("%9.1f %8.1f %11.1f  %-12s %7u  %s\n", rows[i].commits,
		       rows[i].held, rows[i].throttled, rows[i].cls,
		       rows[i].id, rows[i].label);
	}
	if (quiet)
		printf("(%zu quiet static surface%s not shown; --all shows them)\n",
		       quiet, quiet == 1 ? "" : "s");
	putchar('\n');
	fflush(stdout);
}

static double
flat_double(const struct status *st, const char *output, const char *what)
{
	char key[256];
	const char *value;

	snprintf(key, sizeof(key), "output.%s.%s", output, what);
	value = pairs_get(&st->flat, key);
	return value ? strtod(value, NULL) : 0;
}

/* The outputs of a status, from its "output.NAME.state" lines; `state`
 * points into `now`. */
static size_t
collect_outputs(const struct status *now, const struct status *before,
		double elapsed, struct top_output *out, size_t max)
{
	size_t n = 0;
	static const char suffix[] = ".state";

	for (size_t i = 0; i < now->flat.n && n < max; i++) {
		const char *key = now->flat.v[i].key;
		size_t len = strlen(key);

		if (strncmp(key, "output.", 7) != 0 || len <= 7 + 6 ||
		    strcmp(key + len - 6, suffix) != 0)
			continue;

		struct top_output *o = &out[n];
		size_t name_len = len - 7 - 6;
		if (name_len >= sizeof(o->name))
			continue;
		memcpy(o->name, key + 7, name_len);
		o->name[name_len] = '\0';
		const char *name = o->name;
		double repaints = flat_double(now, name, "repaints");
		double suppressed = flat_double(now, name, "suppressed");
		double repaints_before = flat_double(before, name, "repaints");
		double suppressed_before = flat_double(before, name,
						       "suppressed");
		o->state = now->flat.v[i].value;
		o->refresh_hz = flat_double(now, name, "refresh_mhz") / 1000.0;
		o->repaints = repaints >= repaints_before ?
			(repaints - repaints_before) / elapsed : 0;
		o->suppressed = suppressed >= suppressed_before ?
			(suppressed - suppressed_before) / elapsed : 0;
		n++;
	}
	return n;
}

static int
cmd_top(struct ctl *ctl, double interval, long count, bool json, bool all)
{
	struct status before, now;
	int ret = fetch_status(ctl, &before);
	double start = sf_ctl_monotonic_seconds(), t_before = start;

	if (ret != 0) {
		status_free(&before);
		return ret;
	}
	for (long sample = 0; count == 0 || sample < count; sample++) {
		sf_ctl_sleep_seconds(interval);
		ret = fetch_status(ctl, &now);
		if (ret != 0) {
			status_free(&now);
			break;
		}

		double t_now = sf_ctl_monotonic_seconds();
		double elapsed = t_now - t_before;
		struct top_row *rows = calloc(now.n_surfaces + 1,
					      sizeof(*rows));

		if (!rows) {
			fprintf(stderr, "stillframectl: out of memory\n");
			status_free(&now);
			ret = 1;
			break;
		}
		for (size_t i = 0; i < now.n_surfaces; i++) {
			const struct surface_entry *e = &now.surfaces[i];
			const struct surface_entry *b = NULL;
			const char *cls = pairs_get(&e->fields, "class");
			const char *label = pairs_get(&e->fields, "label");

			for (size_t j = 0; j < before.n_surfaces && !b; j++)
				if (before.surfaces[j].id == e->id)
					b = &before.surfaces[j];
			rows[i] = (struct top_row){
				.id = e->id,
				.commits = rate(field_u64(e, "commits"),
						b ? field_u64(b, "commits") : 0,
						b != NULL, elapsed),
				.held = rate(field_u64(e, "held"),
					     b ? field_u64(b, "held") : 0,
					     b != NULL, elapsed),
				.throttled = rate(field_u64(e, "throttled"),
						  b ? field_u64(b, "throttled")
						    : 0,
						  b != NULL, elapsed),
				.cls = cls ? cls : "-",
				.label = label ? label : "-",
			};
		}
		qsort(rows, now.n_surfaces, sizeof(*rows), compare_rows);

		struct top_output outputs[16];
		size_t n_outputs = collect_outputs(&now, &before, elapsed,
						   outputs, 16);
		print_top(outputs, n_outputs, rows, now.n_surfaces, elapsed,
			  t_now - start, json, all);
		free(rows);
		status_free(&before);
		before = now;
		t_before = t_now;
	}
	status_free(&before);
	return ret;
}

static int
cmd_pause(struct ctl *ctl, bool paused)
{
	if (paused)
		stillframe_control_v1_pause(ctl->control);
	else
		stillframe_control_v1_resume(ctl->control);
	if (wl_display_roundtrip(ctl->display) < 0)
		return connection_error(ctl);
	if (ctl->have_paused && ctl->paused != paused) {
		fprintf(stderr, "stillframectl: stillframe did not %s\n",
			paused ? "pause" : "resume");
		return 1;
	}
	return 0;
}

static int
cmd_hint(struct ctl *ctl, uint32_t surface_id, const struct sf_ctl_hints *h)
{
	ctl->hint_surface = surface_id;
	stillframe_control_v1_set_surface_hints(ctl->control, surface_id,
						h->rate_num, h->rate_den,
						h->min_mhz, h->max_mhz,
						h->priority);
	if (wl_display_roundtrip(ctl->display) < 0)
		return connection_error(ctl);
	return 0;
}

/* --- output power --- */

static const char *const power_words[] = { "auto", "on", "off" };

/* "output.NAME.state": the names of the outputs in a status. */
static bool
status_output_name(const char *key, char *name, size_t size)
{
	static const char prefix[] = "output.", suffix[] = ".state";
	size_t len = strlen(key);

	if (strncmp(key, prefix, sizeof(prefix) - 1) != 0 ||
	    len <= sizeof(prefix) - 1 + sizeof(suffix) - 1 ||
	    strcmp(key + len - (sizeof(suffix) - 1), suffix) != 0)
		return false;
	snprintf(name, size, "%.*s",
		 (int)(len - (sizeof(prefix) - 1) - (sizeof(suffix) - 1)),
		 key + sizeof(prefix) - 1);
	return true;
}

static const char *
output_field(const struct status *st, const char *name, const char *what)
{
	char key[128];
	const char *v;

	snprintf(key, sizeof(key), "output.%s.%s", name, what);
	v = pairs_get(&st->flat, key);
	return v ? v : "?";
}

static void
print_output_power(const struct status *st, const char *name)
{
	printf("%s: %s, power %s (asked: %s), state %s\n", name,
	       output_field(st, name, "kind"), output_field(st, name, "power"),
	       output_field(st, name, "power_request"),
	       output_field(st, name, "state"));
}

static int
cmd_output(struct ctl *ctl, const char *name, bool set,
	   enum sf_ctl_power power)
{
	struct status st;
	char one[64];
	bool found = false;
	int ret = fetch_status(ctl, &st);

	if (ret != 0)
		return ret;
	for (size_t i = 0; i < st.flat.n; i++) {
		if (!status_output_name(st.flat.v[i].key, one, sizeof(one)))
			continue;
		if (!name)
			print_output_power(&st, one);
		else if (strcmp(one, name) == 0)
			found = true;
	}
	if (name && !found) {
		fprintf(stderr, "stillframectl: stillframe manages no output called '%s'; it has:",
			name);
		for (size_t i = 0; i < st.flat.n; i++)
			if (status_output_name(st.flat.v[i].key, one,
					       sizeof(one)))
				fprintf(stderr, " %s", one);
		fputc('\n', stderr);
		status_free(&st);
		return 1;
	}
	if (!name || !set) {
		if (name)
			print_output_power(&st, name);
		status_free(&st);
		return 0;
	}
	status_free(&st);
	if (ctl->control_version < 2) {
		fprintf(stderr, "stillframectl: the compositor's stillframe is too old to power outputs (stillframe_control_v1 version %u; output needs 2)\n",
			ctl->control_version);
		return 1;
	}
	stillframe_control_v1_set_output_power(ctl->control, name, power);
	if (wl_display_roundtrip(ctl->display) < 0)
		return connection_error(ctl);
	if ((ret = fetch_status(ctl, &st)) != 0)
		return ret;
	const char *now = output_field(&st, name, "power");
	print_output_power(&st, name);
	/* auto may rightly leave it either way; on and off must hold. */
	if (power != SF_CTL_POWER_AUTO &&
	    strcmp(now, power == SF_CTL_POWER_ON ? "on" : "off") != 0) {
		fprintf(stderr, "stillframectl: %s is still %s: the compositor could not power it %s (its log says why)\n",
			name, now, power_words[power]);
		ret = 1;
	}
	status_free(&st);
	return ret;
}

/* --- arguments --- */

static bool
parse_u32(const char *s, uint32_t *out)
{
	char *end;

	if (!is_digit(*s))
		return false;
	errno = 0;

	unsigned long long v = strtoull(s, &end, 10);

	if (errno || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* A decimal with up to three decimals, as thousandths: "47.952" is
 * 47952.  Stops at the first character that does not belong. */
static bool
parse_thousandths(const char **s, uint32_t *out)
{
	const char *p = *s;
	uint64_t v = 0;
	int decimals = 0;

	if (!is_digit(*p))
		return false;
	for (; is_digit(*p); p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX / 1000)
			return false;
	}
	if (*p == '.') {
		p++;
		if (!is_digit(*p))
			return false;
		for (; is_digit(*p); p++) {
			if (++decimals > 3)
				return false;
			v = v * 10 + (uint64_t)(*p - '0');
		}
	}
	for (; decimals < 3; decimals++)
		v *= 10;
	*out = (uint32_t)v;
	*s = p;
	return true;
}

static uint32_t
gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* NUM/DEN, NUM, or a decimal such as 23.976. */
static bool
parse_rate(const char *s, struct sf_ctl_hints *h)
{
	const char *slash = strchr(s, '/');

	if (slash) {
		char num[16];
		size_t len = (size_t)(slash - s);

		if (len == 0 || len >= sizeof(num))
			return false;
		memcpy(num, s, len);
		num[len] = '\0';
		return parse_u32(num, &h->rate_num) &&
		       parse_u32(slash + 1, &h->rate_den) &&
		       (h->rate_num == 0 || h->rate_den != 0);
	}
	if (!strchr(s, '.')) {
		h->rate_den = 1;
		return parse_u32(s, &h->rate_num);
	}

	uint32_t milli;
	const char *p = s;

	if (!parse_thousandths(&p, &milli) || *p)
		return false;

	uint32_t d = milli ? gcd(milli, 1000) : 1;

	h->rate_num = milli / d;
	h->rate_den = milli ? 1000 / d : 0;
	return true;
}

/* MIN-MAX in Hz; MAX may be 0 or empty for no upper bound. */
static bool
parse_range(const char *s, struct sf_ctl_hints *h)
{
	const char *p = s;

	if (!parse_thousandths(&p, &h->min_mhz) || *p != '-')
		return false;
	p++;
	if (*p == '\0') {
		h->max_mhz = 0;
		return true;
	}
	return parse_thousandths(&p, &h->max_mhz) && *p == '\0';
}

static bool
parse_priority(const char *s, uint32_t *out)
{
	static const char *const names[] = {
		[STILLFRAME_SURFACE_V1_PRIORITY_NORMAL] = "normal",
		[STILLFRAME_SURFACE_V1_PRIORITY_ESSENTIAL] = "essential",
		[STILLFRAME_SURFACE_V1_PRIORITY_BACKGROUND] = "background",
	};

	for (uint32_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return true;
		}
	}
	return false;
}

static bool
parse_interval(const char *s, double *out)
{
	char *end;

	errno = 0;

	double v = strtod(s, &end);

	if (errno || end == s || *end || !(v >= 0.05) || v > 3600)
		return false;
	*out = v;
	return true;
}

/* trace --for: a day at most, which a recording's buffer outlasts only
 * on a quiet screen. */
static bool
parse_seconds(const char *s, double *out)
{
	char *end;

	errno = 0;

	double v = strtod(s, &end);

	if (errno || end == s || *end || !(v > 0) || v > 86400)
		return false;
	*out = v;
	return true;
}

static const char *
option_name(const struct option *options, int c)
{
	for (; options->name; options++)
		if (options->val == c)
			return options->name;
	return "?";
}

/* An X window: 0x and hex, as xwininfo and our status print it, or
 * decimal, as xdotool does. */
static bool
parse_window(const char *s, uint32_t *out)
{
	int base = 10;
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	}
	if (!(base == 16 ? isxdigit((unsigned char)*s) : is_digit(*s)))
		return false;
	errno = 0;

	unsigned long long v = strtoull(s, &end, base);

	if (errno || *end || v == 0 || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

enum command {
	CMD_STATUS,
	CMD_TOP,
	CMD_PAUSE,
	CMD_RESUME,
	CMD_HINT,
	CMD_OUTPUT,
	CMD_TRACE,
};

enum backend {
	BACKEND_AUTO,
	BACKEND_WAYLAND,
	BACKEND_X11,
};

struct args {
	enum command command;
	enum backend backend;
	bool backend_auto;		/* not --x11 or --wayland */
	bool json;
	bool all;
	double interval;
	long count;
	uint32_t surface_id;		/* or the X window */
	struct sf_ctl_hints hints;
	const char *output;		/* output: NULL for all */
	const char *prom_path;		/* status --prom */
	bool set_power;
	enum sf_ctl_power power;
	double seconds;			/* trace --for */
	const char *trace_path;		/* trace -o */
};

/* --x11 or --wayland, which may be repeated but not mixed. */
static int
force_backend(enum backend *backend, enum backend want)
{
	if (*backend != BACKEND_AUTO && *backend != want)
		return usage_error("--x11 and --wayland do not go together");
	*backend = want;
	return 0;
}

/* X when only $DISPLAY names a server, as in an X session; Wayland
 * otherwise, X programs under a Wayland compositor included. */
static enum backend
auto_backend(void)
{
	const char *x = getenv("DISPLAY");
	const char *wayland = getenv("WAYLAND_DISPLAY");

	if (x && x[0] && !(wayland && wayland[0]))
		return BACKEND_X11;
	return BACKEND_WAYLAND;
}

static int
parse_args(int argc, char **argv, enum backend backend, struct args *a)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "prom", required_argument, NULL, 'P' },
		{ "all", no_argument, NULL, 'a' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "rate", required_argument, NULL, 'r' },
		{ "range", required_argument, NULL, 'R' },
		{ "priority", required_argument, NULL, 'p' },
		{ "clear", no_argument, NULL, 'c' },
		{ "for", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "x11", no_argument, NULL, 'X' },
		{ "wayland", no_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct {
		const char *name;
		enum command command;
		const char *options;	/* the letters it takes */
	} commands[] = {
		{ "status", CMD_STATUS, "jP" },
		{ "top", CMD_TOP, "jina" },
		{ "pause", CMD_PAUSE, "" },
		{ "resume", CMD_RESUME, "" },
		{ "hint", CMD_HINT, "rRpc" },
		{ "output", CMD_OUTPUT, "" },
		{ "trace", CMD_TRACE, "Fo" },
	};
	const char *name = argv[0];
	const char *allowed = NULL;
	bool clear = false, some_hint = false;
	int c;

	*a = (struct args){ .interval = 1.0, .backend = backend };
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(name, commands[i].name) == 0) {
			a->command = commands[i].command;
			allowed = commands[i].options;
		}
	}
	if (!allowed)
		return usage_error("unknown command '%s'", name);

	/* Options may come before or after the operand (getopt permutes);
	 * ':' first: report missing values ourselves. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", options, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return -1;
		}
		if (c == '?' && optopt)
			return usage_error("%s: unknown option '-%c'", name,
					   optopt);
		if (c == '?')
			return usage_error("%s: unknown option '%s'", name,
					   argv[optind - 1]);
		if (c == ':')
			return usage_error("%s: option '%s' needs a value",
					   name, argv[optind - 1]);
		if (c == 'X' || c == 'W') {
			int ret = force_backend(&a->backend, c == 'X' ?
						BACKEND_X11 : BACKEND_WAYLAND);

			if (ret != 0)
				return ret;
			continue;
		}
		if (!strchr(allowed, c))
			return usage_error("%s does not take %s%s", name,
					   c == 'o' ? "-o or --" : "--",
					   option_name(options, c));
		switch (c) {
		case 'j':
			a->json = true;
			break;
		case 'P':
			if (!optarg[0])
				return usage_error("--prom needs a file name");
			a->prom_path = optarg;
			break;
		case 'a':
			a->all = true;
			break;
		case 'i':
			if (!parse_interval(optarg, &a->interval))
				return usage_error("--interval %s: expected seconds from 0.05 to 3600",
						   optarg);
			break;
		case 'n': {
			uint32_t n;

			if (!parse_u32(optarg, &n) || n == 0)
				return usage_error("--count %s: expected a number of samples, at least 1",
						   optarg);
			a->count = (long)n;
			break;
		}
		case 'r':
			if (!parse_rate(optarg, &a->hints))
				return usage_error("--rate %s: expected frames per second as NUM/DEN (DEN not 0), NUM or a decimal",
						   optarg);
			some_hint = true;
			break;
		case 'R':
			if (!parse_range(optarg, &a->hints))
				return usage_error("--range %s: expected MIN-MAX in Hz, such as 48-60 or 30- (no upper bound)",
						   optarg);
			if (a->hints.max_mhz != 0 &&
			    a->hints.min_mhz > a->hints.max_mhz)
				return usage_error("--range %s: the minimum is above the maximum",
						   optarg);
			some_hint = true;
			break;
		case 'p':
			if (!parse_priority(optarg, &a->hints.priority))
				return usage_error("--priority %s: expected normal, essential or background",
						   optarg);
			some_hint = true;
			break;
		case 'c':
			clear = true;
			break;
		case 'F':
			if (!parse_seconds(optarg, &a->seconds))
				return usage_error("--for %s: expected seconds, more than 0 and at most 86400",
						   optarg);
			break;
		case 'o':
			if (!optarg[0])
				return usage_error("-o needs a file name (- for standard output)");
			a->trace_path = optarg;
			break;
		}
	}

	int rest = argc - optind;

	a->backend_auto = a->backend == BACKEND_AUTO;
	if (a->backend_auto)
		a->backend = auto_backend();
	if (a->command == CMD_OUTPUT) {
		if (rest > 2)
			return usage_error("output: unexpected argument '%s'",
					   argv[optind + 2]);
		if (rest >= 1)
			a->output = argv[optind];
		if (rest == 2) {
			const char *w = argv[optind + 1];

			a->set_power = true;
			if (strcmp(w, "on") == 0)
				a->power = SF_CTL_POWER_ON;
			else if (strcmp(w, "off") == 0)
				a->power = SF_CTL_POWER_OFF;
			else if (strcmp(w, "auto") == 0)
				a->power = SF_CTL_POWER_AUTO;
			else
				return usage_error("output: '%s' is not on, off or auto",
						   w);
		}
		return 0;
	}
	if (a->command == CMD_TRACE) {
		if (rest > 0)
			return usage_error("trace: unexpected argument '%s'",
					   argv[optind]);
		if (a->seconds <= 0)
			return usage_error("trace: give --for SECONDS");
		if (!a->trace_path)
			return usage_error("trace: give -o FILE (- for standard output)");
		return 0;
	}
	if (a->json && a->prom_path)
		return usage_error("status: --json and --prom do not go together");
	if (a->command != CMD_HINT) {
		if (rest > 0)
			return usage_error("%s: unexpected argument '%s'",
					   name, argv[optind]);
		return 0;
	}
	bool x11 = a->backend == BACKEND_X11;
	const char *operand = x11 ? "WINDOW" : "SURFACE-ID";

	if (rest == 0)
		return usage_error("hint: missing %s", operand);
	if (rest > 1)
		return usage_error("hint: give one %s, not '%s' too", operand,
				   argv[optind + 1]);
	if (x11 && !parse_window(argv[optind], &a->surface_id))
		return usage_error("hint: '%s' is not an X window (0x40000c or decimal, as in the window.0x... lines of 'stillframectl status')",
				   argv[optind]);
	if (!x11 && !parse_u32(argv[optind], &a->surface_id))
		return usage_error("hint: '%s' is not a surface id (the N of surface.N in 'stillframectl status')",
				   argv[optind]);
	if (clear && some_hint)
		return usage_error("hint: --clear does not go with --rate, --range or --priority");
	if (!clear && !some_hint)
		return usage_error("hint: give --rate, --range, --priority or --clear");
	return 0;
}

/* The X11 backend, if this stillframectl has one. */
static int
run_x11(const struct args *a)
{
#ifdef SF_CTL_HAVE_X11
	switch (a->command) {
	case CMD_STATUS:
		if (a->prom_path) {
			fprintf(stderr, "stillframectl: status --prom is for Weston: the X server's STILLFRAME extension has no Prometheus status\n");
			return 1;
		}
		return sf_ctl_x_status(a->json);
	case CMD_TOP:
		return sf_ctl_x_top(a->interval, a->count, a->json, a->all);
	case CMD_PAUSE:
		return sf_ctl_x_pause(true);
	case CMD_RESUME:
		return sf_ctl_x_pause(false);
	case CMD_HINT:
		return sf_ctl_x_hint(a->surface_id, &a->hints);
	case CMD_OUTPUT:
		return sf_ctl_x_output(a->output, a->set_power, a->power);
	case CMD_TRACE:
		return sf_ctl_x_trace(a->seconds, a->trace_path);
	}
	return 1;
#else
	fprintf(stderr,
		"stillframectl: this stillframectl was built without the X11 backend (libxcb was missing)%s\n",
		a->backend_auto ?
			"; it chose X11 as DISPLAY is set and WAYLAND_DISPLAY is not (--wayland chooses Wayland)" :
			"");
	return 1;
#endif
}

/* --- measure --ab steering the policy --- */

struct wayland_policy {
	struct ctl ctl;
	bool connected;
};

static int
wayland_get_paused(void *data, bool *paused)
{
	struct wayland_policy *wp = data;

	if (!wp->connected) {
		int ret = ctl_connect(&wp->ctl);

		if (ret != 0)
			return ret;
		wp->connected = true;
	}
	if (!wp->ctl.have_paused) {
		fprintf(stderr, "stillframectl: the compositor did not say whether stillframe is paused\n");
		return 1;
	}
	*paused = wp->ctl.paused;
	return 0;
}

static int
wayland_set_paused(void *data, bool paused)
{
	struct wayland_policy *wp = data;

	return cmd_pause(&wp->ctl, paused);
}

static int
x11_get_paused(void *data, bool *paused)
{
	const struct args *a = data;

#ifdef SF_CTL_HAVE_X11
	(void)a;
	return sf_ctl_x_get_paused(paused);
#else
	return run_x11(a);
#endif
}

static int
x11_set_paused(void *data, bool paused)
{
	const struct args *a = data;

#ifdef SF_CTL_HAVE_X11
	(void)a;
	return sf_ctl_x_pause(paused);
#else
	return run_x11(a);
#endif
}

static int
cmd_measure(enum backend backend, int argc, char **argv)
{
	struct wayland_policy wp = { 0 };
	struct sf_ctl_policy policy;
	int n = 0;

	/* --x11 and --wayland may come after the command too, as for the
	 * others; measure's own options are the rest. */
	for (int i = 0; i < argc; i++) {
		int ret = 0;

		if (strcmp(argv[i], "--x11") == 0)
			ret = force_backend(&backend, BACKEND_X11);
		else if (strcmp(argv[i], "--wayland") == 0)
			ret = force_backend(&backend, BACKEND_WAYLAND);
		else
			argv[n++] = argv[i];
		if (ret != 0)
			return ret;
	}

	struct args a = { .backend = backend,
			  .backend_auto = backend == BACKEND_AUTO };

	if (a.backend_auto)
		a.backend = auto_backend();
	if (a.backend == BACKEND_X11)
		policy = (struct sf_ctl_policy){ x11_get_paused,
						 x11_set_paused, &a };
	else
		policy = (struct sf_ctl_policy){ wayland_get_paused,
						 wayland_set_paused, &wp };

	int ret = sf_ctl_measure_main(n, argv, &policy);

	ctl_disconnect(&wp.ctl);
	return ret;
}

int
main(int argc, char **argv)
{
	struct args args;
	struct ctl ctl;
	enum backend backend = BACKEND_AUTO;
	int first = 1;

	/* --x11 and --wayland may come before the command, too. */
	for (; first < argc; first++) {
		int ret;

		if (strcmp(argv[first], "--x11") == 0)
			ret = force_backend(&backend, BACKEND_X11);
		else if (strcmp(argv[first], "--wayland") == 0)
			ret = force_backend(&backend, BACKEND_WAYLAND);
		else
			break;
		if (ret != 0)
			return ret;
	}
	if (first >= argc)
		return usage_error("missing COMMAND");

	const char *arg = argv[first];

	if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(arg, "-V") == 0 || strcmp(arg, "--version") == 0) {
		printf("stillframectl %s\n", SF_VERSION);
		return 0;
	}
	if (arg[0] == '-')
		return usage_error("unknown option '%s'", arg);
	/* This machine's sysfs, no compositor or server involved. */
	if (strcmp(arg, "platform") == 0 || strcmp(arg, "restore") == 0)
		return sf_ctl_platform_main(argc - first, argv + first);
	/* A file, no compositor or server involved. */
	if (strcmp(arg, "fbc") == 0)
		return sf_ctl_fbc_main(argc - first, argv + first);
	if (strcmp(arg, "timeline") == 0)
		return sf_ctl_timeline_main(argc - first, argv + first);
	/* The battery; --ab steers the policy too. */
	if (strcmp(arg, "measure") == 0)
		return cmd_measure(backend, argc - first, argv + first);

	int ret = parse_args(argc - first, argv + first, backend, &args);

	if (ret != 0)
		return ret < 0 ? 0 : ret;
	if (args.backend == BACKEND_X11)
		return run_x11(&args);

	ret = ctl_connect(&ctl);
	if (ret == 0) {
		switch (args.command) {
		case CMD_STATUS:
			ret = args.prom_path ?
				      cmd_status_prometheus(&ctl, args.prom_path) :
				      cmd_status(&ctl, args.json);
			break;
		case CMD_TOP:
			ret = cmd_top(&ctl, args.interval, args.count,
				      args.json, args.all);
			break;
		case CMD_PAUSE:
			ret = cmd_pause(&ctl, true);
			break;
		case CMD_RESUME:
			ret = cmd_pause(&ctl, false);
			break;
		case CMD_HINT:
			ret = cmd_hint(&ctl, args.surface_id, &args.hints);
			break;
		case CMD_OUTPUT:
			ret = cmd_output(&ctl, args.output, args.set_power,
					 args.power);
			break;
		case CMD_TRACE:
			ret = cmd_trace(&ctl, args.seconds, args.trace_path);
			break;
		}
	}
	ctl_disconnect(&ctl);
	return ret;
}
