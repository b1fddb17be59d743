/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config.h - a domain XML to targets and rules (config*.c), hook.conf's
 * text (hookconf.h), and what else a domain says about its disks' I/O.
 */
#ifndef BLOCKIO_CONFIG_H
#define BLOCKIO_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "blockio.h"
#include "hookconf.h"

enum blockio_kind {
	BLOCKIO_BANDWIDTH,	/* blockio.bandwidth-max, bytes/s */
	BLOCKIO_IOPS,		/* blockio.iops-max, operations/s */
};

enum blockio_strategy {
	BLOCKIO_LEAKY = 0,
	BLOCKIO_TOKEN = 1,
};

/*
 * How targets from libvirt's own limits (hook.conf: libvirt-limits = yes)
 * that land on one host disk become its one rule of each kind.
 */
enum blockio_merge {
	BLOCKIO_MERGE_NONE = 0,	/* <blockio:limits>: one target per disk, or an error */
	BLOCKIO_MERGE_SUM,	/* <disk><iotune>: each disk may use its own limit */
	BLOCKIO_MERGE_MIN,	/* <blkiotune><device>: the VM's limit on that disk */
};

/* One <blockio:disk> or <blockio:device> element: one host block device. */
struct blockio_target {
	char *element;		/* "<blockio:disk dev='vda'>", for messages */
	enum blockio_merge merge;
	char *group;		/* <iotune><group_name>: counted once; or NULL */
	char *path;		/* disk source (file or device) or device path */
	char *disk;		/* <blockio:disk>: its dev ("vda"); else NULL */
	bool must_be_block;	/* <blockio:device>: @path must be a device */
	bool backing;		/* @path is a backing file: QEMU only reads it */
	char *warning;		/* where libvirt's limits map with a difference:
				 * lines ('\n' between), or NULL */
	/* filled in by blockio_config_resolve(): */
	char *devnode;		/* the whole disk, e.g. "/dev/vdc" */
	dev_t dev;		/* its device number */
	bool netfs;		/* or: a file on a network filesystem (NFS...) */
};

/* One line for the kernel: a cap on one target. */
struct blockio_rule {
	enum blockio_kind kind;
	enum blockio_strategy strategy;
	uint64_t limit;		/* bytes/s or ops/s, > 0 */
	uint64_t bucket;	/* token bucket size, bytes or ops; 0 if leaky */
	size_t target;		/* index into blockio_config.targets */
};

struct blockio_config {
	char *name;		/* domain name, raw: never used in a path */
	char uuid[37];		/* normalized; "" when the XML has none */
	bool has_limits;	/* a <blockio:limits> element is present */
	bool libvirt_limits;	/* no <blockio:limits>; caps from <iotune>/<blkiotune> */
	bool uncapped_ok;	/* libvirt_limits, and libvirt-limits-uncapped = start */
	size_t ntargets;
	struct blockio_target *targets;
	size_t nrules;
	struct blockio_rule *rules;
	/* what is valid but likely not meant (a bandwidth without a unit or
	 * below BLOCKIO_BANDWIDTH_SAFE): one line each, for the log and
	 * blockioctl check */
	size_t nwarnings;
	char **warnings;
};

/*
 * Parse a libvirt domain XML document and validate its blockio metadata:
 * well-formed, no DTD, root <domain>, at most one <blockio:limits> in
 * <metadata>, every attribute known and well-formed, every value in range,
 * every <blockio:disk dev=...> naming a disk of the domain with a local
 * source, and the element valid against schema/blockio-limits.rng.
 * A domain without blockio metadata parses fine, with has_limits false.
 * Return 0, or -1 with @err set and @cfg empty.
 */
int blockio_config_parse(const char *xml, size_t len,
			 struct blockio_config *cfg, struct blockio_error *err);

/*
 * blockio_config_parse() with @opts (NULL: the defaults).  With
 * opts->libvirt_limits and no <blockio:limits>, every <disk> of type file
 * or block with an <iotune> and every <blkiotune><device> becomes a target
 * (cfg->libvirt_limits set) whose caps are, for bandwidth (bytes) and IOPS
 * each, blockio_libvirt_cap() of libvirt's total/read/write values.  Disks
 * of other types keep only QEMU's <iotune>.  Targets on one host disk are
 * merged by blockio_config_resolve() (see blockio_config_merge()).
 */
int blockio_config_parse_opts(const char *xml, size_t len,
			      const struct blockio_options *opts,
			      struct blockio_config *cfg,
			      struct blockio_error *err);

/*
 * blockio's one cap (reads and writes together) for libvirt's limits of
 * one kind: @total when set, else the larger of @read and @write; 0 is
 * "no limit" in both.  A direction libvirt leaves unlimited shares the
 * other's cap, and a mix of reads and writes is held to the larger value
 * in total (libvirt would let it reach read + write).
 */
uint64_t blockio_libvirt_cap(uint64_t total, uint64_t read, uint64_t write);

/*
 * After resolution (every target's dev set), make one target per host
 * disk out of targets from libvirt's limits: per kind, the sum over its
 * <iotune> disks (a <group_name> counted once; a disk without a limit of
 * that kind leaves that kind unlimited) and the smallest <blkiotune>
 * limit, the smaller of the two when both are there.  Targets left
 * without a rule are dropped.  Called by blockio_config_resolve().
 */
void blockio_config_merge(struct blockio_config *cfg);

/*
 * Read only the domain's name and UUID; used on stop, when the metadata
 * may be gone or broken but the cgroup must still be removed.
 */
int blockio_domain_identity(const char *xml, size_t len,
			    struct blockio_config *cfg,
			    struct blockio_error *err);

void blockio_config_free(struct blockio_config *cfg);

/*
 * One line for the log that says what @cfg caps, in the units an admin
 * writes: "capped: <blockio:disk dev='vda'> on /dev/vdc: bandwidth
 * 8MiB/s, iops 500/s", or "not capped: no <blockio:limits> in <metadata>"
 * or "not capped: <blockio:limits> is empty".  Host disks are named once
 * blockio_config_resolve() has run.  Each of cfg->warnings follows as
 * "; warning: ..." (the hook then logs at priority warning).
 */
void blockio_config_describe(const struct blockio_config *cfg, char *out,
			     size_t outlen);

/* Add a line to cfg->warnings. */
void blockio_config_warn(struct blockio_config *cfg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The pid attribute of libvirt's status XML (/run/libvirt/qemu/NAME.xml). */
int blockio_status_pid(const char *xml, size_t len, pid_t *pid);

/*
 * Does the domain of libvirt's status XML have a limit libvirt-limits =
 * yes maps to a blockio cap (a total_/read_/write_ bytes or iops value in
 * the <iotune> of a file or block disk, or in a <blkiotune><device>) and
 * no <blockio:limits>?  For blockioctl status.
 */
bool blockio_status_libvirt_limited(const char *xml, size_t len);

/*
 * The <domain> of libvirt's status XML (<domstatus><domain>...) as a
 * domain XML of its own, in *@out (malloc'ed, NUL-terminated), for
 * blockio_config_parse(): what the domain running now was meant to get.
 * 0, or -1 when @xml is not a status XML with a <domain>.
 */
int blockio_status_domain(const char *xml, size_t len, char **out,
			  size_t *outlen);

/*
 * The name and UUID of the domain in libvirt's status XML
 * (<domstatus><domain>...), as blockio_domain_identity() does for a
 * domain XML.
 */
int blockio_status_identity(const char *xml, size_t len,
			    struct blockio_config *cfg,
			    struct blockio_error *err);

/*
 * What else a domain XML says about its disks' I/O, for blockioctl's
 * warnings (the hook itself needs none of it): every <disk>, with its
 * qcow2 backing chain when libvirt wrote one into the XML (live and
 * status XMLs carry <backingStore>; an inactive one usually does not), its
 * <iotune>, and every <blkiotune><device>.
 */
struct blockio_disk {
	char *dev;		/* <target dev>, "" if missing */
	char *type;		/* <disk type>: file, block, network, ... */
	char *source;		/* file or block source; NULL for others */
	char *format;		/* <driver type>: raw, qcow2, ...; NULL */
	bool chain_known;	/* a <backingStore> element is present */
	size_t nbacking;
	char **backing;		/* file/block sources of the chain, in order */
	char *backing_other;	/* type of a backing store that is neither
				 * (network, volume...): the chain ends there */
	char *iotune;		/* "total_bytes_sec=1048576, ..."; NULL */
};

struct blockio_blkiotune {
	char *path;		/* <path> of the <device> */
	char *limits;		/* "write_bytes_sec=1048576, ..." */
};

struct blockio_domain_io {
	size_t ndisks;
	struct blockio_disk *disks;
	size_t ntunes;
	struct blockio_blkiotune *tunes;
};

int blockio_domain_io_parse(const char *xml, size_t len,
			    struct blockio_domain_io *io,
			    struct blockio_error *err);
void blockio_domain_io_free(struct blockio_domain_io *io);

/* The embedded copy of schema/blockio-limits.rng. */
extern const unsigned char blockio_schema_rng[];
extern const size_t blockio_schema_rng_len;

#endif /* BLOCKIO_CONFIG_H */
