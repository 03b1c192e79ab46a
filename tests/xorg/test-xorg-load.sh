#!/bin/bash
# TAP: libstillframe.so under load in a real Xorg (dummy driver):
#
#  - 200 X clients (sf-x-load, a connection each) draw at 60 fps for
#    SF_LOAD_SECONDS (default 6) while one in ten changes its window's
#    hints every frame (SetWindowHint rates, ranges, priorities;
#    _STILLFRAME_HINT and _VARIABLE_REFRESH written and deleted): the
#    server lives, no client gets an X error, every window's damage is
#    seen, and once they leave none of their windows is tracked and the
#    output still goes idle;
#  - 10,000 top-level windows created, drawn into, hinted and destroyed,
#    twice: the tracked windows are back where they were each time and
#    the second 10,000 leave the server's memory flat.
#
# When libstillframe.so is built with AddressSanitizer (scripts/test's
# build-sanitize tree), Xorg runs with libasan preloaded and the test
# fails on any memory error, and on any leak whose allocation passed
# through libstillframe.so (the server's own leaks at exit are not ours
# to judge).
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../asan-lib.sh"

for tool in Xorg xdpyinfo ldd; do
	command -v "$tool" >/dev/null ||
		tap_skip_all "$tool missing (run scripts/install-deps)"
done
[ -f "${SF_XORG_MODULE:-}" ] || tap_skip_all "SF_XORG_MODULE not built"
[ -x "${SF_X_RAW:-}" ] || tap_skip_all "SF_X_RAW not built"
[ -x "${SF_X_LOAD:-}" ] || tap_skip_all "SF_X_LOAD not built"
[ -x "${SF_CTL:-}" ] || tap_skip_all "SF_CTL not built"

load_seconds=${SF_LOAD_SECONDS:-6}
# Memory the second 10,000 windows may add, in kB: under 40 bytes a
# window.
rss_slack_kb=400

asan_dir=$(mktemp -d "${TMPDIR:-/tmp}/sf-load-asan.XXXXXX")
XT_WRAPPER=$(asan_wrapper "$SF_XORG_MODULE" "$asan_dir")
[ -n "$XT_WRAPPER" ] && XT_TIMEOUT=$((XT_TIMEOUT * 3))

tracked() {		# tracked: how many windows the module tracks
	status_field windows
}

tracked_is() {		# tracked_is N: for xt_poll
	[ "$(tracked)" = "$1" ]
}

output_state_is() {	# output_state_is STATE: DUMMY0's, for xt_poll
	[ "$(DISPLAY=$XT_DISPLAY timeout "$XT_TIMEOUT" "$SF_CTL" --x11 status |
		awk '$1 == "output.DUMMY0.state" { print $2 }')" = "$1" ]
}

rss_kb() {		# rss_kb: the server's resident memory
	awk '$1 == "VmRSS:" { print $2 }' "/proc/$XT_PID/status"
}

client_says() {		# client_says ERE: for xt_poll
	grep -Eq -- "$1" "$XT_DIR/clients.log"
}

# The load's windows that ListWindows shows, and how many of them had no
# damage: "200 0" when the module saw every one draw.
windows_and_undamaged() {
	raw windows | tr '|' '\n' |
		awk '$NF == "sf-x-load" {
			n++
			for (i = 1; i < NF; i++)
				if ($i == "damage" && $(i + 1) == 0) idle++
		} END { print n + 0, idle + 0 }'
}

run_cycle() {		# run_cycle TOTAL: sf-x-load --cycle; its output
	DISPLAY=$XT_DISPLAY timeout $((XT_TIMEOUT * 12)) \
		"$SF_X_LOAD" --cycle "$1" </dev/null 2>&1
}

xt_start load <<-EOF ||
	Option "LowRefreshTimeout" "1000"
	Option "DimTimeout" "0"
	Option "StandbyTimeout" "0"
	Option "OffTimeout" "0"
EOF
	tap_bail "Xorg did not start"
tap_ok 'kill -0 "$XT_PID"' \
	"Xorg with stillframe starts${XT_WRAPPER:+ (ASan preloaded)}"
baseline=$(tracked)
case $baseline in
''|*[!0-9]*) tap_bail "no STILLFRAME status from the server" ;;
esac

# ---- 200 clients at 60 fps with hint churn ----
xt_client "$SF_X_LOAD" --clients 200 --fps 60 --seconds "$load_seconds" \
	--churn --linger 30
load_pid=$XT_LAST_PID
xt_poll $((XT_TIMEOUT * 6)) "the 200 clients to map" client_says '^ready 200$'
tap_result $? "200 clients, a connection each, map their windows"
xt_poll "$XT_TIMEOUT" "200 more tracked windows" \
	tracked_is $((baseline + 200))
tap_result $? "stillframe tracks the 200 windows"
xt_poll $((load_seconds + XT_TIMEOUT * 3)) "the load to end" \
	client_says '^done '
read -r _ sent churned < <(grep '^done ' "$XT_DIR/clients.log")
tap_ok '[ "${sent:-0}" -ge 200 ] && [ "${churned:-0}" -ge 20 ]' \
	"the clients drew (${sent:-?}) with hint changes (${churned:-?})"
tap_is "$(windows_and_undamaged)" "200 0" \
	"the module saw damage in every one of the windows"
tap_ok 'kill -0 "$XT_PID"' "the server lives through the load"
xt_client_stop "$load_pid"
tap_ok '! grep -q "X error\|connection lost" "$XT_DIR/clients.log"' \
	"no client got an X error or lost its connection"
xt_poll "$XT_TIMEOUT" "the tracked windows back to $baseline" \
	tracked_is "$baseline"
tap_result $? "the clients gone, none of their windows is tracked"
xt_poll 5 "the output idle" output_state_is low-refresh
tap_result $? "and nothing they set is left: the output goes idle"

# ---- 10,000 windows created and destroyed, twice ----
out=$(run_cycle 10000)
tap_is "$out" "cycled 10000" \
	"10,000 hinted top-level windows made and destroyed, no error"
xt_poll "$XT_TIMEOUT" "the tracked windows back to $baseline" \
	tracked_is "$baseline"
tap_result $? "after them, as many tracked windows as before ($baseline)"
rss_first=$(rss_kb)
out=$(run_cycle 10000)
xt_poll "$XT_TIMEOUT" "the tracked windows back to $baseline" \
	tracked_is "$baseline"
tap_ok '[ $? = 0 ] && [ "$out" = "cycled 10000" ]' "and after 10,000 more"
rss_second=$(rss_kb)
tap_diag "Xorg VmRSS: ${rss_first} kB after 10,000, ${rss_second} kB after 20,000"
if [ -n "$XT_WRAPPER" ]; then
	tap_skip "the server's memory stays flat over the second 10,000" \
		"ASan keeps freed memory in quarantine; its leak check judges"
else
	tap_ok '[ $((rss_second - rss_first)) -le "$rss_slack_kb" ]' \
		"the server's memory stays flat over the second 10,000 (≤ $rss_slack_kb kB)"
fi

# ---- exit, and AddressSanitizer ----
kill -TERM "$XT_PID"
xt_poll 20 "Xorg to exit" eval '! kill -0 "$XT_PID" 2>/dev/null'
wait "$XT_PID"
tap_is "$?" 0 "Xorg exits cleanly after the load"
XT_PID=''
if [ -z "${XT_WRAPPER}" ]; then
	tap_skip "no memory error or stillframe leak under ASan" \
		"not an ASan build"
else
	ours=$(asan_reports "$SF_XORG_MODULE" "$asan_dir")
	tap_is "$ours" "" "no memory error or stillframe leak under ASan"
fi
rm -rf "$asan_dir"
tap_done
