#!/usr/bin/env bash
# Installs the Debian packages pcagent needs: the sandbox desktop (Xvfb, D-Bus, AT-SPI, xfwm4,
# xdotool), the applications it drives, and Tesseract. Safe to run again: it only installs what is
# missing, and skips apt entirely when everything is present.
#
# Nothing outside the sandbox is configured: the sandbox's Chromium takes its settings from its own
# profile in the sandbox HOME (src/pcagent/env/browser_profile.py). An earlier version wrote a
# machine-wide managed policy (/etc/chromium/policies/managed/pcagent.json); this script removes it.
set -euo pipefail

PACKAGES=(
  # sandbox desktop
  xvfb xauth x11-utils x11-xserver-utils xfwm4 dbus-x11 at-spi2-core libglib2.0-bin
  gir1.2-atspi-2.0 gir1.2-gtk-3.0 python3-gi python3-pyatspi xdotool xclip
  # python for the venv (system python sees Debian's gi and uno)
  python3-venv python3-dev
  # applications
  mousepad galculator thunar gnome-clocks
  libreoffice-writer libreoffice-calc libreoffice-gtk3 python3-uno
  chromium thunderbird
  # certutil, to make a sandbox HOME trust the offline websites' local CA
  libnss3-tools
  # OCR
  tesseract-ocr tesseract-ocr-eng
  # fonts so that text renders legibly for OCR and screenshots
  fonts-dejavu-core
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi

install_packages() {
  local missing=()
  local package
  for package in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$package")
    fi
  done

  if [ ${#missing[@]} -eq 0 ]; then
    echo "install-system: all ${#PACKAGES[@]} Debian packages present"
    return
  fi

  echo "install-system: installing ${#missing[@]} Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
}

OLD_CHROMIUM_POLICY=/etc/chromium/policies/managed/pcagent.json

remove_old_chromium_policy() {
  if [ -f "$OLD_CHROMIUM_POLICY" ] && grep -q '"search.local"' "$OLD_CHROMIUM_POLICY"; then
    $SUDO rm -f "$OLD_CHROMIUM_POLICY"
    echo "install-system: removed the machine-wide Chromium policy an earlier version wrote"
  fi
}

# The unprivileged user that runs code an agent wrote when a benchmark checker executes it
# (src/pcagent/bench/jail.py).
add_jail_user() {
  if [ "$(id -u)" -ne 0 ] && [ -z "$SUDO" ]; then
    return
  fi
  if ! id -u pcagent-run >/dev/null 2>&1; then
    $SUDO useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin pcagent-run
    echo "install-system: created the user pcagent-run (runs checked code)"
  fi
}

# The unprivileged user the sandbox desktop's session and applications run as when pcagent runs
# as root (src/pcagent/env/ownership.py). Separate from pcagent-run: the applications' files must
# not be reachable by checked code, nor the other way round.
add_desktop_user() {
  if [ "$(id -u)" -ne 0 ] && [ -z "$SUDO" ]; then
    return
  fi
  if ! id -u pcagent-desktop >/dev/null 2>&1; then
    $SUDO useradd --system --create-home --home-dir /var/lib/pcagent-desktop --shell /usr/sbin/nologin pcagent-desktop
    echo "install-system: created the user pcagent-desktop (runs the sandbox's applications)"
  fi
}

install_packages
remove_old_chromium_policy
add_jail_user
add_desktop_user
echo "install-system: done"
