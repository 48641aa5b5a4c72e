#!/usr/bin/env bash
# Build the pubpoker-kiosk SD-card image from Debian's own parts (Debian 13
# trixie, arm64), the way Debian's Raspberry Pi images are made: a FAT partition
# labelled RASPIFIRM with raspi-firmware's boot files, the kernel, initrd and
# device trees its hooks copy there, config.txt, cmdline.txt and
# pubpoker.toml; an ext4 root labelled RASPIROOT with linux-image-arm64,
# systemd and provisioning/provision.sh applied. No loop device and no mount
# of an image: mkfs.vfat -C + mcopy, mke2fs -d, then sfdisk and dd.
#
# usage: images/build-debian.sh [--out DIR] [--cache DIR] [--mirror URL]
#                               [--source DIR] [--no-xz] [--keep-parts]
#                               [--rebuild] [--dry-run]
#
#   --out DIR      where the image goes (default: build/image in this
#                  repository): pubpoker-kiosk-arm64.img.xz and its .sha256.
#   --cache DIR    the debootstrapped root, the system and provisioned stages
#                  (tarballs), the .deb files and the wheels, kept between
#                  runs (default: $PUBPOKER_TEST_CACHE or
#                  /var/cache/pubpoker-test, shared with the tests).
#   --mirror URL   the Debian mirror (default: the first deb URI serving
#                  trixie in this machine's apt sources, else bookworm's: a
#                  Debian mirror serves both). The image's apt sources use
#                  it too, with trixie-security from the security archive
#                  this machine's sources name, when they name one.
#   --source DIR   the pubpoker-kiosk tree to install, as it is (default: the
#                  committed HEAD of this repository, so a dirty work tree
#                  never ships).
#   --no-xz        write pubpoker-kiosk-arm64.img and do not compress it.
#   --keep-parts   also leave beside the image what a VM bench boots: the
#                  .img, the root's .root.ext4 and .root/ tree, the boot
#                  partition's .boot.vfat, and the .vmlinuz and .initrd.img.
#   --rebuild      ignore the cached stages (not the .deb and wheel caches),
#                  e.g. to pick up Debian's security updates.
#   --dry-run      print the settings and the stages' cache files, then stop.
#
# FIRST_USER_PASS, when set, makes pubadmin, a maintenance user with sudo
# (as images/config does for pi-gen); without it nobody can log in.
# Needs root, debootstrap, dosfstools, mtools, fdisk, e2fsprogs, xz-utils,
# python3 with pip, and on a machine that is not arm64, qemu-user-static
# with binfmt_misc (debootstrap's second stage runs under qemu-aarch64).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
NAME=pubpoker-kiosk-arm64
# Debian 13: its python3-libgpiod is the libgpiod v2 API that serves the
# buttons (hardware/gpiod_factory.py); bookworm's is v1 and has no lgpio.
SUITE=trixie
# A machine building the image may run the release before it (bookworm):
# its mirror and security archive serve trixie too.
OLDER_SUITE=bookworm
ARCH=arm64
# trixie's python3; the wheels are fetched for it, not for this machine.
TARGET_PYTHON=3.13
OUT=$repo/build/image
CACHE=${PUBPOKER_TEST_CACHE:-/var/cache/pubpoker-test}
MIRROR=
SOURCE=
XZ=1
KEEP_PARTS=0
REBUILD=0
DRY_RUN=0
# Partition layout of Debian's raspi images: the FAT from 4 MiB to 512 MiB
# (room for a second kernel and initrd while one is upgraded), root after.
FAT_START_MIB=4
ROOT_START_MIB=512
# What Debian's raspi images hold, plus what the appliance's first boot
# uses: NetworkManager (pubpoker-firstboot writes its Wi-Fi keyfile), the
# Wi-Fi firmware (non-free-firmware), fdisk for pubpoker-growroot, sudo for
# the maintenance user, zstd for a smaller initrd; initramfs-tools is named
# so it comes in before the kernel (see stage 2).
PACKAGES=(linux-image-arm64 initramfs-tools raspi-firmware firmware-brcm80211 wireless-regdb
          systemd-sysv udev dbus kmod iproute2 network-manager wpasupplicant rfkill
          e2fsprogs dosfstools fdisk sudo zstd)
# Bump when the system stage changes in a way the package list does not show.
SYSTEM_STAGE=2

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }
die() { printf 'build-debian: %s\n' "$*" >&2; exit 2; }
BUILD_LOG=/dev/null
log() { printf 'build-debian: [%4ds] %s\n' "$SECONDS" "$*" | tee -a "$BUILD_LOG"; }
# Run a noisy command with its output in the build log; on failure show the
# log's tail and stop.
quietly() {
    printf '\n### %s\n' "$*" >>"$BUILD_LOG"
    if ! "$@" >>"$BUILD_LOG" 2>&1; then
        tail -n 40 "$BUILD_LOG" >&2
        die "failed: $* (the whole log: $BUILD_LOG)"
    fi
}

while [ $# -gt 0 ]; do
    case "$1" in
        --out) OUT=${2:?--out needs a directory}; shift 2 ;;
        --out=*) OUT=${1#*=}; shift ;;
        --cache) CACHE=${2:?--cache needs a directory}; shift 2 ;;
        --cache=*) CACHE=${1#*=}; shift ;;
        --mirror) MIRROR=${2:?--mirror needs a URL}; shift 2 ;;
        --mirror=*) MIRROR=${1#*=}; shift ;;
        --source) SOURCE=${2:?--source needs a directory}; shift 2 ;;
        --source=*) SOURCE=${1#*=}; shift ;;
        --no-xz) XZ=0; shift ;;
        --keep-parts) KEEP_PARTS=1; shift ;;
        --rebuild) REBUILD=1; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) printf 'build-debian: unknown option %s\n' "$1" >&2; usage >&2; exit 2 ;;
    esac
done

# Where this machine's apt sources are (another directory only for tests).
APT_ETC=${PUBPOKER_APT_ETC:-/etc/apt}
# The first deb URI serving suite $1 in this machine's apt sources (one-line
# .list files and deb822 .sources), in apt's own order.
apt_source_uri() {
    local suite=$1 file
    for file in "$APT_ETC/sources.list" "$APT_ETC"/sources.list.d/*; do
        [ -f "$file" ] || continue
        case "$file" in
            *.sources)
                awk -v suite="$suite" '
                    BEGIN { RS = ""; FS = "\n" }
                    {
                        types = uris = suites = ""; enabled = "yes"
                        for (i = 1; i <= NF; i++) {
                            if ($i ~ /^#/ || $i !~ /:/) continue
                            key = tolower($i); sub(/:.*/, "", key)
                            value = $i; sub(/^[^:]*:[ \t]*/, "", value)
                            if (key == "types") types = value
                            else if (key == "uris") uris = value
                            else if (key == "suites") suites = value
                            else if (key == "enabled") enabled = tolower(value)
                        }
                        if (enabled == "no" || (" " types " ") !~ / deb /) next
                        if (index(" " suites " ", " " suite " ") == 0) next
                        split(uris, uri, " "); print uri[1]
                    }' "$file" ;;
            */sources.list|*.list)
                sed -e 's/#.*//' -e 's/\[[^]]*\]//g' "$file" |
                    awk -v suite="$suite" '$1 == "deb" && $3 == suite { print $2 }' ;;
        esac
    done | head -n 1
}

[ -n "$MIRROR" ] || MIRROR=$(apt_source_uri "$SUITE")
[ -n "$MIRROR" ] || MIRROR=$(apt_source_uri "$OLDER_SUITE")
[ -n "$MIRROR" ] || die "no deb source for $SUITE in $APT_ETC; give one with --mirror URL"
MIRROR=${MIRROR%/}
SECURITY=$(apt_source_uri "$SUITE-security")
[ -n "$SECURITY" ] || SECURITY=$(apt_source_uri "$OLDER_SUITE-security")
SECURITY=${SECURITY%/}
case "$OUT" in /*) ;; *) OUT=$PWD/$OUT ;; esac
case "$CACHE" in /*) ;; *) CACHE=$PWD/$CACHE ;; esac
if [ -n "$SOURCE" ]; then
    SOURCE=$(cd "$SOURCE" && pwd) || die "no such directory: $SOURCE"
    [ -f "$SOURCE/pyproject.toml" ] || die "no pyproject.toml in $SOURCE"
fi

# Cache file names carry a hash of what went into them, so a change to the
# package list, the mirror or provision.sh starts that stage afresh.
hash_of() { printf '%s\n' "$@" | sha256sum | cut -c1-12; }
MINBASE=$CACHE/debootstrap-$SUITE-$ARCH-minbase.tar
DEBS=$CACHE/debs-$SUITE-$ARCH
WHEELS=$CACHE/wheels-$SUITE-$ARCH
system_key=$(hash_of "$SYSTEM_STAGE" "$MIRROR" "$SECURITY" "${PACKAGES[@]}")
SYSTEM=$CACHE/image-$SUITE-$ARCH-system-$system_key.tar

if [ "$DRY_RUN" = 1 ]; then
    printf '%s=%s\n' out "$OUT" cache "$CACHE" mirror "$MIRROR" \
        security "${SECURITY:-none}" source "${SOURCE:-git HEAD of $repo}" \
        xz "$XZ" keep_parts "$KEEP_PARTS" rebuild "$REBUILD" \
        image "$OUT/$NAME.img$([ "$XZ" = 1 ] && echo .xz)" \
        minbase "$MINBASE" system "$SYSTEM" packages "${PACKAGES[*]}"
    exit 0
fi

[ "$(id -u)" = 0 ] || die "run as root (debootstrap, chroot, file ownership in the image)"
for tool in debootstrap chroot unshare mkfs.vfat mcopy mke2fs sfdisk xz tar flock; do
    command -v "$tool" >/dev/null || die "$tool is not installed (see images/README.md)"
done
PYTHON=${PYTHON:-python3}
"$PYTHON" -m pip --version >/dev/null 2>&1 || die "$PYTHON has no pip (the wheels come from PyPI through it)"
if [ "$(uname -m)" != aarch64 ]; then
    binfmt=/proc/sys/fs/binfmt_misc/qemu-aarch64
    grep -qx enabled "$binfmt" 2>/dev/null ||
        die "arm64 binaries cannot run here: install qemu-user-static (binfmt_misc's qemu-aarch64)"
    # F: the kernel holds the interpreter open, so it also works inside a chroot.
    grep -q '^flags:.*F' "$binfmt" ||
        die "binfmt_misc's qemu-aarch64 lacks the F flag; a chroot cannot find the interpreter"
fi

if [ -z "$SOURCE" ]; then
    git -C "$repo" rev-parse --verify -q HEAD >/dev/null ||
        die "$repo is not a git checkout with a commit; give the tree with --source DIR"
fi
mkdir -p "$OUT" "$CACHE" "$DEBS" "$WHEELS"
BUILD_LOG=$OUT/$NAME.build.log
: >"$BUILD_LOG"
exec 9>"$CACHE/.build-debian-$ARCH.lock"
if ! flock -n 9; then
    log "another build holds $CACHE; waiting"
    flock 9
fi
WORK=$CACHE/build-debian-$ARCH.work
ROOT=$WORK/root
# A run that was killed left its work here; nothing in it is reused.
rm -rf "$WORK"
mkdir -p "$WORK"
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT

# Mount /proc for the command only, in a mount namespace of its own: no
# mount can outlive the build, even when it is killed. Packages' scripts
# need it (ischroot, for one, tells a chroot from the real system by it).
with_proc() {
    # shellcheck disable=SC2016  # $0 and $@ are the inner shell's
    unshare --mount --propagation private -- \
        sh -c 'mount -t proc proc "$0/proc" && exec "$@"' "$ROOT" "$@"
}
# A clean environment: nothing of this machine's (PIP_*, PYTHON*, locale)
# leaks into the image's package scripts.
clean_env=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
           DEBIAN_FRONTEND=noninteractive)
in_root() { with_proc "${clean_env[@]}" chroot "$ROOT" "$@"; }
apt_install() {
    in_root apt-get install -y -q --no-install-recommends \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "$@"
}

pack() {  # pack TARBALL: the root as a tarball, written under a temporary name
    local partial
    partial=$(dirname "$1")/.$(basename "$1").$$
    tar -C "$ROOT" --numeric-owner --xattrs --xattrs-include='*' -cf "$partial" .
    mv -f "$partial" "$1"
}
unpack() {
    rm -rf "$ROOT"
    mkdir -p "$ROOT"
    tar -C "$ROOT" --numeric-owner --xattrs --xattrs-include='*' -xpf "$1"
}
# apt keeps what it downloads in the root's archives; the cache keeps it for
# the next build (hard links: the work directory is inside the cache).
debs_in() {
    local deb archives=$ROOT/var/cache/apt/archives
    for deb in "$DEBS"/*.deb; do
        [ -e "$deb" ] || continue
        [ -e "$archives/${deb##*/}" ] || ln "$deb" "$archives/" 2>/dev/null || cp "$deb" "$archives/"
    done
}
debs_out() {
    local deb
    for deb in "$ROOT"/var/cache/apt/archives/*.deb; do
        [ -e "$deb" ] || continue
        [ -e "$DEBS/${deb##*/}" ] || ln "$deb" "$DEBS/${deb##*/}" 2>/dev/null ||
            cp "$deb" "$DEBS/${deb##*/}"
    done
    rm -f "$ROOT"/var/cache/apt/archives/*.deb
}
no_daemons() {
    printf '#!/bin/sh\n# build-debian.sh: no daemon starts in the build chroot\nexit 101\n' \
        >"$ROOT/usr/sbin/policy-rc.d"
    chmod 0755 "$ROOT/usr/sbin/policy-rc.d"
}

# --- stage 1: debootstrap --------------------------------------------------------
if [ ! -f "$MINBASE" ]; then
    log "debootstrap $SUITE $ARCH from $MIRROR (the second stage runs under qemu)"
    boot=$CACHE/debootstrap-$ARCH-$$
    rm -rf "$boot"
    # In a mount namespace: the /proc and /sys it mounts in the target go
    # away with it, even when it is killed halfway.
    quietly unshare --mount --propagation private -- \
        debootstrap --variant=minbase --arch="$ARCH" "$SUITE" "$boot" "$MIRROR"
    partial=$CACHE/.${MINBASE##*/}.$$
    tar -C "$boot" --numeric-owner -cf "$partial" .
    mv -f "$partial" "$MINBASE"
    rm -rf "$boot"
else
    log "debootstrap: cached $MINBASE"
fi

# --- stage 2: the system: kernel, firmware, systemd, udev, NetworkManager -----------
apt_sources() {
    printf '# pubpoker (images/build-debian.sh)\n'
    printf 'deb %s %s main non-free-firmware\n' "$MIRROR" "$SUITE" "$MIRROR" "$SUITE-updates"
    [ -z "$SECURITY" ] || printf 'deb %s %s-security main non-free-firmware\n' "$SECURITY" "$SUITE"
}
# The image's own settings, applied before the kernel's hooks run and again
# at every build (they are cheap, and the cached stages do not key on them).
configure() {
    local debian=$here/debian
    install -D -m 0644 "$debian/raspi-firmware" "$ROOT/etc/default/raspi-firmware"
    install -D -m 0644 "$debian/raspi-extra-cmdline" "$ROOT/etc/default/raspi-extra-cmdline"
    install -D -m 0644 "$debian/fstab" "$ROOT/etc/fstab"
    install -D -m 0644 "$debian/initramfs-fstype" "$ROOT/etc/initramfs-tools/conf.d/pubpoker-fstype"
    install -D -m 0644 "$debian/60-pubpoker-serial0.rules" "$ROOT/etc/udev/rules.d/60-pubpoker-serial0.rules"
    install -D -m 0755 "$debian/growroot.sh" "$ROOT/usr/local/sbin/pubpoker-growroot"
    install -D -m 0644 "$debian/pubpoker-growroot.service" "$ROOT/etc/systemd/system/pubpoker-growroot.service"
    mkdir -p "$ROOT/etc/systemd/system/multi-user.target.wants"
    ln -sfn /etc/systemd/system/pubpoker-growroot.service \
        "$ROOT/etc/systemd/system/multi-user.target.wants/pubpoker-growroot.service"
    # Its prompts (locale, time zone, root password) would wait on the
    # screen for a keyboard at the first boot, in front of the kiosk.
    ln -sfn /dev/null "$ROOT/etc/systemd/system/systemd-firstboot.service"
    # The same settings as the pi-gen image (images/config).
    ln -sfn /usr/share/zoneinfo/Europe/Oslo "$ROOT/etc/localtime"
    echo Europe/Oslo >"$ROOT/etc/timezone"
    # pubpoker-firstboot renames the device after its role at the first boot.
    echo pubpoker-display >"$ROOT/etc/hostname"
    printf '127.0.0.1\tlocalhost\n127.0.1.1\tpubpoker-display\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
        >"$ROOT/etc/hosts"
    apt_sources >"$ROOT/etc/apt/sources.list"
    mkdir -p "$ROOT/boot/firmware"
}

if [ "$REBUILD" = 0 ] && [ -f "$SYSTEM" ]; then
    log "system: cached $SYSTEM"
else
    log "system: installing ${PACKAGES[*]}"
    unpack "$MINBASE"
    configure
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
    no_daemons
    debs_in
    quietly in_root apt-get update
    # The kernel last and alone: its postinst makes the initrd once, with
    # udev's and e2fsprogs' hooks already there. Installed together, the
    # initrd is made twice (the kernel's postinst, then the trigger that
    # initramfs-tools and the hooks' packages set off), and each run of
    # mkinitramfs takes about ten minutes under qemu-user.
    others=()
    for package in "${PACKAGES[@]}"; do
        [ "$package" = linux-image-arm64 ] || others+=("$package")
    done
    quietly apt_install "${others[@]}"
    quietly apt_install linux-image-arm64
    debs_out
    rm -f "$ROOT/usr/sbin/policy-rc.d"
    pack "$SYSTEM"
fi

# --- stage 3: provision.sh ----------------------------------------------------------
if [ -n "$SOURCE" ]; then
    src=$SOURCE
else
    src=$WORK/src
    mkdir -p "$src"
    git -C "$repo" archive --format=tar HEAD | tar -x -C "$src"
fi
log "source: ${SOURCE:-$repo at $(git -C "$repo" rev-parse --short HEAD)}"

# The wheels for trixie's python on arm64 (pure-python or aarch64 builds):
# provision.sh's pip dependencies and what pyproject.toml builds the app with.
read -r -a pip_deps <<<"$(sed -n 's/^PIP_DEPS=(\(.*\))$/\1/p' "$src/provisioning/provision.sh")"
[ ${#pip_deps[@]} -gt 0 ] || die "no PIP_DEPS=(...) line in $src/provisioning/provision.sh"
mapfile -t build_deps < <("$PYTHON" -c '
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print("\n".join(tomllib.load(f)["build-system"]["requires"]))' "$src/pyproject.toml")
[ ${#build_deps[@]} -gt 0 ] || die "no [build-system] requires in $src/pyproject.toml"
fresh=$WORK/wheels
mkdir -p "$fresh"
pip_download() {
    env -u PIP_FIND_LINKS -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL \
        "$PYTHON" -m pip download -q --disable-pip-version-check --dest "$fresh" \
        --only-binary=:all: --platform "manylinux_2_36_aarch64" \
        --python-version "$TARGET_PYTHON" --implementation cp --abi "cp${TARGET_PYTHON/./}" \
        --find-links "$WHEELS" "$@" "${pip_deps[@]}" "${build_deps[@]}"
}
if pip_download --no-index 2>/dev/null; then
    log "wheels: cached in $WHEELS"
else
    log "wheels: ${pip_deps[*]} ${build_deps[*]} from PyPI"
    quietly pip_download
    for wheel in "$fresh"/*.whl; do
        [ -e "$WHEELS/${wheel##*/}" ] || cp "$wheel" "$WHEELS/"
    done
fi

provision() {
    quietly with_proc "${clean_env[@]}" bash "$src/provisioning/provision.sh" --root "$ROOT" \
        --no-start --source "$src" --wheels "$fresh"
}
# raspi-firmware's kernel hook, run as a kernel upgrade runs it: it writes
# cmdline.txt and config.txt from /etc/default (configure() may have changed
# them) and copies the newest kernel, initrd and device trees to the boot
# partition. Before provision.sh, whose edits of cmdline.txt then stand.
boot_files() {
    quietly in_root env DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/z50-raspi-firmware
}
provisioned_key=$(hash_of "$system_key" "$(sha256sum <"$src/provisioning/provision.sh")")
PROVISIONED=$CACHE/image-$SUITE-$ARCH-provisioned-$provisioned_key.tar
# From the cache provision.sh runs again, on purpose: it installs a changed
# app and changes nothing else.
cached=0
if [ "$REBUILD" = 0 ] && [ -f "$PROVISIONED" ]; then
    log "provision: from cached $PROVISIONED"
    unpack "$PROVISIONED"
    cached=1
else
    log "provision: provision.sh --root on the system stage"
    unpack "$SYSTEM"
fi
configure
boot_files
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
debs_in
provision
debs_out
[ "$cached" = 1 ] || pack "$PROVISIONED"

# --- stage 4: this build's finishing touches (never cached) ------------------------
log "finishing the root"
if [ -n "${FIRST_USER_PASS:-}" ]; then
    log "adding pubadmin (sudo), the maintenance user"
    in_root getent passwd pubadmin >/dev/null ||
        in_root useradd --create-home --shell /bin/bash --groups sudo pubadmin
    printf 'pubadmin:%s\n' "$FIRST_USER_PASS" | in_root chpasswd
fi
# Every device makes its own machine-id at its first boot (DHCP, mDNS and
# the journal tell devices apart by it).
: >"$ROOT/etc/machine-id"
rm -f "$ROOT/var/lib/dbus/machine-id"
# Nothing of the build machine's: its resolver, logs and apt's lists.
rm -f "$ROOT/etc/resolv.conf" "$ROOT/usr/sbin/policy-rc.d"
quietly in_root apt-get clean
rm -rf "$ROOT"/var/lib/apt/lists/* "$ROOT"/tmp/* "$ROOT"/var/tmp/* "$ROOT"/var/cache/debconf/*-old
find "$ROOT/var/log" -type f -exec truncate -s 0 {} +

# --- stage 5: the file systems and the disk -----------------------------------------
bootfs=$WORK/bootfs
mv "$ROOT/boot/firmware" "$bootfs"
mkdir -m 0755 "$ROOT/boot/firmware"  # the FAT's mount point
for file in bootcode.bin start4.elf fixup4.dat config.txt cmdline.txt pubpoker.toml; do
    [ -f "$bootfs/$file" ] || die "no $file for the boot partition (raspi-firmware's hooks did not run?)"
done
ls "$bootfs"/vmlinuz-* "$bootfs"/initrd.img-* "$bootfs"/bcm2711-rpi-4-b.dtb >/dev/null ||
    die "no kernel, initrd or device tree on the boot partition"

fat=$WORK/boot.vfat
fat_mib=$((ROOT_START_MIB - FAT_START_MIB))
log "boot partition: FAT32 RASPIFIRM, $fat_mib MiB, $(du -sm "$bootfs" | cut -f1) MiB used"
quietly mkfs.vfat -F 32 -n RASPIFIRM -C "$fat" $((fat_mib * 1024))
quietly env MTOOLS_SKIP_CHECK=1 mcopy -s -m -Q -i "$fat" "$bootfs"/* ::/

used_mib=$(du -sm --apparent-size "$ROOT" | cut -f1)
# A quarter more for ext4's own blocks, and room for upgrades and the night's
# data until pubpoker-growroot hands it the rest of the card.
root_mib=$(( (used_mib * 5 / 4 + 512 + 3) / 4 * 4 ))
ext4=$WORK/root.ext4
log "root partition: ext4 RASPIROOT, $root_mib MiB, $used_mib MiB of files"
truncate -s "${root_mib}M" "$ext4"
# lazy_*_init=0: the Pi's first boot does not spend minutes zeroing inode
# tables in the background (on an image file they stay holes).
quietly mke2fs -F -t ext4 -L RASPIROOT -E lazy_itable_init=0,lazy_journal_init=0,root_owner=0:0 \
    -d "$ROOT" "$ext4"

img=$WORK/$NAME.img
log "disk: MBR, FAT at $FAT_START_MIB MiB, root at $ROOT_START_MIB MiB"
truncate -s $((ROOT_START_MIB + root_mib))M "$img"
# Type c (FAT32 LBA) is what the Pi's boot ROM and firmware look for.
sfdisk --quiet "$img" <<EOF
label: dos
unit: sectors
start=$((FAT_START_MIB * 2048)), size=$((fat_mib * 2048)), type=c
start=$((ROOT_START_MIB * 2048)), size=$((root_mib * 2048)), type=83
EOF
dd if="$fat" of="$img" bs=1M seek="$FAT_START_MIB" conv=notrunc,sparse status=none
dd if="$ext4" of="$img" bs=1M seek="$ROOT_START_MIB" conv=notrunc,sparse status=none

# --- stage 6: out ----------------------------------------------------------------
publish() { mv -f "$1" "$OUT/$2"; log "wrote $OUT/$2 ($(du -sh --apparent-size "$OUT/$2" | cut -f1))"; }
rm -f "$OUT/$NAME.img" "$OUT/$NAME.img.xz" "$OUT/$NAME.img.xz.sha256"
if [ "$XZ" = 1 ]; then
    log "compressing (xz)"
    xz -T0 -6 --keep "$img"
    (cd "$WORK" && sha256sum "$NAME.img.xz" >"$NAME.img.xz.sha256")
    publish "$img.xz" "$NAME.img.xz"
    publish "$img.xz.sha256" "$NAME.img.xz.sha256"
fi
if [ "$XZ" = 0 ] || [ "$KEEP_PARTS" = 1 ]; then
    publish "$img" "$NAME.img"
fi
if [ "$KEEP_PARTS" = 1 ]; then
    kernel=$(find "$bootfs" -maxdepth 1 -name 'vmlinuz-*' -printf '%f\n' | sort -V | tail -n 1)
    publish "$bootfs/$kernel" "$NAME.vmlinuz"
    publish "$bootfs/initrd.img-${kernel#vmlinuz-}" "$NAME.initrd.img"
    publish "$fat" "$NAME.boot.vfat"
    publish "$ext4" "$NAME.root.ext4"
    rm -rf "${OUT:?}/$NAME.root"
    publish "$ROOT" "$NAME.root"
fi
log "done"
