// SPDX-License-Identifier: GPL-2.0
/*
 * ctl.c - blockioctl, the admin's view of blockio caps.
 *
 *   blockioctl [--json] check [FILE]     what the hook makes of a domain XML
 *   blockioctl [--json] status [DOMAIN]  what the kernel holds for running VMs
 *   blockioctl set DOMAIN CAPS...        change caps through virsh (ctlset.c)
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
 *
 * status only reads: MOUNT/machine/UUID (cgroup.c) for each VM the hook
 * capped, the domain's name from libvirt's status XMLs, and the device
 * names from /sys/dev/block through struct blockio_host.
 *
 * Everything goes through struct blockio_ctl_env so tests/ctl-fake.c runs
 * this file against fakefs.c, a fake /proc and run directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blockio.h"
#include "version.h"

#define MAX_CGROUPS	4096
#define MAX_ROWS	256
#define ROWS_TEXT	65536
#define ESC		512

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort();
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

static char *xvasprintf(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

static char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	return s;
}

static const char *esc(const char *s, char buf[ESC])
{
	blockio_escape(s ? s : "", buf, ESC);
	return buf;
}

/* ---- output ---------------------------------------------------------------- */

/* @s as a JSON string: UTF-8 kept, invalid bytes become U+FFFD. */
static void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (*p) {
		size_t n = 0;

		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
			continue;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
			continue;
		}
		if (*p < 0x80) {
			fputc(*p++, f);
			continue;
		}
		if (*p >= 0xc2 && *p <= 0xdf)
			n = 2;
		else if (*p >= 0xe0 && *p <= 0xef)
			n = 3;
		else if (*p >= 0xf0 && *p <= 0xf4)
			n = 4;
		for (size_t i = 1; i < n; i++)
			if ((p[i] & 0xc0) != 0x80)
				n = 0;
		if (!n) {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		fwrite(p, 1, n, f);
		p += n;
	}
	fputc('"', f);
}

/* "8 MiB/s", "64 MiB", "500/s", "10k": the hook's units, a space before bytes. */
static void human_cap(uint64_t v, enum blockio_quantity q, char *out,
		      size_t len)
{
	char raw[64];
	size_t d;

	blockio_format_quantity(v, q, raw, sizeof(raw));
	d = strspn(raw, "0123456789");
	if (q == BLOCKIO_Q_BANDWIDTH || q == BLOCKIO_Q_BYTES)
		snprintf(out, len, "%.*s %s", (int)d, raw, raw + d);
	else
		snprintf(out, len, "%s", raw);
}

/* A counter of bytes, rounded: "512 B", "40.0 MiB", "1.2 GiB". */
static void human_bytes(uint64_t v, char *out, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double x = (double)v;
	int u = -1;

	if (v < 1024) {
		snprintf(out, len, "%" PRIu64 " B", v);
		return;
	}
	while (x >= 1024 && u < 4) {
		x /= 1024;
		u++;
	}
	snprintf(out, len, "%.1f %s", x, units[u]);
}

/* ---- check: the report ----------------------------------------------------- */

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
		human_cap(r->limit, bw ? BLOCKIO_Q_BANDWIDTH : BLOCKIO_Q_IOPS,
			  limit, sizeof(limit));
		human_cap(r->bucket, bw ? BLOCKIO_Q_BYTES : BLOCKIO_Q_OPS,
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
					     esc(d->dev, e1), esc(d->source, e2),
					     c->targets[t].node, tg->element, caps);
				continue;
			}
			warn(c, "%s (%s) has no cap of its own but is on %s too: blockio caps a VM per host disk, so the cap of %s (%s) is the cap of %s and %s together",
			     esc(d->dev, e1), esc(d->source, e2),
			     c->targets[t].node, esc(tg->disk, e3), caps,
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
				human_cap(sum[BLOCKIO_BANDWIDTH], BLOCKIO_Q_BANDWIDTH,
					  bw, sizeof(bw));
			if (sum[BLOCKIO_IOPS])
				human_cap(sum[BLOCKIO_IOPS], BLOCKIO_Q_IOPS, iops,
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
	char buf[65536], *line, *save = NULL;
	size_t len = 0;
	int fds[2], status;
	bool first = true;
	pid_t pid;

	*chain = NULL;
	*n = 0;
	if (pipe(fds))
		abort();
	pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, STDIN_FILENO);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		execlp(qemu_img, qemu_img, "info", "--backing-chain", "-U",
		       path, (char *)NULL);
		printf("cannot run %s: %s\n", qemu_img, strerror(errno));
		fflush(stdout);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		ssize_t r = read(fds[0], buf + len, sizeof(buf) - 1 - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
		if (len == sizeof(buf) - 1)
			break;
	}
	close(fds[0]);
	buf[len] = '\0';
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char plain[256];

		blockio_plain(strtok_r(buf, "\n", &save) ? buf : "no output",
			      plain, sizeof(plain));
		snprintf(why, whylen, "%s", plain);
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
		*chain = realloc(*chain, (*n + 1) * sizeof(char *));
		if (!*chain)
			abort();
		(*chain)[(*n)++] = xstrdup(line + 7);
	}
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
		     esc(d->dev, e1), esc(file, e2), from, pl.why,
		     c->targets[t].node);
	else if (pl.dev != c->targets[t].dev && !capped_elsewhere(c, pl.dev))
		warn(c, "%s: backing file '%s' (%s) is on %s (%u:%u), not on %s: QEMU's reads of it would not be capped, and the hook's start refuses the domain so; cap that host disk too with <blockio:device path='%s'/>",
		     esc(d->dev, e1), esc(file, e2), from, pl.node,
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
			     esc(d->dev, e1), esc(d->source, e2),
			     esc(d->format, e3), c->targets[t].node);
			continue;
		}
		if (qemu_img_chain(c->env->qemu_img, d->source, &chain, &n, why,
				   sizeof(why))) {
			warn(c, "%s: 'qemu-img info --backing-chain' failed on '%s': %s; its backing chain is not checked",
			     esc(d->dev, e1), esc(d->source, e2), why);
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
			     esc(d->dev, e1), d->iotune);
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
			     esc(bt->path, e2), bt->limits, pl.node);
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
			     esc(d->dev, e1), esc(d->type, e2));
			continue;
		}
		if (c->disks[i].netfs) {
			warn(c, "%s: '%s' is on a network filesystem: its <iotune> stays QEMU's own limit, on the guest's requests; blockio cannot cap I/O that leaves this host as network traffic (the server that carries it can limit this host's traffic, all of its VMs together)",
			     esc(d->dev, e1), esc(d->source, e2));
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
					      esc(c->io.disks[i].dev, e));
	}
}

static void print_check_text(FILE *f, const struct check *c)
{
	const struct blockio_config *cfg = &c->cfg;
	char e1[ESC], e2[ESC];

	if (cfg->name || cfg->uuid[0])
		fprintf(f, "domain '%s' (uuid %s)\n", esc(cfg->name, e1),
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
			fprintf(f, "%s: %s %s: %s\n", esc(tg->disk, e1),
				esc(tg->path, e2), where, caps);
			continue;
		}
		covered(c, t, disks, sizeof(disks));
		fprintf(f, "device %s %s, %s%s: %s\n", esc(tg->path, e1), where,
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
	json_str(f, cfg->name);
	fputs(", \"uuid\": ", f);
	json_str(f, cfg->uuid[0] ? cfg->uuid : NULL);
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
		json_str(f, tg->element);
		fputs(", \"disk\": ", f);
		json_str(f, tg->disk);
		fputs(", \"path\": ", f);
		json_str(f, tg->path);
		fputs(", \"host_disk\": ", f);
		json_str(f, pl->ok ? pl->node : NULL);
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
			json_str(f, c->io.disks[i].dev);
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
		json_str(f, c->warnings[i]);
	}
	fputs("],\n \"uncapped\": ", f);
	json_str(f, c->uncapped[0] ? c->uncapped : NULL);
	fputs(",\n \"error\": ", f);
	json_str(f, c->error[0] ? c->error : NULL);
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

/* All of @f, NUL-terminated; NULL with @why on an I/O error or overflow. */
static char *slurp(FILE *f, size_t *len, char *why, size_t whylen)
{
	size_t size = 65536;
	char *buf = malloc(size);

	*len = 0;
	if (!buf)
		abort();
	for (;;) {
		size_t n = fread(buf + *len, 1, size - 1 - *len, f);

		*len += n;
		if (*len > BLOCKIO_XML_MAX) {
			snprintf(why, whylen, "larger than %d bytes", BLOCKIO_XML_MAX);
			break;
		}
		if (n == 0) {
			if (ferror(f)) {
				snprintf(why, whylen, "%s", strerror(errno));
				break;
			}
			buf[*len] = '\0';
			return buf;
		}
		if (*len + 1 == size) {
			size *= 2;
			buf = realloc(buf, size);
			if (!buf)
				abort();
		}
	}
	free(buf);
	return NULL;
}

static int cmd_check(const struct blockio_ctl_env *env, const char *file,
		     bool json, bool offline)
{
	struct check c = { .env = env, .offline = offline };
	FILE *in = stdin;
	char why[256], e[ESC];
	size_t len;
	char *xml;

	if (file && strcmp(file, "-") && !(in = fopen(file, "r"))) {
		fprintf(stderr, "blockioctl: cannot open '%s': %s\n", esc(file, e),
			strerror(errno));
		return 2;
	}
	xml = slurp(in, &len, why, sizeof(why));
	if (in != stdin)
		fclose(in);
	if (!xml) {
		fprintf(stderr, "blockioctl: cannot read '%s': %s\n",
			file ? esc(file, e) : "standard input", why);
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

/* ---- status ---------------------------------------------------------------- */

struct device {
	unsigned major, minor;
	char node[256];			/* "" if unknown */
	const struct blockio_row *bw, *iops;
	const struct blockio_stat_row *stat;
	const struct blockio_throttle_row *thr;
};

struct vm {
	char uuid[37];
	const char *name;		/* NULL: no running domain has it */
	int procs;			/* -1: unknown */
	struct blockio_row bw[MAX_ROWS], iops[MAX_ROWS];
	struct blockio_stat_row stat[MAX_ROWS];
	struct blockio_throttle_row thr[MAX_ROWS];
	struct device dev[4 * MAX_ROWS];
	size_t ndev;
	char errors[4][sizeof(((struct blockio_error *)0)->msg)];
	size_t nerrors;
};

static struct device *device_of(struct vm *vm, unsigned maj, unsigned min)
{
	struct device *d;

	for (size_t i = 0; i < vm->ndev; i++)
		if (vm->dev[i].major == maj && vm->dev[i].minor == min)
			return &vm->dev[i];
	d = &vm->dev[vm->ndev++];
	memset(d, 0, sizeof(*d));
	d->major = maj;
	d->minor = min;
	return d;
}

/* Read @file of the VM's cgroup; on failure note it and return NULL. */
static const char *read_file(const char *mount, struct vm *vm,
			     const char *file, char *buf)
{
	struct blockio_error err;

	if (!blockio_read_cgroup_file(mount, vm->uuid, file, buf, ROWS_TEXT, &err))
		return buf;
	if (vm->nerrors < 4)
		snprintf(vm->errors[vm->nerrors++], sizeof(vm->errors[0]), "%s",
			 err.msg);
	return NULL;
}

static void malformed(struct vm *vm, const char *file)
{
	char uuid[37];

	memcpy(uuid, vm->uuid, sizeof(uuid));
	if (vm->nerrors < 4)
		snprintf(vm->errors[vm->nerrors++], sizeof(vm->errors[0]),
			 "malformed machine/%s/%s", uuid, file);
}

static void read_vm(const struct blockio_ctl_env *env, const char *mount,
		    struct vm *vm)
{
	static char text[ROWS_TEXT];
	const char *t;
	int n;

	if ((t = read_file(mount, vm, "blockio.stat", text))) {
		n = blockio_parse_stat(t, vm->stat, MAX_ROWS);
		if (n < 0)
			malformed(vm, "blockio.stat");
		for (int i = 0; i < n; i++)
			device_of(vm, vm->stat[i].major, vm->stat[i].minor)->stat = &vm->stat[i];
	}
	for (int k = 0; k < 2; k++) {
		struct blockio_row *rows = k ? vm->iops : vm->bw;
		const char *file = blockio_kind_file(k ? BLOCKIO_IOPS : BLOCKIO_BANDWIDTH);

		if (!(t = read_file(mount, vm, file, text)))
			continue;
		n = blockio_parse_rows(t, rows, MAX_ROWS);
		if (n < 0)
			malformed(vm, file);
		for (int i = 0; i < n; i++) {
			struct device *d = device_of(vm, rows[i].major, rows[i].minor);

			if (k)
				d->iops = &rows[i];
			else
				d->bw = &rows[i];
		}
	}
	if ((t = read_file(mount, vm, "blockio.throttlecnt", text))) {
		n = blockio_parse_throttlecnt(t, vm->thr, MAX_ROWS);
		if (n < 0)
			malformed(vm, "blockio.throttlecnt");
		for (int i = 0; i < n; i++)
			device_of(vm, vm->thr[i].major, vm->thr[i].minor)->thr = &vm->thr[i];
	}
	vm->procs = -1;
	if ((t = read_file(mount, vm, "cgroup.procs", text))) {
		vm->procs = 0;
		for (; *t; t++)
			vm->procs += *t == '\n';
	}
	for (size_t i = 0; i < vm->ndev; i++) {
		struct device *d = &vm->dev[i];
		struct blockio_error err;

		if (blockio_devnode(env->host, makedev(d->major, d->minor),
				    d->node, sizeof(d->node), &err))
			d->node[0] = '\0';
	}
}

/* "8 MiB/s leaky", "500/s token bucket 1000" from a rule row. */
static void row_text(const struct blockio_row *r, bool iops, char *out,
		     size_t len)
{
	char limit[64], bucket[64];

	if (!iops) {
		human_cap(r->limit, BLOCKIO_Q_BANDWIDTH, limit, sizeof(limit));
		human_cap(r->bucket, BLOCKIO_Q_BYTES, bucket, sizeof(bucket));
	} else if (r->limit % BLOCKIO_IOPS_SCALE || r->bucket % BLOCKIO_IOPS_SCALE) {
		snprintf(limit, sizeof(limit), "%.3f/s",
			 (double)r->limit / BLOCKIO_IOPS_SCALE);
		snprintf(bucket, sizeof(bucket), "%.3f",
			 (double)r->bucket / BLOCKIO_IOPS_SCALE);
	} else {
		human_cap(r->limit / BLOCKIO_IOPS_SCALE, BLOCKIO_Q_IOPS, limit,
			  sizeof(limit));
		human_cap(r->bucket / BLOCKIO_IOPS_SCALE, BLOCKIO_Q_OPS, bucket,
			  sizeof(bucket));
	}
	snprintf(out, len, "%s %s%s%s", iops ? "iops" : "bandwidth", limit,
		 r->strategy ? " token bucket " : " leaky",
		 r->strategy ? bucket : "");
}

static double ticks_s(uint64_t ticks)
{
	long hz = sysconf(_SC_CLK_TCK);

	return (double)ticks / (double)(hz > 0 ? hz : 100);
}

static void print_vm_text(FILE *f, const struct vm *vm)
{
	char e[ESC];

	if (vm->name)
		fprintf(f, "%s (%s): cgroup machine/%s", esc(vm->name, e),
			vm->uuid, vm->uuid);
	else
		fprintf(f, "? (%s): cgroup machine/%s, no running domain has this UUID (left over?)",
			vm->uuid, vm->uuid);
	if (vm->procs >= 0)
		fprintf(f, ", %d process%s", vm->procs, vm->procs == 1 ? "" : "es");
	fputc('\n', f);
	if (!vm->ndev)
		fprintf(f, "  no rules\n");
	for (size_t i = 0; i < vm->ndev; i++) {
		const struct device *d = &vm->dev[i];
		char bw[256] = "", iops[256] = "";

		if (d->bw)
			row_text(d->bw, false, bw, sizeof(bw));
		if (d->iops)
			row_text(d->iops, true, iops, sizeof(iops));
		fprintf(f, "  %s (%u:%u): %s%s%s\n",
			d->node[0] ? d->node : "unknown device", d->major,
			d->minor, bw, bw[0] && iops[0] ? ", " : "",
			!bw[0] && !iops[0] ? "no cap" : iops);
		if (d->stat) {
			char bytes[32], wr[32], held[32];

			human_bytes(d->stat->bytes, bytes, sizeof(bytes));
			human_bytes(d->stat->write_bytes, wr, sizeof(wr));
			human_bytes(d->stat->queued_bytes, held, sizeof(held));
			fprintf(f, "    charged %s in %" PRIu64 " I/Os (%s written); held back by kiothrottled so far %" PRIu64 " bios, %s\n",
				bytes, d->stat->ios, wr, d->stat->queued_bios, held);
		}
		if (d->thr)
			fprintf(f, "    delayed %" PRIu64 " times by bandwidth (%.2f s), %" PRIu64 " by iops (%.2f s)\n",
				d->thr->bw_count, ticks_s(d->thr->bw_sleep),
				d->thr->iops_count, ticks_s(d->thr->iops_sleep));
	}
	for (size_t i = 0; i < vm->nerrors; i++)
		fprintf(f, "  error: %s\n", vm->errors[i]);
}

static void json_row(FILE *f, const char *key, const struct blockio_row *r,
		     bool iops)
{
	fprintf(f, ", \"%s\": ", key);
	if (!r) {
		fputs("null", f);
		return;
	}
	if (iops)
		fprintf(f, "{\"limit\": %.3f, \"strategy\": \"%s\", \"bucket\": ",
			(double)r->limit / BLOCKIO_IOPS_SCALE,
			r->strategy ? "token" : "leaky");
	else
		fprintf(f, "{\"limit\": %" PRIu64 ", \"strategy\": \"%s\", \"bucket\": ",
			r->limit, r->strategy ? "token" : "leaky");
	if (!r->strategy)
		fputs("null}", f);
	else if (iops)
		fprintf(f, "%.3f}", (double)r->bucket / BLOCKIO_IOPS_SCALE);
	else
		fprintf(f, "%" PRIu64 "}", r->bucket);
}

static void print_vm_json(FILE *f, const struct vm *vm)
{
	fputs("  {\"name\": ", f);
	json_str(f, vm->name);
	fprintf(f, ", \"uuid\": \"%s\", \"running\": %s, \"cgroup\": \"machine/%s\", \"processes\": ",
		vm->uuid, vm->name ? "true" : "false", vm->uuid);
	if (vm->procs >= 0)
		fprintf(f, "%d", vm->procs);
	else
		fputs("null", f);
	fputs(",\n   \"devices\": [", f);
	for (size_t i = 0; i < vm->ndev; i++) {
		const struct device *d = &vm->dev[i];

		fprintf(f, "%s\n    {\"device\": ", i ? "," : "");
		json_str(f, d->node[0] ? d->node : NULL);
		fprintf(f, ", \"major\": %u, \"minor\": %u", d->major, d->minor);
		json_row(f, "bandwidth", d->bw, false);
		json_row(f, "iops", d->iops, true);
		if (d->stat)
			fprintf(f, ",\n     \"bytes\": %" PRIu64 ", \"ios\": %" PRIu64 ", \"write_bytes\": %" PRIu64 ", \"held_bios\": %" PRIu64 ", \"held_bytes\": %" PRIu64,
				d->stat->bytes, d->stat->ios, d->stat->write_bytes,
				d->stat->queued_bios, d->stat->queued_bytes);
		else
			fputs(",\n     \"bytes\": null, \"ios\": null, \"write_bytes\": null, \"held_bios\": null, \"held_bytes\": null", f);
		if (d->thr)
			fprintf(f, ",\n     \"bandwidth_delays\": %" PRIu64 ", \"bandwidth_delay_s\": %.2f, \"iops_delays\": %" PRIu64 ", \"iops_delay_s\": %.2f}",
				d->thr->bw_count, ticks_s(d->thr->bw_sleep),
				d->thr->iops_count, ticks_s(d->thr->iops_sleep));
		else
			fputs(",\n     \"bandwidth_delays\": null, \"bandwidth_delay_s\": null, \"iops_delays\": null, \"iops_delay_s\": null}", f);
	}
	fputs("],\n   \"errors\": [", f);
	for (size_t i = 0; i < vm->nerrors; i++) {
		fputs(i ? ", " : "", f);
		json_str(f, vm->errors[i]);
	}
	fputs("]}", f);
}

/* Does @want name domain @name or UUID @uuid? */
static bool wanted(const char *want, const char *name, const char *uuid)
{
	char norm[37];

	if (!want)
		return true;
	if (name && !strcmp(want, name))
		return true;
	return !blockio_uuid_parse(want, norm) && !strcmp(norm, uuid);
}

static int cmd_status(const struct blockio_ctl_env *env, const char *want,
		      bool json)
{
	static char uuids[MAX_CGROUPS][37];
	struct blockio_running *doms = NULL;
	struct blockio_error err = { "" };
	struct blockio_options opts;
	char mount[PATH_MAX], e[ESC];
	int ncg, ndoms;
	size_t shown = 0, nuncapped = 0;
	bool first = true;
	struct vm *vm;

	if (blockio_find_mount(env->paths, mount, sizeof(mount), &err) ||
	    (ncg = blockio_list_cgroups(mount, uuids, MAX_CGROUPS, &err)) < 0 ||
	    (ndoms = blockio_running_domains(env->paths, &doms, &err)) < 0) {
		fprintf(stderr, "blockioctl: %s\n", err.msg);
		return 1;
	}
	/* libvirt-limits = yes: a domain with an <iotune> was meant capped */
	if (blockio_hookconf_load(env->paths, &opts, &err)) {
		fprintf(stderr, "blockioctl: %s\n", err.msg);
		opts.libvirt_limits = false;
	}
	vm = xcalloc(1, sizeof(*vm));
	if (json)
		fputs("{\"domains\": [", stdout);
	/* the running domains, by name, then cgroups of no running domain */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < (pass ? ncg : ndoms); i++) {
			const char *uuid = pass ? uuids[i] : doms[i].uuid;
			const char *name = pass ? NULL : doms[i].name;
			bool has = false;

			if (pass)
				for (int j = 0; j < ndoms && !has; j++)
					has = !strcmp(doms[j].uuid, uuid);
			else
				for (int j = 0; j < ncg && !has; j++)
					has = !strcmp(uuids[j], uuid);
			if (pass ? has : !has) {
				nuncapped += !pass && wanted(want, name, uuid);
				continue;
			}
			if (!wanted(want, name, uuid))
				continue;
			memset(vm, 0, sizeof(*vm));
			memcpy(vm->uuid, uuid, sizeof(vm->uuid));
			vm->name = name;
			read_vm(env, mount, vm);
			if (json) {
				fputs(first ? "\n" : ",\n", stdout);
				print_vm_json(stdout, vm);
			} else {
				print_vm_text(stdout, vm);
			}
			first = false;
			shown++;
		}
	}
	free(vm);
	if (json) {
		bool firstu = true;

		fputs("],\n \"uncapped\": [", stdout);
		for (int j = 0; j < ndoms; j++) {
			bool has = false;

			for (int i = 0; i < ncg && !has; i++)
				has = !strcmp(uuids[i], doms[j].uuid);
			if (has || !wanted(want, doms[j].name, doms[j].uuid))
				continue;
			fputs(firstu ? "" : ", ", stdout);
			json_str(stdout, doms[j].name);
			firstu = false;
		}
		fputs("],\n \"libvirt_limits_only\": [", stdout);
		firstu = true;
		for (int j = 0; j < ndoms; j++) {
			bool has = false;

			for (int i = 0; i < ncg && !has; i++)
				has = !strcmp(uuids[i], doms[j].uuid);
			if (has || !opts.libvirt_limits || !doms[j].libvirt_limited ||
			    !wanted(want, doms[j].name, doms[j].uuid))
				continue;
			fputs(firstu ? "" : ", ", stdout);
			json_str(stdout, doms[j].name);
			firstu = false;
		}
		fputs("]}\n", stdout);
	} else {
		for (int j = 0; j < ndoms; j++) {
			bool has = false;

			for (int i = 0; i < ncg && !has; i++)
				has = !strcmp(uuids[i], doms[j].uuid);
			if (has || !wanted(want, doms[j].name, doms[j].uuid))
				continue;
			if (opts.libvirt_limits && doms[j].libvirt_limited)
				printf("%s (%s): running, no blockio cgroup: limited by libvirt's <iotune>/<blkiotune> only, not by blockio (libvirt-limits = yes, but the hook could not cap it: journalctl -t blockio-hook says why)\n",
				       esc(doms[j].name, e), doms[j].uuid);
			else
				printf("%s (%s): running, no blockio cgroup: not capped\n",
				       esc(doms[j].name, e), doms[j].uuid);
		}
		if (!want && !shown && !nuncapped)
			printf("no running domain and no blockio cgroup\n");
	}
	blockio_running_free(doms, (size_t)(ndoms > 0 ? ndoms : 0));
	if (want && !shown) {
		if (!nuncapped)
			fprintf(stderr, "blockioctl: no running domain or blockio cgroup '%s'\n",
				esc(want, e));
		return 1;
	}
	return 0;
}

/* ---- the command line ------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: blockioctl [--json] check [--offline] [FILE]\n"
		"       blockioctl [--json] status [DOMAIN]\n"
		"       blockioctl [-c URI] set DOMAIN DISK:KEY=VALUE[,KEY=VALUE...] ... | none\n"
		"       blockioctl -h | --help | --version\n"
		"\n"
		"  check   what the blockio hook makes of a domain XML (FILE, or standard\n"
		"          input): every cap on its host disk, warnings, and exit 1 with the\n"
		"          hook's message when prepare would refuse the domain on this host;\n"
		"          --offline: the XML alone (no blockio kernel, host disk or qemu-img\n"
		"          needed), exit 1 only for what no host would accept\n"
		"  status  each running VM's blockio cgroup (or only DOMAIN, a name or UUID):\n"
		"          its caps, bytes and I/Os charged, held back, delays\n"
		"  set     check new caps with the hook's code, then write them with\n"
		"          virsh metadata (--live when running, --config when persistent);\n"
		"          DISK is a target (vda) or a host device path (/dev/sdb), KEY one\n"
		"          of bandwidth, iops, strategy, bucket, iops-bucket; 'none' removes\n"
		"          all caps.  e.g. set vm1 vda:bandwidth=8MiB/s,iops=500\n"
		"  --json  the same as one JSON object (keys in blockioctl(8))\n"
		"  -c, --connect URI  libvirt URI for set (default qemu:///system)\n"
		"\n"
		"Caps are read from <blockio:limits xmlns:blockio='%s'>\n"
		"in <metadata>; see blockio-hook(8).\n", BLOCKIO_NS_URI);
}

static void short_usage(void)
{
	fputs("usage: blockioctl [--json] check [--offline] [FILE] | status [DOMAIN] | set DOMAIN CAPS...\n"
	      "Try 'blockioctl --help'.\n", stderr);
}

int blockio_ctl_main(int argc, char **argv, const struct blockio_ctl_env *env)
{
	const char *uri = "qemu:///system";
	char **words = calloc((size_t)argc + 1, sizeof(char *));
	bool json = false, uri_given = false, offline = false;
	int nwords = 0, ret = 2;

	if (!words)
		abort();
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			ret = 0;
			goto out;
		}
		if (!strcmp(a, "--version")) {
			printf("blockioctl %s\n", BLOCKIO_VERSION);
			ret = 0;
			goto out;
		}
		if (!strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--offline")) {
			offline = true;
		} else if (!strcmp(a, "-c") || !strcmp(a, "--connect")) {
			if (i + 1 == argc) {
				fprintf(stderr, "blockioctl: %s needs a URI\n", a);
				short_usage();
				goto out;
			}
			uri = argv[++i];
			uri_given = true;
		} else if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				words[nwords++] = argv[i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "blockioctl: unknown option '%s'\n", a);
			short_usage();
			goto out;
		} else {
			words[nwords++] = argv[i];
		}
	}
	if (nwords && !strcmp(words[0], "set")) {
		if (json || offline) {
			fprintf(stderr, "blockioctl: set has no %s\n",
				json ? "--json" : "--offline");
			short_usage();
		} else if (nwords < 3) {
			fprintf(stderr, "blockioctl: set needs a DOMAIN and caps (DISK:KEY=VALUE,... or none)\n");
			short_usage();
		} else {
			ret = blockio_ctl_set(env, uri, words[1], nwords - 2,
					      words + 2);
		}
		goto out;
	}
	if (uri_given) {
		fprintf(stderr, "blockioctl: -c is for set only\n");
		short_usage();
	} else if (offline && (!nwords || strcmp(words[0], "check"))) {
		fprintf(stderr, "blockioctl: --offline is for check only\n");
		short_usage();
	} else if (nwords && nwords <= 2 && !strcmp(words[0], "check")) {
		ret = cmd_check(env, nwords == 2 ? words[1] : NULL, json, offline);
	} else if (nwords && nwords <= 2 && !strcmp(words[0], "status")) {
		ret = cmd_status(env, nwords == 2 ? words[1] : NULL, json);
	} else {
		short_usage();
	}
out:
	free(words);
	return ret;
}
