/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blockio.h - the libvirt side of blockio: domain XML in, cgroup rules out.
 *
 * An admin caps a VM's disks by adding one element to the domain's
 * <metadata>:
 *
 *   <blockio:limits xmlns:blockio="https://blockio.dev/xmlns/limits/1">
 *     <blockio:disk dev="vda" bandwidth="8MiB/s" iops="500"/>
 *     <blockio:device path="/dev/sdb" bandwidth="4M" strategy="token"
 *                     bucket="64MiB"/>
 *   </blockio:limits>
 *
 * Every <blockio:disk> or <blockio:device> element is a *target*: one host
 * block device (a whole disk) and the caps for it.  Every cap becomes one
 * *rule*, the line written to blockio.bandwidth-max or blockio.iops-max of
 * the VM's cgroup: "DEV:LIMIT:STRATEGY[:BUCKET]".
 *
 * The code is split in two:
 *
 *  - the pure core (units.c, config.c, resolve.c, names.c, procfs.c): text
 *    in, validated structures or text out.  Device resolution goes through
 *    struct blockio_host, so tests hand it a fake filesystem.
 *  - the thin layer (cgroup.c, apply.c): finds the blockio hierarchy,
 *    creates the VM's cgroup, writes rules, moves QEMU, reads back.
 *
 * The hook (hook.c) and the live-update daemon (metad.c) are two small
 * front ends over the same library.
 *
 * Errors: every function that can fail takes a struct blockio_error and
 * fills it with one line that names the element, the attribute and the
 * value, in libvirt's style; the front ends print it prefixed "blockio: ".
 */
#ifndef BLOCKIO_H
#define BLOCKIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * The namespace of <blockio:limits>.  A new incompatible schema gets "/2".
 * A lookalike in <metadata> (a URI close to this one, the prefix blockio
 * on another, an element shaped like ours in another namespace or none,
 * <limits> without one) is an error, not "no caps"; so is our element
 * anywhere but as a child of <metadata> ("Lookalikes" in config.c).
 */
#define BLOCKIO_NS_URI		"https://blockio.dev/xmlns/limits/1"
/* The key (prefix) used by `virsh metadata --key`; any prefix is accepted. */
#define BLOCKIO_NS_PREFIX	"blockio"

/* Upper bounds: far above any real device, far below any overflow in the
 * kernel's arithmetic (it scales IOPS by 1000). */
#define BLOCKIO_BANDWIDTH_MAX	(1ULL << 40)		/* 1 TiB/s, 1 TiB bucket */
#define BLOCKIO_IOPS_MAX	1000000000ULL		/* 1G ops/s, 1G ops bucket */
#define BLOCKIO_IOPS_SCALE	1000			/* iops-max reads back x1000 */
/*
 * QEMU's documentation of -drive bps= (qemu(1)): "Small values can lead
 * to timeouts or hangs inside the guest.  A safe minimum for disks is
 * 2 MB/s."  A smaller bandwidth cap is accepted with a warning.
 */
#define BLOCKIO_BANDWIDTH_SAFE	2000000ULL		/* bytes/s */

/* The largest domain XML accepted; libvirt's own limit is 10 MiB. */
#define BLOCKIO_XML_MAX		(16 * 1024 * 1024)

struct blockio_error {
	char msg[1024];
};

void blockio_error_set(struct blockio_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- units.c: "8MiB/s", "500", "10k" ---------------------------------- */

enum blockio_quantity {
	BLOCKIO_Q_BANDWIDTH,	/* bytes per second: 8MiB/s, 8M, 1048576 */
	BLOCKIO_Q_BYTES,	/* a size in bytes: 16MiB */
	BLOCKIO_Q_IOPS,		/* operations per second: 500, 500/s, 10k */
	BLOCKIO_Q_OPS,		/* a count of operations: 1000, 2k */
};

/*
 * Parse @s as a @q quantity into @out.  On failure return -1 and put the
 * reason ("unknown unit 'XB'", "out of range ...") into @why.
 */
int blockio_parse_quantity(const char *s, enum blockio_quantity q,
			   uint64_t *out, char *why, size_t whylen);

/*
 * The shortest exact form of @v as a @q quantity, the inverse of
 * blockio_parse_quantity(): "8MiB/s", "500KB", "1048577B/s", "10k/s".
 */
void blockio_format_quantity(uint64_t v, enum blockio_quantity q, char *out,
			     size_t outlen);

/* ---- names.c: escaping for messages, UUIDs ------------------------------ */

/*
 * Copy @in into @out (of @outlen bytes) so that it prints on one line:
 * control bytes, backslash, quote and bytes that are not valid UTF-8
 * become \xHH; output longer than @outlen is cut and ends in "...".
 */
void blockio_escape(const char *in, char *out, size_t outlen);

/*
 * Accept a canonical UUID (8-4-4-4-12 hex digits, any case) and write
 * its lower-case form into @out.  Return 0, or -1 if @s is anything else.
 */
int blockio_uuid_normalize(const char *s, char out[37]);

/*
 * Read a UUID as libvirt does (virUUIDParse) and write its canonical
 * lower-case form into @out: white space around it, 32 hex digits, '-'
 * or ' ' anywhere between two of them (so "6b1f5c1e00004a5e..." too).
 * For a domain XML's <uuid> and an admin's argument; names the hook
 * creates are checked with blockio_uuid_normalize().  0, or -1.
 */
int blockio_uuid_parse(const char *s, char out[37]);

/*
 * Copy a library's message (libxml2's) into @out as plain text on one
 * line: runs of whitespace and control characters become one space and
 * none is left at either end; bytes that are not valid UTF-8 become '?'.
 * Quotes and backslashes stay: the text is not quoted in our messages.
 * Output longer than @outlen is cut and ends in "...".
 */
void blockio_plain(const char *in, char *out, size_t outlen);

/* ---- config.c: domain XML -> targets and rules ---------------------------- */

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

/* What /etc/blockio/hook.conf chooses (hookconf.c). */
struct blockio_options {
	/*
	 * libvirt-limits = yes: a domain without <blockio:limits> is capped
	 * by its <disk><iotune> and <blkiotune><device> limits, as
	 * blockio_config_parse_opts() maps them.
	 */
	bool libvirt_limits;
	/*
	 * libvirt-limits-uncapped = refuse: such a domain that blockio cannot
	 * cap on this host (no controller or hierarchy, a host disk not
	 * found, a backing file on an uncapped host disk, cgroupfs failing)
	 * is refused as one with <blockio:limits> is.  Default (start): it
	 * starts limited by QEMU's <iotune> only, and the hook says so.
	 */
	bool libvirt_limits_refuse;
};

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
 * Parse hook.conf text (@file names it in messages): "key = value" lines,
 * '#' comments, blank lines.  Keys: libvirt-limits (yes|no).  Anything
 * else is an error naming the line.  @opts starts from the defaults.
 */
int blockio_hookconf_parse(const char *text, const char *file,
			   struct blockio_options *opts,
			   struct blockio_error *err);

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

/* ---- resolve.c: target -> whole-disk device node ---------------------- */

/*
 * The filesystem as device resolution sees it; tests pass a fake one.
 * Both return 0 or a negative errno.
 */
struct blockio_host {
	/* stat(2), following symlinks */
	int (*stat)(void *priv, const char *path, struct stat *st);
	/* read up to @size - 1 bytes of a (sysfs) file, NUL-terminate */
	int (*read_file)(void *priv, const char *path, char *buf, size_t size);
	void *priv;
};

extern const struct blockio_host blockio_host_real;

/*
 * Map every target to the whole disk that holds it: a regular file to the
 * disk under its filesystem (st_dev), a block device to itself (st_rdev),
 * a partition to its disk; then find that disk's node in /dev.  Two
 * targets on one disk are an error: the kernel keeps one rule per device.
 * With libvirt_limits, an <iotune> on a file on a network filesystem is
 * left out (netfs set, no rule): QEMU's own limit is all there is there.
 */
int blockio_config_resolve(struct blockio_config *cfg,
			   const struct blockio_host *host,
			   struct blockio_error *err);

/*
 * Map one target to its whole disk (fills devnode and dev), as
 * blockio_config_resolve() does for each; blockioctl uses it to name the
 * host disk of every target and disk even when the domain is refused.
 */
int blockio_target_resolve(const struct blockio_host *host,
			   struct blockio_target *t, struct blockio_error *err);

/*
 * The backing chain of every capped disk, as libvirt lists it in the XML it
 * gives start and restore (<backingStore>; prepare's XML has none yet):
 * QEMU reads each backing file, so each must be on a host disk that the
 * domain caps, or those reads would go uncapped; -1 with a message that
 * names the file, its host disk and what to do.  A backing store that is
 * not a file or block device (network) is refused the same way.
 * Called after blockio_config_resolve().
 */
int blockio_check_backing(const struct blockio_host *host,
			  const struct blockio_config *cfg,
			  const struct blockio_domain_io *io,
			  struct blockio_error *err);

/* The /dev node of whole disk or partition @dev, e.g. for deleting a rule. */
int blockio_devnode(const struct blockio_host *host, dev_t dev,
		    char *out, size_t outlen, struct blockio_error *err);

/* ---- procfs.c: parsers for kernel text ------------------------------------ */

/* The mount point of the first cgroup v1 hierarchy carrying blockio. */
int blockio_parse_mountinfo(const char *text, char *path, size_t pathlen);

/*
 * blockio in /proc/cgroups: 1 listed and enabled, 0 listed but disabled
 * (cgroup_disable=blockio), -1 not listed (a kernel without the patches).
 */
int blockio_parse_proc_cgroups(const char *text);

/* The blockio path from /proc/PID/cgroup ("/machine/UUID"), or -1. */
int blockio_parse_pid_cgroup(const char *text, char *path, size_t pathlen);

/* A row of blockio.bandwidth-max or blockio.iops-max. */
struct blockio_row {
	unsigned major, minor;
	uint64_t limit;		/* as read: x1000 for iops */
	unsigned strategy;
	uint64_t bucket;	/* as read: x1000 for iops */
};

/* Parse every row of @text; return the count, or -1 on a malformed row. */
int blockio_parse_rows(const char *text, struct blockio_row *rows,
		       size_t maxrows);

/* The line to write for @rule: "/dev/vdc:8388608:0" or ".../1:16777216". */
int blockio_rule_format(const struct blockio_config *cfg,
			const struct blockio_rule *rule, char *out,
			size_t outlen);

/*
 * Check that @rows (read back from the @kind file) hold exactly the rules
 * of @kind in @cfg: same devices, limits, strategies, and buckets for token
 * buckets, and nothing else.  Return 0 or -1 with @err naming the mismatch.
 */
int blockio_rows_match(const struct blockio_config *cfg,
		       enum blockio_kind kind, const struct blockio_row *rows,
		       size_t nrows, struct blockio_error *err);

const char *blockio_kind_file(enum blockio_kind kind);

/* A row of blockio.stat: MAJOR MINOR BYTES IOS WRITE_BYTES QUEUED_BIOS QUEUED_BYTES */
struct blockio_stat_row {
	unsigned major, minor;
	uint64_t bytes, ios, write_bytes, queued_bios, queued_bytes;
};

/* A row of blockio.throttlecnt: MAJOR MINOR BW_COUNTER BW_SLEEP IOPS_COUNTER IOPS_SLEEP */
struct blockio_throttle_row {
	unsigned major, minor;
	uint64_t bw_count, bw_sleep, iops_count, iops_sleep;	/* sleeps in clock ticks */
};

/* Parse every row; return the count, or -1 on a malformed row. */
int blockio_parse_stat(const char *text, struct blockio_stat_row *rows,
		       size_t maxrows);
int blockio_parse_throttlecnt(const char *text,
			      struct blockio_throttle_row *rows,
			      size_t maxrows);

/* ---- cgroup.c and apply.c: the thin layer -------------------------------- */

/* Where the thin layer looks; tests of the front ends may point elsewhere. */
struct blockio_paths {
	const char *proc;		/* "/proc" */
	const char *qemu_rundir;	/* "/run/libvirt/qemu" */
	unsigned pid_wait_ms;		/* how long to wait for the PID file */
	const char *hookconf;		/* "/etc/blockio/hook.conf"; NULL: none */
};

extern const struct blockio_paths blockio_paths_default;

/*
 * Check that PROC/cgroups lists blockio as enabled and find its hierarchy's
 * mount point in PROC/self/mountinfo.  -1 with a message that names what
 * is missing: the controller, the controller enabled, or the mount.
 */
int blockio_find_mount(const struct blockio_paths *paths, char *out,
		       size_t outlen, struct blockio_error *err);

/* The QEMU PID of a running domain, checked against its UUID. */
int blockio_qemu_pid(const struct blockio_paths *paths,
		     const struct blockio_config *cfg, pid_t *pid,
		     struct blockio_error *err);

/*
 * Make the cgroup machine/UUID hold exactly @cfg's rules and the whole
 * process @pid, then verify by reading back.  On failure, a cgroup this
 * call created is undone (the process back to the root, the cgroup
 * removed); one that existed before (reconnect, a live change) is left as
 * it is, so a running VM does not lose its caps to a failed update (the
 * hook reports a failed `reconnect` and exits 0, so the VM keeps running).
 */
int blockio_attach(const struct blockio_paths *paths, const char *mount,
		   const struct blockio_config *cfg, pid_t pid,
		   struct blockio_error *err);

/*
 * The VM cgroups under MOUNT/machine: the names that are canonical UUIDs,
 * sorted, at most @max.  Their count (0 when machine/ does not exist),
 * or -1 with @err set.
 */
int blockio_list_cgroups(const char *mount, char (*uuids)[37], size_t max,
			 struct blockio_error *err);

/*
 * Read file @file of cgroup MOUNT/machine/@uuid into @buf (NUL-terminated).
 * 0, or -1 with @err set.
 */
int blockio_read_cgroup_file(const char *mount, const char *uuid,
			     const char *file, char *buf, size_t size,
			     struct blockio_error *err);

/* A domain libvirt runs: its status XML in the run directory. */
struct blockio_running {
	char *name;		/* raw */
	char uuid[37];		/* normalized */
	bool libvirt_limited;	/* see blockio_status_libvirt_limited() */
};

/*
 * The domains of QEMU_RUNDIR/ *.xml (libvirt's status XMLs, one per running
 * domain), sorted by name; *@doms is malloc'ed.  Their count, 0 when the
 * directory does not exist, -1 with @err set.
 */
int blockio_running_domains(const struct blockio_paths *paths,
			    struct blockio_running **doms,
			    struct blockio_error *err);
void blockio_running_free(struct blockio_running *doms, size_t n);

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

/* Move what is left in machine/UUID to machine/ and remove it. */
int blockio_detach(const char *mount, const char *uuid,
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

/* ---- hookops.c: what 50-blockio does at each operation ------------------- */

/*
 * What prepare, start and restore check on this host after parsing: every
 * target's host disk, the backing chains of capped disks when @io (the
 * same XML's disks) is given, and, with caps, the blockio controller and
 * its mount.  blockioctl check calls it too, so it refuses exactly what
 * they refuse.
 */
int blockio_check_host(const struct blockio_paths *paths,
		       const struct blockio_host *host,
		       struct blockio_config *cfg,
		       const struct blockio_domain_io *io,
		       struct blockio_error *err);

/*
 * What prepare, start and restore decide: blockio_check_host(), except
 * for a domain capped by libvirt's limits with libvirt-limits-uncapped =
 * start (cfg->uncapped_ok), which starts anyway: 1 and @err (why blockio
 * cannot cap it) when a host disk or the hierarchy is missing, and a
 * backing file on an uncapped host disk only adds a warning to @cfg.
 * 0: capped; -1: refused, @err says why.
 */
int blockio_check_prepare(const struct blockio_paths *paths,
			  const struct blockio_host *host,
			  struct blockio_config *cfg,
			  const struct blockio_domain_io *io,
			  struct blockio_error *err);

/* What the hook says, and the exit status it returns to libvirt. */
struct blockio_hook_result {
	int status;		/* 0, or 1: libvirt refuses the operation */
	int priority;		/* syslog priority of @log; -1: say nothing */
	char out[2048 + 16];	/* the line for stderr: "blockio: ...", no newline */
	char log[2048];		/* the line for syslog: names domain and operation */
};

/*
 * Run operation @op of libvirt's qemu hook for domain @name (raw; escaped
 * here) on domain XML @xml of @len bytes, or on NULL when reading stdin
 * failed for the reason in @readerr.  See hookops.c for each operation's
 * failure: prepare/start/restore/migrate/started refuse (status 1), with
 * caps prepare/start/restore check the controller and its mount, and
 * reconnect never fails (status 0, a LOG_ERR line "... NOT CAPPED ...").
 */
void blockio_hook_run(const struct blockio_paths *paths,
		      const struct blockio_host *host, const char *name,
		      const char *op, const char *xml, size_t len,
		      const struct blockio_error *readerr,
		      struct blockio_hook_result *res);

/* ---- setspec.c: blockioctl set's caps ------------------------------------ */

/*
 * The body virsh metadata --key blockio --set takes, "<limits><disk
 * dev='vda' bandwidth='8MiB/s'/>...</limits>", from @n specs
 * "DISK:KEY=VALUE[,KEY=VALUE...]" (DISK a target name, or a path starting
 * with '/' for <device path=...>; keys bandwidth, iops, strategy, bucket,
 * iops-bucket; values XML-escaped, not checked).  0, or -1 with @err.
 */
int blockio_set_body(int n, char *const *specs, char *out, size_t outlen,
		     struct blockio_error *err);

/*
 * Domain XML @xml with its element of our namespace in <metadata> replaced
 * by @body in that namespace (NULL: removed), in *@out (malloc'ed).
 */
int blockio_domain_with_limits(const char *xml, size_t len, const char *body,
			       char **out, size_t *outlen,
			       struct blockio_error *err);

/* ---- ctl.c: blockioctl ------------------------------------------------------ */

/* Where blockioctl looks; its tests pass a fake host and run directory. */
struct blockio_ctl_env {
	const struct blockio_paths *paths;
	const struct blockio_host *host;
	/* qemu-img to read a qcow2 backing chain with; NULL: not installed */
	const char *qemu_img;
	/* virsh, for set; NULL: not installed */
	const char *virsh;
};

/*
 * blockioctl set: @n specs (see blockio_set_body(), or the one word
 * "none") checked against DOMAIN's XML by the hook's code, then written
 * by virsh metadata (ctlset.c).  The exit status.
 */
int blockio_ctl_set(const struct blockio_ctl_env *env, const char *uri,
		    const char *domain, int n, char *const *specs);

/* blockioctl's whole command line; returns its exit status. */
int blockio_ctl_main(int argc, char **argv, const struct blockio_ctl_env *env);

#endif /* BLOCKIO_H */
