# SPDX-License-Identifier: GPL-2.0
# nested-test/run-scenario -l: the live table, one line per sample, from the
# last sample's values (LAST, meters.sh). Uses: VMS CAPPED NEIGHBOUR BW_CAP
# IOPS_CAP.
# shellcheck shell=bash

# live_header WORKLOAD METHOD
live_header() {
	local unit=MiB/s vm cap
	[[ $1 == rand ]] && unit=IOPS
	echo
	echo "== $1 writes, caps by $2, at the L1 disk in $unit: 10s = the last 10 s, avg = since its writes began"
	echo "   (ratio = avg / cap); held: MiB of bios kiothrottled holds; dirty: MiB of the VM's dirty+writeback page cache in L1"
	LIVE0=()
	printf '%5s' "t"
	for vm in "${CAPPED[@]}"; do
		if [[ $1 == seq ]]; then cap=$(awk -v c="${BW_CAP[$vm]}" 'BEGIN { printf "%.2f MiB/s", c / 1048576 }')
		else cap="${IOPS_CAP[$vm]} IOPS"; fi
		[[ $2 == none ]] && cap="none"
		printf ' | %-33s' "${vm#nested-} (cap $cap)"
	done
	printf ' | %-17s | %s\n' "neighbour" "L1 dirty"
	printf '%5s' "s"
	for vm in "${CAPPED[@]}"; do printf ' | %6s %6s %5s %6s %6s' 10s avg ratio held dirty; done
	printf ' | %8s %8s | %s\n' 10s fsync "MiB"
}

declare -A HIST  # VM -> "t_us:count ..." (the last 11 samples)
declare -A LIVE0 # VM -> "t_us:count" when its writes began reaching the disk
# live_line WORKLOAD T_US ELAPSED: one table line from the last sample (LAST).
# Writeback reaches the disk in bios of up to 1-2 MiB: at 0.5 MiB/s a 10 s
# rate still moves by a bio either way; the average since the writes began
# is what converges on the cap.
live_line() {
	local w=$1 tus=$2 vm count h first spec="" rate avg cap arr
	for vm in "${VMS[@]}"; do
		# the disk meter (block_rq_complete in its image), else blockio's
		if [[ $w == seq ]]; then count=${LAST[$vm.trace_bytes]}; ((count >= 0)) || count=${LAST[$vm.disp_bytes]}
		else count=${LAST[$vm.trace_reqs]}; ((count >= 0)) || count=${LAST[$vm.disp_ios]}; fi
		read -r -a arr <<<"${HIST[$vm]:-} $tus:$count"
		((${#arr[@]} > 11)) && arr=("${arr[@]: -11}")
		HIST[$vm]=${arr[*]}
		first=${arr[0]} rate=-1 avg=-1
		if ((${first%%:*} < tus && ${first#*:} >= 0 && count >= 0)); then
			rate=$(((count - ${first#*:}) * 1000000 / (tus - ${first%%:*})))
		fi
		if [[ -z ${LIVE0[$vm]:-} ]]; then
			((count > 0)) && LIVE0[$vm]=$tus:$count
		else
			first=${LIVE0[$vm]}
			((tus - ${first%%:*} >= 5000000)) &&
				avg=$(((count - ${first#*:}) * 1000000 / (tus - ${first%%:*})))
		fi
		if [[ $w == seq ]]; then cap=${BW_CAP[$vm]:-0}; else cap=${IOPS_CAP[$vm]:-0}; fi
		h=0
		[[ $vm == "$NEIGHBOUR" ]] && h=1
		spec+=" ${LAST[$vm.booted]}:$h:$rate:$cap:${LAST[$vm.held]}:${LAST[$vm.dirty]}:${LAST[$vm.fsync_ms]}:$avg"
	done
	awk -v el="$3" -v w="$w" -v spec="$spec" -v l1="${LAST[l1.dirty_kib]}" 'BEGIN {
		d = (w == "seq") ? 1048576 : 1
		fmt = (w == "seq") ? "%.2f" : "%.1f"
		line = sprintf("%5d", el)
		n = split(spec, vms, " ")
		for (i = 1; i <= n; i++) {
			split(vms[i], f, ":") # booted neighbour rate cap held dirty fsync avg
			if (f[1] != 1) { line = line sprintf(f[2] ? " | %17s" : " | %33s", "booting"); continue }
			rs = (f[3] < 0) ? "-" : sprintf(fmt, f[3] / d)
			as = (f[8] < 0) ? "-" : sprintf(fmt, f[8] / d)
			if (f[2]) { line = line sprintf(" | %8s %8s", rs, (f[7] < 0) ? "-" : sprintf("%.0fms", f[7])); continue }
			line = line sprintf(" | %6s %6s %5s %6s %6s", rs, as, (f[8] < 0 || f[4] <= 0) ? "-" : sprintf("%.2f", f[8] / f[4]),
				(f[5] < 0) ? "-" : sprintf("%.1f", f[5] / 1048576), (f[6] < 0) ? "-" : sprintf("%.1f", f[6] / 1048576))
		}
		printf "%s | %.0f\n", line, l1 / 1024 }'
}
