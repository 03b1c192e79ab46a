#!/bin/sh
# SPDX-License-Identifier: MIT
# Download Debian's own kernel package (without installing it) and unpack it
# into $CACHE/kernel.  Idempotent: does nothing if the cache is complete.
#
# Output: $CACHE/kernel/boot/vmlinuz-<ver>, $CACHE/kernel/lib/modules/<ver>/
#         $CACHE/kernel-version (one line: <ver>)
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
# Outside the build tree, so a new build directory reuses it.
CACHE=${SF_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stillframe-vm}
META=${VM_KERNEL_META:-linux-image-amd64}

if [ -s "$CACHE/kernel-version" ]; then
	ver=$(cat "$CACHE/kernel-version")
	if [ -f "$CACHE/kernel/boot/vmlinuz-$ver" ] &&
	   [ -f "$CACHE/kernel/lib/modules/$ver/modules.dep" ]; then
		have_kernel=1
	fi
fi

if [ -z "${have_kernel:-}" ]; then

mkdir -p "$CACHE/debs"
cd "$CACHE/debs"

# The meta package depends on exactly one versioned image package.
resolve() {
	apt-cache depends "$META" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n1
}
img=$(resolve)
# A machine whose package lists were never fetched (a fresh container).
if [ -z "$img" ] && [ "$(id -u)" = 0 ]; then
	apt-get update >&2 && img=$(resolve)
fi
if [ -z "$img" ]; then
	echo "fetch-kernel: cannot resolve versioned package of $META" >&2
	echo "fetch-kernel: (run apt-get update?)" >&2
	exit 1
fi

apt-get download "$META" "$img" >&2

deb=$(ls -1 "${img}"_*.deb | tail -n1)
rm -rf "$CACHE/kernel.tmp"
mkdir -p "$CACHE/kernel.tmp"
dpkg-deb -x "$deb" "$CACHE/kernel.tmp"

ver=$(ls -1 "$CACHE/kernel.tmp/lib/modules" | head -n1)
[ -f "$CACHE/kernel.tmp/boot/vmlinuz-$ver" ] || {
	echo "fetch-kernel: no vmlinuz in $deb" >&2; exit 1; }

# Debian generates modules.dep in postinst; we do not install, so run
# depmod against the unpacked tree ourselves.
depmod -b "$CACHE/kernel.tmp" "$ver"

rm -rf "$CACHE/kernel"
mv "$CACHE/kernel.tmp" "$CACHE/kernel"
echo "$ver" >"$CACHE/kernel-version.tmp"
mv "$CACHE/kernel-version.tmp" "$CACHE/kernel-version"
printf '%s\n' "$(basename "$deb")" >"$CACHE/kernel-deb"
echo "fetch-kernel: $deb -> $CACHE/kernel ($ver)" >&2
fi

# Uncompressed vmlinux (ELF with a PVH entry note): qemu boots it directly,
# skipping the in-guest XZ decompression, which takes ~3 s under TCG.
ver=$(cat "$CACHE/kernel-version")
if [ ! -s "$CACHE/vmlinux-$ver" ]; then
	python3 - "$CACHE/kernel/boot/vmlinuz-$ver" "$CACHE/vmlinux-$ver.tmp" <<'PY' &&
import lzma, sys
data = open(sys.argv[1], "rb").read()
for magic, fmt in ((b"\xfd7zXZ\x00", lzma.FORMAT_XZ),):
    off = data.find(magic)
    if off >= 0:
        elf = lzma.LZMADecompressor(format=fmt).decompress(data[off:])
        if elf[:4] == b"\x7fELF":
            open(sys.argv[2], "wb").write(elf)
            sys.exit(0)
sys.exit("no xz-compressed ELF payload found")
PY
	if readelf -n "$CACHE/vmlinux-$ver.tmp" 2>/dev/null | grep -q 'Xen.*0x00000012'; then
		mv "$CACHE/vmlinux-$ver.tmp" "$CACHE/vmlinux-$ver"
		echo "fetch-kernel: extracted PVH-bootable $CACHE/vmlinux-$ver" >&2
	else
		rm -f "$CACHE/vmlinux-$ver.tmp"
		echo "fetch-kernel: no PVH vmlinux, will boot the bzImage" >&2
	fi
fi
