// SPDX-License-Identifier: GPL-2.0
/*
 * metad-events.c - blockio-metad's libvirt callbacks.
 *
 * libvirt runs no hook when `virsh metadata --live` changes a running
 * domain; it emits VIR_DOMAIN_EVENT_ID_METADATA_CHANGE.  On that event for
 * our namespace, and on every domain start, the domain's live XML is read
 * (virDomainGetXMLDesc: the metadata and the disks the targets name) and
 * handed to ops->apply, which is blockio_apply_xml() in the daemon: the
 * same code the hook runs at `started`; so does a tunable event for a
 * disk's <iotune> (virsh blkdeviotune --live), which are caps with
 * libvirt-limits = yes in hook.conf.  A stop hands the UUID to
 * ops->release.  Events arrive on the thread running the event loop, one
 * at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metad.h"

static void say(const struct metad *m, virDomainPtr dom, const char *what)
{
	char name[256], uuid[VIR_UUID_STRING_BUFLEN] = "";

	blockio_escape(virDomainGetName(dom), name, sizeof(name));
	virDomainGetUUIDString(dom, uuid);
	(void)m;
	printf("blockio-metad: domain '%s' (%s): %s\n", name, uuid, what);
	fflush(stdout);
}

int metad_apply_domain(struct metad *m, virDomainPtr dom)
{
	struct blockio_error err = { "" };
	char name[256];
	char *xml;
	int ret;

	xml = virDomainGetXMLDesc(dom, 0);
	if (!xml) {
		/* it may have stopped since the event; nothing to apply then */
		if (virDomainIsActive(dom) != 1)
			return 0;
		blockio_error_set(&err, "cannot read its live XML: %s",
				  virGetLastErrorMessage());
		ret = -1;
	} else {
		ret = m->ops->apply(m->ops->priv, xml, strlen(xml), &err);
		free(xml);
	}
	if (ret) {
		m->failed++;
		blockio_escape(virDomainGetName(dom), name, sizeof(name));
		fprintf(stderr, "blockio-metad: domain '%s': %s\n", name, err.msg);
		return -1;
	}
	m->applied++;
	say(m, dom, "applied");
	return 0;
}

static void on_metadata(virConnectPtr conn, virDomainPtr dom, int type,
			const char *nsuri, void *opaque)
{
	struct metad *m = opaque;

	(void)conn;
	if (type != VIR_DOMAIN_METADATA_ELEMENT || !nsuri ||
	    strcmp(nsuri, BLOCKIO_NS_URI))
		return;
	if (virDomainIsActive(dom) == 1)
		metad_apply_domain(m, dom);
}

bool metad_tunable_matters(const virTypedParameterPtr params, int n)
{
	for (int i = 0; i < n; i++)
		if (!strncmp(params[i].field, "blkdeviotune.",
			     strlen("blkdeviotune.")))
			return true;
	return false;
}

/*
 * virsh blkdeviotune --live: with libvirt-limits = yes the domain's
 * <iotune> are its caps, so apply it again (without that setting the
 * apply finds the same caps as before and changes nothing).
 */
static void on_tunable(virConnectPtr conn, virDomainPtr dom,
		       virTypedParameterPtr params, int n, void *opaque)
{
	struct metad *m = opaque;

	(void)conn;
	if (metad_tunable_matters(params, n) && virDomainIsActive(dom) == 1)
		metad_apply_domain(m, dom);
}

static void on_lifecycle(virConnectPtr conn, virDomainPtr dom, int event,
			 int detail, void *opaque)
{
	struct metad *m = opaque;
	struct blockio_error err = { "" };
	char uuid[VIR_UUID_STRING_BUFLEN];

	(void)conn;
	(void)detail;
	switch (event) {
	case VIR_DOMAIN_EVENT_STARTED:
		metad_apply_domain(m, dom);
		break;
	case VIR_DOMAIN_EVENT_STOPPED:
		if (virDomainGetUUIDString(dom, uuid) == 0 &&
		    m->ops->release(m->ops->priv, uuid, &err)) {
			fprintf(stderr, "blockio-metad: domain %s: %s\n", uuid,
				err.msg);
			m->failed++;
		} else {
			say(m, dom, "released");
		}
		break;
	default:
		break;
	}
}

static void on_close(virConnectPtr conn, int reason, void *opaque)
{
	struct metad *m = opaque;

	(void)conn;
	fprintf(stderr, "blockio-metad: connection to libvirt closed (reason %d)\n",
		reason);
	m->closed = true;
}

int metad_connect(struct metad *m, const char *uri)
{
	m->closed = false;
	m->cb_metadata = m->cb_lifecycle = m->cb_tunable = -1;
	m->conn = virConnectOpen(uri);
	if (!m->conn) {
		fprintf(stderr, "blockio-metad: cannot connect to %s: %s\n",
			uri ? uri : "libvirt", virGetLastErrorMessage());
		return -1;
	}
	/* notice a dead libvirtd within ~15 s; only remote URIs support it */
	if (virConnectSetKeepAlive(m->conn, 5, 3) < 0)
		virResetLastError();
	m->cb_metadata = virConnectDomainEventRegisterAny(m->conn, NULL,
		VIR_DOMAIN_EVENT_ID_METADATA_CHANGE,
		VIR_DOMAIN_EVENT_CALLBACK(on_metadata), m, NULL);
	m->cb_lifecycle = virConnectDomainEventRegisterAny(m->conn, NULL,
		VIR_DOMAIN_EVENT_ID_LIFECYCLE,
		VIR_DOMAIN_EVENT_CALLBACK(on_lifecycle), m, NULL);
	m->cb_tunable = virConnectDomainEventRegisterAny(m->conn, NULL,
		VIR_DOMAIN_EVENT_ID_TUNABLE,
		VIR_DOMAIN_EVENT_CALLBACK(on_tunable), m, NULL);
	if (m->cb_metadata < 0 || m->cb_lifecycle < 0 || m->cb_tunable < 0 ||
	    virConnectRegisterCloseCallback(m->conn, on_close, m, NULL) < 0) {
		fprintf(stderr, "blockio-metad: cannot register for events on %s: %s\n",
			uri ? uri : "libvirt", virGetLastErrorMessage());
		metad_disconnect(m);
		return -1;
	}
	return 0;
}

void metad_disconnect(struct metad *m)
{
	if (!m->conn)
		return;
	if (m->cb_metadata >= 0)
		virConnectDomainEventDeregisterAny(m->conn, m->cb_metadata);
	if (m->cb_lifecycle >= 0)
		virConnectDomainEventDeregisterAny(m->conn, m->cb_lifecycle);
	if (m->cb_tunable >= 0)
		virConnectDomainEventDeregisterAny(m->conn, m->cb_tunable);
	virConnectUnregisterCloseCallback(m->conn, on_close);
	virResetLastError();
	virConnectClose(m->conn);
	m->conn = NULL;
	m->cb_metadata = m->cb_lifecycle = m->cb_tunable = -1;
}

bool metad_mount_changed(struct metad *m, const char *mount)
{
	bool first = !m->mount_seen, changed;

	changed = mount && strcmp(mount, m->mount);
	m->mount_seen = true;
	snprintf(m->mount, sizeof(m->mount), "%s", mount ? mount : "");
	return changed && !first;
}

int metad_reconcile(struct metad *m)
{
	virDomainPtr *doms = NULL;
	int n, failed = 0;

	n = virConnectListAllDomains(m->conn, &doms,
				     VIR_CONNECT_LIST_DOMAINS_ACTIVE);
	if (n < 0) {
		fprintf(stderr, "blockio-metad: cannot list domains: %s\n",
			virGetLastErrorMessage());
		return 1;
	}
	for (int i = 0; i < n; i++) {
		if (metad_apply_domain(m, doms[i]))
			failed++;
		virDomainFree(doms[i]);
	}
	free(doms);
	return failed;
}
