/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apply.h - what to do with a running domain, for the hook's
 * started/reconnect/stopped/release and blockio-metad, and this host's
 * hook.conf (apply.c).
 */
#ifndef BLOCKIO_APPLY_H
#define BLOCKIO_APPLY_H

#include <stddef.h>

#include "cgroup.h"
#include "config.h"
#include "resolve.h"

/*
 * Read PATHS->hookconf into @opts (the defaults when it does not exist).
 * 0, or -1 with @err naming the file and what is wrong.
 */
int blockio_hookconf_load(const struct blockio_paths *paths,
			  struct blockio_options *opts,
			  struct blockio_error *err);

/* blockio_config_parse_opts() with this host's hook.conf. */
int blockio_config_parse_host(const struct blockio_paths *paths,
			      const char *xml, size_t len,
			      struct blockio_config *cfg,
			      struct blockio_error *err);

/*
 * What `started`, `reconnect` and the daemon do with a running domain's
 * XML: with caps, attach; without (no or empty <blockio:limits>), detach.
 * Finding no blockio hierarchy is only an error when there are caps.
 */
int blockio_apply_xml(const struct blockio_paths *paths,
		      const struct blockio_host *host, const char *xml,
		      size_t len, struct blockio_error *err);

/* The same for a parsed @cfg; resolves its targets (fills devnode). */
int blockio_apply_config(const struct blockio_paths *paths,
			 const struct blockio_host *host,
			 struct blockio_config *cfg, struct blockio_error *err);

/* What `stopped` and `release` do: detach by UUID; harmless when absent. */
int blockio_release_xml(const struct blockio_paths *paths, const char *xml,
			size_t len, struct blockio_error *err);

#endif /* BLOCKIO_APPLY_H */
