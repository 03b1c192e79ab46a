#!/bin/bash
# The STILLFRAME extension's request parsing fed random requests: a real
# Xorg 21.1 (dummy driver) with libstillframe.so, and tests/xorg/sf-x-raw
# sending, in each byte order, SF_X_FUZZ_COUNT (default 150) requests
# with a random minor opcode (the known ones and a few beyond), a random
# length field and random words, each on a connection of its own.  The
# generator is seeded (SF_X_FUZZ_SEED, default 8), so a failure replays.
# A length beyond the words sent is made up by sf-x-raw with requests
# the server reads as the rest; never fewer, so that no random word is
# read as a core request.  Every request must be answered (a reply, an
# error, or nothing before the sync), and afterwards the server must be
# alive and answer GetStatus and QueryVersion in both orders.
set -u
. "$(dirname "$0")/lib.sh"

for tool in Xorg xdpyinfo; do
	command -v "$tool" >/dev/null ||
		tap_skip_all "$tool missing (run scripts/install-deps)"
done
[ -f "${SF_XORG_MODULE:-}" ] || tap_skip_all "SF_XORG_MODULE not built"
[ -x "${SF_X_RAW:-}" ] || tap_skip_all "SF_X_RAW not built"

# Request sizes in 4-byte units by minor opcode (stillframe-x.h).
SIZES=(2 1 1 7 3 2 3 1 1 2 1)
COUNT=${SF_X_FUZZ_COUNT:-150}
RANDOM=${SF_X_FUZZ_SEED:-8}

# A random 32-bit word, in decimal.
word() {
	echo $((((RANDOM << 17) ^ (RANDOM << 2) ^ (RANDOM & 3)) & 0xffffffff))
}

xt_start fuzz <<-EOF
	Option "Outputs" "all"
EOF
tap_like "$(raw status)" '^status paused 0 outputs 1 ' \
	"GetStatus answers before the random requests"

for order in native swapped; do
	flag=''
	[ "$order" = swapped ] && flag=--swapped
	unanswered=''
	answers=''
	for _ in $(seq "$COUNT"); do
		minor=$((RANDOM % 14))
		len=$((RANDOM % 24))
		n=0
		[ "$len" -gt 1 ] && n=$((RANDOM % len))
		# Half of the known requests get their right length and
		# random values, to reach past the length checks.
		if [ "$minor" -lt ${#SIZES[@]} ] &&
			[ $((RANDOM % 2)) = 0 ]; then
			len=${SIZES[$minor]}
			n=$((len - 1))
		fi
		words=''
		for _ in $(seq 1 "$n"); do
			words+=" $(word)"
		done
		# shellcheck disable=SC2086
		a=$(raw $flag raw "$minor" "$len" $words 2>&1)
		answers+="$(echo "$a" | cut -d " " -f 1-2)"$'\n'
		case $a in
		ok | error\ * | reply) ;;
		*) unanswered+=" [$minor $len$words: $a]" ;;
		esac
	done
	tap_diag "$order answers: $(printf %s "$answers" | sort | uniq -c |
		paste -sd ' ')"
	tap_is "$unanswered" "" "$order: $COUNT random requests all answered"
done

tap_ok "kill -0 $XT_PID" "the server is still running"
for order in native swapped; do
	flag=''
	[ "$order" = swapped ] && flag=--swapped
	tap_like "$(raw $flag status)" '^status paused [01] outputs 1 ' \
		"$order: GetStatus answers afterwards"
done
tap_is "$(raw version 1 0)" "version 1.2" "QueryVersion answers afterwards"
xt_stop
tap_done
