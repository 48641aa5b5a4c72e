#!/bin/sh
# pubpoker-growroot: grow the root partition and its ext4 to the end of the
# disk, once. The image is only as big as the system in it; the SD card it is
# written to is bigger, and the event log and apt upgrades want the room.
# The root is the last partition (images/build-debian.sh puts it there).
set -eu

root=$(findmnt -n -o SOURCE /)
name=${root#/dev/}
if [ ! -r "/sys/class/block/$name/partition" ]; then
    echo "pubpoker-growroot: $root is a whole disk, not a partition; nothing to grow"
    exit 0
fi
part=$(cat "/sys/class/block/$name/partition")
disk=/dev/$(lsblk -n -d -o PKNAME "$root")

echo "pubpoker-growroot: growing $root (partition $part of $disk)"
# --no-reread: the disk is in use (it holds /); partx tells the kernel the
# partition's new size without re-reading the whole table.
echo ", +" | sfdisk --quiet --no-reread --no-tell-kernel -N "$part" "$disk"
partx -u -n "$part" "$disk"
resize2fs "$root"
mkdir -p /var/lib/pubpoker
touch /var/lib/pubpoker/growroot.done
