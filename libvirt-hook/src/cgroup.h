/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup.h - the thin layer: the blockio hierarchy, a VM's cgroup, libvirt's
 * run directory (cgroup.c); apply.h is what the hook and the daemon apply.
 */
#ifndef BLOCKIO_CGROUP_H
#define BLOCKIO_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "config.h"
#include "resolve.h"

/* Where the thin layer looks; tests of the front ends may point elsewhere. */
struct blockio_paths {
	const char *proc;		/* "/proc" */
	const char *qemu_rundir;	/* "/run/libvirt/qemu" */
	unsigned pid_wait_ms;		/* how long to wait for the PID file */
	const char *hookconf;		/* "/etc/blockio/hook.conf"; NULL: none */
	/* blockio-metad's last word, for blockioctl set: one line "PID TIME
	 * TEXT" (metad_note()); "/run/blockio-metad.state"; NULL: none */
	const char *metad_state;
};

extern const struct blockio_paths blockio_paths_default;

/*
 * Check that PROC/cgroups lists blockio as enabled and find its hierarchy's
 * mount point in PROC/self/mountinfo.  -1 with a message that names what
 * is missing: the controller, the controller enabled, or the mount.
 */
int blockio_find_mount(const struct blockio_paths *paths, char *out,
		       size_t outlen, struct blockio_error *err);

/* The QEMU PID of a running domain, checked against its UUID. */
int blockio_qemu_pid(const struct blockio_paths *paths,
		     const struct blockio_config *cfg, pid_t *pid,
		     struct blockio_error *err);

/*
 * Make the cgroup machine/UUID hold exactly @cfg's rules and the whole
 * process @pid, then verify by reading back.  On failure, a cgroup this
 * call created is undone (the process back to the root, the cgroup
 * removed); one that existed before (reconnect, a live change) is left as
 * it is, so a running VM does not lose its caps to a failed update (the
 * hook reports a failed `reconnect` and exits 0, so the VM keeps running).
 */
int blockio_attach(const struct blockio_paths *paths, const char *mount,
		   const struct blockio_config *cfg, pid_t pid,
		   struct blockio_error *err);

/*
 * The VM cgroups under MOUNT/machine: the names that are canonical UUIDs,
 * sorted, at most @max.  Their count (0 when machine/ does not exist),
 * or -1 with @err set.
 */
int blockio_list_cgroups(const char *mount, char (*uuids)[37], size_t max,
			 struct blockio_error *err);

/*
 * Read file @file of cgroup MOUNT/machine/@uuid into @buf (NUL-terminated).
 * 0, or -1 with @err set.
 */
int blockio_read_cgroup_file(const char *mount, const char *uuid,
			     const char *file, char *buf, size_t size,
			     struct blockio_error *err);

/* A domain libvirt runs: its status XML in the run directory. */
struct blockio_running {
	char *name;		/* raw */
	char uuid[37];		/* normalized */
	bool libvirt_limited;	/* see blockio_status_libvirt_limited() */
	pid_t pid;		/* QEMU's, from the status XML; 0: not known */
	char *xml;		/* its <domain>: blockio_status_domain(); or NULL */
	size_t xml_len;
};

/*
 * The domains of QEMU_RUNDIR/ *.xml (libvirt's status XMLs, one per running
 * domain), sorted by name; *@doms is malloc'ed.  Their count, 0 when the
 * directory does not exist, -1 with @err set.
 */
int blockio_running_domains(const struct blockio_paths *paths,
			    struct blockio_running **doms,
			    struct blockio_error *err);
void blockio_running_free(struct blockio_running *doms, size_t n);

/* Move what is left in machine/UUID to machine/ and remove it. */
int blockio_detach(const char *mount, const char *uuid,
		   struct blockio_error *err);

#endif /* BLOCKIO_CGROUP_H */
