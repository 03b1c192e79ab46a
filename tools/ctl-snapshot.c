/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "ctl-backend.h"

/* Building and freeing what the backends hand to the commands
 * (ctl-backend.h). */

const char *
sf_ctl_power_name(enum sf_ctl_power power)
{
	static const char *const names[] = { "auto", "on", "off" };

	return (unsigned)power < 3 ? names[power] : "?";
}

bool
sf_ctl_grow(void **array, size_t *cap, size_t n, size_t size)
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

bool
sf_ctl_fields_add(struct sf_ctl_fields *fields, const char *key,
		  size_t key_len, const char *value, size_t value_len,
		  enum sf_ctl_json json)
{
	if (!sf_ctl_grow((void **)&fields->v, &fields->cap, fields->n,
			 sizeof(*fields->v)))
		return false;

	struct sf_ctl_field *field = &fields->v[fields->n];

	field->key = strndup(key, key_len);
	field->value = strndup(value, value_len);
	field->json = json;
	if (!field->key || !field->value) {
		free(field->key);
		free(field->value);
		return false;
	}
	fields->n++;
	return true;
}

bool
sf_ctl_fields_put(struct sf_ctl_fields *fields, const char *key,
		  const char *value, enum sf_ctl_json json)
{
	return sf_ctl_fields_add(fields, key, strlen(key), value,
				 strlen(value), json);
}

const char *
sf_ctl_fields_get(const struct sf_ctl_fields *fields, const char *key)
{
	for (size_t i = 0; i < fields->n; i++)
		if (strcmp(fields->v[i].key, key) == 0)
			return fields->v[i].value;
	return NULL;
}

static void
fields_free(struct sf_ctl_fields *fields)
{
	for (size_t i = 0; i < fields->n; i++) {
		free(fields->v[i].key);
		free(fields->v[i].value);
	}
	free(fields->v);
	*fields = (struct sf_ctl_fields){ 0 };
}

/* A copy of `s` and room for one more element in a growing array: the
 * copy, or NULL, with nothing kept, when either fails. */
static char *
copy_with_room(const char *s, void **array, size_t *cap, size_t n,
	       size_t size)
{
	char *copy = strdup(s);

	if (!copy || !sf_ctl_grow(array, cap, n, size)) {
		free(copy);
		return NULL;
	}
	return copy;
}

bool
sf_ctl_snapshot_add_line(struct sf_ctl_snapshot *st, const char *line)
{
	char *copy = copy_with_room(line, (void **)&st->lines, &st->cap_lines,
				    st->n_lines, sizeof(*st->lines));

	if (!copy)
		return false;
	st->lines[st->n_lines++] = copy;
	return true;
}

struct sf_ctl_item *
sf_ctl_snapshot_item(struct sf_ctl_snapshot *st, uint32_t id)
{
	for (size_t i = 0; i < st->n_items; i++)
		if (st->items[i].id == id)
			return &st->items[i];
	if (!sf_ctl_grow((void **)&st->items, &st->cap_items, st->n_items,
			 sizeof(*st->items)))
		return NULL;

	struct sf_ctl_item *item = &st->items[st->n_items++];

	*item = (struct sf_ctl_item){ .id = id };
	return item;
}

struct sf_ctl_output *
sf_ctl_snapshot_add_output(struct sf_ctl_snapshot *st, const char *name)
{
	char *copy = copy_with_room(name, (void **)&st->outputs,
				    &st->cap_outputs, st->n_outputs,
				    sizeof(*st->outputs));

	if (!copy)
		return NULL;

	struct sf_ctl_output *o = &st->outputs[st->n_outputs++];

	*o = (struct sf_ctl_output){ .name = copy, .state = "-" };
	return o;
}

void
sf_ctl_snapshot_free(struct sf_ctl_snapshot *st)
{
	for (size_t i = 0; i < st->n_lines; i++)
		free(st->lines[i]);
	free(st->lines);
	fields_free(&st->fields);
	for (size_t i = 0; i < st->n_items; i++)
		fields_free(&st->items[i].fields);
	free(st->items);
	for (size_t i = 0; i < st->n_outputs; i++)
		free(st->outputs[i].name);
	free(st->outputs);
	*st = (struct sf_ctl_snapshot){ 0 };
}
