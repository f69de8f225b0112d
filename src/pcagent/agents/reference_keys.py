"""A reference's key that the step it names does not give, mended where only one reading fits.

A small planner writes ``{"from": "s3", "key": "text"}`` for a step whose value is one value (a
file's text, a search's page), or ``"key": "ratings"`` where the step extracted one value named
``rating``. The program is refused and re-asked, and the re-ask often changes something else.
Where the step gives one value, the key can only mean that value, and is dropped; where it
gives an object of one field, the key can only mean that field. A key among several fields that
names none of them stays a problem the Manager is asked about: which one it meant is its to say.

A reference written as a text ("from:s2" where ``{"from": "s2"}`` was meant; seen in a spreadsheet
row on a generated task of seed 2029, which then held the words "from:s2") is made the
reference it names, when it names an earlier step: as a text it can only be a slip.

So is a text that is word for word what an earlier step extracting one value says that value is
(``what``): told to fill a form's "To" with the place s2 extracted as "the place where John is
meeting", the 1.5B Manager wrote those words as the value (a rewording of pc02, 2026-11-28). It
becomes a reference to that value.

A key written after a slot's brace (``"{s2}.city"`` where ``"{s2.city}"`` was meant; the 1.5B
Manager filled a booking form's "From" so, and the form got the whole object followed by
".city": pc16, 2026-11-28) is put inside it, where the step named gives that field.

A key the step named does not give, and that exactly one earlier extraction gives under that
name, refers to that extraction: told to type a paper's abstract after saving it in a document,
the 1.5B Manager wrote ``{"from": "s4", "key": "abstract"}`` with s4 the document's save (whose
value is the path) and s3 the extraction of ``abstract``; with the key dropped, the path was
typed (a rewording of pc10, 2026-12-03). Not where the step named works one value out
(``shift_time``, ``calculate``): its value is there to be used, and the key is dropped. Told
to set an alarm an hour before a memo's entry, the 1.5B Manager extracted ``text``, moved it
an hour back, and set the alarm at ``{"from": "s3", "key": "text"}``; sent to the extraction,
the alarm skipped the hour, the moved time went unused and the program was refused (a
rewording of pc01, 2026-12-04).

So, last, is a text that is exactly the name under which one earlier step extracted a value
(``"start"`` where s2 extracted ``names: ["start", "end", "dates"]``): the 1.5B Manager filled a
booking form's "Origin" with the word "start" (a rewording of pc25, 2026-11-28). Not in another
extraction's ``names`` or ``what``, nor as a ``label`` (a form field's or an item's name may be
the same word as a value's: "Origin" beside a value named ``origin``), nor where two steps
extracted values of that name. Such a name with an item's place after it (``"dates[0]"``, where
s2 extracted ``dates``) is that item of the value, the slot ``"{s2.dates[0]}"``: the same
Manager filled the form's "Departure Date" with the text "dates[0]" (a rewording of pc25,
2026-12-03).
"""

from __future__ import annotations

import re
from typing import Any

from pcagent.agents.program import STEP_AND_KEY, Program, ProgramStep, value_keys
from pcagent.agents.step_ids import changed_step
from pcagent.skills import SkillCatalog
from pcagent.text import folded


def with_keys_mended(program: Program, catalog: SkillCatalog) -> Program:
    """``program`` with each key that can mean only one thing made to say it."""
    fields: dict[str, frozenset[str] | None] = {}
    described: dict[str, dict[str, str]] = {}  # folded ``what`` -> the reference to its value
    named: dict[str, dict[str, str] | None] = {}  # folded name -> its reference (None: two)
    steps: list[ProgramStep] = []

    worked_out: set[str] = set()  # steps that work one value out: it is there to be used

    def mended(source: str, key: str) -> tuple[str, str]:
        if not key or source not in fields:
            return source, key
        given = fields[source]
        elsewhere = None if source in worked_out else named.get(folded(key))
        if (given is None or key not in given) and elsewhere is not None:
            return elsewhere["from"], elsewhere["key"]
        if given is None:
            return source, ""
        if key not in given and len(given) == 1:
            return source, next(iter(given))
        return source, key

    for step in program.steps:
        known = {**{k: v for k, v in named.items() if v is not None}, **described}
        args = {  # another extraction's ``what`` may say what an earlier one's says
            name: _keys_inside(
                _references_of_texts(value, set(fields), {} if name in _OWN else known), fields
            )
            for name, value in step.args.items()
        }
        step = step.model_copy(update={"args": args})
        steps.append(changed_step(step, mended))
        fields[step.id] = value_keys(step, catalog)
        if fields[step.id] is None and step.skill in catalog and catalog.get(step.skill).computes:
            worked_out.add(step.id)
        names, what = step.args.get("names"), step.args.get("what")
        if isinstance(names, list) and len(names) == 1 and isinstance(what, str) and what:
            described[folded(what)] = {"from": step.id, "key": str(names[0])}
        for name in names if isinstance(names, list) and isinstance(what, str) else []:
            key = folded(str(name))
            named[key] = None if key in named else {"from": step.id, "key": str(name)}
    return Program(steps=steps)


#: A slot with its key written after the brace: ``{s2}.city``.
_KEY_OUTSIDE = re.compile(r"\{(s[0-9]{1,2})\}\.([a-z][a-z0-9_]{0,39})")


def _keys_inside(value: Any, fields: dict[str, frozenset[str] | None]) -> Any:
    """``value`` with each ``{sN}.key`` whose step gives the field ``key`` made ``{sN.key}``."""

    def inside(match: re.Match[str]) -> str:
        step, key = match.groups()
        given = fields.get(step)
        return f"{{{step}.{key}}}" if given and key in given else match.group(0)

    if isinstance(value, str):
        return _KEY_OUTSIDE.sub(inside, value)
    if isinstance(value, dict):
        return {k: _keys_inside(item, fields) for k, item in value.items()}
    if isinstance(value, list):
        return [_keys_inside(item, fields) for item in value]
    return value


#: An extraction's own arguments: the names and the description of what it extracts.
_OWN = ("names", "what")


#: A value's name with an item's place after it: ``dates[0]``.
_NAMED_ITEM = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_ ]{0,39}?)\s*\[([0-9])\]\s*")
#: A key a slot can hold (``SLOT``'s).
_SLOT_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")


def _item_of_named(value: str, described: dict[str, Any]) -> str | None:
    """The slot of the item ``value`` names by a value's name and its place, where one earlier
    step extracted a value of that name; None otherwise."""
    written = _NAMED_ITEM.fullmatch(value)
    reference = described.get(folded(written.group(1))) if written else None
    key = reference.get("key", "") if isinstance(reference, dict) else ""
    if written is None or not _SLOT_KEY.fullmatch(key):
        return None
    return f"{{{reference['from']}.{key}[{written.group(2)}]}}"  # type: ignore[index]


#: A reference written as a text: ``from:s2``, ``from: s2.price``.
_WRITTEN_REFERENCE = re.compile(rf"\s*from\s*:\s*{STEP_AND_KEY}\s*")


def _references_of_texts(value: Any, earlier: set[str], described: dict[str, Any]) -> Any:
    """``value`` with each text that is a reference to an earlier step, or the description of
    a value one extracted, made that reference."""
    if isinstance(value, str):
        if (reference := described.get(folded(value))) is not None:
            return dict(reference)
        if (item := _item_of_named(value, described)) is not None:
            return item
        written = _WRITTEN_REFERENCE.fullmatch(value)
        if written is None or written.group(1) not in earlier:
            return value
        source, key = written.groups()
        return {"from": source, "key": key} if key else {"from": source}
    if isinstance(value, dict) and "from" in value:
        # A reference already: its key is the name of a value by rights (mended as a text, the
        # key "time" of {"from": "s2", "key": "time"} became a reference inside the reference,
        # and every program that referred to a value by its name was refused: pc03, 2026-11-29).
        return value
    if isinstance(value, dict):  # a label names a field or an item, whatever its words
        return {
            k: item if k == "label" else _references_of_texts(item, earlier, described)
            for k, item in value.items()
        }
    if isinstance(value, list):
        return [_references_of_texts(item, earlier, described) for item in value]
    return value
