"""The sandbox browser's settings live in its own profile in the sandbox HOME; nothing of
pcagent's is left in the machine's Chromium policy folders."""

from __future__ import annotations

import json
from pathlib import Path

from pcagent.env.browser_profile import PROFILE, SEARCH_URL, prepare_profile

POLICY_FOLDERS = (Path("/etc/chromium/policies"), Path("/etc/opt/chrome/policies"))


def test_preferences_are_written_into_the_sandbox_profile_and_merged(tmp_path: Path) -> None:
    path = prepare_profile(tmp_path)
    assert path == tmp_path / PROFILE / "Default" / "Preferences"
    written = json.loads(path.read_text())
    engine = written["default_search_provider_data"]["template_url_data"]
    assert engine["url"] == SEARCH_URL and engine["keyword"] == "search.local"
    assert written["download"] == {
        "default_directory": str(tmp_path / "Downloads"),
        "prompt_for_download": False,
        "directory_upgrade": True,
    }
    # what the browser saved itself survives the next start; ours wins where both speak
    written["zoom"] = {"level": 2}
    written["download"]["prompt_for_download"] = True
    path.write_text(json.dumps(written))
    again = json.loads(prepare_profile(tmp_path).read_text())
    assert again["zoom"] == {"level": 2} and again["download"]["prompt_for_download"] is False
    path.write_text("{half a file")
    assert json.loads(prepare_profile(tmp_path).read_text())["search"] == {"suggest_enabled": False}


def test_the_machine_has_no_chromium_policy_of_pcagent() -> None:
    """`make test` runs the install script first: it must leave no policy of ours behind."""
    for folder in POLICY_FOLDERS:
        if not folder.is_dir():
            continue
        for path in folder.rglob("*.json"):
            text = path.read_text(errors="replace")
            assert path.name != "pcagent.json" and "search.local" not in text, path
