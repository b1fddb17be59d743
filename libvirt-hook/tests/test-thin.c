// SPDX-License-Identifier: GPL-2.0
/*
 * test-thin.c - the thin layer's reading side against a fake /proc and a
 * fake libvirt run directory in a temporary directory: finding the blockio
 * mount, and finding QEMU's PID for domains with hostile names.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "blockio.h"
#include "config.h"
#include "cgroup.h"
#include "check.h"

#define UUID "c7a5fdbd-cdaf-9455-926a-d65c16db1809"

static char root[64];

static void put(const char *rel, const char *text, size_t len)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		perror(path);
		exit(2);
	}
	close(fd);
}

static void dir(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(2);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_find_mount(const struct blockio_paths *paths)
{
	struct blockio_error err = { "" };
	char mount[256];

	CHECK(blockio_find_mount(paths, mount, sizeof(mount), &err) == -1);
	CHECK_CONTAINS(err.msg, "cannot read ");
	CHECK_CONTAINS(err.msg, "/proc/cgroups to find the blockio cgroup controller: No such file or directory");
	put("proc/cgroups", "#subsys_name\thierarchy\tnum_cgroups\tenabled\nblkio\t0\t1\t1\n", 55);
	CHECK(blockio_find_mount(paths, mount, sizeof(mount), &err) == -1);
	CHECK_CONTAINS(err.msg, "the kernel has no blockio cgroup controller (no 'blockio' line in ");
	put("proc/cgroups", "#subsys_name\thierarchy\tnum_cgroups\tenabled\nblockio\t0\t1\t0\n", 57);
	CHECK(blockio_find_mount(paths, mount, sizeof(mount), &err) == -1);
	CHECK_CONTAINS(err.msg, "the blockio cgroup controller is disabled");
	put("proc/cgroups", "#subsys_name\thierarchy\tnum_cgroups\tenabled\nblockio\t0\t1\t1\n", 57);
	put("proc/self/mountinfo", "22 27 0:21 / /proc rw - proc proc rw\n", 37);
	CHECK(blockio_find_mount(paths, mount, sizeof(mount), &err) == -1);
	CHECK_CONTAINS(err.msg, "the blockio cgroup hierarchy is not mounted");
	/* the fix an admin runs: the unit the package ships mounts it */
	CHECK_CONTAINS(err.msg, "): run 'systemctl start blockio-cgroup', which mounts it at /run/blockio");
	put("proc/self/mountinfo", "41 27 0:36 / /run/blockio rw - cgroup blockio rw,blockio\n", 57);
	CHECK(blockio_find_mount(paths, mount, sizeof(mount), &err) == 0);
	CHECK_STR(mount, "/run/blockio");
}

static int pid_of(const struct blockio_paths *paths, const char *name,
		  pid_t *pid, struct blockio_error *err)
{
	struct blockio_config cfg = { .name = (char *)name, .uuid = UUID };

	*pid = 0;
	err->msg[0] = '\0';
	return blockio_qemu_pid(paths, &cfg, pid, err);
}

static void test_qemu_pid(const struct blockio_paths *paths)
{
	static const char cmdline[] = "/usr/bin/qemu-system-x86_64\0-name\0guest=x\0-uuid\0" UUID "\0-S";
	static const char *const names[] = {
		"vm1", "my vm", "..", ".", "caf\xc3\xa9 \xe2\x9c\x93", "a\nb", " lead", "-x",
	};
	struct blockio_error err;
	double t0;
	pid_t pid;

	dir("proc/4242");
	put("proc/4242/cmdline", cmdline, sizeof(cmdline));
	dir("proc/777");
	put("proc/777/cmdline", "/bin/sh\0-uuid\0" "00000000-0000-0000-0000-000000000000", 50);

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), "run/%s.pid", names[i]);
		put(rel, "4242\n", 5);
		CHECKF(pid_of(paths, names[i], &pid, &err) == 0 && pid == 4242,
		       "name '%s': %s", names[i], err.msg);
		CHECKF(!strchr(err.msg, '\n'), "message not one line");
	}

	/* a name with '/' never names a file: nothing outside the run dir */
	put("outside.pid", "4242\n", 5);
	CHECK(pid_of(paths, "../outside", &pid, &err) == -1 && pid == 0);
	CHECK_CONTAINS(err.msg, "domain name '../outside' cannot name a PID file");
	CHECK(pid_of(paths, "", &pid, &err) == -1);
	{
		char longname[300];

		memset(longname, 'n', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		CHECK(pid_of(paths, longname, &pid, &err) == -1);
		CHECK_CONTAINS(err.msg, "cannot name a PID file");
	}

	/* a PID that is not our QEMU (stale file, PID reused) is refused */
	put("run/stale.pid", "777", 3);
	CHECK(pid_of(paths, "stale", &pid, &err) == -1);
	CHECK_CONTAINS(err.msg, "PID 777 of domain 'stale' is not a QEMU with -uuid " UUID);
	put("run/gone.pid", "99999", 5);
	CHECK(pid_of(paths, "gone", &pid, &err) == -1);
	put("run/junk.pid", "42x\n", 4);
	CHECK(pid_of(paths, "junk", &pid, &err) == -1);
	CHECK_CONTAINS(err.msg, "(malformed)");
	put("run/one.pid", "1\n", 2);
	CHECK(pid_of(paths, "one", &pid, &err) == -1);

	/* no PID file: the status XML has the PID too, and is read at once */
	put("run/st.xml", "<domstatus state='running' pid='4242'><domain type='qemu'/></domstatus>", 71);
	t0 = now();
	CHECK(pid_of(paths, "st", &pid, &err) == 0 && pid == 4242);
	CHECKF(now() - t0 < 0.2, "waited %.2f s", now() - t0);
	/* libvirt 9.0 XML-escapes a quote in the PID file's name */
	put("run/it&apos;s q.pid", "4242\n", 5);
	put("run/it's q.xml", "<domstatus pid='4242'/>", 23);
	CHECK(pid_of(paths, "it's q", &pid, &err) == 0 && pid == 4242);

	/* neither: fail after the bounded wait, not before, not much after */
	t0 = now();
	CHECK(pid_of(paths, "absent", &pid, &err) == -1);
	CHECKF(now() - t0 >= 0.25 && now() - t0 < 2.0, "waited %.2f s", now() - t0);
	CHECK_CONTAINS(err.msg, "no QEMU PID for domain 'absent'");
	CHECK_CONTAINS(err.msg, "No such file or directory");
	/* the name is escaped in the message */
	CHECK(pid_of(paths, "ab\nsent", &pid, &err) == -1);
	CHECK_CONTAINS(err.msg, "'ab\\x0asent'");
}

int main(void)
{
	struct blockio_paths paths;
	char proc[128], run[128], cmd[160];

	snprintf(root, sizeof(root), "/tmp/blockio-thin.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 2;
	}
	dir("proc");
	dir("proc/self");
	dir("run");
	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(run, sizeof(run), "%s/run", root);
	paths = (struct blockio_paths){ proc, run, 300, NULL, NULL };

	test_find_mount(&paths);
	test_qemu_pid(&paths);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", root);
	return check_done("test-thin");
}
