#!/bin/bash
# The checks of the installed packages, as their autopkgtest runs them
# (debian/tests/control): stillframe itself (plugin, module,
# stillframectl) from the system, where the packages put it; from this
# tree only the TAP scripts and the test doubles at the hardware
# boundary (the fake-KMS Weston module, the X DPMS recorder) and the raw
# X client the harness talks with, built here into $AUTOPKGTEST_TMP.
#
#   tests/installed/run.sh weston|xorg|protocols
#
# Each script's TAP goes to stdout; the exit status is 0 only when every
# script passed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

[ $# -eq 1 ] || { echo "usage: $0 weston|xorg|protocols" >&2; exit 2; }
what=$1
work=${AUTOPKGTEST_TMP:-$(mktemp -d)}
build=$work/build-$what

# installed PACKAGE PATTERN: the file of PACKAGE matching PATTERN.
installed() {
	dpkg -L "$1" 2>/dev/null | grep -E "$2" | head -n 1 | grep . || {
		echo "$0: $1 is not installed (no $2)" >&2
		exit 1
	}
}

configure() {	# configure MESON_OPTIONS...: the doubles' build folder
	meson setup "$build" "$top" -Dtests=true -Dfuzz=false "$@" \
		>"$work/meson-$what.log" 2>&1 || {
		cat "$work/meson-$what.log" >&2
		exit 1
	}
}

case $what in
weston | protocols)
	configure -Dweston=enabled -Dxorg=disabled
	ninja -C "$build" tests/weston/stillframe-test-fake-kms.so >/dev/null
	export SF_FAKE_KMS=$build/tests/weston/stillframe-test-fake-kms.so
	;;&
protocols)
	scripts=(installed/protocols-client.sh)
	;;
weston)
	# The idle hold, the refresh drop and the way back in one run (the
	# fake-KMS repaint counter and request log, wayland-info).
	scripts=(installed/weston-system-module.sh)
	;;
xorg)
	configure -Dweston=disabled -Dxorg=enabled
	ninja -C "$build" tests/xorg/sf-x-raw tests/xorg/libsftestdpms.so \
		>/dev/null
	SF_XORG_MODULE=$(installed xserver-xorg-stillframe '/libstillframe\.so$')
	export SF_XORG_MODULE
	export SF_X_RAW=$build/tests/xorg/sf-x-raw
	export SF_XORG_TEST_MODULE=$build/tests/xorg/libsftestdpms.so
	# The refresh drop and the way back (xrandr), then the idle hold
	# of xterm's caret judged by the screen's pixels (xwd).
	scripts=(installed/xorg-system-module.sh
		real-clients/rc-xorg-xterm-caret.sh)
	;;
*)
	echo "usage: $0 weston|xorg|protocols" >&2
	exit 2
	;;
esac
SF_CTL=$(installed stillframe-tools '/bin/stillframectl$')
export SF_CTL

failed=0
for script in "${scripts[@]}"; do
	echo "# $script"
	bash "$top/tests/$script" || {
		echo "# $script FAILED" >&2
		failed=1
	}
done
exit $failed
