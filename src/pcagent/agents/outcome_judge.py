"""The Judge: did the steps done, together, do what the instruction asked?

Why: every step checks its own effect (a saved file holds the text, an alarm is listed), but a
program can be of the wrong steps: a title made bold where a larger font was asked, two kinds of
formatting merged into one call, an abstract taken from a search snippet. Each check passes and
the run used to end "finished". Only a model reads the instruction, so a model compares it with
what was done; code decides from its typed answer: the run stays "finished" only when every
request the model lists is matched to a done step and done as asked.

The model lists the instruction's requests and matches each to a step, so that its answer is
checked request by request rather than taken as one "yes". The local 1.5B model still judged
every recorded run complete (docs/agents.md, "The Judge"), so the check is off by default.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, Field, JsonValue

from pcagent.agents.base import Agent, bullet_list, prompt_messages
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.prompting import render
from pcagent.text import shortened

#: How much of a step's value the Judge is shown: enough to see what was found or written.
VALUE_CHARS = 300


class Request(BaseModel):
    """One thing the instruction asks for, and the step that did it."""

    asked: str = Field(max_length=120, description="One thing the instruction asks, in short.")
    done_by: str = Field(max_length=20, description='The id of the step that did it, or "none".')
    as_asked: bool = Field(
        description="Whether that step did it with the values and details the instruction gives."
    )


class Judgement(BaseModel):
    """The Judge's reply."""

    requests: list[Request] = Field(min_length=1, max_length=8)


@dataclass(frozen=True)
class Verdict:
    """Whether the done steps do the instruction, and what is missing when they do not."""

    complete: bool
    missing: str
    asked_model: bool = True


def step_lines(
    subtasks: Sequence[SubtaskSpec], values: Mapping[str, JsonValue], done: Sequence[str]
) -> dict[str, str]:
    """Each done step, by its id, as the Judge reads it: a skill's call as the plan writes it
    (``<s1>`` for the value of step s1), a GUI step's task, and what it returned."""
    lines = {}
    for subtask in subtasks:
        if subtask.id not in done:
            continue
        what = subtask.description
        if not subtask.skill:
            where = f" in {subtask.app}" if subtask.app else ""
            what = f"through the screen{where}: {what}"
        value = values.get(subtask.id)
        returned = f" -> {shortened(_text(value), VALUE_CHARS)}" if value not in (None, "") else ""
        lines[subtask.id] = f"{what}{returned}"
    return lines


def _text(value: JsonValue) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


@dataclass
class JudgeAgent(Agent):
    name: ClassVar[str] = "judge"

    def judge(self, instruction: str, steps: Mapping[str, str], step: int | None = None) -> Verdict:
        """``steps``: each done step's line by its id (:func:`step_lines`)."""
        shown = bullet_list([f"{number}: {line}" for number, line in steps.items()])
        system, user = render("judge", instruction=instruction, steps=shown)
        result = self.ask(prompt_messages(system, user), Judgement, step)
        if result.value is None:
            reason = result.failure.message if result.failure else "no reply"
            return Verdict(False, f"no valid judgement of the whole instruction ({reason})")
        unmet = [
            request.asked
            for request in result.value.requests
            if request.done_by not in steps or not request.as_asked
        ]
        if unmet:
            return Verdict(False, "not done as asked: " + "; ".join(unmet))
        return Verdict(True, "")
