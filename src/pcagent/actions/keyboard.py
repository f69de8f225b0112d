"""Keyboard actions: typing text, pressing one key, pressing a chord.

Key names are checked when the action is built (:mod:`pcagent.actions.keys`), so a model hears
about an unknown key at once instead of the desktop failing on it later.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from pcagent.action_base import ActionBase, Int
from pcagent.actions.keys import KeyName, keysym_for_pydantic, normalize_key
from pcagent.actions.pointer import PointerAction

#: Longest text one ``type`` action may type (about three pages; 100 kB took 36 s to type, and a
#: model that produces that much is rambling, not typing).
MAX_TYPED_CHARACTERS = 10_000


class TypeText(PointerAction):
    """Type text at the keyboard focus, clicking (x, y) first if given; no Enter is added."""

    kind: Literal["type"] = "type"
    text: str = Field(
        min_length=1, max_length=MAX_TYPED_CHARACTERS, description="Exact text to type."
    )
    x: Int | None = Field(None, ge=0, description="Column to click first; give with y or omit.")
    y: Int | None = Field(None, ge=0, description="Row to click first; give with x or omit.")

    @model_validator(mode="after")
    def _both_coordinates_or_neither(self) -> TypeText:
        if (self.x is None) != (self.y is None):
            given = "x" if self.y is None else "y"
            raise PydanticCustomError(
                "coordinates_incomplete",
                "give both x and y (the point to click before typing) or neither; got only {given}",
                {"given": given},
            )
        return self


class Hotkey(ActionBase):
    """Press keys together as one chord, e.g. ["ctrl", "shift", "s"]."""

    kind: Literal["hotkey"] = "hotkey"
    # A tuple, not a list, so the frozen action stays hashable (page-graph edges, sets).
    keys: tuple[str, ...] = Field(
        min_length=1, description='Key names, one per item, modifiers first, e.g. ["ctrl", "s"].'
    )

    @field_validator("keys")
    @classmethod
    def _known_distinct_keys(cls, keys: tuple[str, ...]) -> tuple[str, ...]:
        # One check over the whole tuple: per-item validators make pydantic add a confusing
        # "at least 1 item" error when the only item is bad.
        seen: dict[str, str] = {}
        for name in keys:
            keysym = keysym_for_pydantic(name)
            if keysym in seen:
                raise PydanticCustomError(
                    "repeated_key",
                    "{key} repeats {first} in the chord; list each key once",
                    {"key": repr(name), "first": repr(seen[keysym])},
                )
            seen[keysym] = name
        return keys

    def keysyms(self) -> list[str]:
        """The keys as X keysyms, in order, ready for ``xdotool key``."""
        return [normalize_key(name) for name in self.keys]


class Press(ActionBase):
    """Press and release one key, times times in a row."""

    kind: Literal["press"] = "press"
    key: KeyName = Field(description='Key name, e.g. "enter", "tab", "down", "f5", "a".')
    times: Int = Field(1, ge=1, le=100, description="How many times to press it, 1 to 100.")

    def keysym(self) -> str:
        """The key as an X keysym, ready for ``xdotool key``."""
        return normalize_key(self.key)
