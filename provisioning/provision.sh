#!/usr/bin/env bash
# Turn a fresh Raspberry Pi OS Lite or Debian (bookworm or trixie, arm64) into
# the pub poker appliance. Safe to run again: every step checks before it
# changes anything, and a second run changes no file.
#
# usage: provision.sh [--root DIR] [--no-start] [--read-only-root]
#                     [--source DIR] [--wheels DIR] [--display-host NAME]
#
#   --root DIR        provision the system under DIR (a chroot, e.g. pi-gen's
#                     rootfs) instead of this machine; implies --no-start.
#                     Also from $ROOT.
#   --no-start        never start, stop or restart a service.
#   --read-only-root  make / read-only with overlayroot; /data stays writable
#                     (it must be its own partition in /etc/fstab).
#   --source DIR      the pubpoker-kiosk source tree to install (default: the
#                     repository this script lives in). Also $PUBPOKER_SOURCE.
#   --wheels DIR      install Python packages only from the wheels in DIR
#                     (an offline build); it must also hold setuptools>=68 to
#                     build the app. Default: PyPI. Also $PUBPOKER_WHEELS.
#   --display-host N  the venue display's host name for chrony on console and
#                     table devices (default: pubpoker-display, the name
#                     pubpoker-firstboot gives a display).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=${ROOT:-}
SOURCE=${PUBPOKER_SOURCE:-$(dirname "$here")}
NO_START=${NO_START:-0}
READ_ONLY_ROOT=0
DISPLAY_HOST=${PUBPOKER_DISPLAY_HOST:-pubpoker-display}
WHEELS=${PUBPOKER_WHEELS:-}

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=$2; shift 2 ;;
        --root=*) ROOT=${1#*=}; shift ;;
        --no-start) NO_START=1; shift ;;
        --read-only-root) READ_ONLY_ROOT=1; shift ;;
        --source) SOURCE=$2; shift 2 ;;
        --source=*) SOURCE=${1#*=}; shift ;;
        --wheels) WHEELS=$2; shift 2 ;;
        --wheels=*) WHEELS=${1#*=}; shift ;;
        --display-host) DISPLAY_HOST=$2; shift 2 ;;
        --display-host=*) DISPLAY_HOST=${1#*=}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "provision.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done

if [ -n "$ROOT" ]; then
    ROOT=$(cd "$ROOT" && pwd)
    [ "$ROOT" = / ] && ROOT=
fi
# A chroot has no running systemd to talk to.
[ -n "$ROOT" ] && NO_START=1
SOURCE=$(cd "$SOURCE" && pwd)
[ -z "$WHEELS" ] || WHEELS=$(cd "$WHEELS" && pwd)
[ -f "$SOURCE/pyproject.toml" ] || { echo "provision.sh: no pyproject.toml in $SOURCE" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "provision.sh: run as root" >&2; exit 2; }

APP=/opt/pubpoker
VENV=$APP/venv
BOOT=/boot/firmware
CONFIG=$BOOT/pubpoker.toml
DATA=/data/pubpoker
# audio too: the chimes play through ALSA (HDMI audio), /dev/snd is root:audio.
GROUPS_WANTED=(video render input gpio dialout audio)
export DEBIAN_FRONTEND=noninteractive

log() { printf 'provision: %s\n' "$*"; }
warn() { printf 'provision: warning: %s\n' "$*" >&2; }
# A path inside the target system.
r() { printf '%s%s' "$ROOT" "$1"; }
# Run a command inside the target system.
in_root() {
    if [ -n "$ROOT" ]; then
        chroot "$ROOT" "$@"
    else
        "$@"
    fi
}

# Write stdin to a file in the target, only when the content differs, so a
# second run leaves the file (and its timestamps) alone.
put() {
    local path=$1 mode=${2:-0644} target tmp
    target=$(r "$path")
    tmp=$(mktemp)
    cat >"$tmp"
    mkdir -p "$(dirname "$target")"
    if [ -f "$target" ] && cmp -s "$tmp" "$target"; then
        rm -f "$tmp"
    else
        log "writing $path"
        cat "$tmp" >"$target"
        rm -f "$tmp"
    fi
    # "-": leave the mode alone (the FAT boot partition has none to set).
    [ "$mode" = - ] || chmod "$mode" "$target"
}

# Install a file from the source tree into the target (same rules as put).
install_file() { put "$2" "${3:-0644}" <"$1"; }

# A symlink in the target, changed only when it points elsewhere.
link() {
    local dest=$1 name=$2 target
    target=$(r "$name")
    mkdir -p "$(dirname "$target")"
    if [ "$(readlink "$target" 2>/dev/null || true)" != "$dest" ]; then
        log "linking $name -> $dest"
        ln -sfn "$dest" "$target"
    fi
}

remove() {
    local target
    target=$(r "$1")
    if [ -e "$target" ] || [ -L "$target" ]; then
        log "removing $1"
        rm -f "$target"
    fi
}

# Packages in a chroot must not start daemons on the build machine.
created_policy=0
cleanup() {
    if [ "$created_policy" = 1 ]; then rm -f "$(r /usr/sbin/policy-rc.d)"; fi
}
trap cleanup EXIT
if [ "$NO_START" = 1 ] && [ ! -e "$(r /usr/sbin/policy-rc.d)" ]; then
    mkdir -p "$(r /usr/sbin)"
    printf '#!/bin/sh\n# provision.sh --no-start: no daemons start\nexit 101\n' \
        >"$(r /usr/sbin/policy-rc.d)"
    chmod 0755 "$(r /usr/sbin/policy-rc.d)"
    created_policy=1
fi

# --- packages -------------------------------------------------------------
# python3-pygame: pip wheels have no KMSDRM.
# SDL's KMSDRM driver draws through EGL/GLES on a GBM surface, and Debian's
# python3-pygame pulls in none of them: without libegl1, libgles2, libgbm1
# and a Mesa DRI driver (libgl1-mesa-dri: vc4/v3d on a Pi, virtio/llvmpipe in
# a VM) set_mode fails with "EGL not initialized".
PACKAGES=(python3 python3-venv python3-pygame python3-gpiozero python3-serial
          libegl1 libgles2 libgbm1 libegl-mesa0 libgl1-mesa-dri
          chrony avahi-daemon libnss-mdns iw ca-certificates)
[ "$READ_ONLY_ROOT" = 1 ] && PACKAGES+=(overlayroot)
# The buttons' GPIO bindings, either one: python3-lgpio (Raspberry Pi OS only)
# or python3-libgpiod, which from Debian 13 on is the libgpiod v2 API our own
# gpiod pin factory uses (bookworm's is v1, unused; see "GPIO pin factory"
# below). Either one installed counts, so a system that has no lgpio to offer
# is not sent to the mirror again on every run.
GPIO_BINDINGS=(python3-lgpio python3-libgpiod)

installed() {
    in_root dpkg-query -W -f="\${Status}\n" "$1" 2>/dev/null | grep -q '^install ok installed'
}
missing=()
for pkg in "${PACKAGES[@]}"; do
    installed "$pkg" || missing+=("$pkg")
done
have_gpio=0
for pkg in "${GPIO_BINDINGS[@]}"; do
    if installed "$pkg"; then have_gpio=1; fi
done
[ "$have_gpio" = 1 ] || missing+=("${GPIO_BINDINGS[@]}")
if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    in_root apt-get update -qq
    available=()
    for pkg in "${missing[@]}"; do
        if in_root apt-cache show --no-all-versions "$pkg" >/dev/null 2>&1; then
            available+=("$pkg")
        elif [[ " ${GPIO_BINDINGS[*]} " == *" $pkg "* ]]; then
            # The other may serve; "GPIO pin factory" below warns if none does.
            log "package $pkg is not available here; skipped"
        else
            warn "package $pkg is not available here; skipped"
        fi
    done
    if [ ${#available[@]} -gt 0 ]; then
        in_root apt-get install -y -qq --no-install-recommends \
            -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
            "${available[@]}" >/dev/null
    fi
fi

# --- user and groups ------------------------------------------------------
for group in "${GROUPS_WANTED[@]}" pubpoker; do
    if ! in_root getent group "$group" >/dev/null; then
        log "adding group $group"
        in_root groupadd --system "$group"
    fi
done
if ! in_root getent passwd pubpoker >/dev/null; then
    log "adding user pubpoker"
    in_root useradd --system --gid pubpoker --home-dir "$DATA" --no-create-home \
        --shell /usr/sbin/nologin --comment "pub poker kiosk" pubpoker
fi
have_groups=" $(in_root id -nG pubpoker) "
for group in "${GROUPS_WANTED[@]}"; do
    if [[ $have_groups != *" $group "* ]]; then
        log "adding pubpoker to $group"
        in_root usermod -a -G "$group" pubpoker
    fi
done
mkdir -p "$(r "$DATA")"
in_root chown pubpoker:pubpoker "$DATA"
chmod 0750 "$(r "$DATA")"

# --- the app in a venv ----------------------------------------------------
# --system-site-packages: the venv sees Debian's pygame (built with KMSDRM),
# gpiozero, lgpio and pyserial. The app goes in with --no-deps so pip never
# tries to replace those; its pure-python dependencies are named here.
# segno draws the players' QR code on the wall, argcomplete completes `pubpoker`.
PIP_DEPS=(sqlite-utils zeroconf websockets segno argcomplete)
if [ ! -x "$(r "$VENV/bin/python")" ]; then
    log "creating $VENV"
    mkdir -p "$(r "$APP")"
    in_root python3 -m venv --system-site-packages "$VENV"
fi
# The sources that make up the installed app, and the dependencies it is
# installed with; a change to either reinstalls it (a Pi provisioned before a
# dependency was added gets it on the next run).
source_files() {
    (cd "$SOURCE" && find pyproject.toml README.md rules kiosk hardware \
        -name __pycache__ -prune -o -type f -print | LC_ALL=C sort)
}
source_hash=$( (cd "$SOURCE" && source_files | tr '\n' '\0' | xargs -0 sha256sum
               printf 'pip: %s\n' "${PIP_DEPS[@]}") | sha256sum | cut -d' ' -f1)
stamp=$(r "$APP/.source-sha256")
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$source_hash" ]; then
    log "installing the app from $SOURCE"
    build=$(mktemp -d "$(r /tmp)/pubpoker-src.XXXXXX")
    mkdir "$build/src"
    (cd "$SOURCE" && source_files | tr '\n' '\0' | xargs -0 cp --parents -t "$build/src")
    pip=("$VENV/bin/pip" install -q --no-cache-dir)
    if [ -n "$WHEELS" ]; then
        cp -r "$WHEELS" "$build/wheels"
        pip+=(--no-index --find-links "${build#"$ROOT"}/wheels")
    fi
    in_root "${pip[@]}" "${PIP_DEPS[@]}"
    in_root "${pip[@]}" --no-deps --force-reinstall "${build#"$ROOT"}/src"
    rm -rf "$build"
    printf '%s\n' "$source_hash" >"$stamp"
fi
install_file "$here/firstboot.py" "$APP/lib/firstboot.py" 0644

# --- GPIO pin factory --------------------------------------------------------
# The unit asks gpiozero for lgpio, which works where python3-lgpio is
# (Raspberry Pi OS). Without it, Debian 13's python3-libgpiod (v2 API) serves
# our own factory (hardware/gpiod_factory.py, entry point "gpiod"), and a
# drop-in names it. Neither: the kiosk runs without buttons, on the keyboard.
dropin=/etc/systemd/system/pubpoker-kiosk.service.d/pin-factory.conf
if in_root "$VENV/bin/python" -c 'import lgpio' >/dev/null 2>&1; then
    remove "$dropin"
elif in_root "$VENV/bin/python" -c 'import gpiod; gpiod.request_lines' >/dev/null 2>&1; then
    put "$dropin" <<'EOF'
# pubpoker: no python3-lgpio here; python3-libgpiod (v2) serves our gpiod pin
# factory (hardware/gpiod_factory.py), written by provision.sh.
[Service]
Environment=GPIOZERO_PIN_FACTORY=gpiod
EOF
else
    remove "$dropin"
    warn "no GPIO bindings (python3-lgpio, or python3-libgpiod 2.x from Debian 13): buttons off"
fi

# --- systemd units ----------------------------------------------------------
for unit in pubpoker-kiosk.service pubpoker-firstboot.service; do
    install_file "$SOURCE/systemd/$unit" "/etc/systemd/system/$unit"
    link "/etc/systemd/system/$unit" "/etc/systemd/system/multi-user.target.wants/$unit"
done
# The kiosk takes tty1 for the display: no login prompt there (disabled, not
# stopped, so an operator provisioning over the console keeps their session).
remove /etc/systemd/system/getty.target.wants/getty@tty1.service

# --- pubpoker.toml on the boot partition -----------------------------------
mkdir -p "$(r "$BOOT")"
if [ ! -e "$(r "$CONFIG")" ]; then
    log "installing an example $CONFIG"
    cp "$here/pubpoker.example.toml" "$(r "$CONFIG")"
fi

# The role decides the time set-up; a config that does not parse (yet) counts
# as a display, the usual first device.
role=$(in_root python3 - "$CONFIG" <<'PY'
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as f:
        role = tomllib.load(f).get("device", {}).get("role", "display")
except Exception:
    role = "display"
roles = [role] if isinstance(role, str) else list(role) if isinstance(role, list) else []
print("display" if "display" in roles or not roles else str(roles[0]))
PY
)
log "role: $role"

# --- time: chrony ---------------------------------------------------------
# The display is the venue's time server, so every device agrees on the clock
# even without internet; the others follow the display.
if [ "$role" = display ]; then
    put /etc/chrony/conf.d/pubpoker.conf <<'EOF'
# pubpoker (provision.sh): this display serves time to the venue's devices.
# Keep serving from its own clock when the internet is away.
local stratum 10
# Any device on the LAN may ask.
allow
EOF
else
    put /etc/chrony/conf.d/pubpoker.conf <<EOF
# pubpoker (provision.sh): follow the venue's display.
server ${DISPLAY_HOST}.local iburst prefer
EOF
fi

# --- boot: kernel command line and config.txt -----------------------------
cmdline=$(r "$BOOT/cmdline.txt")
if [ -f "$cmdline" ]; then
    # One line of words: drop the serial console (the UART is for card
    # readers), keep the screen on, hide the cursor and boot messages.
    new=$(tr -s ' \n' '\n' <"$cmdline" | grep -v -x -e '' -e 'console=serial0,115200' || true)
    for word in consoleblank=0 vt.global_cursor_default=0 quiet; do
        grep -q -x -F -e "$word" <<<"$new" || new+=$'\n'$word
    done
    printf '%s\n' "$(tr '\n' ' ' <<<"$new" | sed 's/ *$//')" | put "$BOOT/cmdline.txt" -
else
    warn "$BOOT/cmdline.txt not found (not a Raspberry Pi?); kernel command line left alone"
fi
configtxt=$(r "$BOOT/config.txt")
if [ -f "$configtxt" ]; then
    if ! grep -q -x 'enable_uart=1' "$configtxt"; then
        # Appended lines belong to the last [filter] section; make it [all].
        {
            grep -v '^enable_uart=' "$configtxt" || true
            last=$(grep '^\[' "$configtxt" | tail -n 1 || true)
            if [ -n "$last" ] && [ "$last" != "[all]" ]; then echo '[all]'; fi
            echo 'enable_uart=1'
        } | put "$BOOT/config.txt" -
    fi
else
    warn "$BOOT/config.txt not found (not a Raspberry Pi?); UART left alone"
fi

# --- devices --------------------------------------------------------------
# Plain Debian leaves /dev/gpiochip* to root; Raspberry Pi OS has this rule.
put /etc/udev/rules.d/60-pubpoker-gpio.rules <<'EOF'
# pubpoker: the kiosk reads its buttons as the gpio group.
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
EOF
# Wi-Fi power saving delays and drops peer-sync packets.
put /etc/NetworkManager/conf.d/pubpoker-wifi-powersave.conf <<'EOF'
# pubpoker: Wi-Fi power saving off (2 = disable), or peer sync lags.
[connection]
wifi.powersave = 2
EOF
put /etc/udev/rules.d/70-pubpoker-wifi-powersave.rules <<'EOF'
# pubpoker: Wi-Fi power saving off also without NetworkManager.
ACTION=="add", SUBSYSTEM=="net", KERNEL=="wlan*", RUN+="/usr/sbin/iw dev $name set power_save off"
EOF

# --- journal in RAM -----------------------------------------------------------
# SD cards wear out; the event log is the data that matters, not the journal.
put /etc/systemd/journald.conf.d/pubpoker.conf <<'EOF'
# pubpoker: keep the journal in RAM to spare the SD card.
[Journal]
Storage=volatile
RuntimeMaxUse=32M
EOF

# --- optional read-only root ---------------------------------------------
if [ "$READ_ONLY_ROOT" = 1 ]; then
    put /etc/overlayroot.local.conf <<'EOF'
# pubpoker: / is a RAM overlay on a read-only root; recurse=0 leaves other
# mounts (the /data partition) writable.
overlayroot="tmpfs:recurse=0"
EOF
    if ! grep -q '[[:space:]]/data[[:space:]]' "$(r /etc/fstab)" 2>/dev/null; then
        warn "/data is not its own partition in /etc/fstab: with a read-only root, the event log would not survive a reboot"
    fi
fi

# --- start ------------------------------------------------------------------
if [ "$NO_START" = 1 ]; then
    log "done (nothing started)"
else
    systemctl daemon-reload
    systemctl restart chrony.service || warn "chrony did not restart"
    systemctl start pubpoker-firstboot.service || warn "pubpoker-firstboot failed; see journalctl"
    # Restart a kiosk that already runs (an upgrade). A first install starts at
    # the next boot: starting it now would take tty1 from whoever is logged in.
    systemctl try-restart pubpoker-kiosk.service || warn "pubpoker-kiosk failed; see journalctl"
    if systemctl is-active --quiet pubpoker-kiosk.service; then
        log "done"
    else
        log "done: reboot to start the kiosk"
    fi
fi
