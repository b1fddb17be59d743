# SPDX-License-Identifier: GPL-2.0
# nested-test/run-scenario: the guests' disk images and their extent map.
# All three images are preallocated files on one ext4 on $DEV (mounted at
# $IMAGES); their extents do not move while the guests write, so the trace
# meter (meters.sh, trace.awk) can tell from a request's sector whose image
# it wrote. Uses: DEV IMAGES VMS NEIGHBOUR, say.
# shellcheck shell=bash

# The images filesystem: ext4 on DEV at IMAGES (_images_fs, lib/l1.sh;
# shared with tests/hook and tests/migrate).
setup_images_fs() {
	local err
	err=$(_images_fs "$DEV" "$IMAGES" 2>&1) || { say "$err"; return 1; }
}

# Image sizes: the neighbour twice a capped guest, 1.5 GiB in all at most
# (call before creating any).
declare -A IMAGE_MIB
size_images() {
	local avail total vm
	avail=$(($(df -B1M --output=avail "$IMAGES" | tail -n 1) - 96))
	total=1536
	((avail < total)) && total=$avail
	((total >= 256)) || { say "only $avail MiB free in $IMAGES"; return 1; }
	for vm in "${VMS[@]}"; do
		if [[ $vm == "$NEIGHBOUR" ]]; then IMAGE_MIB[$vm]=$((total / 2)); else IMAGE_MIB[$vm]=$((total / 4)); fi
	done
}

# prepare_images MAP: fresh preallocated images, and MAP with one line per
# extent, "VM FIRST_SECTOR END_SECTOR" (MAP.filefrag keeps filefrag's output).
prepare_images() {
	local map=$1 vm img sectors
	: >"$map.filefrag"
	for vm in "${VMS[@]}"; do rm -f "$IMAGES/$vm.img"; done
	sync
	echo 3 >/proc/sys/vm/drop_caches
	size_images
	: >"$map"
	for vm in "${VMS[@]}"; do
		img=$IMAGES/$vm.img
		fallocate -l "${IMAGE_MIB[$vm]}M" "$img"
		# ext: logical_offset: physical_offset: length: ... in 512-byte units
		filefrag -v -b512 "$img" | tee -a "$map.filefrag" | awk -v vm="$vm" '
			/^ *[0-9]+: *[0-9]+\.\. *[0-9]+: *[0-9]+\.\. *[0-9]+:/ {
				gsub(/\.\./, " "); gsub(/:/, " "); print vm, $4, $5 + 1 }' >>"$map"
		sectors=$(awk -v vm="$vm" '$1 == vm { s += $3 - $2 } END { print s + 0 }' "$map")
		if ((sectors * 512 != $(stat -c %s "$img"))); then
			say "warning: the extents of $img cover $((sectors / 2048)) MiB of $(($(stat -c %s "$img") >> 20)) (see $map.filefrag)"
		fi
	done
	sync
	[[ -s $map ]] || { say "filefrag gave no extents"; return 1; }
}
