"""A program's own references changed in place: ``{"from": "s2", "key": "k"}`` arguments and
``{s2}`` / ``{s2.key}`` slots in texts.

Three places change what a reference names after the Manager wrote it: a re-plan whose new
steps repeat the ids of old pending ones (:mod:`pcagent.runtime.loop.replan_merge`), a program
whose repeated call is dropped for the first one (:mod:`pcagent.agents.repeated_steps`), and a
key that the step it names does not give (:mod:`pcagent.agents.reference_keys`). Each must
reach every reference, in objects and in texts, at any depth.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from pydantic import JsonValue

from pcagent.agents.program import SLOT, ProgramStep, is_reference

#: How a reference changes: (step id, key or "") -> (step id, key or "").
Change = Callable[[str, str], tuple[str, str]]


def changed_text(text: str, change: Change) -> str:
    """``text`` with each ``{sN}`` / ``{sN.key}`` slot changed."""

    def slot(match: re.Match[str]) -> str:
        source, key = change(match.group(1), match.group(2) or "")
        item = f"[{match.group(3)}]" if match.group(3) else ""
        return "{" + source + (f".{key}" if key else "") + item + "}"

    return SLOT.sub(slot, text)


def changed_value(value: JsonValue, change: Change) -> JsonValue:
    """An argument with each of its references and slots changed, at any depth."""
    if is_reference(value):
        source, key = change(str(value["from"]), str(value.get("key") or ""))  # type: ignore[index,union-attr]
        return {"from": source, "key": key} if key else {"from": source}
    if isinstance(value, str):
        return changed_text(value, change)
    if isinstance(value, dict):
        return {name: changed_value(item, change) for name, item in value.items()}
    if isinstance(value, list):
        return [changed_value(item, change) for item in value]
    return value


def changed_args(args: Mapping[str, JsonValue], change: Change) -> dict[str, JsonValue]:
    """A step's arguments with :func:`changed_value` applied to each."""
    return {name: changed_value(value, change) for name, value in args.items()}


def changed_step(step: ProgramStep, change: Change) -> ProgramStep:
    """A program step with the references of its arguments, its GUI task's slots and the steps
    it uses changed."""
    return step.model_copy(
        update={
            "args": changed_args(step.args, change),
            "uses": list(dict.fromkeys(change(used, "")[0] for used in step.uses)),
            "task": changed_text(step.task, change),
        }
    )


def renaming(renames: Mapping[str, str]) -> Change:
    """The change that moves references of renamed steps to their new ids."""
    return lambda source, key: (renames.get(source, source), key)


def renamed_text(text: str, renames: Mapping[str, str]) -> str:
    """``text`` with each slot of a renamed step renamed."""
    return changed_text(text, renaming(renames))


#: How a step's line (:func:`~pcagent.agents.program.step_text`) names another step besides its
#: slots: a call's reference, ``<s2>`` or ``<s2.key>``, and a screen step's ``[s2: {s2}]``.
_LINE_NAME = re.compile(r"(?<=<)s[0-9]{1,2}(?=[.>])|(?<=\[)s[0-9]{1,2}(?=: )")


def renamed_line(line: str, renames: Mapping[str, str]) -> str:
    """A subtask's description (its step's line) with every name of a renamed step renamed:
    after a re-plan's ids were moved, lines still said "tell_user(text=<s3>)" where the call
    took s6, and a screen step's Decision agent read "[s3: {s5}]" (records of the 50 at
    79126f2, 2026-12-07). The line is pcagent's own, never a person's words."""
    line = renamed_text(line, renames)
    return _LINE_NAME.sub(lambda found: renames.get(found.group(0), found.group(0)), line)


def renamed_args(args: Mapping[str, JsonValue], renames: Mapping[str, str]) -> dict[str, JsonValue]:
    """A step's arguments with the references to renamed steps renamed."""
    return changed_args(args, renaming(renames))


def next_step_number(ids: Sequence[str]) -> int:
    """The number after the highest of the step ids ``sN`` (1 when there are none)."""
    numbers = [int(i[1:]) for i in ids if i[:1] == "s" and i[1:].isdigit()]
    return max(numbers, default=0) + 1
