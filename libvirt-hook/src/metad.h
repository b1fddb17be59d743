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

struct metad {
	const struct metad_ops *ops;
	virConnectPtr conn;
	bool closed;		/* libvirtd went away: reconnect */
	/* where the blockio hierarchy was last seen mounted; "" if not */
	char mount[4096];
	bool mount_seen;	/* @mount holds a first observation */
	int cb_metadata, cb_lifecycle, cb_tunable;
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

/* Read @dom's live XML and apply it; 0 or -1 (logged). */
int metad_apply_domain(struct metad *m, virDomainPtr dom);

#endif /* BLOCKIO_METAD_H */
