#!/bin/sh
# SPDX-License-Identifier: MIT
# Build $CACHE/initramfs.cpio.gz: busybox-static + guest-init.sh as /init +
# the kernel modules (and their dependencies, via modules.dep of the
# extracted Debian kernel) needed to reach 9p, DRM (bochs) and uinput.
# Idempotent: rebuilds only if an input changed.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
# Outside the build tree, so a new build directory reuses it.
CACHE=${SF_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stillframe-vm}
BUSYBOX=${BUSYBOX:-/bin/busybox}

# Top-level modules; dependencies are resolved automatically.
# (virtio_pci must come before 9pnet_virtio; order is preserved.)
# EARLY modules are loaded before the 9p shares are mounted, LATE ones after
# (so that an EDID override from the results share can be handed to drm.ko).
EARLY=${VM_MODULES_EARLY:-"virtio_pci 9pnet_virtio 9p overlay"}
LATE=${VM_MODULES_LATE:-"bochs uinput evdev"}

"$HERE/fetch-kernel.sh"

VER=$(cat "$CACHE/kernel-version")
KROOT=$CACHE/kernel
OUT=$CACHE/initramfs.cpio.gz

[ -x "$BUSYBOX" ] && "$BUSYBOX" 2>&1 | head -n1 | grep -q BusyBox || {
	echo "build-initramfs: need busybox-static ($BUSYBOX)" >&2; exit 1; }
file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' || {
	echo "build-initramfs: $BUSYBOX is not static (install busybox-static)" >&2
	exit 1; }

# Ordered, de-duplicated list of module paths relative to lib/modules/$VER.
modlist() {
	for m in "$@"; do
		modprobe -d "$KROOT" -S "$VER" --show-depends "$m" || {
			echo "build-initramfs: module $m not found" >&2; exit 1; }
	done | while read -r kind path _rest; do
		# "builtin foo" lines need nothing
		[ "$kind" = insmod ] && echo "${path#"$KROOT/lib/modules/$VER/"}"
	done | awk '!seen[$0]++'
}

LIST_EARLY=$(modlist $EARLY)
LIST_LATE=$( { echo "$LIST_EARLY"; modlist $LATE; } | awk '!seen[$0]++' |
	tail -n +$(($(echo "$LIST_EARLY" | wc -l) + 1)))
STAMP=$( { echo "$VER"; echo "$LIST_EARLY"; echo "$LIST_LATE"; cat "$HERE/guest-init.sh";
	   cat "$0"; ls -l "$BUSYBOX"; } | sha256sum | cut -d' ' -f1)
if [ -f "$OUT" ] && [ "$(cat "$OUT.stamp" 2>/dev/null)" = "$STAMP" ]; then
	exit 0
fi

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/bin" "$T/proc" "$T/sys" "$T/dev" "$T/etc" "$T/lib/modules" "$T/tmp"
cp "$BUSYBOX" "$T/bin/busybox"
ln -s busybox "$T/bin/sh"
cp "$HERE/guest-init.sh" "$T/init"
chmod 0755 "$T/init"

copy_mods() { # list-file
: >"$1"
while read -r rel; do
	[ -n "$rel" ] || continue
	src=$KROOT/lib/modules/$VER/$rel
	base=$(basename "$rel")
	# busybox insmod wants a plain ELF object: decompress if needed
	case "$base" in
	*.ko.xz)  xz -dc "$src" >"$T/lib/modules/${base%.xz}"; base=${base%.xz} ;;
	*.ko.zst) zstd -qdc "$src" >"$T/lib/modules/${base%.zst}"; base=${base%.zst} ;;
	*.ko.gz)  gzip -dc "$src" >"$T/lib/modules/${base%.gz}"; base=${base%.gz} ;;
	*)        cp "$src" "$T/lib/modules/$base" ;;
	esac
	echo "$base" >>"$1"
done
}
echo "$LIST_EARLY" | copy_mods "$T/etc/modules.early"
echo "$LIST_LATE" | copy_mods "$T/etc/modules.late"

( cd "$T" && find . -print0 | cpio --null -o -H newc --quiet ) | gzip -1 >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
cat "$T/etc/modules.early" "$T/etc/modules.late" >"$CACHE/modules.load"
echo "$STAMP" >"$OUT.stamp"
echo "build-initramfs: $OUT ($(du -h "$OUT" | cut -f1), $(wc -l <"$CACHE/modules.load") modules)" >&2
