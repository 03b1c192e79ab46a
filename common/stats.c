/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sf-stats.h"

void
sf_output_stats_init(struct sf_output_stats *stats,
		     enum sf_idle_state state, sf_time_t now)
{
	*stats = (struct sf_output_stats){
		.state = state,
		.state_since = now,
		.powered = true,
	};
}

void
sf_output_stats_enter_state(struct sf_output_stats *stats,
			    enum sf_idle_state state, sf_time_t now)
{
	if (now > stats->state_since)
		stats->time_in_state[stats->state] += now - stats->state_since;
	stats->state = state;
	stats->state_since = now;
}

sf_time_t
sf_output_stats_time_in_state(const struct sf_output_stats *stats,
			      enum sf_idle_state state, sf_time_t now)
{
	sf_time_t t = stats->time_in_state[state];

	if (state == stats->state && now > stats->state_since)
		t += now - stats->state_since;
	return t;
}

void
sf_output_stats_set_powered(struct sf_output_stats *stats, bool powered,
			    sf_time_t now)
{
	if (powered == stats->powered)
		return;
	if (powered && now > stats->powered_off_since)
		stats->powered_off_time += now - stats->powered_off_since;
	if (!powered)
		stats->powered_off_since = now;
	stats->powered = powered;
	stats->power_changes++;
}

sf_time_t
sf_output_stats_powered_off_time(const struct sf_output_stats *stats,
				 sf_time_t now)
{
	sf_time_t t = stats->powered_off_time;

	if (!stats->powered && now > stats->powered_off_since)
		t += now - stats->powered_off_since;
	return t;
}

void
sf_writer_printf(struct sf_writer *writer, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	writer->write(writer->data, line, (size_t)n);
}

static void
buffer_write(void *data, const char *text, size_t len)
{
	struct sf_buffer_writer *bw = data;

	bw->needed += len;
	if (bw->size == 0)
		return;
	size_t room = bw->size - 1 - bw->len;
	if (len > room)
		len = room;
	memcpy(bw->buf + bw->len, text, len);
	bw->len += len;
	bw->buf[bw->len] = '\0';
}

void
sf_buffer_writer_init(struct sf_buffer_writer *bw, char *buf, size_t size)
{
	*bw = (struct sf_buffer_writer){
		.writer = { buffer_write, bw },
		.buf = buf,
		.size = size,
	};
	if (size)
		buf[0] = '\0';
}

static double
seconds(sf_time_t t)
{
	return (double)t / SF_NSEC_PER_SEC;
}

void
sf_stats_write_text(const struct sf_stats_view *view,
		    struct sf_writer *w)
{
	sf_writer_printf(w, "energy.estimate true\n");
	sf_writer_printf(w, "energy.span_s %.3f\n", seconds(view->energy.span));
	sf_writer_printf(w, "energy.actual_j %.3f\n", view->energy.actual_j);
	sf_writer_printf(w, "energy.baseline_j %.3f\n",
			 view->energy.baseline_j);
	sf_writer_printf(w, "energy.saved_j %.3f\n",
			 view->energy.baseline_j - view->energy.actual_j);
	sf_writer_printf(w, "gpu.reclock %s\n",
			 view->reclock == SF_RECLOCK_LOW ? "low" : "normal");

	for (size_t i = 0; i < view->n_outputs; i++) {
		const char *n = view->outputs[i].name;
		const struct sf_output_stats *s = view->outputs[i].stats;

		sf_writer_printf(w, "output.%s.state %s\n", n,
				 sf_idle_state_name(s->state));
		sf_writer_printf(w, "output.%s.kind %s\n", n,
				 sf_output_kind_name(view->outputs[i].kind));
		sf_writer_printf(w, "output.%s.power %s\n", n,
				 s->powered ? "on" : "off");
		sf_writer_printf(w, "output.%s.power_request %s\n", n,
				 sf_output_power_name(
					 view->outputs[i].power_request));
		sf_writer_printf(w, "output.%s.time.powered_off_s %.3f\n", n,
				 seconds(sf_output_stats_powered_off_time(
					 s, view->now)));
		sf_writer_printf(w, "output.%s.refresh_mhz %u\n", n,
				 s->refresh_mhz);
		sf_writer_printf(w, "output.%s.commits %llu\n", n,
				 (unsigned long long)s->commits);
		sf_writer_printf(w, "output.%s.repaints %llu\n", n,
				 (unsigned long long)s->repaints);
		sf_writer_printf(w, "output.%s.suppressed %llu\n", n,
				 (unsigned long long)s->suppressed);
		sf_writer_printf(w, "output.%s.stale_flushes %llu\n", n,
				 (unsigned long long)s->stale_flushes);
		sf_writer_printf(w, "output.%s.mode_switches %llu\n", n,
				 (unsigned long long)s->mode_switches);
		sf_writer_printf(w, "output.%s.dpms_changes %llu\n", n,
				 (unsigned long long)s->dpms_changes);
		for (int st = 0; st < SF_STATE_COUNT; st++)
			sf_writer_printf(w, "output.%s.time.%s_s %.3f\n", n,
					 sf_idle_state_name(st),
					 seconds(sf_output_stats_time_in_state(
						 s, st, view->now)));
	}

	for (size_t i = 0; i < view->n_surfaces; i++) {
		const struct sf_stats_surface_view *v = &view->surfaces[i];

		sf_writer_printf(w,
			"surface.%u class=%s commits=%llu empty=%llu "
			"identical=%llu held=%llu throttled=%llu label=%s\n",
			v->id, sf_class_name(v->cls),
			(unsigned long long)v->stats->commits,
			(unsigned long long)v->stats->empty,
			(unsigned long long)v->stats->identical,
			(unsigned long long)v->stats->held,
			(unsigned long long)v->stats->throttled_frames,
			v->label ? v->label : "-");
	}
}

/* Prometheus label values escape backslash, quote and newline. */
static void
write_label_value(struct sf_writer *w, const char *value)
{
	for (const char *p = value; *p; p++) {
		switch (*p) {
		case '\\': w->write(w->data, "\\\\", 2); break;
		case '"': w->write(w->data, "\\\"", 2); break;
		case '\n': w->write(w->data, "\\n", 2); break;
		default: w->write(w->data, p, 1); break;
		}
	}
}

static void
prom_header(struct sf_writer *w, const char *name, const char *type,
	    const char *help)
{
	sf_writer_printf(w, "# HELP stillframe_%s %s\n", name, help);
	sf_writer_printf(w, "# TYPE stillframe_%s %s\n", name, type);
}

struct prom_counter {
	const char *name;
	const char *help;
	size_t offset;
};

static const struct prom_counter prom_output_counters[] = {
	{ "commits_total", "Surface commits on the output.",
	  offsetof(struct sf_output_stats, commits) },
	{ "repaints_total", "Repaints let through.",
	  offsetof(struct sf_output_stats, repaints) },
	{ "suppressed_repaints_total", "Repaints held by stillframe.",
	  offsetof(struct sf_output_stats, suppressed) },
	{ "stale_flushes_total", "Held damage painted at its deadline.",
	  offsetof(struct sf_output_stats, stale_flushes) },
	{ "mode_switches_total", "Refresh-rate mode switches.",
	  offsetof(struct sf_output_stats, mode_switches) },
	{ "dpms_changes_total", "DPMS level changes.",
	  offsetof(struct sf_output_stats, dpms_changes) },
	{ "power_changes_total", "Output powered off or on by stillframe.",
	  offsetof(struct sf_output_stats, power_changes) },
};

void
sf_stats_write_prometheus(const struct sf_stats_view *view,
			  struct sf_writer *w)
{
	prom_header(w, "energy_estimated_joules", "gauge",
		    "Estimated energy (a model, not a measurement), by policy.");
	sf_writer_printf(w,
		"stillframe_energy_estimated_joules{policy=\"stillframe\"} %.3f\n",
		view->energy.actual_j);
	sf_writer_printf(w,
		"stillframe_energy_estimated_joules{policy=\"none\"} %.3f\n",
		view->energy.baseline_j);
	prom_header(w, "gpu_reclocked", "gauge",
		    "1 while the GPU is reclocked low.");
	sf_writer_printf(w, "stillframe_gpu_reclocked %d\n",
			 view->reclock == SF_RECLOCK_LOW);

	for (size_t c = 0; c < SF_ARRAY_LENGTH(prom_output_counters); c++) {
		const struct prom_counter *pc = &prom_output_counters[c];

		prom_header(w, pc->name, "counter", pc->help);
		for (size_t i = 0; i < view->n_outputs; i++) {
			const char *base = (const char *)view->outputs[i].stats;
			uint64_t value;

			memcpy(&value, base + pc->offset, sizeof(value));
			sf_writer_printf(w, "stillframe_%s{output=\"", pc->name);
			write_label_value(w, view->outputs[i].name);
			sf_writer_printf(w, "\"} %llu\n",
					 (unsigned long long)value);
		}
	}

	prom_header(w, "refresh_hertz", "gauge", "Current refresh rate.");
	for (size_t i = 0; i < view->n_outputs; i++) {
		sf_writer_printf(w, "stillframe_refresh_hertz{output=\"");
		write_label_value(w, view->outputs[i].name);
		sf_writer_printf(w, "\"} %.3f\n",
				 view->outputs[i].stats->refresh_mhz / 1000.0);
	}

	prom_header(w, "output_powered", "gauge",
		    "1 while the output is powered, 0 while stillframe keeps it off.");
	for (size_t i = 0; i < view->n_outputs; i++) {
		sf_writer_printf(w, "stillframe_output_powered{output=\"");
		write_label_value(w, view->outputs[i].name);
		sf_writer_printf(w, "\",kind=\"%s\"} %d\n",
				 sf_output_kind_name(view->outputs[i].kind),
				 view->outputs[i].stats->powered);
	}

	prom_header(w, "powered_off_seconds_total", "counter",
		    "Time the output was kept powered off.");
	for (size_t i = 0; i < view->n_outputs; i++) {
		sf_writer_printf(w,
			"stillframe_powered_off_seconds_total{output=\"");
		write_label_value(w, view->outputs[i].name);
		sf_writer_printf(w, "\"} %.3f\n",
				 seconds(sf_output_stats_powered_off_time(
					 view->outputs[i].stats, view->now)));
	}

	prom_header(w, "state_seconds_total", "counter",
		    "Time spent in each idle state.");
	for (size_t i = 0; i < view->n_outputs; i++) {
		for (int st = 0; st < SF_STATE_COUNT; st++) {
			sf_writer_printf(w,
				"stillframe_state_seconds_total{output=\"");
			write_label_value(w, view->outputs[i].name);
			sf_writer_printf(w, "\",state=\"%s\"} %.3f\n",
				sf_idle_state_name(st),
				seconds(sf_output_stats_time_in_state(
					view->outputs[i].stats, st, view->now)));
		}
	}
}
