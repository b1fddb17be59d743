/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blockio.h - the libvirt side of blockio: domain XML in, cgroup rules out.
 *
 * An admin caps a VM's disks by adding one element to the domain's
 * <metadata>:
 *
 *   <blockio:limits xmlns:blockio="https://blockio.dev/xmlns/limits/1">
 *     <blockio:disk dev="vda" bandwidth="8MiB/s" iops="500"/>
 *     <blockio:device path="/dev/sdb" bandwidth="4M" strategy="token"
 *                     bucket="64MiB"/>
 *   </blockio:limits>
 *
 * Every <blockio:disk> or <blockio:device> element is a *target*: one host
 * block device (a whole disk) and the caps for it.  Every cap becomes one
 * *rule*, the line written to blockio.bandwidth-max or blockio.iops-max of
 * the VM's cgroup: "DEV:LIMIT:STRATEGY[:BUCKET]".
 *
 * The code is split in two, each module with its own header:
 *
 *  - the pure core: text in, validated structures or text out.
 *    units.h (units.c), names.h (names.c), config.h (config.c and the
 *    config-*.c it is split into, config-int.h between them), hookconf.h
 *    (hookconf.c), resolve.h (resolve.c: device resolution goes through
 *    struct blockio_host, so tests hand it a fake filesystem), procfs.h
 *    (procfs.c), setspec.h (setspec.c).
 *  - the thin layer: cgroup.h (cgroup.c) finds the blockio hierarchy,
 *    creates the VM's cgroup, writes rules, moves QEMU, reads back;
 *    apply.h (apply.c) is what the hook and the daemon do with a running
 *    domain; hookops.h (hookops.c) is each operation of the hook; ctl.h
 *    (ctl.c, ctl-check.c, ctl-status.c, ctlset.c; ctl-int.h between them)
 *    is blockioctl.
 *
 * util.h (util.c) serves them all: allocation that aborts, reading a whole
 * file descriptor with a limit, running a program, UTF-8.  This header has
 * what every module shares: the namespace, the bounds and struct
 * blockio_error.  The hook (hook.c), the live-update daemon (metad.c,
 * metad.h) and blockioctl (blockioctl.c) are small front ends over the
 * same library.
 *
 * Errors: every function that can fail takes a struct blockio_error and
 * fills it with one line that names the element, the attribute and the
 * value, in libvirt's style; the front ends print it prefixed "blockio: ".
 */
#ifndef BLOCKIO_H
#define BLOCKIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * The namespace of <blockio:limits>.  A new incompatible schema gets "/2".
 * A lookalike in <metadata> (a URI close to this one, the prefix blockio
 * on another, an element shaped like ours in another namespace or none,
 * <limits> without one) is an error, not "no caps"; so is our element
 * anywhere but as a child of <metadata> ("Lookalikes" in config.c).
 */
#define BLOCKIO_NS_URI		"https://blockio.dev/xmlns/limits/1"
/* The key (prefix) used by `virsh metadata --key`; any prefix is accepted. */
#define BLOCKIO_NS_PREFIX	"blockio"

/* Upper bounds: far above any real device, far below any overflow in the
 * kernel's arithmetic (it scales IOPS by 1000). */
#define BLOCKIO_BANDWIDTH_MAX	(1ULL << 40)		/* 1 TiB/s, 1 TiB bucket */
#define BLOCKIO_IOPS_MAX	1000000000ULL		/* 1G ops/s, 1G ops bucket */
#define BLOCKIO_IOPS_SCALE	1000			/* iops-max reads back x1000 */
/*
 * QEMU's documentation of -drive bps= (qemu(1)): "Small values can lead
 * to timeouts or hangs inside the guest.  A safe minimum for disks is
 * 2 MB/s."  A smaller bandwidth cap is accepted with a warning.
 */
#define BLOCKIO_BANDWIDTH_SAFE	2000000ULL		/* bytes/s */

/* The largest domain XML accepted; libvirt's own limit is 10 MiB. */
#define BLOCKIO_XML_MAX		(16 * 1024 * 1024)

struct blockio_error {
	char msg[1024];
};

void blockio_error_set(struct blockio_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* BLOCKIO_H */
