#!/bin/bash
# TAP: stillframe.so under load in a real headless Weston 10 (the KMS
# backend is the fake-KMS test double, stillframe-test-fake-kms.so):
#
#  - 200 clients (sf-load-client, a connection each) commit at 60 fps for
#    SF_LOAD_SECONDS (default 6) while one in ten changes its hints every
#    frame (rates, ranges, priorities, content types, idle inhibitors,
#    hint objects destroyed and made again): Weston lives, every client
#    stays connected, no commit goes uncounted, and once they leave
#    nothing of theirs is tracked or inhibits idle;
#  - 10,000 toplevels (with hint and content-type objects) created and
#    destroyed, twice: none of them is tracked afterwards, and the
#    second 10,000 leave Weston's memory flat.
#
# When stillframe.so is built with AddressSanitizer (scripts/test's
# build-sanitize tree), Weston runs with libasan preloaded and the test
# fails on any memory error, and on any leak whose allocation passed
# through stillframe.so (Weston's and its clients' own leaks at exit are
# not ours to judge).
#
# Meson passes SF_FAKE_KMS, SF_PLUGIN, SF_LOAD_CLIENT and SF_CTL.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../asan-lib.sh"

for prog in weston setsid timeout awk ldd; do
	command -v "$prog" >/dev/null || tap_skip_all "$prog is not installed"
done
for var in SF_PLUGIN SF_CTL SF_LOAD_CLIENT; do
	[ -f "${!var:-}" ] ||
		tap_skip_all "$var does not name a built file (run through meson)"
done

load_seconds=${SF_LOAD_SECONDS:-6}
# Memory the second 10,000 surfaces may add, in kB: under 40 bytes a
# surface.  A leak of one small allocation per surface passes it.
rss_slack_kb=400

asan_dir=$(mktemp -d "${TMPDIR:-/tmp}/sf-load-asan.XXXXXX")
WT_WRAPPER=$(asan_wrapper "$SF_PLUGIN" "$asan_dir")
[ -n "$WT_WRAPPER" ] && WT_TIMEOUT=$((WT_TIMEOUT * 3))

ctl() {
	WAYLAND_DISPLAY=$WT_SOCKET timeout "$WT_TIMEOUT" "$SF_CTL" "$@"
}

# labelled ERE: how many tracked surfaces have such a label ("no status"
# when stillframectl fails: never a count).
labelled() {
	local status
	status=$(ctl status) || { echo "no status"; return 1; }
	printf '%s\n' "$status" | awk -v re="$1" '
		$1 ~ /^surface\.[0-9]+$/ && $2 ~ /^class=/ {
			label = $0; sub(/.* label=/, "", label)
			if (label ~ re) n++
		}
		END { print n + 0 }'
}

labelled_is() {		# labelled_is ERE N: for wt_poll
	[ "$(labelled "$1")" = "$2" ]
}

state_is() {		# state_is STATE: the output's idle state, for wt_poll
	[ "$(ctl status | awk '$1 == "output.headless.state" { print $2 }')" \
		= "$1" ]
}

rss_kb() {		# rss_kb: weston's resident memory
	awk '$1 == "VmRSS:" { print $2 }' "/proc/$WT_PID/status"
}

client_says() {		# client_says ERE: for wt_poll, on $WT_LAST_LOG
	grep -Eq -- "$1" "$WT_LAST_LOG"
}

# commits_of ERE: the commits of the tracked surfaces whose label
# matches, added up.
commits_of() {
	ctl status | awk -v re="$1" '
		$1 ~ /^surface\.[0-9]+$/ {
			label = $0; sub(/.* label=/, "", label)
			if (label !~ re) next
			for (i = 2; i <= NF; i++)
				if ($i ~ /^commits=/) {
					sub(/^commits=/, "", $i); n += $i
				}
		}
		END { print n + 0 }'
}

# run_cycle TOTAL: sf-load-client --cycle in the foreground; its output.
run_cycle() {
	WAYLAND_DISPLAY=$WT_SOCKET timeout $((WT_TIMEOUT * 12)) \
		"$SF_LOAD_CLIENT" --cycle "$1" </dev/null 2>&1
}

{
	printf '[core]\nmodules=stillframe.so\nidle-time=0\n'
	wt_ini_still_shell
	printf 'panel-position=none\n'
	printf '[stillframe]\nlow-refresh-timeout=1000\n'
	printf 'dim-timeout=0\nstandby-timeout=0\noff-timeout=0\n'
} >"${TMPDIR:-/tmp}/sf-load-$$.ini"
wt_start load -l log <"${TMPDIR:-/tmp}/sf-load-$$.ini"
rm -f "${TMPDIR:-/tmp}/sf-load-$$.ini"
tap_ok wt_alive "weston with stillframe starts${WT_WRAPPER:+ (ASan preloaded)}"

# ---- 200 clients at 60 fps with hint churn ----
wt_client "$SF_LOAD_CLIENT" --clients 200 --fps 60 \
	--seconds "$load_seconds" --churn --linger 30
load_pid=$WT_LAST_PID
wt_poll $((WT_TIMEOUT * 6)) "the 200 clients to map" client_says '^ready 200$'
tap_result $? "200 clients, a connection each, map their surfaces"
wt_poll "$WT_TIMEOUT" "200 tracked surfaces of the load" \
	labelled_is '^sf-load-[0-9]+$' 200
tap_result $? "stillframe tracks the 200 surfaces"
wt_poll $((load_seconds + WT_TIMEOUT * 3)) "the load to end" \
	client_says '^done '
read -r _ sent churned < <(grep '^done ' "$WT_LAST_LOG")
tap_ok '[ "${sent:-0}" -ge 200 ] && [ "${churned:-0}" -ge 20 ]' \
	"the clients committed (${sent:-?}) with hint changes (${churned:-?})"
counted=$(commits_of '^sf-load-')
tap_ok '[ "$counted" -ge "${sent:-1}" ]' \
	"no commit went uncounted ($counted counted, ${sent:-?} sent)"
tap_ok wt_alive "weston lives through the load"
wt_client_stop "$load_pid"
tap_ok '! grep -q "protocol error\|connection lost" "$WT_LAST_LOG"' \
	"no client got a protocol error or lost its connection"
wt_poll "$WT_TIMEOUT" "no tracked surface of the load" \
	labelled_is '^sf-load-' 0
tap_result $? "the clients gone, none of their surfaces is tracked"
wt_poll 5 "the output idle" state_is low-refresh
tap_result $? "and no inhibitor is left: the output goes idle"

# ---- 10,000 surfaces created and destroyed, twice ----
out=$(run_cycle 10000)
tap_is "$out" "cycled 10000" \
	"10,000 toplevels with hint objects made and destroyed, no error"
wt_poll "$WT_TIMEOUT" "no tracked surface of the cycle" \
	labelled_is '^sf-load-cycle$' 0
tap_result $? "after them, none of them is tracked"
rss_first=$(rss_kb)
out=$(run_cycle 10000)
wt_poll "$WT_TIMEOUT" "no tracked surface of the cycle" \
	labelled_is '^sf-load-cycle$' 0
tap_ok '[ $? = 0 ] && [ "$out" = "cycled 10000" ]' \
	"nor after 10,000 more"
rss_second=$(rss_kb)
tap_diag "weston VmRSS: ${rss_first} kB after 10,000, ${rss_second} kB after 20,000"
if [ -n "$WT_WRAPPER" ]; then
	tap_skip "weston's memory stays flat over the second 10,000" \
		"ASan keeps freed memory in quarantine; its leak check judges"
else
	tap_ok '[ $((rss_second - rss_first)) -le "$rss_slack_kb" ]' \
		"weston's memory stays flat over the second 10,000 (≤ $rss_slack_kb kB)"
fi

wt_stop
tap_is "$WT_EXIT" 0 "weston exits cleanly after the load"

# ---- AddressSanitizer ----
if [ -z "${WT_WRAPPER}" ]; then
	tap_skip "no memory error or stillframe leak under ASan" \
		"stillframe.so is not built with ASan"
else
	ours=$(asan_reports "$SF_PLUGIN" "$asan_dir")
	tap_is "$ours" "" "no memory error or stillframe leak under ASan"
fi
rm -rf "$asan_dir"
tap_done
