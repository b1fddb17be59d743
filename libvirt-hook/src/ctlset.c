// SPDX-License-Identifier: GPL-2.0
/*
 * ctlset.c - blockioctl set: change a domain's caps through virsh, after
 * the hook's own code has judged them.
 *
 *   blockioctl set [-c URI] DOMAIN DISK:KEY=VALUE[,KEY=VALUE...] ...
 *   blockioctl set [-c URI] DOMAIN none
 *
 * 1. virsh dominfo: running (the change is also --live) and persistent
 *    (also --config); a domain that is neither is refused by virsh.
 * 2. virsh dumpxml: the domain as it is (live when running), with the new
 *    <blockio:limits> put in its <metadata> (setspec.c).
 * 3. That XML through blockio_config_parse_host() and blockio_check_host(),
 *    what the hook runs at prepare: a cap the hook would refuse (unknown
 *    unit, a disk the domain lacks, two caps on one host disk, no
 *    hierarchy) is refused here, with the hook's message, before anything
 *    is written.  So a live change is validated at once, not found later
 *    in blockio-metad's log.
 * 4. virsh metadata --uri NS --key blockio --set BODY (or --remove) with
 *    --live and/or --config.  blockio-metad applies the live change.
 * 5. For a running domain, wait (10 s, --timeout) until the kernel holds
 *    what step 3 made of the XML: machine/UUID's rules read back as the
 *    hook checks them (blockio_rows_match()), or no machine/UUID when
 *    there are no caps left.  If it does not in time: exit 3, with the
 *    last difference and what blockio-metad last noted
 *    (/run/blockio-metad.state: running or not, and what it did).
 *
 * virsh runs without a shell, its arguments one by one.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "blockio.h"
#include "apply.h"
#include "names.h"
#include "config.h"
#include "cgroup.h"
#include "hookops.h"
#include "procfs.h"
#include "setspec.h"
#include "ctl.h"
#include "util.h"

#define OUT_MAX BLOCKIO_XML_MAX	/* what virsh prints that is read */
#define BODY_MAX 16384

/*
 * Run virsh with @args (NULL-terminated, after "virsh -q -c URI"); its
 * stdout in *@out (malloc'ed, may be NULL), and its first stderr line in
 * @why on failure.  The exit status, or -1.
 */
static int run_virsh(const struct blockio_ctl_env *env, const char *uri,
		     const char *const *args, char **out, char *why,
		     size_t whylen)
{
	const char *argv[32];
	int ofd, efd, status, n = 0;
	char *buf, *err;
	size_t len, elen;
	pid_t pid;

	argv[n++] = env->virsh;
	argv[n++] = "-q";
	argv[n++] = "-c";
	argv[n++] = uri;
	for (int i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	pid = blockio_spawn(argv, &ofd, &efd);
	blockio_read_all(ofd, OUT_MAX, -1, &buf, &len);
	blockio_read_all(efd, 1023, -1, &err, &elen);
	close(ofd);
	close(efd);
	status = blockio_wait(pid);
	if (status) {
		char *nl;

		/* "error: failed to get domain 'x'": the first non-empty line */
		nl = err + strspn(err, "\n");
		nl[strcspn(nl, "\n")] = '\0';
		blockio_plain(*nl ? nl : "no message", why, whylen);
	}
	free(err);
	if (out)
		*out = buf;
	else
		free(buf);
	return status;
}

/* "State: running" / "Persistent: yes" of virsh dominfo's text. */
static bool dominfo_says(const char *text, const char *key, const char *value)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		size_t k = strlen(key);
		const char *v;

		if (strncmp(l, key, k) || l[k] != ':')
			continue;
		v = l + k + 1;
		v += strspn(v, " \t");
		return !strncmp(v, value, strlen(value)) &&
		       (v[strlen(value)] == '\n' || !v[strlen(value)]);
	}
	return false;
}

/*
 * Does the kernel hold @cfg for its domain: exactly its rules in
 * machine/UUID, or no machine/UUID when it has none?  0, or -1 and @why.
 */
static int kernel_holds(const struct blockio_ctl_env *env,
			const struct blockio_config *cfg, char *why,
			size_t whylen)
{
	static char text[65536];
	static struct blockio_row rows[256];
	struct blockio_error err = { "" };
	char mount[4096], dir[8192];
	struct stat st;

	if (blockio_find_mount(env->paths, mount, sizeof(mount), &err)) {
		if (!cfg->nrules)
			return 0;	/* no hierarchy: no cgroup either */
		snprintf(why, whylen, "%s", err.msg);
		return -1;
	}
	if (!cfg->nrules) {
		snprintf(dir, sizeof(dir), "%s/machine/%s", mount, cfg->uuid);
		if (stat(dir, &st) && errno == ENOENT)
			return 0;
		snprintf(why, whylen, "machine/%s is still there", cfg->uuid);
		return -1;
	}
	for (int k = 0; k < 2; k++) {
		enum blockio_kind kind = k ? BLOCKIO_IOPS : BLOCKIO_BANDWIDTH;
		int n;

		if (blockio_read_cgroup_file(mount, cfg->uuid,
					     blockio_kind_file(kind), text,
					     sizeof(text), &err)) {
			snprintf(why, whylen, "%s", err.msg);
			return -1;
		}
		n = blockio_parse_rows(text, rows, sizeof(rows) / sizeof(rows[0]));
		if (n < 0) {
			snprintf(why, whylen, "machine/%s/%s is malformed",
				 cfg->uuid, blockio_kind_file(kind));
			return -1;
		}
		if (blockio_rows_match(cfg, kind, rows, (size_t)n, &err)) {
			snprintf(why, whylen, "%s", err.msg);
			return -1;
		}
	}
	return 0;
}

/* What blockio-metad last noted (metad_note()), as a clause for a message. */
static void metad_word(const struct blockio_paths *paths, char *out,
		       size_t len)
{
	char line[1200], when[64];
	long long t = 0;
	int pid = 0, off = 0;
	struct tm tm;
	time_t tt;
	FILE *f;

	if (!paths->metad_state) {
		snprintf(out, len, "what blockio-metad does is not known here");
		return;
	}
	f = fopen(paths->metad_state, "r");
	if (!f) {
		snprintf(out, len, "blockio-metad has left no word in %s: is it running? (systemctl status blockio-metad)",
			 paths->metad_state);
		return;
	}
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, "%d %lld %n", &pid, &t, &off) != 2 || pid <= 0) {
		fclose(f);
		snprintf(out, len, "blockio-metad's %s cannot be read",
			 paths->metad_state);
		return;
	}
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	tt = (time_t)t;
	if (!gmtime_r(&tt, &tm) ||
	    !strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(when, sizeof(when), "%lld", t);
	if (kill(pid, 0) && errno == ESRCH)
		snprintf(out, len, "blockio-metad (pid %d) is not running (systemctl status blockio-metad); its last word, at %s: %s",
			 pid, when, line + off);
	else
		snprintf(out, len, "blockio-metad (pid %d) last said, at %s: %s",
			 pid, when, line + off);
}

static double monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Step 5: 0 once the kernel holds @cfg, 3 after @wait_ms without. */
static int wait_kernel(const struct blockio_ctl_env *env,
		       const struct blockio_config *cfg, const char *dom,
		       int wait_ms)
{
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	double end = monotonic() + wait_ms / 1000.0;
	char why[1100], metad[1500];

	for (;;) {
		if (!kernel_holds(env, cfg, why, sizeof(why))) {
			if (cfg->nrules)
				printf("%s: the kernel holds it: machine/%s has the new rules\n",
				       dom, cfg->uuid);
			else
				printf("%s: the kernel holds it: machine/%s is gone, not capped\n",
				       dom, cfg->uuid);
			return 0;
		}
		if (monotonic() >= end)
			break;
		nanosleep(&tick, NULL);
	}
	metad_word(env->paths, metad, sizeof(metad));
	fprintf(stderr, "blockioctl: set '%s': written, but after %.1f s the kernel does not hold it: %s; %s\n",
		dom, wait_ms / 1000.0, why, metad);
	return 3;
}

int blockio_ctl_set(const struct blockio_ctl_env *env, const char *uri,
		    const char *domain, int n, char *const *specs,
		    int wait_ms)
{
	struct blockio_error err = { "" };
	struct blockio_domain_io io;
	struct blockio_config cfg;
	char body[BODY_MAX], why[1024], what[2048], dom[256];
	const char *args[16];
	char *info = NULL, *xml = NULL, *cand = NULL;
	bool running, persistent, clear, parsed = false;
	size_t clen;
	int a = 0, ret = 1;

	blockio_escape(domain, dom, sizeof(dom));
	clear = n == 1 && !strcmp(specs[0], "none");
	if (!clear && blockio_set_body(n, specs, body, sizeof(body), &err)) {
		fprintf(stderr, "blockioctl: set: %s\n", err.msg);
		return 2;
	}
	if (!env->virsh) {
		fprintf(stderr, "blockioctl: set needs virsh (libvirt-clients), which is not installed\n");
		return 1;
	}
	if (run_virsh(env, uri, (const char *[]){ "dominfo", domain, NULL },
		      &info, why, sizeof(why))) {
		fprintf(stderr, "blockioctl: set '%s': virsh dominfo: %s\n", dom, why);
		goto out;
	}
	running = dominfo_says(info, "State", "running") ||
		  dominfo_says(info, "State", "paused");
	persistent = dominfo_says(info, "Persistent", "yes");
	if (run_virsh(env, uri, (const char *[]){ "dumpxml", domain, NULL },
		      &xml, why, sizeof(why))) {
		fprintf(stderr, "blockioctl: set '%s': virsh dumpxml: %s\n", dom, why);
		goto out;
	}
	/* judged as the hook's prepare judges it, before anything is written */
	if (blockio_domain_with_limits(xml, strlen(xml), clear ? NULL : body,
				       &cand, &clen, &err) ||
	    blockio_config_parse_host(env->paths, cand, clen, &cfg, &err)) {
		fprintf(stderr, "blockioctl: set '%s': refused, nothing changed: %s\n",
			dom, err.msg);
		goto out;
	}
	if (blockio_domain_io_parse(cand, clen, &io, &err) ||
	    blockio_check_host(env->paths, env->host, &cfg, &io, &err)) {
		fprintf(stderr, "blockioctl: set '%s': refused, nothing changed: %s\n",
			dom, err.msg);
		blockio_domain_io_free(&io);
		blockio_config_free(&cfg);
		goto out;
	}
	blockio_domain_io_free(&io);
	blockio_config_describe(&cfg, what, sizeof(what));
	parsed = true;

	args[a++] = "metadata";
	args[a++] = domain;
	args[a++] = "--uri";
	args[a++] = BLOCKIO_NS_URI;
	if (clear) {
		args[a++] = "--remove";
	} else {
		args[a++] = "--key";
		args[a++] = BLOCKIO_NS_PREFIX;
		args[a++] = "--set";
		args[a++] = body;
	}
	if (running)
		args[a++] = "--live";
	if (persistent)
		args[a++] = "--config";
	args[a] = NULL;
	if (run_virsh(env, uri, args, NULL, why, sizeof(why))) {
		fprintf(stderr, "blockioctl: set '%s': virsh metadata: %s\n", dom, why);
		goto out;
	}
	printf("%s: %s (%s%s%s)\n", dom, clear ? "<blockio:limits> removed" : body,
	       running ? "live" : "", running && persistent ? " and " : "",
	       persistent ? "config" : "");
	printf("%s: %s\n", dom, what);
	ret = 0;
	if (running && wait_ms > 0) {
		fflush(stdout);
		ret = wait_kernel(env, &cfg, dom, wait_ms);
	} else if (running) {
		printf("%s: blockio-metad applies it to the running VM within a second; 'blockioctl status %s' shows the kernel's rules\n",
		       dom, dom);
	}
out:
	if (parsed)
		blockio_config_free(&cfg);
	free(info);
	free(xml);
	free(cand);
	return ret;
}
