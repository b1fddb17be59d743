// SPDX-License-Identifier: GPL-2.0
/*
 * hookops.c - what 50-blockio does at each libvirt operation and what it
 * says about it: all of the hook but argv, stdin and the output, so that
 * tests run it against a fake /proc, cgroupfs and host (struct
 * blockio_paths, struct blockio_host).
 *
 * How a failure ends follows from what libvirt (9.0, qemu_process.c) does
 * with a non-zero exit at each operation:
 *
 *   prepare, start, restore   QEMU is not running yet: exit 1 refuses the
 *                             start.  Caps are validated, resolved to host
 *                             disks, and the blockio controller and its
 *                             mounted hierarchy are checked, so that a host
 *                             that cannot cap the VM says so before QEMU
 *                             starts (a domain without caps needs neither).
 *   migrate                   at the destination, before its QEMU starts:
 *                             exit 1 refuses the migration, the source VM
 *                             keeps running.  Validates only; the
 *                             destination's prepare checks its host.
 *   started                   QEMU has just been started: exit 1 fails the
 *                             start and libvirt stops it.  Fail closed: a
 *                             VM with caps never runs uncapped.
 *   reconnect                 libvirtd restarted and found the VM running,
 *                             maybe for months: exit 1 would make libvirt
 *                             kill it.  So every failure here (metadata,
 *                             controller, mount, cgroupfs, PID, stdin) is
 *                             one loud LOG_ERR line naming the VM and the
 *                             problem, and exit 0: the VM keeps running
 *                             uncapped until the admin fixes it and
 *                             blockio-metad applies the caps.
 *   stopped, release          libvirt ignores the status; idempotent.
 *   attach, anything else     nothing, exit 0 (libvirt >= 5.5 no longer
 *                             attaches to foreign QEMUs).
 *
 * Every operation that parses the domain reads /etc/blockio/hook.conf
 * first (blockio_config_parse_host()): a file that does not parse fails
 * the operation as invalid metadata does, since the hook cannot know
 * which caps the host meant (libvirt-limits).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "blockio.h"
#include "apply.h"
#include "names.h"
#include "config.h"
#include "resolve.h"
#include "cgroup.h"
#include "hookops.h"

enum action { VALIDATE, RESOLVE, APPLY, RECONNECT, RELEASE, NOTHING };

static const struct {
	const char *op;
	enum action action;
} operations[] = {
	{ "prepare", RESOLVE }, { "start", RESOLVE }, { "restore", RESOLVE },
	{ "migrate", VALIDATE },
	{ "started", APPLY }, { "reconnect", RECONNECT },
	{ "stopped", RELEASE }, { "release", RELEASE },
};

int blockio_check_host(const struct blockio_paths *paths,
		       const struct blockio_host *host,
		       struct blockio_config *cfg,
		       const struct blockio_domain_io *io,
		       struct blockio_error *err)
{
	char mount[PATH_MAX];

	/* the order of started: host disks, then the hierarchy */
	return blockio_config_resolve(cfg, host, err) ||
	       (io && blockio_check_backing(host, cfg, io, err)) ||
	       (cfg->nrules &&
		blockio_find_mount(paths, mount, sizeof(mount), err)) ? -1 : 0;
}

/*
 * A domain capped by libvirt's limits (hook.conf libvirt-limits = yes) on
 * a host where blockio cannot cap it, and libvirt-limits-uncapped = start
 * (the default): it runs, limited by QEMU's <iotune> and the blkio
 * controller's <blkiotune> only, and its line says so, and why.
 */
static void uncapped_soft(const struct blockio_error *why, char *what,
			  size_t whatlen)
{
	snprintf(what, whatlen,
		 "not capped by blockio: %s; the domain runs limited by libvirt's own <iotune>/<blkiotune> only, which do not hold for writeback (hook.conf: libvirt-limits-uncapped = start; 'refuse' stops such a domain)",
		 why->msg);
}

/*
 * blockio_check_host() for such a domain: false (uncapped, @why set) when
 * a host disk or the hierarchy is missing; a backing file on an uncapped
 * host disk is only a warning, since QEMU's <iotune> limits its reads.
 */
static bool check_host_soft(const struct blockio_paths *paths,
			    const struct blockio_host *host,
			    struct blockio_config *cfg,
			    const struct blockio_domain_io *io,
			    struct blockio_error *why)
{
	struct blockio_error backing;
	char mount[PATH_MAX];

	if (blockio_config_resolve(cfg, host, why) ||
	    (cfg->nrules && blockio_find_mount(paths, mount, sizeof(mount), why)))
		return false;
	if (io && blockio_check_backing(host, cfg, io, &backing))
		blockio_config_warn(cfg, "%s; QEMU's <iotune> still limits those reads (hook.conf: libvirt-limits-uncapped = start)",
				    backing.msg);
	return true;
}

int blockio_check_prepare(const struct blockio_paths *paths,
			  const struct blockio_host *host,
			  struct blockio_config *cfg,
			  const struct blockio_domain_io *io,
			  struct blockio_error *err)
{
	if (!cfg->uncapped_ok)
		return blockio_check_host(paths, host, cfg, io, err);
	return check_host_soft(paths, host, cfg, io, err) ? 0 : 1;
}

/*
 * prepare, start, restore (@resolve) and migrate: check the caps, and say
 * in @what what they are.
 */
static int validate(const struct blockio_paths *paths,
		    const struct blockio_host *host, const char *xml,
		    size_t len, bool resolve, char *what, size_t whatlen,
		    struct blockio_error *err)
{
	struct blockio_domain_io io;
	struct blockio_config cfg;
	int ret = 0;

	if (blockio_config_parse_host(paths, xml, len, &cfg, err))
		return -1;
	if (resolve && blockio_domain_io_parse(xml, len, &io, err)) {
		ret = -1;
	} else if (resolve) {
		ret = blockio_check_prepare(paths, host, &cfg, &io, err);
		if (ret > 0) {
			uncapped_soft(err, what, whatlen);
			ret = 0;
		}
	}
	if (resolve)
		blockio_domain_io_free(&io);
	if (!ret && !what[0])
		blockio_config_describe(&cfg, what, whatlen);
	blockio_config_free(&cfg);
	return ret;
}

/* started, reconnect: put QEMU into its cgroup, say what it is capped at. */
static int apply(const struct blockio_paths *paths,
		 const struct blockio_host *host, const char *xml, size_t len,
		 char *what, size_t whatlen, struct blockio_error *err)
{
	struct blockio_config cfg;
	int ret;

	if (blockio_config_parse_host(paths, xml, len, &cfg, err))
		return -1;
	ret = blockio_apply_config(paths, host, &cfg, err);
	if (ret && cfg.uncapped_ok) {
		uncapped_soft(err, what, whatlen);
		ret = 0;
	} else if (!ret) {
		blockio_config_describe(&cfg, what, whatlen);
	}
	blockio_config_free(&cfg);
	return ret;
}

/*
 * What to run to apply the caps once fixed: by UUID when the XML has one,
 * else by name in single quotes.  It ends the message, so it needs no
 * quotes of its own (none nest in a name's).
 */
static void apply_command(const char *xml, size_t len, const char *name,
			  char *out, size_t outlen)
{
	struct blockio_config cfg;
	struct blockio_error ignored;

	if (xml && !blockio_domain_identity(xml, len, &cfg, &ignored)) {
		if (cfg.uuid[0])
			snprintf(out, outlen, "blockio-metad --apply %s", cfg.uuid);
		blockio_config_free(&cfg);
		if (out[0])
			return;
	}
	snprintf(out, outlen, "blockio-metad --apply '%s'", name);
}

void blockio_hook_run(const struct blockio_paths *paths,
		      const struct blockio_host *host, const char *name,
		      const char *op, const char *xml, size_t len,
		      const struct blockio_error *readerr,
		      struct blockio_hook_result *res)
{
	enum action action = NOTHING;
	struct blockio_error err = { "" };
	char what[1536] = "", esc[256], cmd[320] = "";
	int ret = 0;

	res->status = 0;
	res->priority = -1;
	res->out[0] = res->log[0] = '\0';
	for (size_t i = 0; i < sizeof(operations) / sizeof(operations[0]); i++)
		if (!strcmp(op, operations[i].op))
			action = operations[i].action;
	if (action == NOTHING)
		return;

	if (!xml) {
		err = *readerr;
		ret = -1;
	} else {
		switch (action) {
		case VALIDATE:
		case RESOLVE:
			ret = validate(paths, host, xml, len, action == RESOLVE,
				       what, sizeof(what), &err);
			break;
		case APPLY:
		case RECONNECT:
			ret = apply(paths, host, xml, len, what, sizeof(what),
				    &err);
			break;
		case RELEASE:
			ret = blockio_release_xml(paths, xml, len, &err);
			break;
		case NOTHING:
			break;
		}
	}
	if (!ret && !what[0])
		return;		/* stopped, release: quiet unless they fail */

	/* @op is one of ours: only the domain name needs escaping */
	blockio_escape(name, esc, sizeof(esc));
	if (!ret) {
		/* a cap likely not meant (describe's "; warning: ") stands out */
		res->priority = strstr(what, "; warning: ") ||
				!strncmp(what, "not capped by blockio: ", 23) ?
				LOG_WARNING : LOG_INFO;
		snprintf(res->log, sizeof(res->log), "domain '%s' at %s: %s",
			 esc, op, what);
	} else if (action == RECONNECT) {
		/* never make libvirt kill a running VM: say it, exit 0 */
		apply_command(xml, len, esc, cmd, sizeof(cmd));
		res->priority = LOG_ERR;
		snprintf(res->log, sizeof(res->log),
			 "domain '%s' at reconnect: NOT CAPPED: %s; the VM keeps running, uncapped until this is fixed and its caps are applied with: %s",
			 esc, err.msg, cmd);
	} else {
		res->status = 1;
		res->priority = LOG_ERR;
		snprintf(res->log, sizeof(res->log), "domain '%s' at %s: %s",
			 esc, op, err.msg);
		/* virsh shows this line with the domain and operation */
		snprintf(res->out, sizeof(res->out), "blockio: %s", err.msg);
		return;
	}
	snprintf(res->out, sizeof(res->out), "blockio: %s", res->log);
}
