"""A re-ask that names skills shows a similar task's calls of them, not its whole program."""

from __future__ import annotations

import json
from typing import Any

from pcagent.agents.manager_memory import reask_text
from pcagent.agents.plan import Doubt

NOTES = "Instruction: Read library_notes.txt and add an alarm for the reading hour."
STEPS = [
    {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/library_notes.txt"}},
    {"id": "s2", "skill": "extract_values",
     "args": {"text": {"from": "s1"}, "names": ["time"], "what": "the time of the reading hour"}},
    {"id": "s3", "skill": "set_alarm", "args": {"time": {"from": "s2", "key": "time"}}},
]  # fmt: skip
DROPPED = Doubt("s3", "the program before also had set_alarm", skills=("set_alarm",))


class Memory:
    """Memory's nearest program, as prompt lines, and what it was asked for."""

    def __init__(self, shown: str) -> None:
        self.shown, self.asked = shown, []

    def __call__(self, instruction: str, k: int = 3, using: Any = (), **filters: Any) -> str:
        self.asked.append((k, tuple(using)))
        return self.shown


def _program(steps: list[dict[str, Any]]) -> str:
    return "Program: " + json.dumps({"steps": steps}, separators=(",", ":"))


def test_the_similar_task_s_calls_of_the_skills_named_are_shown_alone() -> None:
    """A rewording of pc01 (2026-12-04): shown the whole program on the re-ask, the 1.5B model
    wrote it whole, its file and its extraction's words with it, and the hour was lost."""
    memory = Memory(f"{NOTES}\n{_program(STEPS)}")
    text = reask_text(memory, "Set an alarm an hour before...", "s3 left out", [DROPPED], {})
    assert memory.asked == [(1, ("set_alarm",))]
    assert text.endswith(
        "A similar earlier task, and its step that calls set_alarm:\n"
        f"{NOTES}\n"
        'Step: {"id":"s3","skill":"set_alarm","args":{"time":{"from":"s2","key":"time"}}}'
    )
    assert "library_notes" not in text.split(NOTES)[1]  # the rest of that task stays out


def test_a_program_that_cannot_be_read_or_calls_none_is_shown_as_memory_gives_it() -> None:
    for shown in (f"{NOTES}\nProgram: {{not json", f"{NOTES}\n{_program(STEPS[:2])}"):
        text = reask_text(Memory(shown), "Set an alarm", "s3 left out", [DROPPED], {})
        assert text.endswith(f"A similar earlier task whose program calls set_alarm:\n{shown}")
    # No skill named, or nothing remembered: the problem alone.
    plain = "That program is unusable: s3 left out. Write a corrected one."
    assert reask_text(Memory(NOTES), "Set an alarm", "s3 left out", [Doubt("s3", "x")], {}) == plain
    assert reask_text(Memory(""), "Set an alarm", "s3 left out", [DROPPED], {}) == plain
