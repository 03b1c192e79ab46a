#!/bin/bash
# TAP: what the packages' maintainer scripts do to the system, in a
# throwaway copy of it (scripts/test-packages runs this under
# scripts/debian-root scratch; never on a machine of value: it installs
# and purges packages).
#
#   tests/installed/purge.sh DIR    (DIR holds the built .debs)
#
# Witnesses: the file system itself, listed with checksums before and
# after, and dpkg's database.
#  - install: no conffile, nothing under /etc changes (the user's
#    weston.ini and xorg.conf are never written), udevd is told to read
#    the new rule, and to forget it on purge;
#  - the platform layer's state file (/run/stillframe/platform-state, as
#    a server running as root leaves it after a crash) stays while one
#    module package is still installed, and goes with the last one;
#  - after purging every package the system is as before, file for file.
set -u
. "$(dirname "$0")/../tap.sh"

[ $# -eq 1 ] && [ -d "$1" ] || tap_bail "usage: $0 DIR-WITH-DEBS"
[ "$(id -u)" -eq 0 ] || tap_bail "needs root (dpkg)"
debs=()
for deb in "$1"/*.deb; do
	case $deb in *-dbgsym_*) ;; *) debs+=("$deb") ;; esac
done
packages=(weston-stillframe xserver-xorg-stillframe stillframe-tools
	stillframe-check stillframe-common stillframe-protocols-dev)
[ ${#debs[@]} -eq ${#packages[@]} ] ||
	tap_bail "expected ${#packages[@]} packages in $1, found ${#debs[@]}"
state=/run/stillframe/platform-state

# snapshot TREE...: every file, folder and link with its type, a file's
# size and a link's target, one a line; dpkg's and apt's own records,
# logs and caches left out.
snapshot() {
	find "$@" -xdev \( -path /var/lib/dpkg -o -path /var/log \
		-o -path /var/cache -o -path /var/lib/apt \
		-o -path /etc/ld.so.cache \) -prune -o \
		\( -type d -printf '%p d\n' \) -o \
		-printf '%p %y %s %l\n' 2>/dev/null | sort
}
# etc_sums: /etc's files with their checksums (a file rewritten in place
# keeps its size).
etc_sums() {
	find /etc -xdev -type f -print0 2>/dev/null | sort -z |
		xargs -0 md5sum 2>/dev/null
}
# TEST DOUBLE for udevd: the throwaway system runs none, so a socket at
# /run/udev/control says one runs, and a udevadm first on the PATH
# records what it is asked.
mkdir -p /run/udev /usr/local/sbin
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("/run/udev/control")' ||
	tap_bail "cannot make /run/udev/control"
udev_log=/tmp/udevadm-calls
printf '#!/bin/sh\necho "$*" >>%s\n' "$udev_log" >/usr/local/sbin/udevadm
chmod +x /usr/local/sbin/udevadm
export PATH=/usr/local/sbin:$PATH

trees=(/etc /usr /lib /var /opt /run)
before=$(mktemp) after=$(mktemp)
snapshot "${trees[@]}" >"$before"
etc_before=$(etc_sums)

tap_ok "dpkg -i ${debs[*]} >/dev/null 2>&1" "dpkg installs the ${#packages[@]} packages"
tap_is "$(cat "$udev_log" 2>/dev/null)" "control --reload-rules" \
	"installing asks udevd to reload its rules (and nothing more)"
rm -f "$udev_log"
tap_is "$(dpkg-query -W -f='${Conffiles}' "${packages[@]}" | tr -d '\n ')" "" \
	"no package has a conffile"
tap_ok '[ "$(etc_sums)" = "$etc_before" ]' \
	"installing changes nothing under /etc"

# What a server running as root leaves after a crash.
mkdir -p /run/stillframe
echo "backlight intel_backlight 937" >"$state"
dpkg --purge weston-stillframe >/dev/null 2>&1
tap_ok '[ -f "$state" ]' \
	"purging the Weston plugin keeps the state file while the Xorg module is installed"
dpkg --purge xserver-xorg-stillframe >/dev/null 2>&1
tap_ok '[ ! -e "$state" ] && [ ! -e /run/stillframe ]' \
	"purging the last module package removes the state file"

dpkg -i "${debs[@]}" >/dev/null 2>&1
mkdir -p /run/stillframe
echo "backlight intel_backlight 937" >"$state"
dpkg --remove weston-stillframe xserver-xorg-stillframe >/dev/null 2>&1
tap_ok '[ ! -e "$state" ]' "removing both module packages removes it too"

rm -f "$udev_log"
tap_ok "dpkg --purge ${packages[*]} >/dev/null 2>&1" "dpkg purges every package"
tap_is "$(cat "$udev_log" 2>/dev/null)" "control --reload-rules" \
	"purging asks udevd to reload its rules, without stillframe's"
snapshot "${trees[@]}" >"$after"
tap_ok 'diff "$before" "$after" >&2' \
	"after the purge the system is as before, file for file"
rm -f "$before" "$after"
tap_done
