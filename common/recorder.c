/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "sf-recorder.h"

/* Kept free for the `end` line, so that a full buffer still ends. */
#define END_RESERVE 48

struct sf_trace_recorder {
	char *buf;
	size_t capacity;
	size_t len;			/* bytes pending, from buf[0] */
	sf_time_t start;
	sf_time_t last;			/* previous event's, relative */
	uint64_t events, dropped;
	bool ended;
};

static bool
append(struct sf_trace_recorder *rec, const struct sf_trace_event *ev,
       size_t limit)
{
	char line[SF_TRACE_RECORDER_LINE_MAX];
	int n = sf_trace_format_event(ev, line, sizeof(line));

	if (n <= 0 || (size_t)n >= sizeof(line) || rec->len + (size_t)n > limit)
		return false;
	memcpy(rec->buf + rec->len, line, (size_t)n);
	rec->len += (size_t)n;
	return true;
}

struct sf_trace_recorder *
sf_trace_recorder_create(size_t capacity, sf_time_t start)
{
	struct sf_trace_recorder *rec = calloc(1, sizeof(*rec));

	if (capacity < SF_TRACE_RECORDER_MIN_CAPACITY)
		capacity = SF_TRACE_RECORDER_MIN_CAPACITY;
	if (!rec)
		return NULL;
	rec->buf = malloc(capacity);
	if (!rec->buf) {
		free(rec);
		return NULL;
	}
	rec->capacity = capacity;
	rec->start = start;

	struct sf_trace_event header = { .type = SF_TRACE_HEADER };
	append(rec, &header, rec->capacity);
	return rec;
}

void
sf_trace_recorder_destroy(struct sf_trace_recorder *rec)
{
	if (!rec)
		return;
	free(rec->buf);
	free(rec);
}

/* Relative to the start, and never before the previous event. */
static sf_time_t
relative(struct sf_trace_recorder *rec, sf_time_t t)
{
	sf_time_t rel = t - rec->start;

	if (t < rec->start || rel < rec->last)
		rel = rec->last;
	rec->last = rel;
	return rel;
}

bool
sf_trace_recorder_add(struct sf_trace_recorder *rec,
		      const struct sf_trace_event *ev)
{
	struct sf_trace_event copy = *ev;

	if (rec->ended)
		return false;
	copy.time = relative(rec, ev->time);
	if (!append(rec, &copy, rec->capacity - END_RESERVE)) {
		rec->dropped++;
		return false;
	}
	rec->events++;
	return true;
}

void
sf_trace_recorder_end(struct sf_trace_recorder *rec, sf_time_t now)
{
	struct sf_trace_event end = { .type = SF_TRACE_END };

	if (rec->ended)
		return;
	end.time = relative(rec, now);
	if (append(rec, &end, rec->capacity))
		rec->events++;
	rec->ended = true;
}

bool
sf_trace_recorder_has_ended(const struct sf_trace_recorder *rec)
{
	return rec->ended;
}

size_t
sf_trace_recorder_read(struct sf_trace_recorder *rec, char *buf,
		       size_t size)
{
	size_t n = rec->len < size ? rec->len : size;

	/* Whole lines only: back to the last line break that fits. */
	while (n > 0 && rec->buf[n - 1] != '\n')
		n--;
	if (n == 0)
		return 0;
	memcpy(buf, rec->buf, n);
	/* Reads come a few times a second, not per event: moving the rest
	 * down keeps the buffer one plain string. */
	memmove(rec->buf, rec->buf + n, rec->len - n);
	rec->len -= n;
	return n;
}

size_t
sf_trace_recorder_pending(const struct sf_trace_recorder *rec)
{
	return rec->len;
}

uint64_t
sf_trace_recorder_get_events(const struct sf_trace_recorder *rec)
{
	return rec->events;
}

uint64_t
sf_trace_recorder_get_dropped(const struct sf_trace_recorder *rec)
{
	return rec->dropped;
}
