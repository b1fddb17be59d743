# SPDX-License-Identifier: GPL-2.0
# nested-test/run-scenario: the guests as libvirt domains. Each is the L2
# domain of lib/l1.sh (_l2_domain_xml, the one generator the tests use too)
# with the name and UUID of its example in vm-definitions/ (nested-*.xml),
# the phase's workload on its kernel command line and the method's caps.
# Uses: VMS CAPPED NEIGHBOUR VMDEFS IMAGES QLOG QRUN V2 DEV BW_CAP IOPS_CAP
# DISK_CACHE DISK_IO (per VM), DEPTH, IMAGE_MIB (images.sh), _virsh.
# shellcheck shell=bash

declare -A UUID_CACHE
# vm_uuid VM: the UUID of vm-definitions/VM.xml.
vm_uuid() {
	[[ -n ${UUID_CACHE[$1]:-} ]] ||
		UUID_CACHE[$1]=$(sed -n 's|.*<uuid>\(.*\)</uuid>.*|\1|p' "$VMDEFS/$1.xml" | head -n 1)
	echo "${UUID_CACHE[$1]}"
}

# vm_cap WORKLOAD VM: its cap, bytes/s (seq) or IOPS (rand); "" for the neighbour.
vm_cap() {
	[[ $2 != "$NEIGHBOUR" ]] || return 0
	if [[ $1 == seq ]]; then echo "${BW_CAP[$2]}"; else echo "${IOPS_CAP[$2]}"; fi
}

# domain_xml VM METHOD WORKLOAD: print the domain.
domain_xml() {
	local vm=$1 method=$2 workload=$3 cap append mib
	local -a caps=()
	cap=$(vm_cap "$workload" "$vm")
	if [[ -n $cap ]]; then
		case $method/$workload in
		blockio/seq) caps=(metadata="<blockio:limits xmlns:blockio='$BLOCKIO_NSURI'><blockio:disk dev='vda' bandwidth='$cap'/></blockio:limits>") ;;
		blockio/rand) caps=(metadata="<blockio:limits xmlns:blockio='$BLOCKIO_NSURI'><blockio:disk dev='vda' iops='$cap'/></blockio:limits>") ;;
		blkiotune/seq) caps=(blkiotune="<device><path>$DEV</path><write_bytes_sec>$cap</write_bytes_sec></device>") ;;
		blkiotune/rand) caps=(blkiotune="<device><path>$DEV</path><write_iops_sec>$cap</write_iops_sec></device>") ;;
		iotune/seq) caps=(iotune="<write_bytes_sec>$cap</write_bytes_sec>") ;;
		iotune/rand) caps=(iotune="<write_iops_sec>$cap</write_iops_sec>") ;;
		esac
	fi
	# The guests run until the phase destroys them. A capped guest streams
	# one pass longer than any phase (no fsync in the window, no drained
	# pipeline to refill); the neighbour syncs every 16 MiB so that its
	# fsync latency can be reported.
	append=quiet
	if [[ $workload == seq && $vm == "$NEIGHBOUR" ]]; then
		append+=" blockio.mode=loop blockio.size=16M blockio.bs=1M"
	elif [[ $workload == seq ]]; then
		mib=${IMAGE_MIB[$vm]}
		append+=" blockio.mode=loop blockio.size=$((mib * 3 / 4))M blockio.bs=1M"
		((DEPTH == 0)) || append+=" blockio.direct=1 blockio.threads=$DEPTH"
	else
		append+=" blockio.mode=rand blockio.direct=1"
	fi
	append+=" blockio.duration=3600"
	_l2_domain_xml name="$vm" uuid="$(vm_uuid "$vm")" title="blockio nested scenario: $vm ($workload, caps by $method)" \
		memory=128 disk="$IMAGES/$vm.img" cache="${DISK_CACHE[$vm]}" ${DISK_IO[$vm]:+io="${DISK_IO[$vm]}"} \
		serial="$QLOG/$vm-console.log" console=1 \
		append="$append" "${caps[@]}"
}

# The VM's cgroup v2 scope (machine-qemu...scope), from its QEMU's cgroup.
vm_scope() {
	local pid path
	pid=$(tr -d '[:space:]' <"$QRUN/$1.pid" 2>/dev/null) || return 1
	path=$(awk -F: '$1 == "0" { print $3 }' "/proc/$pid/cgroup" 2>/dev/null) || return 1
	[[ $path == *.scope* ]] || return 1
	echo "$V2${path%%.scope*}.scope"
}

destroy_all() {
	local vm
	for vm in "${VMS[@]}"; do
		_virsh destroy "$vm" >/dev/null 2>&1 || true
		_virsh undefine "$vm" >/dev/null 2>&1 || true
	done
}

# set_caps_live WORKLOAD FROM TO: move the running capped guests from one
# method's caps to another's (-S). blockio can only come first: its cgroup
# is made by the hook when the guest starts.
set_caps_live() {
	local w=$1 from=$2 to=$3 vm cap cg
	for vm in "${CAPPED[@]}"; do
		cap=$(vm_cap "$w" "$vm")
		case $from in
		blockio)
			cg=$BLOCKIO_MNT/machine/$(vm_uuid "$vm")
			echo "$DEV:0" >"$cg/blockio.bandwidth-max" 2>/dev/null || true
			echo "$DEV:0" >"$cg/blockio.iops-max" 2>/dev/null || true
			;;
		iotune) _virsh blkdeviotune "$vm" vda --live --write-bytes-sec 0 --write-iops-sec 0 ;;
		blkiotune) _virsh blkiotune "$vm" --live --device-write-bytes-sec "$DEV,0" --device-write-iops-sec "$DEV,0" ;;
		esac
		case $to/$w in
		iotune/seq) _virsh blkdeviotune "$vm" vda --live --write-bytes-sec "$cap" ;;
		iotune/rand) _virsh blkdeviotune "$vm" vda --live --write-iops-sec "$cap" ;;
		blkiotune/seq) _virsh blkiotune "$vm" --live --device-write-bytes-sec "$DEV,$cap" ;;
		blkiotune/rand) _virsh blkiotune "$vm" --live --device-write-iops-sec "$DEV,$cap" ;;
		blockio/*) say "blockio can only be the first method of a shared boot"; return 1 ;;
		esac
	done
}

# vms_json WORKLOAD METHOD: the VMs of a phase, their roles and caps.
vms_json() {
	local vm role cap unit
	for vm in "${VMS[@]}"; do
		role=capped cap=null unit=bytes_per_s
		[[ $1 == rand ]] && unit=iops
		if [[ $vm == "$NEIGHBOUR" ]]; then role=neighbour; else cap=$(vm_cap "$1" "$vm"); fi
		jq -n --arg n "$vm" --arg u "$(vm_uuid "$vm")" --arg role "$role" --argjson cap "$cap" \
			--arg unit "$unit" --arg capped_by "$([[ $role == capped && $2 != none ]] && echo "$2" || echo none)" \
			'{name: $n, uuid: $u, role: $role, cap: $cap, cap_unit: $unit, capped_by: $capped_by}'
	done | jq -s '.'
}
