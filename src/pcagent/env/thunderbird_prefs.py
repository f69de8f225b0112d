"""The Thunderbird settings that make the sandbox's mail client send through the mail relay
(:mod:`pcagent.env.mail_relay`), and the reader of its ``prefs.js`` that the benchmark's profile
writer shares.

Kept apart from the relay because it is about a file of the mail client, not about SMTP: the relay
never reads it, and the sandbox rewrites it before each start of the client.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

__all__ = ["point_profile_at_relay", "read_prefs"]

_PREF_LINE = re.compile(r'^\s*user_pref\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*(.*?)\s*\)\s*;\s*$')
_SERVER_PREF = re.compile(r"^mail\.smtpserver\.([^.]+)\.")


def read_prefs(path: Path) -> dict[str, str]:
    """The ``user_pref`` lines of a Thunderbird prefs.js, name -> value as written (a JavaScript
    literal); {} when the file does not exist."""
    if not path.exists():
        return {}
    prefs: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = _PREF_LINE.match(line)
        if match:
            prefs[json.loads(f'"{match.group(1)}"')] = match.group(2)
    return prefs


def point_profile_at_relay(profile: Path, host: str, port: int) -> list[str]:
    """Make every outgoing (SMTP) server of a Thunderbird profile the relay at ``host:port``,
    plain and without login; returns the servers' keys (``smtp1``...), [] when it has none.

    Called before each start of the mail client, so a profile written by anyone (a benchmark
    task, a template, the client itself on an earlier run) sends nowhere but the relay. Other
    lines of prefs.js are kept as they are. Thunderbird must not be running: it rewrites prefs.js
    from memory when it exits.
    """
    prefs_file = profile / "prefs.js"
    prefs = read_prefs(prefs_file)
    listed = json.loads(prefs.get("mail.smtpservers", '""') or '""')
    servers = {key.strip() for key in str(listed).split(",") if key.strip()}
    servers |= {match.group(1) for name in prefs if (match := _SERVER_PREF.match(name))}
    servers.discard("default")  # defaults for new servers, not a server
    wanted: dict[str, str] = {}
    for key in sorted(servers):
        wanted |= {
            f"mail.smtpserver.{key}.hostname": json.dumps(host),
            f"mail.smtpserver.{key}.port": str(port),
            f"mail.smtpserver.{key}.try_ssl": "0",
            f"mail.smtpserver.{key}.authMethod": "1",
            f"mail.smtpserver.{key}.username": '""',
        }
    if not wanted:
        return []
    lines: list[str] = []
    for line in prefs_file.read_text(encoding="utf-8").splitlines():
        match = _PREF_LINE.match(line)
        name = json.loads(f'"{match.group(1)}"') if match else None
        if name in wanted:
            line = f"user_pref({json.dumps(name)}, {wanted.pop(name)});"
        lines.append(line)
    lines.extend(f"user_pref({json.dumps(name)}, {value});" for name, value in wanted.items())
    temporary = prefs_file.with_name(".prefs.js.part")
    temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
    temporary.replace(prefs_file)
    return sorted(servers)
