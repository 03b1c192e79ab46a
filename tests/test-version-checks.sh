#!/bin/bash
# TAP: libweston's version differences live in weston-plugin/compat.c and
# compat.h, and for the tests' backend code in
# tests/weston/weston-backend-api.h (CODING_STYLE.md, "The adapters"):
# no other C source or header tests WESTON_VERSION_MAJOR (or libweston's
# other version macros).  The source tree is the argument.
set -u
top=$1
allowed='^(weston-plugin/compat\.[ch]|tests/weston/weston-backend-api\.h)$'

echo "1..2"
cd "$top" || exit 1
# Every C file of the tree but build folders and the Debian roots.
found=$(find . \( -path './build*' -o -path './.git' \) -prune -o \
	-type f \( -name '*.c' -o -name '*.h' \) -print |
	sed 's|^\./||' | sort |
	while read -r f; do
		if grep -qE 'WESTON_VERSION_(MAJOR|MINOR|MICRO|NUMBER|AT_LEAST)' \
			"$f" && ! printf '%s\n' "$f" | grep -qE "$allowed"; then
			echo "$f"
		fi
	done)
if [ -z "$found" ]; then
	echo "ok 1 - no Weston version test outside the compat files"
else
	echo "not ok 1 - no Weston version test outside the compat files"
	printf '# %s\n' $found
fi
# And the compat files do use it: the check above is not vacuous.
if grep -q 'WESTON_VERSION_MAJOR' weston-plugin/compat.c &&
	grep -q 'WESTON_VERSION_MAJOR' tests/weston/weston-backend-api.h; then
	echo "ok 2 - the compat files are where the version tests are"
else
	echo "not ok 2 - the compat files are where the version tests are"
fi
[ -z "$found" ]
