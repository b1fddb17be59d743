# SPDX-License-Identifier: GPL-2.0
# nested-test/run-scenario: the meters. Every second sample() reads, per VM,
# blockio.stat and blockio.throttlecnt of its blockio cgroup, the bios
# kiothrottled holds for it, the bytes that reached the disk inside its
# image (the block_rq_complete tracepoint through the extent map: trace.awk,
# a meter blockio does not write), its cgroup v2 io.stat and memory.stat,
# its guest's progress line; and L1's /proc/meminfo, the disk's stat and
# the fsync probe. sample.awk appends the sample to the phase's
# samples.jsonl and names the values the shell needs (key=value): they land
# in LAST["VM.KEY"] (LAST["l1.KEY"] for L1's own).
# Uses: DEV DEV_NAME DEV_MAJ DEV_MIN IMAGES QLOG V2 TRACEFS BLOCKIO_MNT VMS
# HERE, vm_uuid vm_scope (domain.sh), say now fmt_secs.
# shellcheck shell=bash

# cgroup v2: io and memory controllers down to the machines' scopes, so
# blkiotune can write io.max there and every VM's io.stat/memory.stat exist.
setup_v2() {
	[[ $(stat -fc %T "$V2" 2>/dev/null) == cgroup2fs ]] || { say "no cgroup v2 at $V2"; return 0; }
	systemctl set-property --runtime machine.slice IOAccounting=yes MemoryAccounting=yes >/dev/null 2>&1 || true
	mkdir -p "$V2/machine.slice"
	echo "+io +memory" >"$V2/cgroup.subtree_control" 2>/dev/null || true
	echo "+io +memory" >"$V2/machine.slice/cgroup.subtree_control" 2>/dev/null || true
	say "cgroup v2: / enables [$(cat "$V2/cgroup.subtree_control")], machine.slice [$(cat "$V2/machine.slice/cgroup.subtree_control" 2>/dev/null)]"
}

# ---- the trace meter ----------------------------------------------------------

# The tracepoint is best switched on at boot (scripts/run-l1 passes
# trace_event=block:block_rq_complete): enabling it here patches kernel text
# while guests run, and record-cmd would switch the sched_switch and
# sched_wakeup tracepoints with it (see scripts/run-l1). Then only the ring
# buffer and the filter change here.
TRACER_PID="" TRACE_ENABLED_HERE=0
trace_start() { # MAP STATE
	local ev=$TRACEFS/events/block/block_rq_complete
	[[ -e $ev/enable ]] || mount -t tracefs nodev "$TRACEFS" 2>/dev/null || true
	[[ -e $ev/enable ]] || { say "no block_rq_complete tracepoint: trace meter off"; return 0; }
	command -v gawk >/dev/null || { say "no gawk: trace meter off"; return 0; }
	echo 0 >"$TRACEFS/tracing_on"
	echo 4096 >"$TRACEFS/buffer_size_kb"
	: >"$TRACEFS/trace"
	echo "dev == $(((DEV_MAJ << 20) | DEV_MIN))" >"$ev/filter"
	if [[ $(cat "$ev/enable") != 1 ]]; then
		say "block_rq_complete was not enabled at boot: enabling it now"
		echo 0 >"$TRACEFS/options/record-cmd"
		echo 1 >"$ev/enable"
		TRACE_ENABLED_HERE=1
	fi
	echo 1 >"$TRACEFS/tracing_on"
	gawk -v pipe="$TRACEFS/trace_pipe" -v map="$1" -v state="$2" -f "$HERE/trace.awk" &
	TRACER_PID=$!
}

trace_stop() {
	local ev=$TRACEFS/events/block/block_rq_complete
	[[ -e $TRACEFS/tracing_on ]] && echo 0 >"$TRACEFS/tracing_on"
	if ((TRACE_ENABLED_HERE)); then
		echo 0 >"$ev/enable"
		TRACE_ENABLED_HERE=0
	fi
	[[ -e $ev/filter ]] && echo 0 >"$ev/filter"
	if [[ -n $TRACER_PID ]]; then
		sleep 0.5 # let it flush the last events
		kill "$TRACER_PID" 2>/dev/null || true
		wait "$TRACER_PID" 2>/dev/null || true
		TRACER_PID=""
	fi
}

# ---- the fsync probe ------------------------------------------------------------

# Every second: write 4 KiB + fdatasync to a file on the images filesystem,
# log "T MS" (T seconds since T0).
PROBE_PID=""
probe_start() { # LOG T0_US
	(
		set +e
		local pa pb
		while :; do
			pa=${EPOCHREALTIME/./}
			dd if=/dev/zero of="$IMAGES/nested-probe" bs=4k count=1 oflag=dsync conv=notrunc status=none
			pb=${EPOCHREALTIME/./}
			echo "$(((pa - $2) / 1000)) $(((pb - pa) / 1000))" >>"$1"
			((pb - pa < 1000000)) && sleep "0.$(printf '%06d' $((1000000 - (pb - pa))))"
		done
	) 2>/dev/null &
	PROBE_PID=$!
}

probe_stop() {
	[[ -z $PROBE_PID ]] && return 0
	kill "$PROBE_PID" 2>/dev/null || true
	wait "$PROBE_PID" 2>/dev/null || true
	PROBE_PID=""
}

# ---- one sample -------------------------------------------------------------------

# LAST["VM.KEY"]: the last sample's values, as sample.awk names them:
# booted done (0/1), disp_bytes disp_ios (blockio.stat minus held),
# trace_bytes trace_reqs, guest_bytes guest_ops, dirty (memcg dirty +
# writeback bytes), held (bytes kiothrottled holds), fsync_ms; -1 where a
# meter is missing. LAST["l1.dirty_kib"]: L1's Dirty + Writeback.
declare -A LAST SCOPE
SAMPLE_US=0

# sample BOOTDIR PHASEDIR T0_US: one sample; fills LAST.
sample() {
	local bdir=$1 pdir=$2 t0=$3 tus vm uuid kv who args=() vmspec=() fields=()
	tus=$(now)
	for vm in "${VMS[@]}"; do
		vm_uuid "$vm" >/dev/null # fills UUID_CACHE: no subshell every second
		uuid=${UUID_CACHE[$vm]}
		if [[ -z ${SCOPE[$vm]:-} ]]; then SCOPE[$vm]=$(vm_scope "$vm" || true); fi
		if [[ -d $BLOCKIO_MNT/machine/$uuid ]]; then
			vmspec+=("$vm=/machine/$uuid")
			args+=("vm=$vm" k=bstat "$BLOCKIO_MNT/machine/$uuid/blockio.stat"
				k=bthr "$BLOCKIO_MNT/machine/$uuid/blockio.throttlecnt")
		else
			vmspec+=("$vm=-")
			args+=("vm=$vm")
		fi
		if [[ -n ${SCOPE[$vm]} && -r ${SCOPE[$vm]}/io.stat ]]; then
			args+=(k=iostat "${SCOPE[$vm]}/io.stat")
		fi
		if [[ -n ${SCOPE[$vm]} && -r ${SCOPE[$vm]}/memory.stat ]]; then
			args+=(k=memstat "${SCOPE[$vm]}/memory.stat")
		fi
		[[ -r $QLOG/$vm-console.log ]] && args+=(k=serial "$QLOG/$vm-console.log")
	done
	args+=(k=meminfo /proc/meminfo k=dev "/sys/block/$DEV_NAME/stat")
	[[ -r /proc/kiothrottled_debug ]] && args+=(k=kiot /proc/kiothrottled_debug)
	[[ -s $bdir/trace.state ]] && args+=(k=trace "$bdir/trace.state")
	[[ -r $V2/system.slice/io.stat ]] && args+=(k=sysio "$V2/system.slice/io.stat")
	[[ -s $bdir/probe.log ]] && args+=(k=probe "$bdir/probe.log")
	while read -r -a fields; do
		who=l1
		for kv in "${fields[@]}"; do [[ $kv != vm=* ]] || who=${kv#vm=}; done
		for kv in "${fields[@]}"; do LAST[$who.${kv%%=*}]=${kv#*=}; done
	done < <(gawk -v t="$(fmt_secs $((tus - t0)))" -v out="$pdir/samples.jsonl" \
		-v maj="$DEV_MAJ" -v min="$DEV_MIN" -v vms="${vmspec[*]}" \
		-f "$HERE/sample.awk" "${args[@]}" 2>>"$bdir/sample.err")
	# shellcheck disable=SC2034 # the live table's clock (phase.sh)
	SAMPLE_US=$tus
}

# vm_writing WORKLOAD VM: has the guest's data reached L1 (on the disk, or
# more than 256 KiB dirty in its memory cgroup: QEMU's own console log is
# charged there too)? The steady window is counted from then, not from the
# guest's boot: its first writes take 10-30 s to come through.
vm_writing() {
	if [[ $1 == seq ]]; then
		((${LAST[$2.disp_bytes]} > 0 || ${LAST[$2.trace_bytes]} > 0 || ${LAST[$2.dirty]} > 262144))
	else
		((${LAST[$2.disp_ios]} > 0 || ${LAST[$2.trace_reqs]} > 0 || ${LAST[$2.dirty]} > 262144))
	fi
}

# Per-pass fsync latency of each guest from its console log: {VM: [[t, ms], ...]}
guest_fsyncs() { # BOOTDIR
	local vm
	for vm in "${VMS[@]}"; do
		awk -v vm="$vm" '
			/BLOCKIO-L2-PROGRESS / {
				sub(/\r$/, ""); t = ""; b = ""; ms = ""
				for (i = 2; i <= NF; i++) {
					split($i, kv, "=")
					if (kv[1] == "t") t = kv[2]; else if (kv[1] == "bytes") b = kv[2]; else if (kv[1] == "fsync_ms") ms = kv[2]
				}
				if (ms == "") next
				# after a pass the guest prints one line per second that
				# passed since its last line, all with that pass'"'"'s bytes and
				# fsync time: the pass ended at the last of them
				if (b != last && last != "") out = out sprintf("%s[%s,%s]", n++ ? "," : "", pt, pms)
				last = b; pt = t; pms = ms
			}
			END {
				if (last != "") out = out sprintf("%s[%s,%s]", n++ ? "," : "", pt, pms)
				printf "{\"%s\":[%s]}\n", vm, out
			}' "$1/$vm-console.log" 2>/dev/null || echo "{\"$vm\":[]}"
	done | jq -s 'add'
}
