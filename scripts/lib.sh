# SPDX-License-Identifier: GPL-2.0
# Shared shell helpers for scripts/*; source it, do not run it.
# shellcheck shell=bash

# shellcheck disable=SC2034 # used by the scripts that source this file
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck disable=SC2034
BUILD=${BLOCKIO_BUILD:-$REPO/build}

log() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# test_meta FILE KEY: the value of a test file's KEY= line (DESCRIPTION,
# TIMEOUT), read without running the file: a value in double quotes
# may hold single quotes and the other way round; a bare value is one word.
test_meta() {
	sed -n -E -e "s/^$2=\"(.*)\"[[:space:]]*$/\\1/p" -e "s/^$2='(.*)'[[:space:]]*$/\\1/p" \
		-e "s/^$2=([^\"'[:space:]]*)[[:space:]]*$/\\1/p" "$1" | head -n 1
}

# ccache shared by every clone on this machine: a fresh clone in another
# directory still hits because paths are made relative to the clone.
setup_ccache() {
	export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
	export CCACHE_BASEDIR=$REPO
	export CCACHE_NOHASHDIR=1
	mkdir -p "$CCACHE_DIR"
	ccache --max-size=5G >/dev/null
}

# Kernel make variables shared by the L1 and L2 builds. Host tools are built
# without ccache: a ccache hit for objtool (its -Wp,-MD,<absolute path>) from
# another build directory leaves no depfile and fixdep fails.
kmake_vars() {
	printf '%s\n' "CC=ccache gcc" "HOSTCC=gcc" \
		"KBUILD_BUILD_USER=blockio" "KBUILD_BUILD_HOST=build"
}

# Check that every CONFIG_ value requested in fragments made it into the
# final .config; print warnings (never fail: the value may not exist yet).
# A later fragment overrides an earlier one, as in merge_config.sh.
check_config_fragments() {
	local config=$1 frag line sym have
	local -A wanted=() from=()
	local -a order=()
	shift
	for frag in "$@"; do
		while IFS= read -r line; do
			if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
				sym=${BASH_REMATCH[1]}
				[[ -v wanted[$sym] ]] || order+=("$sym")
				wanted[$sym]=${BASH_REMATCH[2]}
			elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set ]]; then
				sym=${BASH_REMATCH[1]}
				[[ -v wanted[$sym] ]] || order+=("$sym")
				wanted[$sym]=n
			else
				continue
			fi
			from[$sym]=${frag#"$REPO"/}
		done <"$frag"
	done
	for sym in "${order[@]}"; do
		have=$(grep -E "^$sym=" "$config" | cut -d= -f2- || true)
		[[ -n $have ]] || have=n
		[[ $have == "${wanted[$sym]}" ]] ||
			log "warning: ${from[$sym]}: $sym=${wanted[$sym]} requested, final config has $sym=$have"
	done
}

# Patch files named by host-kernel/series, in order.
series_patches() {
	local line
	while IFS= read -r line || [[ -n $line ]]; do
		line=${line%%#*}
		line=${line//[[:space:]]/}
		[[ -n $line ]] && printf '%s\n' "$line"
	done <"$REPO/host-kernel/series"
}

# The identity of a kernel built from build/linux + the series, the same for
# make kernel and make deb, so the packaged kernel is the one the tests boot:
#   release  6.1.N-blockio<P>   (CONFIG_LOCALVERSION "-blockio" + LOCALVERSION P,
#                                P = patches in host-kernel/series)
#   uname -v #R ..., package version <release>-R
#                               (R = commits that changed the series, its
#                                patches or config: grows as the series does)
# kernel_identity_vars prints the make variables; a tree built without them
# (KSRC=) keeps the kernel's own "+" suffix.
kernel_identity_vars() {
	local patches revision
	patches=$(series_patches | wc -l)
	revision=$(git -C "$REPO" rev-list --count HEAD -- host-kernel/series \
		'host-kernel/*.patch' host-kernel/config 2>/dev/null) || revision=0
	printf '%s\n' "LOCALVERSION=$patches" "KBUILD_BUILD_VERSION=${revision:-0}"
}

# build/linux: the pristine Debian source, extracted once, a git repo whose
# tag 'base' is the tarball as shipped.
LINUX_TARBALL=/usr/src/linux-source-6.1.tar.xz
LINUX_SRC=$BUILD/linux
# Builds that start together (make kernel and make l2 from two shells) take
# turns here: the second finds the tree the first extracted.
ensure_linux_source() {
	[[ -d $LINUX_SRC/.git ]] && return
	[[ -f $LINUX_TARBALL ]] || die "$LINUX_TARBALL missing: run scripts/install-deps"
	mkdir -p "$BUILD"
	local lock
	exec {lock}>"$BUILD/.linux-source.lock"
	flock "$lock"
	if [[ -d $LINUX_SRC/.git ]]; then
		exec {lock}>&-
		return
	fi
	log "extracting $LINUX_TARBALL into $LINUX_SRC (once)"
	local tmp=$BUILD/linux.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	tar -xf "$LINUX_TARBALL" -C "$tmp"
	mv "$tmp"/linux-source-6.1 "$tmp/linux"
	git -C "$tmp/linux" init -q -b pristine
	# No automatic gc after the commit: it would go on in the background
	# holding the lock's file descriptor (and two CPUs' worth of repacking).
	git -C "$tmp/linux" config gc.auto 0
	# Debian's tarball ships a .gitignore with '/*': force-add everything.
	git -C "$tmp/linux" add -A -f
	git -C "$tmp/linux" -c user.name="blockio build" -c user.email="build@blockio.invalid" \
		-c commit.gpgsign=false commit -q \
		-m "linux-source-6.1 $(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown)"
	git -C "$tmp/linux" tag base
	mv "$tmp/linux" "$LINUX_SRC"
	rmdir "$tmp"
	exec {lock}>&-
}
