"""Step ids renamed inside a program's own references: ``{"from": "s2"}`` arguments and
``{s2}`` / ``{s2.key}`` slots in texts.

Two places move a step's id after the Manager wrote it: a re-plan whose new steps repeat the
ids of old pending ones (:mod:`pcagent.runtime.loop.replan_merge`), and a program whose repeated
call is dropped for the first one (:mod:`pcagent.agents.repeated_steps`). Both must take every
reference along, or a step waits for, or reads, a value that never comes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pydantic import JsonValue

from pcagent.agents.program import SLOT, is_reference


def renamed_text(text: str, renames: Mapping[str, str]) -> str:
    """``text`` with each ``{sN}`` / ``{sN.key}`` slot of a renamed step renamed."""

    def slot(match: re.Match[str]) -> str:
        source, key = match.group(1), match.group(2)
        return "{" + renames.get(source, source) + (f".{key}" if key else "") + "}"

    return SLOT.sub(slot, text)


def renamed_value(value: JsonValue, renames: Mapping[str, str]) -> JsonValue:
    """An argument with its references and slots to renamed steps renamed, at any depth."""
    if is_reference(value):
        reference = dict(value)  # type: ignore[arg-type]
        source = str(reference["from"])
        reference["from"] = renames.get(source, source)
        return reference
    if isinstance(value, str):
        return renamed_text(value, renames)
    if isinstance(value, dict):
        return {key: renamed_value(item, renames) for key, item in value.items()}
    if isinstance(value, list):
        return [renamed_value(item, renames) for item in value]
    return value


def renamed_args(args: Mapping[str, JsonValue], renames: Mapping[str, str]) -> dict[str, JsonValue]:
    """A step's arguments with :func:`renamed_value` applied to each."""
    return {name: renamed_value(value, renames) for name, value in args.items()}
