// SPDX-License-Identifier: GPL-2.0
/*
 * metad.c - blockio-metad: apply live <blockio:limits> changes.
 *
 *   blockio-metad [-c URI]                  run: follow libvirt events
 *   blockio-metad [-c URI] --apply DOMAIN   apply one domain now, exit
 *
 * Running, it connects to libvirt (qemu:///system by default), applies
 * every running domain once (reconcile), then waits for events: a change
 * of metadata in our namespace or a start re-applies that domain from its
 * live XML, a stop removes its cgroup.  If libvirtd goes away it reconnects
 * every second (saying so at most as metad_ratelimit_ok() allows: after
 * 10 s, 20 s, ... then every 10 minutes) and reconciles again.  It also
 * looks for the blockio hierarchy every second: when it is mounted again
 * (or elsewhere), every running domain is applied again, so a VM whose
 * caps the hook could not apply at reconnect, or a live change made while
 * it was gone, takes effect; and at /etc/blockio/hook.conf: when an admin
 * changes it (libvirt-limits), every running domain is applied again with
 * it.  What it last did is in /run/blockio-metad.state (metad_note()),
 * for blockioctl set.  SIGTERM and SIGINT end it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "metad.h"
#include "version.h"

#define DEFAULT_URI "qemu:///system"

static int quit_pipe[2] = { -1, -1 };
static volatile sig_atomic_t quit;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: blockio-metad [-c URI]\n"
		"       blockio-metad [-c URI] --apply DOMAIN\n"
		"Apply live changes of <blockio:limits> (namespace %s)\n"
		"to running domains' blockio cgroups.\n"
		"  -c, --connect URI   libvirt URI (default %s)\n"
		"  -a, --apply DOMAIN  apply one domain (name or UUID) and exit\n"
		"  -h, --help          this help\n"
		"  -V, --version       print the version and exit\n"
		"See blockio-metad(8).\n", BLOCKIO_NS_URI, DEFAULT_URI);
}

static int apply_xml(void *priv, const char *xml, size_t len,
		     struct blockio_error *err)
{
	(void)priv;
	return blockio_apply_xml(&blockio_paths_default, &blockio_host_real,
				 xml, len, err);
}

static int release_uuid(void *priv, const char *uuid, struct blockio_error *err)
{
	char mount[4096];

	(void)priv;
	if (blockio_find_mount(&blockio_paths_default, mount, sizeof(mount), err))
		return 0;	/* no blockio: nothing to remove */
	return blockio_detach(mount, uuid, err);
}

static const struct metad_ops real_ops = {
	.apply = apply_xml,
	.release = release_uuid,
};

static void on_signal(int sig)
{
	int saved = errno;

	(void)sig;
	quit = 1;
	if (write(quit_pipe[1], "q", 1) < 0) {
		/* the loop notices 'quit' on its next turn anyway */
	}
	errno = saved;
}

static void on_quit_pipe(int watch, int fd, int events, void *opaque)
{
	char c;

	(void)watch;
	(void)events;
	(void)opaque;
	if (read(fd, &c, 1) < 0) {
		/* nothing to do: 'quit' is set */
	}
}

static void on_retry(int timer, void *opaque)
{
	(void)timer;
	(void)opaque;
}

static void quiet(void *data, virErrorPtr e)
{
	(void)data;
	(void)e;
}

static int apply_one(const char *uri, const char *name)
{
	struct metad m = { .ops = &real_ops };
	virDomainPtr dom;
	int ret;

	m.conn = virConnectOpen(uri);
	if (!m.conn) {
		fprintf(stderr, "blockio-metad: cannot connect to %s: %s\n", uri,
			virGetLastErrorMessage());
		return 1;
	}
	dom = virDomainLookupByName(m.conn, name);
	if (!dom)
		dom = virDomainLookupByUUIDString(m.conn, name);
	if (!dom) {
		char esc[256];

		blockio_escape(name, esc, sizeof(esc));
		fprintf(stderr, "blockio-metad: no domain '%s'\n", esc);
		virConnectClose(m.conn);
		return 1;
	}
	if (virDomainIsActive(dom) == 1) {
		ret = metad_apply_domain(&m, dom) ? 1 : 0;
	} else {
		struct blockio_error err = { "" };
		char uuid[VIR_UUID_STRING_BUFLEN];

		/* not running: make sure nothing is left */
		ret = virDomainGetUUIDString(dom, uuid) ||
		      release_uuid(NULL, uuid, &err) ? 1 : 0;
		if (ret)
			fprintf(stderr, "blockio-metad: %s\n", err.msg);
	}
	virDomainFree(dom);
	virConnectClose(m.conn);
	return ret;
}

/* The blockio hierarchy's mount point now, or NULL. */
static const char *current_mount(char *buf, size_t len)
{
	struct blockio_error err;

	return blockio_find_mount(&blockio_paths_default, buf, len, &err) ? NULL
									    : buf;
}

/* Has hook.conf changed since the last call?  The first only records. */
static bool hookconf_changed(struct metad *m)
{
	const char *path = blockio_paths_default.hookconf;
	struct stat st;

	return metad_file_changed(&m->hookconf,
				  path && !stat(path, &st) ? &st : NULL);
}

static int run(const char *uri)
{
	char mount[4096];
	const char *now;
	struct metad m = {
		.ops = &real_ops,
		.state_path = blockio_paths_default.metad_state,
	};
	struct sigaction sa = { .sa_handler = on_signal };

	if (pipe2(quit_pipe, O_CLOEXEC | O_NONBLOCK)) {
		perror("blockio-metad: pipe");
		return 1;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (virEventAddHandle(quit_pipe[0], VIR_EVENT_HANDLE_READABLE,
			      on_quit_pipe, NULL, NULL) < 0 ||
	    virEventAddTimeout(1000, on_retry, NULL, NULL) < 0) {
		fprintf(stderr, "blockio-metad: cannot set up the event loop\n");
		return 1;
	}

	printf("blockio-metad: watching %s for namespace %s\n", uri,
	       BLOCKIO_NS_URI);
	fflush(stdout);
	metad_note(&m, "started, watching %s", uri);
	now = current_mount(mount, sizeof(mount));
	metad_mount_changed(&m, now);
	hookconf_changed(&m);
	if (!now) {
		printf("blockio-metad: no blockio hierarchy mounted; applying every running domain when it is\n");
		metad_note(&m, "no blockio hierarchy mounted; applying every running domain when it is");
	}
	while (!quit) {
		if (!m.conn && metad_connect(&m, uri) == 0) {
			printf("blockio-metad: connected to %s\n", uri);
			fflush(stdout);
			metad_reconcile(&m);
		}
		/* the 1 s timer bounds each turn: reconnect, quit */
		if (virEventRunDefaultImpl() < 0)
			fprintf(stderr, "blockio-metad: event loop: %s\n",
				virGetLastErrorMessage());
		if (m.conn && m.closed)
			metad_disconnect(&m);
		now = current_mount(mount, sizeof(mount));
		if (metad_mount_changed(&m, now) && m.conn && !m.closed) {
			printf("blockio-metad: blockio hierarchy mounted at %s: applying every running domain\n",
			       now);
			fflush(stdout);
			metad_note(&m, "blockio hierarchy mounted at %s: applying every running domain",
				   now);
			metad_reconcile(&m);
		}
		if (hookconf_changed(&m) && m.conn && !m.closed) {
			printf("blockio-metad: %s changed: applying every running domain\n",
			       blockio_paths_default.hookconf);
			fflush(stdout);
			metad_reconcile(&m);
		}
	}
	metad_disconnect(&m);
	metad_note(&m, "exited");
	printf("blockio-metad: exiting\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "connect", required_argument, NULL, 'c' },
		{ "apply", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *uri = DEFAULT_URI, *domain = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "c:a:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			uri = optarg;
			break;
		case 'a':
			domain = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("blockio-metad %s\n", BLOCKIO_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (virInitialize() < 0 || virEventRegisterDefaultImpl() < 0) {
		fprintf(stderr, "blockio-metad: cannot initialize libvirt\n");
		return 1;
	}
	/* libvirt's default error handler prints too; ours say more */
	virSetErrorFunc(NULL, quiet);
	return domain ? apply_one(uri, domain) : run(uri);
}
