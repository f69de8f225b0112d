"""The typed contents of a run record: runs, steps, step results, reflections, calls, events.

Everything stays a pydantic object from the agents to the database and back: a step's action is
an :data:`~pcagent.actions.Action`, its result a :class:`StepResult`, its reflection a
:class:`ReflectionRecord`, its checkpoint a :class:`RunCheckpoint`. The store
(:mod:`pcagent.runtime.record.store`) only serialises them; records written by older versions are
upgraded on open (:mod:`pcagent.runtime.record.schema`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from pcagent.actions import Action
from pcagent.env.observation import ActionResult
from pcagent.env.protocol import OpenWindow
from pcagent.errors import InvalidActionError, error_names
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.events import Event

RunStatus = Literal["running", "finished", "unverified", "failed", "stopped", "interrupted"]
Verdict = Literal["success", "no_change", "unexpected_change"]


class RoleModel(BaseModel):
    """The model that answered an agent role in a run: its profile (``[models.profiles]``; ""
    where the models were not built from one) and the backend's name
    (``local:smollm2-135m``, ``openai:gpt-4o-mini``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    profile: str = ""
    model: str


#: The key of a run's settings under which each role's :class:`RoleModel` is kept.
MODELS_SETTING = "models"


def role_models(settings: Mapping[str, Any]) -> dict[str, RoleModel]:
    """Each role's model as a run's settings record it; {} for a run that recorded none (runs
    of older versions, or settings written by other tools in another shape)."""
    recorded = settings.get(MODELS_SETTING)
    if not isinstance(recorded, Mapping):
        return {}
    found = {}
    for role, value in recorded.items():
        if isinstance(value, Mapping):
            try:
                found[str(role)] = RoleModel.model_validate(value)
            except ValidationError:
                continue  # not this version's shape: the viewer falls back to other keys
    return found


class RunRecord(BaseModel):
    """One recorded run (a row of ``runs``), as it was when read."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    run_id: str
    instruction: str
    status: RunStatus
    #: Unix seconds.
    created_at: float
    updated_at: float
    #: How the run was configured: mode, ablation, model names, limits, the environment... (JSON).
    settings: dict[str, Any]
    #: Final outcome in words; empty while running.
    summary: str = ""
    #: For a run created by rewinding another: that run, and the step it continued from.
    parent_run: str | None = None
    parent_step: int | None = None
    #: Number of completed steps recorded.
    steps: int = 0
    #: Prompt + completion tokens of every recorded model call.
    tokens: int = 0

    @property
    def models(self) -> dict[str, RoleModel]:
        """Each agent role's model, as recorded when the role first asked (see
        :func:`role_models`)."""
        return role_models(self.settings)


class StepResult(BaseModel):
    """What carrying out a step's action came to.

    ``refused`` is True when the action was stopped before it ran (outside the role's domain, or
    by the safety guard); ``error`` names the exception type when one stopped it.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    ok: bool
    message: str = ""
    error: str | None = None
    refused: bool = False
    #: The text of an ``answer`` action.
    answer: str | None = None
    #: The person's reply to ``ask_human``.
    reply: str | None = None
    #: What an application action read, for the agent to see.
    output: str | None = None
    #: A skill's value, typed (``output`` holds it as text).
    value: JsonValue = None
    #: The application action (or skill) read its effect back and found it done.
    verified: bool = False
    finished: bool = False
    settled: bool = True
    duration_ms: float = 0.0

    @classmethod
    def of(cls, result: ActionResult) -> StepResult:
        """The record of what an environment reported: each of its fields, by the same name."""
        return cls(**result.model_dump())

    @classmethod
    def failure(cls, error: BaseException, *, refused: bool = False) -> StepResult:
        return cls(ok=False, message=str(error), error=type(error).__name__, refused=refused)

    @property
    def untouched(self) -> bool:
        """The action was stopped before it ran: refused, or invalid here (an
        :class:`InvalidActionError`, of any kind, is raised before anything is executed)."""
        return self.refused or (
            self.error is not None and self.error in error_names(InvalidActionError)
        )


class ReflectionRecord(BaseModel):
    """Reflection's verdict on a step, and whether a model was asked for it (identical screens
    are judged ``no_change`` without one)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    verdict: Verdict
    reason: str = ""
    asked_model: bool = False
    #: Where a check decided and the model was asked as well (``run.reflection_second_opinion``):
    #: the model's verdict, kept beside the check's, which stands.
    model_verdict: Verdict | None = None
    model_reason: str = ""

    @property
    def failed(self) -> bool:
        return self.verdict != "success"


class UnsavedFile(BaseModel):
    """A document that had unsaved changes after a step; its contents are kept as ``file`` in
    the step's ``unsaved/`` folder (``pcagent runs restore-unsaved`` brings them back)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    app: str
    title: str
    #: The file it was opened from or saved as (relative to HOME); "" for a new document.
    document: str = ""
    file: str


class StepRecord(BaseModel):
    """One completed step: what was seen, decided, done and judged, and the state to resume from."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    #: 1-based.
    step: int = Field(ge=1)
    subtask_id: str = ""
    role: str = ""
    #: The Decision agent's reasoning.
    thought: str = ""
    action: Action | None = None
    result: StepResult | None = None
    reflection: ReflectionRecord | None = None
    progress: str = ""
    hub: dict[str, str] = Field(default_factory=dict)
    #: The agents' checkpoint after the step: what resume and rewind restore.
    state: RunCheckpoint | None = None
    #: The element listing shown to Decision.
    listing: str = ""
    #: The application in front when Decision looked ("" when none of the environment's).
    front_app: str = ""
    #: The title of the window in front when Decision looked ("" when none): with the listing,
    #: what the page graph (:mod:`pcagent.experience`) learns a screen by.
    window: str = ""
    #: The desktop the step looked at and acted on, in a run across several desktops (""
    #: for a run on one): every action of a subtask goes to the desktop its subtask names.
    environment: str = ""
    #: Open application windows after the step.
    apps: list[OpenWindow] = Field(default_factory=list)
    #: Documents with unsaved changes after the step (their contents are files of the step).
    unsaved: list[UnsavedFile] = Field(default_factory=list)
    #: Id of the HOME snapshot taken after the step
    #: (see :mod:`pcagent.runtime.safety.home_snapshot`).
    home_snapshot: str | None = None
    #: Unix seconds.
    started_at: float = 0.0
    duration_ms: float = 0.0
    tokens: int = 0
    error: str | None = None


class CallAttempt(BaseModel):
    """One backend call inside a structured call: the request and completion as the model layer
    records them (images replaced by their hashes), and why the reply was rejected, if it was."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    request: dict[str, Any]
    completion: dict[str, Any]
    failure: str | None = None


class ModelCallRecord(BaseModel):
    """One structured model call: one agent asking once, with every attempt it took."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    #: The step the call belongs to; 0 for calls before the first step (the first plan).
    step: int = Field(ge=0)
    #: ``"manager"``, ``"decision"``, ``"reflection"``...
    agent: str
    attempts: list[CallAttempt]
    ok: bool
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    #: Unix seconds; 0 means "now" when added.
    created_at: float = 0.0


class RunEvent(BaseModel):
    """One event of a run, at a step (0: before the first step)."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    step: int = Field(ge=0)
    event: Event
    #: Unix seconds; 0 means "now" when added.
    created_at: float = 0.0

    @property
    def kind(self) -> str:
        return self.event.kind
