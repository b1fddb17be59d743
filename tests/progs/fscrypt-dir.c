// SPDX-License-Identifier: GPL-2.0
/*
 * fscrypt-dir DIR: make the empty directory DIR encrypted.  Adds a random
 * 512-bit key to DIR's filesystem (FS_IOC_ADD_ENCRYPTION_KEY) and sets a
 * v2 policy with it (AES-256-XTS contents, AES-256-CTS names).  Files
 * written below DIR then reach the disk through fscrypt's bounce pages.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fscrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <unistd.h>

#define KEY_SIZE 64

int main(int argc, char **argv)
{
	struct fscrypt_policy_v2 policy;
	struct fscrypt_add_key_arg *arg;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: fscrypt-dir DIR\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		fprintf(stderr, "fscrypt-dir: open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	arg = calloc(1, sizeof(*arg) + KEY_SIZE);
	if (!arg)
		return 1;
	arg->key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	arg->raw_size = KEY_SIZE;
	if (getrandom(arg->raw, KEY_SIZE, 0) != KEY_SIZE) {
		fprintf(stderr, "fscrypt-dir: getrandom: %s\n", strerror(errno));
		return 1;
	}
	if (ioctl(fd, FS_IOC_ADD_ENCRYPTION_KEY, arg)) {
		fprintf(stderr, "fscrypt-dir: FS_IOC_ADD_ENCRYPTION_KEY: %s\n", strerror(errno));
		return 1;
	}
	memset(&policy, 0, sizeof(policy));
	policy.version = FSCRYPT_POLICY_V2;
	policy.contents_encryption_mode = FSCRYPT_MODE_AES_256_XTS;
	policy.filenames_encryption_mode = FSCRYPT_MODE_AES_256_CTS;
	policy.flags = FSCRYPT_POLICY_FLAGS_PAD_32;
	memcpy(policy.master_key_identifier, arg->key_spec.u.identifier,
	       FSCRYPT_KEY_IDENTIFIER_SIZE);
	if (ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &policy)) {
		fprintf(stderr, "fscrypt-dir: FS_IOC_SET_ENCRYPTION_POLICY: %s\n", strerror(errno));
		return 1;
	}
	free(arg);
	close(fd);
	return 0;
}
