/* SPDX-License-Identifier: MIT */
/*
 * sf-bench-x: the benchmarks' independent witness of an X server.  It
 * reports what the server draws on screen, per top-level window, and at
 * which refresh the CRTCs run, and it injects input on request.  It
 * speaks only DAMAGE, RANDR and XTEST, never the STILLFRAME extension,
 * so that stock Xorg and Xorg with our module are measured alike.
 *
 *   sf-bench-x [--display D] [--frames]
 *
 * stdout, one event per line, T = CLOCK_MONOTONIC in ms (12345.678):
 *   crtc T CRTC_ID REFRESH_MHZ	at start for each CRTC of screen 0, then
 *				whenever a CRTC's refresh changes; 0 when
 *				it has no mode
 *   window T 0xWINDOW PID	a top-level first seen, or its _NET_WM_PID
 *				(its own or a child's) changed; PID 0: none
 *   damage T 0xWINDOW AREA	the server drew in that top-level or its
 *				inferiors; AREA sums the notifies' area
 *				rectangles read in one batch (level
 *				NonEmpty: each is the window's size)
 *   input T WHAT		a stdin command was sent; T is taken
 *				before its XTest requests
 *   sync T			the round trip of "sync" came back
 *   error T MESSAGE		a bad command, or "connection lost"
 *
 * and with --frames, what changed on screen (the root's pixels), in
 * tiles of TILE x TILE pixels numbered row by row, IDX = row *
 * ceil(W / TILE) + column, the right and bottom ones partial:
 *   screen W H TILE		at start, and whenever RandR resizes the
 *				root: its size, and TILE (32)
 *   frame T N IDX:HASH:INK...	after the screen line, every tile; then
 *				for each batch of the root's damage, the
 *				tiles it touched whose hash changed, N of
 *				them (frame T 0: drawing that changed no
 *				pixel); for a batch of only top-levels'
 *				damage, the same when a tile changed (the
 *				root's notifies may come late: see
 *				sf-bench-x-frames.c).  T is taken before
 *				the tiles are read back (GetImage,
 *				ZPixmap).  HASH: 16
 *				lowercase hex digits of the 64-bit FNV-1a
 *				of the tile's pixels row by row, each the
 *				4 bytes of v & 0x00ffffff little-endian
 *				(the Weston side hashes its framebuffer
 *				alike); INK: the tile's pixels not of its
 *				most common colour (tests/sf-tile-hash.h);
 *				"error T unsupported image format"
 *				and exit 2 when pixels are not 32 bits
 *
 * stdin, one command per line: key KEYCODE | text STRING ([a-z0-9 ]) |
 * motion X Y | button N | sync | quit.
 *
 * Exit: 0 on quit or end of stdin, 1 when the connection is lost or
 * cannot be made, 2 for bad arguments, a missing extension or (with
 * --frames) an image format it does not hash.
 *
 * A Damage object on a window hangs on the pixmap the window draws into
 * (the screen's, unless Composite redirects it), and what is drawn there
 * is clipped to the window's borderClip, which includes its inferiors
 * (miext/damage/damage.c, damageRegionAppend).  So one object per child
 * of the root sees the drawing of all its descendants, a reparenting
 * window manager's frame included, and no descendant needs its own.
 *
 * The root's borderClip is the screen, so --frames's Damage on the root
 * sees whatever is drawn into the screen's pixmap: the drawing of
 * unredirected windows and a compositing manager's painting through
 * its overlay window or on the root alike, and not what redirected
 * windows draw into their offscreen pixmaps: only what is on screen.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xcb/damage.h>
#include <xcb/randr.h>
#include <xcb/xtest.h>

#include "sf-bench-x-frames.h"
#include "sf-bench-x-output.h"

#define LINE_MAX_LEN 4096

struct toplevel {
	xcb_window_t window;
	xcb_damage_damage_t damage;
	xcb_damage_damage_t raw;	/* --frames: each drawing's rectangles */
	uint32_t pid;
	uint64_t pending_area;		/* damage read in this batch */
};

struct crtc {
	xcb_randr_crtc_t id;
	uint32_t refresh_mhz;		/* last printed */
};

struct bench_x {
	xcb_connection_t *conn;
	xcb_window_t root;
	uint8_t damage_event;
	uint8_t randr_event;
	xcb_atom_t net_wm_pid;

	struct toplevel *tops;
	size_t n_tops, cap_tops;
	struct crtc *crtcs;
	size_t n_crtcs, cap_crtcs;
	xcb_randr_get_screen_resources_current_reply_t *res;

	/* --frames: the root's tiles; NULL without */
	struct sf_bench_frames *frames;
	/* Replies were awaited after the last events were read: xcb may
	 * hold events that poll() will not announce. */
	bool events_maybe_queued;

	/* keycode per ASCII character, 0 when the keymap has none */
	xcb_keycode_t keycode_of[128];
	bool keymap_stale;

	char line[LINE_MAX_LEN];
	size_t line_len;
	bool line_overflow;
};

static void *
grow(void *array, size_t *cap, size_t size)
{
	size_t n = *cap ? *cap * 2 : 16;
	void *p = realloc(array, n * size);

	if (!p) {
		fprintf(stderr, "sf-bench-x: out of memory\n");
		exit(1);
	}
	*cap = n;
	return p;
}

/* --- outputs --- */

static uint32_t
mode_refresh_mhz(const xcb_randr_mode_info_t *mode)
{
	uint64_t num = (uint64_t)mode->dot_clock * 1000;
	uint64_t den = (uint64_t)mode->htotal * mode->vtotal;

	/* Interlaced modes scan half the lines per field, doublescan
	 * modes every line twice. */
	if (mode->mode_flags & XCB_RANDR_MODE_FLAG_INTERLACE)
		num *= 2;
	if (mode->mode_flags & XCB_RANDR_MODE_FLAG_DOUBLE_SCAN)
		den *= 2;
	if (den == 0)
		return 0;
	return (uint32_t)((num + den / 2) / den);
}

static void
resources_fetch(struct bench_x *bx)
{
	free(bx->res);
	bx->res = xcb_randr_get_screen_resources_current_reply(bx->conn,
		xcb_randr_get_screen_resources_current(bx->conn, bx->root),
		NULL);
}

static const xcb_randr_mode_info_t *
mode_find(struct bench_x *bx, xcb_randr_mode_t id)
{
	if (!bx->res)
		return NULL;
	xcb_randr_mode_info_t *modes =
		xcb_randr_get_screen_resources_current_modes(bx->res);
	int n = xcb_randr_get_screen_resources_current_modes_length(bx->res);
	for (int i = 0; i < n; i++)
		if (modes[i].id == id)
			return &modes[i];
	return NULL;
}

static void
crtc_report(struct bench_x *bx, xcb_randr_crtc_t id, xcb_randr_mode_t mode)
{
	uint32_t mhz = 0;

	if (mode != XCB_NONE) {
		const xcb_randr_mode_info_t *info = mode_find(bx, mode);
		/* A mode added since we last asked (xrandr --newmode). */
		if (!info) {
			resources_fetch(bx);
			info = mode_find(bx, mode);
		}
		if (!info)
			return;
		mhz = mode_refresh_mhz(info);
	}

	struct crtc *c = NULL;
	for (size_t i = 0; i < bx->n_crtcs; i++)
		if (bx->crtcs[i].id == id)
			c = &bx->crtcs[i];
	if (!c) {
		if (bx->n_crtcs == bx->cap_crtcs)
			bx->crtcs = grow(bx->crtcs, &bx->cap_crtcs,
					 sizeof(*bx->crtcs));
		c = &bx->crtcs[bx->n_crtcs++];
		c->id = id;
	} else if (c->refresh_mhz == mhz) {
		return;
	}
	c->refresh_mhz = mhz;
	sf_bench_x_stamp("crtc", sf_bench_x_now_us());
	printf(" %" PRIu32 " %" PRIu32, id, mhz);
	sf_bench_x_line_end();
}

static void
crtcs_start(struct bench_x *bx)
{
	resources_fetch(bx);
	if (!bx->res)
		return;
	xcb_randr_crtc_t *ids = xcb_randr_get_screen_resources_current_crtcs(
		bx->res);
	int n = xcb_randr_get_screen_resources_current_crtcs_length(bx->res);
	for (int i = 0; i < n; i++) {
		xcb_randr_get_crtc_info_reply_t *info =
			xcb_randr_get_crtc_info_reply(bx->conn,
				xcb_randr_get_crtc_info(bx->conn, ids[i],
					bx->res->config_timestamp), NULL);
		if (!info)
			continue;
		crtc_report(bx, ids[i], info->mode);
		free(info);
	}
}

/* --- top-level windows --- */

static struct toplevel *
toplevel_find(struct bench_x *bx, xcb_window_t window)
{
	for (size_t i = 0; i < bx->n_tops; i++)
		if (bx->tops[i].window == window)
			return &bx->tops[i];
	return NULL;
}

static uint32_t
window_pid(struct bench_x *bx, xcb_window_t window)
{
	xcb_get_property_reply_t *prop = xcb_get_property_reply(bx->conn,
		xcb_get_property(bx->conn, 0, window, bx->net_wm_pid,
				 XCB_ATOM_CARDINAL, 0, 1), NULL);
	uint32_t pid = 0;

	if (prop && prop->format == 32 &&
	    xcb_get_property_value_length(prop) >= 4)
		memcpy(&pid, xcb_get_property_value(prop), 4);
	free(prop);
	return pid;
}

/* A reparenting window manager's frame has no _NET_WM_PID; the client's
 * window one level down has. */
static uint32_t
toplevel_pid(struct bench_x *bx, xcb_window_t window)
{
	uint32_t pid = window_pid(bx, window);
	if (pid)
		return pid;

	xcb_query_tree_reply_t *tree = xcb_query_tree_reply(bx->conn,
		xcb_query_tree(bx->conn, window), NULL);
	if (!tree)
		return 0;
	xcb_window_t *children = xcb_query_tree_children(tree);
	int n = xcb_query_tree_children_length(tree);
	for (int i = 0; i < n && !pid; i++)
		pid = window_pid(bx, children[i]);
	free(tree);
	return pid;
}

static void
toplevel_print(struct toplevel *top)
{
	sf_bench_x_stamp("window", sf_bench_x_now_us());
	printf(" 0x%" PRIx32 " %" PRIu32, top->window, top->pid);
	sf_bench_x_line_end();
}

static void
toplevel_add(struct bench_x *bx, xcb_window_t window)
{
	if (toplevel_find(bx, window))
		return;

	/* DAMAGE refuses InputOnly windows, and nothing is drawn in
	 * them.  No reply: the window is already gone. */
	xcb_get_window_attributes_reply_t *attr =
		xcb_get_window_attributes_reply(bx->conn,
			xcb_get_window_attributes(bx->conn, window), NULL);
	if (!attr)
		return;
	bool input_only = attr->_class == XCB_WINDOW_CLASS_INPUT_ONLY;
	free(attr);
	if (input_only)
		return;

	/* Substructure: a window manager reparents the client's window
	 * into its frame after we first looked for a PID there. */
	uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE |
			XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
	xcb_change_window_attributes(bx->conn, window, XCB_CW_EVENT_MASK,
				     &mask);
	xcb_damage_damage_t damage = xcb_generate_id(bx->conn);
	xcb_damage_create(bx->conn, damage, window,
			  XCB_DAMAGE_REPORT_LEVEL_NON_EMPTY);

	/* A second object for --frames, raw like the root's: the screen's
	 * tiles under what the window drew are read too, not the whole
	 * window's, which the first one's notifies would name. */
	xcb_damage_damage_t raw = XCB_NONE;
	if (bx->frames) {
		raw = xcb_generate_id(bx->conn);
		xcb_damage_create(bx->conn, raw, window,
				  XCB_DAMAGE_REPORT_LEVEL_RAW_RECTANGLES);
	}

	if (bx->n_tops == bx->cap_tops)
		bx->tops = grow(bx->tops, &bx->cap_tops, sizeof(*bx->tops));
	struct toplevel *top = &bx->tops[bx->n_tops++];
	*top = (struct toplevel) {
		.window = window, .damage = damage, .raw = raw,
	};
	top->pid = toplevel_pid(bx, window);
	toplevel_print(top);
}

/* The server frees the Damage object with its window; only a window
 * that merely moved away from the root still has one, and our event
 * selection, to drop. */
static void
toplevel_remove(struct bench_x *bx, xcb_window_t window, bool destroyed)
{
	struct toplevel *top = toplevel_find(bx, window);
	if (!top)
		return;
	if (!destroyed) {
		uint32_t none = 0;
		xcb_damage_destroy(bx->conn, top->damage);
		if (top->raw != XCB_NONE)
			xcb_damage_destroy(bx->conn, top->raw);
		xcb_change_window_attributes(bx->conn, window,
					     XCB_CW_EVENT_MASK, &none);
	}
	*top = bx->tops[--bx->n_tops];
}

/* A child's arrival is only news for a top-level without a PID yet:
 * asking again each time would cost a round trip per subwindow mapped. */
static void
toplevel_recheck_pid(struct bench_x *bx, xcb_window_t window,
		     bool only_unknown)
{
	struct toplevel *top = toplevel_find(bx, window);
	if (!top || (only_unknown && top->pid))
		return;
	uint32_t pid = toplevel_pid(bx, window);
	if (pid == top->pid)
		return;
	top->pid = pid;
	toplevel_print(top);
}

static void
toplevels_start(struct bench_x *bx)
{
	xcb_query_tree_reply_t *tree = xcb_query_tree_reply(bx->conn,
		xcb_query_tree(bx->conn, bx->root), NULL);
	if (!tree)
		return;
	xcb_window_t *children = xcb_query_tree_children(tree);
	int n = xcb_query_tree_children_length(tree);
	for (int i = 0; i < n; i++)
		toplevel_add(bx, children[i]);
	free(tree);
}

/* One line per top-level per batch: a frame drawn in several requests
 * that reach us together is one frame, not several. */
static void
damage_flush(struct bench_x *bx)
{
	int64_t t = sf_bench_x_now_us();

	for (size_t i = 0; i < bx->n_tops; i++) {
		struct toplevel *top = &bx->tops[i];
		if (!top->pending_area)
			continue;
		sf_bench_x_stamp("damage", t);
		printf(" 0x%" PRIx32 " %" PRIu64, top->window,
		       top->pending_area);
		sf_bench_x_line_end();
		top->pending_area = 0;
	}
}


static void
handle_damage(struct bench_x *bx, const xcb_damage_notify_event_t *ev)
{
	if (bx->frames && sf_bench_frames_handle_damage(bx->frames, ev))
		return;
	for (size_t i = 0; i < bx->n_tops; i++) {
		struct toplevel *top = &bx->tops[i];
		if (top->raw == ev->damage) {	/* never XCB_NONE */
			sf_bench_frames_handle_toplevel_damage(bx->frames, ev);
			return;
		}
		if (top->damage != ev->damage)
			continue;
		/* Empty again, so the next drawing notifies again. */
		xcb_damage_subtract(bx->conn, top->damage, XCB_NONE,
				    XCB_NONE);
		top->pending_area += (uint64_t)ev->area.width *
				     ev->area.height;
		return;
	}
}

static void
handle_randr(struct bench_x *bx, const xcb_randr_notify_event_t *ev)
{
	if (ev->subCode == XCB_RANDR_NOTIFY_CRTC_CHANGE)
		crtc_report(bx, ev->u.cc.crtc, ev->u.cc.mode);
}

static void
handle_event(struct bench_x *bx, xcb_generic_event_t *ev)
{
	uint8_t type = ev->response_type & 0x7f;

	/* Errors are windows that vanished before we got to them, or a
	 * client's keycode or button out of range: none concerns us. */
	if (type == 0)
		return;
	if (type == bx->damage_event + XCB_DAMAGE_NOTIFY) {
		handle_damage(bx, (xcb_damage_notify_event_t *)ev);
		return;
	}
	if (type == bx->randr_event + XCB_RANDR_NOTIFY) {
		handle_randr(bx, (xcb_randr_notify_event_t *)ev);
		return;
	}

	switch (type) {
	case XCB_CREATE_NOTIFY: {
		xcb_create_notify_event_t *e = (void *)ev;
		if (e->parent == bx->root)
			toplevel_add(bx, e->window);
		break;
	}
	case XCB_CONFIGURE_NOTIFY: {
		/* --frames selects the root's own: RandR resized it. */
		xcb_configure_notify_event_t *e = (void *)ev;
		if (bx->frames && e->window == bx->root)
			sf_bench_frames_resize(bx->frames, e->width,
					       e->height);
		break;
	}
	case XCB_DESTROY_NOTIFY: {
		xcb_destroy_notify_event_t *e = (void *)ev;
		toplevel_remove(bx, e->window, true);
		break;
	}
	case XCB_REPARENT_NOTIFY: {
		xcb_reparent_notify_event_t *e = (void *)ev;
		if (e->parent == bx->root) {
			toplevel_add(bx, e->window);
		} else {
			toplevel_remove(bx, e->window, false);
			toplevel_recheck_pid(bx, e->parent, true);
		}
		break;
	}
	case XCB_MAP_NOTIFY: {
		/* A child of a top-level mapped: the client's window in
		 * its frame, whose PID may be news. */
		xcb_map_notify_event_t *e = (void *)ev;
		if (e->event != bx->root)
			toplevel_recheck_pid(bx, e->event, true);
		break;
	}
	case XCB_PROPERTY_NOTIFY: {
		xcb_property_notify_event_t *e = (void *)ev;
		if (e->atom == bx->net_wm_pid)
			toplevel_recheck_pid(bx, e->window, false);
		break;
	}
	case XCB_MAPPING_NOTIFY: {
		xcb_mapping_notify_event_t *e = (void *)ev;
		if (e->request == XCB_MAPPING_KEYBOARD)
			bx->keymap_stale = true;
		break;
	}
	default:
		break;
	}
}

/* Everything xcb has read, including what it queued while we waited
 * for replies, since poll() will not see that again. */
static void
drain_events(struct bench_x *bx)
{
	xcb_generic_event_t *ev;

	bx->events_maybe_queued = false;
	while ((ev = xcb_poll_for_event(bx->conn))) {
		handle_event(bx, ev);
		free(ev);
	}
	if (xcb_connection_has_error(bx->conn))
		sf_bench_x_connection_lost();
	damage_flush(bx);
	if (bx->frames && sf_bench_frames_flush(bx->frames))
		bx->events_maybe_queued = true;
}

/* --- input --- */

static void
keymap_load(struct bench_x *bx)
{
	const xcb_setup_t *setup = xcb_get_setup(bx->conn);
	uint8_t count = (uint8_t)(setup->max_keycode - setup->min_keycode + 1);

	memset(bx->keycode_of, 0, sizeof(bx->keycode_of));
	bx->keymap_stale = false;
	xcb_get_keyboard_mapping_reply_t *map =
		xcb_get_keyboard_mapping_reply(bx->conn,
			xcb_get_keyboard_mapping(bx->conn,
				setup->min_keycode, count), NULL);
	if (!map)
		return;
	xcb_keysym_t *syms = xcb_get_keyboard_mapping_keysyms(map);
	int n = xcb_get_keyboard_mapping_keysyms_length(map);
	int per = map->keysyms_per_keycode;

	/* Only the first column: a keysym reachable with Shift alone
	 * would need Shift pressed, and [a-z0-9 ] needs none. The
	 * Latin-1 keysyms are the characters' codes. */
	for (int i = 0; per > 0 && i < n; i += per) {
		xcb_keysym_t sym = syms[i];
		if (sym < 128 && !bx->keycode_of[sym])
			bx->keycode_of[sym] =
				(xcb_keycode_t)(setup->min_keycode + i / per);
	}
	free(map);
}

static void
fake_click(struct bench_x *bx, uint8_t press, uint8_t detail)
{
	xcb_test_fake_input(bx->conn, press, detail, XCB_CURRENT_TIME,
			    XCB_NONE, 0, 0, 0);
	xcb_test_fake_input(bx->conn, press + 1, detail, XCB_CURRENT_TIME,
			    XCB_NONE, 0, 0, 0);
}

static void
input_done(struct bench_x *bx, int64_t t, const char *what)
{
	xcb_flush(bx->conn);
	sf_bench_x_stamp("input", t);
	printf(" %s", what);
	sf_bench_x_line_end();
}

/* A whole decimal integer in [min, max] and where it ended. */
static bool
parse_long(const char *s, long min, long max, long *out, char **end)
{
	errno = 0;
	long v = strtol(s, end, 10);
	if (*end == s || errno || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static bool
at_end(const char *s)
{
	return *s == '\0';
}

static bool
run_command(struct bench_x *bx, char *cmd)
{
	long a, b;
	char *end;

	if (strncmp(cmd, "key ", 4) == 0) {
		if (!parse_long(cmd + 4, 8, 255, &a, &end) || !at_end(end))
			return false;
		int64_t t = sf_bench_x_now_us();
		fake_click(bx, XCB_KEY_PRESS, (uint8_t)a);
		input_done(bx, t, cmd);
	} else if (strcmp(cmd, "text") == 0 ||
		   strncmp(cmd, "text ", 5) == 0) {
		if (bx->keymap_stale)
			keymap_load(bx);
		const char *text = cmd[4] ? cmd + 5 : cmd + 4;
		int64_t t = sf_bench_x_now_us();
		for (const char *c = text; *c; c++) {
			unsigned char ch = (unsigned char)*c;
			bool wanted = (ch >= 'a' && ch <= 'z') ||
				      (ch >= '0' && ch <= '9') || ch == ' ';
			if (wanted && bx->keycode_of[ch])
				fake_click(bx, XCB_KEY_PRESS,
					   bx->keycode_of[ch]);
		}
		input_done(bx, t, cmd);
	} else if (strncmp(cmd, "motion ", 7) == 0) {
		if (!parse_long(cmd + 7, INT16_MIN, INT16_MAX, &a, &end) ||
		    !parse_long(end, INT16_MIN, INT16_MAX, &b, &end) ||
		    !at_end(end))
			return false;
		int64_t t = sf_bench_x_now_us();
		/* detail 0: absolute, on the root given */
		xcb_test_fake_input(bx->conn, XCB_MOTION_NOTIFY, 0,
				    XCB_CURRENT_TIME, bx->root, (int16_t)a,
				    (int16_t)b, 0);
		input_done(bx, t, cmd);
	} else if (strncmp(cmd, "button ", 7) == 0) {
		if (!parse_long(cmd + 7, 1, 255, &a, &end) || !at_end(end))
			return false;
		int64_t t = sf_bench_x_now_us();
		fake_click(bx, XCB_BUTTON_PRESS, (uint8_t)a);
		input_done(bx, t, cmd);
	} else if (strcmp(cmd, "sync") == 0) {
		free(xcb_get_input_focus_reply(bx->conn,
			xcb_get_input_focus(bx->conn), NULL));
		if (xcb_connection_has_error(bx->conn))
			sf_bench_x_connection_lost();
		sf_bench_x_stamp("sync", sf_bench_x_now_us());
		sf_bench_x_line_end();
	} else if (strcmp(cmd, "quit") == 0) {
		xcb_flush(bx->conn);
		exit(0);
	} else {
		return false;
	}
	return true;
}

static void
run_line(struct bench_x *bx, char *line)
{
	size_t len = strlen(line);

	if (len && line[len - 1] == '\r')
		line[--len] = '\0';
	if (len == 0)
		return;
	if (!run_command(bx, line)) {
		sf_bench_x_stamp("error", sf_bench_x_now_us());
		printf(" bad command: %s", line);
		sf_bench_x_line_end();
	}
}

/* Runs every complete line read; false at the end of stdin. */
static bool
read_stdin(struct bench_x *bx)
{
	ssize_t n = read(STDIN_FILENO, bx->line + bx->line_len,
			 sizeof(bx->line) - 1 - bx->line_len);

	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0) {
		/* A last command without its newline still counts. */
		if (bx->line_len && !bx->line_overflow) {
			bx->line[bx->line_len] = '\0';
			run_line(bx, bx->line);
		}
		return false;
	}
	bx->line_len += (size_t)n;

	char *start = bx->line;
	char *nl;
	while ((nl = memchr(start, '\n',
			    bx->line_len - (size_t)(start - bx->line)))) {
		*nl = '\0';
		if (bx->line_overflow) {
			bx->line_overflow = false;
		} else {
			run_line(bx, start);
		}
		start = nl + 1;
	}
	bx->line_len -= (size_t)(start - bx->line);
	memmove(bx->line, start, bx->line_len);

	/* A line longer than the buffer: refuse it once, skip its rest. */
	if (bx->line_len == sizeof(bx->line) - 1) {
		if (!bx->line_overflow) {
			sf_bench_x_stamp("error", sf_bench_x_now_us());
			printf(" bad command: line too long");
			sf_bench_x_line_end();
		}
		bx->line_overflow = true;
		bx->line_len = 0;
	}
	return true;
}

/* --- setup --- */

static void
need_extension(struct bench_x *bx, xcb_extension_t *ext, const char *name,
	       uint8_t *first_event)
{
	const xcb_query_extension_reply_t *r =
		xcb_get_extension_data(bx->conn, ext);

	if (!r || !r->present) {
		fprintf(stderr, "sf-bench-x: the X server has no %s "
			"extension\n", name);
		exit(2);
	}
	if (first_event)
		*first_event = r->first_event;
}

/* Whether an extension's major.minor is at least want_major.want_minor. */
static bool
version_at_least(uint32_t major, uint32_t minor, uint32_t want_major,
		 uint32_t want_minor)
{
	return major > want_major ||
	       (major == want_major && minor >= want_minor);
}

static void
setup(struct bench_x *bx, bool frames)
{
	need_extension(bx, &xcb_damage_id, "DAMAGE", &bx->damage_event);
	need_extension(bx, &xcb_randr_id, "RANDR", &bx->randr_event);
	need_extension(bx, &xcb_test_id, "XTEST", NULL);

	/* Each extension wants the client's version before use. */
	xcb_damage_query_version_cookie_t dc =
		xcb_damage_query_version(bx->conn, 1, 1);
	xcb_randr_query_version_cookie_t rc =
		xcb_randr_query_version(bx->conn, 1, 3);
	xcb_test_get_version_cookie_t tc =
		xcb_test_get_version(bx->conn, 2, 2);
	xcb_intern_atom_cookie_t ac =
		xcb_intern_atom(bx->conn, 0, strlen("_NET_WM_PID"),
				"_NET_WM_PID");

	xcb_damage_query_version_reply_t *dv =
		xcb_damage_query_version_reply(bx->conn, dc, NULL);
	bool damage_ok = dv && version_at_least(dv->major_version,
						dv->minor_version, 1, 1);
	free(dv);
	xcb_randr_query_version_reply_t *rv =
		xcb_randr_query_version_reply(bx->conn, rc, NULL);
	bool randr_ok = rv && version_at_least(rv->major_version,
					       rv->minor_version, 1, 3);
	free(rv);
	free(xcb_test_get_version_reply(bx->conn, tc, NULL));
	xcb_intern_atom_reply_t *atom =
		xcb_intern_atom_reply(bx->conn, ac, NULL);
	bx->net_wm_pid = atom ? atom->atom : XCB_NONE;
	free(atom);

	if (xcb_connection_has_error(bx->conn))
		sf_bench_x_connection_lost();
	if (!damage_ok || !randr_ok) {
		fprintf(stderr, "sf-bench-x: the X server has no %s\n",
			!damage_ok ? "DAMAGE 1.1" : "RANDR 1.3");
		exit(2);
	}

	/* Select before listing, so that no window or mode change falls
	 * between the list and the first event. */
	uint32_t mask = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
	if (frames)
		mask |= XCB_EVENT_MASK_STRUCTURE_NOTIFY;
	xcb_change_window_attributes(bx->conn, bx->root, XCB_CW_EVENT_MASK,
				     &mask);
	xcb_randr_select_input(bx->conn, bx->root,
			       XCB_RANDR_NOTIFY_MASK_CRTC_CHANGE);
	crtcs_start(bx);
	keymap_load(bx);
	/* The frames first: each top-level listed gets its raw object. */
	if (frames)
		bx->frames = sf_bench_frames_create(bx->conn, bx->root);
	toplevels_start(bx);
	if (frames) {
		sf_bench_frames_flush(bx->frames);
		bx->events_maybe_queued = true;
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: sf-bench-x [--display D] [--frames]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	const char *display = NULL;
	bool frames = false;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--display") == 0 && i + 1 < argc)
			display = argv[++i];
		else if (strcmp(argv[i], "--frames") == 0)
			frames = true;
		else
			usage();
	}

	/* A reader that goes away shows as a failed write, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);

	struct bench_x bx = { 0 };
	bx.conn = xcb_connect(display, NULL);
	if (xcb_connection_has_error(bx.conn)) {
		fprintf(stderr, "sf-bench-x: cannot connect to X server %s\n",
			display ? display : getenv("DISPLAY") ?
			getenv("DISPLAY") : "(DISPLAY unset)");
		return 1;
	}
	bx.root = xcb_setup_roots_iterator(xcb_get_setup(bx.conn)).data->root;
	setup(&bx, frames);

	struct pollfd fds[2] = {
		{ .fd = xcb_get_file_descriptor(bx.conn), .events = POLLIN },
		{ .fd = STDIN_FILENO, .events = POLLIN },
	};
	for (;;) {
		drain_events(&bx);
		xcb_flush(bx.conn);
		if (poll(fds, 2, bx.events_maybe_queued ? 0 : -1) < 0) {
			if (errno == EINTR)
				continue;
			perror("sf-bench-x: poll");
			return 1;
		}
		if (fds[1].revents && !read_stdin(&bx))
			return 0;
	}
}
