// SPDX-License-Identifier: GPL-2.0
/*
 * blockioctl.c - the admin's tool on the real host: /proc, libvirt's run
 * directory, /sys and /dev as they are, and qemu-img if installed.  All
 * of it is in ctl.c.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"

/* Is @prog an executable in $PATH? */
static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	bool found = false;

	copy = strdup(path && *path ? path : "/usr/bin:/bin");
	if (!copy)
		abort();
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char file[PATH_MAX];

		snprintf(file, sizeof(file), "%s/%s", dir, prog);
		found = !access(file, X_OK);
	}
	free(copy);
	return found;
}

int main(int argc, char **argv)
{
	const struct blockio_ctl_env env = {
		.paths = &blockio_paths_default,
		.host = &blockio_host_real,
		.qemu_img = in_path("qemu-img") ? "qemu-img" : NULL,
		.virsh = in_path("virsh") ? "virsh" : NULL,
		.set_wait_ms = 10000,
	};

	return blockio_ctl_main(argc, argv, &env);
}
