// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup.c - the thin layer: the only code that touches cgroupfs and /proc.
 *
 * Layout of the blockio v1 hierarchy (found through mountinfo):
 *
 *   MOUNT/                         root: tasks nobody capped
 *   MOUNT/machine/                 parent of all VMs, no rules of its own
 *   MOUNT/machine/UUID/            one VM: its rules and its whole QEMU
 *
 * Every file below MOUNT is reached with openat() from a directory fd, with
 * O_NOFOLLOW, and the only name ever appended is "machine" or a UUID that
 * blockio_uuid_normalize() accepted: whatever the domain is called, nothing
 * outside machine/UUID is created.  The "machine" directory is flock()ed
 * while a VM's cgroup changes, so the hook and blockio-metad take turns.
 * Every wait is bounded.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "blockio.h"
#include "names.h"
#include "config.h"
#include "resolve.h"
#include "procfs.h"
#include "cgroup.h"

#define LOCK_WAIT_MS	5000	/* for the other user of machine/ */
#define RMDIR_WAIT_MS	2000	/* for exiting tasks to leave */
#define THREAD_SETTLE_MS 1000	/* for an exiting thread to go */
#define POLL_MS		20
#define MAX_ROWS	256
#define TEXT_MAX	65536

const struct blockio_paths blockio_paths_default = {
	.proc = "/proc",
	.qemu_rundir = "/run/libvirt/qemu",
	.pid_wait_ms = 5000,
	.hookconf = "/etc/blockio/hook.conf",
	.metad_state = "/run/blockio-metad.state",
};

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Read all of @name (relative to @dirfd) into @buf; 0 or -errno. */
static int read_at(int dirfd, const char *name, char *buf, size_t size)
{
	size_t len = 0;
	int fd, ret = 0;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = -errno;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (!ret && len + 1 >= size)
		ret = -EFBIG;
	return ret;
}

/* One write(2) of @text to @name, as a cgroup file wants it; 0 or -errno. */
static int write_at(int dirfd, const char *name, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, ret = 0;

	fd = openat(dirfd, name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int blockio_find_mount(const struct blockio_paths *paths, char *out,
		       size_t outlen, struct blockio_error *err)
{
	static char text[TEXT_MAX * 4];
	char path[PATH_MAX];
	int rc;

	snprintf(path, sizeof(path), "%s/cgroups", paths->proc);
	rc = read_at(AT_FDCWD, path, text, sizeof(text));
	if (rc) {
		blockio_error_set(err, "cannot read %s to find the blockio cgroup controller: %s",
				  path, strerror(-rc));
		return -1;
	}
	switch (blockio_parse_proc_cgroups(text)) {
	case -1:
		blockio_error_set(err, "the kernel has no blockio cgroup controller (no 'blockio' line in %s): boot a kernel with the blockio patches",
				  path);
		return -1;
	case 0:
		blockio_error_set(err, "the blockio cgroup controller is disabled (its 'enabled' column in %s is 0): remove cgroup_disable=blockio from the kernel command line",
				  path);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/self/mountinfo", paths->proc);
	rc = read_at(AT_FDCWD, path, text, sizeof(text));
	if (rc || blockio_parse_mountinfo(text, out, outlen)) {
		blockio_error_set(err, "the blockio cgroup hierarchy is not mounted (no cgroup mount with option 'blockio' in %s): run 'systemctl start blockio-cgroup', which mounts it at /run/blockio (by hand: mount -t cgroup -o blockio blockio /run/blockio)",
				  path);
		return -1;
	}
	return 0;
}

/* ---- the QEMU process ------------------------------------------------------ */

static int parse_pid(const char *s, pid_t *pid)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	while (*end == '\n' || *end == ' ')
		end++;
	if (errno || *end || v < 2 || v > INT_MAX)
		return -1;
	*pid = (pid_t)v;
	return 0;
}

/* Is @pid a QEMU started with "-uuid @uuid"? */
static bool is_qemu_of(const struct blockio_paths *paths, pid_t pid,
		       const char *uuid)
{
	static char cmdline[TEXT_MAX * 4];
	char path[PATH_MAX];
	size_t len = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/%d/cmdline", paths->proc, (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	for (;;) {
		ssize_t n = read(fd, cmdline + len, sizeof(cmdline) - 1 - len);

		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	cmdline[len] = '\0';
	for (size_t i = 0; i < len; i += strlen(cmdline + i) + 1) {
		const char *arg = cmdline + i, *next = arg + strlen(arg) + 1;

		if (!strcmp(arg, "-uuid") && next < cmdline + len &&
		    !strcasecmp(next, uuid))
			return true;
	}
	return false;
}

/*
 * The PID in NAME.pid, else in the status XML NAME.xml (libvirt 9.0 writes
 * the PID file of a domain whose name holds a quote as "...&apos;...pid").
 * 0, or the PID file's -errno (-EINVAL: malformed).
 */
static int read_pid_files(int dirfd, const char *name, pid_t *pid)
{
	static char text[BLOCKIO_XML_MAX];
	char file[NAME_MAX + 1];
	int rc;

	snprintf(file, sizeof(file), "%s.pid", name);
	rc = read_at(dirfd, file, text, TEXT_MAX);
	if (!rc && !parse_pid(text, pid))
		return 0;
	if (!rc)
		rc = -EINVAL;
	snprintf(file, sizeof(file), "%s.xml", name);
	if (!read_at(dirfd, file, text, sizeof(text)) &&
	    !blockio_status_pid(text, strlen(text), pid))
		return 0;
	return rc;
}

int blockio_qemu_pid(const struct blockio_paths *paths,
		     const struct blockio_config *cfg, pid_t *pid,
		     struct blockio_error *err)
{
	char name[256];
	unsigned waited = 0;
	int dirfd, rc;

	blockio_escape(cfg->name ? cfg->name : "", name, sizeof(name));
	/* NAME.pid and NAME.xml must be one file name each */
	if (!cfg->name || !cfg->name[0] || strchr(cfg->name, '/') ||
	    strlen(cfg->name) + strlen(".pid") > NAME_MAX) {
		blockio_error_set(err, "domain name '%s' cannot name a PID file",
				  name);
		return -1;
	}
	dirfd = open(paths->qemu_rundir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		blockio_error_set(err, "cannot open %s: %s", paths->qemu_rundir,
				  strerror(errno));
		return -1;
	}
	/* libvirt writes them before `started`; allow a little slack */
	while ((rc = read_pid_files(dirfd, cfg->name, pid)) == -ENOENT &&
	       waited < paths->pid_wait_ms) {
		sleep_ms(POLL_MS * 5);
		waited += POLL_MS * 5;
	}
	close(dirfd);
	if (rc) {
		blockio_error_set(err, "no QEMU PID for domain '%s' in %s/%s.pid or .xml%s%s",
				  name, paths->qemu_rundir, name,
				  rc == -EINVAL ? " (malformed)" : ": ",
				  rc == -EINVAL ? "" : strerror(-rc));
		return -1;
	}
	if (!is_qemu_of(paths, *pid, cfg->uuid)) {
		blockio_error_set(err, "PID %d of domain '%s' is not a QEMU with -uuid %s",
				  (int)*pid, name, cfg->uuid);
		return -1;
	}
	return 0;
}

/* ---- one VM's cgroup ------------------------------------------------------ */

/* Open (and with @create, make) MOUNT/machine, locked; -1 with errno. */
static int open_parent(const char *mount, bool create, int *mountfd)
{
	unsigned waited = 0;
	int pfd;

	*mountfd = open(mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*mountfd < 0)
		return -1;
	if (create && mkdirat(*mountfd, "machine", 0755) && errno != EEXIST)
		goto fail;
	pfd = openat(*mountfd, "machine",
		     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		goto fail;
	while (flock(pfd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK || waited >= LOCK_WAIT_MS) {
			if (errno == EWOULDBLOCK)
				errno = ETIMEDOUT;
			close(pfd);
			goto fail;
		}
		sleep_ms(POLL_MS);
		waited += POLL_MS;
	}
	return pfd;
fail:
	{
		int e = errno;

		close(*mountfd);
		*mountfd = -1;
		errno = e;
	}
	return -1;
}

/*
 * Move every process of cgroup @cfd into cgroup @destfd, then remove the
 * cgroup @uuid (a child of @pfd).  Bounded: processes that keep coming or
 * a cgroup that stays busy make it fail.
 */
static int remove_cgroup(int pfd, int cfd, const char *uuid, int destfd,
			 struct blockio_error *err)
{
	static char procs[TEXT_MAX * 4];
	int rc;

	for (unsigned round = 0;; round++) {
		char *save = NULL;

		rc = read_at(cfd, "cgroup.procs", procs, sizeof(procs));
		if (rc) {
			blockio_error_set(err, "cannot read machine/%s/cgroup.procs: %s",
					  uuid, strerror(-rc));
			return -1;
		}
		for (char *line = strtok_r(procs, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char text[32];

			snprintf(text, sizeof(text), "%s\n", line);
			rc = write_at(destfd, "cgroup.procs", text);
			if (rc && rc != -ESRCH) {
				blockio_error_set(err, "cannot move process %s out of machine/%s: %s",
						  line, uuid, strerror(-rc));
				return -1;
			}
		}
		if (!unlinkat(pfd, uuid, AT_REMOVEDIR))
			return 0;
		if ((errno != EBUSY && errno != ENOTEMPTY) ||
		    round >= RMDIR_WAIT_MS / POLL_MS) {
			blockio_error_set(err, "cannot remove cgroup machine/%s: %s",
					  uuid, strerror(errno));
			return -1;
		}
		sleep_ms(POLL_MS);
	}
}

int blockio_detach(const char *mount, const char *uuid,
		   struct blockio_error *err)
{
	int mfd, pfd, cfd, ret;

	pfd = open_parent(mount, false, &mfd);
	if (pfd < 0) {
		if (errno == ENOENT)
			return 0;	/* never attached anything */
		blockio_error_set(err, "cannot open %s/machine: %s", mount,
				  strerror(errno));
		return -1;
	}
	cfd = openat(pfd, uuid, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cfd < 0) {
		ret = errno == ENOENT ? 0 : -1;
		if (ret)
			blockio_error_set(err, "cannot open cgroup machine/%s: %s",
					  uuid, strerror(errno));
	} else {
		ret = remove_cgroup(pfd, cfd, uuid, pfd, err);
		close(cfd);
	}
	close(pfd);
	close(mfd);
	return ret;
}

/* The rows of @kind's file in cgroup @cfd: their count, or -1. */
static int read_rows(int cfd, enum blockio_kind kind, struct blockio_row *rows,
		     struct blockio_error *err)
{
	char text[TEXT_MAX];
	int n, rc;

	rc = read_at(cfd, blockio_kind_file(kind), text, sizeof(text));
	n = rc ? -1 : blockio_parse_rows(text, rows, MAX_ROWS);
	if (n < 0)
		blockio_error_set(err, "cannot read %s: %s", blockio_kind_file(kind),
				  rc ? strerror(-rc) : "malformed rows");
	return n;
}

/* Write rule @line (without newline) to @kind's file in cgroup @cfd. */
static int write_rule(int cfd, enum blockio_kind kind, const char *line,
		      struct blockio_error *err)
{
	char text[PATH_MAX + 64];
	int rc;

	snprintf(text, sizeof(text), "%s\n", line);
	rc = write_at(cfd, blockio_kind_file(kind), text);
	if (rc)
		blockio_error_set(err, "cannot write '%s' to %s: %s", line,
				  blockio_kind_file(kind), strerror(-rc));
	return rc ? -1 : 0;
}

/*
 * Make @kind's rules in cgroup @cfd those of @cfg: delete the rules of
 * devices @cfg does not name ("DEV:0"), then write every rule of @cfg.
 */
static int write_rules(int cfd, const struct blockio_config *cfg,
		       enum blockio_kind kind, struct blockio_error *err)
{
	struct blockio_row rows[MAX_ROWS];
	char line[PATH_MAX + 32];
	int n = read_rows(cfd, kind, rows, err);

	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		dev_t dev = makedev(rows[i].major, rows[i].minor);
		bool keep = false;

		for (size_t j = 0; j < cfg->nrules && !keep; j++)
			keep = cfg->rules[j].kind == kind &&
			       cfg->targets[cfg->rules[j].target].dev == dev;
		if (keep)
			continue;
		if (blockio_devnode(&blockio_host_real, dev, line, sizeof(line) - 2, err))
			return -1;
		strcat(line, ":0");
		if (write_rule(cfd, kind, line, err))
			return -1;
	}
	for (size_t j = 0; j < cfg->nrules; j++) {
		if (cfg->rules[j].kind != kind)
			continue;
		if (blockio_rule_format(cfg, &cfg->rules[j], line, sizeof(line)))
			abort();
		if (write_rule(cfd, kind, line, err))
			return -1;
	}
	return 0;
}

static int verify_rules(int cfd, const struct blockio_config *cfg,
			enum blockio_kind kind, struct blockio_error *err)
{
	struct blockio_row rows[MAX_ROWS];
	int n = read_rows(cfd, kind, rows, err);

	return n < 0 ? -1 : blockio_rows_match(cfg, kind, rows, (size_t)n, err);
}

/*
 * Where thread @tid of @pid is: 0 in blockio cgroup @want, 1 elsewhere
 * (its path in @where), -1 gone.
 */
static int thread_place(const struct blockio_paths *paths, pid_t pid,
			const char *tid, const char *want, char *where,
			size_t wherelen)
{
	char path[PATH_MAX], text[TEXT_MAX];
	int rc;

	snprintf(path, sizeof(path), "%s/%d/task/%s/cgroup", paths->proc,
		 (int)pid, tid);
	rc = read_at(AT_FDCWD, path, text, sizeof(text));
	if (rc == -ENOENT || rc == -ESRCH)
		return -1;
	if (rc || blockio_parse_pid_cgroup(text, where, wherelen))
		snprintf(where, wherelen, "(no blockio line in %.200s)", path);
	return strcmp(where, want) ? 1 : 0;
}

/*
 * Is every thread of @pid in blockio cgroup @want?  A thread that is
 * exiting already shows the root (cgroup v1 detaches it early): one found
 * elsewhere is looked at again until it is gone or THREAD_SETTLE_MS pass.
 */
static int verify_threads(const struct blockio_paths *paths, pid_t pid,
			  const char *want, struct blockio_error *err)
{
	char path[PATH_MAX], where[PATH_MAX];
	struct dirent *d;
	unsigned seen = 0;
	int ret = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/%d/task", paths->proc, (int)pid);
	dir = opendir(path);
	if (!dir) {
		blockio_error_set(err, "cannot list %s: %s", path, strerror(errno));
		return -1;
	}
	while (!ret && (d = readdir(dir))) {
		unsigned waited = 0;
		int place;

		if (d->d_name[0] == '.')
			continue;
		place = thread_place(paths, pid, d->d_name, want, where, sizeof(where));
		while (place == 1 && waited < THREAD_SETTLE_MS) {
			sleep_ms(POLL_MS);
			waited += POLL_MS;
			place = thread_place(paths, pid, d->d_name, want, where,
					     sizeof(where));
		}
		if (place < 0)
			continue;	/* the thread ended */
		seen++;
		if (place > 0) {
			char esc[256];

			blockio_escape(where, esc, sizeof(esc));
			blockio_error_set(err, "thread %s of QEMU %d is in blockio cgroup '%s', not '%s'",
					  d->d_name, (int)pid, esc, want);
			ret = -1;
		}
	}
	closedir(dir);
	if (!ret && !seen) {
		blockio_error_set(err, "QEMU %d has no threads left", (int)pid);
		ret = -1;
	}
	return ret;
}

int blockio_attach(const struct blockio_paths *paths, const char *mount,
		   const struct blockio_config *cfg, pid_t pid,
		   struct blockio_error *err)
{
	char want[64], text[32];
	int mfd, pfd, cfd, rc;
	bool created;

	if (blockio_uuid_normalize(cfg->uuid, want) || strcmp(cfg->uuid, want)) {
		blockio_error_set(err, "internal error: unchecked UUID");
		return -1;
	}
	pfd = open_parent(mount, true, &mfd);
	if (pfd < 0) {
		blockio_error_set(err, "cannot create or lock %s/machine: %s",
				  mount, strerror(errno));
		return -1;
	}
	created = !mkdirat(pfd, cfg->uuid, 0755);
	if (!created && errno != EEXIST) {
		blockio_error_set(err, "cannot create cgroup %s/machine/%s: %s",
				  mount, cfg->uuid, strerror(errno));
		close(pfd);
		close(mfd);
		return -1;
	}
	cfd = openat(pfd, cfg->uuid,
		     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cfd < 0) {
		blockio_error_set(err, "cannot open cgroup %s/machine/%s: %s",
				  mount, cfg->uuid, strerror(errno));
		close(pfd);
		close(mfd);
		return -1;
	}

	/* rules first, so QEMU never runs in the cgroup without them */
	snprintf(want, sizeof(want), "/machine/%s", cfg->uuid);
	snprintf(text, sizeof(text), "%d\n", (int)pid);
	if (write_rules(cfd, cfg, BLOCKIO_BANDWIDTH, err) ||
	    write_rules(cfd, cfg, BLOCKIO_IOPS, err)) {
		rc = -1;
	} else if ((rc = write_at(cfd, "cgroup.procs", text))) {
		blockio_error_set(err, "cannot move QEMU %d into machine/%s: %s",
				  (int)pid, cfg->uuid, strerror(-rc));
	} else {
		rc = verify_threads(paths, pid, want, err) ||
		     verify_rules(cfd, cfg, BLOCKIO_BANDWIDTH, err) ||
		     verify_rules(cfd, cfg, BLOCKIO_IOPS, err);
	}
	if (rc && created) {
		/* undo: everything back to the root, then the cgroup goes */
		struct blockio_error ignored;

		remove_cgroup(pfd, cfd, cfg->uuid, mfd, &ignored);
	}
	close(cfd);
	close(pfd);
	close(mfd);
	return rc ? -1 : 0;
}

/* ---- reading, for blockioctl status ------------------------------------- */

static int cmp_uuid(const void *a, const void *b)
{
	return strcmp(a, b);
}

int blockio_list_cgroups(const char *mount, char (*uuids)[37], size_t max,
			 struct blockio_error *err)
{
	char path[PATH_MAX];
	struct dirent *d;
	size_t n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/machine", mount);
	dir = opendir(path);
	if (!dir) {
		if (errno == ENOENT)
			return 0;	/* no VM was ever capped */
		blockio_error_set(err, "cannot list %s: %s", path, strerror(errno));
		return -1;
	}
	while ((d = readdir(dir)) && n < max) {
		char uuid[37];

		/* only the names the hook creates */
		if (!blockio_uuid_normalize(d->d_name, uuid) &&
		    !strcmp(uuid, d->d_name))
			memcpy(uuids[n++], uuid, sizeof(uuid));
	}
	closedir(dir);
	qsort(uuids, n, sizeof(*uuids), cmp_uuid);
	return (int)n;
}

int blockio_read_cgroup_file(const char *mount, const char *uuid,
			     const char *file, char *buf, size_t size,
			     struct blockio_error *err)
{
	char path[PATH_MAX];
	int cfd, rc;

	snprintf(path, sizeof(path), "%s/machine", mount);
	cfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cfd >= 0) {
		int mfd = cfd;

		cfd = openat(mfd, uuid, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(mfd);
	}
	rc = cfd < 0 ? -errno : read_at(cfd, file, buf, size);
	if (cfd >= 0)
		close(cfd);
	if (rc) {
		buf[0] = '\0';
		blockio_error_set(err, "cannot read machine/%s/%s: %s", uuid,
				  file, strerror(-rc));
		return -1;
	}
	return 0;
}

static int cmp_running(const void *a, const void *b)
{
	const struct blockio_running *x = a, *y = b;

	return strcmp(x->name, y->name);
}

void blockio_running_free(struct blockio_running *doms, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(doms[i].name);
		free(doms[i].xml);
	}
	free(doms);
}

int blockio_running_domains(const struct blockio_paths *paths,
			    struct blockio_running **doms,
			    struct blockio_error *err)
{
	static char text[BLOCKIO_XML_MAX];
	struct dirent *d;
	size_t n = 0;
	int dirfd;
	DIR *dir;

	*doms = NULL;
	dirfd = open(paths->qemu_rundir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		if (errno == ENOENT)
			return 0;	/* libvirt runs no QEMU domain */
		blockio_error_set(err, "cannot open %s: %s", paths->qemu_rundir,
				  strerror(errno));
		return -1;
	}
	dir = fdopendir(dirfd);
	if (!dir)
		abort();
	while ((d = readdir(dir))) {
		size_t len = strlen(d->d_name);
		struct blockio_config cfg;
		struct blockio_error ignored;

		if (len < 5 || strcmp(d->d_name + len - 4, ".xml") ||
		    read_at(dirfd, d->d_name, text, sizeof(text)) ||
		    blockio_status_identity(text, strlen(text), &cfg, &ignored))
			continue;
		*doms = realloc(*doms, (n + 1) * sizeof(**doms));
		if (!*doms)
			abort();
		(*doms)[n].name = cfg.name;
		memcpy((*doms)[n].uuid, cfg.uuid, sizeof(cfg.uuid));
		(*doms)[n].libvirt_limited =
			blockio_status_libvirt_limited(text, strlen(text));
		if (blockio_status_pid(text, strlen(text), &(*doms)[n].pid))
			(*doms)[n].pid = 0;
		if (blockio_status_domain(text, strlen(text), &(*doms)[n].xml,
					  &(*doms)[n].xml_len))
			(*doms)[n].xml = NULL;
		cfg.name = NULL;
		blockio_config_free(&cfg);
		n++;
	}
	closedir(dir);
	if (n)
		qsort(*doms, n, sizeof(**doms), cmp_running);
	return (int)n;
}
