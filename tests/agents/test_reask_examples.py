"""A re-ask that names skills shows a similar task's calls of them, not its whole program."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pcagent.agents.manager_memory import Example, reask_text
from pcagent.agents.plan import Doubt

SAID = "Read library_notes.txt and add an alarm for the reading hour."
NOTES = f"Instruction: {SAID}"
STEPS = [
    {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/library_notes.txt"}},
    {"id": "s2", "skill": "extract_values",
     "args": {"text": {"from": "s1"}, "names": ["time"], "what": "the time of the reading hour"}},
    {"id": "s3", "skill": "set_alarm", "args": {"time": {"from": "s2", "key": "time"}}},
]  # fmt: skip
DROPPED = Doubt("s3", "the program before also had set_alarm", skills=("set_alarm",))


class Memory:
    """Memory's nearest programs, and what it was asked for."""

    def __init__(self, *shown: Example) -> None:
        self.shown: Sequence[Example] = shown
        self.asked: list[tuple[int, tuple[str, ...]]] = []

    def __call__(
        self, instruction: str, k: int = 3, using: Any = (), **filters: Any
    ) -> Sequence[Example]:
        self.asked.append((k, tuple(using)))
        return self.shown


def _program(steps: list[dict[str, Any]]) -> str:
    return "Program: " + json.dumps({"steps": steps}, separators=(",", ":"))


def test_the_similar_task_s_calls_of_the_skills_named_are_shown_alone() -> None:
    """A rewording of pc01 (2026-12-04): shown the whole program on the re-ask, the 1.5B model
    wrote it whole, its file and its extraction's words with it, and the hour was lost."""
    memory = Memory(Example(SAID, tuple(STEPS)))
    text = reask_text(memory, "Set an alarm an hour before...", "s3 left out", [DROPPED], {})
    assert memory.asked == [(1, ("set_alarm",))]
    assert text.endswith(
        "A similar earlier task, and its step that calls set_alarm:\n"
        f"{NOTES}\n"
        'Step: {"id":"s3","skill":"set_alarm","args":{"time":{"from":"s2","key":"time"}}}'
    )
    assert "library_notes" not in text.split(NOTES)[1]  # the rest of that task stays out


def test_a_program_that_calls_none_is_shown_whole() -> None:
    shown = Memory(Example(SAID, tuple(STEPS[:2])))
    text = reask_text(shown, "Set an alarm", "s3 left out", [DROPPED], {})
    whole = f"{NOTES}\n{_program(STEPS[:2])}"
    assert text.endswith(f"A similar earlier task whose program calls set_alarm:\n{whole}")
    # No skill named, or nothing remembered: the problem alone.
    plain = "That program is unusable: s3 left out. Write a corrected one."
    assert reask_text(shown, "Set an alarm", "s3 left out", [Doubt("s3", "x")], {}) == plain
    assert reask_text(Memory(), "Set an alarm", "s3 left out", [DROPPED], {}) == plain
