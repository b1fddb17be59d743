# blockio: build the patched L1 kernel, the L1/L2 guest images, run the tests.
# Every build target installs its Debian packages first (scripts/install-deps).

SHELL := /bin/bash
DEBUG ?= 0
KSRC ?=
GROUPS ?=
export DEBUG KSRC

HOOK_OUT := $(CURDIR)/build/libvirt-hook

# The scripts parallelize internally (make -jN); targets run one at a time.
.NOTPARALLEL:
.PHONY: help deps kernel l2 hook deb deb-blockio progs image check check-debug check-nested check-host demo bench shell clean

help:
	@echo "blockio make targets:"
	@echo "  make demo        boot the appliance and show it working (nested-test/demo)"
	@echo "  make check       build everything, run ALL tests (host + in L1); ends with 'N passed, N failed, N skipped'"
	@echo "  make check GROUPS='boot blockio'   only these test groups (or GROUP/NNN)"
	@echo "  make check-host  only the host tests (no L1 boot)"
	@echo "  make check-debug the whole suite on the debug kernel (KASAN, lockdep, kmemleak; slow)"
	@echo "  make check-nested  only the nested end-to-end group (tests/nested, ~15 min)"
	@echo "  make deps        install the Debian packages the build needs (apt-get)"
	@echo "  make kernel      L1 kernel: build/kernel/arch/x86/boot/bzImage (KSRC=tree builds an existing tree)"
	@echo "  make l2          L2 guest: build/l2/bzImage, build/l2/initramfs.cpio.gz"
	@echo "  make hook        libvirt hook (libvirt-hook/ -> build/libvirt-hook/)"
	@echo "  make deb         Debian packages in build/deb/: the kernel (linux-image-*-blockio*) and blockio"
	@echo "  make deb-blockio only the blockio package (hook, blockio-metad, blockioctl, units)"
	@echo "  make image       L1 root filesystem with the blockio package installed: build/l1/rootfs.img"
	@echo "  make progs       test programs run in L1: build/tests-bin/"
	@echo "  make bench       run the benchmarks in bench/"
	@echo "  make shell       boot L1 with a root shell on the console (Ctrl-a x quits)"
	@echo "  make clean       remove build/ (ccache and /var/cache/blockio stay)"
	@echo "variables: DEBUG=1 debug kernel (KASAN, lockdep, kmemleak) in build/kernel-debug"

deps:
	@scripts/install-deps

kernel: deps
	scripts/build-kernel

l2: deps
	images/build-l2

hook: deps
	$(MAKE) -C libvirt-hook O=$(HOOK_OUT)

# The two packages an admin installs (scripts/build-deb; docs/install.md). The L1 image installs the blockio package; its tests run
# there (host/101 runs the hook's unit tests, hence -n).
deb: deps
	scripts/build-deb

# only debian/control's Build-Depends (nocheck: the tests run as host/101)
deb-blockio:
	scripts/install-deps -b -P nocheck
	scripts/build-deb -b -n

image: deps l2 deb-blockio
	images/build-l1

# Small test programs run in L1 from the source share (build/tests-bin).
progs: deps
	$(MAKE) -C tests/progs O=$(CURDIR)/build/tests-bin

check: kernel image progs
	scripts/run-tests $(GROUPS)

# The whole suite on the debug kernel (KASAN, lockdep, kmemleak, atomic
# sleep and hung-task checks): kernel/dmesg-clean must find no report.
check-debug:
	$(MAKE) DEBUG=1 check

# Only the nested end-to-end group (~15 min; make check runs it last).
check-nested: kernel image progs
	scripts/run-tests nested

check-host: deps l2 hook
	scripts/run-tests host

demo: kernel image
	scripts/demo

bench: kernel image progs
	bench/run

shell: kernel image
	scripts/run-l1 -s

clean:
	rm -rf build
