// SPDX-License-Identifier: GPL-2.0
/*
 * resolve.c - which host disk a target lands on.
 *
 * The kernel keeps rules per whole disk, so every target is mapped to one:
 *
 *   regular file   -> st_dev, the device of the filesystem holding it
 *   block device   -> st_rdev, the device itself
 *   partition      -> /sys/dev/block/MAJ:MIN/../dev, its disk
 *   whole disk     -> /dev/DEVNAME from /sys/dev/block/MAJ:MIN/uevent,
 *                     checked to be that very device
 *
 * A file on a filesystem without a block device of its own (major 0) is
 * refused, with advice that depends on the filesystem (mountinfo): a
 * network filesystem (NFS, CIFS, CephFS, ...) sends the I/O out as network
 * traffic that no blockio rule on this host sees, so <iotune> or the
 * server are the places to limit it; tmpfs writes reach no disk; btrfs,
 * overlayfs and the like do sit on disks, which <blockio:device> names.
 * With libvirt-limits, an <iotune> target on a network filesystem is left
 * to QEMU (as a <disk type='network'> is) rather than refused.
 * All of it goes through struct blockio_host, which tests replace.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blockio.h"
#include "names.h"
#include "config.h"
#include "resolve.h"

static int real_stat(void *priv, const char *path, struct stat *st)
{
	(void)priv;
	return stat(path, st) ? -errno : 0;
}

static int real_read_file(void *priv, const char *path, char *buf,
			  size_t size)
{
	ssize_t n;
	int fd;

	(void)priv;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	close(fd);
	buf[n] = '\0';
	return 0;
}

const struct blockio_host blockio_host_real = {
	.stat = real_stat,
	.read_file = real_read_file,
};

/* Parse "MAJ:MIN\n" from a sysfs dev file. */
static int parse_devnum(const char *s, dev_t *dev)
{
	unsigned maj, min;
	char tail;

	if (sscanf(s, "%u:%u%c", &maj, &min, &tail) != 3 || tail != '\n')
		return -1;
	*dev = makedev(maj, min);
	return 0;
}

/* The whole disk of @dev: itself, or the parent of a partition. */
static int whole_disk(const struct blockio_host *host, dev_t dev,
		      dev_t *disk, struct blockio_error *err)
{
	char path[96], buf[64];
	int rc;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/dev", major(dev),
		 minor(dev));
	rc = host->read_file(host->priv, path, buf, sizeof(buf));
	if (rc) {
		blockio_error_set(err, "no block device %u:%u in /sys/dev/block: %s",
				  major(dev), minor(dev), strerror(-rc));
		return -1;
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition",
		 major(dev), minor(dev));
	if (host->read_file(host->priv, path, buf, sizeof(buf))) {
		*disk = dev;	/* no "partition" file: a whole disk */
		return 0;
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../dev", major(dev),
		 minor(dev));
	rc = host->read_file(host->priv, path, buf, sizeof(buf));
	if (rc || parse_devnum(buf, disk)) {
		blockio_error_set(err, "cannot find the disk of partition %u:%u in /sys/dev/block",
				  major(dev), minor(dev));
		return -1;
	}
	return 0;
}

int blockio_devnode(const struct blockio_host *host, dev_t dev, char *out,
		    size_t outlen, struct blockio_error *err)
{
	char path[96], buf[1024], *name, *end;
	struct stat st;
	int rc;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", major(dev),
		 minor(dev));
	rc = host->read_file(host->priv, path, buf, sizeof(buf));
	name = rc ? NULL : strstr(buf, "DEVNAME=");
	if (name && name != buf && name[-1] != '\n')
		name = NULL;
	if (!name) {
		blockio_error_set(err, "no DEVNAME for block device %u:%u in %s",
				  major(dev), minor(dev), path);
		return -1;
	}
	name += strlen("DEVNAME=");
	end = strchr(name, '\n');
	if (end)
		*end = '\0';
	if (!*name || strstr(name, "..") ||
	    (size_t)snprintf(out, outlen, "/dev/%s", name) >= outlen) {
		blockio_error_set(err, "odd DEVNAME for block device %u:%u in %s",
				  major(dev), minor(dev), path);
		return -1;
	}
	rc = host->stat(host->priv, out, &st);
	if (rc || !S_ISBLK(st.st_mode) || st.st_rdev != dev) {
		blockio_error_set(err, "%s is not block device %u:%u%s%s", out,
				  major(dev), minor(dev), rc ? ": " : "",
				  rc ? strerror(-rc) : "");
		return -1;
	}
	return 0;
}

/* Network filesystems: their I/O leaves the host as network traffic. */
static bool network_fstype(const char *type)
{
	static const char *const types[] = {
		"nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "9p", "afs",
		"lustre", "gpfs", "glusterfs", "fuse.glusterfs",
		"fuse.ceph-fuse", "fuse.sshfs", "fuse.s3fs", NULL,
	};

	for (const char *const *t = types; *t; t++)
		if (!strcmp(type, *t))
			return true;
	return false;
}

/*
 * The filesystem type and source of the mount with device number @dev,
 * from /proc/self/mountinfo ("36 25 0:52 / /mnt rw - nfs4 filer:/vms rw").
 * false when it cannot be told.
 */
static bool mount_of(const struct blockio_host *host, dev_t dev,
		     char type[256], char source[1024])
{
	const size_t size = 256 * 1024;
	char want[32], *text = malloc(size), *line, *save = NULL;
	bool found = false;

	if (!text)
		abort();
	if (host->read_file(host->priv, "/proc/self/mountinfo", text, size)) {
		free(text);
		return false;
	}
	snprintf(want, sizeof(want), "%u:%u", major(dev), minor(dev));
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char id[16], parent[16], devnum[32], *sep;

		if (sscanf(line, "%15s %15s %31s", id, parent, devnum) != 3 ||
		    strcmp(devnum, want))
			continue;
		sep = strstr(line, " - ");
		if (!sep)
			continue;
		found = sscanf(sep + 3, "%255s", type) == 1;
		if (found && sscanf(sep + 3, "%*s %1023s", source) != 1)
			strcpy(source, "none");
	}
	free(text);
	return found;
}

/* @t's file is on @dev, a filesystem without a block device: why not. */
static void nodev_error(const struct blockio_host *host,
			struct blockio_target *t, dev_t dev,
			struct blockio_error *err)
{
	char type[256], source[1024], esc[512], etype[256], esrc[512];

	blockio_escape(t->path, esc, sizeof(esc));
	if (!mount_of(host, dev, type, source)) {
		blockio_error_set(err,
				  "%s: '%s' is on a filesystem without a block device (%u:%u); cap the host disk with <blockio:device path='...'/>",
				  t->element, esc, major(dev), minor(dev));
		return;
	}
	blockio_escape(type, etype, sizeof(etype));
	blockio_escape(source, esrc, sizeof(esrc));
	if (network_fstype(type)) {
		t->netfs = true;
		blockio_error_set(err,
				  "%s: '%s' is on a network filesystem (%s %s, %u:%u): its I/O leaves this host as network traffic, not block I/O, so blockio cannot cap it; use <iotune> in that <disk> (QEMU enforces it on the guest's requests), or limit the traffic at the server that carries it (there it is this host's traffic, all of its VMs together)",
				  t->element, esc, etype, esrc, major(dev), minor(dev));
	} else if ((!strcmp(type, "tmpfs") || !strcmp(type, "ramfs")) &&
		   t->backing) {
		blockio_error_set(err,
				  "%s: '%s' is on %s (%u:%u), in memory: QEMU only reads a backing file, and those reads reach no host disk, so blockio cannot cap them; move the backing file to a host disk the domain caps, or flatten the image (qemu-img convert)",
				  t->element, esc, etype, major(dev), minor(dev));
	} else if (!strcmp(type, "tmpfs") || !strcmp(type, "ramfs")) {
		blockio_error_set(err,
				  "%s: '%s' is on %s (%u:%u), in memory: its writes reach no disk, so blockio has nothing to cap; move the image to a host disk to cap it",
				  t->element, esc, etype, major(dev), minor(dev));
	} else {
		blockio_error_set(err,
				  "%s: '%s' is on a filesystem without a single block device (%s from %s, %u:%u); cap the host disk under it with <blockio:device path='/dev/...'/>",
				  t->element, esc, etype, esrc, major(dev), minor(dev));
	}
}

int blockio_target_resolve(const struct blockio_host *host,
			   struct blockio_target *t, struct blockio_error *err)
{
	char esc[512], node[512];
	struct stat st;
	dev_t dev;
	int rc;

	t->netfs = false;
	blockio_escape(t->path, esc, sizeof(esc));
	rc = host->stat(host->priv, t->path, &st);
	if (rc) {
		blockio_error_set(err, "%s: cannot stat '%s': %s", t->element,
				  esc, strerror(-rc));
		return -1;
	}
	if (S_ISBLK(st.st_mode)) {
		dev = st.st_rdev;
	} else if (S_ISREG(st.st_mode) && !t->must_be_block) {
		dev = st.st_dev;
	} else {
		blockio_error_set(err, "%s: '%s' is not a %s", t->element, esc,
				  t->must_be_block ? "block device"
						   : "regular file or block device");
		return -1;
	}
	if (!major(dev)) {
		nodev_error(host, t, dev, err);
		return -1;
	}
	if (whole_disk(host, dev, &t->dev, err) ||
	    blockio_devnode(host, t->dev, node, sizeof(node), err)) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		blockio_error_set(err, "%s: '%s': %s", t->element, esc, why);
		return -1;
	}
	free(t->devnode);
	t->devnode = strdup(node);
	if (!t->devnode)
		abort();
	return 0;
}

int blockio_config_resolve(struct blockio_config *cfg,
			   const struct blockio_host *host,
			   struct blockio_error *err)
{
	for (size_t i = 0; i < cfg->ntargets; i++) {
		struct blockio_target *t = &cfg->targets[i];

		if (blockio_target_resolve(host, t, err)) {
			/* libvirt's limits: QEMU's <iotune> stays the limit there */
			if (cfg->libvirt_limits && t->netfs &&
			    t->merge == BLOCKIO_MERGE_SUM) {
				err->msg[0] = '\0';
				continue;
			}
			return -1;
		}
		for (size_t j = 0; j < i && !cfg->libvirt_limits; j++) {
			if (cfg->targets[j].dev != t->dev)
				continue;
			blockio_error_set(err,
					  "%s and %s are both on host disk %s (%u:%u); the kernel keeps one rule per disk",
					  cfg->targets[j].element, t->element,
					  t->devnode, major(t->dev), minor(t->dev));
			return -1;
		}
	}
	/* libvirt's limits: one target per host disk, merged */
	if (cfg->libvirt_limits)
		blockio_config_merge(cfg);
	return 0;
}

/* Is there a target on host disk @dev (it then has a rule: see blockio.h)? */
static bool capped_disk(const struct blockio_config *cfg, dev_t dev)
{
	for (size_t i = 0; i < cfg->ntargets; i++)
		if (!cfg->targets[i].netfs && cfg->targets[i].dev == dev)
			return true;
	return false;
}

static int check_chain(const struct blockio_host *host,
		       const struct blockio_config *cfg,
		       const struct blockio_target *t,
		       const struct blockio_disk *d, struct blockio_error *err)
{
	char esc[512];

	if (d->backing_other) {
		blockio_escape(d->backing_other, esc, sizeof(esc));
		blockio_error_set(err,
				  "%s: its backing chain goes on in a '%s' backing store, whose reads blockio cannot cap; flatten the image onto a host disk (qemu-img convert) or limit that disk with <iotune>",
				  t->element, esc);
		return -1;
	}
	for (size_t j = 0; j < d->nbacking; j++) {
		struct blockio_target b = { .element = t->element,
					    .path = d->backing[j],
					    .backing = true };

		if (blockio_target_resolve(host, &b, err)) {
			char why[sizeof(err->msg)];

			snprintf(why, sizeof(why), "%s", err->msg);
			blockio_error_set(err, "backing file of %s", why);
			free(b.devnode);
			return -1;
		}
		if (b.dev == t->dev || capped_disk(cfg, b.dev)) {
			free(b.devnode);
			continue;
		}
		blockio_escape(d->backing[j], esc, sizeof(esc));
		blockio_error_set(err,
				  "%s: backing file '%s' is on host disk %s (%u:%u), not on %s, and nothing caps that disk: QEMU's reads of it would not be capped; cap it too with <blockio:device path='%s'/>, or flatten the image onto %s (qemu-img convert)",
				  t->element, esc, b.devnode, major(b.dev),
				  minor(b.dev), t->devnode, b.devnode, t->devnode);
		free(b.devnode);
		return -1;
	}
	return 0;
}

int blockio_check_backing(const struct blockio_host *host,
			  const struct blockio_config *cfg,
			  const struct blockio_domain_io *io,
			  struct blockio_error *err)
{
	for (size_t i = 0; i < cfg->ntargets; i++) {
		const struct blockio_target *t = &cfg->targets[i];

		if (!t->disk || t->netfs)
			continue;
		for (size_t k = 0; k < io->ndisks; k++)
			if (!strcmp(io->disks[k].dev, t->disk) &&
			    check_chain(host, cfg, t, &io->disks[k], err))
				return -1;
	}
	return 0;
}
