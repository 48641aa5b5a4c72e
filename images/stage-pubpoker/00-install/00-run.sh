#!/bin/bash -e
# pi-gen: put the app's sources in the image's root and run provision.sh
# inside it (on_chroot), exactly as on a Pi but without starting anything.
# prepare-pi-gen.sh puts the sources in files/pubpoker-kiosk.

src=files/pubpoker-kiosk
if [ ! -f "${src}/pyproject.toml" ]; then
	echo "stage-pubpoker: ${src} has no pubpoker-kiosk sources; run images/prepare-pi-gen.sh" >&2
	exit 1
fi

rm -rf "${ROOTFS_DIR}/tmp/pubpoker-src"
install -d "${ROOTFS_DIR}/tmp/pubpoker-src"
cp -a "${src}/." "${ROOTFS_DIR}/tmp/pubpoker-src/"

# Already inside the image's root: ROOT stays empty whatever the build sets.
on_chroot <<'CHROOT'
ROOT= bash /tmp/pubpoker-src/provisioning/provision.sh --no-start --source /tmp/pubpoker-src
CHROOT

rm -rf "${ROOTFS_DIR}/tmp/pubpoker-src"
