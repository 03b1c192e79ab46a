/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf-trace.h"

struct cursor {
	const char *p;
	char *err;
	size_t err_size;
};

static bool
fail(struct cursor *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool
fail(struct cursor *c, const char *fmt, ...)
{
	va_list ap;

	if (c->err && c->err_size) {
		va_start(ap, fmt);
		vsnprintf(c->err, c->err_size, fmt, ap);
		va_end(ap);
	}
	return false;
}

static void
skip_space(struct cursor *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

static bool
at_end(struct cursor *c)
{
	skip_space(c);
	return *c->p == '\0' || *c->p == '\n' || *c->p == '\r';
}

/* Copies the next whitespace-delimited word. */
static bool
word(struct cursor *c, char *out, size_t size, const char *what)
{
	skip_space(c);
	size_t n = strcspn(c->p, " \t\r\n");
	if (n == 0)
		return fail(c, "missing %s", what);
	if (n >= size)
		return fail(c, "%s too long (at most %zu characters)", what,
			    size - 1);
	memcpy(out, c->p, n);
	out[n] = '\0';
	c->p += n;
	return true;
}

static bool
parse_u32(const char *s, uint32_t *out, const char **end)
{
	char *e;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &e, 10);
	if (errno || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	*end = e;
	return true;
}

static bool
parse_i32(const char *s, int32_t *out, const char **end)
{
	char *e;

	errno = 0;
	long long v = strtoll(s, &e, 10);
	if (e == s || errno || v < INT32_MIN || v > INT32_MAX)
		return false;
	*out = (int32_t)v;
	*end = e;
	return true;
}

static bool
word_u32(struct cursor *c, uint32_t *out, const char *what)
{
	char buf[24];
	const char *end;

	if (!word(c, buf, sizeof(buf), what))
		return false;
	if (!parse_u32(buf, out, &end) || *end)
		return fail(c, "%s \"%s\" is not a number", what, buf);
	return true;
}

/* Time: milliseconds, up to six decimals. */
static bool
parse_time(struct cursor *c, sf_time_t *out)
{
	char buf[32];

	if (!word(c, buf, sizeof(buf), "time"))
		return false;
	const char *p = buf;
	int64_t ms = 0, frac = 0;
	int digits = 0;

	if (*p < '0' || *p > '9')
		return fail(c, "time \"%s\" is not a number of milliseconds",
			    buf);
	while (*p >= '0' && *p <= '9') {
		if (ms > (INT64_MAX / SF_NSEC_PER_MSEC) / 10)
			return fail(c, "time \"%s\" is too large", buf);
		ms = ms * 10 + (*p++ - '0');
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9' && digits < 6) {
			frac = frac * 10 + (*p++ - '0');
			digits++;
		}
	}
	if (*p)
		return fail(c, "time \"%s\" is not a number of milliseconds "
			    "(at most 6 decimals)", buf);
	while (digits++ < 6)
		frac *= 10;
	*out = ms * SF_NSEC_PER_MSEC + frac;
	return true;
}

/* "WxH@mHz" followed by flags: '*' current, 'p' preferred, 's'
 * seamless. */
static bool
parse_mode(struct cursor *c, const char *s, struct sf_mode *mode,
	   bool *current)
{
	const char *p = s;
	uint32_t w, h, mhz;

	if (!parse_u32(p, &w, &p) || *p++ != 'x' ||
	    !parse_u32(p, &h, &p) || *p++ != '@' ||
	    !parse_u32(p, &mhz, &p) || w == 0 || h == 0 || mhz == 0 ||
	    w > INT32_MAX || h > INT32_MAX)
		return fail(c, "mode \"%s\" is not WIDTHxHEIGHT@MILLIHERTZ", s);
	*mode = (struct sf_mode){ (int32_t)w, (int32_t)h, mhz, false, false };
	*current = false;
	for (; *p; p++) {
		switch (*p) {
		case '*': *current = true; break;
		case 'p': mode->preferred = true; break;
		case 's': mode->seamless = true; break;
		default:
			return fail(c, "mode \"%s\": unknown flag '%c' (allowed "
				    "* p s)", s, *p);
		}
	}
	return true;
}

/* "x,y,WxH" */
static bool
parse_box(struct cursor *c, const char *s, const char **end,
	  struct sf_box *box)
{
	const char *p = s;
	int32_t x, y;
	uint32_t w, h;

	if (!parse_i32(p, &x, &p) || *p++ != ',' ||
	    !parse_i32(p, &y, &p) || *p++ != ',' ||
	    !parse_u32(p, &w, &p) || *p++ != 'x' ||
	    !parse_u32(p, &h, &p) ||
	    (int64_t)x + w > INT32_MAX || (int64_t)y + h > INT32_MAX)
		return fail(c, "damage \"%s\" is not X,Y,WIDTHxHEIGHT", s);
	*box = (struct sf_box){ x, y, (int32_t)(x + (int64_t)w),
				(int32_t)(y + (int64_t)h) };
	*end = p;
	return true;
}

static bool
parse_output(struct cursor *c, struct sf_trace_event *ev)
{
	bool have_current = false;

	if (!word_u32(c, &ev->id, "output id") ||
	    !word(c, ev->u.output.name, sizeof(ev->u.output.name),
		  "output name"))
		return false;
	while (!at_end(c)) {
		char buf[48];
		bool current = false;

		if (ev->u.output.n_modes >= SF_TRACE_MAX_MODES)
			return fail(c, "more than %d modes",
				    SF_TRACE_MAX_MODES);
		if (!word(c, buf, sizeof(buf), "mode") ||
		    !parse_mode(c, buf,
				&ev->u.output.modes[ev->u.output.n_modes],
				&current))
			return false;
		if (current) {
			if (have_current)
				return fail(c, "two modes are marked current");
			have_current = true;
			ev->u.output.current = ev->u.output.n_modes;
		}
		ev->u.output.n_modes++;
	}
	if (ev->u.output.n_modes == 0)
		return fail(c, "output %u has no modes", ev->id);
	if (!have_current)
		return fail(c, "output %u: no mode is marked current (*)",
			    ev->id);
	return true;
}

static bool
parse_surface(struct cursor *c, struct sf_trace_event *ev)
{
	char size[32], vis[32];
	const char *p;
	uint32_t w, h;
	char *end;

	if (!word_u32(c, &ev->id, "surface id") ||
	    !word_u32(c, &ev->u.surface.output, "output id") ||
	    !word(c, size, sizeof(size), "size") ||
	    !word(c, vis, sizeof(vis), "visible fraction"))
		return false;
	p = size;
	if (!parse_u32(p, &w, &p) || *p++ != 'x' || !parse_u32(p, &h, &p) ||
	    *p || w > INT32_MAX || h > INT32_MAX)
		return fail(c, "size \"%s\" is not WIDTHxHEIGHT", size);
	ev->u.surface.width = (int32_t)w;
	ev->u.surface.height = (int32_t)h;
	errno = 0;
	ev->u.surface.visible = strtod(vis, &end);
	if (errno || *end || !(ev->u.surface.visible >= 0.0) ||
	    ev->u.surface.visible > 1.0)
		return fail(c, "visible fraction \"%s\" is not in 0..1", vis);
	if (!at_end(c) &&
	    !word(c, ev->u.surface.label, sizeof(ev->u.surface.label),
		  "label"))
		return false;
	return true;
}

static bool
parse_commit(struct cursor *c, struct sf_trace_event *ev)
{
	char buf[256];

	if (!word_u32(c, &ev->id, "surface id") ||
	    !word(c, buf, sizeof(buf), "damage"))
		return false;
	if (strcmp(buf, "-") != 0) {
		const char *p = buf;
		for (;;) {
			if (ev->u.commit.n_boxes >= SF_TRACE_MAX_BOXES)
				return fail(c, "more than %d damage boxes",
					    SF_TRACE_MAX_BOXES);
			if (!parse_box(c, p, &p,
				       &ev->u.commit.boxes[ev->u.commit.n_boxes]))
				return false;
			ev->u.commit.n_boxes++;
			if (*p == '\0')
				break;
			if (*p++ != '+')
				return fail(c, "damage \"%s\": boxes are "
					    "joined with '+'", buf);
		}
	}
	/* Then, in any order: #HASH, "ink=N" (the hashed pixels' ink), and
	 * "same" for pixels the recorder saw unchanged. */
	while (!at_end(c)) {
		char w[24];
		char *end;

		if (!word(c, w, sizeof(w), "hash, ink=N or \"same\""))
			return false;
		if (strcmp(w, "same") == 0) {
			ev->u.commit.unchanged = true;
			continue;
		}
		if (strncmp(w, "ink=", 4) == 0) {
			errno = 0;
			unsigned long ink = strtoul(w + 4, &end, 10);
			if (errno || *end || w[4] < '0' || w[4] > '9' ||
			    ink > UINT32_MAX)
				return fail(c, "\"%s\" is not ink=N", w);
			ev->u.commit.ink = (uint32_t)ink;
			continue;
		}
		if (w[0] != '#' || strlen(w) < 2 || strlen(w) > 17)
			return fail(c, "\"%s\" is neither a hash (#HEX, 1 to "
				    "16 digits) nor \"same\"", w);
		errno = 0;
		ev->u.commit.hash = strtoull(w + 1, &end, 16);
		if (errno || *end)
			return fail(c, "hash \"%s\" is not #HEX", w);
		ev->u.commit.has_hash = true;
	}
	return true;
}

static const char *const input_names[SF_INPUT_KIND_COUNT] = {
	[SF_INPUT_POINTER] = "pointer",
	[SF_INPUT_KEY] = "key",
	[SF_INPUT_BUTTON] = "button",
	[SF_INPUT_TOUCH] = "touch",
};

static const char *const content_names[] = {
	"none", "photo", "video", "game",
};

static bool
parse_input(struct cursor *c, struct sf_trace_event *ev)
{
	char buf[16];

	if (!word(c, buf, sizeof(buf), "input kind"))
		return false;
	for (int i = 0; i < SF_INPUT_KIND_COUNT; i++) {
		if (strcmp(buf, input_names[i]) == 0) {
			ev->u.input.kind = i;
			return true;
		}
	}
	return fail(c, "input kind \"%s\" is not pointer|key|button|touch",
		    buf);
}

static bool
parse_hint(struct cursor *c, struct sf_trace_event *ev)
{
	char kind[16], arg[48];
	const char *p;

	if (!word_u32(c, &ev->id, "surface id") ||
	    !word(c, kind, sizeof(kind), "hint kind"))
		return false;
	if (strcmp(kind, "clear") == 0) {
		ev->u.hint.kind = SF_TRACE_HINT_CLEAR;
		return true;
	}
	if (!word(c, arg, sizeof(arg), "hint value"))
		return false;
	p = arg;
	if (strcmp(kind, "rate") == 0) {
		ev->u.hint.kind = SF_TRACE_HINT_RATE;
		if (!parse_u32(p, &ev->u.hint.num, &p) || *p++ != '/' ||
		    !parse_u32(p, &ev->u.hint.den, &p) || *p ||
		    ev->u.hint.den == 0)
			return fail(c, "rate \"%s\" is not NUM/DEN", arg);
		return true;
	}
	if (strcmp(kind, "range") == 0) {
		ev->u.hint.kind = SF_TRACE_HINT_RANGE;
		if (!parse_u32(p, &ev->u.hint.min_mhz, &p) || *p++ != '-' ||
		    !parse_u32(p, &ev->u.hint.max_mhz, &p) || *p ||
		    ev->u.hint.min_mhz > ev->u.hint.max_mhz)
			return fail(c, "range \"%s\" is not MIN-MAX in mHz "
				    "with MIN <= MAX", arg);
		return true;
	}
	if (strcmp(kind, "content") == 0) {
		ev->u.hint.kind = SF_TRACE_HINT_CONTENT;
		for (size_t i = 0; i < SF_ARRAY_LENGTH(content_names); i++) {
			if (strcmp(arg, content_names[i]) == 0) {
				ev->u.hint.content = i;
				return true;
			}
		}
		return fail(c, "content \"%s\" is not none|photo|video|game",
			    arg);
	}
	return fail(c, "hint \"%s\" is not rate|range|content|clear", kind);
}

static bool
parse_on_off(struct cursor *c, bool *on)
{
	char buf[8];

	if (!word(c, buf, sizeof(buf), "on|off"))
		return false;
	if (strcmp(buf, "on") == 0)
		*on = true;
	else if (strcmp(buf, "off") == 0)
		*on = false;
	else
		return fail(c, "\"%s\" is not on|off", buf);
	return true;
}

enum sf_trace_status
sf_trace_parse_line(const char *line, struct sf_trace_event *ev, char *err,
		    size_t err_size)
{
	struct cursor c = { line, err, err_size };
	char verb[24];
	bool ok;

	memset(ev, 0, sizeof(*ev));
	/* Comments are whole lines; '#' inside an event starts a hash. */
	if (at_end(&c) || *c.p == '#')
		return SF_TRACE_BLANK;
	if (strncmp(c.p, "stillframe-trace", 16) == 0) {
		uint32_t version;
		c.p += 16;
		ev->type = SF_TRACE_HEADER;
		if (!word_u32(&c, &version, "version"))
			return SF_TRACE_ERROR;
		if (version != SF_TRACE_VERSION) {
			fail(&c, "trace version %u is not supported (this "
			     "build reads version %d)", version,
			     SF_TRACE_VERSION);
			return SF_TRACE_ERROR;
		}
		ev->id = version;
		return at_end(&c) ? SF_TRACE_OK :
		       (fail(&c, "unexpected text after the header"),
			SF_TRACE_ERROR);
	}
	if (!parse_time(&c, &ev->time) ||
	    !word(&c, verb, sizeof(verb), "event"))
		return SF_TRACE_ERROR;

	if (strcmp(verb, "output") == 0) {
		ev->type = SF_TRACE_OUTPUT;
		ok = parse_output(&c, ev);
	} else if (strcmp(verb, "surface") == 0) {
		ev->type = SF_TRACE_SURFACE;
		ok = parse_surface(&c, ev);
	} else if (strcmp(verb, "commit") == 0) {
		ev->type = SF_TRACE_COMMIT;
		ok = parse_commit(&c, ev);
	} else if (strcmp(verb, "input") == 0) {
		ev->type = SF_TRACE_INPUT;
		ok = parse_input(&c, ev);
	} else if (strcmp(verb, "hint") == 0) {
		ev->type = SF_TRACE_HINT;
		ok = parse_hint(&c, ev);
	} else if (strcmp(verb, "focus") == 0) {
		ev->type = SF_TRACE_FOCUS;
		ok = word_u32(&c, &ev->id, "surface id");
	} else if (strcmp(verb, "destroy") == 0) {
		ev->type = SF_TRACE_DESTROY;
		ok = word_u32(&c, &ev->id, "surface id");
	} else if (strcmp(verb, "inhibit") == 0) {
		ev->type = SF_TRACE_INHIBIT;
		ok = word_u32(&c, &ev->id, "output id") &&
		     parse_on_off(&c, &ev->u.inhibit.on);
	} else if (strcmp(verb, "repaint") == 0) {
		ev->type = SF_TRACE_REPAINT;
		ok = word_u32(&c, &ev->id, "output id");
		if (ok && !at_end(&c))
			ok = word_u32(&c, &ev->u.repaint.force, "force bits");
	} else if (strcmp(verb, "mode") == 0) {
		ev->type = SF_TRACE_MODE;
		ok = word_u32(&c, &ev->id, "output id") &&
		     word_u32(&c, &ev->u.mode.mode, "mode index");
	} else if (strcmp(verb, "end") == 0) {
		ev->type = SF_TRACE_END;
		ok = true;
	} else {
		ok = fail(&c, "unknown event \"%s\"", verb);
	}
	if (!ok)
		return SF_TRACE_ERROR;
	if (!at_end(&c)) {
		fail(&c, "unexpected text \"%.20s\" after the %s event", c.p,
		     verb);
		return SF_TRACE_ERROR;
	}
	return SF_TRACE_OK;
}

struct out {
	char *buf;
	size_t size;
	size_t len;
};

static void
put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	size_t room = o->len < o->size ? o->size - o->len : 0;

	va_start(ap, fmt);
	int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static void
put_time(struct out *o, sf_time_t t)
{
	int64_t ms = t / SF_NSEC_PER_MSEC, frac = t % SF_NSEC_PER_MSEC;

	if (frac == 0) {
		put(o, "%" PRId64, ms);
		return;
	}
	int digits = 6;
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	put(o, "%" PRId64 ".%0*" PRId64, ms, digits, frac);
}

int
sf_trace_format_event(const struct sf_trace_event *ev, char *buf,
		      size_t size)
{
	struct out o = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	if (ev->type == SF_TRACE_HEADER) {
		put(&o, "stillframe-trace %d\n", SF_TRACE_VERSION);
		return (int)o.len;
	}
	put_time(&o, ev->time);
	switch (ev->type) {
	case SF_TRACE_HEADER:
		break;
	case SF_TRACE_OUTPUT:
		put(&o, " output %u %s", ev->id, ev->u.output.name);
		for (uint32_t i = 0; i < ev->u.output.n_modes; i++) {
			const struct sf_mode *m = &ev->u.output.modes[i];
			put(&o, " %dx%d@%u%s%s%s", m->width, m->height,
			    m->refresh_mhz,
			    i == ev->u.output.current ? "*" : "",
			    m->preferred ? "p" : "", m->seamless ? "s" : "");
		}
		break;
	case SF_TRACE_SURFACE:
		put(&o, " surface %u %u %dx%d %.4g", ev->id,
		    ev->u.surface.output, ev->u.surface.width,
		    ev->u.surface.height, ev->u.surface.visible);
		if (ev->u.surface.label[0])
			put(&o, " %s", ev->u.surface.label);
		break;
	case SF_TRACE_COMMIT:
		put(&o, " commit %u ", ev->id);
		if (ev->u.commit.n_boxes == 0)
			put(&o, "-");
		for (uint32_t i = 0; i < ev->u.commit.n_boxes; i++) {
			const struct sf_box *b = &ev->u.commit.boxes[i];
			put(&o, "%s%d,%d,%dx%d", i ? "+" : "", b->x1, b->y1,
			    b->x2 - b->x1, b->y2 - b->y1);
		}
		if (ev->u.commit.has_hash)
			put(&o, " #%016" PRIx64, ev->u.commit.hash);
		if (ev->u.commit.has_hash && ev->u.commit.ink)
			put(&o, " ink=%" PRIu32, ev->u.commit.ink);
		if (ev->u.commit.unchanged)
			put(&o, " same");
		break;
	case SF_TRACE_INPUT:
		put(&o, " input %s", ev->u.input.kind < SF_INPUT_KIND_COUNT ?
			input_names[ev->u.input.kind] : "pointer");
		break;
	case SF_TRACE_HINT:
		put(&o, " hint %u ", ev->id);
		switch (ev->u.hint.kind) {
		case SF_TRACE_HINT_CLEAR: put(&o, "clear"); break;
		case SF_TRACE_HINT_RATE:
			put(&o, "rate %u/%u", ev->u.hint.num, ev->u.hint.den);
			break;
		case SF_TRACE_HINT_RANGE:
			put(&o, "range %u-%u", ev->u.hint.min_mhz,
			    ev->u.hint.max_mhz);
			break;
		case SF_TRACE_HINT_CONTENT:
			put(&o, "content %s",
			    sf_content_type_name(ev->u.hint.content));
			break;
		}
		break;
	case SF_TRACE_FOCUS:
		put(&o, " focus %u", ev->id);
		break;
	case SF_TRACE_DESTROY:
		put(&o, " destroy %u", ev->id);
		break;
	case SF_TRACE_INHIBIT:
		put(&o, " inhibit %u %s", ev->id,
		    ev->u.inhibit.on ? "on" : "off");
		break;
	case SF_TRACE_REPAINT:
		put(&o, " repaint %u %u", ev->id, ev->u.repaint.force);
		break;
	case SF_TRACE_MODE:
		put(&o, " mode %u %u", ev->id, ev->u.mode.mode);
		break;
	case SF_TRACE_END:
		put(&o, " end");
		break;
	}
	put(&o, "\n");
	return (int)o.len;
}
