// SPDX-License-Identifier: GPL-2.0
/*
 * config-io.c - what else a domain XML says about its disks' I/O: disks,
 * backing chains, <iotune>, <blkiotune> (struct blockio_domain_io), for
 * blockioctl's warnings and the hook's backing-chain check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config-int.h"

/* "name=value, ..." of the element children of @node, except @skip. */
static char *element_list(xmlNodePtr node, const char *skip)
{
	char *out = NULL;
	size_t len = 0;

	for (xmlNodePtr c = node->children; c; c = c->next) {
		xmlChar *v;
		char esc[ESC_MAX], esc2[ESC_MAX];
		size_t n;

		if (c->type != XML_ELEMENT_NODE ||
		    (skip && !strcmp((const char *)c->name, skip)))
			continue;
		v = xmlNodeGetContent(c);
		cfg_escape((const char *)c->name, esc);
		cfg_escape(v ? (const char *)v : "", esc2);
		xmlFree(v);
		n = strlen(esc) + strlen(esc2) + 4;
		out = xrealloc(out, len + n + 1);
		len += (size_t)snprintf(out + len, n + 1, "%s%s=%s",
					len ? ", " : "", esc, esc2);
	}
	return out;
}

char *cfg_node_source(struct parse *p, xmlNodePtr node)
{
	char *type = cfg_xpath_string(p, node, "string(@type)");
	char *src = NULL;

	if (type && !strcmp(type, "file"))
		src = cfg_xpath_string(p, node, "string(source/@file)");
	else if (type && !strcmp(type, "block"))
		src = cfg_xpath_string(p, node, "string(source/@dev)");
	free(type);
	return src;
}

static void read_disk(struct parse *p, xmlNodePtr node, struct blockio_disk *d)
{
	xmlXPathObjectPtr tune;
	xmlNodePtr bs = node;

	d->dev = cfg_xpath_string(p, node, "string(target/@dev)");
	if (!d->dev)
		d->dev = xstrdup("");
	d->type = cfg_xpath_string(p, node, "string(@type)");
	if (!d->type)
		d->type = xstrdup("");
	d->source = cfg_node_source(p, node);
	d->format = cfg_xpath_string(p, node, "string(driver/@type)");
	/* <backingStore type='file'><format/><source/><backingStore .../> */
	for (;;) {
		xmlXPathObjectPtr next = cfg_xpath_nodes(p, bs, "backingStore");
		char *src;

		bs = cfg_nodeset_len(next) ? next->nodesetval->nodeTab[0] : NULL;
		xmlXPathFreeObject(next);
		if (!bs)
			break;
		d->chain_known = true;
		src = cfg_node_source(p, bs);
		if (!src) {
			/* <backingStore/> ends the chain; a network one does not */
			d->backing_other = cfg_xpath_string(p, bs, "string(@type)");
			if (d->backing_other && !d->backing_other[0]) {
				free(d->backing_other);
				d->backing_other = NULL;
			}
			break;
		}
		d->backing = xrealloc(d->backing, (d->nbacking + 1) * sizeof(char *));
		d->backing[d->nbacking++] = src;
	}
	tune = cfg_xpath_nodes(p, node, "iotune");
	if (cfg_nodeset_len(tune))
		d->iotune = element_list(tune->nodesetval->nodeTab[0], NULL);
	xmlXPathFreeObject(tune);
}

int blockio_domain_io_parse(const char *xml, size_t len,
			    struct blockio_domain_io *io,
			    struct blockio_error *err)
{
	struct blockio_config cfg = { 0 };
	struct parse p = { .cfg = &cfg, .err = err };
	xmlXPathObjectPtr set;

	memset(io, 0, sizeof(*io));
	if (cfg_open_domain(&p, xml, len)) {
		cfg_close_domain(&p);
		blockio_config_free(&cfg);
		return -1;
	}
	set = cfg_xpath_nodes(&p, NULL, "/domain/devices/disk");
	io->ndisks = cfg_nodeset_len(set);
	io->disks = calloc(io->ndisks ? io->ndisks : 1, sizeof(*io->disks));
	if (!io->disks)
		abort();
	for (size_t i = 0; i < io->ndisks; i++)
		read_disk(&p, set->nodesetval->nodeTab[i], &io->disks[i]);
	xmlXPathFreeObject(set);

	set = cfg_xpath_nodes(&p, NULL, "/domain/blkiotune/device");
	io->ntunes = cfg_nodeset_len(set);
	io->tunes = calloc(io->ntunes ? io->ntunes : 1, sizeof(*io->tunes));
	if (!io->tunes)
		abort();
	for (size_t i = 0; i < io->ntunes; i++) {
		xmlNodePtr dev = set->nodesetval->nodeTab[i];

		io->tunes[i].path = cfg_xpath_string(&p, dev, "normalize-space(path)");
		if (!io->tunes[i].path)
			io->tunes[i].path = xstrdup("");
		io->tunes[i].limits = element_list(dev, "path");
		if (!io->tunes[i].limits)
			io->tunes[i].limits = xstrdup("");
	}
	xmlXPathFreeObject(set);
	cfg_close_domain(&p);
	blockio_config_free(&cfg);
	return 0;
}

void blockio_domain_io_free(struct blockio_domain_io *io)
{
	for (size_t i = 0; i < io->ndisks; i++) {
		struct blockio_disk *d = &io->disks[i];

		free(d->dev);
		free(d->type);
		free(d->source);
		free(d->format);
		for (size_t j = 0; j < d->nbacking; j++)
			free(d->backing[j]);
		free(d->backing);
		free(d->backing_other);
		free(d->iotune);
	}
	free(io->disks);
	for (size_t i = 0; i < io->ntunes; i++) {
		free(io->tunes[i].path);
		free(io->tunes[i].limits);
	}
	free(io->tunes);
	memset(io, 0, sizeof(*io));
}
