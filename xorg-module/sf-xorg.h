/* SPDX-License-Identifier: MIT */
#ifndef SF_XORG_H
#define SF_XORG_H

/*
 * Internal interface of the Xorg module; every function one file
 * offers another is declared here.  module.c reads the options once
 * (Setup); extension.c owns struct sf_xorg for one server generation,
 * its timer and block handler, and follows input; dispatch.c serves the
 * STILLFRAME requests, sdispatch.c swaps them for a client of the other
 * byte order; output.c turns RandR outputs into the core's outputs and
 * carries out mode and DPMS changes; window.c tracks top-level windows
 * and who they belong to, hint.c reads what they say of themselves,
 * damage.c reports their drawing to the core; hold.c holds and releases
 * the clients that draw them and watches a held client's socket, and
 * drawer.c learns what those clients' blinks and ticks are.  Nothing
 * here makes a decision: common/ does (sf-hold.h judges what waits in a
 * held client's socket).
 */

#include <stdbool.h>
#include <stdint.h>

#include <xorg-server.h>
#include <X11/X.h>
#include <list.h>
#include <dixstruct.h>
#include <scrnintstr.h>
#include <windowstr.h>
#include <damage.h>
#include <randrstr.h>
#include <os.h>

#include "sf-core.h"
#include "sf-config.h"
#include "sf-platform.h"
#include "sf-support.h"
#include "sf-tiles.h"
#include "sf-hold.h"

struct sf_xorg_output;
struct sf_xorg_window;

/* One held client: its requests wait until the output paints again. */
struct sf_xorg_hold {
	struct xorg_list link;		/* sf_xorg.holds */
	ClientPtr client;
	struct sf_xorg_output *output;
	sf_time_t since;
	int fd;				/* its socket, watched (hold.c) */
	struct sf_xorg_drawer *drawer;	/* what it may send and stay held */
	enum sf_hold_match match;	/* blinks exactly, ticks by shape */
};

/* A client that drew a blink or tick: the requests it drew them with. */
struct sf_xorg_drawer {
	struct xorg_list link;		/* sf_xorg.drawers */
	ClientPtr client;
	struct sf_hold_vocab vocab;
	/* What waited when it was last let go for sending more: learnt
	 * if the frame it draws is held too (it was a blink or tick). */
	struct sf_hold_vocab candidate;
	/* Let go: its next frame draws what waited, several blinks at
	 * once, and says nothing of which phase each drew. */
	bool backlog;
};

/* What RandR last said of one output's connector, for hotplugs. */
struct sf_xorg_connector {
	struct xorg_list link;		/* sf_xorg.connectors */
	RROutputPtr output;
	CARD8 connection;		/* RR_Connected, ... */
	bool plugged;			/* came from disconnected */
};

/* What the last full poll saw of one RandR output (output.c). */
struct sf_xorg_randr_seen {
	RROutputPtr output;		/* compared, never followed */
	RRCrtcPtr crtc;
	RRModePtr mode;			/* compared, never followed */
	CARD8 connection;
	bool lit;
};

/* A client's SelectEvents. */
struct sf_xorg_selection {
	struct xorg_list link;		/* sf_xorg.selections */
	ClientPtr client;
	XID window;
	uint32_t mask;
	XID resource;			/* freed with the client */
};

struct sf_xorg {
	/* What the block handler reads, several times a frame
	 * under a video: first and together, in one cache line, as the
	 * server's own drawing evicts the module between calls. */
	bool ending;			/* the generation is ending */
	bool outputs_scanned;		/* RandR is ready after the first
					 * CreateScreenResources */
	/* The block handler skips the cycle while none of these says
	 * there is work (server_handle_block). */
	bool cycle_wanted;		/* see sf_xorg_want_cycle */
	bool damage_pending;		/* a window has damage to commit */
	bool randr_seen_valid;		/* see randr_seen */
	CARD32 seen_event_ms;		/* LastEventTime(XIAllDevices) as
					 * the module last saw it */
	/* Windows damaged since the last block handler, whose time it
	 * notes: sf_xorg_window.fresh_link. */
	struct xorg_list fresh_windows;
	sf_time_t damage_ready;		/* none may be committed before */
	sf_time_t damage_due;		/* the server wakes up for it then */
	sf_time_t randr_polled;		/* when the last poll ran */

	struct sf_core *core;		/* with the options (sf_core_get_config) */
	struct sf_platform *platform;	/* clocks and backlight (sysfs) */
	struct xorg_list outputs;	/* sf_xorg_output.link */
	struct xorg_list windows;	/* sf_xorg_window.link */
	struct xorg_list holds;		/* sf_xorg_hold.link */
	struct xorg_list drawers;	/* sf_xorg_drawer.link */
	int hold_epoll_fd;		/* held clients' sockets (hold.c) */
	uint32_t sends_released;	/* let go for sending more */
	struct xorg_list selections;	/* sf_xorg_selection.link */
	struct xorg_list connectors;	/* sf_xorg_connector.link */
	/* RandR's outputs, screen by screen, as the last full poll left
	 * them; not valid once one of ours was added, dropped or powered
	 * since. */
	struct sf_xorg_randr_seen *randr_seen;
	size_t n_randr_seen, randr_seen_cap;
	int screens_open;
	OsTimerPtr timer;
	sf_time_t timer_deadline;
	int event_base;
	RESTYPE selection_type;
	Atom hint_atom, vrr_atom, wm_state_atom;
	uint32_t motion_events;		/* from the device event callback */
	uint32_t releases;
	bool dispatching;		/* inside sf_core_dispatch */
	ClientPtr trace_owner;		/* who the recording is for */
	/* Moves on with every RandR poll and layout change: a window's
	 * placement is worked out again at its next commit. */
	uint32_t layout_serial;
};

/* Something reached the module that may change what the cycle does: a
 * request, input, a window or property change, the core's timer.  The
 * next block handler runs the whole cycle. */
static inline void
sf_xorg_want_cycle(struct sf_xorg *sx)
{
	sx->cycle_wanted = true;
}

/* The module's one instance of a generation, or NULL between them. */
extern struct sf_xorg *sf_xorg_instance;

/* --- module.c --- */

/* The options read by Setup, or the defaults: the generation's core and
 * platform are made from them; everything else reads the options
 * through the core (sf_core_get_config and the policy of common/). */
const struct sf_config *
sf_xorg_module_config(void);

/* --- extension.c --- */

/* The extension's init, run by the server every generation (module.c
 * registers it). */
void
sf_xorg_extension_init(void);

/* A screen closes: while RandR and the windows still exist, the user's
 * modes go back and every held client goes (window.c's CloseScreen). */
void
sf_xorg_screen_closed(ScreenPtr screen);

void
sf_xorg_log(enum sf_log_level level, const char *fmt, ...)
	_X_ATTRIBUTE_PRINTF(2, 3);

/* Arms the timer for the core's next deadline. */
void
sf_xorg_schedule_dispatch(struct sf_xorg *sx);

/* Asks the server, from a block handler, to wake up in `wait` at the
 * latest. */
static inline void
sf_xorg_wake_up_in(void *timeout, sf_time_t wait)
{
	if (timeout)
		AdjustWaitForDelay(timeout, (int)((wait + SF_NSEC_PER_MSEC - 1) /
						  SF_NSEC_PER_MSEC));
}

/* An output's state or refresh changed: StateNotify to who asked. */
void
sf_xorg_notify_state(struct sf_xorg *sx, struct sf_xorg_output *xo);

/* --- dispatch.c --- */

/* The size check of every request, before any field is read or swapped:
 * Success, BadRequest (no such minor opcode) or BadLength. */
int
sf_xorg_request_check_size(ClientPtr client);

/* The extension's dispatch for a client of the server's byte order. */
int
sf_xorg_proc_dispatch(ClientPtr client);

/* --- sdispatch.c --- */

/* The extension's dispatch for a client of the other byte order. */
int
sf_xorg_sproc_dispatch(ClientPtr client);

/* StateNotify for a client of the other byte order (EventSwapVector). */
void
sf_xorg_swap_state_notify(xEvent *from, xEvent *to);

/* --- output.c --- */

struct sf_xorg_output {
	struct sf_xorg *sx;
	struct xorg_list link;		/* sf_xorg.outputs */
	ScreenPtr screen;
	RROutputPtr rr_output;
	RRCrtcPtr rr_crtc;
	struct sf_output *core;
	/* The modes the core chooses from, by value: RandR may replace its
	 * mode objects when it probes again. */
	xRRModeInfo *modes;
	char (*mode_names)[32];
	size_t n_modes;
	size_t user_mode;		/* the mode the user had */
	RRModePtr synthesized;		/* our low-refresh copy, if added */
	bool manage_refresh;
	bool dpms_missing_logged;
	bool dying;			/* going: touch nothing */
	bool repaint_due;		/* the core asked to paint */
	/* Powered off by stillframe: the CRTC is disabled and what it
	 * showed is kept here to put back (the screen keeps its size, so
	 * no window moves). */
	bool powered_off;
	xRRModeInfo off_mode;
	char off_mode_name[32];
	int off_x, off_y;
	Rotation off_rotation;
	RROutputPtr *off_outputs;
	int off_n_outputs;
	bool committed_now;		/* damage reported this cycle */
	/* The core's deadline came while a held blinker's waiting
	 * requests end with its caret hidden: its clients are let go
	 * together once it drew the caret again (hold.c). */
	bool deadline_waits;
	sf_time_t deadline_since;
	int dpms;			/* DPMSMode* last set */
	enum sf_idle_state last_state;	/* for StateNotify */
	uint32_t last_refresh_mhz;
	uint32_t damage_events;
	uint32_t held;
};

extern const struct sf_core_interface sf_xorg_core_interface;

/* Finds the RandR outputs with a CRTC on every screen (once RandR is
 * set up) and makes them the core's outputs. */
void
sf_xorg_output_scan(struct sf_xorg *sx);

/* A user's xrandr or a plugged connector is noticed a tenth of a second
 * later at most; even comparing every output is too much to do hundreds
 * of times a second under a video. */
#define RANDR_POLL_INTERVAL SF_MSEC(100)

static inline bool
sf_xorg_output_poll_due(const struct sf_xorg *sx, sf_time_t now)
{
	return !sx->randr_seen_valid ||
	       now - sx->randr_polled >= RANDR_POLL_INTERVAL;
}

/* Follows RandR since the last poll: a connector plugged in (hotplug),
 * an output lit by a client (xrandr, the desktop) or switched off by
 * one, a mode set by the driver on its own (RRCrtcNotify; a client's
 * RRCrtcSet is followed as it happens).  Called when sf_xorg_output_poll_due; cheap when nothing
 * changed: a few compares per output. */
void
sf_xorg_output_poll(struct sf_xorg *sx, sf_time_t now);

/* The tracked output behind a RandR output, or NULL. */
struct sf_xorg_output *
sf_xorg_output_find(struct sf_xorg *sx, RROutputPtr output);

void
sf_xorg_output_destroy_all(struct sf_xorg *sx, ScreenPtr screen);

/* The output showing most of the box (screen coordinates), or NULL. */
struct sf_xorg_output *
sf_xorg_output_at(struct sf_xorg *sx, ScreenPtr screen, const BoxRec *box,
		  double *fraction);


/* --- output-modes.c --- */

uint32_t
sf_xorg_mode_refresh_mhz(const xRRModeInfo *mode);

bool
sf_xorg_mode_same_timings(const xRRModeInfo *a, const xRRModeInfo *b);

/* Fills the output's modes (xo->modes, xo->mode_names, xo->n_modes,
 * xo->user_mode) from RandR at the CRTC's current resolution, making the
 * low-refresh copy if the options ask for one, and *out with the core's
 * mode list (the caller frees it, and xo's arrays on failure); false
 * without memory. */
bool
sf_xorg_output_build_modes(struct sf_xorg_output *xo, struct sf_mode **out);

/* Our low-refresh copy goes from the output's modes, unless a CRTC
 * shows it (the user chose it): then RandR keeps it and so do we. */
void
sf_xorg_output_drop_synthesized(struct sf_xorg_output *xo);

/* --- window.c --- */

struct sf_xorg_window {
	struct sf_xorg *sx;
	struct xorg_list link;		/* sf_xorg.windows */
	WindowPtr window;		/* the child of the root */
	/* The application's window: the same one, or, under a
	 * reparenting window manager, the one with WM_STATE inside its
	 * frame.  Its client is the one that draws here, and is held. */
	WindowPtr client_window;
	ClientPtr owner;		/* client_window's client */
	/* The client whose requests drew the last frame here (the owner,
	 * or another: Chromium's GPU process), NULL when several did or
	 * the server itself: that client is held, or none. */
	ClientPtr drawer;
	ClientPtr frame_drawer;		/* so far in the frame coming */
	bool frame_mixed;		/* more than one drew it */
	ClientPtr frame_seq_client;	/* the request last learned */
	unsigned long frame_seq;
	struct sf_hold_vocab frame_vocab; /* the frame's requests */
	struct sf_hold_vocab prev_frame_vocab; /* the frame's before */
	ClientPtr prev_frame_drawer;
	enum sf_blink_phase prev_frame_phase;
	struct sf_surface *core;
	DamagePtr damage;
	RegionRec pending;		/* damage not yet reported */
	RegionRec fresh;		/* reported since the last block
					 * handler, not yet in pending */
	struct xorg_list fresh_link;	/* sf_xorg.fresh_windows, or empty */
	sf_time_t pending_since;	/* first and last damage of it */
	sf_time_t last_damage;
	struct sf_xorg_output *output;
	double visible_fraction;
	BoxRec placed_box;		/* where it was at update_placement */
	uint32_t placed_serial;		/* sf_xorg.layout_serial then */
	uint32_t hint[5];		/* _STILLFRAME_HINT, as applied */
	bool hinted;
	bool game;			/* _VARIABLE_REFRESH */
	bool committed_now;		/* damage reported this cycle */
	bool held;			/* this cycle's damage was held */
	bool hold_after_paint;		/* its drawer was let go at a
					 * deadline: held again once what
					 * waited is drawn */
	enum sf_priority rule_priority;
	char instance[64];		/* WM_CLASS instance */
	char wm_class[64];		/* WM_CLASS class */
	struct sf_tile_map tiles;
	uint8_t *pixels;		/* window-sized copy for the tiles */
	size_t pixels_size;
	uint32_t damage_events;
	uint32_t held_frames;
};

/* Wraps the screen's window hooks to follow windows. */
struct sf_xorg_window *
sf_xorg_window_find(struct sf_xorg *sx, WindowPtr window);

void
sf_xorg_window_destroy_all(struct sf_xorg *sx, ScreenPtr screen);

/* The outputs' layout changed (one powered off or on, added, gone):
 * every window is placed again. */
void
sf_xorg_window_place_all(struct sf_xorg *sx);

/* `xo` goes: no window is on it any more. */
void
sf_xorg_window_forget_output(struct sf_xorg *sx, struct sf_xorg_output *xo);

bool
sf_xorg_window_init_screen(struct sf_xorg *sx, ScreenPtr screen);

/* The record of the tracked top-level window `win` is in, or NULL. */
struct sf_xorg_window *
sf_xorg_window_toplevel_of(struct sf_xorg *sx, WindowPtr win);

/* Finds the application's window and client in the top-level window
 * again (WM_STATE moved, a window mapped in its frame, or `leaving`,
 * not NULL, leaves it) and reads their hints if they changed. */
void
sf_xorg_window_resolve_client(struct sf_xorg_window *xw, WindowPtr leaving,
			      sf_time_t now);

/* Places the window on an output again if it moved or the layout
 * changed since it was last placed. */
void
sf_xorg_window_check_placement(struct sf_xorg_window *xw, sf_time_t now);

/* The record a client's top-level window belongs to: its own, or that
 * of the window manager's frame it sits in; NULL if untracked. */
struct sf_xorg_window *
sf_xorg_window_of_client_window(struct sf_xorg *sx, WindowPtr win);

/* Whether a client may treat the window as its top-level one: a child of
 * the root, or reparented into another client's window (a frame). */
bool
sf_xorg_window_is_client_toplevel(WindowPtr win);

/* --- hint.c --- */

/* Reads WM_CLASS, _STILLFRAME_HINT and _VARIABLE_REFRESH again and
 * applies them. */
void
sf_xorg_window_update_hints(struct sf_xorg_window *xw, sf_time_t now);

/* Follows ChangeProperty and DeleteProperty of the hint properties. */
void
sf_xorg_window_hook_properties(void);

void
sf_xorg_window_unhook_properties(void);

/* --- damage.c --- */

/* Follows the window's drawing (DamageCreate); false when it cannot. */
bool
sf_xorg_damage_watch(struct sf_xorg_window *xw);

void
sf_xorg_damage_unwatch(struct sf_xorg_window *xw);

/* Notes the time of the damage reported since the last call: now, in
 * the block handler that ends the dispatch it came in. */
void
sf_xorg_damage_stamp(struct sf_xorg *sx, sf_time_t now);

/* Reports each window's settled damage to the core, and which window
 * has the focus. */
void
sf_xorg_damage_commit_settled(struct sf_xorg *sx, WindowPtr focus,
			      sf_time_t now);

/* --- hold.c --- */

/* Asks each output the windows committed to paint: a painted output
 * lets its held clients go; one that defers holds the clients whose
 * damage the core held.  A deadline waiting for a caret asks the server
 * to wake up in time. */
void
sf_xorg_hold_cycle(struct sf_xorg *sx, sf_time_t now, void *timeout);

/* Lets every client held on `xo` (NULL: on any output) go. */
void
sf_xorg_release(struct sf_xorg *sx, struct sf_xorg_output *xo,
		const char *why);

/* Lets every client held on `xo` go at the core's deadline (or input);
 * the windows they draw are held again once what waited is painted
 * (hold.c says why). */
void
sf_xorg_release_at_deadline(struct sf_xorg *sx, struct sf_xorg_output *xo);

/* The blink phase what waits in the held client's socket leaves on
 * screen once drawn (sf_hold_last_phase). */
enum sf_blink_phase
sf_xorg_hold_waiting_phase(struct sf_xorg_hold *hold);

/* Lets the clients held on `xo` go if its deadline waits for a caret
 * that is drawn now, or waited long enough. */
void
sf_xorg_deadline_check(struct sf_xorg *sx, struct sf_xorg_output *xo);

/* Lets one client go, wherever it is held. */
void
sf_xorg_release_client(struct sf_xorg *sx, ClientPtr client, const char *why);

/* The client is gone: forget its holds. */
void
sf_xorg_forget_client(struct sf_xorg *sx, ClientPtr client);

bool
sf_xorg_client_is_held(struct sf_xorg *sx, ClientPtr client);

bool
sf_xorg_hold_init(struct sf_xorg *sx);

void
sf_xorg_hold_finish(struct sf_xorg *sx);

/* Watches a held client's socket; false if it cannot be (then it must
 * not be held). */
bool
sf_xorg_hold_watch(struct sf_xorg *sx, struct sf_xorg_hold *hold);

void
sf_xorg_hold_unwatch(struct sf_xorg *sx, struct sf_xorg_hold *hold);

/* Whether what waits in its socket is only its blinks or ticks. */
bool
sf_xorg_hold_still_only_blinks(struct sf_xorg *sx, struct sf_xorg_hold *hold);

/* --- drawer.c --- */

/* The client's record of its blink and tick requests, made if `create`. */
struct sf_xorg_drawer *
sf_xorg_drawer_find(struct sf_xorg *sx, ClientPtr client, bool create);

/* Called from the damage report, inside the request that drew: notes
 * the client drawing the window's coming frame, and its request when
 * `learn` (the window blinks or ticks). */
void
sf_xorg_drawer_note_request(struct sf_xorg_window *xw, bool learn);

/* The window's frame was committed: who drew it becomes its drawer, and
 * its requests part of the drawer's blinks or ticks if the core held it
 * (`held`). */
void
sf_xorg_drawer_end_frame(struct sf_xorg_window *xw, bool held);

void
sf_xorg_drawer_forget(struct sf_xorg *sx, ClientPtr client);

#endif /* SF_XORG_H */
