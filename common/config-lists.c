/* SPDX-License-Identifier: MIT */
/* The options whose values are lists (outputs, apps) or a path: their
 * syntax, and what the core asks of them. */
#include <stdio.h>
#include <string.h>

#include "config-private.h"

/* An output name as RandR and DRM spell connectors (eDP-1, HDMI-A-1,
 * DP-2-1, Virtual-1, headless, ...): nothing a list or a log would need
 * to quote. */
#define OUTPUT_NAME_MAX 31

static bool
is_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '-';
}

/* "internal" and "all" are words of the list, not output names: like
 * the choices of an ENUM they are taken in any case, and stored in
 * lower case so that sf_config_output_selected() compares exactly. */
static const char *const output_words[] = { "internal", "all" };

/* An app id: Wayland app_ids are reverse-DNS names (org.gnome.Nautilus)
 * or plain words (foot, mpv); X WM_CLASS names are plain words. */
#define APP_NAME_MAX 63

/* " eDP-1 ,HDMI-A-1" is stored as "eDP-1,HDMI-A-1": items of at most
 * `item_max` name characters, `words` taken in any case and stored in
 * lower case; an empty string is the empty list if `allow_empty`. */
static bool
parse_name_list(const char *s, size_t len, char out[SF_CONFIG_STRING_MAX],
		size_t item_max, const char *const *words, size_t n_words,
		bool allow_empty)
{
	char buf[SF_CONFIG_STRING_MAX];
	size_t n = 0;
	size_t i = 0;

	size_t blank = 0;
	while (blank < len && is_space(s[blank]))
		blank++;
	if (blank == len && allow_empty) {
		out[0] = '\0';
		return true;
	}
	for (;;) {
		size_t start = i;
		while (i < len && s[i] != ',')
			i++;
		size_t end = i;
		while (start < end && is_space(s[start]))
			start++;
		while (end > start && is_space(s[end - 1]))
			end--;
		size_t item = end - start;
		if (item == 0 || item > item_max)
			return false;
		for (size_t k = start; k < end; k++) {
			if (!is_name_char(s[k]))
				return false;
		}
		/* The separator, the item and the final NUL must fit. */
		if ((n ? n + 1 : 0) + item >= sizeof(buf))
			return false;
		if (n)
			buf[n++] = ',';
		const char *word = NULL;
		for (size_t w = 0; w < n_words; w++) {
			if (word_equal(s + start, item, words[w]))
				word = words[w];
		}
		memcpy(buf + n, word ? word : s + start, item);
		n += item;
		if (i == len)
			break;
		i++;	/* past the ',' */
	}
	buf[n] = '\0';
	memcpy(out, buf, n + 1);
	return true;
}

bool
sf_config_parse_output_list(const char *s, size_t len,
			    char out[SF_CONFIG_STRING_MAX])
{
	return parse_name_list(s, len, out, OUTPUT_NAME_MAX, output_words,
			       SF_ARRAY_LENGTH(output_words), false);
}

/* The classes of unneeded-outputs, stored in lower case like the words
 * of "outputs". */
static const char *const unneeded_words[] = { "external", "all-but-internal" };

bool
sf_config_parse_unneeded_list(const char *s, size_t len,
			      char out[SF_CONFIG_STRING_MAX])
{
	return parse_name_list(s, len, out, OUTPUT_NAME_MAX, unneeded_words,
			       SF_ARRAY_LENGTH(unneeded_words), true);
}

bool
sf_config_parse_root_path(const char *s, size_t len,
			  char out[SF_CONFIG_STRING_MAX])
{
	while (len > 0 && is_space(*s)) {
		s++;
		len--;
	}
	while (len > 0 && is_space(s[len - 1]))
		len--;
	if (len == 0 || len >= SF_CONFIG_STRING_MAX || s[0] != '/' ||
	    memchr(s, '\n', len))
		return false;
	for (size_t i = 0; i + 1 < len; i++)
		if (s[i] == '.' && s[i + 1] == '.')
			return false;
	memcpy(out, s, len);
	out[len] = '\0';
	return true;
}

bool
sf_config_parse_app_list(const char *s, size_t len,
			 char out[SF_CONFIG_STRING_MAX])
{
	return parse_name_list(s, len, out, APP_NAME_MAX, NULL, 0, true);
}

/* Whether the list `list` ("a,b,c") has the item `name`. */
static bool
list_has(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list; *p;) {
		size_t item = strcspn(p, ",");
		if (item == len && memcmp(p, name, len) == 0)
			return true;
		p += item;
		if (*p == ',')
			p++;
	}
	return false;
}

bool
sf_config_output_selected(const struct sf_config *cfg,
			  const char *output_name, bool is_internal)
{
	if (list_has(cfg->outputs, "all"))
		return true;
	if (is_internal && list_has(cfg->outputs, "internal"))
		return true;
	/* An empty name is no output's name, and never an item. */
	return output_name && output_name[0] &&
	       list_has(cfg->outputs, output_name);
}

bool
sf_config_output_unneeded(const struct sf_config *cfg,
			  const char *output_name, enum sf_output_kind kind)
{
	if (kind != SF_OUTPUT_KIND_INTERNAL &&
	    list_has(cfg->unneeded_outputs, "all-but-internal"))
		return true;
	if (kind == SF_OUTPUT_KIND_EXTERNAL &&
	    list_has(cfg->unneeded_outputs, "external"))
		return true;
	return output_name && output_name[0] &&
	       list_has(cfg->unneeded_outputs, output_name);
}

enum sf_priority
sf_config_app_priority(const struct sf_config *cfg, const char *app,
		       const char *app_class)
{
	bool essential = false, background = false;
	const char *names[] = { app, app_class };

	for (size_t i = 0; i < SF_ARRAY_LENGTH(names); i++) {
		if (!names[i] || !names[i][0])
			continue;
		essential |= list_has(cfg->essential_apps, names[i]);
		background |= list_has(cfg->background_apps, names[i]);
	}
	/* Listed in both: holding an essential surface is the worse
	 * mistake. */
	if (essential)
		return SF_PRIORITY_ESSENTIAL;
	return background ? SF_PRIORITY_BACKGROUND : SF_PRIORITY_NORMAL;
}
