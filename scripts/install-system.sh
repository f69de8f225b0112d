#!/usr/bin/env bash
# Installs the Debian packages pcagent needs: the sandbox desktop (Xvfb, D-Bus, AT-SPI, xfwm4,
# xdotool), the applications it drives, and Tesseract. Safe to run again: it only installs what is
# missing, and skips apt entirely when everything is present.
#
# It also writes a managed Chromium policy (/etc/chromium/policies/managed/pcagent.json) so the
# browser works with the offline websites: search goes to search.local, no HTTPS upgrades, no
# suggestion or sign-in traffic, downloads land in ~/Downloads without a prompt. The policy is
# machine-wide (it also applies to a Chromium you use yourself); set PCAGENT_SKIP_CHROMIUM_POLICY=1
# to leave /etc alone.
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

CHROMIUM_POLICY_FILE=/etc/chromium/policies/managed/pcagent.json
# ${home} is expanded by Chromium itself, not by this script.
CHROMIUM_POLICY='{
  "HttpsUpgradesEnabled": false,
  "HttpsOnlyMode": "disallowed",
  "DefaultSearchProviderEnabled": true,
  "DefaultSearchProviderName": "Offline Search",
  "DefaultSearchProviderKeyword": "search.local",
  "DefaultSearchProviderSearchURL": "http://search.local/?q={searchTerms}",
  "SearchSuggestEnabled": false,
  "CommandLineFlagSecurityWarningsEnabled": false,
  "AlternateErrorPagesEnabled": false,
  "PromptForDownloadLocation": false,
  "DownloadDirectory": "${home}/Downloads",
  "BrowserSignin": 0,
  "SyncDisabled": true,
  "MetricsReportingEnabled": false,
  "SafeBrowsingProtectionLevel": 0
}'

write_chromium_policy() {
  if [ "${PCAGENT_SKIP_CHROMIUM_POLICY:-0}" = "1" ]; then
    echo "install-system: Chromium policy skipped (PCAGENT_SKIP_CHROMIUM_POLICY=1)"
    return
  fi
  if [ -f "$CHROMIUM_POLICY_FILE" ] \
    && [ "$(cat "$CHROMIUM_POLICY_FILE")" = "$CHROMIUM_POLICY" ]; then
    echo "install-system: Chromium policy up to date"
    return
  fi
  $SUDO mkdir -p "$(dirname "$CHROMIUM_POLICY_FILE")"
  printf '%s\n' "$CHROMIUM_POLICY" | $SUDO tee "$CHROMIUM_POLICY_FILE" >/dev/null
  $SUDO chmod 644 "$CHROMIUM_POLICY_FILE"
  echo "install-system: wrote $CHROMIUM_POLICY_FILE"
}

install_packages
write_chromium_policy
echo "install-system: done"
