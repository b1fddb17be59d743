// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-config.c - libFuzzer target: a domain XML through everything the
 * hook and blockioctl parse it with, as prepare and check do: the caps
 * (blockio_config_parse_opts(), with and without libvirt-limits = yes),
 * resolved on fakefs.c's disks and merged, described, and the disks' I/O
 * (blockio_domain_io_parse(), the backing-chain check); the identity
 * readers of stop and of libvirt's status XML, and the <domain> of a
 * status XML (blockio_status_domain(), blockioctl status) parsed again.  A crash, a sanitizer
 * report or a leak fails it.  Built and run by `make -C libvirt-hook
 * check-fuzz` (tests/host/107); the kept corpus is tests/fuzz/config/.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "config.h"
#include "fakefs.h"
#include "procfs.h"
#include "resolve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one(const char *xml, size_t len, const struct blockio_options *opts)
{
	struct blockio_config cfg;
	struct blockio_domain_io io;
	struct blockio_error err = { "" };
	char line[4096];

	if (blockio_config_parse_opts(xml, len, opts, &cfg, &err))
		return;
	blockio_config_describe(&cfg, line, sizeof(line));
	if (!blockio_domain_io_parse(xml, len, &io, &err)) {
		if (!blockio_config_resolve(&cfg, &fake_host, &err)) {
			blockio_check_backing(&fake_host, &cfg, &io, &err);
			blockio_config_describe(&cfg, line, sizeof(line));
			for (size_t r = 0; r < cfg.nrules; r++)
				blockio_rule_format(&cfg, &cfg.rules[r], line,
						    sizeof(line));
		}
		blockio_domain_io_free(&io);
	}
	blockio_config_free(&cfg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct blockio_options libvirt = { .libvirt_limits = true };
	struct blockio_config cfg;
	struct blockio_error err = { "" };
	char *xml = malloc(size + 1);
	pid_t pid;

	if (!xml)
		abort();
	memcpy(xml, data, size);
	xml[size] = '\0';
	one(xml, size, NULL);
	one(xml, size, &libvirt);
	if (!blockio_domain_identity(xml, size, &cfg, &err))
		blockio_config_free(&cfg);
	if (!blockio_status_identity(xml, size, &cfg, &err))
		blockio_config_free(&cfg);
	blockio_status_pid(xml, size, &pid);
	{
		char *dom;
		size_t len;

		if (!blockio_status_domain(xml, size, &dom, &len)) {
			one(dom, len, &libvirt);
			free(dom);
		}
	}
	blockio_status_libvirt_limited(xml, size);
	free(xml);
	return 0;
}
