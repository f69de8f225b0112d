#!/usr/bin/env bash
# Creates .venv with Debian's python3 and its system site-packages (so that gi.repository.Atspi and
# uno import), then installs pcagent in editable mode with its dependencies. Safe to run again: pip
# is only called when pyproject.toml changed since the last successful install.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv
STAMP="$VENV/.pcagent-installed"

if [ ! -x "$VENV/bin/python" ]; then
  echo "install-venv: creating $VENV with /usr/bin/python3 (system site-packages visible)"
  /usr/bin/python3 -m venv --system-site-packages "$VENV"
fi

wanted=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$wanted" ]; then
  echo "install-venv: dependencies up to date"
else
  echo "install-venv: installing pcagent and its dependencies into $VENV"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  "$VENV/bin/python" -m pip install --quiet -e ".[dev]"
  echo "$wanted" > "$STAMP"
fi

"$VENV/bin/python" - <<'PY'
import gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: F401
print("install-venv: gi.repository.Atspi imports")
PY
