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
choice): a text parameter says nothing of a value's kind; the first typed use of a value is its
use. A value put into a longer text (a search's words, a request) records that text instead, in
the extraction's ``within``, with "___" where the value goes: the Manager's own words around
it say what the value is for where its name does not (a key of a memo's text named "label"
became an extraction of "the label", answered with the memo's first line, and searched for as
the way "from the Empire State Building to ___": a rewording of pc02, 2026-12-05).
"""

from __future__ import annotations

from pydantic import JsonValue

from pcagent.agents.program import SLOT, Program, ProgramStep, is_reference
from pcagent.skills import SkillCatalog
from pcagent.skills.typed_replies import refuses_sentences
from pcagent.text import shortened

#: The skill whose named values a model picks out of a text, and its arguments.
_EXTRACT, _NAMES, _USES, _WITHIN = "extract_values", "names", "uses", "within"
#: Longest text shown as where a value goes (the skill's bound is 240).
_WITHIN_CHARS = 200


def with_extraction_uses_told(program: Program, catalog: SkillCatalog) -> Program:
    """``program`` with each extraction's ``uses`` naming the typed parameters its values go
    to, and its ``within`` the texts they are put into; ``program`` itself when none goes to
    one, or each is recorded already."""
    if _EXTRACT not in catalog:
        return program
    names = {
        step.id: step.args[_NAMES]
        for step in program.steps
        if step.skill == _EXTRACT and isinstance(step.args.get(_NAMES), list)
    }
    uses: dict[str, dict[str, str]] = {}
    within: dict[str, dict[str, str]] = {}
    for step in program.steps:
        if step.skill not in catalog:
            continue
        fields = catalog.get(step.skill).parameters.model_fields
        for parameter, value in step.args.items():
            source, key = _whole_reference(value)
            field = fields.get(parameter)
            if (
                source in names
                and source != step.id
                and key in names[source]  # type: ignore[operator]
                and field is not None
                and refuses_sentences(field)
            ):
                uses.setdefault(source, {}).setdefault(key, f"{step.skill}.{parameter}")
            elif not source and isinstance(value, str):
                for slot_source, slot_key, text in _slots_within(value):
                    if slot_source in names and slot_key in names[slot_source]:  # type: ignore[operator]
                        within.setdefault(slot_source, {}).setdefault(slot_key, text)
    steps = [
        _told(_told(step, uses.get(step.id, {}), _USES), within.get(step.id, {}), _WITHIN)
        for step in program.steps
    ]
    return program if steps == program.steps else program.model_copy(update={"steps": steps})


def _slots_within(text: str) -> list[tuple[str, str, str]]:
    """(step id, key, the text with "___" where that slot stands and "…" for the others) of
    each slot of ``text`` with a key and no item. Why the text: a value's name alone ("label")
    says nothing of what it is for; the words around its slot, the Manager's own, do."""
    found = []
    for match in SLOT.finditer(text):
        if not match[2] or match[3]:
            continue
        shown = text[: match.start()] + "___" + text[match.end() :]
        shown = shortened(SLOT.sub("…", shown), _WITHIN_CHARS)
        found.append((match[1], match[2], shown))
    return found


def _told(step: ProgramStep, told: dict[str, str], argument: str) -> ProgramStep:
    """``step`` with ``told`` recorded under ``argument`` (a value recorded already is
    kept)."""
    if not told:
        return step
    given = step.args.get(argument)
    recorded = {**told, **given} if isinstance(given, dict) else told
    args = {**step.args, argument: recorded}
    return step if args == step.args else step.model_copy(update={"args": args})


def _whole_reference(value: JsonValue) -> tuple[str, str]:
    """(step id, key) of an argument that is one reference and nothing else: a reference
    object, or a text that is one slot without an item; ("", "") otherwise."""
    if is_reference(value):
        return str(value["from"]), str(value.get("key") or "")  # type: ignore[index,union-attr]
    if isinstance(value, str) and (match := SLOT.fullmatch(value.strip())) and not match[3]:
        return match[1], match[2] or ""
    return "", ""
