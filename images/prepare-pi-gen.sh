#!/usr/bin/env bash
# Copy the pubpoker stage, its config and this repository's sources into a
# pi-gen checkout, ready for ./build-docker.sh or ./build.sh there.
#
# usage: FIRST_USER_PASS=... images/prepare-pi-gen.sh PATH/TO/pi-gen
set -euo pipefail

pigen=${1:?usage: FIRST_USER_PASS=... $0 PATH/TO/pi-gen}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
[ -f "$pigen/build.sh" ] || { echo "$pigen does not look like pi-gen (no build.sh)" >&2; exit 2; }
: "${FIRST_USER_PASS:?set FIRST_USER_PASS, the password of the pubadmin maintenance user}"

rm -rf "$pigen/stage-pubpoker"
cp -r "$here/stage-pubpoker" "$pigen/stage-pubpoker"
chmod +x "$pigen/stage-pubpoker/prerun.sh" "$pigen/stage-pubpoker/00-install/00-run.sh"

# The committed sources only (git archive), so a dirty work tree never ships.
files="$pigen/stage-pubpoker/00-install/files/pubpoker-kiosk"
mkdir -p "$files"
git -C "$repo" archive --format=tar HEAD | tar -x -C "$files"

cp "$here/config" "$pigen/config"
printf 'FIRST_USER_PASS=%q\n' "$FIRST_USER_PASS" >>"$pigen/config"

# Only the appliance image: no separate Lite image from stage2.
touch "$pigen/stage2/SKIP_IMAGES"
echo "pi-gen is ready: cd $pigen && ./build-docker.sh"
