"""Scripted models per agent role, for orchestration tests (never the only test of an agent)."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from pcagent.agents.manager_memory import Example
from pcagent.agents.program import ProgramStep
from pcagent.models.backends.scripted import Scripted, ScriptedBackend
from pcagent.models.structured import StructuredChatModel


def reply(**fields: Any) -> str:
    """A model reply: the fields as one JSON object."""
    return json.dumps(fields)


def decision(action: dict[str, Any], reasoning: str = "next step", **extra: Any) -> str:
    return json.dumps({"reasoning": reasoning, "action": action, **extra})


class ScriptedModels:
    """One scripted backend per role ("manager", "decision", ...); implements AgentModels."""

    def __init__(self, **scripts: list[Scripted]) -> None:
        self.backends = {role: ScriptedBackend(items) for role, items in scripts.items()}

    def for_role(self, role: str) -> StructuredChatModel:
        backend = self.backends.setdefault(role, ScriptedBackend())
        return StructuredChatModel(backend, validation_retries=1)

    def push(self, role: str, *items: Scripted) -> None:
        self.backends.setdefault(role, ScriptedBackend()).push(*items)

    def prompts(self, role: str) -> list[str]:
        """The user-message text of every request the role's model received."""
        backend = self.backends.get(role)
        if backend is None:
            return []
        return [request.messages[-1].text for request in backend.requests]


@dataclass
class RecordedAsk:
    """One call of memory as the Manager makes it: the instruction and the filters."""

    instruction: str
    k: int
    using: tuple[str, ...]
    covering: list[list[str]]
    avoiding: set[str]
    preferring: Callable[[Sequence[ProgramStep]], bool] | None


@dataclass
class RecordingMemory:
    """Memory's programs as the Manager asks for them (``Remembers``): each call is kept;
    ``reply`` is given back where the call names skills (``using``: a re-ask's example),
    ``first`` otherwise."""

    reply: Sequence[Example] = ()
    first: Sequence[Example] = ()
    asks: list[RecordedAsk] = field(default_factory=list)

    def __call__(
        self,
        instruction: str,
        k: int = 3,
        using: Collection[str] = (),
        covering: Sequence[Collection[str]] = (),
        avoiding: Collection[str] = (),
        preferring: Callable[[Sequence[ProgramStep]], bool] | None = None,
    ) -> Sequence[Example]:
        groups = [sorted(group) for group in covering]
        self.asks.append(
            RecordedAsk(instruction, k, tuple(using), groups, set(avoiding), preferring)
        )
        return self.reply if using else self.first
