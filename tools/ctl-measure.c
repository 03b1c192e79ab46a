/* SPDX-License-Identifier: MIT */
/*
 * stillframectl measure: the battery's power over a while, read from the
 * platform layer's sampler (sf_platform_read_power) at a fixed interval.
 * With --ab it pauses and resumes stillframe in turns, a window each,
 * drops the first seconds after every switch (the display changes its
 * refresh rate, the battery's own averaging catches up) and compares the
 * windows' means with Welch's t (sf-measure-stats.h).
 *
 * A battery that is charging, full or on AC reads what the charger does,
 * not what the machine uses, so measure refuses it unless --force.  The
 * policy is left as it was found, also on SIGINT and SIGTERM.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl-backend.h"
#include "ctl-commands.h"
#include "sf-measure-stats.h"
#include "sf-platform.h"

#define EXIT_INTERRUPTED 130

/* How --ab steers stillframe: a backend's connection, made at the first
 * use and kept. */
struct sf_ctl_policy {
	enum sf_ctl_choice choice;
	struct sf_ctl_conn *conn;
};

static int
policy_connect(struct sf_ctl_policy *p)
{
	if (p->conn)
		return 0;

	int ret = sf_ctl_connect(p->choice, &p->conn);

	if (ret != 0) {
		sf_ctl_disconnect(p->conn);
		p->conn = NULL;
	}
	return ret;
}

static int
policy_get_paused(struct sf_ctl_policy *p, bool *paused)
{
	int ret = policy_connect(p);

	return ret != 0 ? ret : p->conn->backend->get_paused(p->conn, paused);
}

static int
policy_set_paused(struct sf_ctl_policy *p, bool paused)
{
	int ret = policy_connect(p);

	return ret != 0 ? ret : sf_ctl_set_paused(p->conn, paused);
}

struct measure_options {
	double seconds;			/* --for */
	double interval;
	bool ab;
	double window, settle;		/* --ab */
	bool force;
	bool json;
	const char *root;
};

/* Every reading of a run, and the energy counter at its ends. */
struct sampler {
	struct sf_platform *platform;
	const struct measure_options *options;
	size_t n;
	double sum, min, max;
	bool have_energy;		/* at the first and the last reading */
	double energy_first, energy_last;	/* Wh */
	double t_first, t_last;
};

static void
measure_usage(FILE *f)
{
	fprintf(f,
		"usage: stillframectl measure --for SECONDS [--interval S]\n"
		"                             [--force] [--json] [--root DIR]\n"
		"       stillframectl measure --ab --for SECONDS [--window S]\n"
		"                             [--settle S] [--interval S] ...\n"
		"Reads the battery's power every S seconds (1) for\n"
		"SECONDS and prints the mean.  --ab pauses and resumes\n"
		"stillframe in turns, --window seconds (30) each, drops the\n"
		"first --settle seconds (2) after each switch, and prints the\n"
		"difference with a 95%% confidence interval.  The battery\n"
		"must be discharging (--force measures anyway).\n");
}

#define usage_error(...) sf_ctl_command_usage_error("measure", __VA_ARGS__)

/* Sleeps until the monotonic time `t`, in short steps so that a signal
 * is seen soon; false once one came. */
static bool
wait_until(double t)
{
	for (;;) {
		double left = t - sf_ctl_monotonic_seconds();

		if (sf_ctl_interrupted())
			return false;
		if (left <= 0)
			return true;
		sf_ctl_sleep_seconds(left < 0.1 ? left : 0.1);
	}
}

static void
log_errors(void *data, enum sf_platform_log_level level, const char *message)
{
	(void)data;
	if (level >= SF_PLATFORM_LOG_ERROR)
		fprintf(stderr, "stillframectl: %s\n", message);
}

/* One reading into the run's totals; its watts in *watts.  Says why and
 * returns 1 when there is nothing a user should believe. */
static int
take_sample(struct sampler *s, double *watts)
{
	struct sf_power_sample sample;
	double t = sf_ctl_monotonic_seconds();

	sf_platform_read_power(s->platform, &sample);
	if (!sample.present) {
		fprintf(stderr, "stillframectl: measure: no battery under %s/sys/class/power_supply: nothing to measure\n",
			s->options->root ? s->options->root : "");
		return 1;
	}
	if (!sample.have_power) {
		fprintf(stderr, "stillframectl: measure: the battery shows neither power_now nor current_now and voltage_now\n");
		return 1;
	}
	if (!sample.discharging && !s->options->force) {
		fprintf(stderr, "stillframectl: measure: the battery is %s discharging (on AC power, charging or full), so it does not read what the machine uses; unplug the charger, or give --force to measure anyway\n",
			s->n ? "no longer" : "not");
		return 1;
	}
	if (s->n == 0 || sample.watts < s->min)
		s->min = sample.watts;
	if (s->n == 0 || sample.watts > s->max)
		s->max = sample.watts;
	if (s->n == 0) {
		s->have_energy = sample.have_energy;
		s->energy_first = sample.energy_wh;
		s->t_first = t;
	}
	s->have_energy = s->have_energy && sample.have_energy;
	s->energy_last = sample.energy_wh;
	s->t_last = t;
	s->sum += sample.watts;
	s->n++;
	*watts = sample.watts;
	return 0;
}

/* The mean power by the energy counter: what it fell by over the time
 * between the first reading and the last.  false when it cannot tell. */
static bool
energy_watts(const struct sampler *s, double *watts)
{
	return s->have_energy &&
	       sf_measure_energy_watts(s->energy_first, s->energy_last,
				       s->t_last - s->t_first, watts);
}

static void
print_plain(const struct sampler *s)
{
	const struct measure_options *o = s->options;
	double mean = s->sum / (double)s->n, by_energy;
	bool have_by_energy = energy_watts(s, &by_energy);

	if (o->json) {
		printf("{\"samples\": %zu, \"interval_s\": %.3f, "
		       "\"duration_s\": %.3f, \"mean_w\": %.3f, "
		       "\"min_w\": %.3f, \"max_w\": %.3f, \"energy_w\": ",
		       s->n, o->interval, s->t_last - s->t_first, mean, s->min,
		       s->max);
		if (have_by_energy)
			printf("%.3f}\n", by_energy);
		else
			puts("null}");
		return;
	}
	printf("battery: %zu samples over %.1f s, every %.2f s\n", s->n,
	       s->t_last - s->t_first, o->interval);
	printf("power: mean %.3f W, min %.3f W, max %.3f W\n", mean, s->min,
	       s->max);
	if (have_by_energy)
		printf("energy counter: mean %.3f W (energy_now fell %.4f "
		       "Wh)\n", by_energy, s->energy_first - s->energy_last);
	else if (s->have_energy)
		printf("energy counter: unknown (energy_now did not fall in "
		       "%.1f s; its steps are coarse: measure longer)\n",
		       s->t_last - s->t_first);
	else
		printf("energy counter: unknown (the battery has no energy_now "
		       "or charge_now)\n");
}

static int
measure_plain(struct sampler *s)
{
	const struct measure_options *o = s->options;
	double start = sf_ctl_monotonic_seconds(), watts;

	/* Readings at 0, interval, ... up to --for, on a fixed grid so
	 * that slow reads do not stretch the run. */
	for (long k = 0; (double)k * o->interval <= o->seconds + 1e-9; k++) {
		if (!wait_until(start + (double)k * o->interval))
			break;
		if (take_sample(s, &watts) != 0)
			return 1;
	}
	if (sf_ctl_interrupted()) {
		fprintf(stderr, "stillframectl: measure: interrupted\n");
		return EXIT_INTERRUPTED;
	}
	print_plain(s);
	return 0;
}

static void
print_ab(const struct sampler *s, const struct sf_measure_welch *w,
	 size_t n_paused, size_t n_running)
{
	const struct measure_options *o = s->options;

	if (o->json) {
		printf("{\"windows_paused\": %zu, \"windows_running\": %zu, "
		       "\"window_s\": %.3f, \"settle_s\": %.3f, "
		       "\"interval_s\": %.3f, \"samples\": %zu, "
		       "\"mean_paused_w\": %.3f, \"mean_running_w\": %.3f, "
		       "\"difference_w\": %.3f, \"ci95_low_w\": %.3f, "
		       "\"ci95_high_w\": %.3f, \"df\": %.2f}\n",
		       n_paused, n_running, o->window, o->settle, o->interval,
		       s->n, w->mean_a, w->mean_b, w->difference, w->low,
		       w->high, w->df);
		return;
	}
	printf("windows: %zu paused, %zu running, %.1f s each (the first "
	       "%.1f s after each switch not counted), %zu samples\n",
	       n_paused, n_running, o->window, o->settle, s->n);
	printf("paused (stillframe off): %.3f W\n", w->mean_a);
	printf("running (stillframe on): %.3f W\n", w->mean_b);
	printf("saving: %.3f W, 95%% confidence interval %.3f to %.3f W "
	       "(Welch t, %.1f degrees of freedom)\n", w->difference, w->low,
	       w->high, w->df);
	if (w->low <= 0 && w->high >= 0)
		printf("the interval includes 0: no difference shown; "
		       "measure longer (--for)\n");
}

/* The windows, in turns paused and running; each window's mean goes to
 * `paused` or `running`. */
static int
run_windows(struct sampler *s, struct sf_ctl_policy *policy,
	    long n_windows, double *paused, size_t *n_paused,
	    double *running, size_t *n_running)
{
	const struct measure_options *o = s->options;
	double start = sf_ctl_monotonic_seconds();

	for (long w = 0; w < n_windows; w++) {
		bool pause = w % 2 == 0;
		double begin = start + (double)w * o->window;
		double end = begin + o->window, sum = 0, watts;
		size_t n = 0;

		if (!wait_until(begin))
			return 0;

		int ret = policy_set_paused(policy, pause);

		if (ret != 0)
			return ret;
		for (long k = 0;; k++) {
			double t = begin + o->settle + (double)k * o->interval;

			if (t >= end - 1e-9 || !wait_until(t))
				break;
			if (take_sample(s, &watts) != 0)
				return 1;
			sum += watts;
			n++;
		}
		if (sf_ctl_interrupted())
			return 0;
		if (pause)
			paused[(*n_paused)++] = sum / (double)n;
		else
			running[(*n_running)++] = sum / (double)n;
	}
	return 0;
}

static int
measure_ab(struct sampler *s, struct sf_ctl_policy *policy)
{
	const struct measure_options *o = s->options;
	long n_windows = (long)(o->seconds / o->window + 1e-9);
	size_t n_paused = 0, n_running = 0;
	bool was_paused;
	double *paused = calloc((size_t)n_windows, sizeof(*paused));
	double *running = calloc((size_t)n_windows, sizeof(*running));
	int ret = !paused || !running;

	if (ret != 0)
		fprintf(stderr, "stillframectl: out of memory\n");
	if (ret == 0)
		ret = policy_get_paused(policy, &was_paused);
	if (ret == 0) {
		ret = run_windows(s, policy, n_windows, paused, &n_paused,
				  running, &n_running);

		/* Whatever happened, as it was found. */
		int put_back = policy_set_paused(policy, was_paused);

		if (put_back != 0)
			fprintf(stderr, "stillframectl: measure: could not %s stillframe as it was\n",
				was_paused ? "pause" : "resume");
		if (ret == 0)
			ret = put_back;
	}
	if (ret == 0 && sf_ctl_interrupted()) {
		fprintf(stderr, "stillframectl: measure: interrupted; stillframe is %s, as it was\n",
			was_paused ? "paused" : "running");
		ret = EXIT_INTERRUPTED;
	}

	struct sf_measure_welch w;

	if (ret == 0 && !sf_measure_welch(paused, n_paused, running,
					  n_running, &w)) {
		fprintf(stderr, "stillframectl: measure: too few windows\n");
		ret = 1;
	}
	if (ret == 0)
		print_ab(s, &w, n_paused, n_running);
	free(paused);
	free(running);
	return ret;
}

static int
measure_main(int argc, char **argv, struct sf_ctl_policy *policy)
{
	static const struct option options[] = {
		{ "for", required_argument, NULL, 'f' },
		{ "interval", required_argument, NULL, 'i' },
		{ "ab", no_argument, NULL, 'a' },
		{ "window", required_argument, NULL, 'w' },
		{ "settle", required_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'F' },
		{ "json", no_argument, NULL, 'j' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct measure_options o = {
		.interval = 1, .window = 30, .settle = 2,
	};
	struct sf_ctl_options opts = {
		.command = "measure", .table = options, .letters = ":h",
		.usage = measure_usage,
	};
	bool window_given = false;
	int c, ret;

	while ((c = sf_ctl_next_own_option(&opts, argc, argv)) != -1) {
		switch (c) {
		case 'f':
			if (!sf_ctl_parse_number(optarg, 0.05, 7 * 86400, &o.seconds))
				return usage_error("--for %s: expected seconds from 0.05 to 604800",
							   optarg);
			break;
		case 'i':
			if (!sf_ctl_parse_number(optarg, 0.05, 3600, &o.interval))
				return usage_error("--interval %s: expected seconds from 0.05 to 3600",
							   optarg);
			break;
		case 'a':
			o.ab = true;
			break;
		case 'w':
			if (!sf_ctl_parse_number(optarg, 0.1, 86400, &o.window))
				return usage_error("--window %s: expected seconds from 0.1 to 86400",
							   optarg);
			window_given = true;
			break;
		case 's':
			if (!sf_ctl_parse_number(optarg, 0, 3600, &o.settle))
				return usage_error("--settle %s: expected seconds from 0 to 3600",
							   optarg);
			window_given = true;
			break;
		case 'F':
			o.force = true;
			break;
		case 'j':
			o.json = true;
			break;
		case 'r':
			if (!sf_ctl_root_ok(optarg))
				return usage_error("--root needs an absolute directory without \"..\"");
			o.root = optarg;
			break;
		}
	}
	if (sf_ctl_options_end(&opts, argc, argv, &ret))
		return ret;
	if (o.seconds == 0)
		return usage_error("--for SECONDS is required");
	if (window_given && !o.ab)
		return usage_error("--window and --settle go with --ab");
	if (o.ab && o.settle + o.interval > o.window)
		return usage_error("--window (%g s) leaves no reading after --settle (%g s) and one --interval (%g s)",
					   o.window, o.settle, o.interval);
	/* Welch needs two windows of each. */
	if (o.ab && o.seconds / o.window + 1e-9 < 4)
		return usage_error("--ab needs at least 4 windows, two of each: --for of at least %g s with --window %g",
					   4 * o.window, o.window);

	struct sf_platform_options po;

	sf_platform_options_init(&po);
	po.root = o.root;
	po.reclock = false;
	po.backlight = false;
	po.restore_leftovers = false;
	po.log = log_errors;

	struct sf_platform *platform = sf_platform_create(&po);

	if (!platform) {
		fprintf(stderr, "stillframectl: out of memory\n");
		return 1;
	}

	struct sampler s = { .platform = platform, .options = &o };
	double watts;

	sf_ctl_catch_interrupts();
	/* Refuse at once, before touching the policy. */
	ret = take_sample(&s, &watts);
	s = (struct sampler){ .platform = platform, .options = &o };
	if (ret == 0)
		ret = o.ab ? measure_ab(&s, policy) : measure_plain(&s);
	sf_platform_destroy(platform);
	return ret;
}

int
sf_ctl_cmd_measure(int argc, char **argv, enum sf_ctl_choice choice)
{
	struct sf_ctl_policy policy = { .choice = choice };
	int n = 0;

	/* --x11 and --wayland may come after the command too, as for the
	 * others; measure's own options are the rest. */
	for (int i = 0; i < argc; i++) {
		int ret = 0;

		if (strcmp(argv[i], "--x11") == 0)
			ret = sf_ctl_force_backend(&policy.choice,
						   SF_CTL_CHOICE_X11);
		else if (strcmp(argv[i], "--wayland") == 0)
			ret = sf_ctl_force_backend(&policy.choice,
						   SF_CTL_CHOICE_WAYLAND);
		else
			argv[n++] = argv[i];
		if (ret != 0)
			return ret;
	}

	int ret = measure_main(n, argv, &policy);

	sf_ctl_disconnect(policy.conn);
	return ret;
}
