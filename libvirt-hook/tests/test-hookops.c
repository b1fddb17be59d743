// SPDX-License-Identifier: GPL-2.0
/*
 * test-hookops.c - the hook's operations (blockio_hook_run) and how each
 * one ends when something is wrong, against a fake host: fakefs.c for the
 * disks, and in a temporary directory a fake /proc (cgroups, mountinfo,
 * QEMU's cmdline and threads), libvirt run directory and blockio
 * "hierarchy" (a plain directory, where a cgroup file can be made to fail).
 *
 *  - reconnect never exits non-zero, whatever is wrong: it says NOT CAPPED
 *    in one LOG_ERR line that names the VM, the problem, that the VM keeps
 *    running uncapped, and the command that applies the caps;
 *  - started fails closed on the same problems (exit 1);
 *  - prepare, start and restore fail with caps when the controller is
 *    missing or disabled or the hierarchy is not mounted, and name it;
 *    without caps they succeed on such a host.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "blockio.h"
#include "cgroup.h"
#include "hookops.h"
#include "check.h"
#include "fakefs.h"

#define UUID "c7a5fdbd-cdaf-9455-926a-d65c16db1809"
#define NS "xmlns:blockio='https://blockio.dev/xmlns/limits/1'"
#define DOMAIN(metadata)                                                   \
	"<domain type='kvm'><name>vm1</name><uuid>" UUID "</uuid>"         \
	"<metadata>" metadata "</metadata><devices>"                       \
	"<disk type='file' device='disk'>"                                 \
	"<source file='/var/lib/libvirt/images/vm1.img'/>"                 \
	"<target dev='vda' bus='virtio'/></disk></devices></domain>"

static const char capped_xml[] = DOMAIN(
	"<blockio:limits " NS "><blockio:disk dev='vda' bandwidth='8MiB/s'/></blockio:limits>");
static const char plain_xml[] = DOMAIN("");
static const char empty_xml[] = DOMAIN("<blockio:limits " NS "/>");
static const char bad_unit_xml[] = DOMAIN(
	"<blockio:limits " NS "><blockio:disk dev='vda' bandwidth='8XB/s'/></blockio:limits>");
static const char http_xml[] = DOMAIN(
	"<blockio:limits xmlns:blockio='http://blockio.dev/xmlns/limits/1'>"
	"<blockio:disk dev='vda' bandwidth='8M'/></blockio:limits>");
static const char nons_xml[] = DOMAIN("<limits><disk dev='vda' bandwidth='8M'/></limits>");
static const char junk_xml[] = "not xml at all";

#define CGROUPS_HEAD "#subsys_name\thierarchy\tnum_cgroups\tenabled\ncpuset\t0\t1\t1\n"
#define CGROUPS_ON CGROUPS_HEAD "blockio\t6\t3\t1\n"
#define CGROUPS_OFF CGROUPS_HEAD "blockio\t0\t1\t0\n"
#define CGROUPS_NONE CGROUPS_HEAD "blkio\t5\t3\t1\n"

static char root[64], mnt[128];
static struct blockio_paths paths;

static void path_of(const char *rel, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", root, rel);
}

static void put(const char *rel, const char *text)
{
	char path[512];
	int fd;

	path_of(rel, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		perror(path);
		exit(2);
	}
	close(fd);
}

static void dir(const char *rel)
{
	char path[512];

	path_of(rel, path, sizeof(path));
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(2);
	}
}

static void gone(const char *rel)
{
	char path[512];

	path_of(rel, path, sizeof(path));
	if (unlink(path) && rmdir(path) && errno != ENOENT) {
		perror(path);
		exit(2);
	}
}

/* A host with the controller enabled and its hierarchy mounted at mnt/. */
static void host_ok(void)
{
	char text[512];

	put("proc/cgroups", CGROUPS_ON);
	snprintf(text, sizeof(text),
		 "22 27 0:21 / /proc rw - proc proc rw\n"
		 "41 27 0:36 / %s rw,relatime - cgroup blockio rw,blockio\n", mnt);
	put("proc/self/mountinfo", text);
}

static void host_not_mounted(void)
{
	put("proc/cgroups", CGROUPS_ON);
	put("proc/self/mountinfo",
	    "22 27 0:21 / /proc rw - proc proc rw\n"
	    "35 27 0:30 / /sys/fs/cgroup/blkio rw - cgroup cgroup rw,blkio\n");
}

/*
 * The running VM of a reconnect: its cgroup exists from before, with rule
 * files that take writes, and a cgroup.procs that refuses them (EISDIR)
 * when @procs_fails; QEMU 4242 runs with -uuid UUID.
 */
static void vm_running(bool procs_fails)
{
	static const char cmdline[] = "/usr/bin/qemu-system-x86_64\0-uuid\0" UUID "\0-S";
	char path[512];
	int fd;

	dir("mnt/machine");
	dir("mnt/machine/" UUID);
	put("mnt/machine/" UUID "/blockio.bandwidth-max", "");
	put("mnt/machine/" UUID "/blockio.iops-max", "");
	gone("mnt/machine/" UUID "/cgroup.procs");
	if (procs_fails)
		dir("mnt/machine/" UUID "/cgroup.procs");
	else
		put("mnt/machine/" UUID "/cgroup.procs", "");
	put("run/vm1.pid", "4242\n");
	dir("proc/4242");
	path_of("proc/4242/cmdline", path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, cmdline, sizeof(cmdline)) != (ssize_t)sizeof(cmdline)) {
		perror(path);
		exit(2);
	}
	close(fd);
	dir("proc/4242/task");
	dir("proc/4242/task/4242");
	put("proc/4242/task/4242/cgroup", "6:blockio:/machine/" UUID "\n");
}

static void run(const char *op, const char *xml, struct blockio_hook_result *res)
{
	static const struct blockio_error no_stdin = {
		"no domain XML on stdin within 30 s"
	};

	blockio_hook_run(&paths, &fake_host, "vm1", op, xml,
			 xml ? strlen(xml) : 0, &no_stdin, res);
}

/* The outcome of a reconnect that went wrong: exit 0, loud, says why. */
static void check_reconnect_kept(const char *xml, const char *why)
{
	struct blockio_hook_result res;

	run("reconnect", xml, &res);
	CHECKF(res.status == 0, "reconnect (%s) exits %d: libvirt would kill the VM", why, res.status);
	CHECKF(res.priority == LOG_ERR, "reconnect (%s): priority %d, want LOG_ERR", why, res.priority);
	CHECK_CONTAINS(res.out, "blockio: domain 'vm1' at reconnect: NOT CAPPED: ");
	CHECK_CONTAINS(res.out, why);
	CHECK_CONTAINS(res.out, "the VM keeps running, uncapped until this is fixed");
	CHECK_STR(res.out + strlen("blockio: "), res.log);
	CHECKF(!strchr(res.out, '\n'), "not one line: '%s'", res.out);
}

/* started, on the same problem: fail closed, the error alone on stderr. */
static void check_started_refused(const char *xml, const char *why)
{
	struct blockio_hook_result res;

	run("started", xml, &res);
	CHECKF(res.status == 1, "started (%s) exits %d", why, res.status);
	CHECK(res.priority == LOG_ERR);
	CHECKF(!strncmp(res.out, "blockio: ", 9) && strstr(res.out, why),
	       "'%s' lacks '%s'", res.out, why);
	CHECK_CONTAINS(res.log, "domain 'vm1' at started: ");
}

static void test_reconnect(void)
{
	struct blockio_hook_result res;

	/* the metadata */
	host_ok();
	vm_running(false);
	check_reconnect_kept(bad_unit_xml, "invalid value '8XB/s' for attribute 'bandwidth'");
	check_reconnect_kept(http_xml, "has namespace 'http://blockio.dev/xmlns/limits/1'");
	check_reconnect_kept(nons_xml, "<limits> in <metadata> has no namespace");
	check_reconnect_kept(junk_xml, "domain XML is not well-formed");
	check_reconnect_kept(NULL, "no domain XML on stdin within 30 s");
	check_started_refused(bad_unit_xml, "invalid value '8XB/s'");
	check_started_refused(http_xml, "has namespace 'http://blockio.dev/xmlns/limits/1'");

	/* the command that applies the caps names the UUID when there is one */
	run("reconnect", http_xml, &res);
	CHECK_CONTAINS(res.out, "; the VM keeps running, uncapped until this is fixed and its caps are applied with: blockio-metad --apply " UUID);
	CHECK(!strchr(strstr(res.out, "--apply"), '\''));
	run("reconnect", junk_xml, &res);
	CHECK_CONTAINS(res.out, "; the VM keeps running, uncapped until this is fixed and its caps are applied with: blockio-metad --apply 'vm1'");
	CHECK(strlen(strstr(res.out, "--apply 'vm1'")) == strlen("--apply 'vm1'"));	/* it ends the line */

	/* the kernel: no controller, controller disabled, /proc/cgroups gone */
	put("proc/cgroups", CGROUPS_NONE);
	check_reconnect_kept(capped_xml, "the kernel has no blockio cgroup controller (no 'blockio' line in ");
	check_started_refused(capped_xml, "the kernel has no blockio cgroup controller");
	put("proc/cgroups", CGROUPS_OFF);
	check_reconnect_kept(capped_xml, "the blockio cgroup controller is disabled");
	check_started_refused(capped_xml, "the blockio cgroup controller is disabled");
	gone("proc/cgroups");
	check_reconnect_kept(capped_xml, "/proc/cgroups to find the blockio cgroup controller: No such file or directory");

	/* the hierarchy not mounted (libvirtd restarted after an umount) */
	host_not_mounted();
	check_reconnect_kept(capped_xml, "the blockio cgroup hierarchy is not mounted");
	check_started_refused(capped_xml, "the blockio cgroup hierarchy is not mounted");

	/* cgroupfs refusing a write: the cgroup of before stays as it was */
	host_ok();
	vm_running(true);
	check_reconnect_kept(capped_xml, "cannot move QEMU 4242 into machine/" UUID ": Is a directory");
	{
		struct stat st;
		char path[512];

		path_of("mnt/machine/" UUID, path, sizeof(path));
		CHECKF(!stat(path, &st) && S_ISDIR(st.st_mode),
		       "the VM's cgroup of before was removed");
	}
	vm_running(true);
	check_started_refused(capped_xml, "cannot move QEMU 4242 into machine/" UUID);

	/* a rule file that cannot be read */
	vm_running(false);
	gone("mnt/machine/" UUID "/blockio.bandwidth-max");
	check_reconnect_kept(capped_xml, "cannot read blockio.bandwidth-max: No such file or directory");

	/* QEMU's PID: no file, or not our QEMU */
	vm_running(false);
	gone("run/vm1.pid");
	check_reconnect_kept(capped_xml, "no QEMU PID for domain 'vm1'");
	vm_running(false);
	put("run/vm1.pid", "1\n");
	check_reconnect_kept(capped_xml, "no QEMU PID for domain 'vm1'");

	/* without caps, reconnect needs no blockio and says "not capped" */
	put("proc/cgroups", CGROUPS_NONE);
	run("reconnect", plain_xml, &res);
	CHECK(res.status == 0 && res.priority == LOG_INFO);
	CHECK_STR(res.out, "blockio: domain 'vm1' at reconnect: not capped: no <blockio:limits> in <metadata>");
	CHECK_STR(res.log, "domain 'vm1' at reconnect: not capped: no <blockio:limits> in <metadata>");
}

/* prepare, start, restore with caps on a host that cannot cap: refused. */
static void check_refused(const char *why)
{
	static const char *const ops[] = { "prepare", "start", "restore" };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct blockio_hook_result res;
		char want[256];

		run(ops[i], capped_xml, &res);
		CHECKF(res.status == 1, "%s with caps (%s) exits %d", ops[i], why, res.status);
		CHECK(res.priority == LOG_ERR);
		CHECKF(!strncmp(res.out, "blockio: ", 9) && strstr(res.out, why),
		       "%s: '%s' lacks '%s'", ops[i], res.out, why);
		CHECKF(!strchr(res.out, '\n'), "not one line: '%s'", res.out);
		snprintf(want, sizeof(want), "domain 'vm1' at %s: ", ops[i]);
		CHECK_CONTAINS(res.log, want);
	}
}

/* ... and a domain without caps starts there, "not capped". */
static void check_uncapped_starts(void)
{
	static const char *const ops[] = { "prepare", "start", "restore", "migrate" };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct blockio_hook_result res;
		char want[256];

		run(ops[i], plain_xml, &res);
		snprintf(want, sizeof(want),
			 "blockio: domain 'vm1' at %s: not capped: no <blockio:limits> in <metadata>",
			 ops[i]);
		CHECKF(res.status == 0, "%s without caps exits %d: %s", ops[i], res.status, res.out);
		CHECK(res.priority == LOG_INFO);
		CHECK_STR(res.out, want);
		run(ops[i], empty_xml, &res);
		snprintf(want, sizeof(want),
			 "blockio: domain 'vm1' at %s: not capped: <blockio:limits> is empty",
			 ops[i]);
		CHECKF(res.status == 0, "%s with empty limits exits %d: %s", ops[i], res.status, res.out);
		CHECK_STR(res.out, want);
	}
}

static void test_prepare(void)
{
	struct blockio_hook_result res;

	put("proc/cgroups", CGROUPS_NONE);
	check_refused("blockio: the kernel has no blockio cgroup controller (no 'blockio' line in ");
	check_uncapped_starts();
	put("proc/cgroups", CGROUPS_OFF);
	check_refused("blockio: the blockio cgroup controller is disabled (its 'enabled' column in ");
	check_uncapped_starts();
	gone("proc/cgroups");
	check_refused("/proc/cgroups to find the blockio cgroup controller: No such file or directory");
	check_uncapped_starts();
	host_not_mounted();
	check_refused("blockio: the blockio cgroup hierarchy is not mounted (no cgroup mount with option 'blockio' in ");
	check_uncapped_starts();
	put("proc/self/mountinfo", "");
	check_refused("the blockio cgroup hierarchy is not mounted");

	/* migrate validates only: the destination's prepare checks its host */
	run("migrate", capped_xml, &res);
	CHECK(res.status == 0);
	CHECK_STR(res.out, "blockio: domain 'vm1' at migrate: capped: <blockio:disk dev='vda'>: bandwidth 8MiB/s");
	CHECK(res.priority == LOG_INFO);
	/* a bandwidth likely not meant: capped, and logged as a warning */
	run("migrate", DOMAIN("<blockio:limits " NS "><blockio:disk dev='vda' bandwidth='8'/></blockio:limits>"),
	    &res);
	CHECK(res.status == 0);
	CHECK(res.priority == LOG_WARNING);
	CHECK_CONTAINS(res.out, "capped: <blockio:disk dev='vda'>: bandwidth 8B/s; warning: bandwidth='8' of <blockio:disk dev='vda'> has no unit");

	/* a metadata error is still said first, and a missing disk before the kernel */
	run("prepare", bad_unit_xml, &res);
	CHECK(res.status == 1);
	CHECK_CONTAINS(res.out, "blockio: invalid value '8XB/s'");

	/* with everything there: as before, capped and the host disk named */
	host_ok();
	run("prepare", capped_xml, &res);
	CHECKF(res.status == 0, "prepare exits %d: %s", res.status, res.out);
	CHECK(res.priority == LOG_INFO);
	CHECK_STR(res.out, "blockio: domain 'vm1' at prepare: capped: <blockio:disk dev='vda'> on /dev/vdc: bandwidth 8MiB/s");
	CHECK_STR(res.log, "domain 'vm1' at prepare: capped: <blockio:disk dev='vda'> on /dev/vdc: bandwidth 8MiB/s");
	check_uncapped_starts();
}

/* A qcow2 vda on vdc whose backing chain libvirt listed (start's XML). */
#define CHAINED(limits, backing)                                           \
	"<domain type='kvm'><name>vm1</name><uuid>" UUID "</uuid>"         \
	"<metadata><blockio:limits " NS ">" limits "</blockio:limits>"     \
	"</metadata><devices><disk type='file' device='disk'>"             \
	"<driver name='qemu' type='qcow2'/>"                               \
	"<source file='/var/lib/libvirt/images/vm1.qcow2'/>" backing       \
	"<target dev='vda' bus='virtio'/></disk></devices></domain>"
#define BACKING(file, rest)                                                \
	"<backingStore type='file'><format type='qcow2'/>"                 \
	"<source file='" file "'/>" rest "</backingStore>"
#define VDA_CAP "<blockio:disk dev='vda' bandwidth='8MiB/s'/>"

/*
 * start and restore get the backing chain from libvirt: every backing file
 * on a host disk the domain caps, or refused, naming file, disk and remedy.
 */
static void test_backing(void)
{
	static const char same_disk[] = CHAINED(VDA_CAP,
		BACKING("/var/lib/libvirt/images/base.qcow2", "<backingStore/>"));
	static const char other_disk[] = CHAINED(VDA_CAP,
		BACKING("/var/lib/libvirt/images/mid.qcow2",
			BACKING("/srv/base.qcow2", "<backingStore/>")));
	static const char other_capped[] = CHAINED(
		VDA_CAP "<blockio:device path='/dev/sdb' bandwidth='8MiB/s'/>",
		BACKING("/srv/base.qcow2", "<backingStore/>"));
	static const char on_nfs[] = CHAINED(VDA_CAP,
		BACKING("/var/lib/nova/mnt/a8f3c1/base.qcow2", "<backingStore/>"));
	static const char missing[] = CHAINED(VDA_CAP,
		BACKING("/nonexistent/base.qcow2", "<backingStore/>"));
	static const char on_tmpfs[] = CHAINED(VDA_CAP,
		BACKING("/tmp/base.qcow2", "<backingStore/>"));
	static const char network[] = CHAINED(VDA_CAP,
		"<backingStore type='network'><format type='raw'/>"
		"<source protocol='nbd' name='base'><host name='nbd.example'/>"
		"</source></backingStore>");
	static const char *const ops[] = { "start", "restore" };
	struct blockio_hook_result res;

	host_ok();
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		run(ops[i], same_disk, &res);
		CHECKF(res.status == 0, "%s, backing on the capped disk: %s", ops[i], res.out);
		run(ops[i], other_capped, &res);
		CHECKF(res.status == 0, "%s, backing on a capped disk: %s", ops[i], res.out);

		run(ops[i], other_disk, &res);
		CHECKF(res.status == 1, "%s, backing on an uncapped disk exits %d", ops[i], res.status);
		CHECK_STR(res.out, "blockio: <blockio:disk dev='vda'>: backing file '/srv/base.qcow2' is on host disk /dev/sdb (8:16), not on /dev/vdc, and nothing caps that disk: QEMU's reads of it would not be capped; cap it too with <blockio:device path='/dev/sdb'/>, or flatten the image onto /dev/vdc (qemu-img convert)");
		run(ops[i], on_nfs, &res);
		CHECK(res.status == 1);
		CHECK_CONTAINS(res.out, "blockio: backing file of <blockio:disk dev='vda'>: '/var/lib/nova/mnt/a8f3c1/base.qcow2' is on a network filesystem");
		/* a backing file is only read: no word of writes */
		run(ops[i], on_tmpfs, &res);
		CHECK(res.status == 1);
		CHECK_STR(res.out, "blockio: backing file of <blockio:disk dev='vda'>: '/tmp/base.qcow2' is on tmpfs (0:45), in memory: QEMU only reads a backing file, and those reads reach no host disk, so blockio cannot cap them; move the backing file to a host disk the domain caps, or flatten the image (qemu-img convert)");
		run(ops[i], missing, &res);
		CHECK(res.status == 1);
		CHECK_STR(res.out, "blockio: backing file of <blockio:disk dev='vda'>: cannot stat '/nonexistent/base.qcow2': No such file or directory");
		run(ops[i], network, &res);
		CHECK(res.status == 1);
		CHECK_STR(res.out, "blockio: <blockio:disk dev='vda'>: its backing chain goes on in a 'network' backing store, whose reads blockio cannot cap; flatten the image onto a host disk (qemu-img convert) or limit that disk with <iotune>");
	}
	/* migrate only validates: the destination's start judges its own disks */
	run("migrate", other_disk, &res);
	CHECK(res.status == 0);
}

static void test_quiet_ops(void)
{
	static const char *const ops[] = { "attach", "shutdown", "", "reconnectx" };
	struct blockio_hook_result res;

	/* attach (gone from libvirt since 5.5) and unknown ones: nothing */
	put("proc/cgroups", CGROUPS_NONE);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		run(ops[i], capped_xml, &res);
		CHECK(res.status == 0 && res.priority == -1 && !res.out[0]);
		run(ops[i], NULL, &res);
		CHECK(res.status == 0 && res.priority == -1 && !res.out[0]);
	}
	/* stop and release: quiet, whatever the host and the metadata */
	run("stopped", capped_xml, &res);
	CHECK(res.status == 0 && res.priority == -1 && !res.out[0]);
	run("release", bad_unit_xml, &res);
	CHECK(res.status == 0 && res.priority == -1 && !res.out[0]);
}

/* A domain as OpenStack Nova writes it: <iotune> in its disk, no blockio. */
#define NOVA(iotune, backing)                                              \
	"<domain type='kvm'><name>vm1</name><uuid>" UUID "</uuid>"         \
	"<devices><disk type='file' device='disk'>"                        \
	"<driver name='qemu' type='qcow2'/>"                               \
	"<source file='/var/lib/libvirt/images/vm1.qcow2'/>" backing       \
	"<target dev='vda' bus='virtio'/><iotune>" iotune "</iotune>"      \
	"</disk></devices></domain>"

/*
 * hook.conf libvirt-limits = yes (issue 25 item 2): a host that cannot cap
 * a domain by its libvirt limits starts it anyway, limited by QEMU's
 * <iotune> only, and says so; libvirt-limits-uncapped = refuse refuses.
 */
static void test_libvirt_limits(void)
{
	static const char nova[] = NOVA("<total_bytes_sec>10485760</total_bytes_sec>", "");
	static const char nova_rw[] = NOVA("<read_bytes_sec>10485760</read_bytes_sec>"
					   "<write_bytes_sec>5242880</write_bytes_sec>", "");
	static const char nova_backing[] = NOVA("<total_bytes_sec>10485760</total_bytes_sec>",
		BACKING("/srv/base.qcow2", "<backingStore/>"));
	static const char *const ops[] = { "prepare", "start", "restore", "started" };
	struct blockio_hook_result res;
	char conf[160];

	snprintf(conf, sizeof(conf), "%s/hook.conf", root);
	paths.hookconf = conf;
	put("hook.conf", "libvirt-limits = yes\n");

	/* a stock kernel: the domain starts, limited by QEMU's <iotune> only */
	put("proc/cgroups", CGROUPS_NONE);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		run(ops[i], nova, &res);
		CHECKF(res.status == 0, "%s on a stock kernel exits %d: %s", ops[i], res.status, res.out);
		CHECK(res.priority == LOG_WARNING);
		CHECK_CONTAINS(res.out, "at ");
		CHECK_CONTAINS(res.out, ": not capped by blockio: the kernel has no blockio cgroup controller");
		CHECK_CONTAINS(res.out, "; the domain runs limited by libvirt's own <iotune>/<blkiotune> only, which do not hold for writeback (hook.conf: libvirt-limits-uncapped = start; 'refuse' stops such a domain)");
	}
	/* reconnect: the same line, not NOT CAPPED at priority err */
	run("reconnect", nova, &res);
	CHECK(res.status == 0);
	CHECK(res.priority == LOG_WARNING);
	CHECK_CONTAINS(res.out, "blockio: domain 'vm1' at reconnect: not capped by blockio: the kernel has no blockio cgroup controller");
	/* not mounted, the same */
	host_not_mounted();
	run("prepare", nova, &res);
	CHECK(res.status == 0);
	CHECK_CONTAINS(res.out, "not capped by blockio: the blockio cgroup hierarchy is not mounted");
	/* refuse: as <blockio:limits> would */
	put("hook.conf", "libvirt-limits = yes\nlibvirt-limits-uncapped = refuse\n");
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		run(ops[i], nova, &res);
		CHECKF(res.status == 1, "%s with refuse exits %d: %s", ops[i], res.status, res.out);
		CHECK_CONTAINS(res.out, "blockio: the blockio cgroup hierarchy is not mounted");
	}
	put("hook.conf", "libvirt-limits = yes\nlibvirt-limits-uncapped = maybe\n");
	run("prepare", nova, &res);
	CHECK(res.status == 1);
	CHECK_CONTAINS(res.out, "line 2: invalid value 'maybe' for libvirt-limits-uncapped: expected 'start' or 'refuse'");

	/* a backing file on an uncapped host disk: capped, and said */
	host_ok();
	put("hook.conf", "libvirt-limits = yes\n");
	run("start", nova_backing, &res);
	CHECKF(res.status == 0, "start exits %d: %s", res.status, res.out);
	CHECK(res.priority == LOG_WARNING);
	CHECK_CONTAINS(res.out, "capped: <iotune> of disk 'vda' on /dev/vdc: bandwidth 10MiB/s; warning: <iotune> of disk 'vda': backing file '/srv/base.qcow2' is on host disk /dev/sdb (8:16), not on /dev/vdc");
	CHECK_CONTAINS(res.out, "QEMU's <iotune> still limits those reads");
	put("hook.conf", "libvirt-limits = yes\nlibvirt-limits-uncapped = refuse\n");
	run("start", nova_backing, &res);
	CHECK(res.status == 1);

	/* reads and writes apart: the start says they share the larger cap */
	put("hook.conf", "libvirt-limits = yes\n");
	run("prepare", nova_rw, &res);
	CHECK(res.status == 0);
	CHECK_CONTAINS(res.out, "capped: <iotune> of disk 'vda' on /dev/vdc: bandwidth 10MiB/s; warning: <iotune> of disk 'vda' limits reads (read_bytes_sec=10485760) and writes (write_bytes_sec=5242880) apart; blockio caps reads and writes together at the larger, 10MiB/s");

	/* <blockio:limits> is never soft */
	put("proc/cgroups", CGROUPS_NONE);
	run("prepare", capped_xml, &res);
	CHECK(res.status == 1);
	paths.hookconf = NULL;
}

int main(void)
{
	char proc[128], run_dir[128], cmd[160];

	snprintf(root, sizeof(root), "/tmp/blockio-hookops.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 2;
	}
	dir("proc");
	dir("proc/self");
	dir("run");
	dir("mnt");
	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(run_dir, sizeof(run_dir), "%s/run", root);
	snprintf(mnt, sizeof(mnt), "%s/mnt", root);
	paths = (struct blockio_paths){ proc, run_dir, 200, NULL, NULL };

	test_reconnect();
	test_prepare();
	test_backing();
	test_libvirt_limits();
	test_quiet_ops();

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", root);
	return check_done("test-hookops");
}
