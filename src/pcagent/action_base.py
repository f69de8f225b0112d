"""What every action shares: the base model, where it runs, and the small field types.

Kept apart from :mod:`pcagent.actions` (the GUI actions and the union of all actions) and
:mod:`pcagent.app_actions` (actions carried out through an application's own interface), so that
both define their classes on the same base and the union can list them all.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import BaseModel, BeforeValidator, ConfigDict
from pydantic_core import PydanticCustomError

ActionSite = Literal["desktop", "perception", "application", "skill", "run", "human"]
"""Where an action is carried out: on the desktop (the environment's executor), by the perception
layer (which turns it into desktop input of its own), through an application's own interface
(the environment's application interfaces), by a skill (:mod:`pcagent.skills`, which carries out
actions of its own), by the run loop (reports and endings), or by the
person at the computer."""


def _reject_bool(value: Any) -> Any:
    """Pydantic hook: pydantic takes ``true`` as 1, but a coordinate of ``true`` is a mistake."""
    if isinstance(value, bool):
        raise PydanticCustomError("int_type", "Input should be a valid integer, not a boolean")
    return value


Int = Annotated[int, BeforeValidator(_reject_bool)]
"""An integer that refuses booleans."""


def _require_kind(schema: dict[str, Any]) -> None:
    """``kind`` has a default for Python callers, but a model must always send it; its
    description ("Always "click".") is said here once for every action."""
    required = [name for name in schema.get("required", []) if name != "kind"]
    schema["required"] = ["kind", *required]
    properties = schema.get("properties", {})
    kind = properties.get("kind")
    if kind is None:
        return
    if "description" not in kind:
        kind["description"] = f"Always {json.dumps(kind.get('const', kind.get('default')))}."
    # ``kind`` first, also where a base class declares fields before it: a grammar follows the
    # schema's order, and a model that writes the kind first has chosen the action.
    schema["properties"] = {"kind": kind, **properties}


class ActionBase(BaseModel):
    """Shared configuration: unknown fields are errors and actions are immutable (hashable)."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_require_kind)

    terminal: ClassVar[bool] = False
    """True for actions that end the run."""

    runs_on: ClassVar[ActionSite] = "desktop"
    """Where the action is carried out (see :data:`ActionSite`); the run layer dispatches on it."""

    settles: ClassVar[bool] = True
    """True when the desktop should wait for the screen to stop changing after the action (not
    for actions that wait by themselves or change nothing on the screen)."""

    only_looks: ClassVar[bool] = False
    """True for an application action that opens, reads or navigates: its check says it did so,
    not that anything a task asks for was changed, so it verifies no subtask's ``done``."""

    belongs_to: ClassVar[str | None] = None
    """The one application (logical name) an application action belongs to; None for GUI and
    meta actions."""

    def points(self) -> list[tuple[int, int]]:
        """Screen points this action touches; none for keyboard and meta actions."""
        return []

    def map_points(self, transform: Callable[[int, int], tuple[int, int]]) -> Self:
        """A copy with each point of :meth:`points` replaced by ``transform(x, y)``, validated
        again (so a negative result raises ``ValidationError``); the action itself when it has no
        points. How a point in a downscaled image's pixels becomes a screen pixel."""
        return self

    def sensitivity(self) -> tuple[str, str] | None:
        """``(category, reason)`` when carrying out this action is sensitive by itself, whatever
        the screen shows (sending a mail through the mail client's interface); None otherwise.
        The safety guard treats the category like those of its rules (``[safety] allow``)."""
        return None
