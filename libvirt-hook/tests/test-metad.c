// SPDX-License-Identifier: GPL-2.0
/*
 * test-metad.c - blockio-metad's event wiring, driven by libvirt's test
 * driver (test:///default, in-process, one running domain "test"):
 * reconcile at connect, a live metadata change in our namespace applies
 * the domain's live XML within a second, other namespaces do not, a stop
 * releases the UUID; the hierarchy mounted again asks for a reconcile.
 * struct metad_ops records instead of touching
 * cgroupfs; the recorded XML must parse to the rules that were set.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fakefs.h"
#include "metad.h"
#include "procfs.h"

struct record {
	unsigned applies, releases;
	char xml[65536];
	char uuid[64];
};

static int rec_apply(void *priv, const char *xml, size_t len, struct blockio_error *err)
{
	struct record *r = priv;

	(void)err;
	r->applies++;
	snprintf(r->xml, sizeof(r->xml), "%.*s", (int)len, xml);
	return 0;
}

static int rec_release(void *priv, const char *uuid, struct blockio_error *err)
{
	struct record *r = priv;

	(void)err;
	r->releases++;
	snprintf(r->uuid, sizeof(r->uuid), "%s", uuid);
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void tick(int timer, void *opaque)
{
	(void)timer;
	(void)opaque;
}

/* Run the event loop until *@counter exceeds @before or @secs pass. */
static double wait_for(const unsigned *counter, unsigned before, double secs)
{
	double t0 = now();

	while (*counter == before && now() - t0 < secs)
		virEventRunDefaultImpl();
	return now() - t0;
}

/* The rules the recorded XML holds, as "iops /dev/sdb:5:0". */
static const char *recorded_rules(const struct record *r)
{
	static char text[2048];
	struct blockio_config cfg;
	struct blockio_error err = { "" };

	if (blockio_config_parse(r->xml, strlen(r->xml), &cfg, &err) ||
	    blockio_config_resolve(&cfg, &fake_host, &err)) {
		snprintf(text, sizeof(text), "error: %s", err.msg);
		return text;
	}
	text[0] = '\0';
	for (size_t i = 0; i < cfg.nrules; i++) {
		char line[128];

		blockio_rule_format(&cfg, &cfg.rules[i], line, sizeof(line));
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s %s",
			 i ? "|" : "", cfg.rules[i].kind == BLOCKIO_IOPS ? "iops" : "bandwidth", line);
	}
	blockio_config_free(&cfg);
	return text;
}

static void quiet(void *data, virErrorPtr e)
{
	(void)data;
	(void)e;
}

int main(void)
{
	static struct record rec;
	const struct metad_ops ops = { rec_apply, rec_release, &rec };
	struct metad m = { .ops = &ops };
	char uuid[VIR_UUID_STRING_BUFLEN];
	virDomainPtr dom;
	unsigned before;
	double took;

	virSetErrorFunc(NULL, quiet);
	if (virInitialize() < 0 || virEventRegisterDefaultImpl() < 0 ||
	    virEventAddTimeout(50, tick, NULL, NULL) < 0) {
		fprintf(stderr, "cannot set up libvirt's event loop\n");
		return 1;
	}
	CHECK(metad_connect(&m, "test:///default") == 0);
	if (!m.conn)
		return check_done("test-metad");
	dom = virDomainLookupByName(m.conn, "test");
	CHECK(dom != NULL);
	if (!dom)
		return check_done("test-metad");
	virDomainGetUUIDString(dom, uuid);

	/* reconcile: every running domain once, without metadata: no rules */
	CHECK(metad_reconcile(&m) == 0);
	CHECK(rec.applies == 1);
	CHECK_STR(recorded_rules(&rec), "");

	/* virsh metadata --live in our namespace: applied from the live XML */
	before = rec.applies;
	CHECK(virDomainSetMetadata(dom, VIR_DOMAIN_METADATA_ELEMENT,
				   "<limits><device path='/dev/sdb' iops='5'/>"
				   "<device path='/dev/vdb' bandwidth='2MiB/s' strategy='token' bucket='8M'/></limits>",
				   "blockio", BLOCKIO_NS_URI, VIR_DOMAIN_AFFECT_LIVE) == 0);
	took = wait_for(&rec.applies, before, 2.0);
	CHECKF(rec.applies == before + 1 && took < 1.0, "applies %u, %.3f s", rec.applies, took);
	CHECK_STR(recorded_rules(&rec), "iops /dev/sdb:5:0|bandwidth /dev/vdb:2097152:1:8388608");

	/* a second change replaces the first */
	before = rec.applies;
	CHECK(virDomainSetMetadata(dom, VIR_DOMAIN_METADATA_ELEMENT,
				   "<limits><device path='/dev/sdb' iops='7'/></limits>",
				   "blockio", BLOCKIO_NS_URI, VIR_DOMAIN_AFFECT_LIVE) == 0);
	wait_for(&rec.applies, before, 2.0);
	CHECK_STR(recorded_rules(&rec), "iops /dev/sdb:7:0");

	/* another namespace, or the title: nothing to apply */
	before = rec.applies;
	CHECK(virDomainSetMetadata(dom, VIR_DOMAIN_METADATA_ELEMENT, "<x/>", "other",
				   "https://example.org/other/1", VIR_DOMAIN_AFFECT_LIVE) == 0);
	CHECK(virDomainSetMetadata(dom, VIR_DOMAIN_METADATA_TITLE, "t", NULL, NULL,
				   VIR_DOMAIN_AFFECT_LIVE) == 0);
	wait_for(&rec.applies, before, 0.5);
	CHECK(rec.applies == before);

	/* removing our metadata applies too: the XML then has no caps */
	before = rec.applies;
	CHECK(virDomainSetMetadata(dom, VIR_DOMAIN_METADATA_ELEMENT, NULL, NULL,
				   BLOCKIO_NS_URI, VIR_DOMAIN_AFFECT_LIVE) == 0);
	wait_for(&rec.applies, before, 2.0);
	CHECK(rec.applies == before + 1);
	CHECK_STR(recorded_rules(&rec), "");

	/* a stop releases the domain's cgroup by UUID; a start applies */
	before = rec.releases;
	CHECK(virDomainDestroy(dom) == 0);
	wait_for(&rec.releases, before, 2.0);
	CHECK(rec.releases == before + 1);
	CHECK_STR(rec.uuid, uuid);
	before = rec.applies;
	CHECK(virDomainCreate(dom) == 0);
	wait_for(&rec.applies, before, 2.0);
	CHECK(rec.applies == before + 1);

	/* a change to a stopped domain's config applies nothing */
	CHECK(virDomainDestroy(dom) == 0);
	wait_for(&rec.releases, rec.releases, 0.2);
	before = rec.applies;
	CHECK(virDomainSetMetadata(dom, VIR_DOMAIN_METADATA_ELEMENT,
				   "<limits><device path='/dev/sdb' iops='9'/></limits>",
				   "blockio", BLOCKIO_NS_URI, VIR_DOMAIN_AFFECT_CONFIG) == 0);
	wait_for(&rec.applies, before, 0.5);
	CHECK(rec.applies == before);

	/*
	 * A disk hot-plugged or unplugged applies the running domain again
	 * (device-added, device-removed), when the driver can do it.
	 */
	CHECK(virDomainCreate(dom) == 0);
	wait_for(&rec.applies, rec.applies, 0.5);
	before = rec.applies;
	if (virDomainAttachDevice(dom, "<disk type='file' device='disk'>"
				  "<source file='/var/lib/libvirt/images/hot.img'/>"
				  "<target dev='vdz' bus='virtio'/></disk>") == 0) {
		took = wait_for(&rec.applies, before, 2.0);
		CHECKF(rec.applies == before + 1 && took < 1.0,
		       "device-added: applies %u, %.3f s", rec.applies, took);
		before = rec.applies;
		if (virDomainDetachDevice(dom, "<disk type='file' device='disk'>"
					  "<source file='/var/lib/libvirt/images/hot.img'/>"
					  "<target dev='vdz' bus='virtio'/></disk>") == 0) {
			took = wait_for(&rec.applies, before, 2.0);
			CHECKF(rec.applies == before + 1 && took < 1.0,
			       "device-removed: applies %u, %.3f s", rec.applies, took);
		} else {
			printf("test-metad: the test driver cannot detach a disk (%s): device-removed not driven\n",
			       virGetLastErrorMessage());
		}
	} else {
		/* libvirt's test driver cannot hot-plug: the handler alone */
		printf("test-metad: the test driver cannot attach a disk (%s): device events called directly\n",
		       virGetLastErrorMessage());
		metad_device_event(m.conn, dom, "virtio-disk25", &m);
		CHECK(rec.applies == before + 1);
	}
	CHECK(m.cb_dev_added >= 0 && m.cb_dev_removed >= 0);

	virDomainFree(dom);
	metad_disconnect(&m);
	metad_disconnect(&m);	/* twice is fine */

	/*
	 * The hierarchy watch: the first look only records; unmounted, then
	 * mounted again (or elsewhere) means apply everything once more.
	 */
	{
		struct metad w = { .ops = &ops };

		CHECK(!metad_mount_changed(&w, "/run/blockio"));
		CHECK(!metad_mount_changed(&w, "/run/blockio"));
		CHECK(!metad_mount_changed(&w, NULL));	/* unmounted */
		CHECK(!metad_mount_changed(&w, NULL));
		CHECK(metad_mount_changed(&w, "/run/blockio"));	/* back */
		CHECK(!metad_mount_changed(&w, "/run/blockio"));
		CHECK(metad_mount_changed(&w, "/sys/fs/cgroup/blockio"));	/* moved */
	}
	{
		struct metad w = { .ops = &ops };

		CHECK(!metad_mount_changed(&w, NULL));	/* none at start */
		CHECK(metad_mount_changed(&w, "/run/blockio"));
	}

	/*
	 * Tunable events: blkdeviotune fields ask for an apply (the test
	 * driver emits none, so the filter is tested alone).
	 */
	{
		virTypedParameter p[2];

		memset(p, 0, sizeof(p));
		snprintf(p[0].field, sizeof(p[0].field), "cputune.vcpupin0");
		snprintf(p[1].field, sizeof(p[1].field), "%s", VIR_DOMAIN_TUNABLE_BLKDEV_WRITE_BYTES_SEC);
		CHECK(!metad_tunable_matters(p, 1));
		CHECK(metad_tunable_matters(p, 2));
		CHECK(!metad_tunable_matters(p, 0));
	}

	/*
	 * A failed connect is said at once, then after 10 s, 20 s, 40 s...
	 * at most every 600 s, with the count left unsaid; a success resets.
	 */
	{
		struct metad_ratelimit r = { 0 };
		unsigned sup = 99, said = 0;

		CHECK(metad_ratelimit_ok(&r, 100.0, &sup) && sup == 0);
		for (double t = 101; t < 110; t++)
			CHECK(!metad_ratelimit_ok(&r, t, &sup));
		CHECK(metad_ratelimit_ok(&r, 110.0, &sup) && sup == 9);
		CHECK(!metad_ratelimit_ok(&r, 129.0, &sup));
		CHECK(metad_ratelimit_ok(&r, 130.0, &sup) && sup == 1);
		/* a day of one failure a second: a few dozen lines */
		for (double t = 131; t < 131 + 86400; t++)
			said += metad_ratelimit_ok(&r, t, &sup);
		CHECKF(said >= 140 && said <= 150, "said %u times in a day", said);
		CHECK(r.interval == METAD_RATELIMIT_MAX);
		metad_ratelimit_reset(&r);
		CHECK(metad_ratelimit_ok(&r, 200000.0, &sup) && sup == 0);
		/* a refused connect goes through it: the URI cannot be opened */
		{
			struct metad f = { .ops = &ops };

			CHECK(metad_connect(&f, "bogus:///nowhere") < 0);
			CHECK(f.connect_rl.interval == METAD_RATELIMIT_FIRST);
			CHECK(metad_connect(&f, "bogus:///nowhere") < 0);
			CHECK(f.connect_rl.suppressed == 1);
		}
	}

	/* hook.conf edited, created, removed: apply everything again */
	{
		struct metad_file f = { 0 };
		struct stat st = { 0 };

		st.st_ino = 7;
		st.st_size = 100;
		st.st_mtim.tv_sec = 1000;
		CHECK(!metad_file_changed(&f, &st));	/* first look */
		CHECK(!metad_file_changed(&f, &st));
		st.st_mtim.tv_nsec = 5;
		CHECK(metad_file_changed(&f, &st));	/* edited in place */
		st.st_ino = 8;
		CHECK(metad_file_changed(&f, &st));	/* replaced (sed -i) */
		CHECK(metad_file_changed(&f, NULL));	/* removed */
		CHECK(!metad_file_changed(&f, NULL));
		CHECK(metad_file_changed(&f, &st));	/* back */
	}

	/* the note blockioctl set reads: "PID EPOCH TEXT", one line */
	{
		char path[] = "/tmp/test-metad-state-XXXXXX", line[512];
		struct metad n = { .ops = &ops };
		int fd = mkstemp(path);
		long long when = 0;
		int pid = 0, off = 0;
		FILE *f;

		CHECK(fd >= 0);
		close(fd);
		n.state_path = path;
		metad_note(&n, "applied domain '%s'\nnext line", "vm1");
		f = fopen(path, "r");
		CHECK(f && fgets(line, sizeof(line), f));
		if (f)
			fclose(f);
		CHECK(sscanf(line, "%d %lld %n", &pid, &when, &off) == 2);
		CHECK(pid == (int)getpid() && when > 1700000000LL);
		CHECK_STR(line + off, "applied domain 'vm1' next line\n");
		unlink(path);
	}
	return check_done("test-metad");
}
