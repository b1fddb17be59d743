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
 * libvirt-limits = yes in hook.conf, and so does a disk hot-plugged or
 * unplugged (device-added, device-removed: a cap names a disk by its
 * target, and a new disk may be on a capped host disk).  A stop hands the
 * UUID to ops->release.  Events arrive on the thread running the event
 * loop, one at a time.
 *
 * What the daemon does last is noted in m->state_path (metad_note()),
 * which blockioctl set names when the kernel does not show a change in
 * time; a failed connect is noted each time but said on stderr only as
 * metad_ratelimit_ok() allows.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "metad.h"

static double monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool metad_ratelimit_ok(struct metad_ratelimit *r, double now,
			unsigned *suppressed)
{
	if (r->interval > 0 && now < r->next) {
		r->suppressed++;
		return false;
	}
	*suppressed = r->suppressed;
	r->suppressed = 0;
	r->interval = r->interval > 0 ? r->interval * 2 : METAD_RATELIMIT_FIRST;
	if (r->interval > METAD_RATELIMIT_MAX)
		r->interval = METAD_RATELIMIT_MAX;
	r->next = now + r->interval;
	return true;
}

void metad_ratelimit_reset(struct metad_ratelimit *r)
{
	memset(r, 0, sizeof(*r));
}

void metad_note(const struct metad *m, const char *fmt, ...)
{
	char text[1024], plain[1024], tmp[4096];
	va_list ap;
	FILE *f;

	if (!m->state_path)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	blockio_plain(text, plain, sizeof(plain));
	snprintf(tmp, sizeof(tmp), "%s.tmp", m->state_path);
	f = fopen(tmp, "w");
	if (!f)
		return;		/* blockioctl set then says it has no word */
	fprintf(f, "%d %lld %s\n", (int)getpid(), (long long)time(NULL), plain);
	if (fclose(f) || rename(tmp, m->state_path))
		unlink(tmp);
}

bool metad_file_changed(struct metad_file *f, const struct stat *st)
{
	struct metad_file now = { .seen = true, .exists = st != NULL };
	bool changed;

	if (st) {
		now.dev = st->st_dev;
		now.ino = st->st_ino;
		now.size = st->st_size;
		now.mtime = st->st_mtim;
	}
	changed = f->seen &&
		  (now.exists != f->exists || now.dev != f->dev ||
		   now.ino != f->ino || now.size != f->size ||
		   now.mtime.tv_sec != f->mtime.tv_sec ||
		   now.mtime.tv_nsec != f->mtime.tv_nsec);
	*f = now;
	return changed;
}

static void say(const struct metad *m, virDomainPtr dom, const char *what)
{
	char name[256], uuid[VIR_UUID_STRING_BUFLEN] = "";

	blockio_escape(virDomainGetName(dom), name, sizeof(name));
	virDomainGetUUIDString(dom, uuid);
	printf("blockio-metad: domain '%s' (%s): %s\n", name, uuid, what);
	fflush(stdout);
	metad_note(m, "%s domain '%s' (%s)", what, name, uuid);
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
		metad_note(m, "failed to apply domain '%s': %s", name, err.msg);
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

void metad_device_event(virConnectPtr conn, virDomainPtr dom, const char *alias,
		      void *opaque)
{
	struct metad *m = opaque;

	(void)conn;
	(void)alias;
	if (virDomainIsActive(dom) == 1)
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
	metad_note(m, "connection to libvirt closed (reason %d); reconnecting every second",
		   reason);
	m->closed = true;
}

/* A failed connect, said as m->connect_rl allows, noted every time. */
static void connect_failed(struct metad *m, const char *uri, const char *what)
{
	unsigned suppressed;

	if (metad_ratelimit_ok(&m->connect_rl, monotonic(), &suppressed)) {
		fprintf(stderr, "blockio-metad: %s %s: %s; retrying every second",
			what, uri ? uri : "libvirt", virGetLastErrorMessage());
		if (suppressed)
			fprintf(stderr, " (%u failed attempts not logged since the last message)",
				suppressed);
		fprintf(stderr, "; next message in %.0f s if it lasts\n",
			m->connect_rl.interval);
	}
	metad_note(m, "not connected: %s %s: %s; retrying every second", what,
		   uri ? uri : "libvirt", virGetLastErrorMessage());
}

int metad_connect(struct metad *m, const char *uri)
{
	m->closed = false;
	m->cb_metadata = m->cb_lifecycle = m->cb_tunable = -1;
	m->cb_dev_added = m->cb_dev_removed = -1;
	m->conn = virConnectOpen(uri);
	if (!m->conn) {
		connect_failed(m, uri, "cannot connect to");
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
	m->cb_dev_added = virConnectDomainEventRegisterAny(m->conn, NULL,
		VIR_DOMAIN_EVENT_ID_DEVICE_ADDED,
		VIR_DOMAIN_EVENT_CALLBACK(metad_device_event), m, NULL);
	m->cb_dev_removed = virConnectDomainEventRegisterAny(m->conn, NULL,
		VIR_DOMAIN_EVENT_ID_DEVICE_REMOVED,
		VIR_DOMAIN_EVENT_CALLBACK(metad_device_event), m, NULL);
	if (m->cb_metadata < 0 || m->cb_lifecycle < 0 || m->cb_tunable < 0 ||
	    m->cb_dev_added < 0 || m->cb_dev_removed < 0 ||
	    virConnectRegisterCloseCallback(m->conn, on_close, m, NULL) < 0) {
		connect_failed(m, uri, "cannot register for events on");
		metad_disconnect(m);
		return -1;
	}
	metad_ratelimit_reset(&m->connect_rl);
	metad_note(m, "connected to %s", uri ? uri : "libvirt");
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
	if (m->cb_dev_added >= 0)
		virConnectDomainEventDeregisterAny(m->conn, m->cb_dev_added);
	if (m->cb_dev_removed >= 0)
		virConnectDomainEventDeregisterAny(m->conn, m->cb_dev_removed);
	virConnectUnregisterCloseCallback(m->conn, on_close);
	virResetLastError();
	virConnectClose(m->conn);
	m->conn = NULL;
	m->cb_metadata = m->cb_lifecycle = m->cb_tunable = -1;
	m->cb_dev_added = m->cb_dev_removed = -1;
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
