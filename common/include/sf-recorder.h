/* SPDX-License-Identifier: MIT */
#ifndef SF_RECORDER_H
#define SF_RECORDER_H

#include <stddef.h>
#include "sf-trace.h"

/*
 * A trace being recorded: events formatted as lines of the trace format
 * (doc/trace-format.md) into one buffer allocated at the start, read out
 * in whole lines by whoever asked for the recording.  Adding an event
 * allocates nothing; when the buffer is full the event is dropped and
 * counted, so a reader that falls behind loses events, not memory.
 *
 * The core owns the recorder (sf_core_trace_start) and feeds it from its
 * entry points; the adapters only pass the text on.
 */

struct sf_trace_recorder;

/* No formatted line is longer: a read must offer at least this much. */
#define SF_TRACE_RECORDER_LINE_MAX 512
/* The smallest buffer sf_trace_recorder_create accepts. */
#define SF_TRACE_RECORDER_MIN_CAPACITY (4 * SF_TRACE_RECORDER_LINE_MAX)

/* `capacity` bytes of text (at least SF_TRACE_RECORDER_MIN_CAPACITY);
 * times are taken relative to `start`.  The header line is written at
 * once.  NULL when out of memory. */
struct sf_trace_recorder *
sf_trace_recorder_create(size_t capacity, sf_time_t start);

/* NULL-safe. */
void
sf_trace_recorder_destroy(struct sf_trace_recorder *rec);

/* Formats `ev` (whose time is a timestamp of the caller's clock) at its
 * time since the start; a time before the start or before the previous
 * event counts as the previous event's, so the trace's times never go
 * back.  Returns false when the event was dropped: the buffer is full or
 * the recording has ended. */
bool
sf_trace_recorder_add(struct sf_trace_recorder *rec,
		      const struct sf_trace_event *ev);

/* Ends the recording with an `end` event at `now` (which always fits);
 * later events are ignored, not counted as dropped. */
void
sf_trace_recorder_end(struct sf_trace_recorder *rec, sf_time_t now);

bool
sf_trace_recorder_has_ended(const struct sf_trace_recorder *rec);

/* Moves up to `size` bytes of whole lines into `buf` (not terminated)
 * and returns how many.  Returns 0 when nothing is pending, or when
 * `size` is smaller than the next line (never with a `size` of
 * SF_TRACE_RECORDER_LINE_MAX or more). */
size_t
sf_trace_recorder_read(struct sf_trace_recorder *rec, char *buf,
		       size_t size);

/* Bytes recorded and not read yet. */
size_t
sf_trace_recorder_pending(const struct sf_trace_recorder *rec);

/* Events recorded so far (the header not included), and dropped. */
uint64_t
sf_trace_recorder_get_events(const struct sf_trace_recorder *rec);

uint64_t
sf_trace_recorder_get_dropped(const struct sf_trace_recorder *rec);

#endif /* SF_RECORDER_H */
