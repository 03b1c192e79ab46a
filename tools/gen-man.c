/* SPDX-License-Identifier: MIT */
/*
 * stillframe-gen-man TEMPLATE OUT: writes the man page with its OPTIONS
 * section generated from the option table, so the page documents exactly
 * the keys, names, ranges and defaults that sf_config_set() accepts.
 * A line of TEMPLATE that is exactly "@OPTIONS@" becomes the option list;
 * every other line is copied unchanged.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf-config.h"

#define PROG "stillframe-gen-man"

/* Headings of the option groups, each placed before the option that
 * starts its group.  A key missing from the table is an error, so that
 * renaming an option cannot silently drop a heading. */
static const struct {
	const char *first_key;
	const char *title;
} groups[] = {
	{ "enable", "General" },
	{ "low-refresh-timeout", "Idle governor" },
	{ "outputs", "Refresh selector" },
	{ "suppress", "Repaint suppression" },
	{ "energy-gpu-active-watts", "Energy model (an estimate)" },
};

static const char *
group_title(const struct sf_option *opt)
{
	for (size_t i = 0; i < SF_ARRAY_LENGTH(groups); i++) {
		if (strcmp(groups[i].first_key, opt->key) == 0)
			return groups[i].title;
	}
	return NULL;
}

/* Text for roff: '-' is a hyphen only as "\-", '\' is "\e", '"' inside a
 * macro argument is "\(dq", and '.' or '\'' must not start a line. */
static void
put_roff(FILE *out, const char *s, bool line_start)
{
	if (line_start && (*s == '.' || *s == '\''))
		fputs("\\&", out);
	for (; *s; s++) {
		switch (*s) {
		case '-': fputs("\\-", out); break;
		case '\\': fputs("\\e", out); break;
		case '"': fputs("\\(dq", out); break;
		default: fputc(*s, out); break;
		}
	}
}

/* What the value looks like, for the synopsis of one option. */
static void
put_placeholder(FILE *out, const struct sf_option *opt)
{
	switch (opt->type) {
	case SF_OPTION_BOOL:
		fputs("\\fBtrue\\fR|\\fBfalse\\fR", out);
		return;
	case SF_OPTION_ENUM:
		for (size_t i = 0; opt->choices[i]; i++) {
			fputs(i ? "|\\fB" : "\\fB", out);
			put_roff(out, opt->choices[i], false);
			fputs("\\fR", out);
		}
		return;
	case SF_OPTION_STRING:
		fputs("\\fI", out);
		put_roff(out, opt->syntax->placeholder, false);
		fputs("\\fR", out);
		return;
	case SF_OPTION_INT:
	case SF_OPTION_DOUBLE:
		break;
	}
	fputs("\\fI", out);
	if (!opt->unit)
		fputs(opt->type == SF_OPTION_INT ? "integer" : "number", out);
	else if (strcmp(opt->unit, "%") == 0)
		fputs("percent", out);
	else
		put_roff(out, opt->unit, false);
	fputs("\\fR", out);
}

static void
put_unit(FILE *out, const struct sf_option *opt)
{
	if (opt->unit && (opt->type == SF_OPTION_INT ||
			  opt->type == SF_OPTION_DOUBLE)) {
		fputc(' ', out);
		put_roff(out, opt->unit, false);
	}
}

static void
put_option(FILE *out, const struct sf_option *opt)
{
	char range[256], def[SF_CONFIG_STRING_MAX];

	sf_option_format_range(opt, range, sizeof(range));
	sf_option_format_default(opt, def, sizeof(def));

	/* Two tags, the weston.ini key and the xorg.conf Option, over one
	 * paragraph. */
	fputs(".TP\n.BR ", out);
	put_roff(out, opt->key, false);
	fputs(" \" = \" ", out);
	put_placeholder(out, opt);
	fputs("\n.PD 0\n.TP\n.BR \"Option \\(dq", out);
	put_roff(out, opt->xorg_name, false);
	fputs("\\(dq \\(dq\" ", out);
	put_placeholder(out, opt);
	fputs(" \\(dq\n.PD\n", out);

	put_roff(out, opt->doc, true);
	fputs(".\n.br\nRange: ", out);
	put_roff(out, range, false);
	put_unit(out, opt);
	fputs(".\nDefault: ", out);
	put_roff(out, def, false);
	put_unit(out, opt);
	fputs(".\n", out);
}

static bool
check_groups(void)
{
	bool ok = true;

	for (size_t i = 0; i < SF_ARRAY_LENGTH(groups); i++) {
		if (!sf_config_find(SF_CONFIG_NS_INI, groups[i].first_key)) {
			fprintf(stderr, PROG ": heading \"%s\" names option "
				"\"%s\", which does not exist\n",
				groups[i].title, groups[i].first_key);
			ok = false;
		}
	}
	return ok;
}

static void
put_options(FILE *out)
{
	size_t n;
	const struct sf_option *opts = sf_config_options(&n);

	for (size_t i = 0; i < n; i++) {
		const char *title = group_title(&opts[i]);
		if (title) {
			fputs(".SS \"", out);
			put_roff(out, title, false);
			fputs("\"\n", out);
		}
		put_option(out, &opts[i]);
	}
}

int
main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: " PROG " TEMPLATE OUT\n");
		return 2;
	}
	const char *in_path = argv[1], *out_path = argv[2];
	if (!check_groups())
		return 1;

	FILE *in = fopen(in_path, "r");
	if (!in) {
		fprintf(stderr, PROG ": %s: %s\n", in_path, strerror(errno));
		return 1;
	}
	FILE *out = fopen(out_path, "w");
	if (!out) {
		fprintf(stderr, PROG ": %s: %s\n", out_path, strerror(errno));
		fclose(in);
		return 1;
	}

	int status = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned replaced = 0;
	while ((len = getline(&line, &cap, in)) != -1) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (strcmp(line, "@OPTIONS@") == 0) {
			put_options(out);
			replaced++;
		} else {
			fputs(line, out);
			fputc('\n', out);
		}
	}
	if (ferror(in)) {
		fprintf(stderr, PROG ": %s: read error: %s\n", in_path,
			strerror(errno));
		status = 1;
	} else if (replaced == 0) {
		fprintf(stderr, PROG ": %s: no line \"@OPTIONS@\" to "
			"replace\n", in_path);
		status = 1;
	}
	free(line);
	fclose(in);

	if (fflush(out) != 0 || ferror(out)) {
		fprintf(stderr, PROG ": %s: write error: %s\n", out_path,
			strerror(errno));
		status = 1;
	}
	if (fclose(out) != 0 && status == 0) {
		fprintf(stderr, PROG ": %s: %s\n", out_path, strerror(errno));
		status = 1;
	}
	/* A half-written page must not look up to date to the build. */
	if (status != 0)
		remove(out_path);
	return status;
}
