#!/bin/bash
# TAP: what stillframe-protocols-dev gives a client author, used as one
# would: the example client of stillframe-common (doc/examples) built
# with make against the installed stillframe-protocols.pc, and run in a
# real headless Weston with the installed plugin, where it asks for 24 fps
# content (stillframe_surface_v1.set_content_rate 24/1).
#
# Witnesses outside stillframe: pkg-config and the compiler (the files
# are where the .pc says), and the fake-KMS double's request log (the TEST
# DOUBLE at the hardware boundary): while the client plays and the user
# is idle, the output runs at 48 Hz, a multiple of 24, not the 30 Hz
# still content would get.
#
# Run by tests/installed/run.sh (the packages' autopkgtest); SF_FAKE_KMS
# from there.
set -u
. "$(dirname "$0")/../weston/lib.sh"
. "$(dirname "$0")/../real-clients/rc-lib.sh"

for prog in weston pkg-config make cc dpkg; do
	command -v "$prog" >/dev/null || tap_bail "$prog is not installed"
done
examples=/usr/share/doc/stillframe-common/examples
[ -f "$examples/content-rate-client.c" ] ||
	tap_bail "stillframe-common's examples are not installed"
unset SF_PLUGIN

dir=$(pkg-config --variable=pkgdatadir stillframe-protocols)
# -ef: pkgconf puts its sysroot, "/", in front (as for wayland-protocols).
tap_ok "[ '$dir' -ef /usr/share/stillframe/protocols ]" \
	"stillframe-protocols.pc gives pkgdatadir ($dir)"
tap_ok "[ -f '$dir/stillframe-v1.xml' ] && [ -f '$dir/stillframe-control-v1.xml' ] &&
	[ -f '$dir/stillframe-x.xml' ]" "the protocol XMLs are in pkgdatadir"
work=$(mktemp -d "${AUTOPKGTEST_TMP:-${TMPDIR:-/tmp}}/protocols.XXXXXX")
# As the .pc means it (Cflags -I${includedir}/stillframe, as the cli test
# protocols-pc checks on a DESTDIR): <stillframe-x.h>, which only those
# flags find; <stillframe/stillframe-x.h> would build without them.
printf '#include <stillframe-x.h>\nint sf_check = STILLFRAME_X_HINT_ITEMS;\n' \
	>"$work/x.c"
# shellcheck disable=SC2046	# the flags split into words
tap_ok "cc -Wall -Werror $(pkg-config --cflags stillframe-protocols) \
	-c -o '$work/x.o' '$work/x.c' 2>'$work/x.log'" \
	"<stillframe-x.h> is found through the .pc's cflags"
cp "$examples"/content-rate-client.c "$examples"/Makefile "$work/"
tap_ok "make -C '$work' >'$work/make.log' 2>&1" \
	"the example client builds with make against the installed .pc"
[ -x "$work/content-rate-client" ] || { cat "$work/make.log" >&2; tap_done; }

wt_start installed-client <<<"$(rc_weston_ini_awake stillframe.so \
	suppress-idle-delay=500 low-refresh-timeout=500 new-window-native=0)"
XDG_RUNTIME_DIR=$WT_DIR WAYLAND_DISPLAY=$WT_SOCKET \
	"$work/content-rate-client" 12 >"$work/client.log" 2>&1 &
client=$!
at_48hz() {
	wt_dump | grep -q '^output headless mode 1024x640@48000 '
}
tap_ok "wt_poll 10 'the output at 48 Hz' at_48hz" \
	"while the 24 fps client plays and the user is idle, the output runs at 48 Hz"
tap_like "$(wt_dump | awk '/^request headless switch_mode/ { print $4, $5 }')" \
	'1024x640@48000 ok' "the fake-KMS request log has the switch to 48 Hz"
wait "$client"
tap_is "$?" 0 "the example client ran to its end"
tap_diag "$(cat "$work/client.log")"
tap_ok 'wt_alive' "Weston is alive"
tap_done
