"""What one step knows, as typed values: the history of its subtask and the context it runs in.

A subtask's history is a list of :class:`StepLine` (the step's number, its typed action, the
Reflection verdict and what the action returned), kept in the run's checkpoint. Code asks the
lines questions (did step 3 succeed? did this step repeat a success?) through their fields; the
prompts get the same lines rendered as text (``3: click(x=10, y=20) -> success``), and nothing
reads that text back.

:class:`StepContext` is built once per step by the step loop, from the checkpoint and the screen,
and handed to the agents (Decision, Progress, Reflection) and to the skills: one frozen object,
so every part of a step sees the same subtask, role, window and history.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from pcagent.actions import Action
from pcagent.field_names import field_names

Verdict = Literal["success", "no_change", "unexpected_change"]
"""Reflection's verdict on one step."""


def action_text(action: Action | None) -> str:
    """An action as one line, for prompts and logs: ``click(x=10, y=20)``."""
    if action is None:
        return "(no valid action)"
    fields = action.model_dump(exclude={"kind"}, exclude_defaults=False)
    arguments = ", ".join(f"{k}={v!r}" for k, v in fields.items() if v is not None)
    return f"{action.kind}({arguments})"


class StepLine(BaseModel):
    """One step of the running subtask, as its history keeps it."""

    model_config = ConfigDict(frozen=True)

    number: int
    #: The action carried out; None when the Decision agent gave no valid one.
    action: Action | None = None
    verdict: Verdict
    #: What the action returned (a reading, a download's message); None when it returned nothing.
    output: str | None = None

    @property
    def succeeded(self) -> bool:
        return self.verdict == "success"

    def text(self) -> str:
        """The line as the prompts show it: ``3: click(x=10, y=20) -> success``."""
        return f"{self.number}: {action_text(self.action)} -> {self.verdict}"

    def repeats(self, action: Action | None) -> bool:
        """Whether ``action`` is exactly this line's action."""
        return action is not None and self.action is not None and self.action == action


class Reading(BaseModel):
    """What an action read (a document's paragraphs, a page's text), with where it came from."""

    model_config = ConfigDict(frozen=True)

    step: int
    kind: str
    text: str

    def shown(self) -> str:
        """The reading as the prompts show it: ``step 4, browser_read: <text>``."""
        return f"step {self.step}, {self.kind}: {self.text}"


def history_text(lines: tuple[StepLine, ...] | list[StepLine]) -> list[str]:
    """``lines`` as the prompts show them, one string each."""
    return [line.text() for line in lines]


def repeated_success(
    history: tuple[StepLine, ...] | list[StepLine], action: Action | None
) -> int | None:
    """The number of the latest step whose action ``action`` repeats exactly, when that step
    succeeded; None when there is none (the latest such step failed, or none had it)."""
    for line in reversed(history):
        if line.repeats(action):
            return line.number if line.succeeded else None
    return None


def _frozen(values: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(values))


@dataclass(frozen=True)
class StepContext:
    """Everything one step's agents and skills read about the run, fixed when the step starts.

    ``subtask`` is the subtask's text as the agents are told it (values filled in, the desktop
    named); ``window`` is the title of the window in front and ``front_app`` its application
    ("" when unknown); ``history`` the subtask's steps so far; ``hub`` the values earlier
    subtasks handed over and ``answers`` those this subtask reported; ``last_reading`` the latest
    reading of the subtask and ``richest_reading`` its longest.
    """

    number: int
    subtask_id: str
    subtask: str
    task: str
    role: str
    front_app: str = ""
    window: str = ""
    #: The application the subtask works in ("" when the plan named none).
    app: str = ""
    outputs_needed: tuple[str, ...] = ()
    history: tuple[StepLine, ...] = ()
    hub: Mapping[str, str] = field(default_factory=dict)
    answers: Mapping[str, str] = field(default_factory=dict)
    progress: str = ""
    reflection: str = ""
    guidance: str = ""
    last_reading: Reading | None = None
    richest_reading: Reading | None = None

    def __post_init__(self) -> None:
        # Frozen all the way down: a part of the step cannot change what the next part reads.
        object.__setattr__(self, "hub", _frozen(self.hub))
        object.__setattr__(self, "answers", _frozen(self.answers))
        object.__setattr__(self, "history", tuple(self.history))
        object.__setattr__(self, "outputs_needed", tuple(self.outputs_needed))

    @property
    def all_succeeded(self) -> bool:
        """Whether every step of the subtask so far succeeded (True before the first)."""
        return all(line.succeeded for line in self.history)

    @property
    def in_its_app(self) -> bool:
        """Whether the subtask's own application is in front."""
        return bool(self.app) and self.app == self.front_app

    @property
    def last_output(self) -> str:
        """The latest reading as the prompts show it; "" when the subtask read nothing."""
        return self.last_reading.shown() if self.last_reading is not None else ""

    def recent_history(self, count: int) -> list[str]:
        """The latest ``count`` lines of the history, as the prompts show them."""
        return history_text(self.history[-count:]) if count > 0 else []

    def values_for(self, target: type, *, besides: Collection[str] = ()) -> dict[str, Any]:
        """The context's values (fields and properties) for the fields of the dataclass
        ``target`` named like them, but those in ``besides``: an input made for a step takes
        what the step knows under the same name as the step has it."""
        names = field_names(target)
        return {
            name: getattr(self, name)
            for name in names
            if name not in besides and hasattr(self, name)
        }

    def missing_outputs(self) -> list[str]:
        """The subtask's named values not reported yet."""
        return [name for name in self.outputs_needed if name not in self.answers]
