"""The scheduler (COLA): hands each subtask to a role from the pool.

The model chooses among the roles' capability descriptions; its reply schema only allows the
names of the candidates. A role that answers "not mine" is excluded and the subtask is assigned
again. When no model is given, or its answer is unusable, the role whose applications include the
subtask's app is taken, then the launcher.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from functools import cache
from typing import ClassVar, Literal

from pydantic import BaseModel, Field, create_model

from pcagent.agents.base import Agent
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.prompting import render
from pcagent.agents.roles import Role, RolePool
from pcagent.errors import AgentError
from pcagent.models.messages import Message


@cache
def choice_schema(names: tuple[str, ...]) -> type[BaseModel]:
    return create_model(
        "RoleChoice",
        role=(Literal[names], Field(description="Name of the chosen specialist.")),  # type: ignore[valid-type]
        reason=(str, Field("", max_length=200, description="Why, in a few words.")),
    )


@dataclass(frozen=True)
class Assignment:
    role: str
    reason: str
    asked_model: bool


@dataclass
class Scheduler(Agent):
    pool: RolePool = field(default_factory=RolePool)
    name: ClassVar[str] = "scheduler"

    def assign(
        self, subtask: SubtaskSpec, exclude: Collection[str] = (), step: int | None = None
    ) -> Assignment:
        """The role for ``subtask``, never one in ``exclude``. Raises :class:`AgentError` when
        every role has been excluded."""
        candidates = [role for role in self.pool if role.name not in exclude]
        if not candidates:
            raise AgentError(
                f"no role is left for subtask {subtask.id}: every role declined it "
                f"({', '.join(exclude)})"
            )
        if len(candidates) == 1:
            return Assignment(candidates[0].name, "the only role left", False)
        if subtask.skill and not subtask.app:
            # A skill of no application (a computation, a language step) takes no GUI action.
            return Assignment(candidates[0].name, f"{subtask.skill} works in no application", False)
        owner = self._owner(subtask, candidates)
        if owner is not None:
            # The subtask's application decides: the model, asked anyway, gave "write them
            # into a new text file" to the office role, which cannot use the text editor.
            return Assignment(owner, f"the role of {subtask.app}", False)
        roles = "\n".join(f"- {role.name}: {role.capability}" for role in candidates)
        system, user = render(
            "scheduler", roles=roles, subtask=subtask.description, app=subtask.app or "(none)"
        )
        schema = choice_schema(tuple(role.name for role in candidates))
        result = self.ask([Message.system(system), Message.user(user)], schema, step)
        if result.value is not None:
            value = result.value
            return Assignment(value.role, value.reason, True)  # type: ignore[attr-defined]
        by_app = self.pool.for_app(subtask.app) if subtask.app else None
        if by_app is not None and by_app.name not in exclude:
            return Assignment(by_app.name, f"works with {subtask.app}", True)
        return Assignment(candidates[0].name, "fallback: first role left", True)

    def _owner(self, subtask: SubtaskSpec, candidates: Collection[Role]) -> str | None:
        """The one specialised role left whose applications include the subtask's; None when
        the subtask names none, or several roles of as few applications hold it."""
        if not subtask.app:
            return None
        holding = [role for role in candidates if subtask.app in role.apps]
        if not holding:
            return None
        fewest = min(len(role.apps) for role in holding)
        best = [role for role in holding if len(role.apps) == fewest]
        return best[0].name if len(best) == 1 else None


def rule_assignment(pool: RolePool, subtask: SubtaskSpec, exclude: Collection[str] = ()) -> str:
    """The role by application alone (used without a scheduler model)."""
    by_app = pool.for_app(subtask.app) if subtask.app else None
    if by_app is not None and by_app.name not in exclude:
        return by_app.name
    for role in pool:
        if role.name not in exclude:
            return role.name
    raise AgentError(f"no role is left for subtask {subtask.id}")


__all__ = ["Assignment", "Scheduler", "choice_schema", "rule_assignment"]
