/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctl.h - blockioctl (ctl*.c; blockioctl.c is its main, ctlset.c its set).
 */
#ifndef BLOCKIO_CTL_H
#define BLOCKIO_CTL_H

#include "cgroup.h"
#include "resolve.h"

/* Where blockioctl looks; its tests pass a fake host and run directory. */
struct blockio_ctl_env {
	const struct blockio_paths *paths;
	const struct blockio_host *host;
	/* qemu-img to read a qcow2 backing chain with; NULL: not installed */
	const char *qemu_img;
	/* virsh, for set; NULL: not installed */
	const char *virsh;
};

/*
 * blockioctl set: @n specs (see blockio_set_body(), or the one word
 * "none") checked against DOMAIN's XML by the hook's code, then written
 * by virsh metadata (ctlset.c).  The exit status.
 */
int blockio_ctl_set(const struct blockio_ctl_env *env, const char *uri,
		    const char *domain, int n, char *const *specs);

/* blockioctl's whole command line; returns its exit status. */
int blockio_ctl_main(int argc, char **argv, const struct blockio_ctl_env *env);

#endif /* BLOCKIO_CTL_H */
