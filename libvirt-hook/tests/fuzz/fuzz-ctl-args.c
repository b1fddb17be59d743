// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-ctl-args.c - libFuzzer target: blockioctl's command line.  The
 * input is argv, one word a line; blockio_ctl_parse_args() reads it
 * without running anything, and for set the caps go on as blockioctl set
 * takes them: blockio_set_body(), then blockio_domain_with_limits() into
 * a domain XML and the hook's parser, what ctlset.c does before virsh.
 * A crash, a sanitizer report or a leak fails it.  Built and run by
 * `make -C libvirt-hook check-fuzz` (tests/host/107); the kept corpus is
 * tests/fuzz/ctl-args/.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "ctl.h"
#include "setspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char domain[] =
	"<domain type='kvm'><name>vm1</name>"
	"<uuid>6b1f5c1e-0000-4a5e-9c1e-000000000001</uuid>"
	"<metadata><blockio:limits xmlns:blockio='https://blockio.dev/xmlns/limits/1'>"
	"<blockio:disk dev='vda' bandwidth='1MiB/s'/></blockio:limits></metadata>"
	"<devices><disk type='block' device='disk'><source dev='/dev/vdc'/>"
	"<target dev='vda' bus='virtio'/></disk>"
	"<disk type='file' device='disk'><source file='/var/lib/libvirt/images/b.qcow2'/>"
	"<target dev='vdb' bus='virtio'/></disk></devices></domain>";

static void set(const struct blockio_ctl_args *a)
{
	struct blockio_error err = { "" };
	struct blockio_config cfg;
	char body[16384], *xml;
	size_t len;
	bool none = a->nspecs == 1 && !strcmp(a->specs[0], "none");

	if (!none && blockio_set_body(a->nspecs, a->specs, body, sizeof(body),
				      &err))
		return;
	if (blockio_domain_with_limits(domain, sizeof(domain) - 1,
				       none ? NULL : body, &xml, &len, &err))
		return;
	if (!blockio_config_parse(xml, len, &cfg, &err))
		blockio_config_free(&cfg);
	free(xml);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), **argv;
	struct blockio_ctl_args a;
	int argc = 1;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	for (size_t i = 0; i < size; i++)
		argc += text[i] == '\n';
	argv = calloc((size_t)argc + 2, sizeof(char *));
	if (!argv)
		abort();
	argc = 0;
	argv[argc++] = "blockioctl";
	for (char *w = text, *nl; w; w = nl) {
		nl = strchr(w, '\n');
		if (nl)
			*nl++ = '\0';
		if (*w || nl)
			argv[argc++] = w;
	}
	argv[argc] = NULL;
	blockio_ctl_parse_args(argc, argv, &a);
	if (a.cmd == BLOCKIO_CTL_SET)
		set(&a);
	blockio_ctl_args_free(&a);
	free(argv);
	free(text);
	return 0;
}
