// SPDX-License-Identifier: GPL-2.0
/*
 * ctl-fake.c - blockioctl on a pretend host, for tests/test-ctl.sh: the
 * disks of fakefs.c, /proc and libvirt's run directory under
 * $BLOCKIO_TEST_PROC and $BLOCKIO_TEST_RUNDIR, and $BLOCKIO_TEST_QEMU_IMG
 * as qemu-img (unset or empty: not installed), $BLOCKIO_TEST_HOOKCONF as
 * /etc/blockio/hook.conf (unset: none), $BLOCKIO_TEST_VIRSH as virsh
 * (unset: not installed), $BLOCKIO_TEST_SET_WAIT_MS as set's wait (unset:
 * 0, no wait), $BLOCKIO_TEST_METAD_STATE as /run/blockio-metad.state.
 */
#include <stdlib.h>

#include "cgroup.h"
#include "ctl.h"
#include "fakefs.h"

int main(int argc, char **argv)
{
	const char *qemu_img = getenv("BLOCKIO_TEST_QEMU_IMG");
	struct blockio_paths paths = blockio_paths_default;
	struct blockio_ctl_env env = { .paths = &paths, .host = &fake_host };

	paths.proc = getenv("BLOCKIO_TEST_PROC");
	paths.qemu_rundir = getenv("BLOCKIO_TEST_RUNDIR");
	paths.pid_wait_ms = 0;
	paths.hookconf = getenv("BLOCKIO_TEST_HOOKCONF");	/* unset: none */
	if (!paths.proc || !paths.qemu_rundir)
		return 99;
	env.qemu_img = qemu_img && *qemu_img ? qemu_img : NULL;
	env.virsh = getenv("BLOCKIO_TEST_VIRSH");	/* unset: not installed */
	env.set_wait_ms = getenv("BLOCKIO_TEST_SET_WAIT_MS") ?
			  atoi(getenv("BLOCKIO_TEST_SET_WAIT_MS")) : 0;
	paths.metad_state = getenv("BLOCKIO_TEST_METAD_STATE");
	return blockio_ctl_main(argc, argv, &env);
}
