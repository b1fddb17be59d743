// SPDX-License-Identifier: GPL-2.0
/*
 * ctl-status.c - blockioctl status: what the kernel holds for running VMs.
 *
 * status only reads: MOUNT/machine/UUID (cgroup.c) for each VM the hook
 * capped, the domain's name from libvirt's status XMLs, and the device
 * names from /sys/dev/block through struct blockio_host.
 *
 * Each running domain gets a verdict, for an admin and a monitoring check:
 * its <domain> in libvirt's status XML is what it was meant to get, read
 * by the hook's own parser with this host's hook.conf and resolved on this
 * host, and that is held against what the kernel holds for it
 * (blockio_rows_match(), as the hook checks after writing, and QEMU's PID
 * in cgroup.procs):
 *
 *   capped as meant              the kernel holds exactly its caps
 *   NOT CAPPED AS MEANT          it has caps the kernel does not hold as
 *                                written (no cgroup, other rules, QEMU
 *                                outside it, no hierarchy, a host disk not
 *                                found, caps that do not parse), or a
 *                                cgroup holds caps it no longer asks for
 *   not capped, by design        no caps in its XML, and none held
 *   limited by libvirt's limits  libvirt-limits = yes and
 *     only                       libvirt-limits-uncapped = start: blockio
 *                                could not cap it, QEMU's <iotune> does
 *
 * The exit status is STATUS_DRIFT (3) when any domain shown is not capped
 * as meant, else STATUS_LIBVIRT_ONLY (4) when any is limited by libvirt's
 * limits only, else 0; 1 when status cannot tell (libvirt's run directory
 * or the hierarchy unreadable, DOMAIN not found).  A cgroup of no running
 * domain (left over) is shown and changes nothing.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "apply.h"
#include "ctl-int.h"

#define STATUS_DRIFT		3
#define STATUS_LIBVIRT_ONLY	4

#define MAX_CGROUPS	4096
#define MAX_ROWS	256
#define ROWS_TEXT	65536

struct device {
	unsigned major, minor;
	char node[256];			/* "" if unknown */
	const struct blockio_row *bw, *iops;
	const struct blockio_stat_row *stat;
	const struct blockio_throttle_row *thr;
};

struct vm {
	char uuid[37];
	const char *name;		/* NULL: no running domain has it */
	int procs;			/* -1: unknown */
	struct blockio_row bw[MAX_ROWS], iops[MAX_ROWS];
	struct blockio_stat_row stat[MAX_ROWS];
	struct blockio_throttle_row thr[MAX_ROWS];
	size_t nbw, niops;		/* rows read back */
	bool has_pid;			/* cgroup.procs lists @pid */
	struct device dev[4 * MAX_ROWS];
	size_t ndev;
	char errors[4][sizeof(((struct blockio_error *)0)->msg)];
	size_t nerrors;
};

static struct device *device_of(struct vm *vm, unsigned maj, unsigned min)
{
	struct device *d;

	for (size_t i = 0; i < vm->ndev; i++)
		if (vm->dev[i].major == maj && vm->dev[i].minor == min)
			return &vm->dev[i];
	d = &vm->dev[vm->ndev++];
	memset(d, 0, sizeof(*d));
	d->major = maj;
	d->minor = min;
	return d;
}

/* Read @file of the VM's cgroup; on failure note it and return NULL. */
static const char *read_file(const char *mount, struct vm *vm,
			     const char *file, char *buf)
{
	struct blockio_error err;

	if (!blockio_read_cgroup_file(mount, vm->uuid, file, buf, ROWS_TEXT, &err))
		return buf;
	if (vm->nerrors < 4)
		snprintf(vm->errors[vm->nerrors++], sizeof(vm->errors[0]), "%s",
			 err.msg);
	return NULL;
}

static void malformed(struct vm *vm, const char *file)
{
	char uuid[37];

	memcpy(uuid, vm->uuid, sizeof(uuid));
	if (vm->nerrors < 4)
		snprintf(vm->errors[vm->nerrors++], sizeof(vm->errors[0]),
			 "malformed machine/%s/%s", uuid, file);
}

static void read_vm(const struct blockio_ctl_env *env, const char *mount,
		    struct vm *vm, pid_t pid)
{
	static char text[ROWS_TEXT];
	const char *t;
	int n;

	if ((t = read_file(mount, vm, "blockio.stat", text))) {
		n = blockio_parse_stat(t, vm->stat, MAX_ROWS);
		if (n < 0)
			malformed(vm, "blockio.stat");
		for (int i = 0; i < n; i++)
			device_of(vm, vm->stat[i].major, vm->stat[i].minor)->stat = &vm->stat[i];
	}
	for (int k = 0; k < 2; k++) {
		struct blockio_row *rows = k ? vm->iops : vm->bw;
		const char *file = blockio_kind_file(k ? BLOCKIO_IOPS : BLOCKIO_BANDWIDTH);

		if (!(t = read_file(mount, vm, file, text)))
			continue;
		n = blockio_parse_rows(t, rows, MAX_ROWS);
		if (n < 0)
			malformed(vm, file);
		else if (k)
			vm->niops = (size_t)n;
		else
			vm->nbw = (size_t)n;
		for (int i = 0; i < n; i++) {
			struct device *d = device_of(vm, rows[i].major, rows[i].minor);

			if (k)
				d->iops = &rows[i];
			else
				d->bw = &rows[i];
		}
	}
	if ((t = read_file(mount, vm, "blockio.throttlecnt", text))) {
		n = blockio_parse_throttlecnt(t, vm->thr, MAX_ROWS);
		if (n < 0)
			malformed(vm, "blockio.throttlecnt");
		for (int i = 0; i < n; i++)
			device_of(vm, vm->thr[i].major, vm->thr[i].minor)->thr = &vm->thr[i];
	}
	vm->procs = -1;
	if ((t = read_file(mount, vm, "cgroup.procs", text))) {
		vm->procs = 0;
		for (const char *l = t; *l; l = strchr(l, '\n'), l = l ? l + 1 : "") {
			if (pid > 0 && strtol(l, NULL, 10) == (long)pid)
				vm->has_pid = true;
		}
		for (; *t; t++)
			vm->procs += *t == '\n';
	}
	for (size_t i = 0; i < vm->ndev; i++) {
		struct device *d = &vm->dev[i];
		struct blockio_error err;

		if (blockio_devnode(env->host, makedev(d->major, d->minor),
				    d->node, sizeof(d->node), &err))
			d->node[0] = '\0';
	}
}

/* "8 MiB/s leaky", "500/s token bucket 1000" from a rule row. */
static void row_text(const struct blockio_row *r, bool iops, char *out,
		     size_t len)
{
	char limit[64], bucket[64];

	if (!iops) {
		ctl_human_cap(r->limit, BLOCKIO_Q_BANDWIDTH, limit, sizeof(limit));
		ctl_human_cap(r->bucket, BLOCKIO_Q_BYTES, bucket, sizeof(bucket));
	} else if (r->limit % BLOCKIO_IOPS_SCALE || r->bucket % BLOCKIO_IOPS_SCALE) {
		snprintf(limit, sizeof(limit), "%.3f/s",
			 (double)r->limit / BLOCKIO_IOPS_SCALE);
		snprintf(bucket, sizeof(bucket), "%.3f",
			 (double)r->bucket / BLOCKIO_IOPS_SCALE);
	} else {
		ctl_human_cap(r->limit / BLOCKIO_IOPS_SCALE, BLOCKIO_Q_IOPS, limit,
			  sizeof(limit));
		ctl_human_cap(r->bucket / BLOCKIO_IOPS_SCALE, BLOCKIO_Q_OPS, bucket,
			  sizeof(bucket));
	}
	snprintf(out, len, "%s %s%s%s", iops ? "iops" : "bandwidth", limit,
		 r->strategy ? " token bucket " : " leaky",
		 r->strategy ? bucket : "");
}

static double ticks_s(uint64_t ticks)
{
	long hz = sysconf(_SC_CLK_TCK);

	return (double)ticks / (double)(hz > 0 ? hz : 100);
}

enum state {
	ST_CAPPED,
	ST_DRIFT,
	ST_UNCAPPED,
	ST_LIBVIRT_ONLY,
	ST_LEFTOVER,
	ST_COUNT,
};

static const char *const state_text[ST_COUNT] = {
	"capped as meant", "NOT CAPPED AS MEANT", "not capped, by design",
	"limited by libvirt's limits only", "left over",
};

static const char *const state_json[ST_COUNT] = {
	"capped", "not-as-meant", "uncapped", "libvirt-limits-only",
	"left-over",
};

struct verdict {
	enum state state;
	char why[2048];
};

static void say_why(struct verdict *v, enum state state, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say_why(struct verdict *v, enum state state, const char *fmt, ...)
{
	va_list ap;

	v->state = state;
	va_start(ap, fmt);
	vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
}

/*
 * What running domain @d was meant to get against what the kernel holds:
 * @vm is its cgroup as read (NULL: none), @mount_err why there is no
 * hierarchy to look in (NULL: there is).
 */
static void judge(const struct blockio_ctl_env *env, const char *mount_err,
		  const struct blockio_running *d, const struct vm *vm,
		  struct verdict *v)
{
	static const char hint[] = "blockio-metad --apply %s applies its caps; journalctl -t blockio-hook -t blockio-metad says why they are not";
	struct blockio_error err = { "" };
	struct blockio_config cfg;
	bool held = vm && (vm->nbw || vm->niops);
	enum state failed;
	char h[sizeof(hint) + 40];

	snprintf(h, sizeof(h), hint, d->uuid);
	if (!d->xml) {
		say_why(v, ST_DRIFT, "its status XML holds no <domain> to read its caps from");
		return;
	}
	if (blockio_config_parse_host(env->paths, d->xml, d->xml_len, &cfg,
				      &err)) {
		say_why(v, ST_DRIFT, "its caps do not parse: %s", err.msg);
		return;
	}
	if (!cfg.nrules) {
		const char *what = cfg.has_limits ? "<blockio:limits> is empty" :
			cfg.libvirt_limits ? "no <blockio:limits> in <metadata>, no <iotune> or <blkiotune> limit" :
			"no <blockio:limits> in <metadata>";

		if (held)
			say_why(v, ST_DRIFT, "machine/%s holds caps that its XML does not ask for (%s); blockio-metad --apply %s removes them",
				d->uuid, what, d->uuid);
		else
			say_why(v, ST_UNCAPPED, "%s", what);
		blockio_config_free(&cfg);
		return;
	}
	failed = cfg.uncapped_ok ? ST_LIBVIRT_ONLY : ST_DRIFT;
	if (mount_err) {
		say_why(v, failed, "%s", mount_err);
	} else if (blockio_config_resolve(&cfg, env->host, &err)) {
		say_why(v, failed, "%s", err.msg);
	} else if (!cfg.nrules) {
		/* libvirt-limits: every capped disk a file on NFS */
		if (held)
			say_why(v, ST_DRIFT, "machine/%s holds caps that its XML does not ask for (its disks are on network filesystems)",
				d->uuid);
		else
			say_why(v, ST_LIBVIRT_ONLY, "its disks are on network filesystems: QEMU's <iotune> only");
	} else if (!vm) {
		say_why(v, failed, "no blockio cgroup machine/%s; %s", d->uuid, h);
	} else if (blockio_rows_match(&cfg, BLOCKIO_BANDWIDTH, vm->bw, vm->nbw, &err) ||
		   blockio_rows_match(&cfg, BLOCKIO_IOPS, vm->iops, vm->niops, &err)) {
		say_why(v, ST_DRIFT, "its XML's caps are not what machine/%s holds: %s; %s",
			d->uuid, err.msg, h);
	} else if (d->pid > 0 && !vm->has_pid) {
		say_why(v, ST_DRIFT, "QEMU (pid %d) is not in machine/%s; %s",
			(int)d->pid, d->uuid, h);
	} else {
		say_why(v, ST_CAPPED, "%s", "");
	}
	blockio_config_free(&cfg);
}

static void print_verdict_text(FILE *f, const struct verdict *v)
{
	fprintf(f, "%s%s%s", state_text[v->state], v->why[0] ? ": " : "",
		v->why);
}

static void print_vm_text(FILE *f, const struct vm *vm,
			  const struct verdict *v)
{
	char e[ESC];

	if (vm->name)
		fprintf(f, "%s (%s): cgroup machine/%s", ctl_esc(vm->name, e),
			vm->uuid, vm->uuid);
	else
		fprintf(f, "? (%s): cgroup machine/%s, no running domain has this UUID (left over?)",
			vm->uuid, vm->uuid);
	if (vm->procs >= 0)
		fprintf(f, ", %d process%s", vm->procs, vm->procs == 1 ? "" : "es");
	fputc('\n', f);
	if (!vm->ndev)
		fprintf(f, "  no rules\n");
	for (size_t i = 0; i < vm->ndev; i++) {
		const struct device *d = &vm->dev[i];
		char bw[256] = "", iops[256] = "";

		if (d->bw)
			row_text(d->bw, false, bw, sizeof(bw));
		if (d->iops)
			row_text(d->iops, true, iops, sizeof(iops));
		fprintf(f, "  %s (%u:%u): %s%s%s\n",
			d->node[0] ? d->node : "unknown device", d->major,
			d->minor, bw, bw[0] && iops[0] ? ", " : "",
			!bw[0] && !iops[0] ? "no cap" : iops);
		if (d->stat) {
			char bytes[32], wr[32], held[32];

			ctl_human_bytes(d->stat->bytes, bytes, sizeof(bytes));
			ctl_human_bytes(d->stat->write_bytes, wr, sizeof(wr));
			ctl_human_bytes(d->stat->queued_bytes, held, sizeof(held));
			fprintf(f, "    charged %s in %" PRIu64 " I/Os (%s written); held back by kiothrottled so far %" PRIu64 " bios, %s\n",
				bytes, d->stat->ios, wr, d->stat->queued_bios, held);
		}
		if (d->thr)
			fprintf(f, "    delayed %" PRIu64 " times by bandwidth (%.2f s), %" PRIu64 " by iops (%.2f s)\n",
				d->thr->bw_count, ticks_s(d->thr->bw_sleep),
				d->thr->iops_count, ticks_s(d->thr->iops_sleep));
	}
	for (size_t i = 0; i < vm->nerrors; i++)
		fprintf(f, "  error: %s\n", vm->errors[i]);
	if (v->state != ST_LEFTOVER) {
		fputs("  ", f);
		print_verdict_text(f, v);
		fputc('\n', f);
	}
}

static void json_row(FILE *f, const char *key, const struct blockio_row *r,
		     bool iops)
{
	fprintf(f, ", \"%s\": ", key);
	if (!r) {
		fputs("null", f);
		return;
	}
	if (iops)
		fprintf(f, "{\"limit\": %.3f, \"strategy\": \"%s\", \"bucket\": ",
			(double)r->limit / BLOCKIO_IOPS_SCALE,
			r->strategy ? "token" : "leaky");
	else
		fprintf(f, "{\"limit\": %" PRIu64 ", \"strategy\": \"%s\", \"bucket\": ",
			r->limit, r->strategy ? "token" : "leaky");
	if (!r->strategy)
		fputs("null}", f);
	else if (iops)
		fprintf(f, "%.3f}", (double)r->bucket / BLOCKIO_IOPS_SCALE);
	else
		fprintf(f, "%" PRIu64 "}", r->bucket);
}

static void print_vm_json(FILE *f, const struct vm *vm,
			  const struct verdict *v)
{
	fputs("  {\"name\": ", f);
	ctl_json_str(f, vm->name);
	fprintf(f, ", \"state\": \"%s\", \"why\": ", state_json[v->state]);
	ctl_json_str(f, v->why[0] ? v->why : NULL);
	fprintf(f, ", \"uuid\": \"%s\", \"running\": %s, \"cgroup\": \"machine/%s\", \"processes\": ",
		vm->uuid, vm->name ? "true" : "false", vm->uuid);
	if (vm->procs >= 0)
		fprintf(f, "%d", vm->procs);
	else
		fputs("null", f);
	fputs(",\n   \"devices\": [", f);
	for (size_t i = 0; i < vm->ndev; i++) {
		const struct device *d = &vm->dev[i];

		fprintf(f, "%s\n    {\"device\": ", i ? "," : "");
		ctl_json_str(f, d->node[0] ? d->node : NULL);
		fprintf(f, ", \"major\": %u, \"minor\": %u", d->major, d->minor);
		json_row(f, "bandwidth", d->bw, false);
		json_row(f, "iops", d->iops, true);
		if (d->stat)
			fprintf(f, ",\n     \"bytes\": %" PRIu64 ", \"ios\": %" PRIu64 ", \"write_bytes\": %" PRIu64 ", \"held_bios\": %" PRIu64 ", \"held_bytes\": %" PRIu64,
				d->stat->bytes, d->stat->ios, d->stat->write_bytes,
				d->stat->queued_bios, d->stat->queued_bytes);
		else
			fputs(",\n     \"bytes\": null, \"ios\": null, \"write_bytes\": null, \"held_bios\": null, \"held_bytes\": null", f);
		if (d->thr)
			fprintf(f, ",\n     \"bandwidth_delays\": %" PRIu64 ", \"bandwidth_delay_s\": %.2f, \"iops_delays\": %" PRIu64 ", \"iops_delay_s\": %.2f}",
				d->thr->bw_count, ticks_s(d->thr->bw_sleep),
				d->thr->iops_count, ticks_s(d->thr->iops_sleep));
		else
			fputs(",\n     \"bandwidth_delays\": null, \"bandwidth_delay_s\": null, \"iops_delays\": null, \"iops_delay_s\": null}", f);
	}
	fputs("],\n   \"errors\": [", f);
	for (size_t i = 0; i < vm->nerrors; i++) {
		fputs(i ? ", " : "", f);
		ctl_json_str(f, vm->errors[i]);
	}
	fputs("]}", f);
}

/* Does @want name domain @name or UUID @uuid? */
static bool wanted(const char *want, const char *name, const char *uuid)
{
	char norm[37];

	if (!want)
		return true;
	if (name && !strcmp(want, name))
		return true;
	return !blockio_uuid_parse(want, norm) && !strcmp(norm, uuid);
}

int ctl_cmd_status(const struct blockio_ctl_env *env, const char *want,
		   bool json)
{
	static char uuids[MAX_CGROUPS][37];
	struct blockio_running *doms = NULL;
	struct blockio_error err = { "" };
	struct blockio_error mount_err = { "" };
	char mount[PATH_MAX], e[ESC];
	int ncg = 0, ndoms;
	size_t shown = 0, count[ST_COUNT] = { 0 };
	bool first = true;
	struct verdict *verdicts;
	struct vm *vm;
	int ret;

	if (blockio_find_mount(env->paths, mount, sizeof(mount), &mount_err)) {
		/* no cgroup to look at: every domain meant capped is not */
		fprintf(stderr, "blockioctl: %s\n", mount_err.msg);
	} else if ((ncg = blockio_list_cgroups(mount, uuids, MAX_CGROUPS, &err)) < 0) {
		fprintf(stderr, "blockioctl: %s\n", err.msg);
		return 1;
	}
	ndoms = blockio_running_domains(env->paths, &doms, &err);
	if (ndoms < 0) {
		fprintf(stderr, "blockioctl: %s\n", err.msg);
		return 1;
	}
	verdicts = xcalloc((size_t)ndoms, sizeof(*verdicts));
	vm = xcalloc(1, sizeof(*vm));
	if (json)
		fputs("{\"domains\": [", stdout);
	/* the running domains with a cgroup, by name, then cgroups of no
	 * running domain; those without one after */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < (pass ? ncg : ndoms); i++) {
			const char *uuid = pass ? uuids[i] : doms[i].uuid;
			const char *name = pass ? NULL : doms[i].name;
			struct verdict left = { ST_LEFTOVER, "" }, *v;
			bool has = false;

			if (pass)
				for (int j = 0; j < ndoms && !has; j++)
					has = !strcmp(doms[j].uuid, uuid);
			else
				for (int j = 0; j < ncg && !has; j++)
					has = !strcmp(uuids[j], uuid);
			if ((pass ? has : !has) || !wanted(want, name, uuid))
				continue;
			memset(vm, 0, sizeof(*vm));
			memcpy(vm->uuid, uuid, sizeof(vm->uuid));
			vm->name = name;
			read_vm(env, mount, vm, pass ? 0 : doms[i].pid);
			v = pass ? &left : &verdicts[i];
			if (!pass)
				judge(env, NULL, &doms[i], vm, v);
			count[v->state]++;
			if (json) {
				fputs(first ? "\n" : ",\n", stdout);
				print_vm_json(stdout, vm, v);
			} else {
				print_vm_text(stdout, vm, v);
			}
			first = false;
			shown++;
		}
	}
	free(vm);
	for (int j = 0; j < ndoms; j++) {
		bool has = false;

		for (int i = 0; i < ncg && !has; i++)
			has = !strcmp(uuids[i], doms[j].uuid);
		if (has || !wanted(want, doms[j].name, doms[j].uuid))
			continue;
		judge(env, mount_err.msg[0] ? mount_err.msg : NULL, &doms[j],
		      NULL, &verdicts[j]);
		count[verdicts[j].state]++;
		shown++;
		if (json)
			continue;
		printf("%s (%s): running, no blockio cgroup: ",
		       ctl_esc(doms[j].name, e), doms[j].uuid);
		print_verdict_text(stdout, &verdicts[j]);
		putchar('\n');
	}
	if (json) {
		static const char *const lists[] = { "uncapped", "libvirt_limits_only" };

		for (int l = 0; l < 2; l++) {
			bool firstu = true;

			printf("],\n \"%s\": [", lists[l]);
			for (int j = 0; j < ndoms; j++) {
				bool has = false;

				for (int i = 0; i < ncg && !has; i++)
					has = !strcmp(uuids[i], doms[j].uuid);
				if (has || !wanted(want, doms[j].name, doms[j].uuid) ||
				    (l && verdicts[j].state != ST_LIBVIRT_ONLY))
					continue;
				fputs(firstu ? "" : ", ", stdout);
				ctl_json_str(stdout, doms[j].name);
				firstu = false;
			}
		}
		fputs("],\n \"verdicts\": [", stdout);
		first = true;
		for (int j = 0; j < ndoms; j++) {
			if (!wanted(want, doms[j].name, doms[j].uuid))
				continue;
			fputs(first ? "\n  {\"name\": " : ",\n  {\"name\": ", stdout);
			ctl_json_str(stdout, doms[j].name);
			printf(", \"uuid\": \"%s\", \"state\": \"%s\", \"why\": ",
			       doms[j].uuid, state_json[verdicts[j].state]);
			ctl_json_str(stdout, verdicts[j].why[0] ? verdicts[j].why : NULL);
			putchar('}');
			first = false;
		}
		printf("],\n \"counts\": {\"capped\": %zu, \"not-as-meant\": %zu, \"uncapped\": %zu, \"libvirt-limits-only\": %zu, \"left-over\": %zu}}\n",
		       count[ST_CAPPED], count[ST_DRIFT], count[ST_UNCAPPED],
		       count[ST_LIBVIRT_ONLY], count[ST_LEFTOVER]);
	} else if (!want && !shown) {
		printf("no running domain and no blockio cgroup\n");
	} else if (shown) {
		printf("status: %zu capped as meant, %zu NOT CAPPED AS MEANT, %zu not capped by design, %zu limited by libvirt's limits only",
		       count[ST_CAPPED], count[ST_DRIFT], count[ST_UNCAPPED],
		       count[ST_LIBVIRT_ONLY]);
		if (count[ST_LEFTOVER])
			printf(", %zu left-over cgroup%s", count[ST_LEFTOVER],
			       count[ST_LEFTOVER] == 1 ? "" : "s");
		putchar('\n');
	}
	blockio_running_free(doms, (size_t)ndoms);
	free(verdicts);
	if (want && !shown) {
		fprintf(stderr, "blockioctl: no running domain or blockio cgroup '%s'\n",
			ctl_esc(want, e));
		return 1;
	}
	ret = count[ST_DRIFT] ? STATUS_DRIFT : count[ST_LIBVIRT_ONLY] ? STATUS_LIBVIRT_ONLY : 0;
	return ret;
}
