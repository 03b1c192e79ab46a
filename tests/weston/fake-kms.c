/*
 * stillframe-test-fake-kms.so: a TEST DOUBLE, loaded only by stillframe's
 * integration tests and by stillframe-check.  It is installed only for
 * stillframe-check, into libexecdir/stillframe, never into Weston's
 * module folder: a user's Weston never loads it.
 *
 * It stands in for a KMS (DRM) backend on top of Weston 10's headless
 * backend, which has no seat, one mode per output, and neither
 * switch_mode nor set_dpms.  Loaded as a frontend module before the
 * stillframe plugin, it
 *
 *  - creates a seat "stillframe-test" with pointer, keyboard and (unless
 *    [stillframe-test] touch=false) touch, so that real clients start;
 *  - turns an output's DPMS on only with its next repaint, as Weston's
 *    DRM backend does (off takes effect at once): the dump's dpms is
 *    what the display shows, the request log what was asked;
 *  - gives every output the modes 120, 60, 48 and 30 Hz at the headless
 *    resolution (60 Hz is preferred, current and native, as a panel's
 *    native mode would be), and installs switch_mode and set_dpms hooks
 *    that record each request and otherwise behave like KMS: the new
 *    mode becomes current, a mode not in the list is refused; with
 *    [stillframe-test] modes=false, one mode and no switch_mode, a
 *    backend that cannot switch; with switch-fails=true, every mode set
 *    fails (returns -1, logged "refused"), as a commit the driver
 *    rejects; with dpms=false, no set_dpms, a backend that cannot blank;
 *  - wraps output->repaint, innermost, to count the repaints that reach
 *    the backend, the "page flips" of this fake KMS;
 *  - installs an assign_planes hook, as a KMS backend has, and checks the
 *    rule such a backend lives by: planes are assigned into the repaint
 *    cycle's pending state and committed with the frame, so an
 *    assignment that no repaint follows in the same cycle would commit
 *    planes without a frame (counted as stray_planes, and logged);
 *  - reads line commands from the FIFO named by [stillframe-test]
 *    control=PATH (created if missing), to inject input and dump state:
 *
 *	motion DX DY	relative pointer motion
 *	button [CODE]	press and release (default BTN_LEFT)
 *	key CODE	press and release (evdev code, 30 = KEY_A)
 *	touch X Y	touch down and up at global X Y
 *	dump PATH	write the state to PATH atomically (PATH.tmp, rename)
 *	shot OUTPUT PATH
 *			what the output shows, read back from the buffer
 *			the renderer last presented (pixman: the headless
 *			output's image), as a binary PPM (P6) written
 *			atomically; it asks for no repaint, so a frame a
 *			plugin held is not in it (needs --use-pixman)
 *	switch OUTPUT WxH@MHZ | switch OUTPUT native
 *			ask Weston for a temporary mode, or the native one
 *			back, as fullscreen-shell would; only for testing
 *			this double (the request log shows these too)
 *	unplug HEAD | plug HEAD
 *			a connector's cable pulled out or plugged in: the
 *			head's connection status changes and Weston's
 *			frontend destroys or creates its output, as on KMS
 *			hotplug
 *
 *  - with [stillframe-test] heads=NAME,... creates more heads (each a
 *    headless head with that name, so an output each), and with
 *    internal-head=NAME marks that head as a built-in panel, as the DRM
 *    backend does for eDP, LVDS and DSI connectors: a laptop with a
 *    monitor on HDMI is internal-head=headless heads=HDMI-A-1;
 *  - with [stillframe-test] frame-log=PATH, writes a frame log to PATH
 *    (truncated at start; fake-kms-frame-log.c): every frame that
 *    reached the backend with the tiles that changed in it, the input
 *    injected and the mode switches, on one clock, a record a line, each
 *    written whole in one write(2) as it happens, for a reader following
 *    the file (stillframe-check).  It logs the first output created, or
 *    the one named by frame-log-output=NAME, and that output again if
 *    its head is plugged in again (a new screen line).  A PATH that
 *    cannot be opened is logged and the double works on without it; a
 *    write error is logged once and ends the log.  It reads every frame
 *    back (needs --use-pixman; without it the log ends at the first
 *    frame);
 *
 * The dump has one line per item, keyword first:
 *
 *	now_ms T
 *	output NAME mode WxH@MHZ dpms LEVEL repaints N mode_switches N
 *		planes N stray_planes N
 *	request NAME switch_mode WxH@MHZ ok|refused time_ms T
 *	request NAME dpms LEVEL time_ms T
 *	head NAME connected 0|1 internal 0|1
 *	requests_dropped N	(only when the request log overflowed)
 *	repaint_log NAME T...	CLOCK_MONOTONIC microseconds of the last
 *				REPAINT_LOG_SIZE repaints that reached the
 *				backend, oldest first (a benchmark counts
 *				these: frames a plugin held never do)
 *
 * LEVEL is on, standby, suspend or off; MHZ is the refresh in mHz.
 *
 * The frame log has one line per record, keyword first:
 *
 *	screen W H TILE		first, and again when the output's size
 *				changes: its mode size; TILE is 32
 *	mode T MHZ		the current refresh, right after the first
 *				screen line of an output; again after every
 *				accepted mode switch that changed it
 *	frame T N IDX:HASH:INK...
 *				a repaint that reached the backend and
 *				succeeded: the N tiles whose pixels differ
 *				from the previous frame logged, by IDX
 *				ascending; the first frame after a screen
 *				line lists every tile; N may be 0; INK, the
 *				tile's pixels not of its most common colour
 *				(tests/sf-tile-hash.h)
 *	input T WHAT...		an injected input command as it runs:
 *				key CODE, button CODE (the default filled
 *				in), motion DX DY, touch X Y, the numbers as
 *				the FIFO gave them (CODE in decimal)
 *
 * T is CLOCK_MONOTONIC in milliseconds with three decimals, as %.3f
 * prints them, whole microseconds (sf-bench-x's clock and format); a
 * frame's T is taken as the backend's repaint returns, before the
 * read-back.  Tiles are TILE x TILE pixel squares, row-major from the
 * top left, IDX = row * ceil(W / TILE) + column; the last column and row
 * may be partial.  HASH is 64-bit FNV-1a over the tile's pixels, row by
 * row, each pixel the 32-bit value 0x00RRGGBB in little-endian byte
 * order (B, G, R, 0), printed as 16 lowercase hex digits.
 *
 * Requests appear in the order they were made; times are CLOCK_MONOTONIC
 * milliseconds.  mode_switches counts the accepted requests that changed
 * the current mode; a request for the current mode is "ok" but no switch.
 * Every recorded request is also written to the Weston log with the
 * prefix "fake-kms:".  A bad command is logged and ignored.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/input-event-codes.h>
#include <pixman.h>
#include <wayland-server.h>
#include <libweston/libweston.h>
#include <weston/weston.h>

#include "fake-kms-frame-log.h"
#include "weston-backend-api.h"

#define SEAT_NAME "stillframe-test"
#define CONFIG_SECTION "stillframe-test"
#define LINE_MAX_LEN 1024
#define MAX_ARGS 4
/* Bounds the request log; a test that makes more is broken anyway. */
#define MAX_REQUESTS 100000
#define OUTPUT_NAME_LEN 64
/* About four minutes at 60 Hz: longer than any benchmark window. */
#define REPAINT_LOG_SIZE 16384

/* The modes every output gets, fastest first; 60 Hz is the native one. */
static const uint32_t mode_refresh_mhz[] = { 120000, 60000, 48000, 30000 };
#define NATIVE_REFRESH_MHZ 60000
#define MODE_COUNT (sizeof mode_refresh_mhz / sizeof mode_refresh_mhz[0])

enum request_kind {
	REQUEST_SWITCH_MODE,
	REQUEST_DPMS,
};

struct request {
	enum request_kind kind;
	char output[OUTPUT_NAME_LEN];
	int64_t time_ms;
	int32_t width, height;
	uint32_t refresh;
	bool accepted;
	enum dpms_enum level;
};

struct fake_kms {
	struct weston_compositor *compositor;
	struct wl_listener destroy_listener;
	struct wl_listener output_created_listener;
	struct wl_list output_list;	/* struct fake_output::link */

	struct weston_seat seat;
	bool seat_initialized;
	struct weston_touch_device *touch_device;

	bool with_modes;	/* [stillframe-test] modes=false: headless as is */
	bool with_dpms;		/* dpms=false: no set_dpms */
	bool switch_fails;	/* switch-fails=true: every mode set fails */
	bool shutting_down;	/* compositor gone; outputs not yet */
	char *control_path;
	bool control_created;
	int control_fd;
	struct wl_event_source *control_source;
	char line[LINE_MAX_LEN];
	size_t line_len;
	bool line_too_long;

	struct request *requests;
	size_t request_count;
	size_t request_capacity;
	uint64_t requests_dropped;

	struct sf_frame_log *frame_log;	/* NULL: no frame-log=PATH */
};

struct fake_output {
	struct fake_kms *fk;
	struct weston_output *output;
	struct wl_list link;
	struct wl_listener destroy_listener;

	/* Modes this module allocated; the native one is the backend's. */
	struct weston_mode *added_modes[MODE_COUNT];
	struct weston_mode *native;
	bool set_native_mode;
	sf_test_repaint_fn backend_repaint;

	uint64_t repaints;
	/* When the last repaints reached the backend: a ring, oldest at
	 * repaints % REPAINT_LOG_SIZE once it has wrapped. */
	int64_t repaint_log_us[REPAINT_LOG_SIZE];
	uint64_t mode_switches;
	enum dpms_enum dpms;		/* as the display has it */
	bool dpms_on_pending;		/* asked for; the next frame lights it */

	/* Planes assigned in this repaint cycle and not yet painted. */
	bool planes_pending;
	uint64_t plane_assignments;
	uint64_t stray_plane_assignments;
};

static void
output_handle_destroy(struct wl_listener *listener, void *data);

static int64_t
monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *
dpms_name(enum dpms_enum level)
{
	switch (level) {
	case WESTON_DPMS_ON:
		return "on";
	case WESTON_DPMS_STANDBY:
		return "standby";
	case WESTON_DPMS_SUSPEND:
		return "suspend";
	case WESTON_DPMS_OFF:
		return "off";
	}
	return "unknown";
}

static struct fake_output *
fake_output_from_output(struct weston_output *output)
{
	struct wl_listener *listener =
		weston_output_get_destroy_listener(output,
						   output_handle_destroy);

	if (!listener)
		return NULL;
	return wl_container_of(listener, (struct fake_output *)NULL,
			       destroy_listener);
}

static struct request *
request_append(struct fake_kms *fk, enum request_kind kind,
	       struct weston_output *output)
{
	if (fk->request_count == fk->request_capacity) {
		if (fk->request_capacity >= MAX_REQUESTS) {
			fk->requests_dropped++;
			weston_log("fake-kms: request log full, dropping a "
				   "request on %s\n", output->name);
			return NULL;
		}
		size_t capacity = fk->request_capacity ?
				  fk->request_capacity * 2 : 64;
		if (capacity > MAX_REQUESTS)
			capacity = MAX_REQUESTS;
		struct request *grown =
			realloc(fk->requests, capacity * sizeof *grown);
		if (!grown) {
			fk->requests_dropped++;
			weston_log("fake-kms: out of memory, dropping a "
				   "request on %s\n", output->name);
			return NULL;
		}
		fk->requests = grown;
		fk->request_capacity = capacity;
	}

	struct request *req = &fk->requests[fk->request_count++];
	memset(req, 0, sizeof *req);
	req->kind = kind;
	snprintf(req->output, sizeof req->output, "%s", output->name);
	req->time_ms = monotonic_ms();
	return req;
}

/*
 * Like KMS, take the mode by value: fullscreen-shell passes a mode on its
 * stack.  Width and height must match; refresh must match too, or be 0
 * for "any", which prefers the current mode.  Unlike Weston's DRM backend,
 * which then falls back to any refresh at that size, a mode not in the
 * list is refused, so a test sees exactly what was asked for.
 */
static struct weston_mode *
output_find_mode(struct weston_output *output, const struct weston_mode *want)
{
	struct weston_mode *cur = output->current_mode;

	if (cur && cur->width == want->width && cur->height == want->height &&
	    (want->refresh == 0 || want->refresh == cur->refresh))
		return cur;

	struct weston_mode *mode;
	wl_list_for_each(mode, &output->mode_list, link) {
		if (mode->width == want->width &&
		    mode->height == want->height &&
		    (want->refresh == 0 || want->refresh == mode->refresh))
			return mode;
	}
	return NULL;
}

/* What a KMS backend does on a mode set, minus the hardware. */
static int
output_switch_mode(struct weston_output *output, struct weston_mode *want)
{
	struct fake_output *fo = fake_output_from_output(output);

	if (!want) {
		weston_log("fake-kms: request %s switch_mode (null) refused\n",
			   output->name);
		return -1;
	}
	if (!fo) {
		weston_log("fake-kms: switch_mode on unknown output %s, "
			   "refused\n", output->name);
		return -1;
	}

	struct weston_mode *mode = output_find_mode(output, want);
	struct request *req = request_append(fo->fk, REQUEST_SWITCH_MODE,
					     output);
	if (req) {
		req->width = want->width;
		req->height = want->height;
		req->refresh = want->refresh;
		req->accepted = mode != NULL && !fo->fk->switch_fails;
	}
	weston_log("fake-kms: request %s switch_mode %dx%d@%" PRIu32 " %s\n",
		   output->name, want->width, want->height, want->refresh,
		   !mode ? "refused (not one of this output's modes)" :
		   fo->fk->switch_fails ? "refused (switch-fails: the commit "
		   "failed)" : "ok");
	if (!mode || fo->fk->switch_fails)
		return -1;
	if (mode == output->current_mode)
		return 0;

	if (output->current_mode)
		output->current_mode->flags &= ~WL_OUTPUT_MODE_CURRENT;
	mode->flags |= WL_OUTPUT_MODE_CURRENT;
	output->current_mode = mode;
	fo->mode_switches++;
	sf_frame_log_mode(fo->fk->frame_log, output);
	return 0;
}

static void
output_set_dpms(struct weston_output *output, enum dpms_enum level)
{
	struct fake_output *fo = fake_output_from_output(output);

	weston_log("fake-kms: request %s dpms %s\n", output->name,
		   dpms_name(level));
	if (!fo)
		return;

	struct request *req = request_append(fo->fk, REQUEST_DPMS, output);
	if (req)
		req->level = level;
	/* As Weston's DRM backend: off is committed at once, on only with
	 * the next frame (its DPMS is "pending" until a repaint). */
	if (level == WESTON_DPMS_ON && fo->dpms != WESTON_DPMS_ON) {
		fo->dpms_on_pending = true;
		return;
	}
	fo->dpms_on_pending = false;
	fo->dpms = level;
}

static int
output_repaint(SF_TEST_REPAINT_PARAMS)
{
	struct fake_output *fo = fake_output_from_output(output);

	if (!fo) {
		/*
		 * Only a module that wrapped repaint after us, calling on
		 * after we detached (at shutdown, when nothing repaints).
		 */
		weston_log("fake-kms: repaint of output %s after the double "
			   "let it go; refused\n", output->name);
		return -1;
	}

	fo->planes_pending = false;
	int ret = fo->backend_repaint(SF_TEST_REPAINT_ARGS);
	if (ret == 0) {
		/* Before the frame log's read-back, which takes a while. */
		int64_t now_us = sf_frame_log_now_us();

		fo->repaint_log_us[fo->repaints % REPAINT_LOG_SIZE] = now_us;
		fo->repaints++;
		if (fo->dpms_on_pending) {
			fo->dpms_on_pending = false;
			fo->dpms = WESTON_DPMS_ON;
		}
		sf_frame_log_frame(fo->fk->frame_log, output, now_us);
	}
	return ret;
}

static void
note_stray_planes(struct fake_output *fo)
{
	if (!fo->planes_pending)
		return;
	fo->planes_pending = false;
	fo->stray_plane_assignments++;
	weston_log("fake-kms: output %s: planes were assigned but no repaint "
		   "followed; a KMS backend would have committed them "
		   "without a frame\n", fo->output->name);
}

/* Headless assigns no planes (every view stays on the primary plane);
 * this only records that a KMS backend would have built plane state. */
static void
output_assign_planes(SF_TEST_ASSIGN_PLANES_PARAMS)
{
	struct fake_output *fo = fake_output_from_output(output);

	sf_test_assign_primary_plane(output);
	if (!fo)
		return;
	note_stray_planes(fo);
	fo->planes_pending = true;
	fo->plane_assignments++;
}


static void
fake_kms_free_if_done(struct fake_kms *fk);

/* Undoes everything output_attach did; the output may live on. */
static void
output_detach(struct fake_output *fo)
{
	struct weston_output *output = fo->output;

	if (output->repaint == output_repaint)
		output->repaint = fo->backend_repaint;
	else
		weston_log("fake-kms: output %s: a later module still wraps "
			   "repaint; leaving the chain as it is\n",
			   output->name);
	if (output->assign_planes == output_assign_planes)
		output->assign_planes = NULL;
	if (output->switch_mode == output_switch_mode)
		output->switch_mode = NULL;
	if (output->set_dpms == output_set_dpms)
		output->set_dpms = NULL;

	for (size_t i = 0; i < MODE_COUNT; i++) {
		struct weston_mode *mode = fo->added_modes[i];

		if (!mode)
			continue;
		if (output->current_mode == mode) {
			fo->native->flags |= WL_OUTPUT_MODE_CURRENT;
			output->current_mode = fo->native;
		}
		if (output->native_mode == mode)
			output->native_mode = fo->native;
		if (output->original_mode == mode)
			output->original_mode = fo->native;
		wl_list_remove(&mode->link);
		free(mode);
		fo->added_modes[i] = NULL;
	}
	if (fo->set_native_mode && output->native_mode == fo->native)
		output->native_mode = NULL;

	struct fake_kms *fk = fo->fk;

	sf_frame_log_output_gone(fk->frame_log, output);
	wl_list_remove(&fo->destroy_listener.link);
	wl_list_remove(&fo->link);
	free(fo);
	fake_kms_free_if_done(fk);
}

static void
output_handle_destroy(struct wl_listener *listener, void *data)
{
	struct fake_output *fo =
		wl_container_of(listener, fo, destroy_listener);

	weston_log("fake-kms: output %s destroyed after %" PRIu64
		   " repaints and %" PRIu64 " mode switches\n",
		   fo->output->name, fo->repaints, fo->mode_switches);
	output_detach(fo);
}

static void
output_attach(struct fake_kms *fk, struct weston_output *output)
{
	/* Enabling an output again emits output_created again. */
	if (fake_output_from_output(output))
		return;

	struct weston_mode *native = output->current_mode;
	bool listed = false;
	struct weston_mode *mode;
	wl_list_for_each(mode, &output->mode_list, link) {
		if (mode == native)
			listed = true;
	}
	if (!native || !listed) {
		weston_log("fake-kms: output %s has no current mode in its "
			   "mode list; left as it is\n", output->name);
		return;
	}

	struct fake_output *fo = calloc(1, sizeof *fo);
	if (!fo) {
		weston_log("fake-kms: out of memory for output %s\n",
			   output->name);
		return;
	}
	fo->fk = fk;
	fo->output = output;
	fo->native = native;
	fo->dpms = WESTON_DPMS_ON;

	/*
	 * Keep the backend's own mode struct as the 60 Hz one and put the
	 * others around it, so the list reads fastest first.  modes=false
	 * leaves the single mode and no switch_mode, a backend that
	 * cannot switch.
	 */
	native->refresh = NATIVE_REFRESH_MHZ;
	if (!fk->with_modes)
		goto modes_done;
	native->flags = WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED;
	struct wl_list *insert_after = native->link.prev;
	for (size_t i = 0; i < MODE_COUNT; i++) {
		if (mode_refresh_mhz[i] == NATIVE_REFRESH_MHZ) {
			insert_after = &native->link;
			continue;
		}
		struct weston_mode *added = calloc(1, sizeof *added);
		if (!added) {
			weston_log("fake-kms: out of memory for a mode of "
				   "output %s\n", output->name);
			continue;
		}
		added->flags = 0;
		added->aspect_ratio = native->aspect_ratio;
		added->width = native->width;
		added->height = native->height;
		added->refresh = mode_refresh_mhz[i];
		wl_list_insert(insert_after, &added->link);
		insert_after = &added->link;
		fo->added_modes[i] = added;
	}

	/*
	 * A DRM output's native mode is the one it was enabled with;
	 * headless leaves it NULL, which would make a switch back to native
	 * a switch to nothing.
	 */
	if (!output->native_mode) {
		output->native_mode = native;
		fo->set_native_mode = true;
	}
modes_done:

	fo->backend_repaint = output->repaint;
	output->repaint = output_repaint;
	if (output->assign_planes)
		weston_log("fake-kms: output %s already had assign_planes "
			   "(not headless?); replacing it\n", output->name);
	output->assign_planes = output_assign_planes;
	if (output->switch_mode || output->set_dpms)
		weston_log("fake-kms: output %s already had switch_mode or "
			   "set_dpms (the headless backend of libweston 16 "
			   "has set_dpms); replacing them\n", output->name);
	/* Without them as asked too: the backend's own (headless has a
	 * set_dpms from libweston 16 on) would make the double a backend
	 * that can blank. */
	output->switch_mode = fk->with_modes ? output_switch_mode : NULL;
	output->set_dpms = fk->with_dpms ? output_set_dpms : NULL;
	if (!fk->with_dpms)
		weston_log("fake-kms: output %s has no set_dpms (dpms=false)\n",
			   output->name);

	fo->destroy_listener.notify = output_handle_destroy;
	weston_output_add_destroy_listener(output, &fo->destroy_listener);
	wl_list_insert(fk->output_list.prev, &fo->link);
	sf_frame_log_output_created(fk->frame_log, output);

	if (fk->with_modes)
		weston_log("fake-kms: test double standing in for KMS on "
			   "output %s: modes %dx%d at 120, 60 (native), 48 "
			   "and 30 Hz, switch_mode and set_dpms recorded, "
			   "repaints and plane assignments counted\n",
			   output->name, native->width, native->height);
	else
		weston_log("fake-kms: test double standing in for KMS on "
			   "output %s: one mode %dx%d at 60 Hz and no "
			   "switch_mode (modes=false), set_dpms recorded, "
			   "repaints and plane assignments counted\n",
			   output->name, native->width, native->height);
}

static void
compositor_handle_output_created(struct wl_listener *listener, void *data)
{
	struct fake_kms *fk =
		wl_container_of(listener, fk, output_created_listener);

	output_attach(fk, data);
}

/* ---- state dump ---- */

static bool
write_dump(struct fake_kms *fk, FILE *f)
{
	fprintf(f, "now_ms %" PRId64 "\n", monotonic_ms());

	struct fake_output *fo;
	wl_list_for_each(fo, &fk->output_list, link) {
		struct weston_mode *mode = fo->output->current_mode;

		/* Repaint cycles run whole inside one dispatch, so planes
		 * still pending here were never painted. */
		note_stray_planes(fo);
		fprintf(f, "output %s mode %dx%d@%" PRIu32 " dpms %s "
			"repaints %" PRIu64 " mode_switches %" PRIu64
			" planes %" PRIu64 " stray_planes %" PRIu64 "\n",
			fo->output->name, mode->width, mode->height,
			mode->refresh, dpms_name(fo->dpms), fo->repaints,
			fo->mode_switches, fo->plane_assignments,
			fo->stray_plane_assignments);
	}

	for (size_t i = 0; i < fk->request_count; i++) {
		const struct request *req = &fk->requests[i];

		switch (req->kind) {
		case REQUEST_SWITCH_MODE:
			fprintf(f, "request %s switch_mode %dx%d@%" PRIu32
				" %s time_ms %" PRId64 "\n", req->output,
				req->width, req->height, req->refresh,
				req->accepted ? "ok" : "refused",
				req->time_ms);
			break;
		case REQUEST_DPMS:
			fprintf(f, "request %s dpms %s time_ms %" PRId64 "\n",
				req->output, dpms_name(req->level),
				req->time_ms);
			break;
		}
	}
	if (fk->requests_dropped)
		fprintf(f, "requests_dropped %" PRIu64 "\n",
			fk->requests_dropped);

	wl_list_for_each(fo, &fk->output_list, link) {
		uint64_t first = fo->repaints > REPAINT_LOG_SIZE ?
					 fo->repaints - REPAINT_LOG_SIZE : 0;

		fprintf(f, "repaint_log %s", fo->output->name);
		for (uint64_t i = first; i < fo->repaints; i++)
			fprintf(f, " %" PRId64,
				fo->repaint_log_us[i % REPAINT_LOG_SIZE]);
		fputc('\n', f);
	}

	struct weston_head *head = NULL;
	while ((head = weston_compositor_iterate_heads(fk->compositor, head)))
		fprintf(f, "head %s connected %d internal %d\n", head->name,
			weston_head_is_connected(head),
			head->connection_internal);

	return !ferror(f);
}

static void
command_dump(struct fake_kms *fk, const char *path)
{
	char tmp[PATH_MAX];

	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
		weston_log("fake-kms: dump: path too long\n");
		return;
	}

	FILE *f = fopen(tmp, "w");
	if (!f) {
		weston_log("fake-kms: dump: cannot create %s: %s\n", tmp,
			   strerror(errno));
		return;
	}
	bool ok = write_dump(fk, f);
	if (fclose(f) != 0)
		ok = false;
	if (!ok) {
		weston_log("fake-kms: dump: cannot write %s\n", tmp);
		unlink(tmp);
		return;
	}
	if (rename(tmp, path) < 0) {
		weston_log("fake-kms: dump: cannot rename %s to %s: %s\n",
			   tmp, path, strerror(errno));
		unlink(tmp);
	}
}

/* ---- screen read-back ---- */

static bool
write_shot(struct weston_output *output, FILE *f)
{
	int32_t w = output->current_mode->width;
	int32_t h = output->current_mode->height;

	if (w <= 0 || h <= 0)
		return false;
	uint32_t *px = calloc((size_t)w * (size_t)h, sizeof(*px));
	uint8_t *row = malloc((size_t)w * 3);
	bool ok = px && row && sf_test_read_pixels(output, px, w, h);

	if (ok)
		fprintf(f, "P6\n%d %d\n255\n", w, h);
	for (int32_t y = 0; ok && y < h; y++) {
		for (int32_t x = 0; x < w; x++) {
			uint32_t v = px[(size_t)y * (size_t)w + (size_t)x];
			row[3 * x] = (uint8_t)(v >> 16);
			row[3 * x + 1] = (uint8_t)(v >> 8);
			row[3 * x + 2] = (uint8_t)v;
		}
		ok = fwrite(row, 3, (size_t)w, f) == (size_t)w;
	}
	free(row);
	free(px);
	return ok && !ferror(f);
}

/* PATH.failed tells the waiting test at once that no shot comes (it
 * would otherwise wait its whole timeout for PATH and try again). */
static void
shot_failed(const char *path)
{
	char marker[PATH_MAX];

	if ((size_t)snprintf(marker, sizeof marker, "%s.failed", path) >=
	    sizeof marker)
		return;
	FILE *f = fopen(marker, "w");
	if (f)
		fclose(f);
}

static void
command_shot(struct fake_kms *fk, const char *name, const char *path)
{
	struct fake_output *fo, *found = NULL;
	char tmp[PATH_MAX];

	wl_list_for_each(fo, &fk->output_list, link)
		if (strcmp(fo->output->name, name) == 0)
			found = fo;
	if (!found) {
		weston_log("fake-kms: shot: no output %s\n", name);
		shot_failed(path);
		return;
	}
	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
		weston_log("fake-kms: shot: path too long\n");
		return;
	}
	FILE *f = fopen(tmp, "w");
	if (!f) {
		weston_log("fake-kms: shot: cannot create %s: %s\n", tmp,
			   strerror(errno));
		shot_failed(path);
		return;
	}
	bool ok = write_shot(found->output, f);
	if (fclose(f) != 0)
		ok = false;
	if (!ok || rename(tmp, path) < 0) {
		weston_log("fake-kms: shot: cannot read back or write %s "
			   "(the pixman renderer reads back; before the "
			   "output's first repaint there is nothing)\n", path);
		unlink(tmp);
		shot_failed(path);
	}
}

/* ---- input injection ---- */

static bool
parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end != '\0' || isnan(v) ||
	    v > 1e6 || v < -1e6)
		return false;
	*out = v;
	return true;
}

static bool
parse_code(const char *s, uint32_t *out)
{
	char *end;

	errno = 0;
	long v = strtol(s, &end, 0);
	if (errno || end == s || *end != '\0' || v < 0 || v > KEY_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static void
command_motion(struct fake_kms *fk, double dx, double dy)
{
	struct timespec now;

	weston_compositor_get_time(&now);
	sf_test_notify_motion(&fk->seat, &now, dx, dy);
	notify_pointer_frame(&fk->seat);
}

static void
command_button(struct fake_kms *fk, uint32_t code)
{
	struct timespec now;

	weston_compositor_get_time(&now);
	sf_test_notify_button(&fk->seat, &now, code,
			      WL_POINTER_BUTTON_STATE_PRESSED);
	notify_pointer_frame(&fk->seat);
	weston_compositor_get_time(&now);
	sf_test_notify_button(&fk->seat, &now, code,
			      WL_POINTER_BUTTON_STATE_RELEASED);
	notify_pointer_frame(&fk->seat);
}

static void
command_key(struct fake_kms *fk, uint32_t code)
{
	struct timespec now;

	weston_compositor_get_time(&now);
	sf_test_notify_key(&fk->seat, &now, code,
			   WL_KEYBOARD_KEY_STATE_PRESSED);
	weston_compositor_get_time(&now);
	sf_test_notify_key(&fk->seat, &now, code,
			   WL_KEYBOARD_KEY_STATE_RELEASED);
}

static void
command_touch(struct fake_kms *fk, double x, double y)
{
	struct timespec now;

	weston_compositor_get_time(&now);
	sf_test_notify_touch(fk->touch_device, &now, 0, x, y, WL_TOUCH_DOWN);
	notify_touch_frame(fk->touch_device);
	weston_compositor_get_time(&now);
	sf_test_notify_touch(fk->touch_device, &now, 0, 0, 0, WL_TOUCH_UP);
	notify_touch_frame(fk->touch_device);
}

static void
command_switch(struct fake_kms *fk, const char *name, const char *spec)
{
	struct fake_output *fo, *found = NULL;

	wl_list_for_each(fo, &fk->output_list, link) {
		if (strcmp(fo->output->name, name) == 0)
			found = fo;
	}
	if (!found) {
		weston_log("fake-kms: bad command: switch: no output '%s'\n",
			   name);
		return;
	}

	struct weston_output *output = found->output;
	int ret;
	if (strcmp(spec, "native") == 0) {
		ret = weston_output_mode_switch_to_native(output);
	} else {
		struct weston_mode want = { 0 };
		char extra;
		if (sscanf(spec, "%" SCNd32 "x%" SCNd32 "@%" SCNu32 "%c",
			   &want.width, &want.height, &want.refresh,
			   &extra) != 3 ||
		    want.width <= 0 || want.height <= 0) {
			weston_log("fake-kms: bad command: switch: mode '%s' "
				   "is not WxH@MHZ or native\n", spec);
			return;
		}
		ret = weston_output_mode_switch_to_temporary(output, &want,
							 output->current_scale);
	}
	weston_log("fake-kms: switch command on %s to %s: %s\n", name, spec,
		   ret == 0 ? "done" : "failed");
}

static struct weston_head *
head_find(struct fake_kms *fk, const char *name)
{
	struct weston_head *head = NULL;

	while ((head = weston_compositor_iterate_heads(fk->compositor, head)))
		if (strcmp(head->name, name) == 0)
			return head;
	return NULL;
}

static void
command_plug(struct fake_kms *fk, const char *name, bool connected)
{
	struct weston_head *head = head_find(fk, name);

	if (!head) {
		weston_log("fake-kms: bad command: no head '%s'\n", name);
		return;
	}
	weston_log("fake-kms: head %s %s\n", name,
		   connected ? "plugged in" : "unplugged");
	/* Weston's frontend follows on its heads_changed idle callback,
	 * as with a KMS hotplug event. */
	weston_head_set_connection_status(head, connected);
}

static void
run_command(struct fake_kms *fk, char *line)
{
	char *argv[MAX_ARGS + 1];
	int argc = 0;
	char *save = NULL;

	for (char *tok = strtok_r(line, " \t\r", &save); tok;
	     tok = strtok_r(NULL, " \t\r", &save)) {
		if (argc == MAX_ARGS + 1) {
			weston_log("fake-kms: bad command: too many "
				   "arguments to '%s'\n", argv[0]);
			return;
		}
		argv[argc++] = tok;
	}
	if (argc == 0)
		return;

	const char *cmd = argv[0];
	double x, y;
	uint32_t code;

	if (strcmp(cmd, "motion") == 0) {
		if (argc != 3 || !parse_double(argv[1], &x) ||
		    !parse_double(argv[2], &y))
			goto usage;
		sf_frame_log_input(fk->frame_log, "motion %s %s", argv[1],
				   argv[2]);
		command_motion(fk, x, y);
	} else if (strcmp(cmd, "button") == 0) {
		code = BTN_LEFT;
		if (argc > 2 || (argc == 2 && !parse_code(argv[1], &code)))
			goto usage;
		sf_frame_log_input(fk->frame_log, "button %" PRIu32, code);
		command_button(fk, code);
	} else if (strcmp(cmd, "key") == 0) {
		if (argc != 2 || !parse_code(argv[1], &code))
			goto usage;
		sf_frame_log_input(fk->frame_log, "key %" PRIu32, code);
		command_key(fk, code);
	} else if (strcmp(cmd, "touch") == 0) {
		if (argc != 3 || !parse_double(argv[1], &x) ||
		    !parse_double(argv[2], &y))
			goto usage;
		if (!fk->touch_device) {
			weston_log("fake-kms: bad command: touch, but the "
				   "seat has no touch ([%s] touch=false)\n",
				   CONFIG_SECTION);
			return;
		}
		sf_frame_log_input(fk->frame_log, "touch %s %s", argv[1],
				   argv[2]);
		command_touch(fk, x, y);
	} else if (strcmp(cmd, "dump") == 0) {
		if (argc != 2)
			goto usage;
		command_dump(fk, argv[1]);
	} else if (strcmp(cmd, "shot") == 0) {
		if (argc != 3)
			goto usage;
		command_shot(fk, argv[1], argv[2]);
	} else if (strcmp(cmd, "switch") == 0) {
		if (argc != 3)
			goto usage;
		command_switch(fk, argv[1], argv[2]);
	} else if (strcmp(cmd, "plug") == 0 || strcmp(cmd, "unplug") == 0) {
		if (argc != 2)
			goto usage;
		command_plug(fk, argv[1], strcmp(cmd, "plug") == 0);
	} else {
		weston_log("fake-kms: bad command: unknown '%s'\n", cmd);
	}
	return;

usage:
	weston_log("fake-kms: bad command: usage: motion DX DY | "
		   "button [CODE] | key CODE | touch X Y | dump PATH | "
		   "shot OUTPUT PATH | "
		   "switch OUTPUT WxH@MHZ|native | plug HEAD | unplug HEAD "
		   "(got '%s' with %d "
		   "arguments)\n", cmd, argc - 1);
}

static void
control_take_bytes(struct fake_kms *fk, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = buf[i];

		if (c == '\n') {
			if (fk->line_too_long) {
				weston_log("fake-kms: bad command: line longer "
					   "than %d bytes, ignored\n",
					   LINE_MAX_LEN - 1);
			} else {
				fk->line[fk->line_len] = '\0';
				run_command(fk, fk->line);
			}
			fk->line_len = 0;
			fk->line_too_long = false;
		} else if (c == '\0') {
			/* Not text: drop the line. */
			fk->line_too_long = true;
		} else if (fk->line_len + 1 < sizeof fk->line) {
			fk->line[fk->line_len++] = c;
		} else {
			fk->line_too_long = true;
		}
	}
}

static int
control_handle_data(int fd, uint32_t mask, void *data)
{
	struct fake_kms *fk = data;
	char buf[4096];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);

		if (n > 0) {
			control_take_bytes(fk, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN)
			weston_log("fake-kms: control: read: %s\n",
				   strerror(errno));
		/* n == 0 cannot happen: we hold the FIFO open for writing. */
		break;
	}
	return 0;
}

/* Opens path read-write, so that a writer closing never gives EOF and a
 * writer opening never blocks while weston runs. */
static int
control_open_fd(struct fake_kms *fk, const char *path)
{
	int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		weston_log("fake-kms: cannot open FIFO %s: %s\n", path,
			   strerror(errno));
	return fd;
}

static bool
control_open(struct fake_kms *fk)
{
	struct stat st;

	if (stat(fk->control_path, &st) == 0) {
		if (!S_ISFIFO(st.st_mode)) {
			weston_log("fake-kms: config: [%s] control=%s exists "
				   "and is not a FIFO\n", CONFIG_SECTION,
				   fk->control_path);
			return false;
		}
		fk->control_fd = control_open_fd(fk, fk->control_path);
		if (fk->control_fd < 0)
			return false;
	} else if (errno == ENOENT) {
		/* Made under another name and renamed once open: a test that
		 * waits for the path and writes at once would otherwise write
		 * into a FIFO nobody holds yet, and the kernel drops what was
		 * written when the writer closes. */
		char tmp[PATH_MAX];

		if (snprintf(tmp, sizeof tmp, "%s.new", fk->control_path) >=
		    (int)sizeof tmp) {
			weston_log("fake-kms: FIFO path %s is too long\n",
				   fk->control_path);
			return false;
		}
		unlink(tmp);
		if (mkfifo(tmp, 0600) < 0) {
			weston_log("fake-kms: cannot create FIFO %s: %s\n",
				   tmp, strerror(errno));
			return false;
		}
		fk->control_fd = control_open_fd(fk, tmp);
		if (fk->control_fd < 0) {
			unlink(tmp);
			return false;
		}
		if (rename(tmp, fk->control_path) < 0) {
			weston_log("fake-kms: cannot rename FIFO %s to %s: %s\n",
				   tmp, fk->control_path, strerror(errno));
			unlink(tmp);
			return false;
		}
		fk->control_created = true;
	} else {
		weston_log("fake-kms: cannot stat %s: %s\n", fk->control_path,
			   strerror(errno));
		return false;
	}

	struct wl_event_loop *loop =
		wl_display_get_event_loop(fk->compositor->wl_display);
	fk->control_source = wl_event_loop_add_fd(loop, fk->control_fd,
						  WL_EVENT_READABLE,
						  control_handle_data, fk);
	if (!fk->control_source) {
		weston_log("fake-kms: cannot watch FIFO %s\n",
			   fk->control_path);
		return false;
	}
	weston_log("fake-kms: test double reads commands from FIFO %s\n",
		   fk->control_path);
	return true;
}

/* ---- lifetime ---- */

static void
fake_kms_free_if_done(struct fake_kms *fk)
{
	if (!fk->shutting_down || !wl_list_empty(&fk->output_list))
		return;
	sf_frame_log_destroy(fk->frame_log);
	free(fk->requests);
	free(fk);
}

/* Everything but the outputs, which a backend keeps working until it
 * destroys them, after every module's compositor destroy listener: the
 * modules loaded after this one may still restore modes and DPMS. */
static void
fake_kms_shutdown(struct fake_kms *fk)
{
	wl_list_remove(&fk->output_created_listener.link);
	wl_list_remove(&fk->destroy_listener.link);

	if (fk->control_source)
		wl_event_source_remove(fk->control_source);
	fk->control_source = NULL;
	if (fk->control_fd >= 0)
		close(fk->control_fd);
	fk->control_fd = -1;
	if (fk->control_created)
		unlink(fk->control_path);
	free(fk->control_path);
	fk->control_path = NULL;

	if (fk->touch_device)
		weston_touch_device_destroy(fk->touch_device);
	fk->touch_device = NULL;
	if (fk->seat_initialized)
		weston_seat_release(&fk->seat);
	fk->seat_initialized = false;

	fk->shutting_down = true;
	fake_kms_free_if_done(fk);
}

static void
compositor_handle_destroy(struct wl_listener *listener, void *data)
{
	struct fake_kms *fk = wl_container_of(listener, fk, destroy_listener);

	weston_log("fake-kms: compositor shutting down; %zu requests were "
		   "recorded so far\n", fk->request_count);
	fake_kms_shutdown(fk);
}

static bool
seat_setup(struct fake_kms *fk, bool with_touch)
{
	weston_seat_init(&fk->seat, fk->compositor, SEAT_NAME);
	fk->seat_initialized = true;

	if (weston_seat_init_pointer(&fk->seat) < 0) {
		weston_log("fake-kms: cannot give seat %s a pointer\n",
			   SEAT_NAME);
		return false;
	}
	if (weston_seat_init_keyboard(&fk->seat, NULL) < 0) {
		weston_log("fake-kms: cannot give seat %s a keyboard "
			   "(xkb keymap? install xkb-data)\n", SEAT_NAME);
		return false;
	}
	if (!with_touch)
		return true;
	if (weston_seat_init_touch(&fk->seat) < 0) {
		weston_log("fake-kms: cannot give seat %s touch\n", SEAT_NAME);
		return false;
	}
	fk->touch_device =
		sf_test_create_touch_device(fk->seat.touch_state,
					    "stillframe-test-touch");
	if (!fk->touch_device) {
		weston_log("fake-kms: cannot create a touch device\n");
		return false;
	}
	return true;
}

/* More heads, and which one is the built-in panel.  Created now, before
 * the frontend makes outputs of the heads, so they are there at start
 * like the backend's own. */
static bool
heads_setup(struct fake_kms *fk, struct weston_config_section *section)
{
	char *names = NULL, *internal = NULL;
	bool ok = true;

	weston_config_section_get_string(section, "heads", &names, NULL);
	weston_config_section_get_string(section, "internal-head", &internal,
					 NULL);
	if (names && names[0]) {
		char *save = NULL;

		for (char *name = strtok_r(names, ",", &save); ok && name;
		     name = strtok_r(NULL, ",", &save)) {
			if (sf_test_create_headless_head(fk->compositor,
							 name) < 0) {
				weston_log("fake-kms: config: head %s could "
					   "not be created\n", name);
				ok = false;
			} else {
				weston_log("fake-kms: head %s\n", name);
			}
		}
	}
	if (ok && internal && internal[0]) {
		struct weston_head *head = head_find(fk, internal);

		if (head) {
			weston_head_set_internal(head);
			weston_log("fake-kms: head %s is internal\n",
				   internal);
		} else {
			weston_log("fake-kms: config: internal-head=%s: no "
				   "such head\n", internal);
			ok = false;
		}
	}
	free(names);
	free(internal);
	return ok;
}

/* Before the outputs are attached: the log starts with the first.  A
 * log that cannot be opened is said in the Weston log and left out; the
 * double works on without it. */
static void
frame_log_setup(struct fake_kms *fk, struct weston_config_section *section)
{
	char *path = NULL, *output_name = NULL;

	weston_config_section_get_string(section, "frame-log", &path, NULL);
	weston_config_section_get_string(section, "frame-log-output",
					 &output_name, NULL);
	if (path && path[0])
		fk->frame_log = sf_frame_log_create(path, output_name);
	else if (output_name)
		weston_log("fake-kms: config: frame-log-output=%s without "
			   "frame-log=PATH; no frame log\n", output_name);
	free(path);
	free(output_name);
}

WL_EXPORT int
wet_module_init(struct weston_compositor *compositor, int *argc, char *argv[])
{
	struct fake_kms *fk = calloc(1, sizeof *fk);

	if (!fk)
		return -1;
	fk->compositor = compositor;
	fk->control_fd = -1;
	wl_list_init(&fk->output_list);
	wl_list_init(&fk->output_created_listener.link);

	if (!weston_compositor_add_destroy_listener_once(compositor,
			&fk->destroy_listener, compositor_handle_destroy)) {
		weston_log("fake-kms: loaded twice; the second copy does "
			   "nothing\n");
		free(fk);
		return 0;
	}

	weston_log("fake-kms: TEST DOUBLE standing in for a KMS backend on "
		   "the headless backend (stillframe integration tests "
		   "only)\n");

	struct weston_config_section *section =
		weston_config_get_section(wet_get_config(compositor),
					  CONFIG_SECTION, NULL, NULL);
	bool with_touch;
	weston_config_section_get_bool(section, "touch", &with_touch, true);
	weston_config_section_get_bool(section, "modes", &fk->with_modes,
				       true);
	weston_config_section_get_bool(section, "dpms", &fk->with_dpms, true);
	weston_config_section_get_bool(section, "switch-fails",
				       &fk->switch_fails, false);
	weston_config_section_get_string(section, "control",
					 &fk->control_path, NULL);
	frame_log_setup(fk, section);
	if (!heads_setup(fk, section))
		goto fail;

	if (!seat_setup(fk, with_touch))
		goto fail;
	weston_log("fake-kms: seat %s with pointer, keyboard%s\n", SEAT_NAME,
		   with_touch ? " and touch" : "");

	fk->output_created_listener.notify = compositor_handle_output_created;
	wl_signal_add(&compositor->output_created_signal,
		      &fk->output_created_listener);
	struct weston_output *output;
	wl_list_for_each(output, &compositor->output_list, link)
		output_attach(fk, output);

	if (fk->control_path && fk->control_path[0]) {
		if (!control_open(fk))
			goto fail;
	} else {
		weston_log("fake-kms: config: no [%s] control=PATH; no "
			   "commands will be read\n", CONFIG_SECTION);
	}
	return 0;

fail:
	{
		struct fake_output *fo, *next;

		wl_list_for_each_safe(fo, next, &fk->output_list, link)
			output_detach(fo);
	}
	fake_kms_shutdown(fk);
	return -1;
}
