/* SPDX-License-Identifier: MIT */
#ifndef SF_CORE_H
#define SF_CORE_H

#include <stddef.h>
#include "sf-types.h"

/* Declared where they are defined: the caller includes the header of a
 * struct whose fields it reads or fills. */
struct sf_config;		/* sf-config.h */
struct sf_energy_totals;	/* sf-energy.h */
struct sf_output_stats;		/* sf-stats.h */
struct sf_surface_stats;	/* sf-stats.h */
struct sf_writer;		/* sf-stats.h */

/*
 * The policy as one object.  An adapter (the Weston plugin, the Xorg
 * module, stillframe-replay) reports outputs, surfaces, commits and input
 * with timestamps, asks whether a repaint may run, calls
 * sf_core_dispatch() at the deadline the core names, and carries out what
 * the core asks through struct sf_core_interface.
 */

struct sf_core;
struct sf_output;
struct sf_surface;
struct sf_trace_recorder;

enum sf_log_level {
	SF_LOG_DEBUG = 0,	/* every decision, with its reason */
	SF_LOG_INFO,
	SF_LOG_ERROR,
};

enum sf_dpms_level {
	SF_DPMS_ON = 0,
	SF_DPMS_STANDBY,
	SF_DPMS_OFF,
};

/* What the core asks the adapter to do.  Any hook may be NULL: that
 * action is then unsupported and the core does not count on it.  Hooks
 * return false when the action failed; the core logs it and keeps the
 * previous setting. */
struct sf_core_interface {
	void (*log)(void *data, enum sf_log_level level, const char *message);
	bool (*set_mode)(void *data, struct sf_output *output, size_t mode);
	bool (*set_dpms)(void *data, struct sf_output *output,
			 enum sf_dpms_level level);
	/* 100 restores the user's brightness. */
	bool (*set_backlight)(void *data, struct sf_output *output,
			      int32_t percent);
	bool (*set_reclock)(void *data, enum sf_reclock_level level);
	/* Held damage must be painted now (deadline, or unblocked). */
	void (*schedule_repaint)(void *data, struct sf_output *output);
	/* Off: the output is dark and unpowered as far as the display
	 * server can make it (KMS: DPMS off and no frames; RandR: CRTC
	 * disabled, layout kept).  On: as the user had it, lit and
	 * painted at the next repaint. */
	bool (*set_output_power)(void *data, struct sf_output *output,
				 bool on);
};

struct sf_core *
sf_core_create(const struct sf_config *config,
	       const struct sf_core_interface *iface, void *data,
	       sf_time_t now);

/* Restores everything stillframe changed (mode, backlight, DPMS, clocks)
 * through the interface, then frees.  NULL-safe. */
void
sf_core_destroy(struct sf_core *core);

const struct sf_config *
sf_core_get_config(const struct sf_core *core);

/* Paused, the core puts back what the user had (modes, backlight, DPMS,
 * clocks), paints every repaint and changes nothing until resumed; it
 * keeps tracking, so it resumes with what it learnt.  Resuming counts as
 * input: every output starts from ACTIVE. */
void
sf_core_set_paused(struct sf_core *core, bool paused, sf_time_t now);

bool
sf_core_is_paused(const struct sf_core *core);

/* User input on any seat. */
void
sf_core_notify_input(struct sf_core *core, enum sf_input_kind kind,
		     sf_time_t now);

/* Runs due timers (governor stages, reclock, selector dwell, held-damage
 * deadlines) and the refresh choice for votes that changed since, and
 * returns when to call again, or SF_TIME_NEVER. */
sf_time_t
sf_core_dispatch(struct sf_core *core, sf_time_t now);

/* When sf_core_dispatch() next has work.  A time in the past (0) means
 * "now": a surface's vote changed outside a repaint (a hint, a surface
 * mapped or gone quiet) and the refresh choice is waiting for it. */
sf_time_t
sf_core_next_deadline(const struct sf_core *core);

enum sf_reclock_level
sf_core_get_reclock(const struct sf_core *core);

/* Status in the "key value" text form, or the Prometheus form. */
enum sf_status_format {
	SF_STATUS_TEXT = 0,
	SF_STATUS_PROMETHEUS,
};

void
sf_core_write_status(struct sf_core *core, sf_time_t now,
		     enum sf_status_format format, struct sf_writer *writer);

void
sf_core_energy_totals(const struct sf_core *core, sf_time_t now,
		      struct sf_energy_totals *out);

/* --- trace recording (sf-recorder.h, doc/trace-format.md) --- */

/* The buffer the adapters' recordings get: a few seconds of a busy
 * desktop, read a few times a second. */
#define SF_CORE_TRACE_CAPACITY (1024 * 1024)

/* Starts recording a trace into a buffer of `capacity` bytes: first the
 * world as it is (every output with its modes, every surface shown on
 * one with its size, visible fraction, label and hints, the focused
 * surface, the outputs' inhibitors), so that the trace replays on its
 * own, then everything the adapter reports, as it comes.  One recording
 * at a time: NULL when there is one already (sf_core_get_trace) or out
 * of memory. */
struct sf_trace_recorder *
sf_core_trace_start(struct sf_core *core, size_t capacity, sf_time_t now);

/* The recording, running or ended, until it is discarded; or NULL. */
struct sf_trace_recorder *
sf_core_get_trace(const struct sf_core *core);

/* Frees the recording, whatever its state.  Nothing to do without one. */
void
sf_core_trace_discard(struct sf_core *core);

/* --- outputs --- */

/* `modes` is copied.  `current` is the mode the output runs now; it is
 * also what the core restores. */
struct sf_output *
sf_output_create(struct sf_core *core, const char *name,
		 const struct sf_mode *modes, size_t n_modes,
		 size_t current, sf_time_t now);

/* The output's modes changed under stillframe: someone else (the user's
 * xrandr, a desktop's display settings) set a mode, perhaps at another
 * resolution, and the adapter scanned the modes again.  `modes` (copied)
 * replace the list; `current` is the mode the output runs now, which
 * becomes the one restored on pause and exit: the user's last choice,
 * not what the output ran when stillframe found it.  A switch that
 * failed before is tried again, the selector starts from `current`
 * (dropping below it waits the dwell, as after any switch) and the
 * policy goes on at the next dispatch.  No hook is called, so the
 * adapter may call this from inside the display server's own mode set.
 * False, changing nothing, for an empty list, a `current` out of range
 * or no memory. */
bool
sf_output_set_modes(struct sf_output *output, const struct sf_mode *modes,
		    size_t n_modes, size_t current, sf_time_t now);

/* Restores the output's settings, detaches its surfaces.  NULL-safe. */
void
sf_output_destroy(struct sf_output *output);

const char *
sf_output_get_name(const struct sf_output *output);

void
sf_output_set_user_data(struct sf_output *output, void *data);

void *
sf_output_get_user_data(const struct sf_output *output);

size_t
sf_output_get_mode(const struct sf_output *output);

const struct sf_mode *
sf_output_get_modes(const struct sf_output *output, size_t *n_modes);

/* A mode switch the adapter took on (set_mode returned true) but could
 * carry out only later, and which then failed: the output still runs
 * mode `running`.  As when set_mode fails, stillframe stops changing
 * this output's mode until its modes change (libweston 13 and later
 * cannot switch modes inside their repaint, where the core decides). */
void
sf_output_mode_switch_failed(struct sf_output *output, size_t running,
			     sf_time_t now);

enum sf_idle_state
sf_output_get_state(const struct sf_output *output);

const struct sf_output_stats *
sf_output_get_stats(const struct sf_output *output);

/* The output's kind (sf_output_create guesses it from the name); the
 * adapter corrects it once it has tied its data to the output, and the
 * unneeded-outputs policy is applied then. */
void
sf_output_set_kind(struct sf_output *output, enum sf_output_kind kind,
		   sf_time_t now);

enum sf_output_kind
sf_output_get_kind(const struct sf_output *output);

/* What the user asked: ON powers the output and wakes it (a wake
 * request: see wake-request-hold), OFF powers it off, AUTO hands it to
 * unneeded-outputs. */
void
sf_output_request_power(struct sf_output *output,
			enum sf_output_power request, sf_time_t now);

/* The output's connector was plugged in after being disconnected:
 * powered on and woken unless hotplug-power-on=false. */
void
sf_output_notify_hotplug(struct sf_output *output, sf_time_t now);

bool
sf_output_is_powered(const struct sf_output *output);

enum sf_output_power
sf_output_get_power_request(const struct sf_output *output);

/* By name, or NULL. */
struct sf_output *
sf_core_find_output(struct sf_core *core, const char *name);

/* A client asked that the display stay on (X's screensaver reset, which
 * video players send every few seconds): not the user's input, so the
 * refresh rate, held repaints and held clients stay as they are, but for
 * SF_KEEP_AWAKE_HOLD after the last request no output is dimmed or
 * blanked, and one that is comes back at once.  Long enough for the
 * slowest heartbeats players send (xdg-screensaver's, every 50 s). */
#define SF_KEEP_AWAKE_HOLD SF_SEC(60)

void
sf_core_notify_keep_awake(struct sf_core *core, sf_time_t now);

/* Inhibitors of the whole output (a screensaver-inhibit request, a key
 * held down): nested.  One on a surface is sf_surface_inhibit(). */
void
sf_output_inhibit(struct sf_output *output, sf_time_t now);

void
sf_output_uninhibit(struct sf_output *output, sf_time_t now);

/* The backend wants to repaint.  `force` holds enum sf_repaint_force
 * bits the adapter saw (pointer moved, geometry, planes).  On DEFER the
 * adapter skips the repaint, keeps the damage and waits for
 * schedule_repaint (at `*deadline` at the latest). */
enum sf_repaint_decision
sf_output_repaint(struct sf_output *output, uint32_t force, sf_time_t now,
		  sf_time_t *deadline);

/* --- surfaces --- */

struct sf_surface *
sf_surface_create(struct sf_core *core, int32_t width, int32_t height,
		  sf_time_t now);

void
sf_surface_destroy(struct sf_surface *surface);

uint32_t
sf_surface_get_id(const struct sf_surface *surface);

/* app_id, title or WM_CLASS, for logs; copied and cut at 63 bytes. */
void
sf_surface_set_label(struct sf_surface *surface, const char *label);

void
sf_surface_set_size(struct sf_surface *surface, int32_t width,
		    int32_t height);

/* The output the surface is mostly on, and which fraction of that
 * output's area it covers visibly (0 when hidden).  NULL detaches. */
void
sf_surface_set_output(struct sf_surface *surface, struct sf_output *output,
		      double visible_fraction, sf_time_t now);

/* The surface is drawn as part of `parent`'s window (a Wayland
 * subsurface: a client's decorations, its title bar, the page Firefox
 * draws; a popup), or of none (NULL).  The window is the unit of every
 * decision a user would notice: a part shares the window's focus, its
 * priority and content type (unless it has its own) and its rate
 * hints (unless it asked for its own); only its class is its own.  A
 * part that is static itself and commits nothing new (an empty or
 * identical commit) along with its window is held as the window's
 * commits are: foot from 1.25 on commits its decorations' subsurfaces,
 * unchanged, with each blink of its cursor.  The link is dropped when
 * either surface is destroyed. */
void
sf_surface_set_parent(struct sf_surface *surface, struct sf_surface *parent);

/* The surface has the keyboard focus, or no longer, since `now` (which
 * only a trace records). */
void
sf_surface_set_focused(struct sf_surface *surface, bool focused,
		       sf_time_t now);

/* An idle inhibitor on the surface (zwp_idle_inhibitor_v1): nested.
 * While the surface is visible, the output it is on stays visible (low
 * refresh at most); other outputs follow their own stages. */
void
sf_surface_inhibit(struct sf_surface *surface, sf_time_t now);

void
sf_surface_uninhibit(struct sf_surface *surface, sf_time_t now);

/* Whether the surface's client holds an idle inhibitor on any of its
 * surfaces: a player may hold it on its toplevel and show the video in a
 * subsurface.  Such a surface counts as a video (never throttled or
 * held); it does not keep the output awake, as an inhibitor on it does. */
void
sf_surface_set_client_inhibiting(struct sf_surface *surface, bool on);

void
sf_surface_set_content_type(struct sf_surface *surface,
			    enum sf_content_type type, sf_time_t now);

/* Explicit content rate hint, num/den frames per second; 0/x clears. */
void
sf_surface_set_content_rate(struct sf_surface *surface, uint32_t num,
			    uint32_t den, sf_time_t now);

/* Explicit refresh range hint in mHz; 0,0 clears. */
void
sf_surface_set_rate_range(struct sf_surface *surface, uint32_t min_mhz,
			  uint32_t max_mhz, sf_time_t now);

void
sf_surface_set_priority(struct sf_surface *surface, enum sf_priority priority,
			sf_time_t now);

/* Whether the adapter should read the pixels under the next commit's
 * damage (sf_tile_map_refine) before passing it in.  Reading them costs
 * about as much as compositing them, and a surface that animates changes
 * them every frame anyway: such a surface is read two commits in a row
 * once per SF_PIXEL_SAMPLE_INTERVAL of its own cadence (a number of
 * commits rounded up to a power of two, at least
 * SF_PIXEL_SAMPLE_MIN_PERIOD), and on every commit once a read found the
 * same pixels again, until one finds them changed.  So an animation that
 * starts repeating itself is found within about that interval whatever
 * its rate, at a cost of two reads in it.  Any other surface (and an
 * animation slower than SF_PIXEL_SAMPLE_MIN_MHZ, or without a measured
 * rate yet): always.  When this says no, the adapter resets its tile map
 * (the content it remembers goes stale) and leaves the damage as it is. */
#define SF_PIXEL_SAMPLE_INTERVAL_MS 4000
#define SF_PIXEL_SAMPLE_MIN_PERIOD 16
#define SF_PIXEL_SAMPLE_MIN_MHZ 10000	/* animating at 10 Hz or more */

bool
sf_surface_should_read_pixels(const struct sf_surface *surface);

/* The largest damaged area, in pixels, whose pixels are worth reading for
 * a commit at `now` (the adapter compares the area it would read, tiles
 * included): a budget that grows by hash-max-area per 60 Hz frame, up to
 * SF_PIXEL_READ_MAX_FRAMES frames' worth, and that each commit read
 * spends (never below one frame's worth).  The pixels read per second
 * stay within what hash-max-area allows at 60 fps; a toolkit that
 * redraws a whole large window once a second to change a clock
 * (weston-terminal) is seen as the tick it is, and so is one that
 * commits its whole window twice in a row for each blink (kitty): the
 * second commit is read too, and found identical.  Before the first
 * read, one frame's worth.  0 when hash-max-area is 0 (never read). */
#define SF_PIXEL_READ_MAX_FRAMES 60

int64_t
sf_surface_pixel_read_limit(const struct sf_surface *surface, sf_time_t now);

/* A commit, with its damage in surface coordinates.  Returns what the
 * tracker made of it. */
enum sf_commit_kind
sf_surface_commit(struct sf_surface *surface,
		  const struct sf_commit_desc *commit);

/* Whether an adapter that cannot hold a repaint (Xorg) may hold the
 * client whose commit the output's gate just held: only blinks and
 * ticks while the user is away.  A client held for a redundant commit
 * would also hold its answer to the user's next key. */
bool
sf_surface_may_hold_client(const struct sf_surface *surface, sf_time_t now);

/* Which phase of its blink the surface's newest commit showed
 * (SF_BLINK_PHASE_UNKNOWN unless it is blinking with phases known). */
enum sf_blink_phase
sf_surface_get_blink_phase(const struct sf_surface *surface);

/* The adapter holds (true) or lets go (false) what the surface's client
 * sends, as the Xorg module does with IgnoreClient: while held, and for
 * the few commits after (the backlog, then too few to show a cadence),
 * a blinking or ticking surface keeps its class unless the user acts,
 * since their timing is ours, not the client's. */
void
sf_surface_set_held(struct sf_surface *surface, bool held);

const struct sf_classification *
sf_surface_get_classification(const struct sf_surface *surface);

/* The surface's window has the keyboard focus: the adapter said so of
 * the surface, of its window (sf_surface_set_parent) or of another part
 * of it. */
bool
sf_surface_in_focused_window(const struct sf_surface *surface);

const struct sf_surface_stats *
sf_surface_get_stats(const struct sf_surface *surface);

/* How long to hold this surface's frame callbacks: 0 means release them
 * with the next repaint as usual.  Never for a blink or a tick (their
 * repaints are held instead), unless the surface is of the background
 * priority or shown only on an output that is powered off; an unfocused
 * animation gets background-frame-rate while the user is idle. */
sf_time_t
sf_surface_get_frame_interval(const struct sf_surface *surface,
			      sf_time_t now);

void
sf_surface_count_throttled_frame(struct sf_surface *surface);

#endif /* SF_CORE_H */
