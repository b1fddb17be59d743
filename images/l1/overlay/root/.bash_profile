# make shell: the repo is /mnt/src (read-only), results go to /mnt/results.
cat <<MSG
blockio L1 $(uname -r) -- repo: /mnt/src (ro), results: /mnt/results, scratch disks: /dev/vdb /dev/vdc
run a group:  /mnt/src/scripts/l1-runner --no-poweroff boot     power off:  poweroff
MSG
export PATH=$PATH:/mnt/src/scripts
