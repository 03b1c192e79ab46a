#!/bin/bash
# TAP: who may use what on a real headless Weston 10 with the stillframe
# plugin (and the fake-KMS test double standing in for KMS):
#
#  - stillframe_control_v1 (status, pause, resume, administrator hints,
#    traces) is for clients of the compositor's uid only: a client of
#    another uid does not see the global, and stillframectl run as that
#    uid says so and changes nothing;
#  - the hint protocols stay open to it: stillframe_manager_v1,
#    wp_content_type_manager_v1 and the idle protocols work on the
#    client's own surfaces only, by construction;
#  - the same uid keeps its control.
#
# The other uid is nobody (65534), reached with setpriv; the test needs
# root for that and skips otherwise.  SF_FAKE_KMS, SF_PLUGIN and SF_CTL
# come from meson.
set -u
. "$(dirname "$0")/lib.sh"

for prog in weston wayland-info setpriv timeout; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
for var in SF_PLUGIN SF_CTL; do
	[ -n "${!var:-}" ] && [ -e "${!var}" ] ||
		tap_skip_all "$var does not name a file (run it from meson)"
done
[ "$(id -u)" -eq 0 ] || tap_skip_all "setpriv to another uid needs root"

STRANGER=65534

wt_start sf-security -l stillframe <<-EOF
	[core]
	modules=stillframe.so
	idle-time=0
	[stillframe]
	outputs=all
EOF

socket=$WT_DIR/$WT_SOCKET
# The stranger reaches the socket through the test's private directory:
# search permission on it, and the socket writable by all, as on a
# system that shares one compositor between users.
chmod 711 "$WT_DIR"
chmod 666 "$socket"
# A copy of stillframectl the stranger may run, wherever the build is.
ctl_copy=$WT_DIR/stillframectl
cp "$SF_CTL" "$ctl_copy"
chmod 755 "$ctl_copy"

ctl() {
	WAYLAND_DISPLAY=$WT_SOCKET timeout 30 "$SF_CTL" "$@"
}
as_stranger() {
	env -u XDG_RUNTIME_DIR WAYLAND_DISPLAY="$socket" HOME=/ \
		timeout 30 setpriv --reuid="$STRANGER" --regid="$STRANGER" \
		--clear-groups "$@"
}

owner_globals=$(WAYLAND_DISPLAY=$WT_SOCKET timeout 30 wayland-info 2>&1)
stranger_globals=$(as_stranger wayland-info 2>&1)
tap_like "$owner_globals" "stillframe_control_v1" \
	"the compositor's uid sees stillframe_control_v1"
tap_ok "! grep -q stillframe_control_v1 <<<\"\$stranger_globals\" &&
	grep -q wl_compositor <<<\"\$stranger_globals\"" \
	"another uid connects but does not see stillframe_control_v1"
tap_ok "grep -q stillframe_manager_v1 <<<\"\$stranger_globals\" &&
	grep -q wp_content_type_manager_v1 <<<\"\$stranger_globals\" &&
	grep -q zwp_idle_inhibit_manager_v1 <<<\"\$stranger_globals\"" \
	"the hint and idle protocols stay open to it"

out=$(as_stranger "$ctl_copy" --wayland status 2>&1)
rc=$?
tap_ok "[ $rc -ne 0 ]" "stillframectl status as another uid fails"
tap_like "$out" "does not offer stillframe_control_v1" \
	"and says the compositor does not offer it to this client"

out=$(as_stranger "$ctl_copy" --wayland pause 2>&1)
rc=$?
tap_ok "[ $rc -ne 0 ]" "stillframectl pause as another uid fails"
tap_like "$(ctl status)" "^policy.paused false" \
	"and the policy is not paused"

tap_ok "ctl pause >/dev/null && ctl status | grep -q '^policy.paused true'" \
	"the compositor's uid still pauses it"
tap_ok "ctl resume >/dev/null && ctl status | grep -q '^policy.paused false'" \
	"and resumes it"
tap_done
