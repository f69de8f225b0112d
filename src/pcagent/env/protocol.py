"""The contract between agents and whatever desktop they drive."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from pcagent.actions import Action
from pcagent.env.observation import ActionResult, Box, Observation, TextState


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


@runtime_checkable
class TextAccess(Protocol):
    """Exact text operations, for environments that can offer them (the sandbox through AT-SPI).

    The perception layer uses them to select text precisely; without them it falls back to OCR
    and mouse drags. ``element_id`` is an :attr:`Element.id` of the latest :meth:`observe`.
    """

    def text_state(self, element_id: int) -> TextState:
        """Live text, caret and selected ranges of one element."""
        ...

    def character_boxes(self, element_id: int, offsets: Sequence[int]) -> list[Box | None]:
        """Screen boxes of the characters at ``offsets`` (None where there is none)."""
        ...

    def select_text_range(self, element_id: int, start: int, end: int) -> bool:
        """Select characters [start, end) of one element; False if the application refused."""
        ...

    def primary_selection(self) -> str:
        """What is selected now, in any application (X11's PRIMARY selection); "" for nothing."""
        ...
