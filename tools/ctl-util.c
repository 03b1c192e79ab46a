/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctl-util.h"

/* stillframectl's messages, JSON, clock and files (ctl-util.h). */

int
sf_ctl_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("stillframectl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'stillframectl --help'.\n", stderr);
	return SF_CTL_EXIT_USAGE;
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
	return SF_CTL_EXIT_USAGE;
}

int
sf_ctl_out_of_memory(void)
{
	fprintf(stderr, "stillframectl: out of memory\n");
	return 1;
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

void
sf_ctl_json_list(const char *value)
{
	const char *p = value;
	bool first = true;

	putchar('[');
	/* "-" is the empty list. */
	while (strcmp(value, "-") != 0 && *p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char item[128];

		snprintf(item, sizeof(item), "%.*s", (int)len, p);
		fputs(first ? "" : ", ", stdout);
		sf_ctl_json_string(item);
		first = false;
		p += len + (comma != NULL);
	}
	putchar(']');
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool
sf_ctl_is_json_number(const char *s)
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

/* --- the clock and interruptions --- */

static volatile sig_atomic_t interrupted;

static void
handle_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

void
sf_ctl_catch_interrupts(void)
{
	struct sigaction sa = { .sa_handler = handle_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

bool
sf_ctl_interrupted(void)
{
	return interrupted != 0;
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

/* --- files --- */

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
