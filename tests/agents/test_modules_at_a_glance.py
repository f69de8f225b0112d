"""Every module of ``pcagent.agents`` is named in docs/agents.md's table "The agents package at
a glance", and the table names no module that is gone: a newcomer finds each module's kind there,
and a module added without a place in it fails here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _table_modules() -> set[str]:
    text = (ROOT / "docs" / "agents.md").read_text()
    table = text.split("## The agents package at a glance", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "`" in line]
    return {name for row in rows for name in re.findall(r"`([a-z_]+)`", row.split("|")[2])}


def test_the_table_names_every_agents_module_and_no_other() -> None:
    modules = {path.stem for path in (ROOT / "src" / "pcagent" / "agents").glob("*.py")}
    modules.discard("__init__")
    named = _table_modules()
    assert sorted(modules - named) == []  # modules with no place in the table
    assert sorted(named - modules) == []  # names in the table that are no module
