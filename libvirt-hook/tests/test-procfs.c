// SPDX-License-Identifier: GPL-2.0
/*
 * test-procfs.c - the kernel's text: mountinfo, /proc/cgroups,
 * /proc/PID/cgroup, and the rows of blockio.bandwidth-max/iops-max.
 */
#include <sys/sysmacros.h>

#include "blockio.h"
#include "config.h"
#include "procfs.h"
#include "check.h"

static void test_mountinfo(void)
{
	char path[256];

	/* systemd's cgroup2 tree beside a blockio v1 hierarchy */
	CHECK(blockio_parse_mountinfo(
		"22 27 0:21 / /proc rw,relatime - proc proc rw\n"
		"30 24 0:26 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw,nsdelegate\n"
		"41 27 0:36 / /run/blockio rw,relatime shared:20 - cgroup blockio rw,blockio\n",
		path, sizeof(path)) == 0);
	CHECK_STR(path, "/run/blockio");
	/* co-mounted with another controller, several optional fields */
	CHECK(blockio_parse_mountinfo(
		"41 27 0:36 / /mnt/cg rw shared:20 master:3 - cgroup cg rw,cpu,blockio,noprefix\n",
		path, sizeof(path)) == 0);
	CHECK_STR(path, "/mnt/cg");
	/* octal escapes in the mount point */
	CHECK(blockio_parse_mountinfo(
		"41 27 0:36 / /mnt/my\\040cgroups\\134x - cgroup blockio rw,blockio\n",
		path, sizeof(path)) == 0);
	CHECK_STR(path, "/mnt/my cgroups\\x");
	/* a bind mount of a subdirectory comes second to the real root */
	CHECK(blockio_parse_mountinfo(
		"50 27 0:36 /machine /srv/m rw - cgroup blockio rw,blockio\n"
		"41 27 0:36 / /run/blockio rw - cgroup blockio rw,blockio\n",
		path, sizeof(path)) == 0);
	CHECK_STR(path, "/run/blockio");
	/* not blockio: another v1 controller, a name= hierarchy, a source named blockio */
	CHECK(blockio_parse_mountinfo(
		"41 27 0:36 / /sys/fs/cgroup/blkio rw - cgroup cgroup rw,blkio\n"
		"42 27 0:37 / /x rw - cgroup blockio rw,name=blockio\n"
		"43 27 0:38 / /y rw - tmpfs blockio rw,blockio\n"
		"44 27 0:39 / /z rw - cgroup cgroup rw,blockiox\n",
		path, sizeof(path)) == -1);
	CHECK(blockio_parse_mountinfo("", path, sizeof(path)) == -1);
	CHECK(blockio_parse_mountinfo("garbage\n1 2 3\n", path, sizeof(path)) == -1);
	/* a mount point too long for the buffer is not cut silently */
	CHECK(blockio_parse_mountinfo("41 27 0:36 / /a/very/long/path rw - cgroup b rw,blockio\n",
				      path, 8) == -1);
}

static void test_proc_cgroups(void)
{
	CHECK(blockio_parse_proc_cgroups(
		"#subsys_name\thierarchy\tnum_cgroups\tenabled\n"
		"cpuset\t0\t1\t1\nblockio\t5\t3\t1\n") == 1);
	CHECK(blockio_parse_proc_cgroups("blockio\t0\t1\t0\n") == 0);
	CHECK(blockio_parse_proc_cgroups("blkio\t0\t1\t1\n") == -1);
	CHECK(blockio_parse_proc_cgroups("blockiox\t0\t1\t1\n") == -1);
	CHECK(blockio_parse_proc_cgroups("") == -1);
	/* the disabled line is found among others, and wins over none */
	CHECK(blockio_parse_proc_cgroups(
		"#subsys_name\thierarchy\tnum_cgroups\tenabled\n"
		"cpuset\t0\t1\t1\nblockio\t0\t1\t0\nmemory\t0\t1\t1\n") == 0);
}

static void test_pid_cgroup(void)
{
	char path[128];

	CHECK(blockio_parse_pid_cgroup(
		"5:blockio:/machine/c7a5fdbd-cdaf-9455-926a-d65c16db1809\n"
		"0::/machine.slice/machine-qemu\\x2d1\\x2dvm.scope/libvirt/emulator\n",
		path, sizeof(path)) == 0);
	CHECK_STR(path, "/machine/c7a5fdbd-cdaf-9455-926a-d65c16db1809");
	CHECK(blockio_parse_pid_cgroup("3:cpu,blockio:/\n", path, sizeof(path)) == 0);
	CHECK_STR(path, "/");
	CHECK(blockio_parse_pid_cgroup("3:blockio:/a:b\n", path, sizeof(path)) == 0);
	CHECK_STR(path, "/a:b");
	CHECK(blockio_parse_pid_cgroup("0::/\n4:blkio:/x\n", path, sizeof(path)) == -1);
	CHECK(blockio_parse_pid_cgroup("junk\n", path, sizeof(path)) == -1);
}

static void test_rows(void)
{
	struct blockio_row rows[4];

	CHECK(blockio_parse_rows("", rows, 4) == 0);
	CHECK(blockio_parse_rows(
		"8 16 8388608 1 0 8388608 -522560 48\n"
		"8 0 1048576 0 737280 0 0 216\n", rows, 4) == 2);
	CHECK(rows[0].major == 8 && rows[0].minor == 16 && rows[0].limit == 8388608 &&
	      rows[0].strategy == 1 && rows[0].bucket == 8388608);
	CHECK(rows[1].minor == 0 && rows[1].strategy == 0 && rows[1].bucket == 0);
	/* malformed: too few or many fields, junk, a strategy other than 0/1 */
	CHECK(blockio_parse_rows("8 16 100000 0 846000 0 2113\n", rows, 4) == -1);
	CHECK(blockio_parse_rows("8 16 1 0 0 0 0 0 9\n", rows, 4) == -1);
	CHECK(blockio_parse_rows("8 16 x 0 0 0 0 0\n", rows, 4) == -1);
	CHECK(blockio_parse_rows("8 16 1 2 0 0 0 0\n", rows, 4) == -1);
	CHECK(blockio_parse_rows("8 16 -1 0 0 0 0 0\n", rows, 4) == -1);
	CHECK(blockio_parse_rows("1 1 1 0 0 0 0 0\n2 2 2 0 0 0 0 0\n", rows, 1) == -1);
}

/* A config with two targets and three rules, resolved by hand. */
static void make_config(struct blockio_config *cfg, struct blockio_target *t,
			struct blockio_rule *r)
{
	memset(cfg, 0, sizeof(*cfg));
	memset(t, 0, 2 * sizeof(*t));
	t[0].devnode = "/dev/vdc";
	t[0].dev = makedev(252, 32);
	t[1].devnode = "/dev/sdb";
	t[1].dev = makedev(8, 16);
	r[0] = (struct blockio_rule){ BLOCKIO_BANDWIDTH, BLOCKIO_LEAKY, 2097152, 0, 0 };
	r[1] = (struct blockio_rule){ BLOCKIO_IOPS, BLOCKIO_TOKEN, 500, 1000, 0 };
	r[2] = (struct blockio_rule){ BLOCKIO_BANDWIDTH, BLOCKIO_TOKEN, 4194304, 16777216, 1 };
	cfg->targets = t;
	cfg->ntargets = 2;
	cfg->rules = r;
	cfg->nrules = 3;
}

static int match(const struct blockio_config *cfg, enum blockio_kind kind,
		 const char *text, struct blockio_error *err)
{
	struct blockio_row rows[8];
	int n = blockio_parse_rows(text, rows, 8);

	if (n < 0)
		return -2;
	return blockio_rows_match(cfg, kind, rows, (size_t)n, err);
}

static void test_format_and_match(void)
{
	struct blockio_config cfg;
	struct blockio_target t[2];
	struct blockio_rule r[3];
	struct blockio_error err = { "" };
	char line[64];

	make_config(&cfg, t, r);
	CHECK(blockio_rule_format(&cfg, &r[0], line, sizeof(line)) == 0);
	CHECK_STR(line, "/dev/vdc:2097152:0");
	CHECK(blockio_rule_format(&cfg, &r[1], line, sizeof(line)) == 0);
	CHECK_STR(line, "/dev/vdc:500:1:1000");
	CHECK(blockio_rule_format(&cfg, &r[2], line, sizeof(line)) == 0);
	CHECK_STR(line, "/dev/sdb:4194304:1:16777216");
	CHECK(blockio_rule_format(&cfg, &r[2], line, 10) == -1);

	/* exactly the rules, in any order; leaky ignores the bucket column */
	CHECK(match(&cfg, BLOCKIO_BANDWIDTH,
		    "8 16 4194304 1 0 16777216 16777216 3\n"
		    "252 32 2097152 0 1024 123 0 7\n", &err) == 0);
	/* iops read back x1000 */
	CHECK(match(&cfg, BLOCKIO_IOPS, "252 32 500000 1 0 1000000 -5 1\n", &err) == 0);
	CHECK(match(&cfg, BLOCKIO_IOPS, "252 32 500 1 0 1000 0 1\n", &err) == -1);
	CHECK_CONTAINS(err.msg, "blockio.iops-max reads back '252 32 500 1 ... 1000' for /dev/vdc");
	/* missing, extra, wrong strategy, wrong bucket, wrong device */
	CHECK(match(&cfg, BLOCKIO_BANDWIDTH, "252 32 2097152 0 0 0 0 0\n", &err) == -1);
	CHECK_CONTAINS(err.msg, "without a rule for /dev/sdb (8:16)");
	CHECK(match(&cfg, BLOCKIO_BANDWIDTH,
		    "8 16 4194304 1 0 16777216 0 0\n252 32 2097152 0 0 0 0 0\n"
		    "8 0 1 0 0 0 0 0\n", &err) == -1);
	CHECK_CONTAINS(err.msg, "reads back 3 rules, expected 2");
	CHECK(match(&cfg, BLOCKIO_BANDWIDTH,
		    "8 16 4194304 0 0 16777216 0 0\n252 32 2097152 0 0 0 0 0\n", &err) == -1);
	CHECK(match(&cfg, BLOCKIO_BANDWIDTH,
		    "8 16 4194304 1 0 4194304 0 0\n252 32 2097152 0 0 0 0 0\n", &err) == -1);
	CHECK(match(&cfg, BLOCKIO_BANDWIDTH,
		    "8 17 4194304 1 0 16777216 0 0\n252 32 2097152 0 0 0 0 0\n", &err) == -1);
	CHECK(match(&cfg, BLOCKIO_IOPS, "", &err) == -1);
	/* nothing expected, nothing there */
	cfg.nrules = 1;
	CHECK(match(&cfg, BLOCKIO_IOPS, "", &err) == 0);
	CHECK_STR(blockio_kind_file(BLOCKIO_IOPS), "blockio.iops-max");
	CHECK_STR(blockio_kind_file(BLOCKIO_BANDWIDTH), "blockio.bandwidth-max");
}

int main(void)
{
	test_mountinfo();
	test_proc_cgroups();
	test_pid_cgroup();
	test_rows();
	test_format_and_match();
	return check_done("test-procfs");
}
