"""The sandbox browser's own settings, kept in its profile inside the sandbox's HOME.

Nothing here touches the machine: no managed policy under /etc, nothing a Chromium the user runs
would read. The profile (``~/.config/chromium-pcagent``) gets, before every start, preferences
that keep the browser quiet and predictable for an agent — searches from the address bar go to
the offline search engine, downloads land in ``~/Downloads`` without asking, no suggestions,
sign-in, safe-browsing lookups or alternate error pages — and the command line switches off
HTTPS upgrades (the offline websites speak plain HTTP too) and the warning bar about flags.
The certificate authority of the offline websites goes into the same HOME's NSS store (see
``pcagent.bench.web.server.trust_ca``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pcagent.env.ownership import give_to_owner

#: The profile folder under HOME.
PROFILE = Path(".config") / "chromium-pcagent"
#: Search engine the address bar uses (served by the offline websites).
SEARCH_URL = "http://search.local/?q={searchTerms}"

#: Command-line switches that stand in for what a managed policy would say.
QUIET_FLAGS = (
    "--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,"
    "HttpsFirstModeV2ForTypicallySecureUsers",
    # Hides the "unsupported command-line flag: --no-sandbox" bar over every page.
    "--test-type",
)


def preferences(home: Path) -> dict[str, Any]:
    """The preferences pcagent sets in the sandbox browser's profile."""
    return {
        "default_search_provider_data": {
            "template_url_data": {
                "keyword": "search.local",
                "short_name": "Offline Search",
                "url": SEARCH_URL,
                "suggestions_url": "",
                "favicon_url": "",
                "safe_for_autoreplace": False,
                "input_encodings": ["UTF-8"],
                "prepopulate_id": 0,
                "id": "9001",
            }
        },
        "search": {"suggest_enabled": False},
        "alternate_error_pages": {"enabled": False},
        "download": {
            "default_directory": str(home / "Downloads"),
            "prompt_for_download": False,
            "directory_upgrade": True,
        },
        "safebrowsing": {"enabled": False},
        "signin": {"allowed": False},
        "browser": {"has_seen_welcome_page": True},
        "https_only_mode_enabled": False,
    }


def _merge(into: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    for key, value in values.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value
    return into


def prepare_profile(home: Path) -> Path:
    """Write pcagent's preferences into the profile under ``home`` (merged into any the browser
    saved there before); returns the preferences file."""
    path = home / PROFILE / "Default" / "Preferences"
    path.parent.mkdir(parents=True, exist_ok=True)
    current: dict[str, Any] = {}
    if path.is_file():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            loaded = {}  # a half-written file from a killed browser: start from ours
        current = loaded if isinstance(loaded, dict) else {}
    path.write_text(json.dumps(_merge(current, preferences(home))), encoding="utf-8")
    give_to_owner(path, home)  # the browser runs as HOME's owner and rewrites its preferences
    return path
