/* SPDX-License-Identifier: MIT */
/*
 * stillframectl top: every --interval seconds, how often each output
 * painted and each surface or window committed, was held or throttled
 * (on X: damaged, held, asked), from two snapshots of the backend.  The
 * backend's sf_ctl_view names the counters and sizes the columns.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ctl-backend.h"
#include "ctl-commands.h"

struct top_row {
	const struct sf_ctl_item *item;
	double rates[SF_CTL_ITEM_COUNTERS];	/* per second */
};

struct top_output {
	const struct sf_ctl_output *output;
	double rates[SF_CTL_OUTPUT_COUNTERS];
};

/* Each of the `n` counters' growth per second; an item that is new
 * (before is NULL) or an id that was reused (so the counter went down)
 * counts from 0. */
static void
rates(double *out, const uint64_t *now, const uint64_t *before, int n,
      double seconds)
{
	for (int c = 0; c < n; c++) {
		uint64_t delta = before && now[c] >= before[c] ?
				 now[c] - before[c] : now[c];

		out[c] = (double)delta / seconds;
	}
}

static int
compare_rows(const void *a, const void *b)
{
	const struct top_row *ra = a, *rb = b;
	uint32_t ia = ra->item->id, ib = rb->item->id;

	if (ra->rates[0] != rb->rates[0])
		return ra->rates[0] < rb->rates[0] ? 1 : -1;
	return ia < ib ? -1 : ia > ib;
}

static const struct sf_ctl_item *
find_item(const struct sf_ctl_snapshot *st, uint32_t id)
{
	for (size_t i = 0; i < st->n_items; i++)
		if (st->items[i].id == id)
			return &st->items[i];
	return NULL;
}

static const struct sf_ctl_output *
find_output(const struct sf_ctl_snapshot *st, const char *name)
{
	for (size_t i = 0; i < st->n_outputs; i++)
		if (strcmp(st->outputs[i].name, name) == 0)
			return &st->outputs[i];
	return NULL;
}

/* A static item that did nothing is most of them (cursors,
 * backgrounds, idle windows). */
static bool
quiet(const struct sf_ctl_view *view, const struct top_row *row)
{
	for (int i = 0; i < SF_CTL_ITEM_COUNTERS; i++)
		if (view->item_quiet[i] && row->rates[i] != 0)
			return false;
	return strcmp(row->item->cls, "static") == 0;
}

static void
id_text(const struct sf_ctl_view *view, uint32_t id, char *buf, size_t cap)
{
	snprintf(buf, cap, view->id_hex ? "0x%x" : "%u", id);
}

static void
print_json(const struct sf_ctl_view *view, const struct top_output *outputs,
	   size_t n_outputs, const struct top_row *rows, size_t n,
	   double elapsed, double since_start)
{
	printf("{\"time_s\": %.3f, \"interval_s\": %.3f, \"outputs\": [",
	       since_start, elapsed);
	for (size_t i = 0; i < n_outputs; i++) {
		const struct sf_ctl_output *o = outputs[i].output;

		printf("%s{\"name\": ", i ? ", " : "");
		sf_ctl_json_string(o->name);
		fputs(", \"state\": ", stdout);
		sf_ctl_json_string(o->state);
		printf(", \"refresh_hz\": %.3f", o->refresh_hz);
		for (int c = 0; c < SF_CTL_OUTPUT_COUNTERS; c++)
			printf(", \"%s_per_s\": %.2f", view->output_counters[c],
			       outputs[i].rates[c]);
		putchar('}');
	}
	printf("], \"%s\": [", view->items_json);
	for (size_t i = 0; i < n; i++) {
		const struct sf_ctl_item *item = rows[i].item;

		printf("%s{\"id\": %u", i ? ", " : "", item->id);
		if (view->id_hex)
			printf(", \"%s\": \"0x%x\"", view->item, item->id);
		for (int c = 0; c < SF_CTL_ITEM_COUNTERS; c++)
			printf(", \"%s_per_s\": %.2f", view->item_counters[c],
			       rows[i].rates[c]);
		fputs(", \"class\": ", stdout);
		sf_ctl_json_string(item->cls);
		if (item->flags) {
			fputs(", \"flags\": ", stdout);
			sf_ctl_json_list(item->flags);
		}
		fputs(", \"label\": ", stdout);
		sf_ctl_json_string(item->label);
		putchar('}');
	}
	fputs("]}\n", stdout);
}

static void
print_table(const struct sf_ctl_view *view, const struct top_output *outputs,
	    size_t n_outputs, const struct top_row *rows, size_t n,
	    double since_start, bool all)
{
	char heads[SF_CTL_ITEM_COUNTERS][32];
	size_t n_quiet = 0;

	for (int c = 0; c < SF_CTL_OUTPUT_COUNTERS; c++)
		snprintf(heads[c], sizeof(heads[c]), "%s/s",
			 view->output_counters[c]);
	printf("%-12s %-12s %9s %*s %*s   at %.0f s\n", "output", "state",
	       "refresh", view->output_widths[0], heads[0],
	       view->output_widths[1], heads[1], since_start);
	for (size_t i = 0; i < n_outputs; i++) {
		const struct sf_ctl_output *o = outputs[i].output;

		printf("%-12s %-12s %6.2f Hz %*.1f %*.1f\n", o->name, o->state,
		       o->refresh_hz, view->output_widths[0],
		       outputs[i].rates[0], view->output_widths[1],
		       outputs[i].rates[1]);
	}
	for (int c = 0; c < SF_CTL_ITEM_COUNTERS; c++)
		snprintf(heads[c], sizeof(heads[c]), "%s/s",
			 view->item_counters[c]);
	printf("%*s %*s %*s  %-12s %*s  %s\n", view->item_widths[0], heads[0],
	       view->item_widths[1], heads[1], view->item_widths[2], heads[2],
	       "class", view->id_width, view->id_column, "label");
	for (size_t i = 0; i < n; i++) {
		char id[16];

		if (!all && quiet(view, &rows[i])) {
			n_quiet++;
			continue;
		}
		id_text(view, rows[i].item->id, id, sizeof(id));
		printf("%*.1f %*.1f %*.1f  %-12s %*s  %s\n",
		       view->item_widths[0], rows[i].rates[0],
		       view->item_widths[1], rows[i].rates[1],
		       view->item_widths[2], rows[i].rates[2],
		       rows[i].item->cls, view->id_width, id,
		       rows[i].item->label);
	}
	if (n_quiet)
		printf("(%zu quiet static %s%s not shown; --all shows them)\n",
		       n_quiet, view->item, n_quiet == 1 ? "" : "s");
	putchar('\n');
}

/* One sample: `now` against `before`, `elapsed` seconds apart. */
static int
print_sample(const struct sf_ctl_view *view,
	     const struct sf_ctl_snapshot *now,
	     const struct sf_ctl_snapshot *before, double elapsed,
	     double since_start, bool json, bool all)
{
	struct top_row *rows = calloc(now->n_items + 1, sizeof(*rows));
	struct top_output *outputs = calloc(now->n_outputs + 1,
					    sizeof(*outputs));

	if (!rows || !outputs) {
		free(rows);
		free(outputs);
		return sf_ctl_out_of_memory();
	}
	for (size_t i = 0; i < now->n_items; i++) {
		const struct sf_ctl_item *e = &now->items[i];
		const struct sf_ctl_item *b = find_item(before, e->id);

		rows[i].item = e;
		rates(rows[i].rates, e->counters, b ? b->counters : NULL,
		      SF_CTL_ITEM_COUNTERS, elapsed);
	}
	qsort(rows, now->n_items, sizeof(*rows), compare_rows);
	for (size_t i = 0; i < now->n_outputs; i++) {
		const struct sf_ctl_output *o = &now->outputs[i];
		const struct sf_ctl_output *b = find_output(before, o->name);

		outputs[i].output = o;
		rates(outputs[i].rates, o->counters, b ? b->counters : NULL,
		      SF_CTL_OUTPUT_COUNTERS, elapsed);
	}
	if (json)
		print_json(view, outputs, now->n_outputs, rows, now->n_items,
			   elapsed, since_start);
	else
		print_table(view, outputs, now->n_outputs, rows, now->n_items,
			    since_start, all);
	fflush(stdout);
	free(rows);
	free(outputs);
	return 0;
}

static int
run(struct sf_ctl_conn *conn, double interval, long count, bool json,
    bool all)
{
	const struct sf_ctl_backend *b = conn->backend;
	struct sf_ctl_snapshot before, now = { 0 };
	int ret = b->snapshot(conn, &before);
	double start = sf_ctl_monotonic_seconds(), t_before = start;

	for (long sample = 0; ret == 0 && (count == 0 || sample < count);
	     sample++) {
		sf_ctl_sleep_seconds(interval);
		ret = b->snapshot(conn, &now);
		if (ret != 0)
			break;

		double t_now = sf_ctl_monotonic_seconds();

		ret = print_sample(b->view, &now, &before, t_now - t_before,
				   t_now - start, json, all);
		sf_ctl_snapshot_free(&before);
		before = now;
		now = (struct sf_ctl_snapshot){ 0 };
		t_before = t_now;
	}
	sf_ctl_snapshot_free(&now);
	sf_ctl_snapshot_free(&before);
	return ret;
}

int
sf_ctl_cmd_top(int argc, char **argv, enum sf_ctl_choice choice)
{
	struct sf_ctl_options o = {
		.command = "top", .takes = "jina", .choice = &choice,
	};
	double interval = 1.0;
	long count = 0;
	bool json = false, all = false;
	uint32_t n;
	int c;

	while ((c = sf_ctl_next_option(&o, argc, argv)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'a':
			all = true;
			break;
		case 'i':
			if (!sf_ctl_parse_interval(optarg, &interval))
				return sf_ctl_usage_error("--interval %s: expected seconds from 0.05 to 3600",
							  optarg);
			break;
		case 'n':
			if (!sf_ctl_parse_u32(optarg, &n) || n == 0)
				return sf_ctl_usage_error("--count %s: expected a number of samples, at least 1",
							  optarg);
			count = (long)n;
			break;
		}
	}
	struct sf_ctl_conn *conn;
	int ret;

	if (sf_ctl_options_end_connect(&o, argc, argv, &conn, &ret))
		return ret;
	ret = run(conn, interval, count, json, all);
	sf_ctl_disconnect(conn);
	return ret;
}
