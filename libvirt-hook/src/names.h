/* SPDX-License-Identifier: GPL-2.0 */
/*
 * names.h - escaping for one-line messages, UUIDs (names.c).
 */
#ifndef BLOCKIO_NAMES_H
#define BLOCKIO_NAMES_H

#include <stddef.h>

/*
 * Copy @in into @out (of @outlen bytes) so that it prints on one line:
 * control bytes, backslash, quote and bytes that are not valid UTF-8
 * become \xHH; output longer than @outlen is cut and ends in "...".
 */
void blockio_escape(const char *in, char *out, size_t outlen);

/*
 * Accept a canonical UUID (8-4-4-4-12 hex digits, any case) and write
 * its lower-case form into @out.  Return 0, or -1 if @s is anything else.
 */
int blockio_uuid_normalize(const char *s, char out[37]);

/*
 * Read a UUID as libvirt does (virUUIDParse) and write its canonical
 * lower-case form into @out: white space around it, 32 hex digits, '-'
 * or ' ' anywhere between two of them (so "6b1f5c1e00004a5e..." too).
 * For a domain XML's <uuid> and an admin's argument; names the hook
 * creates are checked with blockio_uuid_normalize().  0, or -1.
 */
int blockio_uuid_parse(const char *s, char out[37]);

/*
 * Copy a library's message (libxml2's) into @out as plain text on one
 * line: runs of whitespace and control characters become one space and
 * none is left at either end; bytes that are not valid UTF-8 become '?'.
 * Quotes and backslashes stay: the text is not quoted in our messages.
 * Output longer than @outlen is cut and ends in "...".
 */
void blockio_plain(const char *in, char *out, size_t outlen);

#endif /* BLOCKIO_NAMES_H */
