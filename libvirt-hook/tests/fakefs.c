// SPDX-License-Identifier: GPL-2.0
/* fakefs.c - see fakefs.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "fakefs.h"

struct node {
	const char *path;	/* a trailing '*' matches any suffix */
	mode_t mode;
	unsigned maj, min;	/* st_rdev of a device, st_dev of a file */
};

static const struct node nodes[] = {
	{ "/dev/vda", S_IFBLK, 252, 0 },
	{ "/dev/vda1", S_IFBLK, 252, 1 },
	{ "/dev/vdb", S_IFBLK, 252, 16 },
	{ "/dev/vdc", S_IFBLK, 252, 32 },
	{ "/dev/sdb", S_IFBLK, 8, 16 },
	{ "/dev/sdb1", S_IFBLK, 8, 17 },
	{ "/dev/sdb2", S_IFBLK, 8, 18 },
	{ "/dev/dm-0", S_IFBLK, 254, 0 },
	{ "/dev/mapper/vg-lv", S_IFBLK, 254, 0 },
	{ "/dev/stale", S_IFBLK, 8, 99 },
	{ "/dev/null", S_IFCHR, 1, 3 },
	{ "/var/lib/libvirt/images", S_IFDIR, 252, 32 },
	{ "/var/lib/libvirt/images/*", S_IFREG, 252, 32 },
	{ "/srv/btrfs/*", S_IFREG, 0, 60 },
	{ "/srv/*", S_IFREG, 8, 17 },
	{ "/var/lib/nova/mnt/*", S_IFREG, 0, 52 },
	{ "/var/lib/nova/instances/*", S_IFREG, 8, 17 },
	{ "/tmp/*", S_IFREG, 0, 45 },
	{ "/etc/*", S_IFREG, 252, 1 },
	{ NULL, 0, 0, 0 },
};

struct file {
	const char *path;
	const char *text;
};

#define DISK(maj, min, name)                                                \
	{ "/sys/dev/block/" #maj ":" #min "/dev", #maj ":" #min "\n" },     \
	{ "/sys/dev/block/" #maj ":" #min "/uevent",                        \
	  "MAJOR=" #maj "\nMINOR=" #min "\nDEVNAME=" name "\nDEVTYPE=disk\n" }
#define PART(maj, min, name, dmaj, dmin, n)                                 \
	{ "/sys/dev/block/" #maj ":" #min "/dev", #maj ":" #min "\n" },     \
	{ "/sys/dev/block/" #maj ":" #min "/partition", #n "\n" },          \
	{ "/sys/dev/block/" #maj ":" #min "/../dev", #dmaj ":" #dmin "\n" }, \
	{ "/sys/dev/block/" #maj ":" #min "/uevent",                        \
	  "MAJOR=" #maj "\nMINOR=" #min "\nDEVNAME=" name "\nDEVTYPE=partition\n" }

static const struct file files[] = {
	DISK(252, 0, "vda"), PART(252, 1, "vda1", 252, 0, 1),
	DISK(252, 16, "vdb"), DISK(252, 32, "vdc"),
	DISK(8, 16, "sdb"), PART(8, 17, "sdb1", 8, 16, 1),
	PART(8, 18, "sdb2", 8, 16, 2),
	DISK(254, 0, "dm-0"),
	/* the filesystems without a block device of their own (major 0) */
	{ "/proc/self/mountinfo",
	  "22 1 252:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
	  "45 22 0:45 / /tmp rw,nosuid,nodev shared:5 - tmpfs tmpfs rw,size=1g\n"
	  "52 22 0:52 / /var/lib/nova/mnt/a8f3c1 rw,relatime shared:7 - nfs4 filer:/export/nova rw,vers=4.2\n"
	  "60 22 0:60 /@vms /srv/btrfs rw,relatime shared:9 - btrfs /dev/sdb2 rw,space_cache=v2\n" },
	{ NULL, NULL },
};

static bool match(const char *pattern, const char *path)
{
	size_t n = strlen(pattern);

	if (n && pattern[n - 1] == '*')
		return !strncmp(pattern, path, n - 1) && path[n - 1];
	return !strcmp(pattern, path);
}

static int fake_stat(void *priv, const char *path, struct stat *st)
{
	(void)priv;
	for (const struct node *n = nodes; n->path; n++) {
		if (!match(n->path, path))
			continue;
		memset(st, 0, sizeof(*st));
		st->st_mode = n->mode | 0600;
		if (S_ISBLK(n->mode) || S_ISCHR(n->mode)) {
			st->st_rdev = makedev(n->maj, n->min);
			st->st_dev = makedev(0, 5);	/* devtmpfs */
		} else {
			st->st_dev = makedev(n->maj, n->min);
		}
		return 0;
	}
	return -ENOENT;
}

static int fake_read_file(void *priv, const char *path, char *buf,
			  size_t size)
{
	(void)priv;
	for (const struct file *f = files; f->path; f++) {
		if (strcmp(f->path, path))
			continue;
		snprintf(buf, size, "%s", f->text);
		return 0;
	}
	return -ENOENT;
}

const struct blockio_host fake_host = {
	.stat = fake_stat,
	.read_file = fake_read_file,
};
