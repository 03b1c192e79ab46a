/* SPDX-License-Identifier: MIT */
#ifndef SF_TRACE_H
#define SF_TRACE_H

#include <stddef.h>
#include "sf-types.h"

/*
 * The trace format: one event per line of text, documented in
 * doc/trace-format.md.  The adapters record it, stillframe-replay runs it
 * through the core, tests and the demo are written in it.
 *
 *   stillframe-trace 1
 *   0 output 1 eDP-1 1920x1080@60000*p 1920x1080@40000s
 *   0 surface 7 1 800x600 0.23 foot
 *   12.5 commit 7 10,20,8x16 #9f2c00aa11223344
 *   13 input key
 */

#define SF_TRACE_VERSION 1
#define SF_TRACE_MAX_BOXES 8
#define SF_TRACE_MAX_MODES 16
#define SF_TRACE_MAX_NAME 32
#define SF_TRACE_MAX_SURFACE_ID 4194303

enum sf_trace_type {
	SF_TRACE_HEADER = 0,	/* "stillframe-trace 1" */
	SF_TRACE_OUTPUT,	/* an output appears with its modes */
	SF_TRACE_SURFACE,	/* a surface appears on an output */
	SF_TRACE_COMMIT,
	SF_TRACE_INPUT,
	SF_TRACE_HINT,
	SF_TRACE_FOCUS,
	SF_TRACE_DESTROY,	/* a surface goes away */
	SF_TRACE_INHIBIT,
	SF_TRACE_REPAINT,	/* a repaint attempt the adapter saw */
	SF_TRACE_MODE,		/* the adapter switched an output's mode */
	SF_TRACE_END,		/* run until this time, then stop */
};

enum sf_trace_hint_kind {
	SF_TRACE_HINT_CLEAR = 0,
	SF_TRACE_HINT_RATE,	/* num/den fps */
	SF_TRACE_HINT_RANGE,	/* min-max mHz */
	SF_TRACE_HINT_CONTENT,
};

struct sf_trace_event {
	enum sf_trace_type type;
	sf_time_t time;
	uint32_t id;			/* output or surface id */
	union {
		struct {
			char name[SF_TRACE_MAX_NAME];
			struct sf_mode modes[SF_TRACE_MAX_MODES];
			uint32_t n_modes;
			uint32_t current;
		} output;
		struct {
			uint32_t output;
			int32_t width, height;
			double visible;
			char label[SF_TRACE_MAX_NAME];
		} surface;
		struct {
			struct sf_box boxes[SF_TRACE_MAX_BOXES];
			uint32_t n_boxes;
			bool has_hash;
			uint64_t hash;
			uint32_t ink;	/* "ink=N", with the hash */
			bool unchanged;	/* "same": pixels seen unchanged */
		} commit;
		struct {
			enum sf_input_kind kind;
		} input;
		struct {
			enum sf_trace_hint_kind kind;
			uint32_t num, den;
			uint32_t min_mhz, max_mhz;
			enum sf_content_type content;
		} hint;
		struct {
			bool on;
		} inhibit;
		struct {
			uint32_t force;
		} repaint;
		struct {
			uint32_t mode;
		} mode;
	} u;
};

enum sf_trace_status {
	SF_TRACE_OK = 0,
	SF_TRACE_BLANK,			/* empty line or comment: skip */
	SF_TRACE_ERROR,
};

/* Parses one line (without or with its newline).  On error, `err`
 * receives what is wrong with it. */
enum sf_trace_status
sf_trace_parse_line(const char *line, struct sf_trace_event *ev, char *err,
		    size_t err_size);

/* Formats one event as a line ending in '\n'.  Returns the length that
 * was needed, like snprintf. */
int
sf_trace_format_event(const struct sf_trace_event *ev, char *buf,
		      size_t size);

#endif /* SF_TRACE_H */
