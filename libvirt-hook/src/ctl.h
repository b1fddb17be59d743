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
	/* how long set waits for the kernel to hold a live change, unless
	 * --timeout says; 0: it does not wait */
	int set_wait_ms;
};

/*
 * blockioctl set: @n specs (see blockio_set_body(), or the one word
 * "none") checked against DOMAIN's XML by the hook's code, then written
 * by virsh metadata (ctlset.c); for a running domain it then waits up to
 * @wait_ms for the kernel to hold the new caps (blockio-metad applies
 * them).  The exit status: 0, 1 refused or failed, 2 usage, 3 written
 * but not held in time (the message names what blockio-metad is doing).
 */
int blockio_ctl_set(const struct blockio_ctl_env *env, const char *uri,
		    const char *domain, int n, char *const *specs,
		    int wait_ms);

/* What blockioctl's command line asks for. */
enum blockio_ctl_cmd {
	BLOCKIO_CTL_BAD,	/* a usage error: @why (may be empty), exit 2 */
	BLOCKIO_CTL_HELP,
	BLOCKIO_CTL_VERSION,
	BLOCKIO_CTL_CHECK,	/* @arg: FILE, or NULL for standard input */
	BLOCKIO_CTL_STATUS,	/* @arg: DOMAIN, or NULL for all */
	BLOCKIO_CTL_SET,	/* @arg: DOMAIN; @specs: the caps */
};

struct blockio_ctl_args {
	enum blockio_ctl_cmd cmd;
	bool json;		/* --json */
	bool offline;		/* --offline */
	const char *uri;	/* -c, --connect; default qemu:///system */
	int timeout_s;		/* set --timeout SECONDS; -1: not given */
	const char *arg;	/* into argv */
	int nspecs;
	char **specs;		/* into argv (the array is malloc'ed) */
	char *why;		/* BLOCKIO_CTL_BAD: the message; malloc'ed */
};

/*
 * Parse blockioctl's command line (argv[0] is skipped) without running
 * anything.  Always fills @a; free it with blockio_ctl_args_free().
 */
void blockio_ctl_parse_args(int argc, char **argv, struct blockio_ctl_args *a);
void blockio_ctl_args_free(struct blockio_ctl_args *a);

/* blockioctl's whole command line; returns its exit status. */
int blockio_ctl_main(int argc, char **argv, const struct blockio_ctl_env *env);

#endif /* BLOCKIO_CTL_H */
