#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# /init of the stillframe test VM initramfs (runs as PID 1 in the guest).
#
# 1. mount proc/sys/dev, load the kernel modules in /etc/modules.early
# 2. mount the host root (9p tag "hostroot", read-only) and the results share
#    (9p tag "results", read-write), load /etc/modules.late (DRM, input;
#    drm.ko gets edid_firmware= if the results share has edid.bin)
# 3. build /newroot = overlay(lower = host root, upper = tmpfs), so programs
#    can write anywhere (writes are thrown away at poweroff); falls back to
#    the plain read-only host root if overlayfs refuses the 9p lower layer
# 4. mount proc, sysfs, devtmpfs, devpts, debugfs, tmpfs /run, bind the
#    results share at /run/vm, bind the extracted kernel's modules at
#    /lib/modules
# 5. mode=run:   chroot and run /run/vm/cmd.sh, store stdout/stderr/status
#    mode=shell: chroot and start an interactive shell on ttyS0
# 6. power off

/bin/busybox --install -s /bin
export PATH=/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null

log() { echo "vm-init: $*" >/dev/console; }
die() {
	log "FATAL: $*"
	[ -d /results/. ] && echo "vm-init: $*" >>/results/init-error
	sync
	poweroff -f
	echo o >/proc/sysrq-trigger
	sleep 10
}

# ---- kernel command line ---------------------------------------------------
MODE=run
TIMEOUT=0
KMODS=
UDEV=0
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	vm.mode=*) MODE=${arg#vm.mode=} ;;
	vm.timeout=*) TIMEOUT=${arg#vm.timeout=} ;;
	vm.kmods=*) KMODS=${arg#vm.kmods=} ;;
	vm.udev=*) UDEV=${arg#vm.udev=} ;;
	esac
done

t_uptime() { cut -d' ' -f1 /proc/uptime; }

# ---- modules ---------------------------------------------------------------
load_mods() { # list-file
	while read -r ko; do
		[ -n "$ko" ] || continue
		args=
		# custom EDID for every connector, from the results share
		[ "$ko" = drm.ko ] && [ -f /lib/firmware/edid/vm.bin ] &&
			args="edid_firmware=edid/vm.bin"
		insmod "/lib/modules/$ko" $args || log "insmod $ko failed"
	done <"$1"
}
load_mods /etc/modules.early

# ---- 9p shares -------------------------------------------------------------
mkdir -p /host /results /rw /newroot
P9="trans=virtio,version=9p2000.L,msize=262144"
mount -t 9p -o "$P9,ro,cache=loose" hostroot /host || die "cannot mount hostroot"
mount -t 9p -o "$P9,cache=none" results /results || die "cannot mount results"
echo "$(t_uptime)" >/results/t-9p

# DRM, input: after the shares, so /results/edid.bin can override the EDID
if [ -f /results/edid.bin ]; then
	mkdir -p /lib/firmware/edid
	cp /results/edid.bin /lib/firmware/edid/vm.bin
fi
load_mods /etc/modules.late

# ---- root: overlay over the host root -------------------------------------
R=/newroot
mount -t tmpfs -o mode=0755 rw /rw
mkdir -p /rw/upper /rw/work
if mount -t overlay -o lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work \
		overlay $R 2>/dev/null; then
	echo overlay >/results/rootfs
else
	log "overlayfs over 9p failed, using read-only host root"
	mount --bind /host $R
	echo ro-9p >/results/rootfs
fi

mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -t debugfs debugfs $R/sys/kernel/debug 2>/dev/null
mount -t devtmpfs devtmpfs $R/dev
mkdir -p $R/dev/pts $R/dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts $R/dev/pts
mount -t tmpfs -o mode=1777 shm $R/dev/shm
# With the overlay, /tmp is the host's as seen through it (a build tree
# there must stay visible) and writable; else a tmpfs.
[ "$(cat /results/rootfs)" = overlay ] ||
	mount -t tmpfs -o mode=1777 tmp $R/tmp
mount -t tmpfs -o mode=0755 run $R/run
mkdir -p $R/run/vm $R/run/user/0
chmod 0700 $R/run/user/0
mount --bind /results $R/run/vm
if [ -n "$KMODS" ] && [ -d "/host$KMODS" ]; then
	mkdir -p $R/lib/modules 2>/dev/null
	mount --bind "/host$KMODS" $R/lib/modules 2>/dev/null ||
		log "cannot bind kernel modules at /lib/modules"
fi

hostname stillframe-vm
ip link set lo up 2>/dev/null

GUEST_ENV="PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
HOME=/root TERM=${TERM:-linux} LANG=C.UTF-8 XDG_RUNTIME_DIR=/run/user/0"

if [ "$UDEV" = 1 ]; then
	chroot $R env -i $GUEST_ENV SYSTEMD_IGNORE_CHROOT=1 sh -c '
		/lib/systemd/systemd-udevd --daemon &&
		udevadm trigger --action=add --type=subsystems &&
		udevadm trigger --action=add --type=devices &&
		udevadm settle --timeout=30' >/results/udev.log 2>&1 ||
		log "udev start failed (see udev.log)"
fi

echo "$(t_uptime)" >/results/t-start
case "$MODE" in
shell)
	log "interactive shell; 'exit' or ctrl-d powers the VM off"
	setsid cttyhack chroot $R env -i $GUEST_ENV /bin/bash -l
	;;
*)
	TO=
	[ "$TIMEOUT" -gt 0 ] 2>/dev/null && TO="timeout -s KILL $TIMEOUT"
	$TO chroot $R env -i $GUEST_ENV /bin/sh /run/vm/cmd.sh \
		</dev/null >/results/stdout 2>/results/stderr
	rc=$?
	echo "$(t_uptime)" >/results/t-end
	echo "$rc" >/results/status
	;;
esac

dmesg >/results/dmesg 2>/dev/null
sync
poweroff -f
echo o >/proc/sysrq-trigger
sleep 10
