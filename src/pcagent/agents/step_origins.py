"""Which skill calls of a plan a model wrote, and which code changed before they run.

Why: a run counts the decisions its models made and those its code made (the benchmark's
"model decisions" share). A program step is the Manager's model's, but the mends change some
(a made-up cell value becomes a reference to the value found, one search for many becomes a
search for each, a sorted list used for its first item becomes a pick) and the readings set
others from a model's answer; counted as the model's, those overstated its share. A call no
reply wrote as it runs is marked ``mended``, so it counts as code's (a reading's change too:
the count leans to code where it cannot tell). Calls are compared as a model may write them:
the hidden arguments code fills in to check a step's result (an extraction's ``uses``, a
look-up's ``numbers``) change no decision of what the step does, and are left out; counted,
they made every extraction whose value goes to a typed parameter code's (the development
subset's first two tasks at 9d0c5d5, 2026-12-07: 5 of 9 decisions a model's).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel

from pcagent.agents.plan import Plan, PlanOutcome, SubtaskSpec
from pcagent.models.structured import StructuredResult
from pcagent.skills import SkillCatalog

Sink = Callable[[str, StructuredResult[Any]], None]


def call_key(skill: str, args: Any) -> str:
    """A skill call as compared: the skill and its arguments, whatever the step's id."""
    return json.dumps([skill, args], sort_keys=True, default=str)


@dataclass
class WrittenSteps:
    """The skill calls the Manager's model wrote in its replies while one plan was made;
    ``skills``: the catalog whose skills say which arguments a model writes (None: all)."""

    skills: SkillCatalog | None = None
    calls: set[str] = field(default_factory=set)

    def passing_to(self, sink: Sink) -> Sink:
        """``sink``, noting each reply's calls first."""

        def noted(agent: str, result: StructuredResult[Any]) -> None:
            if isinstance(result.value, BaseModel):
                self.note(result.value.model_dump(mode="json"))
            sink(agent, result)

        return noted

    def note(self, reply: Any) -> None:
        """Every call in ``reply`` (a program, or the steps asked for alone), at any depth."""
        if isinstance(reply, dict):
            if isinstance(reply.get("skill"), str) and isinstance(reply.get("args"), dict):
                self.calls.add(self._key(reply["skill"], reply["args"]))
            for value in reply.values():
                self.note(value)
        elif isinstance(reply, list):
            for value in reply:
                self.note(value)

    def marked(self, outcome: PlanOutcome) -> PlanOutcome:
        """``outcome`` with each skill call no reply wrote marked ``mended``."""
        subtasks = [self._marked(subtask) for subtask in outcome.plan.subtasks]
        if subtasks == outcome.plan.subtasks:
            return outcome
        return replace(outcome, plan=Plan(subtasks=subtasks))

    def _marked(self, subtask: SubtaskSpec) -> SubtaskSpec:
        """``subtask`` marked as it is now: a re-plan's retry of a mended call on the screen
        is a copy of it that calls no skill, and is no longer mended."""
        mended = bool(subtask.skill) and self._key(subtask.skill, subtask.args) not in self.calls
        return (
            subtask if subtask.mended == mended else subtask.model_copy(update={"mended": mended})
        )

    def _key(self, skill: str, args: dict[str, Any]) -> str:
        """The call as compared: its arguments as a model may write them."""
        if self.skills is not None and skill in self.skills:
            args = self.skills.get(skill).written_by_a_model(args)
        return call_key(skill, args)
