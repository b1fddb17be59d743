# SPDX-License-Identifier: GPL-2.0
# nested-test/run-scenario: one boot of the three guests and its phases.
# run_boot boots the guests with the first method's caps (boot_guests);
# each method is then one phase: its caps switched live onto the running
# guests (switch_method, -S only), one steady window measured (measure),
# the guests torn down after the last (tear_down), the phase's verdicts
# written (write_phase: phase.json through analyze.jq, then samples.json).
# Uses: out warmup window boot_timeout live tol_lo tol_hi VMS QLOG QRUN HERE
# PHASE_FILES PHASE_ERRORS (main), and images.sh domain.sh meters.sh table.sh.
# shellcheck shell=bash

# The boot under way: BOOT[group] (WORKLOAD-FIRST_METHOD) and BOOT[dir]
# (its directory: the guests' XML and logs, the extent map, the trace
# state); BOOT[t0] (µs); BOOT[status] (ok or error) and BOOT[reason];
# BOOT[stop_at] (s since t0: the end of this phase's window), BOOT[seg_start]
# (when a live switch began this phase), BOOT[sync_s] (the sync after the
# guests were destroyed, s, or null). BOOT_T, START_T: VM -> s since t0
# when it booted, when its writes began reaching L1.
declare -A BOOT BOOT_T START_T

# guest_panicked: the L2 guest whose own kernel panicked in this boot (its
# console says so), if any. TCG inside TCG: seen at boot and after a
# migration, in the L2's kernel, not L1's.
guest_panicked() {
	local vm
	for vm in "${VMS[@]}"; do
		grep -qs 'Kernel panic' "$QLOG/$vm-console.log" && { echo "$vm"; return 0; }
	done
	return 1
}

# run_boot WORKLOAD METHOD...: boot the three guests with the first
# method's caps, measure a window, then for each further method switch the
# caps live and measure another (after a warm-up). One phase (and one
# phase.json) per method; the first phase's directory keeps the boot's logs.
# A first window lost to an L2 guest's own kernel panic boots the guests
# once more (said on stderr, the panicked console kept beside the others).
run_boot() {
	local w=$1 first=$2 i m vm retried=0
	shift
	local -a list=("$@")
	for m in "${list[@]}"; do rm -rf "${OUT:?}/$w-$m"; done
	boot_guests "$w" "$first" || return 0
	for i in "${!list[@]}"; do
		m=${list[$i]}
		mkdir -p "$OUT/$w-$m"
		: >"$OUT/$w-$m/samples.jsonl"
		BOOT[stop_at]=0 BOOT[sync_s]=null
		if ((i > 0)) && [[ ${BOOT[status]} == ok ]]; then
			switch_method "$w" "${list[$((i - 1))]}" "$m"
		fi
		measure "$w" "$m"
		if ((i == 0 && !retried)) && [[ ${BOOT[status]} != ok ]] && vm=$(guest_panicked); then
			say "phase $w-$m: ${BOOT[reason]}; $vm's own kernel panicked (TCG inside TCG): booting the guests once more"
			cp "$QLOG/$vm-console.log" "${BOOT[dir]}/$vm-console.panic.log" 2>/dev/null || true
			retried=1
			tear_down
			boot_guests "$w" "$first" || return 0
			: >"$OUT/$w-$m/samples.jsonl"
			BOOT[stop_at]=0 BOOT[sync_s]=null
			measure "$w" "$m"
		fi
		[[ ${BOOT[status]} == ok ]] || say "phase $w-$m: ${BOOT[reason]}"
		if ((i == ${#list[@]} - 1)) || [[ ${BOOT[status]} != ok ]]; then
			tear_down
		else
			save_consoles
		fi
		write_phase "$w" "$m" "$i"
	done
	return 0
}

# boot_guests WORKLOAD METHOD: fresh images, the three domains defined with
# METHOD's caps and started together, the meters on. Non-zero (and a phase
# error) when libvirt refuses a domain.
boot_guests() {
	local w=$1 first=$2 dir=$OUT/$1-$2 vm
	local -A starter=()
	BOOT=([group]=$w-$first [dir]=$dir [status]=ok [reason]="" [stop_at]=0 [seg_start]=0 [boot_last]=0 [sync_s]=null)
	# shellcheck disable=SC2034 # SCOPE: meters.sh, HIST: table.sh
	BOOT_T=() START_T=() SCOPE=() HIST=() LAST=()
	mkdir -p "$dir"
	say "phase $w-$first: preparing"
	destroy_all
	prepare_images "$dir/extents.map"
	for vm in "${VMS[@]}"; do
		domain_xml "$vm" "$first" "$w" >"$dir/$vm.xml"
		rm -f "$QLOG/$vm-console.log"
		if ! _virsh define "$dir/$vm.xml" >"$dir/define.log" 2>&1; then
			say "phase $w-$first: virsh define $vm failed: $(cat "$dir/define.log")"
			PHASE_ERRORS+=("$w-$first: define $vm failed")
			return 1
		fi
	done
	for vm in "${VMS[@]}"; do LAST[$vm.booted]=0; done
	BOOT[t0]=$(now)
	trace_start "$dir/extents.map" "$dir/trace.state"
	probe_start "$dir/probe.log" "${BOOT[t0]}"
	# all at once: a QEMU takes seconds to start under TCG
	for vm in "${VMS[@]}"; do
		_virsh start "$vm" >"$dir/start-$vm.log" 2>&1 &
		starter[$vm]=$!
	done
	for vm in "${VMS[@]}"; do
		if ! wait "${starter[$vm]}"; then
			BOOT[status]=error BOOT[reason]="virsh start $vm: $(tr '\n' ' ' <"$dir/start-$vm.log")"
			say "phase $w-$first: ${BOOT[reason]}"
		fi
	done
	say "phase $w-$first: guests started; waiting for them to boot, then ${WARMUP} s warm-up and a ${WINDOW} s window"
}

# switch_method WORKLOAD FROM TO: the running guests' caps from FROM's to
# TO's; this phase's window starts a warm-up after.
switch_method() {
	local w=$1 from=$2 to=$3 pdir=$OUT/$1-$3 el f0 f1
	if set_caps_live "$w" "$from" "$to" >"$pdir/switch.log" 2>&1; then
		# what the previous method left dirty in L1 goes to disk now,
		# not in this method's window
		f0=$(now)
		sync
		f1=$(now)
		# the trace meter reads trace_pipe a little behind: let it
		# count the sync's writes before this method's window starts
		sleep 2
		el=$((($(now) - BOOT[t0]) / 1000000))
		BOOT[seg_start]=$el BOOT[stop_at]=$((el + WARMUP + WINDOW + 1))
		say "phase $w-$to: caps switched live at $el s (same guests as ${BOOT[group]}; a sync wrote out what $w-$from left dirty in $(fmt_secs $((f1 - f0))) s)"
	else
		BOOT[status]=error BOOT[reason]="switching the caps to $to failed: $(tr '\n' ' ' <"$pdir/switch.log")"
	fi
}

# measure WORKLOAD METHOD: a sample every second until the window ends
# (WARMUP + WINDOW s after the last guest's writes reached L1, or after the
# live switch), a guest stops, or they have not all booted and written
# within BOOT_TIMEOUT s.
measure() {
	local w=$1 name=$1-$2 pdir=$OUT/$1-$2 bdir=${BOOT[dir]} t0=${BOOT[t0]} el vm left
	((LIVE)) && [[ ${BOOT[status]} == ok ]] && live_header "$w" "$2"
	while [[ ${BOOT[status]} == ok ]]; do
		el=$((($(now) - t0) / 1000000))
		sample "$bdir" "$pdir" "$t0"
		for vm in "${VMS[@]}"; do
			if [[ ${LAST[$vm.booted]} == 1 && -z ${BOOT_T[$vm]:-} ]]; then
				BOOT_T[$vm]=$el
				((LIVE)) || say "phase $name: $vm booted after $el s"
			fi
			if [[ -n ${BOOT_T[$vm]:-} && -z ${START_T[$vm]:-} ]] && vm_writing "$w" "$vm"; then
				START_T[$vm]=$el
				((LIVE)) || say "phase $name: $vm writing to L1 after $el s"
			fi
		done
		# while they boot, a line every 10 s is enough
		if ((LIVE)) && { ((${#BOOT_T[@]} > 0 || el % 10 == 0)); }; then
			live_line "$w" "$SAMPLE_US" "$el"
		fi
		if ((${#START_T[@]} == ${#VMS[@]})); then
			if ((BOOT[stop_at] == 0)); then
				for vm in "${VMS[@]}"; do
					((START_T[$vm] > BOOT[boot_last])) && BOOT[boot_last]=${START_T[$vm]}
				done
				BOOT[stop_at]=$((BOOT[boot_last] + WARMUP + WINDOW + 1))
			fi
			((el >= BOOT[stop_at])) && break
		elif ((el >= BOOT_TIMEOUT)); then
			BOOT[status]=error BOOT[reason]="not all guests booted and wrote within $BOOT_TIMEOUT s"
			break
		fi
		for vm in "${VMS[@]}"; do
			if [[ ${LAST[$vm.done]:-0} == 1 || ! -e $QRUN/$vm.pid ]]; then
				BOOT[status]=error BOOT[reason]="$vm stopped before the window ended (see $bdir/$vm-console.log)"
			fi
		done
		# next whole second after t0
		left=$((1000000 - ($(now) - t0) % 1000000))
		sleep "$(printf '0.%06d' "$left")"
	done
	return 0
}

save_consoles() {
	local vm
	for vm in "${VMS[@]}"; do cp "$QLOG/$vm-console.log" "${BOOT[dir]}/$vm-console.log" 2>/dev/null || true; done
}

# tear_down: the guests destroyed, meters off, the page cache written out
# (its time in BOOT[sync_s]), the domains undefined, their logs kept.
tear_down() {
	local vm s0 s1
	save_consoles
	for vm in "${VMS[@]}"; do _virsh destroy "$vm" >/dev/null 2>&1 || true; done
	trace_stop
	probe_stop
	s0=$(now)
	sync
	s1=$(now)
	BOOT[sync_s]=$(fmt_secs $((s1 - s0)))
	destroy_all
	for vm in "${VMS[@]}"; do cp "/var/log/libvirt/qemu/$vm.log" "${BOOT[dir]}/$vm-qemu.log" 2>/dev/null || true; done
}

# write_phase WORKLOAD METHOD INDEX: the phase object (what ran, the
# samples, the verdicts of analyze.jq) in its phase.json, its verdict lines
# on stdout and in summary.txt, and samples.json rewritten.
write_phase() {
	local w=$1 m=$2 i=$3 name=$1-$2 pdir=$OUT/$1-$2 bdir=${BOOT[dir]} vm starts boots
	boots=$(for vm in "${!BOOT_T[@]}"; do echo "{\"$vm\": ${BOOT_T[$vm]}}"; done | jq -s 'add // {}')
	if ((i == 0)); then starts=$(for vm in "${!START_T[@]}"; do echo "{\"$vm\": ${START_T[$vm]}}"; done | jq -s 'add // {}')
	else starts=$(for vm in "${!START_T[@]}"; do echo "{\"$vm\": ${BOOT[seg_start]}}"; done | jq -s 'add // {}'); fi
	jq -n --arg name "$name" --arg method "$m" --arg workload "$w" --arg status "${BOOT[status]}" --arg reason "${BOOT[reason]}" \
		--arg boot_group "${BOOT[group]}" --argjson live_switch "$( ((i > 0)) && echo true || echo false)" \
		--argjson t0 "$(fmt_secs "${BOOT[t0]}")" --argjson sync_s "${BOOT[sync_s]}" \
		--argjson warmup "$WARMUP" --argjson window "$WINDOW" \
		--argjson lo "$TOL_LO" --argjson hi "$TOL_HI" \
		--argjson boot "$boots" --argjson start "$starts" \
		--argjson vms "$(vms_json "$w" "$m")" \
		--slurpfile samples <(jq -c -R 'fromjson? // empty' "$pdir/samples.jsonl") \
		--argjson probe "$(awk '{ printf "%s[%s,%s]", (NR > 1 ? "," : "["), $1 / 1000, $2 } END { print NR ? "]" : "[]" }' "$bdir/probe.log" 2>/dev/null || echo '[]')" \
		--argjson fsyncs "$(guest_fsyncs "$bdir")" \
		'{name: $name, method: $method, workload: $workload, status: $status, reason: $reason,
		  boot_group: $boot_group, live_switch: $live_switch,
		  t0: $t0, sync_after_s: $sync_s, warmup: $warmup, window: $window, tolerance: [$lo, $hi],
		  boot_s: $boot, start_s: $start, vms: $vms, probe_ms: $probe, guest_fsync_ms: $fsyncs, samples: $samples}' |
		jq -L "$HERE" -f "$HERE/analyze.jq" >"$pdir/phase.json"
	PHASE_FILES+=("$pdir/phase.json")
	jq -r '.result.lines[]' "$pdir/phase.json" | tee -a "$OUT/summary.txt"
	write_samples
}

# write_samples: every phase so far in one file, samples.json (rewritten
# after each phase). Uses started ARGS DEV DEV_MAJ DEV_MIN HAVE_BLOCKIO HAVE_HOOK.
write_samples() {
	jq -n --arg started "$STARTED" --arg kernel "$(uname -r)" --arg build "$(cat /etc/blockio-build 2>/dev/null || echo unknown)" \
		--arg dev "$DEV" --arg devnum "$DEV_MAJ:$DEV_MIN" --argjson have_blockio "$HAVE_BLOCKIO" --argjson have_hook "$HAVE_HOOK" \
		--arg cmd "run-scenario $ARGS" --argjson errors "$(printf '%s\n' "${PHASE_ERRORS[@]}" | jq -R . | jq -s 'map(select(. != ""))')" \
		--slurpfile phases <(cat "${PHASE_FILES[@]}" /dev/null) \
		'{format: "blockio-nested-samples/1", started: $started, kernel: $kernel, build: $build, device: $dev,
		  devnum: $devnum, blockio: $have_blockio, hook: $have_hook, command: $cmd, errors: $errors, phases: $phases}' \
		>"$OUT/samples.json.tmp"
	mv "$OUT/samples.json.tmp" "$OUT/samples.json"
}
