"""The contract between agents and whatever desktop they drive."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pcagent.actions import Action
from pcagent.env.observation import ActionResult, Observation


@runtime_checkable
class Environment(Protocol):
    """A desktop an agent can look at and act on.

    Implementations validate every action before executing it and raise
    :class:`pcagent.errors.InvalidActionError` without touching the desktop when it is impossible.
    """

    def observe(self) -> Observation:
        """Screenshot, windows and accessibility elements of the focused window, as of now."""
        ...

    def execute(self, action: Action) -> ActionResult:
        """Carry out one action and wait until the screen settles."""
        ...

    def reset(self) -> None:
        """Return to a pristine state: applications closed, HOME restored from its template."""
        ...

    def close(self) -> None:
        """Release everything; afterwards the environment cannot be used."""
        ...
