"""Only models read the user's words: no pattern in the agents, the run loop or the skills is
matched against the instruction or a subtask's text to decide what pcagent does."""

from __future__ import annotations

import ast
from pathlib import Path

import pcagent

PACKAGE = Path(pcagent.__file__).parent
LAYERS = ("agents", "runtime", "skills")
#: Names that hold the user's words (the instruction, a subtask's description).
WORDS = ("instruction", "description", "subtask", "asked", "task")
MATCHING = {"search", "match", "fullmatch", "findall", "finditer", "sub", "split"}
#: Known exceptions, each with its reason (none: the effect checks read the plan's typed files).
ALLOWED: set[str] = set()
#: Patterns that read what the Manager's program wrote, not the user: its ``{s1}`` slots
#: (a re-plan's renumbered steps take their slots along, in arguments and descriptions).
OWN_SLOTS = {"PLACEHOLDER", "SLOT"}


def _word_matches(path: Path) -> list[str]:
    return [f"{path.relative_to(PACKAGE)}: {call}" for call in _word_matches_at(path)]


def test_no_pattern_is_matched_against_the_users_words() -> None:
    found = []
    for layer in LAYERS:
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            if str(path.relative_to(PACKAGE)) not in ALLOWED:
                found += _word_matches(path)
    assert found == [], "\n".join(found)


def test_the_check_finds_a_pattern_over_the_words(tmp_path: Path) -> None:
    planted = PACKAGE / "runtime" / "loop" / "loop.py"
    probe = tmp_path / "probe.py"
    probe.write_text(
        planted.read_text(encoding="utf-8") + "\n\ndef _x(checkpoint):\n"
        "    return _P.search(checkpoint.instruction)\n",
        encoding="utf-8",
    )
    matches = _word_matches_at(probe)
    assert matches and "instruction" in matches[0]


def _word_matches_at(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        ast.unparse(node)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in MATCHING
        and ast.unparse(node.func.value) not in OWN_SLOTS
        and any(word in " ".join(ast.unparse(a) for a in node.args) for word in WORDS)
    ]
