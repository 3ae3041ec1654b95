#!/usr/bin/env bash
# Installs everything Glovebox needs at run and test time on Debian 12 (bookworm), by package
# name. Idempotent and fast when already done: apt is skipped if every package is installed.
# Used by CI (.ci/run), `cargo xtask test|run|ci` and workspace-image/Dockerfile alike.
set -euo pipefail

PKGS=(
  # virtual X server, X tools, input and screenshot helpers
  xvfb xauth x11-utils x11-xserver-utils x11-apps xdotool xclip xsel imagemagick scrot wmctrl
  hyperfine
  # session D-Bus, AT-SPI accessibility bus + GTK bridge, Python AT-SPI for debugging
  dbus dbus-x11 at-spi2-core libatk-adaptor python3-gi python3-pyatspi gir1.2-atspi-2.0
  # window manager and test apps (GTK3, GTK4, Qt5, no-a11y xterm)
  openbox mousepad xfce4-appfinder galculator gnome-calculator zenity gtk-3-examples xterm
  featherpad
  # browser and fonts
  chromium fonts-liberation fonts-dejavu-core
  # emoji and CJK glyphs, so screenshots show what the agent typed
  fonts-noto-color-emoji fonts-wqy-microhei
  # tooling: curl, wscat (node-ws), native builds
  curl node-ws build-essential pkg-config ca-certificates
  # the JPEG encoder gloveboxd links (the turbojpeg crate finds it with pkg-config)
  libturbojpeg0-dev
)

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=(sudo); else
    echo "provision.sh: not root and no sudo; cannot install packages" >&2
  fi
fi

missing() {
  # dpkg-query prints installed ones and complains (stderr, rc 1) about unknown ones
  local installed
  installed=" $(dpkg-query -W -f='${Package}:${db:Status-Status} ' "${PKGS[@]}" 2>/dev/null || true) "
  local p
  for p in "${PKGS[@]}"; do
    [[ "$installed" == *" $p:installed "* ]] || printf '%s\n' "$p"
  done
}

mapfile -t MISSING < <(missing)
if [ "${#MISSING[@]}" -eq 0 ]; then
  echo "provision.sh: all ${#PKGS[@]} packages installed"
else
  echo "provision.sh: installing ${#MISSING[@]} missing packages: ${MISSING[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # another apt (unattended upgrades, a parallel job) may hold the lock: wait, don't fail
  "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq
  "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
    "${PKGS[@]}" >/dev/null
  mapfile -t STILL < <(missing)
  if [ "${#STILL[@]}" -ne 0 ]; then
    echo "provision.sh: still missing after install: ${STILL[*]}" >&2
    exit 1
  fi
fi

# D-Bus needs a machine id; bare images may lack one
if [ ! -s /var/lib/dbus/machine-id ] || [ ! -s /etc/machine-id ]; then
  "${SUDO[@]}" dbus-uuidgen --ensure
  [ -s /etc/machine-id ] || "${SUDO[@]}" cp /var/lib/dbus/machine-id /etc/machine-id
fi
