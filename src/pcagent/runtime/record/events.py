"""What happens around the steps of a run, as typed events (a union discriminated by ``kind``).

Events are the run's log of decisions that are not actions: the plan, role assignments, refusals,
escalations, re-plans, human interaction, restores, the end. Each kind is one small model here;
:class:`pcagent.runtime.record.models.RunEvent` wraps one with its run, step and time.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from pcagent.actions import Action
from pcagent.agents.plan import SubtaskSpec
from pcagent.env.protocol import OpenWindow
from pcagent.runtime.loop.human import Review
from pcagent.runtime.record.checkpoint import Outcome, RunCheckpoint
from pcagent.runtime.safety.guard import GuardVerdict


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PlanEvent(_Event):
    """The first plan, with the desktop before the first action (what replay and a rewind to
    step 0 start from)."""

    kind: Literal["plan"] = "plan"
    subtasks: list[SubtaskSpec]
    fallback: bool = False
    #: Why the Manager's programs were unusable, when ``fallback`` (the last validation error
    #: or model failure), so a record says what went wrong, not only that it did.
    problem: str = ""
    state: RunCheckpoint
    home_snapshot: str | None = None
    apps: list[OpenWindow] = Field(default_factory=list)


class AssignEvent(_Event):
    kind: Literal["assign"] = "assign"
    subtask: str
    role: str
    reason: str = ""


class DeclinedEvent(_Event):
    kind: Literal["declined"] = "declined"
    role: str
    subtask: str


class RefusedEvent(_Event):
    """An action stopped before execution (outside the role's domain, or by the safety guard)."""

    kind: Literal["refused"] = "refused"
    action: Action
    reason: str


class SensitiveEvent(_Event):
    """The guard saw a sensitive action (let through or not, asked or not)."""

    kind: Literal["sensitive"] = "sensitive"
    verdict: GuardVerdict


class AskedHumanEvent(_Event):
    kind: Literal["asked_human"] = "asked_human"
    question: str
    reply: str = ""


class ReviewEvent(_Event):
    """Proactive mode: the human's verdict on a step."""

    kind: Literal["review"] = "review"
    review: Review


class EscalateProgressEvent(_Event):
    kind: Literal["escalate_progress"] = "escalate_progress"
    failures: int


class DoneRefusedEvent(_Event):
    """A subtask's ``done`` was not accepted: the desktop or its account did not support it."""

    kind: Literal["done_refused"] = "done_refused"
    subtask: str
    reason: str


class AutoDoneEvent(_Event):
    """A subtask was finished without its ``done``: every value it must report was reported and
    the Decision agent repeated an action that had already succeeded."""

    kind: Literal["auto_done"] = "auto_done"
    subtask: str
    reason: str


class LoopEvent(_Event):
    kind: Literal["loop"] = "loop"
    action: str


class ReplanEvent(_Event):
    kind: Literal["replan"] = "replan"
    failed: str
    reason: str
    subtasks: list[SubtaskSpec] = Field(default_factory=list)


class ReopenedAppEvent(_Event):
    kind: Literal["reopened_app"] = "reopened_app"
    app: str
    documents: list[OpenWindow] = Field(default_factory=list)


class ReopenFailedEvent(_Event):
    kind: Literal["reopen_failed"] = "reopen_failed"
    app: str
    error: str


class RestoreEvent(_Event):
    """The desktop was put back as recorded after ``step`` (files, then applications)."""

    kind: Literal["restore"] = "restore"
    step: int
    files_written: int = 0
    files_removed: int = 0
    apps: list[str] = Field(default_factory=list)


class ResumeEvent(_Event):
    kind: Literal["resume"] = "resume"
    from_step: int


class RewindEvent(_Event):
    kind: Literal["rewind"] = "rewind"
    parent: str
    step: int
    role: str | None = None
    guidance: str = ""


class FinishEvent(_Event):
    kind: Literal["finish"] = "finish"
    outcome: Outcome
    summary: str
    #: The error that ended the run ("TYPE: message"); "" when the run ended by its own rules.
    error: str = ""


class EffectEvent(_Event):
    """A step changed what it was not asked to (files deleted or overwritten); whether the change
    was kept or put back, and why."""

    kind: Literal["effect"] = "effect"
    category: str
    paths: list[str]
    kept: bool
    reason: str
    #: Paths whose old content could not be put back (bigger than the snapshot's limit).
    lost: list[str] = Field(default_factory=list)


class MailEvent(_Event):
    """A message the mail client sent, held at the relay, and what the run did with it."""

    kind: Literal["mail"] = "mail"
    message_id: str
    recipients: list[str]
    subject: str = ""
    sent: bool
    reason: str


class NoteEvent(_Event):
    """Free text from a component that has no event kind of its own (a benchmark's remark, a
    tool's annotation)."""

    kind: Literal["note"] = "note"
    text: str = ""


Event = Annotated[
    PlanEvent
    | AssignEvent
    | DeclinedEvent
    | RefusedEvent
    | SensitiveEvent
    | AskedHumanEvent
    | ReviewEvent
    | EscalateProgressEvent
    | DoneRefusedEvent
    | AutoDoneEvent
    | LoopEvent
    | ReplanEvent
    | ReopenedAppEvent
    | ReopenFailedEvent
    | RestoreEvent
    | ResumeEvent
    | RewindEvent
    | FinishEvent
    | EffectEvent
    | MailEvent
    | NoteEvent,
    Field(discriminator="kind"),
]
"""Any event of a run."""
