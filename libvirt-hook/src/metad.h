/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metad.h - blockio-metad's libvirt side: events in, apply/release out.
 *
 * struct metad holds one connection and its callbacks.  What to do with a
 * domain is behind struct metad_ops, so tests drive the event wiring with
 * libvirt's test driver and record the calls instead of touching cgroupfs.
 */
#ifndef BLOCKIO_METAD_H
#define BLOCKIO_METAD_H

#include <stdbool.h>
#include <sys/stat.h>
#include <time.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "blockio.h"
#include "cgroup.h"
#include "config.h"
#include "names.h"
#include "resolve.h"

struct metad_ops {
	/* a running domain's live XML: make its cgroup match */
	int (*apply)(void *priv, const char *xml, size_t len,
		     struct blockio_error *err);
	/* a domain stopped: remove machine/UUID */
	int (*release)(void *priv, const char *uuid, struct blockio_error *err);
	void *priv;
};

/*
 * Messages that repeat while a condition lasts (libvirtd down: a failed
 * connect every second): the first is said, then one after 10 s, 20 s,
 * 40 s... at most every 10 minutes, each with the count left unsaid.
 */
struct metad_ratelimit {
	double next;		/* say the next one from then on */
	double interval;	/* s; 0: nothing said yet */
	unsigned suppressed;	/* messages not said since the last */
};

#define METAD_RATELIMIT_FIRST	10.0
#define METAD_RATELIMIT_MAX	600.0

/*
 * Whether to say a message of @r at @now (seconds, monotonic); when so,
 * *@suppressed is how many were not said before it.
 */
bool metad_ratelimit_ok(struct metad_ratelimit *r, double now,
			unsigned *suppressed);
/* The condition is over: the next message is said at once. */
void metad_ratelimit_reset(struct metad_ratelimit *r);

/* What hook.conf was at the last look, to notice an admin's edit. */
struct metad_file {
	bool seen;		/* a first look was recorded */
	bool exists;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

struct metad {
	const struct metad_ops *ops;
	/* metad_note()'s file (blockio_paths.metad_state); NULL: none */
	const char *state_path;
	struct metad_ratelimit connect_rl;
	struct metad_file hookconf;
	virConnectPtr conn;
	bool closed;		/* libvirtd went away: reconnect */
	/* where the blockio hierarchy was last seen mounted; "" if not */
	char mount[4096];
	bool mount_seen;	/* @mount holds a first observation */
	int cb_metadata, cb_lifecycle, cb_tunable, cb_dev_added, cb_dev_removed;
	unsigned applied, failed;	/* for logs and tests */
};

/* Open @uri, register the callbacks; 0 or -1 (message on stderr). */
int metad_connect(struct metad *m, const char *uri);

/* Deregister and close; safe to call twice. */
void metad_disconnect(struct metad *m);

/* Apply every running domain; the number that failed. */
int metad_reconcile(struct metad *m);

/*
 * Note where the blockio hierarchy is mounted now (@mount, NULL when it
 * is not) and say whether every running domain must be applied again: true
 * when it has just appeared, or moved, since the last call.  A VM whose
 * caps could not be applied while the hierarchy was away (the hook's
 * reconnect, a live change) gets them this way.  The first call only
 * records.
 */
bool metad_mount_changed(struct metad *m, const char *mount);

/*
 * Does a tunable event (virsh blkdeviotune --live) with these @params
 * change what the hook reads with libvirt-limits = yes in hook.conf?
 * Any "blkdeviotune." field does; libvirt emits no event for blkiotune.
 */
bool metad_tunable_matters(const virTypedParameterPtr params, int n);

/*
 * Note what the daemon is doing in m->state_path, for blockioctl set to
 * name when the kernel does not show a change in time: one line "PID
 * EPOCH TEXT", replaced whole (rename(2)).
 */
void metad_note(const struct metad *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Has the file @st (NULL: it does not exist; hook.conf) changed since the
 * last call, appeared or gone?  The first call only records.
 */
bool metad_file_changed(struct metad_file *f, const struct stat *st);

/*
 * A disk hot-plugged or unplugged (device-added, device-removed events):
 * a cap names a disk by its target, and a new disk may sit on a capped
 * host disk, so a running @dom is applied again.
 */
void metad_device_event(virConnectPtr conn, virDomainPtr dom,
			const char *alias, void *opaque);

/* Read @dom's live XML and apply it; 0 or -1 (logged). */
int metad_apply_domain(struct metad *m, virDomainPtr dom);

#endif /* BLOCKIO_METAD_H */
