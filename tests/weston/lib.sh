# shellcheck shell=bash
# Helpers for stillframe's Weston integration tests: TAP output, and a
# private headless Weston with the fake-KMS test double
# (stillframe-test-fake-kms.so, see fake-kms.c) and optionally the
# stillframe plugin, real clients, and the double's control FIFO.
#
# Source it from a bash test script:
#
#	. "$(dirname "$0")/lib.sh"
#	wt_start mytest <<-EOF
#		[core]
#		idle-time=0
#		[shell]
#		startup-animation=none
#	EOF
#	wt_client foot sh -c 'sleep 30'
#	wt_cmd motion 10 10
#	state=$(wt_dump)
#	tap_like "$state" 'repaints' "the double answers"
#	tap_done
#
# The commands wt_cmd sends and the format wt_dump prints are described
# at the top of fake-kms.c.  desktop-shell (the default shell) animates
# its start, window mapping and closing, some 40 repaints each; tests
# that count repaints turn that off ([shell] startup-animation=none,
# animation=none, close-animation=none).  With [core] idle-time=N it
# fades, locks and turns DPMS off after N idle seconds.
#
# Environment:
#   SF_FAKE_KMS   path of stillframe-test-fake-kms.so (required; meson
#                 passes it)
#   SF_PLUGIN     path of stillframe.so; if set, WESTON_MODULE_MAP maps
#                 stillframe.so to it (load it with [core] modules=)
#   WT_TIMEOUT    default bound, in seconds, of every wait (10)
#   WT_KEEP=1     keep the private directory (logs, dumps) after the test
#   WT_WRAPPER    command words put before weston, e.g. "valgrind -q
#                 --log-file=/tmp/vg.%p" (raise WT_TIMEOUT to match)
#
# Functions (each documented where it is defined):
#   TAP:      tests/tap.sh's tap_* functions (sourced here)
#   weston:   wt_start wt_stop wt_alive wt_cmd wt_dump wt_shot wt_log_wait
#             wt_log_tail wt_ini_still_shell
#   clients:  wt_client wt_client_alive wt_client_stop wt_run
#   polling:  wt_poll
#   status:   wt_surface_with_label
# Variables set by wt_start: WT_DIR WT_SOCKET WT_INI WT_LOG WT_FIFO
#   WT_PID; XDG_RUNTIME_DIR is exported (clients need it).  wt_client
#   sets WT_LAST_PID and WT_LAST_LOG.

WT_TIMEOUT=${WT_TIMEOUT:-10}
WT_DIR=
WT_PID=
WT_LOG=
WT_SOCKET=
WT_FIFO=
WT_CLIENT_PIDS=()
WT_CLIENT_N=0
WT_EXIT=

# ---- TAP ----

# Counting and reporting are tests/tap.sh's (tap_ok, tap_is, tap_like,
# tap_result, tap_skip, tap_skip_all, tap_diag, tap_bail, tap_done); a
# bail-out prints the weston log tail.
# shellcheck source=../tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../tap.sh"
TAP_ON_BAIL=wt_log_tail

# ---- polling ----

wt__now_ms() {
	local t=${EPOCHREALTIME/[.,]/}
	echo $((t / 1000))
}

# wt_poll TIMEOUT DESC CMD...: run CMD every 20 ms until it succeeds,
# for at most TIMEOUT seconds (fractions allowed).  On timeout prints
# DESC and the weston log tail to stderr and returns 1.  Also gives up
# at once if weston has died.
wt_poll() {
	local timeout=$1 desc=$2
	shift 2
	local ms
	ms=$(awk -v t="$timeout" 'BEGIN { printf "%d", t * 1000 }')
	local deadline=$(($(wt__now_ms) + ms))
	while :; do
		"$@" && return 0
		if [ -n "$WT_PID" ] && ! kill -0 "$WT_PID" 2>/dev/null; then
			tap_diag "weston died while waiting for: $desc"
			wt_log_tail >&2
			return 1
		fi
		if [ "$(wt__now_ms)" -ge "$deadline" ]; then
			tap_diag "timed out after ${timeout}s waiting for: $desc"
			wt_log_tail >&2
			return 1
		fi
		sleep 0.02
	done
}

# wt_log_tail [N]: the last N (40) lines of the weston log, as diagnostics.
# shellcheck disable=SC2120
wt_log_tail() {
	[ -n "$WT_LOG" ] && [ -f "$WT_LOG" ] || return 0
	# Once per state of the log: failures tend to come in a cascade.
	local mark
	mark="$WT_LOG $(wc -l <"$WT_LOG")"
	[ "$mark" = "${WT_TAIL_SHOWN:-}" ] && return 0
	WT_TAIL_SHOWN=$mark
	echo "# --- last ${1:-40} lines of $WT_LOG ---"
	tail -n "${1:-40}" "$WT_LOG" | sed 's/^/# /'
	if [ -s "$WT_DIR/weston.out" ]; then
		echo "# --- weston stdout/stderr ---"
		tail -n 20 "$WT_DIR/weston.out" | sed 's/^/# /'
	fi
}

# wt_log_wait ERE [TIMEOUT]: wait until the weston log has a line
# matching the extended regex ERE.  weston line-buffers its log file.
wt_log_wait() {
	wt_poll "${2:-$WT_TIMEOUT}" "weston log line /$1/" \
		grep -Eq -- "$1" "$WT_LOG"
}

# ---- weston ----

wt__teardown() {	# stop clients and weston, remove the directory
	local pid
	for pid in "${WT_CLIENT_PIDS[@]}"; do
		kill -TERM -- "-$pid" 2>/dev/null
	done
	if [ -n "$WT_PID" ]; then
		# weston alone first: signalled together, its desktop-shell
		# helpers die first and it tries to restart them.
		kill -TERM "$WT_PID" 2>/dev/null
		for _ in $(seq 100); do
			kill -0 "$WT_PID" 2>/dev/null || break
			sleep 0.05
		done
		kill -KILL -- "-$WT_PID" 2>/dev/null
		wait "$WT_PID" 2>/dev/null
		WT_EXIT=$?
		if [ "$WT_EXIT" -gt 128 ]; then
			tap_diag "weston died of signal $((WT_EXIT - 128))"
			wt_log_tail >&2
		elif [ "$WT_EXIT" -ne 0 ]; then
			tap_diag "weston exited with status $WT_EXIT"
			wt_log_tail >&2
		fi
	fi
	for pid in "${WT_CLIENT_PIDS[@]}"; do
		kill -KILL -- "-$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	if [ -n "$WT_DIR" ] && [ -d "$WT_DIR" ]; then
		if [ "${WT_KEEP:-0}" = 1 ]; then
			echo "# kept $WT_DIR" >&2
		else
			rm -rf -- "$WT_DIR"
		fi
	fi
	WT_PID=
	WT_DIR=
	WT_LOG=
	WT_CLIENT_PIDS=()
}

wt__cleanup() {
	local rc=$?
	if [ "$TAP_FAILED" -gt 0 ] || [ "$rc" -ne 0 ]; then
		wt_log_tail >&2
		[ "$rc" -eq 0 ] && rc=1
	fi
	wt__teardown
	exit "$rc"
}

# wt_stop: stop weston and the clients now and remove the directory
# (the log tail is printed first if a test has failed), so that
# wt_start can run another weston with another configuration.
wt_stop() {
	[ "$TAP_FAILED" -gt 0 ] && wt_log_tail >&2
	wt__teardown
}

wt__ini_merge() {	# stdin: user ini; writes the ini weston gets
	awk -v mods="$1" -v fifo="$2" '
	function header(line) {
		s = line
		gsub(/^[ \t]*\[[ \t]*|[ \t]*\][ \t]*$/, "", s)
		return s
	}
	/^[ \t]*\[/ {
		section = header($0)
		print
		if (section == "core" && !core) {
			core = 1; in_first_core = 1
			print "modules=" mods
		} else {
			in_first_core = 0
		}
		if (section == "stillframe-test" && !ctl) {
			ctl = 1; in_first_ctl = 1
			print "control=" fifo
		} else {
			in_first_ctl = 0
		}
		next
	}
	in_first_core && /^[ \t]*modules[ \t]*=/ { next }
	in_first_ctl && /^[ \t]*control[ \t]*=/ { next }
	{ print }
	END {
		if (!core)
			printf "\n[core]\nmodules=%s\n", mods
		if (!ctl)
			printf "\n[stillframe-test]\ncontrol=%s\n", fifo
	}'
}

wt__ini_modules() {	# stdin: user ini; prints [core] modules=
	awk '
	/^[ \t]*\[/ {
		s = $0
		gsub(/^[ \t]*\[[ \t]*|[ \t]*\][ \t]*$/, "", s)
		if (in_core) exit
		in_core = (s == "core")
		next
	}
	in_core && /^[ \t]*modules[ \t]*=/ {
		sub(/^[ \t]*modules[ \t]*=[ \t]*/, "")
		sub(/[ \t]*$/, "")
		print
		exit
	}'
}

# wt_ini_still_shell: the [shell] lines that turn desktop-shell's
# animations off, for tests that count repaints; use it inside the
# weston.ini here-document as $(wt_ini_still_shell), extra [shell] keys
# after it.
wt_ini_still_shell() {
	printf '%s\n' '[shell]' 'startup-animation=none' \
		'close-animation=none' 'animation=none'
}

# wt_start NAME [WESTON-ARG...] [<INI]: start a private headless weston
# on socket NAME.  If stdin is a file or a pipe it is read as weston.ini;
# the helper puts stillframe-test-fake-kms.so first in [core] modules=
# (keeping the modules given there, e.g. stillframe.so) and sets
# [stillframe-test] control= to the FIFO.  Returns once weston has
# loaded everything and answered a dump on the FIFO; bails out (TAP)
# if it does not within WT_TIMEOUT seconds.  Cleanup is an EXIT trap.
wt_start() {
	local name=$1
	shift
	if [ -z "${SF_FAKE_KMS:-}" ] || [ ! -f "$SF_FAKE_KMS" ]; then
		tap_bail "SF_FAKE_KMS must name stillframe-test-fake-kms.so" \
			"(got '${SF_FAKE_KMS:-}')"
	fi
	command -v weston >/dev/null || tap_bail "weston is not installed"

	# The FIFO commands split on blanks, so the dir must have none.
	local tmp=${TMPDIR:-/tmp}
	case $tmp in *[[:space:]]*) tmp=/tmp ;; esac
	if [ -n "$WT_PID" ]; then
		tap_bail "wt_start: a weston is running already (wt_stop it)"
	fi
	if [ -z "${WT_TRAPPED:-}" ]; then
		tap_at_exit wt__cleanup
		trap 'exit 130' INT
		trap 'exit 143' TERM
		WT_TRAPPED=1
	fi
	WT_DIR=$(mktemp -d "$tmp/stillframe-wt.XXXXXX") ||
		tap_bail "mktemp failed"
	chmod 700 "$WT_DIR"

	WT_SOCKET=$name
	WT_INI=$WT_DIR/weston.ini
	WT_LOG=$WT_DIR/weston.log
	WT_FIFO=$WT_DIR/control
	mkdir -m 700 "$WT_DIR/config"

	# A here-document is a file or a pipe at EOF.  An inherited pipe
	# that never ends (some CI runners) must not hang the test.
	local user_ini='' line rc
	if [ -f /dev/stdin ] || [ -p /dev/stdin ]; then
		while :; do
			line=
			IFS= read -r -t 2 line
			rc=$?
			if [ "$rc" -eq 0 ]; then
				user_ini+=$line$'\n'
				continue
			fi
			[ "$rc" -gt 128 ] &&
				tap_diag "wt_start: stdin did not end in 2 s;" \
					"weston.ini is what it gave so far"
			user_ini+=$line
			break
		done
	fi
	# The platform layer writes under platform-root: unless the test
	# names a tree, an empty one, so that a run as root on a machine
	# with a GPU or a backlight never touches the real ones.
	case $user_ini in
	*platform-root=*) ;;
	*)	mkdir "$WT_DIR/no-sysfs"
		user_ini=$(printf '%s\n' "$user_ini" | awk -v root="$WT_DIR/no-sysfs" '
			{ print }
			/^[ \t]*\[stillframe\][ \t]*$/ {
				print "platform-root=" root; seen = 1 }
			END { if (!seen) print "[stillframe]\nplatform-root=" root }')
		;;
	esac
	local mods user_mods
	user_mods=$(printf '%s\n' "$user_ini" | wt__ini_modules)
	mods=stillframe-test-fake-kms.so
	case ",$user_mods," in
	*,stillframe-test-fake-kms.so,*)
		mods=$user_mods ;;
	,,)	;;
	*)	mods="$mods,$user_mods" ;;
	esac
	printf '%s\n' "$user_ini" | wt__ini_merge "$mods" "$WT_FIFO" >"$WT_INI"

	local map="stillframe-test-fake-kms.so=$SF_FAKE_KMS"
	if [ -n "${SF_PLUGIN:-}" ]; then
		map="$map;stillframe.so=$SF_PLUGIN"
	fi

	export XDG_RUNTIME_DIR=$WT_DIR
	# Clients get a clean config: no user foot.ini and the like.
	export XDG_CONFIG_HOME=$WT_DIR/config
	# setsid: weston leads its own process group, so cleanup can signal
	# it and whatever it spawned (desktop-shell, weston-keyboard).
	WESTON_MODULE_MAP="$map${WESTON_MODULE_MAP:+;$WESTON_MODULE_MAP}" \
		env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET -u DISPLAY \
		setsid ${WT_WRAPPER:-} weston --backend=headless-backend.so \
			--socket="$name" --config="$WT_INI" \
			--log="$WT_LOG" "$@" \
			</dev/null >"$WT_DIR/weston.out" 2>&1 &
	WT_PID=$!

	wt_poll "$WT_TIMEOUT" "weston socket $WT_DIR/$name" \
		test -S "$WT_DIR/$name" ||
		tap_bail "weston did not create its socket"
	wt_poll "$WT_TIMEOUT" "fake-kms control FIFO $WT_FIFO" \
		test -p "$WT_FIFO" ||
		tap_bail "the fake-KMS double did not create $WT_FIFO"
	# The loop runs only once every module has loaded.
	wt_dump >/dev/null ||
		tap_bail "weston does not answer on $WT_FIFO"
}

# wt_alive: weston is still running.
wt_alive() {
	[ -n "$WT_PID" ] && kill -0 "$WT_PID" 2>/dev/null
}

# wt_cmd WORD...: send one command line to the fake-KMS double.  It
# runs asynchronously; wt_dump afterwards is a barrier (commands run in
# order).  Never blocks: the FIFO is opened read-write.
wt_cmd() {
	local line="$*" fd
	if ! wt_alive; then
		tap_diag "wt_cmd $line: weston is not running"
		return 1
	fi
	if [ "${#line}" -ge 1000 ]; then
		tap_diag "wt_cmd: line too long"
		return 1
	fi
	exec {fd}<>"$WT_FIFO" || return 1
	printf '%s\n' "$line" >&"$fd"
	exec {fd}>&-
}

# wt_dump: ask the double for its state, wait for the file (bounded) and
# print it.  Returns 1 (log tail on stderr) if it does not come.
wt_dump() {
	local path
	path=$(mktemp -u "$WT_DIR/dump.XXXXXX") || return 1
	wt_cmd dump "$path" || return 1
	wt_poll "$WT_TIMEOUT" "state dump $path" test -f "$path" || return 1
	cat "$path"
}

# wt_shot OUTPUT PATH: what OUTPUT shows now, read back by the double
# from the buffer last presented (no repaint asked), into PATH as a
# binary PPM.  Needs weston --use-pixman.  Returns 1 if it does not come
# or the double could not take it (PATH.failed: before the output's
# first repaint, say), at once: callers poll for a shot.
wt_shot() {
	rm -f "$2" "$2.failed"
	wt_cmd shot "$1" "$2" || return 1
	wt_poll "$WT_TIMEOUT" "screen shot $2" wt__shot_done "$2" || return 1
	if [ -f "$2.failed" ]; then
		rm -f "$2.failed"
		return 1
	fi
}

wt__shot_done() {
	[ -f "$1" ] || [ -f "$1.failed" ]
}

# ---- clients ----

# wt_client CMD...: start a Wayland client in the background, connected
# to this weston, in its own process group, stopped at cleanup.  Sets
# WT_LAST_PID and WT_LAST_LOG (its stdout and stderr).  Do not call it
# in $(...): the bookkeeping would be lost with the subshell.
wt_client() {
	WT_CLIENT_N=$((WT_CLIENT_N + 1))
	WT_LAST_LOG=$WT_DIR/client-$WT_CLIENT_N.log
	WAYLAND_DISPLAY=$WT_SOCKET setsid "$@" </dev/null >"$WT_LAST_LOG" 2>&1 &
	WT_LAST_PID=$!
	WT_CLIENT_PIDS+=("$WT_LAST_PID")
}

# wt_client_alive PID: the client is still running.
wt_client_alive() {
	kill -0 "$1" 2>/dev/null
}

# wt_client_stop PID: stop a client and its children, wait for it.
wt_client_stop() {
	kill -TERM -- "-$1" 2>/dev/null
	wt_poll "$WT_TIMEOUT" "client $1 to exit" \
		eval "! kill -0 $1 2>/dev/null"
	wait "$1" 2>/dev/null
	return 0
}

# ---- the plugin's status ----

# wt_surface_with_label ERE STATUS: the id of the newest surface whose label
# matches ERE.
wt_surface_with_label() {
	printf '%s\n' "$2" | awk -v re="$1" '
	$1 ~ /^surface\.[0-9]+$/ && $2 ~ /^class=/ {
		label = $0
		sub(/.* label=/, "", label)
		if (label ~ re) { id = $1; sub(/^surface\./, "", id) }
	}
	END { if (id == "") exit 1; print id }'
}

# wt_modes_of: wayland-info's output on stdin -> "REFRESH_HZ FLAGS", a
# line per wl_output mode (flags as wayland-info prints them: "current",
# "preferred").
wt_modes_of() {
	awk '
	/^interface: / { in_output = ($0 ~ /'\''wl_output'\''/) }
	in_output && /refresh:/ {
		r = $0; sub(/.*refresh: */, "", r); sub(/ Hz.*/, "", r)
	}
	in_output && /flags:/ {
		f = $0; sub(/.*flags: */, "", f); sub(/[ \t]+$/, "", f)
		print r (f == "" ? "" : " " f)
	}'
}

# wt_run CMD...: run a Wayland client in the foreground, connected to
# this weston, bounded by WT_TIMEOUT; its exit status is returned.
wt_run() {
	WAYLAND_DISPLAY=$WT_SOCKET timeout "$WT_TIMEOUT" "$@" </dev/null
}
