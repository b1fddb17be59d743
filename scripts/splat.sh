# SPDX-License-Identifier: GPL-2.0
# What counts as a kernel splat, for scripts/run-tests (the whole L1 boot's
# log) and scripts/run-one-test (each test's share of it); source it.
# shellcheck shell=bash

# An oops, WARN, BUG, KASAN/UBSAN report, lockdep report, hung task or
# panic: an extended regular expression for grep -E.
# shellcheck disable=SC2034 # used by the scripts that source this file
SPLAT_RE='[a-z0-9]+: [0-9a-f]{4} \[#[0-9]+\]|WARNING: CPU:|WARNING: at |BUG:|kernel BUG at|KASAN:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked for more than|Oops:|Kernel panic|general protection fault'
