"""Adding a model profile to the configuration file (``pcagent models add``).

Why text and not a TOML writer: the file is the person's, with their comments and order; the
profile is appended as one new table and everything else stays as they wrote it. The result is
read back and validated before it replaces the file, so a failed addition changes nothing.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from pcagent.config import LOCAL_PROFILE, ModelProfile, load_config
from pcagent.errors import ConfigurationError

#: A profile name is a bare TOML key: letters, digits, - and _.
PROFILE_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def profile_table(name: str, profile: ModelProfile) -> str:
    """``[models.profiles.NAME]`` with the fields that differ from a profile's defaults."""
    defaults = ModelProfile()
    lines = [f"[models.profiles.{name}]"]
    for key, value in profile.model_dump().items():
        if value != getattr(defaults, key) or key == "backend":
            # A JSON string or number is also a TOML one; booleans are written the TOML way.
            text = ("true" if value else "false") if isinstance(value, bool) else json.dumps(value)
            lines.append(f"{key} = {text}")
    return "\n".join(lines) + "\n"


def add_profile(file: Path, name: str, profile: ModelProfile) -> None:
    """Append profile ``name`` to the configuration ``file`` (created when missing).

    Raises :class:`ConfigurationError` when the name is not a bare key, is ``local`` or is
    taken, or when the file is invalid before or after; the file is then left as it was.
    """
    if not PROFILE_NAME.fullmatch(name):
        raise ConfigurationError(
            f"profile name {name!r}: use letters, digits, - and _ (it is a key in the file)"
        )
    existing = file.read_text(encoding="utf-8") if file.is_file() else ""
    taken = set(load_config(file, environ={}).models.profiles) if existing else set()
    if name == LOCAL_PROFILE or name in taken:
        raise ConfigurationError(
            f"{file} already has a model profile {name!r}; choose another name or edit the file"
        )
    separator = (
        ""
        if not existing or existing.endswith("\n\n")
        else "\n"
        if existing.endswith("\n")
        else "\n\n"
    )
    text = existing + separator + profile_table(name, profile)
    file.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=file.parent, prefix=".config-", suffix=".toml")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as written:
            written.write(text)
        added = load_config(Path(temporary), environ={}).models.profiles.get(name)
        if added != profile:
            raise ConfigurationError(
                f"{file}: the profile {name!r} did not read back as written; add it by hand "
                "(docs/models.md shows the format)"
            )
        os.replace(temporary, file)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
