// SPDX-License-Identifier: GPL-2.0
/*
 * hook.c - /etc/libvirt/hooks/qemu.d/50-blockio, libvirt's qemu hook.
 *
 *   50-blockio DOMAIN OPERATION SUB-OPERATION EXTRA < domain.xml
 *
 *   prepare, start, restore   validate the caps and find their host disks
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
 * libvirt refuse to start (or keep) the domain and show the line.  Stop
 * and release say nothing unless they fail.  The hook never calls libvirt
 * and never waits long: stdin for at most 30 s, the PID file for 5 s, the
 * lock and rmdir for a few seconds.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "blockio.h"
#include "version.h"

#define STDIN_WAIT_MS 30000

enum action { VALIDATE, RESOLVE, APPLY, RELEASE, NOTHING };

static const struct {
	const char *op;
	enum action action;
} operations[] = {
	{ "prepare", RESOLVE }, { "start", RESOLVE }, { "restore", RESOLVE },
	{ "migrate", VALIDATE },
	{ "started", APPLY }, { "reconnect", APPLY },
	{ "stopped", RELEASE }, { "release", RELEASE },
};

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
	size_t size = 65536;
	char *buf = malloc(size);

	*len = 0;
	if (!buf)
		abort();
	for (;;) {
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		ssize_t n;
		int rc = poll(&pfd, 1, STDIN_WAIT_MS);

		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0) {
			blockio_error_set(err, "no domain XML on stdin within %d s",
					  STDIN_WAIT_MS / 1000);
			break;
		}
		if (*len + 1 == size) {
			if (size > BLOCKIO_XML_MAX) {
				blockio_error_set(err, "domain XML on stdin is larger than %d bytes",
						  BLOCKIO_XML_MAX);
				break;
			}
			size *= 2;
			buf = realloc(buf, size);
			if (!buf)
				abort();
		}
		n = read(STDIN_FILENO, buf + *len, size - 1 - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			blockio_error_set(err, "cannot read stdin: %s", strerror(errno));
			break;
		}
		if (n == 0) {
			buf[*len] = '\0';
			return buf;
		}
		*len += (size_t)n;
	}
	free(buf);
	return NULL;
}

/*
 * prepare, start, restore (@resolve) and migrate: check the caps, and say
 * in @what what they are.
 */
static int validate(const char *xml, size_t len, bool resolve, char *what,
		    size_t whatlen, struct blockio_error *err)
{
	struct blockio_config cfg;
	int ret;

	if (blockio_config_parse(xml, len, &cfg, err))
		return -1;
	ret = resolve ? blockio_config_resolve(&cfg, &blockio_host_real, err) : 0;
	if (!ret)
		blockio_config_describe(&cfg, what, whatlen);
	blockio_config_free(&cfg);
	return ret;
}

/* started, reconnect: put QEMU into its cgroup, say what it is capped at. */
static int apply(const char *xml, size_t len, char *what, size_t whatlen,
		 struct blockio_error *err)
{
	struct blockio_config cfg;
	int ret;

	if (blockio_config_parse(xml, len, &cfg, err))
		return -1;
	ret = blockio_apply_config(&blockio_paths_default, &blockio_host_real,
				   &cfg, err);
	if (!ret)
		blockio_config_describe(&cfg, what, whatlen);
	blockio_config_free(&cfg);
	return ret;
}

int main(int argc, char **argv)
{
	enum action action = NOTHING;
	struct blockio_error err = { "" };
	char what[sizeof(err.msg)] = "", name[256];
	size_t len;
	char *xml;
	int ret = 0;

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
	for (size_t i = 0; i < sizeof(operations) / sizeof(operations[0]); i++)
		if (!strcmp(argv[2], operations[i].op))
			action = operations[i].action;

	/* read stdin even when there is nothing to do: libvirt writes it */
	xml = read_stdin(&len, &err);
	if (!xml) {
		ret = -1;
	} else {
		switch (action) {
		case VALIDATE:
			ret = validate(xml, len, false, what, sizeof(what), &err);
			break;
		case RESOLVE:
			ret = validate(xml, len, true, what, sizeof(what), &err);
			break;
		case APPLY:
			ret = apply(xml, len, what, sizeof(what), &err);
			break;
		case RELEASE:
			ret = blockio_release_xml(&blockio_paths_default, xml,
						  len, &err);
			break;
		case NOTHING:
			break;
		}
	}
	free(xml);
	if (action == NOTHING || (!ret && !what[0]))
		return 0;

	/* argv[2] is one of ours: only the domain name needs escaping */
	blockio_escape(argv[1], name, sizeof(name));
	openlog("blockio-hook", LOG_PID, LOG_DAEMON);
	if (ret) {
		fprintf(stderr, "blockio: %s\n", err.msg);
		syslog(LOG_ERR, "domain '%s' at %s: %s", name, argv[2], err.msg);
	} else {
		fprintf(stderr, "blockio: domain '%s' at %s: %s\n", name, argv[2],
			what);
		syslog(LOG_INFO, "domain '%s' at %s: %s", name, argv[2], what);
	}
	closelog();
	return ret ? 1 : 0;
}
