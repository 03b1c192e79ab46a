/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the Weston plugin's Wayland request handlers, in a
 * real libweston compositor (headless backend, pixman renderer, two
 * outputs, one seat with a pointer) that runs in this process with the
 * plugin's wet_module_init() called directly.  Each input is decoded
 * into requests of one to three clients, each a libwayland-client
 * connection over a socketpair to a wl_client of the compositor: the
 * core protocol's surfaces and shm buffers, stillframe_manager_v1,
 * wp_content_type_manager_v1, zwp_idle_inhibit_manager_v1,
 * ext_idle_notifier_v1 and stillframe_control_v1 at every version,
 * with valid and invalid arguments, objects destroyed in any order and
 * clients leaving mid-sequence.  The encoding is documented in
 * make-wayland-seeds.py.
 *
 * After every request the server dispatches and the client reads what
 * came back.  A violation of these aborts, so that libFuzzer keeps the
 * input:
 *  - a request valid by construction never gets a protocol error;
 *  - one made invalid on purpose gets exactly the error its protocol
 *    documents (interface and code), and its client is then dropped;
 *  - once every client is gone, the plugin tracks no surface, holds no
 *    idle inhibitor (its count and the compositor's are 0), keeps no
 *    per-surface object, notification, control object or trace;
 *  - and, through the sanitizers, no crash, no leak, no undefined
 *    behaviour in the compositor's process.
 * Set SF_FUZZ_VERBOSE to see Weston's log for a crashing input.
 *
 * The sysfs tree the platform layer reads is an empty temporary
 * directory (platform-root): nothing here touches the real /sys.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>
#include <wayland-server-core.h>
#include <libweston/libweston.h>
#include <libweston/backend-headless.h>
#include <libweston/config-parser.h>
#include <libweston/weston-log.h>
#include <libweston/windowed-output-api.h>
#include <weston/weston.h>

#include "fuzz-input.h"
#include "weston-backend-api.h"
#include "sf-weston.h"
#include "protocols.h"
#include "stillframe-v1-client-protocol.h"
#include "stillframe-control-v1-client-protocol.h"
#include "content-type-v1-client-protocol.h"
#include "idle-inhibit-unstable-v1-client-protocol.h"
#include "ext-idle-notify-v1-client-protocol.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_CLIENTS 3
#define MAX_SURFACES 4
#define MAX_INHIBITORS 2
#define MAX_NOTIFICATIONS 2
#define MAX_FRAMES 2
#define MAX_STEPS 256
#define POOL_SIZE 65536
#define N_OUTPUTS 2
/* BTN_LEFT of linux/input-event-codes.h. */
#define BUTTON_LEFT 0x110

/* An internal panel and an external monitor: the plugin treats them
 * differently (dimming, unneeded-outputs). */
static const char *const output_names[N_OUTPUTS] = { "eDP-1", "HDMI-A-1" };

/* The compositor, made once for the whole run. */
static struct {
	struct wl_display *display;
	struct wl_event_loop *loop;
	struct weston_log_context *log;
	struct weston_compositor *compositor;
	struct weston_config *config;
	struct weston_output *outputs[N_OUTPUTS];
	struct weston_seat seat;
	bool button_down;
	struct weston_layer layer;
	struct wl_listener create_surface_listener;
	unsigned mapped;		/* views mapped so far */
	struct sf_weston *sfw;
	int pool_fd;
	char dir[64];
	bool verbose;
} server;

/* The globals a client binds, in this order. */
enum fz_global {
	FZ_GLOBAL_COMPOSITOR,
	FZ_GLOBAL_SHM,
	FZ_GLOBAL_SEAT,
	FZ_GLOBAL_HINTS,
	FZ_GLOBAL_CONTENTS,
	FZ_GLOBAL_INHIBITS,
	FZ_GLOBAL_NOTIFIER,
	FZ_GLOBAL_CONTROL,
	FZ_GLOBAL_COUNT
};

static const struct wl_interface *const global_interfaces[FZ_GLOBAL_COUNT] = {
	&wl_compositor_interface,
	&wl_shm_interface,
	&wl_seat_interface,
	&stillframe_manager_v1_interface,
	&wp_content_type_manager_v1_interface,
	&zwp_idle_inhibit_manager_v1_interface,
	&ext_idle_notifier_v1_interface,
	&stillframe_control_v1_interface,
};

struct fz_surface {
	struct wl_surface *surface;
	struct wl_buffer *buffer;
	struct wl_callback *frames[MAX_FRAMES];
	/* Kept when the wl_surface goes: they are inert then. */
	struct stillframe_surface_v1 *hint;
	struct wp_content_type_v1 *content;
	bool hint_inert, content_inert;
	struct zwp_idle_inhibitor_v1 *inhibitors[MAX_INHIBITORS];
};

struct fz_client {
	bool live;
	struct wl_display *display;
	/* The compositor's side; NULL once it is destroyed. */
	struct wl_client *server;
	struct wl_listener server_destroy_listener;

	struct wl_registry *registry;
	uint32_t global_names[FZ_GLOBAL_COUNT];		/* 0: not advertised */
	uint32_t global_versions[FZ_GLOBAL_COUNT];
	/* Bound globals: the proxies, in enum fz_global order. */
	struct wl_proxy *globals[FZ_GLOBAL_COUNT];
	uint32_t control_version;

	struct wl_shm_pool *pool;
	struct fz_surface surfaces[MAX_SURFACES];
	struct ext_idle_notification_v1 *notifications[MAX_NOTIFICATIONS];
	struct stillframe_status_v1 *status;
	struct stillframe_trace_v1 *trace;
	/* The object a request made invalid on purpose created. */
	struct wl_proxy *doomed;

	/* The protocol error the last request must cause, if any. */
	const struct wl_interface *expect_interface;
	uint32_t expect_code;
};

struct fz {
	struct fz_input in;	/* first: fuzz-input.h */
	unsigned step;
	struct fz_client clients[MAX_CLIENTS];
};

static void __attribute__((format(printf, 2, 3), noreturn))
fail(const struct fz *f, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz-wayland: invariant broken at step %u: ",
		f ? f->step : 0);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* A 32-bit argument: small values, limits and anything in between, so
 * that the boundaries the handlers check come up often. */
static uint32_t
arg32(struct fz *f)
{
	uint8_t kind = byte(f);

	switch (kind & 3) {
	case 0:
		return kind >> 2;
	case 1:
		return u16(f);
	case 2:
		return UINT32_MAX - (kind >> 2);
	default:
		return u16(f) | u16(f) << 16;
	}
}

/* --- the compositor --- */

static int __attribute__((format(printf, 1, 0)))
log_handler(const char *fmt, va_list ap)
{
	if (!server.verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* libwayland's own messages (a client's protocol error, on both sides). */
static void __attribute__((format(printf, 1, 0)))
wl_log_handler(const char *fmt, va_list ap)
{
	log_handler(fmt, ap);
}

/* The frontend's function, which the plugin calls for its [stillframe]
 * section: here the target is the frontend. */
WL_EXPORT struct weston_config *
wet_get_config(struct weston_compositor *compositor)
{
	(void)compositor;
	return server.config;
}

static void
write_config(void)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/root", server.dir);
	if (mkdir(path, 0700) != 0)
		fail(NULL, "mkdir %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/weston.ini", server.dir);
	f = fopen(path, "w");
	if (!f)
		fail(NULL, "%s: %s", path, strerror(errno));
	/* Short stages, so that the governor moves within an input; the
	 * platform layer sees an empty sysfs tree. */
	fprintf(f, "[stillframe]\n"
		   "platform-root=%s/root\n"
		   "outputs=all\n"
		   "low-refresh-timeout=100\n"
		   "dim-timeout=1\n"
		   "standby-timeout=2\n"
		   "off-timeout=3\n"
		   "reclock-delay=0\n"
		   "refresh-dwell=0\n"
		   "suppress-idle-delay=0\n", server.dir);
	fclose(f);
	server.config = weston_config_parse(path);
	if (!server.config)
		fail(NULL, "cannot parse %s", path);
}

static void
create_outputs(void)
{
	const struct weston_windowed_output_api *api =
		weston_windowed_output_get_api(server.compositor);

	if (!api)
		fail(NULL, "the headless backend has no windowed output API");
	for (size_t i = 0; i < N_OUTPUTS; i++) {
		struct weston_head *head = NULL;
		struct weston_output *output;

		if (api->create_head(server.compositor, output_names[i]) != 0)
			fail(NULL, "cannot create head %s", output_names[i]);
		while ((head = weston_compositor_iterate_heads(
				server.compositor, head)))
			if (strcmp(head->name, output_names[i]) == 0)
				break;
		output = head ? weston_compositor_create_output(
					server.compositor, output_names[i]) :
				NULL;
		if (!output || weston_output_attach_head(output, head) != 0)
			fail(NULL, "cannot create output %s", output_names[i]);
		weston_output_set_scale(output, 1);
		weston_output_set_transform(output,
					    WL_OUTPUT_TRANSFORM_NORMAL);
		if (api->output_set_size(output, 320, 240) != 0 ||
		    weston_output_enable(output) != 0)
			fail(NULL, "cannot enable output %s", output_names[i]);
		server.outputs[i] = output;
	}
}

/* --- a shell --- */

/* The least of a shell: a surface's first commit with a buffer maps it,
 * at a place that puts some views on one output, some on the other and
 * some across both, so that the plugin places and throttles them when
 * the outputs repaint.  A NULL buffer unmaps it again. */
static void
surface_committed(struct weston_surface *surface, int32_t sx, int32_t sy)
{
	struct weston_view *view = NULL;

	if (!wl_list_empty(&surface->views))
		view = wl_container_of(surface->views.next, view,
				       surface_link);
	if (surface->width == 0) {
		if (view && view->is_mapped) {
			weston_layer_entry_remove(&view->layer_link);
			view->is_mapped = false;
			surface->is_mapped = false;
			weston_compositor_schedule_repaint(server.compositor);
		}
		return;
	}
	if (view && view->is_mapped)
		return;
	if (!view)
		view = weston_view_create(surface);
	if (!view)
		fail(NULL, "weston_view_create failed");
	weston_view_set_position(view, (float)(server.mapped++ * 150 % 600),
				 (float)(server.mapped * 40 % 200));
	weston_layer_entry_insert(&server.layer.view_list, &view->layer_link);
	view->is_mapped = true;
	surface->is_mapped = true;
	weston_view_update_transform(view);
	weston_view_schedule_repaint(view);
}

static void
compositor_handle_create_surface(struct wl_listener *listener, void *data)
{
	struct weston_surface *surface = data;

	surface->committed = surface_committed;
	surface->committed_private = NULL;
}

/* The shm pool every client maps: one file, sent to each. */
static void
create_pool_file(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/pool", server.dir);
	server.pool_fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (server.pool_fd < 0 || ftruncate(server.pool_fd, POOL_SIZE) != 0)
		fail(NULL, "%s: %s", path, strerror(errno));
	unlink(path);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct weston_headless_backend_config config = {
		.base = {
			.struct_version =
				WESTON_HEADLESS_BACKEND_CONFIG_VERSION,
			.struct_size = sizeof(config),
		},
		.use_pixman = true,
	};
	char *module_argv[] = { "fuzz-wayland", NULL };
	int module_argc = 1;

	(void)argc;
	(void)argv;
	server.verbose = getenv("SF_FUZZ_VERBOSE") != NULL;
	snprintf(server.dir, sizeof(server.dir), "/tmp/fuzz-wayland-XXXXXX");
	if (!mkdtemp(server.dir))
		fail(NULL, "mkdtemp: %s", strerror(errno));
	/* The platform layer's state file goes there too. */
	setenv("XDG_RUNTIME_DIR", server.dir, 1);
	write_config();
	create_pool_file();

	server.display = wl_display_create();
	server.loop = wl_display_get_event_loop(server.display);
	server.log = weston_log_ctx_create();
	weston_log_set_handler(log_handler, log_handler);
	wl_log_set_handler_server(wl_log_handler);
	wl_log_set_handler_client(wl_log_handler);
	server.compositor = weston_compositor_create(server.display,
						     server.log, NULL, NULL);
	if (!server.compositor)
		fail(NULL, "cannot create the compositor");
	if (weston_compositor_load_backend(server.compositor,
					   WESTON_BACKEND_HEADLESS,
					   &config.base) != 0)
		fail(NULL, "cannot load the headless backend");
	create_outputs();
	weston_layer_init(&server.layer, server.compositor);
	weston_layer_set_position(&server.layer, WESTON_LAYER_POSITION_NORMAL);
	server.create_surface_listener.notify =
		compositor_handle_create_surface;
	wl_signal_add(&server.compositor->create_surface_signal,
		      &server.create_surface_listener);
	weston_seat_init(&server.seat, server.compositor, "seat0");
	weston_seat_init_pointer(&server.seat);
	if (wet_module_init(server.compositor, &module_argc,
			    module_argv) != 0)
		fail(NULL, "the plugin did not load");
	server.sfw = sf_weston_from_compositor(server.compositor);
	if (!server.sfw || !server.sfw->protocols)
		fail(NULL, "the plugin has no state or no protocols");
	weston_compositor_wake(server.compositor);
	return 0;
}

/* --- clients --- */

static void
registry_handle_global(void *data, struct wl_registry *registry,
		       uint32_t name, const char *interface, uint32_t version)
{
	struct fz_client *c = data;

	for (int i = 0; i < FZ_GLOBAL_COUNT; i++) {
		if (strcmp(interface, global_interfaces[i]->name) == 0) {
			c->global_names[i] = name;
			c->global_versions[i] = version;
		}
	}
}

static void
registry_handle_global_remove(void *data, struct wl_registry *registry,
			      uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_handle_global,
	.global_remove = registry_handle_global_remove,
};

static void
frame_handle_done(void *data, struct wl_callback *callback, uint32_t time)
{
	struct wl_callback **slot = data;

	wl_callback_destroy(callback);
	*slot = NULL;
}

static const struct wl_callback_listener frame_listener = {
	.done = frame_handle_done,
};

static void
status_handle_line(void *data, struct stillframe_status_v1 *status,
		   const char *text)
{
}

static void
status_handle_done(void *data, struct stillframe_status_v1 *status)
{
	struct stillframe_status_v1 **slot = data;

	stillframe_status_v1_destroy(status);
	*slot = NULL;
}

static const struct stillframe_status_v1_listener status_listener = {
	.line = status_handle_line,
	.done = status_handle_done,
};

static void
client_handle_server_destroy(struct wl_listener *listener, void *data)
{
	struct fz_client *c =
		wl_container_of(listener, c, server_destroy_listener);

	c->server = NULL;
}

/* Reads what the compositor sent, without blocking. */
static void
client_read(struct fz_client *c)
{
	for (int i = 0; i < 64; i++) {
		while (wl_display_prepare_read(c->display) != 0)
			if (wl_display_dispatch_pending(c->display) < 0)
				return;
		if (wl_display_read_events(c->display) < 0)
			return;
		if (wl_display_dispatch_pending(c->display) <= 0)
			return;
	}
}

/* One round trip of everything: clients send, the compositor handles
 * it and answers, clients read. */
static void
pump(struct fz *f)
{
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < MAX_CLIENTS; i++)
			if (f->clients[i].live)
				wl_display_flush(f->clients[i].display);
		for (int i = 0; i < 3; i++)
			wl_event_loop_dispatch(server.loop, 0);
		wl_display_flush_clients(server.display);
		for (int i = 0; i < MAX_CLIENTS; i++)
			if (f->clients[i].live)
				client_read(&f->clients[i]);
	}
}

static void
destroy_proxy(void *proxy)
{
	if (proxy)
		wl_proxy_destroy(proxy);
}

/* Lets go of every client-side object, without telling the server. */
static void
client_destroy_proxies(struct fz_client *c)
{
	for (int i = 0; i < MAX_SURFACES; i++) {
		struct fz_surface *s = &c->surfaces[i];

		destroy_proxy(s->surface);
		destroy_proxy(s->buffer);
		for (int j = 0; j < MAX_FRAMES; j++)
			destroy_proxy(s->frames[j]);
		destroy_proxy(s->hint);
		destroy_proxy(s->content);
		for (int j = 0; j < MAX_INHIBITORS; j++)
			destroy_proxy(s->inhibitors[j]);
	}
	for (int i = 0; i < MAX_NOTIFICATIONS; i++)
		destroy_proxy(c->notifications[i]);
	for (int i = 0; i < FZ_GLOBAL_COUNT; i++)
		destroy_proxy(c->globals[i]);
	destroy_proxy(c->status);
	destroy_proxy(c->trace);
	destroy_proxy(c->doomed);
	destroy_proxy(c->pool);
	destroy_proxy(c->registry);
}

/* The client leaves: it hangs up, or (`kill`) the compositor drops it
 * first.  Either way the compositor must have let go of it after a few
 * dispatches. */
static void
client_finish(struct fz *f, struct fz_client *c, bool kill)
{
	if (kill && c->server)
		wl_client_destroy(c->server);
	client_destroy_proxies(c);
	wl_display_disconnect(c->display);
	for (int i = 0; i < 8 && c->server; i++)
		wl_event_loop_dispatch(server.loop, 0);
	if (c->server)
		fail(f, "the compositor kept a client that hung up");
	memset(c, 0, sizeof(*c));
}

static void *
bind_global(struct fz_client *c, enum fz_global g, uint32_t version)
{
	if (!c->global_names[g])
		return NULL;
	if (version > c->global_versions[g])
		version = c->global_versions[g];
	c->globals[g] = wl_registry_bind(c->registry, c->global_names[g],
					 global_interfaces[g], version);
	return c->globals[g];
}

static void
client_init(struct fz *f, struct fz_client *c, uint8_t flags)
{
	int fds[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0)
		fail(f, "socketpair: %s", strerror(errno));
	c->server = wl_client_create(server.display, fds[0]);
	if (!c->server)
		fail(f, "wl_client_create failed");
	c->server_destroy_listener.notify = client_handle_server_destroy;
	wl_client_add_destroy_listener(c->server, &c->server_destroy_listener);
	c->display = wl_display_connect_to_fd(fds[1]);
	if (!c->display)
		fail(f, "wl_display_connect_to_fd failed");
	c->live = true;
	c->registry = wl_display_get_registry(c->display);
	wl_registry_add_listener(c->registry, &registry_listener, c);
	pump(f);
	for (int g = 0; g < FZ_GLOBAL_CONTROL; g++)
		bind_global(c, g, 4);
	if (!c->global_names[FZ_GLOBAL_CONTROL])
		fail(f, "stillframe_control_v1 is not advertised to our uid");
	/* Every version of the control protocol (1 to 4). */
	c->control_version = 4 - flags % 4;
	if (c->control_version > c->global_versions[FZ_GLOBAL_CONTROL])
		fail(f, "stillframe_control_v1 is version %u",
		     c->global_versions[FZ_GLOBAL_CONTROL]);
	bind_global(c, FZ_GLOBAL_CONTROL, c->control_version);
	if (c->globals[FZ_GLOBAL_SHM])
		c->pool = wl_shm_create_pool((void *)c->globals[FZ_GLOBAL_SHM],
					     server.pool_fd, POOL_SIZE);
	for (int g = 0; g < FZ_GLOBAL_COUNT; g++)
		if (!c->globals[g])
			fail(f, "global %s not advertised",
			     global_interfaces[g]->name);
}

/* The request just sent must end `c` with this error. */
static void
expect_error(struct fz_client *c, const struct wl_interface *interface,
	     uint32_t code)
{
	c->expect_interface = interface;
	c->expect_code = code;
}

/* After a pump: a client got the error it was meant to get (and is
 * dropped), or none if it was not meant to. */
static void
check_errors(struct fz *f)
{
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct fz_client *c = &f->clients[i];

		if (!c->live)
			continue;

		int err = wl_display_get_error(c->display);

		if (!err) {
			if (c->expect_interface)
				fail(f, "client %d: no %s error %u", i,
				     c->expect_interface->name,
				     c->expect_code);
			continue;
		}
		/* libwayland-client has no protocol error for the display's
		 * own errors, only errno: invalid_method is EINVAL. */
		if (c->expect_interface == &wl_display_interface &&
		    c->expect_code == WL_DISPLAY_ERROR_INVALID_METHOD &&
		    err == EINVAL) {
			client_finish(f, c, false);
			continue;
		}
		if (err != EPROTO)
			fail(f, "client %d: connection error: %s", i,
			     strerror(err));

		const struct wl_interface *interface = NULL;
		uint32_t id;
		uint32_t code = wl_display_get_protocol_error(c->display,
							      &interface, &id);
		const char *name = interface ? interface->name : "?";

		if (!c->expect_interface)
			fail(f, "client %d: unexpected protocol error %s@%u "
			     "code %u", i, name, id, code);
		if (strcmp(name, c->expect_interface->name) != 0 ||
		    code != c->expect_code)
			fail(f, "client %d: protocol error %s code %u instead "
			     "of %s code %u", i, name, code,
			     c->expect_interface->name, c->expect_code);
		client_finish(f, c, false);
	}
}

/* --- requests --- */

enum fz_op {
	FZ_OP_CONNECT,
	FZ_OP_DISCONNECT,
	FZ_OP_KILL,
	FZ_OP_SURFACE_CREATE,
	FZ_OP_SURFACE_DESTROY,
	FZ_OP_SURFACE_ATTACH,
	FZ_OP_SURFACE_COMMIT,
	FZ_OP_HINT_GET,
	FZ_OP_HINT_RATE,
	FZ_OP_HINT_RANGE,
	FZ_OP_HINT_PRIORITY,
	FZ_OP_HINT_DESTROY,
	FZ_OP_CONTENT_GET,
	FZ_OP_CONTENT_SET,
	FZ_OP_CONTENT_DESTROY,
	FZ_OP_INHIBIT_CREATE,
	FZ_OP_INHIBIT_DESTROY,
	FZ_OP_NOTIFY_GET,
	FZ_OP_NOTIFY_DESTROY,
	FZ_OP_STATUS,
	FZ_OP_PAUSE,
	FZ_OP_RESUME,
	FZ_OP_ADMIN_HINTS,
	FZ_OP_OUTPUT_POWER,
	FZ_OP_TRACE_START,
	FZ_OP_TRACE_READ,
	FZ_OP_TRACE_STOP,
	FZ_OP_TRACE_DESTROY,
	FZ_OP_CONTROL_DESTROY,
	FZ_OP_MANAGER_DESTROY,
	FZ_OP_SERVER,
	FZ_OP_COUNT
};

static void
surface_attach(struct fz *f, struct fz_surface *s, struct wl_shm_pool *pool)
{
	uint8_t flags = byte(f);
	int32_t w = 1 + byte(f) % 64, h = 1 + byte(f) % 64;
	int32_t stride = w * 4;
	int32_t room = POOL_SIZE - stride * h;
	int32_t offset = (int32_t)(u16(f) * 4 % (uint32_t)(room + 1)) & ~3;
	struct wl_buffer *buffer = NULL;

	if (!(flags & 1))
		buffer = wl_shm_pool_create_buffer(pool, offset, w, h, stride,
			(flags & 2) ? WL_SHM_FORMAT_XRGB8888 :
				      WL_SHM_FORMAT_ARGB8888);
	wl_surface_attach(s->surface, buffer, 0, 0);
	wl_surface_damage_buffer(s->surface, byte(f), byte(f), byte(f),
				 byte(f));
	wl_surface_commit(s->surface);
	if (s->buffer)
		wl_buffer_destroy(s->buffer);
	s->buffer = buffer;
}

static void
surface_commit(struct fz *f, struct fz_surface *s)
{
	uint8_t flags = byte(f);

	if (flags & 1)
		wl_surface_damage(s->surface, byte(f), byte(f), byte(f),
				  byte(f));
	if (flags & 2) {
		for (int i = 0; i < MAX_FRAMES; i++) {
			if (s->frames[i])
				continue;
			s->frames[i] = wl_surface_frame(s->surface);
			wl_callback_add_listener(s->frames[i],
						 &frame_listener,
						 &s->frames[i]);
			break;
		}
	}
	wl_surface_commit(s->surface);
}

/* A request beyond the bound version: libwayland-server refuses it
 * with the display's invalid_method. */
static bool
control_since(struct fz_client *c, uint32_t since)
{
	if (c->control_version >= since)
		return true;
	expect_error(c, &wl_display_interface,
		     WL_DISPLAY_ERROR_INVALID_METHOD);
	return false;
}

/* The id the core gave a tracked surface, or an arbitrary one. */
static uint32_t
pick_surface_id(struct fz *f)
{
	uint8_t sel = byte(f);
	struct sf_weston_surface *sws;
	int n = 0;

	if (sel & 0x80)
		return arg32(f);
	wl_list_for_each(sws, &server.sfw->surfaces, link)
		n++;
	if (n == 0)
		return sel;
	n = sel % n;
	wl_list_for_each(sws, &server.sfw->surfaces, link)
		if (n-- == 0)
			return sf_surface_get_id(sws->core);
	return 0;
}

static void
admin_hints(struct fz *f, struct fz_client *c)
{
	struct stillframe_control_v1 *control =
		(void *)c->globals[FZ_GLOBAL_CONTROL];
	uint32_t id = pick_surface_id(f);
	uint32_t num = arg32(f), den = arg32(f);
	uint32_t min = arg32(f), max = arg32(f);
	uint32_t priority = byte(f) % 5;

	if ((num && !den) || (max && min > max) || priority > 2)
		expect_error(c, &stillframe_control_v1_interface,
			     STILLFRAME_CONTROL_V1_ERROR_INVALID_HINT);
	else if (!sf_weston_surface_find_by_id(server.sfw, id))
		expect_error(c, &stillframe_control_v1_interface,
			     STILLFRAME_CONTROL_V1_ERROR_UNKNOWN_SURFACE);
	stillframe_control_v1_set_surface_hints(control, id, num, den, min,
						max, priority);
}

static void
output_power(struct fz *f, struct fz_client *c)
{
	struct stillframe_control_v1 *control =
		(void *)c->globals[FZ_GLOBAL_CONTROL];
	uint8_t sel = byte(f);
	uint32_t power = byte(f) % 4;
	char name[16];

	if (sel < 0xc0)
		snprintf(name, sizeof(name), "%s",
			 output_names[sel % 2]);
	else
		snprintf(name, sizeof(name), "X-%u", sel & 0x3f);
	if (!control_since(c, 2)) {
		/* Sent all the same, to be refused. */
	} else if (power > STILLFRAME_CONTROL_V1_OUTPUT_POWER_OFF) {
		expect_error(c, &stillframe_control_v1_interface,
			     STILLFRAME_CONTROL_V1_ERROR_INVALID_POWER);
	} else if (!sf_core_find_output(server.sfw->core, name)) {
		expect_error(c, &stillframe_control_v1_interface,
			     STILLFRAME_CONTROL_V1_ERROR_UNKNOWN_OUTPUT);
	}
	stillframe_control_v1_set_output_power(control, name, power);
}

static void
set_button(bool down)
{
	struct timespec now;

	if (server.button_down == down)
		return;
	weston_compositor_get_time(&now);
	sf_test_notify_button(&server.seat, &now, BUTTON_LEFT,
			      down ? WL_POINTER_BUTTON_STATE_PRESSED :
				     WL_POINTER_BUTTON_STATE_RELEASED);
	server.button_down = down;
}

/* An output unplugged or plugged back, with whatever is on it. */
static void
set_output_enabled(size_t i, bool enabled)
{
	struct weston_output *output = server.outputs[i];

	if (output->enabled == enabled)
		return;
	if (!enabled)
		weston_output_disable(output);
	else if (weston_output_enable(output) != 0)
		fail(NULL, "cannot enable output %s again", output_names[i]);
}

/* What happens on the compositor's side: pointer motion, the left
 * button (which holds the compositor's idle_inhibit while down) and
 * outputs going and coming back. */
static void
server_op(struct fz *f)
{
	uint8_t kind = byte(f) % 3;

	if (kind == 0) {
		double dx = (int8_t)byte(f);
		double dy = (int8_t)byte(f);
		struct timespec now;

		weston_compositor_get_time(&now);
		sf_test_notify_motion(&server.seat, &now, dx, dy);
	} else if (kind == 1) {
		set_button(!server.button_down);
	} else {
		size_t i = byte(f) % N_OUTPUTS;

		set_output_enabled(i, !server.outputs[i]->enabled);
	}
}

/* Hint and content type object of a surface: the get requests. */
static void
hint_get(struct fz_client *c, struct fz_surface *s)
{
	struct stillframe_manager_v1 *manager =
		(void *)c->globals[FZ_GLOBAL_HINTS];

	if (s->hint && s->hint_inert) {
		stillframe_surface_v1_destroy(s->hint);
		s->hint = NULL;
	}
	if (s->hint) {
		expect_error(c, &stillframe_manager_v1_interface,
			     STILLFRAME_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED);
		c->doomed = (void *)stillframe_manager_v1_get_surface(
			manager, s->surface);
		return;
	}
	s->hint = stillframe_manager_v1_get_surface(manager, s->surface);
	s->hint_inert = false;
}

static void
content_get(struct fz_client *c, struct fz_surface *s)
{
	struct wp_content_type_manager_v1 *manager =
		(void *)c->globals[FZ_GLOBAL_CONTENTS];

	if (s->content && s->content_inert) {
		wp_content_type_v1_destroy(s->content);
		s->content = NULL;
	}
	if (s->content) {
		expect_error(c, &wp_content_type_manager_v1_interface,
			WP_CONTENT_TYPE_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED);
		c->doomed = (void *)
			wp_content_type_manager_v1_get_surface_content_type(
				manager, s->surface);
		return;
	}
	s->content = wp_content_type_manager_v1_get_surface_content_type(
		manager, s->surface);
	s->content_inert = false;
}

/* A set request on a hint object: inert, it is surface_destroyed. */
static bool
hint_usable(struct fz_client *c, struct fz_surface *s)
{
	if (!s->hint)
		return false;
	if (s->hint_inert)
		expect_error(c, &stillframe_surface_v1_interface,
			     STILLFRAME_SURFACE_V1_ERROR_SURFACE_DESTROYED);
	return true;
}

static void
surface_destroy(struct fz_surface *s)
{
	wl_surface_destroy(s->surface);
	s->surface = NULL;
	/* The compositor destroys the frame callbacks with the surface;
	 * the proxies are ours to free. */
	for (int i = 0; i < MAX_FRAMES; i++) {
		destroy_proxy(s->frames[i]);
		s->frames[i] = NULL;
	}
	s->hint_inert = s->hint != NULL;
	s->content_inert = s->content != NULL;
}

/* Surface requests: `s` has a live wl_surface. */
static void
surface_op(struct fz *f, struct fz_client *c, enum fz_op op,
	   struct fz_surface *s)
{
	switch (op) {
	case FZ_OP_SURFACE_DESTROY:
		surface_destroy(s);
		break;
	case FZ_OP_SURFACE_ATTACH:
		surface_attach(f, s, c->pool);
		break;
	case FZ_OP_SURFACE_COMMIT:
		surface_commit(f, s);
		break;
	case FZ_OP_HINT_GET:
		hint_get(c, s);
		break;
	case FZ_OP_CONTENT_GET:
		content_get(c, s);
		break;
	case FZ_OP_INHIBIT_CREATE: {
		struct zwp_idle_inhibitor_v1 **slot =
			&s->inhibitors[byte(f) % MAX_INHIBITORS];

		if (!*slot)
			*slot = zwp_idle_inhibit_manager_v1_create_inhibitor(
				(void *)c->globals[FZ_GLOBAL_INHIBITS],
				s->surface);
		break;
	}
	default:
		break;
	}
}

/* Requests on a surface's objects, whether or not the wl_surface is
 * still there. */
static void
surface_object_op(struct fz *f, struct fz_client *c, enum fz_op op,
		  struct fz_surface *s)
{
	switch (op) {
	case FZ_OP_HINT_RATE: {
		uint32_t num = arg32(f), den = arg32(f);

		if (!hint_usable(c, s))
			break;
		if (!s->hint_inert && num && !den)
			expect_error(c, &stillframe_surface_v1_interface,
				     STILLFRAME_SURFACE_V1_ERROR_INVALID_RATE);
		stillframe_surface_v1_set_content_rate(s->hint, num, den);
		break;
	}
	case FZ_OP_HINT_RANGE: {
		uint32_t min = arg32(f), max = arg32(f);

		if (!hint_usable(c, s))
			break;
		if (!s->hint_inert && max && min > max)
			expect_error(c, &stillframe_surface_v1_interface,
				STILLFRAME_SURFACE_V1_ERROR_INVALID_RANGE);
		stillframe_surface_v1_set_refresh_range(s->hint, min, max);
		break;
	}
	case FZ_OP_HINT_PRIORITY: {
		uint32_t priority = byte(f) % 5;

		if (!hint_usable(c, s))
			break;
		if (!s->hint_inert && priority > 2)
			expect_error(c, &stillframe_surface_v1_interface,
				STILLFRAME_SURFACE_V1_ERROR_INVALID_PRIORITY);
		stillframe_surface_v1_set_priority(s->hint, priority);
		break;
	}
	case FZ_OP_HINT_DESTROY:
		if (s->hint)
			stillframe_surface_v1_destroy(s->hint);
		s->hint = NULL;
		break;
	case FZ_OP_CONTENT_SET: {
		/* Unknown types are ignored, not errors (v1 has none). */
		uint32_t type = byte(f) % 6;

		if (s->content)
			wp_content_type_v1_set_content_type(s->content, type);
		break;
	}
	case FZ_OP_CONTENT_DESTROY:
		if (s->content)
			wp_content_type_v1_destroy(s->content);
		s->content = NULL;
		break;
	case FZ_OP_INHIBIT_DESTROY: {
		struct zwp_idle_inhibitor_v1 **slot =
			&s->inhibitors[byte(f) % MAX_INHIBITORS];

		if (*slot)
			zwp_idle_inhibitor_v1_destroy(*slot);
		*slot = NULL;
		break;
	}
	default:
		break;
	}
}

static void
control_op(struct fz *f, struct fz_client *c, enum fz_op op)
{
	struct stillframe_control_v1 *control =
		(void *)c->globals[FZ_GLOBAL_CONTROL];

	if (!control)
		return;
	switch (op) {
	case FZ_OP_STATUS: {
		bool prometheus = byte(f) & 1;

		if (c->status)
			break;
		if (prometheus && !control_since(c, 3)) {
			c->doomed = (void *)
				stillframe_control_v1_get_status_prometheus(
					control);
			break;
		}
		c->status = prometheus ?
			stillframe_control_v1_get_status_prometheus(control) :
			stillframe_control_v1_get_status(control);
		stillframe_status_v1_add_listener(c->status, &status_listener,
						  &c->status);
		break;
	}
	case FZ_OP_PAUSE:
		stillframe_control_v1_pause(control);
		break;
	case FZ_OP_RESUME:
		stillframe_control_v1_resume(control);
		break;
	case FZ_OP_ADMIN_HINTS:
		admin_hints(f, c);
		break;
	case FZ_OP_OUTPUT_POWER:
		output_power(f, c);
		break;
	case FZ_OP_TRACE_START:
		if (c->trace)
			break;
		if (!control_since(c, 4)) {
			c->doomed = (void *)
				stillframe_control_v1_record_trace(control);
			break;
		}
		c->trace = stillframe_control_v1_record_trace(control);
		break;
	case FZ_OP_CONTROL_DESTROY:
		stillframe_control_v1_destroy(control);
		c->globals[FZ_GLOBAL_CONTROL] = NULL;
		break;
	default:
		break;
	}
}

static void
trace_op(struct fz_client *c, enum fz_op op)
{
	if (!c->trace)
		return;
	switch (op) {
	case FZ_OP_TRACE_READ:
		stillframe_trace_v1_read(c->trace);
		break;
	case FZ_OP_TRACE_STOP:
		stillframe_trace_v1_stop(c->trace);
		break;
	case FZ_OP_TRACE_DESTROY:
		stillframe_trace_v1_destroy(c->trace);
		c->trace = NULL;
		break;
	default:
		break;
	}
}

static void
notify_op(struct fz *f, struct fz_client *c, enum fz_op op)
{
	struct ext_idle_notification_v1 **slot =
		&c->notifications[byte(f) % MAX_NOTIFICATIONS];

	if (op == FZ_OP_NOTIFY_DESTROY) {
		if (*slot)
			ext_idle_notification_v1_destroy(*slot);
		*slot = NULL;
		return;
	}

	/* Short timeouts fire within an input. */
	uint32_t timeout = byte(f);

	if (!*slot && c->globals[FZ_GLOBAL_NOTIFIER])
		*slot = ext_idle_notifier_v1_get_idle_notification(
			(void *)c->globals[FZ_GLOBAL_NOTIFIER], timeout,
			(void *)c->globals[FZ_GLOBAL_SEAT]);
}

/* The hint, content type, idle inhibit or notifier manager goes; what
 * was made from it stays. */
static void
manager_destroy(struct fz *f, struct fz_client *c)
{
	static const enum fz_global managers[] = {
		FZ_GLOBAL_HINTS, FZ_GLOBAL_CONTENTS, FZ_GLOBAL_INHIBITS,
		FZ_GLOBAL_NOTIFIER,
	};
	enum fz_global g = managers[byte(f) % 4];

	if (!c->globals[g])
		return;
	switch (g) {
	case FZ_GLOBAL_HINTS:
		stillframe_manager_v1_destroy((void *)c->globals[g]);
		break;
	case FZ_GLOBAL_CONTENTS:
		wp_content_type_manager_v1_destroy((void *)c->globals[g]);
		break;
	case FZ_GLOBAL_INHIBITS:
		zwp_idle_inhibit_manager_v1_destroy((void *)c->globals[g]);
		break;
	default:
		ext_idle_notifier_v1_destroy((void *)c->globals[g]);
		break;
	}
	c->globals[g] = NULL;
}

static bool
surface_needs_manager(struct fz_client *c, enum fz_op op)
{
	switch (op) {
	case FZ_OP_HINT_GET:
		return c->globals[FZ_GLOBAL_HINTS] != NULL;
	case FZ_OP_CONTENT_GET:
		return c->globals[FZ_GLOBAL_CONTENTS] != NULL;
	case FZ_OP_INHIBIT_CREATE:
		return c->globals[FZ_GLOBAL_INHIBITS] != NULL;
	default:
		return true;
	}
}

/* One request (or none, if the decoded one does not apply), then a
 * round trip and the error check. */
static void
step(struct fz *f)
{
	uint8_t b = byte(f);
	enum fz_op op = (enum fz_op)((b & 0x1f) % FZ_OP_COUNT);
	struct fz_client *c = &f->clients[(b >> 5) % MAX_CLIENTS];

	if (op == FZ_OP_SERVER) {
		server_op(f);
		pump(f);
		check_errors(f);
		return;
	}
	uint8_t flags = op == FZ_OP_CONNECT ? byte(f) : 0;

	/* Any request of a client that is not there connects it first. */
	if (!c->live)
		client_init(f, c, flags);

	switch (op) {
	case FZ_OP_CONNECT:
		return;
	case FZ_OP_DISCONNECT:
	case FZ_OP_KILL:
		client_finish(f, c, op == FZ_OP_KILL);
		return;
	case FZ_OP_SURFACE_CREATE: {
		struct fz_surface *s = &c->surfaces[byte(f) % MAX_SURFACES];

		if (!s->surface)
			s->surface = wl_compositor_create_surface(
				(void *)c->globals[FZ_GLOBAL_COMPOSITOR]);
		break;
	}
	case FZ_OP_SURFACE_DESTROY:
	case FZ_OP_SURFACE_ATTACH:
	case FZ_OP_SURFACE_COMMIT:
	case FZ_OP_HINT_GET:
	case FZ_OP_CONTENT_GET:
	case FZ_OP_INHIBIT_CREATE: {
		struct fz_surface *s = &c->surfaces[byte(f) % MAX_SURFACES];

		if (s->surface && surface_needs_manager(c, op))
			surface_op(f, c, op, s);
		break;
	}
	case FZ_OP_HINT_RATE:
	case FZ_OP_HINT_RANGE:
	case FZ_OP_HINT_PRIORITY:
	case FZ_OP_HINT_DESTROY:
	case FZ_OP_CONTENT_SET:
	case FZ_OP_CONTENT_DESTROY:
	case FZ_OP_INHIBIT_DESTROY:
		surface_object_op(f, c, op,
				  &c->surfaces[byte(f) % MAX_SURFACES]);
		break;
	case FZ_OP_NOTIFY_GET:
	case FZ_OP_NOTIFY_DESTROY:
		notify_op(f, c, op);
		break;
	case FZ_OP_TRACE_READ:
	case FZ_OP_TRACE_STOP:
	case FZ_OP_TRACE_DESTROY:
		trace_op(c, op);
		break;
	case FZ_OP_MANAGER_DESTROY:
		manager_destroy(f, c);
		break;
	default:
		control_op(f, c, op);
		break;
	}
	pump(f);
	check_errors(f);
}

/* With every client gone, nothing of theirs may be left in the plugin
 * or counted in the compositor. */
static void
check_released(struct fz *f)
{
	struct sf_weston *sfw = server.sfw;
	struct sf_weston_protocols *p = sfw->protocols;

	if (!wl_list_empty(&sfw->surfaces))
		fail(f, "a surface is still tracked after its client left");
	if (sfw->inhibitors != 0)
		fail(f, "%u idle inhibitors held after their clients left",
		     sfw->inhibitors);
	if (server.compositor->idle_inhibit != 0)
		fail(f, "the compositor's idle_inhibit is %u after every "
		     "client left", server.compositor->idle_inhibit);
	if (!wl_list_empty(&p->surface_objects) ||
	    !wl_list_empty(&p->inhibitors) ||
	    !wl_list_empty(&p->notifications) ||
	    !wl_list_empty(&p->managers) || !wl_list_empty(&p->controls))
		fail(f, "a protocol object outlived its client");
	if (p->trace || sf_core_get_trace(sfw->core))
		fail(f, "a trace recording outlived its client");
}

/* What a client may leave behind on purpose (pause, output power) goes
 * back to the defaults, so that every input starts alike. */
static void
reset_policy(void)
{
	sf_time_t now = sf_weston_now(server.sfw);

	sf_weston_set_paused(server.sfw, false);
	for (size_t i = 0; i < N_OUTPUTS; i++) {
		struct sf_output *o = sf_core_find_output(server.sfw->core,
							  output_names[i]);

		if (o && sf_output_get_power_request(o) != SF_OUTPUT_POWER_AUTO)
			sf_output_request_power(o, SF_OUTPUT_POWER_AUTO, now);
	}
	sf_weston_schedule_dispatch(server.sfw);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { .in = { .data = data, .size = size } };

	while (f.in.size > 0 && f.step < MAX_STEPS) {
		step(&f);
		f.step++;
	}
	/* Half hang up, half are dropped by the compositor. */
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (f.clients[i].live)
			client_finish(&f, &f.clients[i], i % 2);
	wl_event_loop_dispatch(server.loop, 0);
	set_button(false);
	check_released(&f);
	for (size_t i = 0; i < N_OUTPUTS; i++)
		set_output_enabled(i, true);
	reset_policy();
	return 0;
}
