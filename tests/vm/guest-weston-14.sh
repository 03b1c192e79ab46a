#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs inside the test VM, in its chroot of the host root, like
# guest-weston.sh, but with Weston 14: it enters the Debian 13 root
# SF_VM_ROOT (scripts/debian-root, seen through the guest's 9p share of
# the host's /) and runs guest-weston.sh there, with the plugin,
# stillframectl and sf-vm-input built in that root.  The kernel, its
# bochs DRM device and udev are the guest's; the checks are the same.
#
# Environment: SF_VM_ROOT (the Debian 13 root), SF_PLUGIN, SF_CTL,
# SF_VM_INPUT (built in that root).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
root=${SF_VM_ROOT:?SF_VM_ROOT names no Debian 13 root}
build=$(cd "$(dirname "$SF_PLUGIN")/.." && pwd)

# The root sees the guest's kernel interfaces, udev's database and the
# runtime directory (/run), the files of the guest scripts (/tmp), and
# the tree and the build at their own paths, as scripts/debian-root
# mounts them on the host.  The guest's root is a tmpfs overlay, so the
# mount points can be made and the mounts go at power-off.
for d in /proc /sys /dev /run /tmp "$top" "$build"; do
	if ! mkdir -p "$root$d" || ! mount --rbind "$d" "$root$d"; then
		echo "guest-weston-14: cannot mount $d in $root" >&2
		exit 1
	fi
done

# Debian's Weston 14 has only the libseat launcher (no --tty), and the
# guest has no logind and no seatd: libseat's builtin seatd opens the
# DRM and input devices in Weston's own process, as root.
export SF_WESTON_SEAT='' LIBSEAT_BACKEND=builtin
exec chroot "$root" /bin/bash "$here/guest-weston.sh"
