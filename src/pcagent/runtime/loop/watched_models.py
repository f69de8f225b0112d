"""The agents' models as a run uses them: each call told to :class:`~pcagent.runtime.loop.progress.Progress`
as a wait, and the model each agent role got noted for the run record; the models the skills
and the text selector ask report each call to the record as the agents do theirs.

Why here and not in the agents: every agent asks its model through
:class:`~pcagent.runtime.loop.parts.AgentModels`, so wrapping that one object covers every call of
every agent, and what the record says is what answered (the backend's own name), not what a
configuration file meant to choose.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, Unpack, runtime_checkable

from pydantic import BaseModel

from pcagent.agents.base import CallSink
from pcagent.models.backend import BackendInfo
from pcagent.models.messages import Message
from pcagent.models.structured import AskOptions, ChatModel, StructuredResult
from pcagent.runtime.loop.parts import AgentModels
from pcagent.runtime.loop.progress import Progress, model_call
from pcagent.runtime.record.models import RoleModel

T = TypeVar("T", bound=BaseModel)


@runtime_checkable
class NamesProfiles(Protocol):
    """Models that know which profile of ``[models.profiles]`` a role uses (the router does;
    a test's scripted models need not)."""

    def profile_name(self, role: str) -> str: ...


@dataclass
class _Wrapping:
    """A model around ``inner``, which answers as it and is named as it."""

    inner: ChatModel

    @property
    def info(self) -> BackendInfo:
        return self.inner.info


@dataclass
class WatchedModel(_Wrapping):
    """One role's model; every :meth:`ask` is a wait of kind ``model_call``, and first tells
    ``asking`` (the role's model is then noted as used)."""

    role: str
    profile: str
    progress: Progress
    asking: Callable[[], None] = lambda: None

    def ask(
        self, messages: Sequence[Message], schema: type[T], **options: Unpack[AskOptions]
    ) -> StructuredResult[T]:
        self.asking()
        with self.progress.waiting(model_call(self.role, self.profile, self.inner.info.name)):
            return self.inner.ask(messages, schema, **options)


@dataclass
class WatchedModels:
    """``inner``'s models, watched; ``on_new_role`` is called the first time a role asks its
    model (and again should it ask another). A role whose model is fetched but never asked is
    not noted: the record names the models that answered."""

    inner: AgentModels
    progress: Progress
    on_new_role: Callable[[str, RoleModel], None] = lambda _role, _model: None
    #: The model each role asked so far.
    used: dict[str, RoleModel] = field(default_factory=dict)

    def for_role(self, role: str) -> WatchedModel:
        model = self.inner.for_role(role)
        profile = self.inner.profile_name(role) if isinstance(self.inner, NamesProfiles) else ""
        chosen = RoleModel(profile=profile, model=model.info.name)

        def asking() -> None:
            if self.used.get(role) != chosen:
                self.used[role] = chosen
                self.on_new_role(role, chosen)

        return WatchedModel(model, role, profile, self.progress, asking)


@dataclass
class ReportedModel(_Wrapping):
    """A model asked outside the agents (the language skills' ``composer``, the text
    selector's ``select``) whose every call goes to ``sink`` under the role it was asked as,
    like an agent's. Why: those calls were answered and never recorded, so a run's calls, its
    tokens and its token budget left out every extraction, composition and translation."""

    sink: CallSink

    def ask(
        self, messages: Sequence[Message], schema: type[T], **options: Unpack[AskOptions]
    ) -> StructuredResult[T]:
        result = self.inner.ask(messages, schema, **options)
        self.sink(options.get("role") or "model", result)
        return result


def reported_role(models: AgentModels, role: str, sink: CallSink) -> Callable[[], ChatModel]:
    """The model of ``role``, fetched when first needed, its calls reported to ``sink``."""
    return lambda: ReportedModel(models.for_role(role), sink)
