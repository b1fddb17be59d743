# SPDX-License-Identifier: GPL-2.0
# Shell helpers for what runs inside the L1: the tests (tests/common.rc
# sources this file) and the nested scenario (nested-test/run-scenario,
# which runs from a private copy in /tmp and takes this file with it).
# One place for each: waiting, virsh, a disk's MAJOR:MINOR, the images
# filesystem, the hook's units, and the domain XML of an L2 guest.
# Definitions only, no side effects; never call the 'test' builtin here (a
# test file defines test()).
# shellcheck shell=bash

BLOCKIO_L2_DIR=${BLOCKIO_L2_DIR:-/var/lib/blockio/l2}
BLOCKIO_NSURI=https://blockio.dev/xmlns/limits/1

# _wait_for SECONDS COMMAND...: poll every $WAIT_STEP seconds (default 0.5)
# until COMMAND succeeds; non-zero if it did not within SECONDS.
_wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		((SECONDS < deadline)) || return 1
		sleep "${WAIT_STEP:-0.5}"
	done
}

# _virsh ARGS...: virsh on $VIRSH_URI (default qemu:///system), quiet. No
# client keepalive (-k 0): on a busy TCG L1 (the debug kernel, three L2s
# booting) libvirtd can miss virsh's 30 s of pings and virsh would drop a
# start that was going through; a call that truly hangs meets the test's
# TIMEOUT instead.
_virsh() { virsh -q -k 0 -c "${VIRSH_URI:-qemu:///system}" "$@"; }

# _libvirtd_up: libvirtd answers.
_libvirtd_up() { _virsh version >/dev/null 2>&1; }

# _devnum DEV: MAJOR:MINOR of a block device (the whole disk as given).
_devnum() {
	printf '%d:%d' "0x$(stat -c %t "$1")" "0x$(stat -c %T "$1")"
}

# _mkfs_ext4 DEV [OPTION...]: ext4 with its inode tables and journal written
# now, not later by ext4lazyinit: a kernel thread's writes to the disk would
# count in the device meter (_dev_written, the trace meter) as if the tenant
# had written them.
_mkfs_ext4() {
	local dev=$1
	shift
	mkfs.ext4 -qF -E lazy_itable_init=0,lazy_journal_init=0 "$@" "$dev"
}

# _images_fs DEV DIR: DIR is the L2 images filesystem, ext4 on DEV (made
# by _mkfs_ext4 unless DIR is mounted already, as the hook, migrate and
# nested groups share it within one boot); non-zero, saying why, if DIR is
# mounted from another device.
_images_fs() {
	local src
	mkdir -p "$2"
	if ! mountpoint -q "$2"; then
		if ! { _mkfs_ext4 "$1" && mount "$1" "$2"; }; then
			echo "cannot make ext4 on $1 at $2" >&2
			return 1
		fi
	fi
	src=$(findmnt -no SOURCE "$2")
	[[ $src == "$1" ]] || { echo "$2 is mounted from $src, not $1" >&2; return 1; }
}

# Quoted replacements: bash 5.2 expands an unquoted '&' to the match.
_xml_escape() {
	local s=$1
	s=${s//&/"&amp;"} s=${s//</"&lt;"} s=${s//>/"&gt;"}
	s=${s//\'/"&apos;"} s=${s//\"/"&quot;"}
	printf '%s' "$s"
}

# _units KIND VALUE DEV: VALUE ("512K", "8MiB/s", "10k") of KIND (bandwidth
# or iops) as a number (bytes/s or I/Os per second), read by the hook's own
# parser: blockioctl check on a domain whose vda is DEV with that cap. On a
# value the hook refuses, its message on stderr and non-zero.
_units() {
	local kind=$1 value=$2 dev=$3 json n
	json=$(blockioctl --json check <<XML || true
<domain type='qemu'><name>units</name><uuid>00000000-0000-4000-8000-000000000001</uuid>
<metadata><blockio:limits xmlns:blockio='$BLOCKIO_NSURI'><blockio:disk dev='vda' $kind='$(_xml_escape "$value")'/></blockio:limits></metadata>
<devices><disk type='block' device='disk'><source dev='$dev'/><target dev='vda'/></disk></devices></domain>
XML
	)
	n=$(jq -r --arg k "$kind" '.targets[0].caps[]? | select(.kind == $k) | .limit' <<<"$json" 2>/dev/null)
	if [[ ! $n =~ ^[0-9]+$ ]]; then
		echo "bad $kind '$value': $(jq -r '.error // "blockioctl check gave no cap"' <<<"$json" 2>/dev/null)" >&2
		return 1
	fi
	echo "$n"
}

# _l2_domain_xml KEY=VALUE...: the domain of an L2 guest (TCG, 1 vCPU,
# booting the L2 assets directly, images/l2/init) on stdout. Keys:
#   name=     its name (required)
#   disk=     its disk, virtio vda, raw (required): an image file, or a
#             block device (a <disk type='block'>, as LVM or SAN storage)
#   cache=    the disk's QEMU cache mode (default writeback; none, directsync...)
#   io=       the disk's QEMU aio mode (native, io_uring, threads; default QEMU's)
#   discard=  unmap: the guest's discards reach the disk (default QEMU's: ignored)
#   append=   after "console=ttyS0 no_timer_check panic=-1" on its kernel
#             command line: the workload (blockio.mode=... ...)
#   serial=   file of its serial console (default
#             /var/log/libvirt/qemu/NAME-serial.log)
#   console=1 also a <console> on that file (virsh console, as the examples)
#   uuid=, title=, memory= (MiB, default 256)
#   metadata= XML inside <metadata> (<blockio:limits ...>)
#   blkiotune= XML inside <blkiotune>;  iotune= XML inside the disk's <iotune>
#   acpi=1    <features><acpi/></features>: the guest can power itself off
_l2_domain_xml() {
	local kv
	local -A d=([memory]=256 [console]=0 [acpi]=0 [cache]=writeback)
	for kv in "$@"; do
		[[ $kv == *=* ]] || { echo "_l2_domain_xml: not KEY=VALUE: $kv" >&2; return 1; }
		d[${kv%%=*}]=${kv#*=}
	done
	[[ -n ${d[name]:-} && -n ${d[disk]:-} ]] || { echo "_l2_domain_xml: name= and disk= are required" >&2; return 1; }
	: "${d[serial]:=/var/log/libvirt/qemu/${d[name]}-serial.log}"
	local driver="cache='${d[cache]}'"
	[[ -z ${d[io]:-} ]] || driver+=" io='${d[io]}'"
	[[ -z ${d[discard]:-} ]] || driver+=" discard='${d[discard]}'"
	local disk_type=file source="file='${d[disk]}'"
	[[ ! -b ${d[disk]} ]] || disk_type=block source="dev='${d[disk]}'"
	echo "<domain type='qemu'>"
	echo "  <name>$(_xml_escape "${d[name]}")</name>"
	[[ -z ${d[uuid]:-} ]] || echo "  <uuid>${d[uuid]}</uuid>"
	[[ -z ${d[title]:-} ]] || echo "  <title>$(_xml_escape "${d[title]}")</title>"
	[[ -z ${d[metadata]:-} ]] || echo "  <metadata>${d[metadata]}</metadata>"
	echo "  <memory unit='MiB'>${d[memory]}</memory>"
	[[ -z ${d[blkiotune]:-} ]] || echo "  <blkiotune>${d[blkiotune]}</blkiotune>"
	cat <<XML
  <vcpu>1</vcpu>
  <os>
    <type arch='x86_64' machine='pc'>hvm</type>
    <kernel>$BLOCKIO_L2_DIR/bzImage</kernel>
    <initrd>$BLOCKIO_L2_DIR/initramfs.cpio.gz</initrd>
    <cmdline>console=ttyS0 no_timer_check panic=-1${d[append]:+ ${d[append]}}</cmdline>
  </os>
XML
	((d[acpi])) && echo "  <features><acpi/></features>"
	cat <<XML
  <on_poweroff>destroy</on_poweroff>
  <on_reboot>destroy</on_reboot>
  <on_crash>destroy</on_crash>
  <devices>
    <emulator>/usr/bin/qemu-system-x86_64</emulator>
    <disk type='$disk_type' device='disk'>
      <driver name='qemu' type='raw' $driver/>
      <source $source/>
      <target dev='vda' bus='virtio'/>
XML
	[[ -z ${d[iotune]:-} ]] || echo "      <iotune>${d[iotune]}</iotune>"
	cat <<XML
    </disk>
    <serial type='file'>
      <source path='${d[serial]}'/>
      <target port='0'/>
    </serial>
XML
	if ((d[console])); then
		cat <<XML
    <console type='file'>
      <source path='${d[serial]}'/>
      <target type='serial' port='0'/>
    </console>
XML
	fi
	cat <<XML
    <controller type='usb' model='none'/>
    <memballoon model='none'/>
  </devices>
</domain>
XML
}
