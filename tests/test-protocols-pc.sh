#!/bin/bash
# TAP: a client builds against the installed protocols.  `meson install`
# into a scratch DESTDIR, then the installed stillframe-protocols.pc,
# moved to that DESTDIR by its prefix= line alone (every other path in it
# must follow ${prefix}), gives the version, a pkgdatadir holding the
# XMLs and Cflags that find stillframe-x.h; and the installed example
# (doc/examples) builds with its own Makefile through that .pc.  Skips
# when no C compiler, make, pkg-config, wayland-scanner or
# wayland-client is there.
# Arguments: the build folder and the project's version.
. "$(dirname "$0")/tap.sh"
build=$1
version=$2
tmp=$(mktemp -d)
tap_at_exit 'rm -rf "$tmp"'

for tool in cc make pkg-config; do
	command -v "$tool" > /dev/null || tap_skip_all "no $tool"
done
for pc in wayland-scanner wayland-client wayland-protocols; do
	pkg-config --exists "$pc" || tap_skip_all "no $pc.pc"
done

d=$tmp/d
meson install -C "$build" --no-rebuild --destdir "$d" > "$tmp/log" 2>&1
tap_result $? "meson install into a DESTDIR" || tap_diag "$(cat "$tmp/log")"

pc=$(find "$d" -name stillframe-protocols.pc)
tap_like "$pc" '/share/pkgconfig/stillframe-protocols\.pc$' \
	"stillframe-protocols.pc is installed in datadir/pkgconfig" ||
	tap_bail "no .pc to go on with"
prefix=$(sed -n 's/^prefix=//p' "$pc")
mkdir "$tmp/pc"
sed "s|^prefix=.*|prefix=$d$prefix|" "$pc" > "$tmp/pc/stillframe-protocols.pc"
export PKG_CONFIG_PATH=$tmp/pc

tap_is "$(pkg-config --modversion stillframe-protocols)" "$version" \
	"the .pc's version is the project's"
dir=$(pkg-config --variable=pkgdatadir stillframe-protocols)
for xml in stillframe-v1.xml stillframe-control-v1.xml stillframe-x.xml; do
	tap_ok '[ -f "$dir/$xml" ]' "pkgdatadir holds $xml"
done
printf '#include <stillframe-x.h>\nint sf_check = STILLFRAME_X_HINT_ITEMS;\n' \
	> "$tmp/x.c"
# shellcheck disable=SC2046	# the flags are words
cc $(pkg-config --cflags stillframe-protocols) -c -o "$tmp/x.o" "$tmp/x.c" \
	> "$tmp/cc.log" 2>&1
tap_result $? "the .pc's Cflags find the installed stillframe-x.h" ||
	tap_diag "$(cat "$tmp/cc.log")"

example=$(find "$d" -name content-rate-client.c)
tap_ok '[ -n "$example" ]' "the example client is installed" ||
	tap_bail "no example to build"
cp -r "$(dirname "$example")" "$tmp/ex"
make -C "$tmp/ex" CFLAGS='-O0 -Wall -Wextra -Wno-unused-parameter -Werror' > "$tmp/make.log" 2>&1
tap_result $? "the example builds with its Makefile through the .pc" ||
	tap_diag "$(cat "$tmp/make.log")"
tap_ok '[ -x "$tmp/ex/content-rate-client" ]' "the example's program is made"
tap_done
