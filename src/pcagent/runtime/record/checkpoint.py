"""The agents' state between steps, saved in every step's record.

Everything the run loop needs to continue lives here, as plain JSON: the plan, which subtask is
running under which role, the Progress account, the hub, the last reflection, failure counters.
Resuming a killed run or rewinding to step k loads the checkpoint of that step and goes on; no
agent keeps state anywhere else.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, JsonValue

from pcagent.agents.plan import SubtaskSpec
from pcagent.env.protocol import Desktops, Environment
from pcagent.errors import RunStateError
from pcagent.field_names import shared_values
from pcagent.step_context import Reading, StepContext, StepLine

SubtaskStatus = Literal["pending", "running", "done", "failed"]
Outcome = Literal["", "finished", "unverified", "failed", "stopped"]
"""How a run ended: ``finished`` only when every subtask's effect was checked and found done;
``unverified`` when all subtasks ended done but some only by the agents' word."""


class RunCheckpoint(BaseModel):
    """What the agents know after a step (step 0: after planning)."""

    instruction: str
    subtasks: list[SubtaskSpec] = Field(default_factory=list)
    status: dict[str, SubtaskStatus] = Field(default_factory=dict)
    plan_fallback: bool = False
    current: str | None = None
    role: str | None = None
    declined: list[str] = Field(default_factory=list)
    progress: str = ""
    answers: dict[str, str] = Field(default_factory=dict)
    hub: dict[str, str] = Field(default_factory=dict)
    #: Each finished step's value, typed, for the program's references (``{"from": "s1"}``).
    values: dict[str, JsonValue] = Field(default_factory=dict)
    #: Each finished subtask: whether a check of its effect passed (a skill's, an application
    #: action's) rather than the agents' word alone.
    verified: dict[str, bool] = Field(default_factory=dict)
    reflection: str = ""
    #: The running subtask's steps, typed (the prompts show them rendered as text).
    history: list[StepLine] = Field(default_factory=list)
    #: What the latest action that read something returned (a document's paragraphs, a page's
    #: text), kept for the next decisions of the same subtask.
    last_reading: Reading | None = None
    #: The subtask's longest reading so far: a page read before a download's one-line message
    #: replaced it. What the hub keeps of the subtask.
    richest_reading: Reading | None = None
    #: The latest action of the subtask, when it was an application action that read its effect
    #: back and found it done ("" once any other action follows).
    verified_effect: str = ""
    guidance: str = ""
    consecutive_failures: int = 0
    replans: int = 0
    recent_actions: list[str] = Field(default_factory=list)
    apps_opened: list[str] = Field(default_factory=list)
    tokens: int = 0
    #: Files a step destroyed that could not be put back (bigger than the snapshot's limit): the
    #: run cannot end done while any is listed.
    lost_files: list[str] = Field(default_factory=list)
    outcome: Outcome = ""
    summary: str = ""

    @property
    def reading(self) -> str:
        """What the subtask read, longest first; "" when it read nothing."""
        kept = self.richest_reading or self.last_reading
        return kept.text if kept is not None else ""

    @property
    def last_output(self) -> str:
        """The latest reading as the prompts show it (``step 4, browser_read: ...``)."""
        return self.last_reading.shown() if self.last_reading is not None else ""

    def keep_reading(self, reading: Reading) -> None:
        """``reading`` as the latest, and as the richest when it is at least as long."""
        self.last_reading = reading
        richest = self.richest_reading
        if richest is None or len(reading.text) >= len(richest.text):
            self.richest_reading = reading

    def step_context(
        self, number: int, subtask: SubtaskSpec, text: str, role: str, front_app: str, window: str
    ) -> StepContext:
        """What step ``number`` of ``subtask`` knows, frozen: ``text`` is the subtask as the
        agents are told it, ``front_app`` and ``window`` what is in front when it starts."""
        given = {
            "number": number,
            "subtask_id": subtask.id,
            "subtask": text,
            "task": self.instruction,
            "role": role,
            "front_app": front_app,
            "window": window,
            "app": subtask.app,
            "outputs_needed": subtask.outputs,
        }
        # the rest is the run's state as the checkpoint holds it: history, hub, answers, ...
        # (StepContext freezes the lists it is given)
        return StepContext(**given, **shared_values(self, StepContext, besides=given))

    def subtask(self, subtask_id: str) -> SubtaskSpec:
        for subtask in self.subtasks:
            if subtask.id == subtask_id:
                return subtask
        raise KeyError(subtask_id)

    def ready(self) -> list[SubtaskSpec]:
        """Pending subtasks whose dependencies are done and whose inputs are in the hub."""
        return [
            subtask
            for subtask in self.subtasks
            if self.status.get(subtask.id) == "pending"
            and all(self.status.get(d, "done") == "done" for d in subtask.depends_on)
            and all(name in self.hub for name in subtask.inputs)
        ]

    def start_subtask(self, subtask_id: str) -> None:
        self.current = subtask_id
        self.status[subtask_id] = "running"
        self.role = None
        self.declined = []
        self.progress = ""
        self.answers = {}
        self.reflection = ""
        self.history = []
        self.last_reading = None
        self.richest_reading = None
        self.verified_effect = ""
        self.consecutive_failures = 0
        self.recent_actions = []

    def end_subtask(self, status: SubtaskStatus) -> None:
        if self.current is not None:
            self.status[self.current] = status
        self.current = None
        self.role = None


def check_desktops(checkpoint: RunCheckpoint, environment: Environment) -> None:
    """A run whose plan works on several desktops goes on only with those desktops: on one
    desktop its other subtasks would silently act on the wrong one. Raises
    :class:`~pcagent.errors.RunStateError` naming the missing ones."""
    named = {s.environment for s in checkpoint.subtasks if s.environment}
    have = set(environment.members) if isinstance(environment, Desktops) else set()
    missing = sorted(named - have)
    if missing:
        raise RunStateError(
            f"this run's plan works on the desktops {sorted(named)}, and this one has "
            f"{sorted(have) or 'a single desktop'} (missing {missing}); go on with the same "
            "desktops"
        )
