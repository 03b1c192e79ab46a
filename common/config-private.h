/* SPDX-License-Identifier: MIT */
#ifndef SF_CONFIG_PRIVATE_H
#define SF_CONFIG_PRIVATE_H

/*
 * Shared by the files of the configuration: config.c (lookup, defaults,
 * parsing, formatting, the *_params() conversions), config-options.c
 * (the option table) and config-lists.c (the list and path options).
 * Private to common/.
 */

#include <string.h>

#include "sf-config.h"

/* The "C" locale's idea of white space, whatever the process's locale. */
static inline bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' ||
	       c == '\f' || c == '\r';
}

static inline char
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Case-insensitive comparison of the `len` bytes at `s` with `word`. */
static inline bool
word_equal(const char *s, size_t len, const char *word)
{
	if (strlen(word) != len)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (lower(s[i]) != lower(word[i]))
			return false;
	}
	return true;
}

/* --- config-lists.c: the parse hooks of the STRING options --- */

sf_option_parse_fn sf_config_parse_output_list;
sf_option_parse_fn sf_config_parse_unneeded_list;
sf_option_parse_fn sf_config_parse_app_list;
sf_option_parse_fn sf_config_parse_root_path;

#endif /* SF_CONFIG_PRIVATE_H */
