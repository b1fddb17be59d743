// SPDX-License-Identifier: GPL-2.0
/*
 * ctl-check.c - blockioctl check: what the hook makes of a domain XML.
 *
 * check runs the hook's own code: blockio_config_parse() and then
 * blockio_check_host(), what prepare/start/restore run; so it exits 1 with
 * the hook's message exactly when prepare would refuse the domain on this
 * host.  Around that it reports what the hook does not refuse but an
 * admin should know (warnings, never a change of the exit status):
 *
 *  - a disk without a cap of its own on a host disk that another target
 *    caps: the kernel caps a cgroup (a VM) per host disk, so that cap is
 *    shared; two caps on one host disk are refused by the hook, and check
 *    says which single cap would cover both;
 *  - a backing file of a capped disk on another host disk that nothing
 *    caps, when the XML has no <backingStore> (an inactive XML; the hook's
 *    start sees libvirt's chain and refuses such a domain, and so does the
 *    verdict here when the chain is in the XML): from `qemu-img info
 *    --backing-chain` when qemu-img is installed, else a warning that it
 *    cannot tell;
 *  - libvirt's <iotune> on a capped disk, <blkiotune><device> on a capped
 *    host disk: two limits on the same I/O, the lower wins.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "apply.h"
#include "ctl-int.h"

/* Where a path lives: its whole host disk, or why not known. */
struct place {
	bool ok;
	bool netfs;		/* a file on a network filesystem */
	dev_t dev;
	char node[256];
	char why[1024];
};

static void locate(const struct blockio_host *host, const char *what,
		   const char *path, bool must_be_block, struct place *pl)
{
	struct blockio_target t = {
		.element = (char *)what, .path = (char *)path,
		.must_be_block = must_be_block,
		.backing = !strcmp(what, "backing file"),
	};
	struct blockio_error err = { "" };

	memset(pl, 0, sizeof(*pl));
	pl->ok = !blockio_target_resolve(host, &t, &err);
	if (pl->ok) {
		pl->dev = t.dev;
		snprintf(pl->node, sizeof(pl->node), "%s", t.devnode);
	} else {
		pl->netfs = t.netfs;
		snprintf(pl->why, sizeof(pl->why), "%s", err.msg);
	}
	free(t.devnode);
}

struct check {
	const struct blockio_ctl_env *env;
	bool offline;			/* --offline: the XML alone, no host */
	struct blockio_config cfg;
	struct blockio_domain_io io;
	bool parsed;
	struct place *targets;		/* per cfg target */
	struct place *disks;		/* per io disk */
	char **warnings;
	size_t nwarnings;
	char error[sizeof(((struct blockio_error *)0)->msg)];
	/* libvirt-limits-uncapped = start: why blockio would not cap it */
	char uncapped[sizeof(((struct blockio_error *)0)->msg)];
};

static void warn(struct check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct check *c, const char *fmt, ...)
{
	va_list ap;

	c->warnings = realloc(c->warnings, (c->nwarnings + 1) * sizeof(char *));
	if (!c->warnings)
		abort();
	va_start(ap, fmt);
	c->warnings[c->nwarnings++] = xvasprintf(fmt, ap);
	va_end(ap);
}

/* The caps of target @t: "bandwidth 8 MiB/s leaky, iops 500/s leaky". */
static void caps_text(const struct blockio_config *cfg, size_t t, char *out,
		      size_t len)
{
	size_t o = 0;

	out[0] = '\0';
	for (size_t i = 0; i < cfg->nrules && o < len; i++) {
		const struct blockio_rule *r = &cfg->rules[i];
		bool bw = r->kind == BLOCKIO_BANDWIDTH;
		char limit[64], bucket[64];

		if (r->target != t)
			continue;
		ctl_human_cap(r->limit, bw ? BLOCKIO_Q_BANDWIDTH : BLOCKIO_Q_IOPS,
			  limit, sizeof(limit));
		ctl_human_cap(r->bucket, bw ? BLOCKIO_Q_BYTES : BLOCKIO_Q_OPS,
			  bucket, sizeof(bucket));
		o += (size_t)snprintf(out + o, len - o, "%s%s %s %s%s",
				      o ? ", " : "", bw ? "bandwidth" : "iops",
				      limit,
				      r->strategy == BLOCKIO_TOKEN ? "token bucket "
								   : "leaky",
				      r->strategy == BLOCKIO_TOKEN ? bucket : "");
	}
}

/* The domain's <disk> with target @dev, or NULL. */
static const struct blockio_disk *disk_named(const struct check *c,
					     const char *dev)
{
	for (size_t i = 0; dev && i < c->io.ndisks; i++)
		if (!strcmp(c->io.disks[i].dev, dev))
			return &c->io.disks[i];
	return NULL;
}

/* Is domain disk @d the disk of target @t (its own, not one it shares)? */
static bool is_target_disk(const struct blockio_target *t,
			   const struct blockio_disk *d)
{
	return t->disk && !strcmp(t->disk, d->dev);
}

/* Caps on one host disk add up per VM: a disk without its own cap shares one. */
static void warn_shared(struct check *c)
{
	const struct blockio_config *cfg = &c->cfg;
	char e1[ESC], e2[ESC], e3[ESC];

	for (size_t t = 0; t < cfg->ntargets; t++) {
		const struct blockio_target *tg = &cfg->targets[t];
		char caps[512];

		if (!c->targets[t].ok || (!tg->disk && !cfg->libvirt_limits))
			continue;
		caps_text(cfg, t, caps, sizeof(caps));
		for (size_t i = 0; i < c->io.ndisks; i++) {
			const struct blockio_disk *d = &c->io.disks[i];
			bool capped = false;

			if (!c->disks[i].ok || c->disks[i].dev != c->targets[t].dev ||
			    is_target_disk(tg, d))
				continue;
			for (size_t u = 0; u < cfg->ntargets; u++)
				capped |= cfg->targets[u].disk &&
					  !strcmp(cfg->targets[u].disk, d->dev);
			if (capped)
				continue;	/* two caps: below */
			if (cfg->libvirt_limits) {
				/* the disks with an <iotune> there make up the cap */
				if (!d->iotune)
					warn(c, "%s (%s) has no <iotune> but is on %s too: blockio caps a VM per host disk, so its I/O counts against the cap of %s (%s)",
					     ctl_esc(d->dev, e1), ctl_esc(d->source, e2),
					     c->targets[t].node, tg->element, caps);
				continue;
			}
			warn(c, "%s (%s) has no cap of its own but is on %s too: blockio caps a VM per host disk, so the cap of %s (%s) is the cap of %s and %s together",
			     ctl_esc(d->dev, e1), ctl_esc(d->source, e2),
			     c->targets[t].node, ctl_esc(tg->disk, e3), caps,
			     tg->disk, d->dev);
		}
	}
	for (size_t t = 0; t < cfg->ntargets; t++) {
		for (size_t u = t + 1; u < cfg->ntargets; u++) {
			uint64_t sum[2] = { 0, 0 };
			char bw[64] = "", iops[64] = "";

			if (!c->targets[t].ok || !c->targets[u].ok ||
			    c->targets[t].dev != c->targets[u].dev)
				continue;
			for (size_t i = 0; i < cfg->nrules; i++)
				if (cfg->rules[i].target == t || cfg->rules[i].target == u)
					sum[cfg->rules[i].kind] += cfg->rules[i].limit;
			if (sum[BLOCKIO_BANDWIDTH])
				ctl_human_cap(sum[BLOCKIO_BANDWIDTH], BLOCKIO_Q_BANDWIDTH,
					  bw, sizeof(bw));
			if (sum[BLOCKIO_IOPS])
				ctl_human_cap(sum[BLOCKIO_IOPS], BLOCKIO_Q_IOPS, iops,
					  sizeof(iops));
			warn(c, "%s and %s are both on %s (%u:%u): caps do not add up, the kernel keeps one cap per VM per host disk (so the hook refuses this); to cap both together, write one <blockio:device path='%s'/> with the cap they should share (the sum of theirs:%s%s%s%s%s)",
			     cfg->targets[t].element, cfg->targets[u].element,
			     c->targets[t].node, major(c->targets[t].dev),
			     minor(c->targets[t].dev), c->targets[t].node,
			     bw[0] ? " bandwidth " : "", bw,
			     bw[0] && iops[0] ? "," : "", iops[0] ? " iops " : "",
			     iops);
		}
	}
}

/*
 * The backing files of @path read by `qemu-img info --backing-chain -U`:
 * the "image: " lines after the first.  0, or -1 with @why.
 */
static int qemu_img_chain(const char *qemu_img, const char *path,
			  char ***chain, size_t *n, char *why, size_t whylen)
{
	const char *argv[] = { qemu_img, "info", "--backing-chain", "-U", path,
			       NULL };
	char *buf, *line, *save = NULL;
	size_t len;
	bool first = true;
	int fd, status;
	pid_t pid;

	*chain = NULL;
	*n = 0;
	pid = blockio_spawn(argv, &fd, NULL);
	blockio_read_all(fd, 65535, -1, &buf, &len);
	close(fd);
	status = blockio_wait(pid);
	if (status) {
		char plain[256];

		blockio_plain(strtok_r(buf, "\n", &save) ? buf : "no output",
			      plain, sizeof(plain));
		snprintf(why, whylen, "%s", plain);
		free(buf);
		return -1;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "image: ", 7))
			continue;
		if (first) {
			first = false;
			continue;
		}
		*chain = xrealloc(*chain, (*n + 1) * sizeof(char *));
		(*chain)[(*n)++] = xstrdup(line + 7);
	}
	free(buf);
	return 0;
}

/* Does a target of the domain cap host disk @dev? */
static bool capped_elsewhere(const struct check *c, dev_t dev)
{
	for (size_t t = 0; t < c->cfg.ntargets; t++)
		if (c->targets[t].ok && c->targets[t].dev == dev)
			return true;
	return false;
}

/* One backing file of disk @d (target @t): on a capped host disk? */
static void check_backing(struct check *c, size_t t,
			  const struct blockio_disk *d, const char *file,
			  const char *from)
{
	struct place pl;
	char e1[ESC], e2[ESC];

	locate(c->env->host, "backing file", file, false, &pl);
	if (!pl.ok)
		warn(c, "%s: cannot find the host disk of backing file '%s' (%s): %s; if it is not on %s, its reads are not capped",
		     ctl_esc(d->dev, e1), ctl_esc(file, e2), from, pl.why,
		     c->targets[t].node);
	else if (pl.dev != c->targets[t].dev && !capped_elsewhere(c, pl.dev))
		warn(c, "%s: backing file '%s' (%s) is on %s (%u:%u), not on %s: QEMU's reads of it would not be capped, and the hook's start refuses the domain so; cap that host disk too with <blockio:device path='%s'/>",
		     ctl_esc(d->dev, e1), ctl_esc(file, e2), from, pl.node,
		     major(pl.dev), minor(pl.dev), c->targets[t].node, pl.node);
}

static void warn_backing(struct check *c)
{
	const struct blockio_config *cfg = &c->cfg;
	char e1[ESC], e2[ESC], e3[ESC];

	for (size_t t = 0; t < cfg->ntargets; t++) {
		const struct blockio_disk *d = disk_named(c, cfg->targets[t].disk);
		char **chain, why[512];
		size_t n;

		if (!d || !c->targets[t].ok)
			continue;
		/* a chain in the XML is the hook's to judge: the verdict */
		if (d->chain_known)
			continue;
		if (!d->format || !strcmp(d->format, "raw"))
			continue;	/* raw images have no backing file */
		if (!c->env->qemu_img) {
			warn(c, "%s: '%s' is %s and the domain XML lists no <backingStore>: blockioctl cannot check its backing chain without reading the image, and qemu-img is not installed (qemu-utils); a backing file on another host disk than %s would be read uncapped",
			     ctl_esc(d->dev, e1), ctl_esc(d->source, e2),
			     ctl_esc(d->format, e3), c->targets[t].node);
			continue;
		}
		if (qemu_img_chain(c->env->qemu_img, d->source, &chain, &n, why,
				   sizeof(why))) {
			warn(c, "%s: 'qemu-img info --backing-chain' failed on '%s': %s; its backing chain is not checked",
			     ctl_esc(d->dev, e1), ctl_esc(d->source, e2), why);
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			check_backing(c, t, d, chain[i], "qemu-img info --backing-chain");
			free(chain[i]);
		}
		free(chain);
	}
}

/* libvirt's own limits on I/O that a blockio cap limits too. */
static void warn_overlap(struct check *c)
{
	const struct blockio_config *cfg = &c->cfg;
	char e1[ESC], e2[ESC];

	for (size_t i = 0; i < c->io.ndisks; i++) {
		const struct blockio_disk *d = &c->io.disks[i];
		bool capped = false;

		if (!d->iotune)
			continue;
		for (size_t t = 0; t < cfg->ntargets && !capped; t++)
			capped = is_target_disk(&cfg->targets[t], d) ||
				 (c->targets[t].ok && c->disks[i].ok &&
				  c->targets[t].dev == c->disks[i].dev);
		if (capped)
			warn(c, "%s: libvirt's <iotune> (%s) limits this disk too, inside QEMU: both apply and the lower wins; only the blockio cap holds for writeback through the host page cache",
			     ctl_esc(d->dev, e1), d->iotune);
	}
	for (size_t i = 0; i < c->io.ntunes; i++) {
		const struct blockio_blkiotune *bt = &c->io.tunes[i];
		struct place pl;

		if (c->offline)
			break;		/* which host disk: not looked up */
		locate(c->env->host, "<blkiotune><device>", bt->path, true, &pl);
		for (size_t t = 0; t < cfg->ntargets && pl.ok; t++) {
			if (!c->targets[t].ok || c->targets[t].dev != pl.dev)
				continue;
			warn(c, "<blkiotune><device> '%s' (%s) limits host disk %s too, through the blkio (cgroup v1) or io (v2) controller: both apply and the lower wins; on cgroup v1 it does not throttle buffered writes",
			     ctl_esc(bt->path, e2), bt->limits, pl.node);
			break;
		}
	}
}

/*
 * libvirt-limits = yes: how libvirt's limits became caps, where the
 * mapping differs from what libvirt enforces.
 */
static void warn_libvirt(struct check *c)
{
	char e1[ESC], e2[ESC];

	for (size_t i = 0; i < c->io.ndisks; i++) {
		const struct blockio_disk *d = &c->io.disks[i];

		if (!d->iotune)
			continue;
		if (!d->source) {
			warn(c, "%s: a disk of type '%s': its <iotune> stays QEMU's own limit, blockio cannot cap it",
			     ctl_esc(d->dev, e1), ctl_esc(d->type, e2));
			continue;
		}
		if (c->disks[i].netfs) {
			warn(c, "%s: '%s' is on a network filesystem: its <iotune> stays QEMU's own limit, on the guest's requests; blockio cannot cap I/O that leaves this host as network traffic (the server that carries it can limit this host's traffic, all of its VMs together)",
			     ctl_esc(d->dev, e1), ctl_esc(d->source, e2));
			continue;
		}
	}
	/* reads and writes apart: each target says so (its warning) */
	for (size_t t = 0; t < c->cfg.ntargets; t++) {
		for (const char *w = c->cfg.targets[t].warning; w && *w;) {
			size_t n = strcspn(w, "\n");

			warn(c, "%.*s", (int)n, w);
			w += n + (w[n] == '\n');
		}
	}
}

static void run_check(struct check *c, const char *xml, size_t len)
{
	struct blockio_error err = { "" };
	const struct blockio_config *cfg = &c->cfg;

	if (blockio_config_parse_host(c->env->paths, xml, len, &c->cfg, &err)) {
		snprintf(c->error, sizeof(c->error), "%s", err.msg);
		/* for the header: who it is, if that much can be read */
		blockio_domain_identity(xml, len, &c->cfg, &err);
		return;
	}
	c->parsed = true;
	if (blockio_domain_io_parse(xml, len, &c->io, &err))
		abort();	/* it parsed a moment ago */
	c->disks = xcalloc(c->io.ndisks, sizeof(*c->disks));
	if (c->offline) {
		/* no host disk, backing chain, controller or mount: the
		 * XML's own checks and the warnings that need no host */
		c->targets = xcalloc(cfg->ntargets, sizeof(*c->targets));
		for (size_t i = 0; i < cfg->nwarnings; i++)
			warn(c, "%s", cfg->warnings[i]);
		if (cfg->libvirt_limits)
			warn_libvirt(c);
		else
			warn_overlap(c);
		return;
	}
	for (size_t i = 0; i < c->io.ndisks; i++) {
		if (c->io.disks[i].source)
			locate(c->env->host, c->io.disks[i].dev,
			       c->io.disks[i].source, false, &c->disks[i]);
	}

	/* the verdict: what prepare runs, nothing else (it may merge targets) */
	switch (blockio_check_prepare(c->env->paths, c->env->host, &c->cfg,
				      &c->io, &err)) {
	case -1:
		snprintf(c->error, sizeof(c->error), "%s", err.msg);
		break;
	case 1:
		snprintf(c->uncapped, sizeof(c->uncapped), "%s", err.msg);
		break;
	}
	c->targets = xcalloc(cfg->ntargets, sizeof(*c->targets));
	for (size_t t = 0; t < cfg->ntargets; t++)
		locate(c->env->host, cfg->targets[t].element,
		       cfg->targets[t].path, cfg->targets[t].must_be_block,
		       &c->targets[t]);

	for (size_t i = 0; i < cfg->nwarnings; i++)
		warn(c, "%s", cfg->warnings[i]);
	for (size_t t = 0; t < cfg->ntargets; t++)
		if (!c->targets[t].ok && strcmp(c->targets[t].why, c->error))
			warn(c, "%s", c->targets[t].why);
	warn_shared(c);
	warn_backing(c);
	if (cfg->libvirt_limits)
		warn_libvirt(c);
	else
		warn_overlap(c);
}

/* The domain disks on the host disk of target @t. */
static void covered(const struct check *c, size_t t, char *out, size_t len)
{
	size_t o = 0;

	out[0] = '\0';
	for (size_t i = 0; i < c->io.ndisks && o < len; i++) {
		char e[ESC];

		if (c->disks[i].ok && c->targets[t].ok &&
		    c->disks[i].dev == c->targets[t].dev)
			o += (size_t)snprintf(out + o, len - o, "%s%s",
					      o ? ", " : "",
					      ctl_esc(c->io.disks[i].dev, e));
	}
}

static void print_check_text(FILE *f, const struct check *c)
{
	const struct blockio_config *cfg = &c->cfg;
	char e1[ESC], e2[ESC];

	if (cfg->name || cfg->uuid[0])
		fprintf(f, "domain '%s' (uuid %s)\n", ctl_esc(cfg->name, e1),
			cfg->uuid[0] ? cfg->uuid : "none");
	if (c->offline)
		fprintf(f, "offline: the XML alone; host disks, backing chains and the blockio controller not checked\n");
	if (c->parsed && cfg->libvirt_limits && cfg->nrules)
		fprintf(f, "no <blockio:limits>: caps from libvirt's <iotune> and <blkiotune> (libvirt-limits in hook.conf)\n");
	else if (c->parsed && cfg->libvirt_limits)
		fprintf(f, "no <blockio:limits> in <metadata>, no <iotune> or <blkiotune> limit on a local disk: not capped\n");
	else if (c->parsed && !cfg->has_limits)
		fprintf(f, "no <blockio:limits> in <metadata>: not capped\n");
	else if (c->parsed && !cfg->nrules)
		fprintf(f, "empty <blockio:limits>: not capped\n");
	for (size_t t = 0; c->parsed && t < cfg->ntargets; t++) {
		const struct blockio_target *tg = &cfg->targets[t];
		const struct place *pl = &c->targets[t];
		char caps[512], where[384], disks[512];

		caps_text(cfg, t, caps, sizeof(caps));
		if (pl->ok)
			snprintf(where, sizeof(where), "on %s (%u:%u)", pl->node,
				 major(pl->dev), minor(pl->dev));
		else if (c->offline)
			snprintf(where, sizeof(where), "on a host disk not looked up");
		else
			snprintf(where, sizeof(where), "on an unknown host disk");
		if (cfg->libvirt_limits) {
			covered(c, t, disks, sizeof(disks));
			fprintf(f, "%s %s, disks %s: %s\n", tg->element, where,
				disks[0] ? disks : "none", caps);
			continue;
		}
		if (tg->disk) {
			fprintf(f, "%s: %s %s: %s\n", ctl_esc(tg->disk, e1),
				ctl_esc(tg->path, e2), where, caps);
			continue;
		}
		covered(c, t, disks, sizeof(disks));
		fprintf(f, "device %s %s, %s%s: %s\n", ctl_esc(tg->path, e1), where,
			disks[0] ? "disks " : "no disk of the domain",
			disks, caps);
	}
	for (size_t i = 0; i < c->nwarnings; i++)
		fprintf(f, "warning: %s\n", c->warnings[i]);
	if (c->uncapped[0])
		fprintf(f, "not capped by blockio: %s; the hook starts it limited by libvirt's own <iotune>/<blkiotune> only (hook.conf: libvirt-limits-uncapped = start)\n",
			c->uncapped);
	if (c->error[0])
		fprintf(f, "error: %s\n", c->error);
}

static void print_check_json(FILE *f, const struct check *c)
{
	const struct blockio_config *cfg = &c->cfg;

	fputs("{\"domain\": ", f);
	ctl_json_str(f, cfg->name);
	fputs(", \"uuid\": ", f);
	ctl_json_str(f, cfg->uuid[0] ? cfg->uuid : NULL);
	fprintf(f, ", \"offline\": %s", c->offline ? "true" : "false");
	fprintf(f, ", \"valid\": %s, \"limits\": %s, \"capped\": %s,\n \"targets\": [",
		c->error[0] ? "false" : "true",
		!c->parsed ? "null" : cfg->libvirt_limits ? "\"libvirt\""
			   : !cfg->has_limits ? "\"absent\""
			   : cfg->nrules ? "\"present\"" : "\"empty\"",
		c->parsed && cfg->nrules && !c->uncapped[0] ? "true" : "false");
	for (size_t t = 0; c->parsed && t < cfg->ntargets; t++) {
		const struct blockio_target *tg = &cfg->targets[t];
		const struct place *pl = &c->targets[t];
		bool firstdisk = true, firstcap = true;

		fprintf(f, "%s\n  {\"element\": ", t ? "," : "");
		ctl_json_str(f, tg->element);
		fputs(", \"disk\": ", f);
		ctl_json_str(f, tg->disk);
		fputs(", \"path\": ", f);
		ctl_json_str(f, tg->path);
		fputs(", \"host_disk\": ", f);
		ctl_json_str(f, pl->ok ? pl->node : NULL);
		if (pl->ok)
			fprintf(f, ", \"major\": %u, \"minor\": %u", major(pl->dev),
				minor(pl->dev));
		else
			fputs(", \"major\": null, \"minor\": null", f);
		fputs(", \"disks\": [", f);
		for (size_t i = 0; i < c->io.ndisks; i++) {
			if (!c->disks[i].ok || !pl->ok || c->disks[i].dev != pl->dev)
				continue;
			fputs(firstdisk ? "" : ", ", f);
			ctl_json_str(f, c->io.disks[i].dev);
			firstdisk = false;
		}
		fputs("],\n   \"caps\": [", f);
		for (size_t i = 0; i < cfg->nrules; i++) {
			const struct blockio_rule *r = &cfg->rules[i];

			if (r->target != t)
				continue;
			fprintf(f, "%s{\"kind\": \"%s\", \"limit\": %" PRIu64 ", \"strategy\": \"%s\", \"bucket\": ",
				firstcap ? "" : ", ",
				r->kind == BLOCKIO_BANDWIDTH ? "bandwidth" : "iops",
				r->limit,
				r->strategy == BLOCKIO_TOKEN ? "token" : "leaky");
			if (r->strategy == BLOCKIO_TOKEN)
				fprintf(f, "%" PRIu64 "}", r->bucket);
			else
				fputs("null}", f);
			firstcap = false;
		}
		fputs("]}", f);
	}
	fputs("],\n \"warnings\": [", f);
	for (size_t i = 0; i < c->nwarnings; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		ctl_json_str(f, c->warnings[i]);
	}
	fputs("],\n \"uncapped\": ", f);
	ctl_json_str(f, c->uncapped[0] ? c->uncapped : NULL);
	fputs(",\n \"error\": ", f);
	ctl_json_str(f, c->error[0] ? c->error : NULL);
	fputs("}\n", f);
}

static void check_free(struct check *c)
{
	for (size_t i = 0; i < c->nwarnings; i++)
		free(c->warnings[i]);
	free(c->warnings);
	free(c->targets);
	free(c->disks);
	blockio_domain_io_free(&c->io);
	blockio_config_free(&c->cfg);
}

int ctl_cmd_check(const struct blockio_ctl_env *env, const char *file,
		     bool json, bool offline)
{
	struct check c = { .env = env, .offline = offline };
	FILE *in = stdin;
	char why[256], e[ESC];
	size_t len;
	char *xml;

	if (file && strcmp(file, "-") && !(in = fopen(file, "r"))) {
		fprintf(stderr, "blockioctl: cannot open '%s': %s\n", ctl_esc(file, e),
			strerror(errno));
		return 2;
	}
	switch (blockio_read_all(fileno(in), BLOCKIO_XML_MAX, -1, &xml, &len)) {
	case BLOCKIO_READ_OK:
		why[0] = '\0';
		break;
	case BLOCKIO_READ_ERROR:
		snprintf(why, sizeof(why), "%s", strerror(errno));
		break;
	default:
		snprintf(why, sizeof(why), "larger than %d bytes",
			 BLOCKIO_XML_MAX);
		break;
	}
	if (in != stdin)
		fclose(in);
	if (why[0]) {
		free(xml);
		fprintf(stderr, "blockioctl: cannot read '%s': %s\n",
			file ? ctl_esc(file, e) : "standard input", why);
		return 2;
	}
	run_check(&c, xml, len);
	free(xml);
	if (json)
		print_check_json(stdout, &c);
	else
		print_check_text(stdout, &c);
	len = c.error[0] ? 1 : 0;
	check_free(&c);
	return (int)len;
}
