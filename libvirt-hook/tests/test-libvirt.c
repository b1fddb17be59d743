// SPDX-License-Identifier: GPL-2.0
/*
 * test-libvirt.c - the fleet drop-in: /etc/blockio/hook.conf
 * (blockio_hookconf_parse) and libvirt's own <iotune>/<blkiotune> limits
 * as blockio caps (blockio_config_parse_opts, blockio_libvirt_cap, the
 * merge per host disk in blockio_config_resolve), on fakefs.c's disks.
 */
#include <stdlib.h>
#include <unistd.h>

#include "apply.h"
#include "check.h"
#include "config.h"
#include "fakefs.h"
#include "procfs.h"

static const struct blockio_options on = { .libvirt_limits = true };

/* ---- hook.conf ---------------------------------------------------------- */

static void conf_ok(int line, const char *text, bool want)
{
	struct blockio_options o;
	struct blockio_error err = { "" };

	CHECKF(blockio_hookconf_parse(text, "hook.conf", &o, &err) == 0,
	       "line %d: %s", line, err.msg);
	CHECKF(o.libvirt_limits == want, "line %d", line);
}

static void conf_bad(int line, const char *text, const char *msg)
{
	struct blockio_options o;
	struct blockio_error err = { "" };

	CHECKF(blockio_hookconf_parse(text, "hook.conf", &o, &err) == -1,
	       "line %d: accepted", line);
	CHECKF(strstr(err.msg, msg) != NULL, "line %d: '%s' lacks '%s'", line,
	       err.msg, msg);
}

static void test_hookconf(void)
{
	conf_ok(__LINE__, "", false);
	conf_ok(__LINE__, "# nothing\n\n", false);
	conf_ok(__LINE__, "libvirt-limits = yes\n", true);
	conf_ok(__LINE__, "  libvirt-limits=yes", true);
	conf_ok(__LINE__, "libvirt-limits = yes\r\n", true);
	conf_ok(__LINE__, "libvirt-limits = yes\nlibvirt-limits = no\n", false);
	conf_ok(__LINE__, "\t# comment = yes\nlibvirt-limits\t=\ttrue\n", true);
	conf_bad(__LINE__, "libvirt_limits = yes\n",
		 "hook.conf line 1: unknown setting 'libvirt_limits'; the settings are: libvirt-limits, libvirt-limits-uncapped");
	conf_bad(__LINE__, "\nlibvirt-limits = Yes\n",
		 "hook.conf line 2: invalid value 'Yes' for libvirt-limits: expected 'yes' or 'no'");
	conf_bad(__LINE__, "libvirt-limits yes\n", "line 1: 'libvirt-limits yes' is not 'key = value'");
	conf_bad(__LINE__, "libvirt-limits = \n", "invalid value ''");
	conf_bad(__LINE__, "= yes\n", "unknown setting ''");
	conf_bad(__LINE__, "libvirt-limits = yes # on\n", "invalid value 'yes # on'");
	/* what a domain blockio cannot cap by its libvirt limits does */
	{
		struct blockio_options o;
		struct blockio_error err = { "" };

		CHECK(blockio_hookconf_parse("libvirt-limits = yes\n", "hook.conf", &o, &err) == 0);
		CHECK(!o.libvirt_limits_refuse);
		CHECK(blockio_hookconf_parse("libvirt-limits-uncapped = refuse\n", "hook.conf", &o, &err) == 0);
		CHECK(o.libvirt_limits_refuse);
		CHECK(blockio_hookconf_parse("libvirt-limits-uncapped = start\n", "hook.conf", &o, &err) == 0);
		CHECK(!o.libvirt_limits_refuse);
	}
	conf_bad(__LINE__, "libvirt-limits-uncapped = yes\n",
		 "hook.conf line 1: invalid value 'yes' for libvirt-limits-uncapped: expected 'start' or 'refuse'");
}

/* blockio_hookconf_load(): no file is the default, a bad one an error. */
static void test_hookconf_load(void)
{
	char dir[] = "/tmp/test-libvirt-XXXXXX", file[64];
	struct blockio_paths paths = blockio_paths_default;
	struct blockio_options o;
	struct blockio_error err = { "" };
	FILE *f;

	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	snprintf(file, sizeof(file), "%s/hook.conf", dir);
	paths.hookconf = file;
	o.libvirt_limits = true;
	CHECK(blockio_hookconf_load(&paths, &o, &err) == 0 && !o.libvirt_limits);
	f = fopen(file, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("# test\nlibvirt-limits = yes\n", f);
		fclose(f);
	}
	CHECK(blockio_hookconf_load(&paths, &o, &err) == 0 && o.libvirt_limits);
	f = fopen(file, "w");
	if (f) {
		fputs("libvirt-limits = maybe\n", f);
		fclose(f);
	}
	CHECK(blockio_hookconf_load(&paths, &o, &err) == -1);
	CHECK_CONTAINS(err.msg, "/hook.conf line 1: invalid value 'maybe' for libvirt-limits");
	unlink(file);
	paths.hookconf = dir;	/* a directory: cannot be read as a file */
	CHECK(blockio_hookconf_load(&paths, &o, &err) == -1);
	CHECK_CONTAINS(err.msg, "cannot read");
	paths.hookconf = NULL;	/* none at all */
	CHECK(blockio_hookconf_load(&paths, &o, &err) == 0 && !o.libvirt_limits);
	rmdir(dir);
}

/*
 * The hook.conf the package installs (a conffile): every setting at its
 * default, and an admin who edits its one line gets what the comment says.
 */
static void test_hookconf_shipped(void)
{
	struct blockio_paths paths = blockio_paths_default;
	struct blockio_options o = { .libvirt_limits = true };
	struct blockio_error err = { "" };
	static const char off[] = "\nlibvirt-limits = no\n";
	char text[8192], edited[8200], *line;
	size_t n;
	FILE *f;

	paths.hookconf = SRCDIR "/hook.conf";
	CHECKF(blockio_hookconf_load(&paths, &o, &err) == 0, "%s", err.msg);
	CHECK(!o.libvirt_limits);
	f = fopen(paths.hookconf, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	line = strstr(text, off);
	CHECK(line != NULL);
	if (!line)
		return;
	snprintf(edited, sizeof(edited), "%.*s\nlibvirt-limits = yes\n%s",
		 (int)(line - text), text, line + strlen(off));
	conf_ok(__LINE__, edited, true);
}

/* ---- the mapping ---------------------------------------------------------- */

static void test_cap(void)
{
	CHECK(blockio_libvirt_cap(0, 0, 0) == 0);
	CHECK(blockio_libvirt_cap(100, 0, 0) == 100);
	CHECK(blockio_libvirt_cap(0, 30, 0) == 30);
	CHECK(blockio_libvirt_cap(0, 0, 40) == 40);
	CHECK(blockio_libvirt_cap(0, 30, 40) == 40);
	CHECK(blockio_libvirt_cap(0, 50, 40) == 50);
}

#define HEAD "<domain type='kvm'><name>nova</name>" \
	"<uuid>6b1f5c1e-0000-4a5e-8c6d-3b2a10f0e0aa</uuid>"
#define DISK(dev, file, tune) "<disk type='file' device='disk'>" \
	"<driver name='qemu' type='qcow2'/><source file='" file "'/>" \
	"<target dev='" dev "' bus='virtio'/><iotune>" tune "</iotune></disk>"

static char *domain(const char *meta, const char *blkio, const char *disks)
{
	static char buf[8192];

	snprintf(buf, sizeof(buf), HEAD "<metadata>%s</metadata>%s<devices>%s</devices></domain>",
		 meta, blkio, disks);
	return buf;
}

/* "bandwidth /dev/vdc:N:0|iops ..." of the resolved config, by target */
static const char *rules(const struct blockio_config *cfg)
{
	static char text[2048];
	size_t o = 0;

	text[0] = '\0';
	for (size_t i = 0; i < cfg->nrules; i++) {
		char line[256];

		blockio_rule_format(cfg, &cfg->rules[i], line, sizeof(line));
		o += (size_t)snprintf(text + o, sizeof(text) - o, "%s%s %s",
				      i ? "|" : "",
				      cfg->rules[i].kind == BLOCKIO_IOPS ? "iops" : "bandwidth",
				      line);
	}
	return text;
}

static void ok_at(int line, const struct blockio_options *o, const char *xml,
		  const char *want, const char *describe)
{
	struct blockio_config cfg;
	struct blockio_error err = { "" };
	char what[2048];
	int rc = blockio_config_parse_opts(xml, strlen(xml), o, &cfg, &err);

	if (!rc)
		rc = blockio_config_resolve(&cfg, &fake_host, &err);
	CHECKF(rc == 0, "line %d: %s", line, err.msg);
	if (rc)
		return;
	CHECKF(!strcmp(rules(&cfg), want), "line %d: got '%s' want '%s'", line,
	       rules(&cfg), want);
	blockio_config_describe(&cfg, what, sizeof(what));
	if (describe)
		CHECKF(!strcmp(what, describe), "line %d: described '%s' want '%s'",
		       line, what, describe);
	blockio_config_free(&cfg);
}

static void bad_at(int line, const char *xml, const char *msg)
{
	struct blockio_config cfg;
	struct blockio_error err = { "" };
	int rc = blockio_config_parse_opts(xml, strlen(xml), &on, &cfg, &err);

	if (!rc)
		rc = blockio_config_resolve(&cfg, &fake_host, &err);
	CHECKF(rc == -1, "line %d: accepted", line);
	CHECKF(strstr(err.msg, msg) != NULL, "line %d: '%s' lacks '%s'", line,
	       err.msg, msg);
	blockio_config_free(&cfg);
}

#define OK(xml, want, describe) ok_at(__LINE__, &on, xml, want, describe)
#define BAD(xml, msg) bad_at(__LINE__, xml, msg)
#define IMG "/var/lib/libvirt/images/"
#define NFS "/var/lib/nova/mnt/a8f3c1/"

static void test_iotune(void)
{
	/* off (the default): libvirt's limits are not blockio caps */
	ok_at(__LINE__, NULL, domain("", "", DISK("vda", IMG "a", "<total_bytes_sec>1048576</total_bytes_sec>")),
	      "", "not capped: no <blockio:limits> in <metadata>");
	/* Nova's quota:disk_total_bytes_sec / _iops_sec */
	OK(domain("", "", DISK("vda", IMG "a", "<total_bytes_sec>1048576</total_bytes_sec><total_iops_sec>200</total_iops_sec>")),
	   "bandwidth /dev/vdc:1048576:0|iops /dev/vdc:200:0",
	   "capped: <iotune> of disk 'vda' on /dev/vdc: bandwidth 1MiB/s, iops 200/s");
	/* read and write apart: the larger, for reads and writes together */
	OK(domain("", "", DISK("vda", IMG "a", "<read_bytes_sec>2097152</read_bytes_sec><write_bytes_sec>1048576</write_bytes_sec>"
			       "<read_iops_sec>100</read_iops_sec><write_iops_sec>300</write_iops_sec>")),
	   "bandwidth /dev/vdc:2097152:0|iops /dev/vdc:300:0", NULL);
	/* only writes: reads share the write cap */
	OK(domain("", "", DISK("vda", IMG "a", "<write_bytes_sec>1048576</write_bytes_sec>")),
	   "bandwidth /dev/vdc:1048576:0", NULL);
	/* bursts, lengths, size_iops_sec alone: nothing blockio maps */
	OK(domain("", "", DISK("vda", IMG "a", "<total_bytes_sec_max>1048576</total_bytes_sec_max><size_iops_sec>4096</size_iops_sec>")),
	   "", "not capped: no <blockio:limits> in <metadata>, and no <iotune> or <blkiotune> limit on a local disk (type file or block, not on a network filesystem)");
	/* zero is libvirt's "no limit" */
	OK(domain("", "", DISK("vda", IMG "a", "<total_bytes_sec>0</total_bytes_sec><total_iops_sec>50</total_iops_sec>")),
	   "iops /dev/vdc:50:0", NULL);
	/* two disks on one host disk: their sum (each may use its own) */
	OK(domain("", "", DISK("vda", IMG "a", "<total_bytes_sec>1048576</total_bytes_sec><total_iops_sec>100</total_iops_sec>")
			  DISK("vdb", IMG "b", "<total_bytes_sec>2097152</total_bytes_sec><total_iops_sec>100</total_iops_sec>")),
	   "bandwidth /dev/vdc:3145728:0|iops /dev/vdc:200:0",
	   "capped: <iotune> of disk 'vda' + <iotune> of disk 'vdb' on /dev/vdc: bandwidth 3MiB/s, iops 200/s");
	/* one of them without an IOPS limit: IOPS stay unlimited there */
	OK(domain("", "", DISK("vda", IMG "a", "<total_bytes_sec>1048576</total_bytes_sec><total_iops_sec>100</total_iops_sec>")
			  DISK("vdb", IMG "b", "<total_bytes_sec>1048576</total_bytes_sec>")),
	   "bandwidth /dev/vdc:2097152:0", NULL);
	/* a throttle group counts once */
	OK(domain("", "", DISK("vda", IMG "a", "<total_bytes_sec>1048576</total_bytes_sec><group_name>g</group_name>")
			  DISK("vdb", IMG "b", "<total_bytes_sec>1048576</total_bytes_sec><group_name>g</group_name>")),
	   "bandwidth /dev/vdc:1048576:0", NULL);
	/* disks on two host disks: one rule on each */
	OK(domain("", "", DISK("vda", IMG "a", "<total_iops_sec>100</total_iops_sec>")
			  DISK("vdb", "/srv/b", "<total_iops_sec>70</total_iops_sec>")),
	   "iops /dev/vdc:100:0|iops /dev/sdb:70:0", NULL);
	/* a network disk keeps QEMU's <iotune> only */
	OK(domain("", "", "<disk type='network' device='disk'><source protocol='rbd' name='p/v'/>"
			  "<target dev='vda' bus='virtio'/><iotune><total_bytes_sec>1048576</total_bytes_sec></iotune></disk>"),
	   "", NULL);
	/* so does a file on NFS (Nova's NFS volumes): its I/O leaves as NFS
	 * traffic; a local disk beside it is still capped */
	OK(domain("", "", DISK("vda", NFS "a", "<total_bytes_sec>1048576</total_bytes_sec>")),
	   "", "not capped: no <blockio:limits> in <metadata>, and no <iotune> or <blkiotune> limit on a local disk (type file or block, not on a network filesystem)");
	OK(domain("", "", DISK("vda", NFS "a", "<total_bytes_sec>1048576</total_bytes_sec>")
			  DISK("vdb", IMG "b", "<total_iops_sec>70</total_iops_sec>")
			  DISK("vdc", NFS "c", "<total_iops_sec>90</total_iops_sec>")),
	   "iops /dev/vdc:70:0", "capped: <iotune> of disk 'vdb' on /dev/vdc: iops 70/s");
	/* <blockio:limits> decides alone */
	OK(domain("<blockio:limits xmlns:blockio='" BLOCKIO_NS_URI "'><blockio:disk dev='vda' iops='9'/></blockio:limits>", "",
		  DISK("vda", IMG "a", "<total_bytes_sec>1048576</total_bytes_sec>")),
	   "iops /dev/vdc:9:0", NULL);

	BAD(domain("", "", DISK("vda", IMG "a", "<total_bytes_sec>1M</total_bytes_sec>")),
	    "invalid value '1M' of <total_bytes_sec> in <iotune> of disk 'vda': expected a whole number");
	BAD(domain("", "", DISK("vda", IMG "a", "<total_iops_sec>-1</total_iops_sec>")),
	    "invalid value '-1' of <total_iops_sec>");
	BAD(domain("", "", DISK("vda", IMG "a", "<total_bytes_sec>99999999999999999999999</total_bytes_sec>")),
	    "invalid value '99999999999999999999999'");
	BAD(domain("", "", DISK("vda", IMG "a", "<total_bytes_sec>2199023255553</total_bytes_sec>")),
	    "value 2199023255553 of <total_bytes_sec> in <iotune> of disk 'vda' is above blockio's largest cap, 1099511627776");
	BAD(domain("", "", DISK("vda", IMG "a", "<total_bytes_sec>5</total_bytes_sec><read_bytes_sec>5</read_bytes_sec>")),
	    "<iotune> of disk 'vda' sets total_bytes_sec together with read_bytes_sec or write_bytes_sec");
	BAD(domain("", "", DISK("vda", "/nonexistent/a", "<total_bytes_sec>5</total_bytes_sec>")),
	    "<iotune> of disk 'vda': cannot stat");
	BAD(domain("", "", DISK("vda", "/tmp/a", "<total_bytes_sec>5</total_bytes_sec>")),
	    "<iotune> of disk 'vda': '/tmp/a' is on tmpfs (0:45), in memory: its writes reach no disk");
	BAD(domain("", "", DISK("vda", "/srv/btrfs/a", "<total_bytes_sec>5</total_bytes_sec>")),
	    "'/srv/btrfs/a' is on a filesystem without a single block device (btrfs from /dev/sdb2, 0:60); cap the host disk under it with <blockio:device path='/dev/...'/>");
	BAD("<domain><name>n</name><devices>" DISK("vda", IMG "a", "<total_bytes_sec>5</total_bytes_sec>") "</devices></domain>",
	    "needs a <name> and a <uuid>");
}

#define BLKIO(dev) "<blkiotune><weight>500</weight><device>" dev "</device></blkiotune>"

static void test_blkiotune(void)
{
	OK(domain("", BLKIO("<path>/dev/sdb</path><read_bytes_sec>4194304</read_bytes_sec><write_bytes_sec>2097152</write_bytes_sec>"
			    "<write_iops_sec>80</write_iops_sec>"), ""),
	   "bandwidth /dev/sdb:4194304:0|iops /dev/sdb:80:0",
	   "capped: <blkiotune><device> '/dev/sdb' on /dev/sdb: bandwidth 4MiB/s, iops 80/s; warning: "
	   "<blkiotune><device> '/dev/sdb' limits reads (read_bytes_sec=4194304) and writes "
	   "(write_bytes_sec=2097152) apart; blockio caps reads and writes together at the larger, 4MiB/s; "
	   "warning: <blkiotune><device> '/dev/sdb' limits only writes (write_iops_sec=80); blockio caps "
	   "reads and writes together at 80/s, so reads share that cap");
	/* a partition: its disk */
	OK(domain("", BLKIO("<path>/dev/sdb1</path><write_bytes_sec>1048576</write_bytes_sec>"), ""),
	   "bandwidth /dev/sdb:1048576:0", NULL);
	/* <blkiotune> and <iotune> on one host disk: the smaller */
	OK(domain("", BLKIO("<path>/dev/vdc</path><write_bytes_sec>1048576</write_bytes_sec><write_iops_sec>500</write_iops_sec>"),
		  DISK("vda", IMG "a", "<total_bytes_sec>4194304</total_bytes_sec><total_iops_sec>100</total_iops_sec>")),
	   "bandwidth /dev/vdc:1048576:0|iops /dev/vdc:100:0",
	   "capped: <iotune> of disk 'vda' + <blkiotune><device> '/dev/vdc' on /dev/vdc: bandwidth 1MiB/s, iops 100/s; "
	   "warning: <blkiotune><device> '/dev/vdc' limits only writes (write_bytes_sec=1048576); blockio caps "
	   "reads and writes together at 1MiB/s, so reads share that cap; warning: <blkiotune><device> "
	   "'/dev/vdc' limits only writes (write_iops_sec=500); blockio caps reads and writes together at "
	   "500/s, so reads share that cap");
	/* <blkiotune> bounds an unlimited <iotune> kind */
	OK(domain("", BLKIO("<path>/dev/vdc</path><write_iops_sec>500</write_iops_sec>"),
		  DISK("vda", IMG "a", "<total_bytes_sec>4194304</total_bytes_sec>")),
	   "bandwidth /dev/vdc:4194304:0|iops /dev/vdc:500:0", NULL);
	/* weight only: no cap */
	OK(domain("", "<blkiotune><weight>500</weight></blkiotune>", ""), "", NULL);
	BAD(domain("", BLKIO("<path>/srv/file</path><write_bytes_sec>1</write_bytes_sec>"), ""),
	    "<blkiotune><device> '/srv/file': '/srv/file' is not a block device");
	BAD(domain("", BLKIO("<path>dev/sdb</path><write_bytes_sec>1</write_bytes_sec>"), ""),
	    "<blkiotune><device> 'dev/sdb': <path> is not an absolute path");
	BAD(domain("", BLKIO("<path>/dev/sdb</path><total_bytes_sec>1</total_bytes_sec><write_bytes_sec>x</write_bytes_sec>"), ""),
	    "invalid value 'x' of <write_bytes_sec> in <blkiotune><device> '/dev/sdb'");
}

/*
 * Mutants of a domain XML (bytes replaced, dropped or doubled, digits
 * sprinkled into values), half of them within 160 bytes after @anchor:
 * whatever the parser makes of them, ASan/UBSan stay quiet, an accepted
 * domain has only rules in range, each on a target, and a refusal is one
 * line.  corpus/nova-iotune.xml (Nova: <iotune> in every disk) and
 * ctl/ovirt-blkiotune.xml (<blkiotune><device> beside an <iotune> and a
 * network disk), with libvirt-limits = yes.
 */
static void mutants(const char *file, const char *anchor, int n, unsigned seed)
{
	static const char digits[] = "0123456789<>/'&-x ";
	char path[512], *base, *m;
	size_t len, mlen;
	unsigned accepted = 0, refused = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/%s", SRCDIR, file);
	f = fopen(path, "r");
	CHECKF(f != NULL, "%s", path);
	if (!f)
		return;
	base = malloc(65536);
	m = malloc(65536 * 2);
	if (!base || !m)
		abort();
	len = fread(base, 1, 65535, f);
	fclose(f);
	base[len] = '\0';
	CHECKF(strstr(base, anchor) != NULL, "%s has no %s", file, anchor);
	for (int i = 0; i < n; i++) {
		struct blockio_config cfg;
		struct blockio_error err = { "" };
		bool ok = true;
		int rc;

		memcpy(m, base, len + 1);
		mlen = len;
		for (int k = 0; k < 1 + i % 4; k++) {
			size_t at;

			seed = seed * 1103515245u + 12345u;
			/* half of them near the anchor, where the values are */
			at = (seed >> 8) % mlen;
			if (i % 2) {
				const char *io = strstr(m, anchor);

				if (io)
					at = (size_t)(io - m) + (seed >> 4) % 160;
				if (at >= mlen)
					at = mlen - 1;
			}
			switch ((seed >> 20) % 3) {
			case 0:
				m[at] = digits[(seed >> 12) % (sizeof(digits) - 1)];
				break;
			case 1:
				memmove(m + at, m + at + 1, mlen - at);
				mlen--;
				break;
			default:
				memmove(m + at + 1, m + at, mlen - at + 1);
				mlen++;
				break;
			}
		}
		rc = blockio_config_parse_opts(m, mlen, &on, &cfg, &err);
		if (!rc)
			rc = blockio_config_resolve(&cfg, &fake_host, &err);
		if (rc) {
			refused++;
			CHECKF(err.msg[0] && !strchr(err.msg, '\n'), "%s mutant %d: '%s'",
			       file, i, err.msg);
		} else {
			accepted++;
			for (size_t r = 0; r < cfg.nrules; r++) {
				const struct blockio_rule *rule = &cfg.rules[r];

				ok &= rule->limit > 0 && rule->target < cfg.ntargets &&
				      cfg.targets[rule->target].devnode &&
				      rule->limit <= (rule->kind == BLOCKIO_BANDWIDTH ?
						      BLOCKIO_BANDWIDTH_MAX : BLOCKIO_IOPS_MAX);
			}
			CHECKF(ok, "%s mutant %d: a rule out of range or on no host disk",
			       file, i);
		}
		blockio_config_free(&cfg);
	}
	printf("test-libvirt: %d mutants of %s, %u accepted, %u refused\n",
	       n, file, accepted, refused);
	/* both outcomes happen, or the mutation misses what it aims at */
	CHECKF(accepted && refused, "%s: %u accepted, %u refused", file,
	       accepted, refused);
	free(base);
	free(m);
}

static void test_mutants(void)
{
	mutants("corpus/nova-iotune.xml", "<iotune>", 3000, 13);
	mutants("ctl/ovirt-blkiotune.xml", "<blkiotune>", 3000, 15);
}

/* blockioctl status: which running domain libvirt-limits meant to cap. */
static void test_status_limited(void)
{
#define STATUS(dom) "<domstatus state='running' pid='1'><domain type='kvm'><name>n</name>" \
	"<uuid>c7a5fdbd-cdaf-9455-926a-d65c16db1809</uuid>" dom "</domain></domstatus>"
#define FDISK(type, tune) "<devices><disk type='" type "'><target dev='vda'/><iotune>" tune \
	"</iotune></disk></devices>"
	static const struct {
		const char *xml;
		bool want;
	} cases[] = {
		{ STATUS(FDISK("file", "<write_bytes_sec>5242880</write_bytes_sec>")), true },
		{ STATUS(FDISK("block", "<total_iops_sec>100</total_iops_sec>")), true },
		{ STATUS(FDISK("file", "<total_bytes_sec>0</total_bytes_sec>")), false },
		{ STATUS(FDISK("file", "<group_name>g</group_name><size_iops_sec>4096</size_iops_sec>")), false },
		{ STATUS(FDISK("network", "<total_bytes_sec>5</total_bytes_sec>")), false },
		{ STATUS("<blkiotune><device><path>/dev/sdb</path><read_iops_sec>80</read_iops_sec></device></blkiotune>"), true },
		{ STATUS("<blkiotune><weight>500</weight><device><path>/dev/sdb</path><weight>200</weight></device></blkiotune>"), false },
		{ STATUS("<metadata><b:limits xmlns:b='" BLOCKIO_NS_URI "'/></metadata>"
			 FDISK("file", "<write_bytes_sec>5</write_bytes_sec>")), false },
		{ STATUS(""), false },
		{ "not xml", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECKF(blockio_status_libvirt_limited(cases[i].xml, strlen(cases[i].xml)) == cases[i].want,
		       "case %zu: want %d", i, cases[i].want);
#undef FDISK
#undef STATUS
}

int main(void)
{
	test_status_limited();
	test_hookconf();
	test_hookconf_load();
	test_hookconf_shipped();
	test_cap();
	test_iotune();
	test_blkiotune();
	test_mutants();
	return check_done("test-libvirt");
}
