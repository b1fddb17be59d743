// SPDX-License-Identifier: GPL-2.0
/*
 * apply.c - what to do with a running domain, shared by the hook's
 * `started`/`reconnect`/`stopped`/`release` and by blockio-metad.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "blockio.h"
#include "apply.h"
#include "config.h"
#include "resolve.h"
#include "cgroup.h"

#define HOOKCONF_MAX 65536

int blockio_hookconf_load(const struct blockio_paths *paths,
			  struct blockio_options *opts,
			  struct blockio_error *err)
{
	static char text[HOOKCONF_MAX + 1];
	size_t len = 0;
	ssize_t n;
	int fd;

	memset(opts, 0, sizeof(*opts));
	if (!paths->hookconf)
		return 0;
	fd = open(paths->hookconf, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0) {
		blockio_error_set(err, "cannot read %s: %s", paths->hookconf,
				  strerror(errno));
		return -1;
	}
	while ((n = read(fd, text + len, HOOKCONF_MAX - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (n < 0 || len == HOOKCONF_MAX) {
		blockio_error_set(err, "cannot read %s: %s", paths->hookconf,
				  n < 0 ? strerror(errno) : "larger than 64 KiB");
		return -1;
	}
	text[len] = '\0';
	return blockio_hookconf_parse(text, paths->hookconf, opts, err);
}

int blockio_config_parse_host(const struct blockio_paths *paths,
			      const char *xml, size_t len,
			      struct blockio_config *cfg,
			      struct blockio_error *err)
{
	struct blockio_options opts;

	memset(cfg, 0, sizeof(*cfg));
	if (blockio_hookconf_load(paths, &opts, err))
		return -1;
	return blockio_config_parse_opts(xml, len, &opts, cfg, err);
}

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

	if (blockio_config_parse_host(paths, xml, len, &cfg, err))
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
