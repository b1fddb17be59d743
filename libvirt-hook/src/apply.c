// SPDX-License-Identifier: GPL-2.0
/*
 * apply.c - what to do with a running domain, shared by the hook's
 * `started`/`reconnect`/`stopped`/`release` and by blockio-metad.
 */
#include <limits.h>
#include <string.h>

#include "blockio.h"

int blockio_apply_config(const struct blockio_paths *paths,
			 const struct blockio_host *host,
			 struct blockio_config *cfg, struct blockio_error *err)
{
	char mount[PATH_MAX];
	pid_t pid;

	if (!cfg->nrules) {
		/* no caps (any more): no cgroup, and no blockio is fine */
		if (cfg->uuid[0] &&
		    !blockio_find_mount(paths, mount, sizeof(mount), err))
			return blockio_detach(mount, cfg->uuid, err);
		return 0;
	}
	return blockio_config_resolve(cfg, host, err) ||
	       blockio_find_mount(paths, mount, sizeof(mount), err) ||
	       blockio_qemu_pid(paths, cfg, &pid, err) ||
	       blockio_attach(paths, mount, cfg, pid, err) ? -1 : 0;
}

int blockio_apply_xml(const struct blockio_paths *paths,
		      const struct blockio_host *host, const char *xml,
		      size_t len, struct blockio_error *err)
{
	struct blockio_config cfg;
	int ret;

	if (blockio_config_parse(xml, len, &cfg, err))
		return -1;
	ret = blockio_apply_config(paths, host, &cfg, err);
	blockio_config_free(&cfg);
	return ret;
}

int blockio_release_xml(const struct blockio_paths *paths, const char *xml,
			size_t len, struct blockio_error *err)
{
	struct blockio_config cfg;
	char mount[PATH_MAX];
	int ret = 0;

	if (blockio_domain_identity(xml, len, &cfg, err))
		return -1;
	if (cfg.uuid[0] &&
	    !blockio_find_mount(paths, mount, sizeof(mount), err))
		ret = blockio_detach(mount, cfg.uuid, err);
	blockio_config_free(&cfg);
	return ret;
}
