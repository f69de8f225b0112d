"""Which value found goes in a form's field, asked of a model alone where the program typed
words nobody gave and left several values found unused; the field then refers to the value.

Why: told to search booking.com for the journey in a mail, the 1.5B Manager read the mail,
extracted ``city``, ``destination`` and ``date``, and filled the form's "From" with "Lisbon"
and its "Date" with "2025-09-01", an example's values, leaving all three values found unused
(pc16, 2026-12-06; its rewording pc16r2 the same with "Lisbon" and "Berlin"). Both doubts were
raised (values unused, words nobody gave) and the re-asks, and the step asked for alone, wrote
the literals again; the search was for another journey. Code puts a lone unused value in a lone
such field (:func:`pcagent.agents.invented_cells.with_unused_value_in_ungiven_field`), but with
several of each, which goes where is a question about words: "From" is the departure city, not
the destination, and a mend that guessed sent two searches the wrong way round (pc16 and pc25,
2026-12-05).

So each field of such a form that holds a literal, or one of the values found, is asked about
alone (:mod:`choice_readings`' agent), in the form's order: the instruction, the field's label
and what it holds, and as options the names of the values found before the form that no field
before it holds, and "none of them", twice, the options in both orders; a field takes a value
only where both answers name it. The form is changed only where no value then fills two
fields: else it stays as written, with its doubts.
Why the values some step uses, and the fields that refer to one too: offered only the values
no step used, the model had one option besides "none" on a re-plan of pc16r2 at 561bbf0, where
the Manager had put the departure city in "To" and "Lisbon" in "From"; it named the
destination for "From" in both orders, the search went from Paris to Berlin, and the run said
"finished". The form is asked about where a field of it holds a word of letters or a date that
neither the instruction nor a value found gives, after a step that found values no step uses.
A field whose text is one slot (``"{s2.city}"``) refers to that value, as a reference does,
and is asked about as the value it holds, not as typed text.
Not asked where every field refers to a value found, however wrongly: on pc25's re-plan at
561bbf0 (the destination in "From", the departure city in "To") the 1.5B model, asked about
each field, named the value the field held in both orders of the options, and asked without
it, named "departure" (the date) for "From" (2026-12-06).
Models read the words (the label and the values' names); code only sets the references a model
chose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import JsonValue

from pcagent.agents.choice_readings import ChoiceQuestion, ReadsChoice
from pcagent.agents.given_values import given_parameters
from pcagent.agents.program import SLOT, Program, ProgramStep, is_reference
from pcagent.agents.ungiven_names import BOX_STATES, ungiven_words_typed
from pcagent.agents.unused_values import finds_named_values, unused_names
from pcagent.skills import SkillCatalog
from pcagent.text import dates_in

#: The answer that leaves a field as written.
NONE = ""
#: Most fields of one form asked about (two questions each).
MOST_FIELDS = 4


@dataclass(frozen=True)
class Shown:
    """What a field holds, as its question shows it: ``text``, and whether it is a literal
    typed into the field (shown quoted) or a value found that the field refers to."""

    text: str
    literal: bool

    @property
    def verb(self) -> str:
        return "is typed" if self.literal else "holds"


def with_found_fields_read(
    program: Program,
    catalog: SkillCatalog,
    read: ReadsChoice,
    instruction: str,
    given: Sequence[str],
) -> Program:
    """``program`` with the literal fields of each form that holds words nobody gave
    referring to the unused values found before it that a model names for them, in both
    orders; ``program`` itself where nothing changes."""
    steps, changed = list(program.steps), False
    for index, step in enumerate(steps):
        for name, holds in given_parameters(catalog, step.skill).items():
            fields = step.args.get(name)
            if holds != "form" or not isinstance(fields, list):
                continue
            if not _unused_before(steps, index, catalog):
                continue
            if not any(_ungiven(field, given) for field in fields):
                continue
            found = _found_before(steps, index, catalog)
            filled = _fields_read(step, name, fields, found, read, instruction, catalog)
            if filled != fields:
                steps[index] = step = step.model_copy(update={"args": {**step.args, name: filled}})
                changed = True
    return program.model_copy(update={"steps": steps}) if changed else program


def _unused_before(
    steps: Sequence[ProgramStep], index: int, catalog: SkillCatalog
) -> list[tuple[str, str]]:
    """The values found by name before step ``index`` that no later step refers to, as
    (step id, name), in the program's order."""
    left = []
    for at, step in enumerate(steps[:index]):
        names = finds_named_values(step, catalog)
        left += [(step.id, one) for one in unused_names(step, steps[at + 1 :], names)]
    return left


def _found_before(
    steps: Sequence[ProgramStep], index: int, catalog: SkillCatalog
) -> list[tuple[str, str]]:
    """Every value found by name before step ``index``, as (step id, name), in order."""
    return [(step.id, one) for step in steps[:index] for one in finds_named_values(step, catalog)]


def _ungiven(field: Any, given: Sequence[str]) -> bool:
    """Whether a form field's literal holds a word of letters or a date nobody gave."""
    value = field.get("value") if isinstance(field, dict) else None
    if not isinstance(value, str):
        return False
    written = set().union(*(dates_in(text) for text in given)) if given else set()
    return bool(ungiven_words_typed(value, given)) or bool(dates_in(value) - written)


def _literal(field: Any) -> bool:
    """Whether a field holds a literal text a value found could stand for (no reference, no
    slot standing for one, no check box's state, not empty)."""
    value = field.get("value") if isinstance(field, dict) else None
    if not isinstance(value, str) or SLOT.fullmatch(value.strip()):
        return False
    return value.strip().casefold() not in BOX_STATES | {""}


def _fields_read(
    step: ProgramStep,
    name: str,
    fields: list[Any],
    found: list[tuple[str, str]],
    read: ReadsChoice,
    instruction: str,
    catalog: SkillCatalog,
) -> list[Any]:
    """``fields`` with each field the readings give a value found referring to it (at most
    :data:`MOST_FIELDS` fields asked about, in order, each offered the values no field before
    it holds); ``fields`` as written where a value would then fill two fields."""
    filled = [dict(field) if isinstance(field, dict) else field for field in fields]
    asked = [at for at, field in enumerate(fields) if _shown(field, found)][:MOST_FIELDS]
    described = catalog.get(step.skill).description
    for at in asked:
        # A value an earlier field holds is offered no more: the 1.5B model, offered the
        # departure city for "To" after "From" took it, named it for both (pc16, 2026-12-06).
        held = {pair for field in filled[:at] if (pair := _found_in(field, found))}
        free = [pair for pair in found if pair not in held]
        if not free:
            continue
        label, shown = str(filled[at].get("label", "")), _shown(filled[at], found)
        if shown is None:
            continue
        once, twice = (
            field_question(step.skill, described, name, label, shown, free, reverse)
            for reverse in (False, True)
        )
        chosen = read(instruction, once)
        if chosen and read(instruction, twice) == chosen:
            source, key = str(chosen).split(".", 1)
            if _found_in(filled[at], found) != (source, key):  # a slot for it stays a slot
                filled[at]["value"] = {"from": source, "key": key}
    taken = [pair for field in filled if (pair := _found_in(field, found))]
    return fields if len(taken) != len(set(taken)) else filled


def _shown(field: Any, found: list[tuple[str, str]]) -> Shown | None:
    """What a field holds, as its question shows it: its literal text quoted, or the value
    found it refers to; None for a field not asked about (a check box's state, another
    value)."""
    if _literal(field):
        return Shown(repr(field["value"]), literal=True)
    pair = _found_in(field, found)
    return Shown(f"the value {pair[1]} (found by step {pair[0]})", literal=False) if pair else None


def _found_in(field: Any, found: list[tuple[str, str]]) -> tuple[str, str] | None:
    """The value found that ``field`` refers to (a reference, or a text that is one slot
    ``{sN.key}``), as (step id, name); None for another."""
    value = field.get("value") if isinstance(field, dict) else None
    slot = SLOT.fullmatch(value.strip()) if isinstance(value, str) else None
    if slot is not None and slot.group(3) is None:
        pair = (slot.group(1), slot.group(2) or "")
    elif is_reference(value):
        pair = (str(value.get("from")), str(value.get("key") or ""))
    else:
        return None
    return pair if pair in found else None


def field_question(
    skill: str,
    description: str,
    parameter: str,
    label: str,
    shown: Shown,
    found: list[tuple[str, str]],
    reverse: bool = False,
) -> ChoiceQuestion:
    """The question for one field (``label`` of the form ``parameter``), holding ``shown``:
    which of the values ``found`` (step id, name) it takes, or none;
    ``reverse``: the options the other way round, "none of them" first (a question of its
    own, read apart)."""
    options: list[tuple[JsonValue, str]] = [
        (f"{source}.{key}", f"{key} (a value step {source} found)") for source, key in found
    ]
    options.append((NONE, f"none of them: keep {shown.text}"))
    if reverse:
        options.reverse()
    return ChoiceQuestion(
        skill=skill,
        description=description,
        # the reading is kept per instruction under this: the field, what it holds, the order
        parameter=f"{parameter}: {label}={shown.text} from {[v for v, _ in options]}",
        question=(
            f"The form's field {label!r} {shown.verb} {shown.text} as the program is written. "
            "Which value found does the instruction want in that field?"
        ),
        options=tuple(options),
    )
