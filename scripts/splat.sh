# SPDX-License-Identifier: GPL-2.0
# What counts as a kernel splat, for scripts/run-tests (the whole L1 boot's
# log), scripts/run-one-test (each test's share of it) and the tests that
# check their own share (tests/common/kmsg.rc's _no_splat); source it.
# shellcheck shell=bash

# An oops, WARN, BUG, KASAN/UBSAN report, lockdep report, hung task, RCU
# stall, lockup or panic: an extended regular expression for grep -E.
# shellcheck disable=SC2034 # used by the scripts that source this file
SPLAT_RE='[a-z0-9]+: [0-9a-f]{4} \[#[0-9]+\]|WARNING: CPU:|WARNING: at |BUG:|kernel BUG at|KASAN:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked for more than|INFO: rcu_[a-z]+ (self-)?detected (expedited )?stall|hard LOCKUP|Oops:|Kernel panic|general protection fault'

# Any other stack dump or warning the kernel printed (an allocation failure,
# an OOM report, an "irq N: nobody cared", a lockdep WARNING SPLAT_RE does not
# name): not a splat of the whole boot, but the tests that squeeze the host
# on purpose count it (_no_splat).
# shellcheck disable=SC2034
STACK_RE='Call Trace|WARNING:|INFO: task|page allocation failure'

# kmsg_since MARK: the kernel log after the line that contains MARK.
kmsg_since() {
	dmesg 2>/dev/null | awk -v m="$1" 'index($0, m) { on = 1; next } on'
}

# splat_context RE: from a kernel log on stdin, each line matching RE with
# the three lines before it (a stack dump's header: what failed, CPU,
# hardware) and the four after it (its first frames); at most 40 lines.
splat_context() {
	# the expression from the environment: awk -v would take its
	# backslashes as escapes
	SPLAT_CONTEXT_RE=$1 awk -v last=-1 '
		BEGIN { re = ENVIRON["SPLAT_CONTEXT_RE"] }
		$0 ~ re {
			for (i = n - 3; i < n; i++) if (i >= 0 && i > last) print h[i % 4]
			print; last = n; after = 4
		}
		!($0 ~ re) && after > 0 { print; last = n; after-- }
		{ h[n % 4] = $0; n++ }
	' | head -n 40
}
