"""A referenced value that its parameter refuses, read again from the line it was found on.

A language step picks named values out of a text; a small model often names the wrong part of a
line ("the second event" gives the event's title, where the alarm that uses it needs the time
beside it). The line the value stands on is evidence the text holds, not a guess, so when a
skill's parameter refuses the value and accepts that line (a time of day among words, a number
with its label), the call goes on with the line. Nothing here reads the user's words: the
parameter's type decides, and only the one line of the step's own source text that holds the
value is tried (:func:`~pcagent.agents.evidence.whole_line`, as Progress widens its values).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, JsonValue, TypeAdapter, ValidationError

from pcagent.agents.evidence import whole_line
from pcagent.agents.filled_values import resolve
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.program import is_reference
from pcagent.errors import PlanError


def _accepted(adapter: TypeAdapter[Any], value: object) -> bool:
    try:
        adapter.validate_python(value)
    except ValidationError:
        return False
    return True


def source_text(step: SubtaskSpec | None, values: Mapping[str, JsonValue]) -> str:
    """The text a step read its values from: its ``text`` argument, resolved ("" if none)."""
    if step is None or "text" not in step.args:
        return ""
    try:
        text = resolve({"text": step.args["text"]}, values)["text"]
    except PlanError:
        return ""
    return text if isinstance(text, str) else ""


def widened_to_lines(
    args: Mapping[str, JsonValue],
    resolved: dict[str, Any],
    parameters: type[BaseModel],
    steps: Sequence[SubtaskSpec],
    values: Mapping[str, JsonValue],
) -> tuple[dict[str, Any], list[str]]:
    """``resolved`` with each refused referenced value replaced by its accepted source line,
    and a note per replacement (for the step's record)."""
    by_id = {step.id: step for step in steps}
    widened = dict(resolved)
    notes = []
    for name, raw in args.items():
        field = parameters.model_fields.get(name)
        value = resolved.get(name)
        if field is None or not is_reference(raw) or not isinstance(value, str):
            continue
        adapter = TypeAdapter(field.rebuild_annotation())
        if _accepted(adapter, value):
            continue
        source = source_text(by_id.get(raw["from"]), values)  # type: ignore[index,call-overload]
        line = whole_line(value, source)
        if line != value and _accepted(adapter, line):
            widened[name] = line
            notes.append(f"{name}: {value!r} read as its line {line!r}")
    return widened, notes
