#!/bin/bash
# SPDX-License-Identifier: MIT
# The meson test of the vm suite: boots the test VM (run-in-vm.sh) with
# a KMS device whose EDID offers 1920x1080 at 60 (preferred), 48 and
# 30 Hz, and runs guest-weston.sh or guest-xorg.sh inside it.  Their TAP
# lines are printed; the exit status is 0 when every check passed, 1
# when one failed, 77 (meson: skipped) when this machine cannot run the
# VM, saying why.
#
#   test-vm.sh weston|weston-14|xorg
#
# Environment: what the guest script needs (SF_PLUGIN or SF_XORG_MODULE,
# SF_CTL, SF_VM_INPUT), and SF_VM_CACHE (see run-in-vm.sh).  weston-14
# takes them from the Debian 13 root instead: SF_VM_ROOT, by default
# trixie in SF_ROOT_DIR or build-roots/ (scripts/debian-root), and the
# build made in it, SF_VM_BUILD, by default build-trixie/ in the tree.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
which=${1:-}

skip() {
	echo "test-vm: SKIP: $*"
	exit 77
}

case $which in
weston) need=(weston foot) ;;
weston-14) need=() ;;
xorg) need=(Xorg xrandr) ;;
*) echo "usage: $0 weston|weston-14|xorg" >&2; exit 2 ;;
esac
if [ "$which" = weston-14 ]; then
	SF_VM_ROOT=${SF_VM_ROOT:-${SF_ROOT_DIR:-$top/build-roots}/trixie}
	build=${SF_VM_BUILD:-$top/build-trixie}
	for f in usr/bin/weston usr/bin/foot usr/lib/x86_64-linux-gnu/libseat.so.1; do
		[ -e "$SF_VM_ROOT/$f" ] ||
			skip "no Debian 13 root with /$f at $SF_VM_ROOT (scripts/debian-root make trixie; SF_VM_ROOT names another)"
	done
	export SF_VM_ROOT SF_PLUGIN=$build/weston-plugin/stillframe.so \
		SF_CTL=$build/tools/stillframectl \
		SF_VM_INPUT=$build/tests/vm/sf-vm-input
	for f in "$SF_PLUGIN" "$SF_CTL" "$SF_VM_INPUT"; do
		[ -e "$f" ] ||
			skip "$f is not built in the Debian 13 root (scripts/debian-root run trixie ninja -C build-trixie; SF_VM_BUILD names another build)"
	done
fi
for prog in qemu-system-x86_64 "${need[@]}" python3 cpio depmod; do
	command -v "$prog" >/dev/null ||
		skip "$prog is not installed (scripts/install-deps installs it)"
done
[ -x /bin/busybox ] && file -L /bin/busybox 2>/dev/null | grep -q static ||
	skip "busybox-static is not installed"
# The kernel comes from the Debian archive the first time.
"$here/fetch-kernel.sh" >/dev/null 2>&1 ||
	skip "Debian's kernel package could not be fetched (apt-get download linux-image-amd64; network?)"

vars=(SF_CTL SF_VM_INPUT)
case $which in
weston) vars+=(SF_PLUGIN) ;;
weston-14) vars+=(SF_PLUGIN SF_VM_ROOT) ;;
xorg) vars+=(SF_XORG_MODULE) ;;
esac
envs=()
for v in "${vars[@]}"; do
	[ -e "${!v:-}" ] || { echo "test-vm: $v does not name a built file" >&2; exit 1; }
	envs+=(-e "$v=${!v}")
done

out=$(mktemp -d "${TMPDIR:-/tmp}/stillframe-vm.XXXXXX")
trap 'rm -rf "$out"' EXIT
"$here/run-in-vm.sh" --udev -t 400 -o "$out/results" \
	--modes "1920x1080@60 1920x1080@48 1920x1080@30" "${envs[@]}" \
	"$here/guest-$which.sh" >"$out/tap" 2>"$out/err"
rc=$?
cat "$out/tap"
if [ "$rc" != 0 ]; then
	echo "test-vm: the guest script exited with $rc" >&2
	cat "$out/err" >&2
	tail -n 20 "$out/results/console.log" >&2 2>/dev/null
fi
[ -f "$out/results/timings" ] && sed 's/^/# timing: /' "$out/results/timings"
grep -q '^not ok' "$out/tap" && exit 1
grep -q '^1\.\.[1-9]' "$out/tap" || exit 1
exit "$rc"
