/* SPDX-License-Identifier: MIT */
/*
 * stillframectl status [--json | --prom FILE]: a backend's snapshot as
 * "key value" lines, as one JSON object, or (Weston) the Prometheus text
 * written atomically for node_exporter's textfile collector.
 */
#include <getopt.h>
#include <string.h>

#include "ctl-backend.h"
#include "ctl-commands.h"

static void
json_value(const struct sf_ctl_field *f)
{
	switch (f->json) {
	case SF_CTL_JSON_GUESS:
		if (sf_ctl_is_json_number(f->value) ||
		    strcmp(f->value, "true") == 0 ||
		    strcmp(f->value, "false") == 0)
			fputs(f->value, stdout);
		else
			sf_ctl_json_string(f->value);
		break;
	case SF_CTL_JSON_TEXT:
		sf_ctl_json_string(f->value);
		break;
	case SF_CTL_JSON_LITERAL:
		fputs(f->value, stdout);
		break;
	case SF_CTL_JSON_LIST:
		sf_ctl_json_list(f->value);
		break;
	}
}

static void
json_members(const struct sf_ctl_fields *fields, bool *first)
{
	for (size_t i = 0; i < fields->n; i++) {
		if (!*first)
			fputs(", ", stdout);
		*first = false;
		sf_ctl_json_string(fields->v[i].key);
		fputs(": ", stdout);
		json_value(&fields->v[i]);
	}
}

static void
print_json(const struct sf_ctl_view *view, const struct sf_ctl_snapshot *st)
{
	bool first = true;

	putchar('{');
	json_members(&st->fields, &first);
	if (!first)
		fputs(", ", stdout);
	printf("\"%s\": [", view->items_json);
	for (size_t i = 0; i < st->n_items; i++) {
		const struct sf_ctl_item *item = &st->items[i];
		bool first_field = false;

		printf("%s{\"id\": %u", i ? ", " : "", item->id);
		if (view->id_hex)
			printf(", \"%s\": \"0x%x\"", view->item, item->id);
		json_members(&item->fields, &first_field);
		putchar('}');
	}
	fputs("]}\n", stdout);
}

/* The server's own lines when it sent lines; else the pairs, then an
 * item a line ("window.0x40000c class=static ... label=xterm"). */
static void
print_text(const struct sf_ctl_view *view, const struct sf_ctl_snapshot *st)
{
	if (st->n_lines) {
		for (size_t i = 0; i < st->n_lines; i++)
			puts(st->lines[i]);
		return;
	}
	for (size_t i = 0; i < st->fields.n; i++)
		printf("%s %s\n", st->fields.v[i].key, st->fields.v[i].value);
	for (size_t i = 0; i < st->n_items; i++) {
		const struct sf_ctl_item *item = &st->items[i];

		printf(view->id_hex ? "%s.0x%x" : "%s.%u", view->item,
		       item->id);
		for (size_t j = 0; j < item->fields.n; j++)
			printf(" %s=%s", item->fields.v[j].key,
			       item->fields.v[j].value);
		putchar('\n');
	}
}

static int
write_prometheus(struct sf_ctl_conn *conn, const char *path)
{
	struct sf_ctl_snapshot st;
	struct sf_ctl_output_file of;
	int ret = conn->backend->prometheus(conn, &st);

	/* Written next to FILE and renamed over it, so that node_exporter
	 * never reads half a file. */
	if (ret == 0 &&
	    (ret = sf_ctl_output_file_open(&of, path, "status --prom",
					   false)) == 0) {
		for (size_t i = 0; i < st.n_lines; i++)
			fprintf(of.f, "%s\n", st.lines[i]);
		ret = sf_ctl_output_file_close(&of, true);
	}
	sf_ctl_snapshot_free(&st);
	return ret;
}

int
sf_ctl_cmd_status(int argc, char **argv, enum sf_ctl_choice choice)
{
	struct sf_ctl_options o = {
		.command = "status", .takes = "jP", .choice = &choice,
	};
	const char *prom = NULL;
	bool json = false;
	int c;

	while ((c = sf_ctl_next_option(&o, argc, argv)) != -1) {
		if (c == 'j')
			json = true;
		if (c == 'P' && !optarg[0])
			return sf_ctl_usage_error("--prom needs a file name");
		if (c == 'P')
			prom = optarg;
	}
	if (o.status != 0)
		return sf_ctl_options_exit(&o);
	if (json && prom)
		return sf_ctl_usage_error("status: --json and --prom do not go together");
	if (optind < argc)
		return sf_ctl_usage_error("status: unexpected argument '%s'",
					  argv[optind]);

	const struct sf_ctl_backend *b = sf_ctl_backend_choose(choice);
	struct sf_ctl_conn *conn;
	struct sf_ctl_snapshot st = { 0 };

	/* Said before connecting: nothing to connect for. */
	if (prom && !b->prometheus)
		return sf_ctl_unsupported(b, "status --prom",
					  "Prometheus status");

	int ret = sf_ctl_connect(choice, &conn);

	if (ret == 0 && prom)
		ret = write_prometheus(conn, prom);
	else if (ret == 0 && (ret = b->snapshot(conn, &st)) == 0)
		(json ? print_json : print_text)(b->view, &st);
	sf_ctl_snapshot_free(&st);
	sf_ctl_disconnect(conn);
	return ret;
}
