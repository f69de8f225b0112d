"""An extracted value that a typed parameter takes: the extraction is told what that parameter
wants.

Why: the 1.5B Manager names an extraction loosely ("text", "the text of the memo") and then
passes its value to a parameter that takes a time of day. The extraction's model, told only
those words, copied the memo's first line; ``set_alarm`` refused it as no time of day, and the
re-plan looped to the step cap (a rewording of pc01, 2026-12-04). Which value goes where is in
the program's references, and what that parameter takes is in the skill's schema: both typed,
neither read from the person's words. Each extraction whose named value a later step passes
whole to such a parameter gets, after its ``what``, the parameter and its description
("event: the value of set_alarm's time, The time the alarm is about, e.g. \"10:15\"."), and
its ``uses`` records the parameter (``{"event": "set_alarm.time"}``), whose type then checks the
model's reply (:mod:`pcagent.skills.typed_replies`: a refused reply is asked again with the
refusal). The model still chooses the value; the text it is chosen from still has to hold it.

Only parameters that refuse a plain sentence are told (a time, a date, a number, a choice): a
text parameter says nothing of a value's kind. A value used inside a longer text is left as
written; a ``what`` that would grow past its bound keeps its words, and gets the ``uses``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import JsonValue, TypeAdapter, ValidationError

from pcagent.agents.program import SLOT, Program, ProgramStep, is_reference
from pcagent.skills import SkillCatalog
from pcagent.skills.base import Skill

#: The skill whose named values a model picks out of a text, and its arguments.
_EXTRACT, _NAMES, _WHAT, _USES = "extract_values", "names", "what", "uses"
#: The bound of an extraction's ``what`` (:class:`~pcagent.skills.language.ExtractValues`).
_WHAT_MOST = 500
#: How a parameter's JSON type is named to the model (a text's is not: its description says).
_KINDS = {"integer": "a number", "number": "a number", "array": "a list", "boolean": "yes or no"}
#: A sentence no typed parameter takes: one that does is a text parameter.
_SENTENCE = "a plain sentence of several words"


def with_extraction_uses_told(program: Program, catalog: SkillCatalog) -> Program:
    """``program`` with each extraction's ``what`` followed by the typed parameters its values
    go to; ``program`` itself when none goes to one."""
    if _EXTRACT not in catalog:
        return program
    extractions = {
        step.id: step
        for step in program.steps
        if step.skill == _EXTRACT and isinstance(step.args.get(_WHAT), str)
    }
    told: dict[str, list[str]] = {}
    uses: dict[str, dict[str, str]] = {}
    for step in program.steps:
        if step.skill not in catalog:
            continue
        skill = catalog.get(step.skill)
        for parameter, value in step.args.items():
            source, key = _whole_reference(value)
            if source not in extractions or step.id == source:
                continue
            wanted = _wanted(skill, parameter)
            names = extractions[source].args.get(_NAMES)
            if wanted and isinstance(names, list) and key in names:
                told.setdefault(source, []).append(
                    f"{key}: the value of {skill.name}'s {parameter}, {wanted}"
                )
                uses.setdefault(source, {}).setdefault(key, f"{skill.name}.{parameter}")
    if not told:
        return program
    steps = [_told(step, told.get(step.id, []), uses.get(step.id, {})) for step in program.steps]
    return program if steps == program.steps else program.model_copy(update={"steps": steps})


def _told(step: ProgramStep, told: list[str], uses: dict[str, str]) -> ProgramStep:
    """``step`` with the uses in its words (where they fit) and in its ``uses``."""
    if not told:
        return step
    what = str(step.args.get(_WHAT, ""))
    fresh = [use for use in dict.fromkeys(told) if use not in what]
    longer = "; ".join([what.rstrip(" .;"), *fresh])
    given = step.args.get(_USES)
    recorded = {**uses, **given} if isinstance(given, dict) else uses
    args = {**step.args, _USES: recorded}
    if fresh and len(longer) <= _WHAT_MOST:
        args[_WHAT] = longer
    return step if args == step.args else step.model_copy(update={"args": args})


def _whole_reference(value: JsonValue) -> tuple[str, str]:
    """(step id, key) of an argument that is one reference and nothing else: a reference
    object, or a text that is one slot without an item; ("", "") otherwise."""
    if is_reference(value):
        return str(value["from"]), str(value.get("key") or "")  # type: ignore[index,union-attr]
    if isinstance(value, str) and (match := SLOT.fullmatch(value.strip())) and not match[3]:
        return match[1], match[2] or ""
    return "", ""


def _wanted(skill: Skill[Any], parameter: str) -> str:
    """What ``parameter`` of ``skill`` takes, as its description says, where it is typed (it
    refuses a plain sentence); "" otherwise."""
    return _typed_description(skill.parameters, parameter)


@cache
def _typed_description(parameters: type[Any], name: str) -> str:
    field = parameters.model_fields.get(name)
    if field is None or not field.description:
        return ""
    adapter = TypeAdapter(field.rebuild_annotation())
    try:
        adapter.validate_python(_SENTENCE)
    except ValidationError:
        kind = _KINDS.get(str(adapter.json_schema().get("type")), "")
        return f"{kind}: {field.description}" if kind else field.description
    return ""
