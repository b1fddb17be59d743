/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fakefs.h - a pretend host for device resolution: a few disks and
 * partitions in /dev, their /sys/dev/block entries, and image files on
 * filesystems of those disks (and on three without a block device).
 *
 *   vda  252:0   disk       vda1 252:1  partition (root filesystem)
 *   vdb  252:16  disk       whole-disk block device for a <disk type='block'>
 *   vdc  252:32  disk       /var/lib/libvirt/images lives here (no partition)
 *   sdb  8:16    disk       sdb1 8:17, sdb2 8:18 partitions; /srv and
 *                           /var/lib/nova/instances on sdb1
 *   dm-0 254:0   disk       device mapper, /dev/mapper/vg-lv -> dm-0
 *   /tmp is tmpfs (0:45); /var/lib/nova/mnt/... NFS (0:52, as Nova's
 *   NFS volume driver mounts it); /srv/btrfs a btrfs subvolume (0:60,
 *   on sdb2): all three in /proc/self/mountinfo
 *   /dev/stale is a block node 8:99 without sysfs
 */
#ifndef BLOCKIO_FAKEFS_H
#define BLOCKIO_FAKEFS_H

#include "cgroup.h"
#include "resolve.h"

extern const struct blockio_host fake_host;

#endif
