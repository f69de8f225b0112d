"""An extracted value that a typed parameter takes: the extraction records that use.

Why: the 1.5B Manager names an extraction loosely ("text", "the text of the memo") and then
passes its value to a parameter that takes a time of day. The extraction's model, told only
those words, copied the memo's first line; ``set_alarm`` refused it as no time of day, and the
re-plan looped to the step cap (a rewording of pc01, 2026-12-04). Which value goes where is in
the program's references, and what that parameter takes is in the skill's schema: both typed,
neither read from the person's words. Each extraction whose named value a later step passes
whole to such a parameter gets it in its ``uses`` (``{"text": "set_alarm.time"}``): the model
is then told, beside the value's name, where it goes and what that parameter takes, and the
parameter's type checks the reply, which is asked again with the refusal
(:mod:`pcagent.skills.typed_replies`). The model still chooses the value; the text it is chosen
from still has to hold it. The ``what`` stays as the Manager wrote it.

Only parameters that refuse a plain sentence are recorded (a time, a date, a number, a list, a
choice): a text parameter says nothing of a value's kind. A value used inside a longer text is
not; the first typed use of a value is its use.
"""

from __future__ import annotations

from pydantic import JsonValue

from pcagent.agents.program import SLOT, Program, ProgramStep, is_reference
from pcagent.skills import SkillCatalog
from pcagent.skills.typed_replies import refuses_sentences

#: The skill whose named values a model picks out of a text, and its arguments.
_EXTRACT, _NAMES, _USES = "extract_values", "names", "uses"


def with_extraction_uses_told(program: Program, catalog: SkillCatalog) -> Program:
    """``program`` with each extraction's ``uses`` naming the typed parameters its values go
    to; ``program`` itself when none goes to one, or each is recorded already."""
    if _EXTRACT not in catalog:
        return program
    names = {
        step.id: step.args[_NAMES]
        for step in program.steps
        if step.skill == _EXTRACT and isinstance(step.args.get(_NAMES), list)
    }
    uses: dict[str, dict[str, str]] = {}
    for step in program.steps:
        if step.skill not in catalog:
            continue
        fields = catalog.get(step.skill).parameters.model_fields
        for parameter, value in step.args.items():
            source, key = whole_reference(value)
            field = fields.get(parameter)
            if (
                source in names
                and source != step.id
                and key in names[source]  # type: ignore[operator]
                and field is not None
                and refuses_sentences(field)
            ):
                uses.setdefault(source, {}).setdefault(key, f"{step.skill}.{parameter}")
    steps = [_told(step, uses.get(step.id, {})) for step in program.steps]
    return program if steps == program.steps else program.model_copy(update={"steps": steps})


def _told(step: ProgramStep, uses: dict[str, str]) -> ProgramStep:
    """``step`` with ``uses`` recorded (a use recorded already is kept)."""
    if not uses:
        return step
    given = step.args.get(_USES)
    recorded = {**uses, **given} if isinstance(given, dict) else uses
    args = {**step.args, _USES: recorded}
    return step if args == step.args else step.model_copy(update={"args": args})


def whole_reference(value: JsonValue) -> tuple[str, str]:
    """(step id, key) of an argument that is one reference and nothing else: a reference
    object, or a text that is one slot without an item; ("", "") otherwise."""
    if is_reference(value):
        return str(value["from"]), str(value.get("key") or "")  # type: ignore[index,union-attr]
    if isinstance(value, str) and (match := SLOT.fullmatch(value.strip())) and not match[3]:
        return match[1], match[2] or ""
    return "", ""
