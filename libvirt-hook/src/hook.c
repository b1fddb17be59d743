// SPDX-License-Identifier: GPL-2.0
/*
 * hook.c - /etc/libvirt/hooks/qemu.d/50-blockio, libvirt's qemu hook.
 *
 *   50-blockio DOMAIN OPERATION SUB-OPERATION EXTRA < domain.xml
 *
 *   prepare, start, restore   validate the caps and find their host disks;
 *                             with caps, check the blockio controller and
 *                             its mounted hierarchy
 *   migrate                   validate the incoming XML's caps
 *   started, reconnect        put QEMU into machine/UUID with its rules
 *   stopped, release          remove machine/UUID (idempotent)
 *   anything else             nothing
 *
 * Every operation that validates or applies caps says how it ended in one
 * line on stderr and in the system log (ident blockio-hook):
 *
 *   blockio: domain 'vm1' at prepare: capped: <blockio:disk dev='vda'> on /dev/vdc: bandwidth 8MiB/s
 *   blockio: domain 'vm1' at prepare: not capped: no <blockio:limits> in <metadata>
 *
 * and exits 0; libvirt keeps that stderr in its debug log only.  On
 * failure the line is "blockio: MESSAGE" and the exit status 1, which makes
 * libvirt refuse to start the domain and show the line; except at
 * reconnect, where exit 1 would make libvirt kill a running VM: there a
 * failure is "blockio: domain 'vm1' at reconnect: NOT CAPPED: MESSAGE; the
 * VM keeps running, ..." and exit 0.  Stop and release say nothing unless
 * they fail.  What each operation does is in hookops.c; this file is argv,
 * stdin and the output.  The hook never calls libvirt and never waits
 * long: stdin for at most 30 s, the PID file for 5 s, the lock and rmdir
 * for a few seconds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "blockio.h"
#include "cgroup.h"
#include "hookops.h"
#include "util.h"
#include "version.h"

#define STDIN_WAIT_MS 30000

static void usage(FILE *f)
{
	fprintf(f,
		"usage: 50-blockio DOMAIN OPERATION SUB-OPERATION EXTRA < domain.xml\n"
		"       50-blockio --help | --version\n"
		"libvirt's qemu hook for blockio: caps a VM's disks from <blockio:limits>\n"
		"(namespace %s) in its <metadata>.\n"
		"See blockio-hook(8).\n", BLOCKIO_NS_URI);
}

/* All of stdin into a NUL-terminated buffer; NULL with @err set. */
static char *read_stdin(size_t *len, struct blockio_error *err)
{
	char *buf;

	switch (blockio_read_all(STDIN_FILENO, BLOCKIO_XML_MAX, STDIN_WAIT_MS,
				 &buf, len)) {
	case BLOCKIO_READ_OK:
		return buf;
	case BLOCKIO_READ_TIMEOUT:
		blockio_error_set(err, "no domain XML on stdin within %d s",
				  STDIN_WAIT_MS / 1000);
		break;
	case BLOCKIO_READ_TOOBIG:
		blockio_error_set(err, "domain XML on stdin is larger than %d bytes",
				  BLOCKIO_XML_MAX);
		break;
	case BLOCKIO_READ_ERROR:
		blockio_error_set(err, "cannot read stdin: %s", strerror(errno));
		break;
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	struct blockio_paths paths = blockio_paths_default;
	struct blockio_error err = { "" };
	struct blockio_hook_result res;
	size_t len;
	char *xml;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("blockio-hook %s\n", BLOCKIO_VERSION);
		return 0;
	}
	if (argc < 3) {
		usage(stderr);
		return 2;
	}
	/* read stdin even when there is nothing to do: libvirt writes it */
	xml = read_stdin(&len, &err);
#ifdef BLOCKIO_TESTING
	/* the sanitized build of the tests (tests/test-corpus.sh) only */
	paths.hookconf = getenv("BLOCKIO_TEST_HOOKCONF");
#endif
	blockio_hook_run(&paths, &blockio_host_real, argv[1],
			 argv[2], xml, len, &err, &res);
	free(xml);
	if (res.priority >= 0) {
		fprintf(stderr, "%s\n", res.out);
		openlog("blockio-hook", LOG_PID, LOG_DAEMON);
		syslog(res.priority, "%s", res.log);
		closelog();
	}
	return res.status;
}
