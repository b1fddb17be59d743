// SPDX-License-Identifier: GPL-2.0
/*
 * test-vmdefs.c - every example in vm-definitions/ parses, validates
 * against the schema and resolves (on the fake host, whose
 * /var/lib/libvirt/images is on vdc as in the L1 test VM) to the rules
 * its comments promise.  tests/test-vmdefs.sh runs xmllint and
 * virt-xml-validate on the same files.
 */
#include <dirent.h>
#include <stdlib.h>

#include "blockio.h"
#include "config.h"
#include "resolve.h"
#include "procfs.h"
#include "check.h"
#include "fakefs.h"

static const struct {
	const char *file;
	const char *rules;	/* "" for no caps */
} expected[] = {
	{ "blockio-l2-capped.xml", "bandwidth /dev/vdc:2097152:0" },
	{ "blockio-l2-token.xml", "bandwidth /dev/vdc:4194304:1:16777216" },
	{ "blockio-l2-iops.xml", "iops /dev/vdc:100:0" },
	{ "blockio-two-disks.xml",
	  "bandwidth /dev/vdc:2097152:0|bandwidth /dev/vdb:8388608:1:33554432|iops /dev/vdb:200:1:400" },
	{ "blockio-noisy.xml", "" },
	{ "nested-capped-a.xml", "bandwidth /dev/vdc:524288:0" },
	{ "nested-capped-b.xml", "bandwidth /dev/vdc:1048576:0" },
	{ "nested-neighbour.xml", "" },
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(1 << 20);
	if (!buf)
		abort();
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static void rules_text(const struct blockio_config *cfg, char *text, size_t size)
{
	size_t o = 0;

	text[0] = '\0';
	for (size_t i = 0; i < cfg->nrules; i++) {
		char line[512];

		blockio_rule_format(cfg, &cfg->rules[i], line, sizeof(line));
		o += (size_t)snprintf(text + o, size - o, "%s%s %s", i ? "|" : "",
				      cfg->rules[i].kind == BLOCKIO_IOPS ? "iops" : "bandwidth",
				      line);
	}
}

int main(void)
{
	size_t n = sizeof(expected) / sizeof(expected[0]), seen = 0;
	struct dirent *d;
	DIR *dir = opendir(SRCDIR "/../vm-definitions");

	CHECK(dir != NULL);
	while (dir && (d = readdir(dir))) {
		struct blockio_config cfg;
		struct blockio_error err = { "" };
		char path[512], text[2048];
		const char *want = NULL;
		size_t len = 0;
		char *xml;

		if (!strstr(d->d_name, ".xml"))
			continue;
		seen++;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(expected[i].file, d->d_name))
				want = expected[i].rules;
		CHECKF(want != NULL, "%s: new example, add it to test-vmdefs.c", d->d_name);
		snprintf(path, sizeof(path), SRCDIR "/../vm-definitions/%s", d->d_name);
		xml = slurp(path, &len);
		CHECK(xml != NULL);
		if (!xml || !want)
			continue;
		CHECKF(blockio_config_parse(xml, len, &cfg, &err) == 0 &&
		       blockio_config_resolve(&cfg, &fake_host, &err) == 0,
		       "%s: %s", d->d_name, err.msg);
		rules_text(&cfg, text, sizeof(text));
		CHECKF(!strcmp(text, want), "%s: got '%s' want '%s'", d->d_name, text, want);
		CHECKF(cfg.has_limits == (*want != '\0'), "%s", d->d_name);
		blockio_config_free(&cfg);
		free(xml);
	}
	if (dir)
		closedir(dir);
	CHECKF(seen == n, "found %zu examples, expected %zu", seen, n);
	return check_done("test-vmdefs");
}
