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
 *
 * virsh runs without a shell, its arguments one by one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockio.h"
#include "names.h"
#include "config.h"
#include "cgroup.h"
#include "hookops.h"
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

int blockio_ctl_set(const struct blockio_ctl_env *env, const char *uri,
		    const char *domain, int n, char *const *specs)
{
	struct blockio_error err = { "" };
	struct blockio_domain_io io;
	struct blockio_config cfg;
	char body[BODY_MAX], why[1024], what[2048], dom[256];
	const char *args[16];
	char *info = NULL, *xml = NULL, *cand = NULL;
	bool running, persistent, clear;
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
	blockio_config_free(&cfg);

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
	if (running)
		printf("%s: blockio-metad applies it to the running VM within a second; 'blockioctl status %s' shows the kernel's rules\n",
		       dom, dom);
	ret = 0;
out:
	free(info);
	free(xml);
	free(cand);
	return ret;
}
