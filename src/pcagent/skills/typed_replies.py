"""An extraction's reply checked by the parameter its value goes to.

Why: a value extracted under a loose name ("text", "the text of the memo") came back as the
memo's first line, and only the later step (``set_alarm``) refused it, after which the re-plan
looped (a rewording of pc01, 2026-12-04). Where the program passes a named value whole to a
typed parameter, its mends record that in the extraction's ``uses`` (``{"text":
"set_alarm.time"}``, :mod:`pcagent.agents.extraction_uses`). The model is told, beside the
value's name, where it goes and what that parameter takes (:func:`use_told`), and the reply's
field for that value is checked by that parameter's own type (and, where the type says how
such a value is written, :class:`~pcagent.skills.base.Written`, decoded under that pattern: a
time of day as "10:15"), so a reply it refuses is refused at once, and the model layer asks
again with the refusal, as with any reply that does not validate. The model still picks the
value, and the text must still hold it; the value passed on is as the text writes it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, TypeAdapter, ValidationError, create_model
from pydantic.fields import FieldInfo

from pcagent.skills.base import Written, declared_parameter
from pcagent.skills.lists import uncounted, without_marker
from pcagent.skills.numbers_written import NUMBER_WRITTEN, a_number_written
from pcagent.text import comparable, lines_holding

#: How a use is written: the skill and its parameter, ``"set_alarm.time"``.
USE_PATTERN = r"^[a-z][a-z0-9_]{0,39}\.[a-z][a-z0-9_]{0,39}$"
#: How a parameter's JSON type is named to the model (a text's is not: its description says).
_KINDS = {"integer": "a number", "number": "a number", "array": "a list", "boolean": "yes or no"}
#: A sentence no typed parameter takes: one that does is a text parameter.
_SENTENCE = "a plain sentence of several words"


def reply_model(
    names: list[str],
    uses: Mapping[str, str],
    text: str,
    numbers: Collection[str] = (),
    backwards: bool = False,
) -> type[BaseModel]:
    """The reply's shape: each named value a text; a value with a use also taken by it, or
    standing on the one line of ``text`` that it takes; a value whose use says how it is
    written, one of those ``text`` writes so (:func:`held_as_written`; ``backwards``: offered
    in the other order), else any so written; one of ``numbers`` (without a use that says how
    it is written) written as a number (:data:`NUMBER_WRITTEN`)."""
    fields: dict[str, Any] = {}
    for name in names:
        use = uses.get(name, "")
        parameter = _parameter(use)
        listed = list_bounds(parameter[1]) if parameter is not None else None
        if parameter is not None and listed is not None:
            fields[name] = (_list_reply(parameter[0], parameter[1], listed), ...)
            continue
        check = taken_by(use, text) or (a_number_written if name in numbers else None)
        checks = (AfterValidator(check),) if check is not None else ()
        held = held_as_written(written_as(use), text)[:: -1 if backwards else 1]
        if held:
            fields[name] = (Annotated[Literal[held], *checks], ...)  # type: ignore[valid-type]
            continue
        written = written_as(use) or (NUMBER_WRITTEN if name in numbers else "")
        bounds = Field(min_length=1, max_length=500, **({"pattern": written} if written else {}))
        fields[name] = (Annotated[str, bounds, *checks], ...)
    return create_model("Extracted", **fields)


#: The most values of a written kind a reply chooses among; a text that holds more is
#: answered under the kind's pattern.
MOST_HELD = 30


def held_as_written(pattern: str, text: str) -> tuple[str, ...]:
    """The values ``text`` writes in ``pattern`` (a :class:`Written` pattern, its anchors
    dropped), each once, in order; () where it writes none or more than :data:`MOST_HELD`.
    Why: under the pattern of a time of day alone, asked for "the text of the memo" whose
    value goes to a time, the 1.5B model answered "20:00", which the memo does not hold,
    twice in each of five runs of one rewording of pc01 (2026-12-03 to 2026-12-07); the
    reply's grammar now offers only the times the memo writes."""
    if not pattern:
        return ()
    # Not inside a longer number or a date: "31.38" is no time of "131.38", "11.03" none of
    # "11.03.2025".
    inner = re.compile(
        rf"(?<![0-9])(?<![0-9][.:])(?:{pattern.removeprefix('^').removesuffix('$')})(?!\.?[0-9])"
    )
    found = tuple(dict.fromkeys(match.group(0) for match in inner.finditer(text)))
    return found if len(found) <= MOST_HELD else ()


#: The most items a reply's list may hold (a parameter may take hundreds of paths; a value
#: picked out of a text is a few).
MOST_ITEMS = 20


def _parameter(use: str) -> tuple[str, TypeAdapter[Any], FieldInfo] | None:
    """The parameter ``use`` names, as told ("set_alarm's time"), its type's adapter and its
    field; None for a use no skill of pcagent's has."""
    field = declared_parameter(use) if use else None
    if field is None:
        return None
    skill_name, _, parameter = use.partition(".")
    return f"{skill_name}'s {parameter}", TypeAdapter(field.rebuild_annotation()), field


def list_bounds(adapter: TypeAdapter[Any]) -> tuple[int, int] | None:
    """The fewest and the most items of the list of texts a parameter of type ``adapter``
    takes; None where it takes no such list. Why: asked for "the three candidate places" a
    note lists, for a look-up of each (``web_search_each``'s things), the 1.5B model answered
    one place in one text, four times over, each refused, and the run went on without the
    extraction (a rewording of pc06, 2026-12-05); asked for a list, a model writes one."""
    schema = adapter.json_schema()
    for one in (schema, *schema.get("anyOf", ())):
        if one.get("type") == "array" and one.get("items", {}).get("type") == "string":
            return int(one.get("minItems", 1)), min(
                int(one.get("maxItems", MOST_ITEMS)), MOST_ITEMS
            )
    return None


def _list_reply(told: str, adapter: TypeAdapter[Any], bounds: tuple[int, int]) -> Any:
    """A reply's list of texts, each once, as many as the parameter (``told``, of type
    ``adapter``) takes, checked by its own type (each item read without its place in a
    counted list)."""

    def check(items: list[str]) -> list[str]:
        values = [_item_as_written(item) for item in items]
        if len({comparable(value) for value in values}) < len(values):
            raise ValueError("each item once: the list names one item twice")
        refusal = _refusal(adapter, values)
        if refusal:
            raise ValueError(f"this list goes to {told}, which refuses it: {refusal}")
        return values

    item = Annotated[str, Field(min_length=1, max_length=200)]
    return Annotated[
        list[item],  # type: ignore[valid-type]
        Field(min_length=bounds[0], max_length=bounds[1]),
        AfterValidator(check),
    ]


def replied_values(reply: BaseModel, names: list[str]) -> dict[str, str | list[str]]:
    """Each named value of ``reply``, as the text writes it: without its place in a counted
    list, a list's items each so."""
    values: dict[str, str | list[str]] = {}
    for name in names:
        value = getattr(reply, name)
        if isinstance(value, list):
            values[name] = [_item_as_written(str(item)) for item in value]
        else:
            values[name] = uncounted(str(value)).strip()
    return values


def _item_as_written(item: str) -> str:
    """A list's item without its place in a counted list ("[1st]") or the list's own numbering
    or bullet ("1. Singapore")."""
    return without_marker(uncounted(item)).strip()


def each_of(value: str | list[str]) -> list[str]:
    """A value's texts: a list's items, or the one text."""
    return value if isinstance(value, list) else [value]


def written_as(use: str) -> str:
    """The pattern a value of the parameter ``use`` names is written in (:class:`Written`);
    "" where its type declares none."""
    field = declared_parameter(use) if use else None
    if field is None:
        return ""
    marks = [mark for mark in field.metadata if isinstance(mark, Written)]
    return marks[0].pattern if marks else ""


def use_told(use: str) -> str:
    """What the model is told of a value's use: the parameter, its kind and its description
    ("goes to set_alarm's time: The time the alarm is about, e.g. \"10:15\"."); "" for a use
    no skill of pcagent's has."""
    field = declared_parameter(use)
    if field is None:
        return ""
    skill_name, _, parameter = use.partition(".")
    kind = _KINDS.get(str(TypeAdapter(field.rebuild_annotation()).json_schema().get("type")), "")
    said = "; ".join(part for part in (kind, field.description or "") if part)
    return f"goes to {skill_name}'s {parameter}" + (f": {said}" if said else "")


def refuses_sentences(field: FieldInfo) -> bool:
    """Whether a parameter is typed: it refuses a plain sentence (a time, a date, a number, a
    list, a choice do; a text does not, and says nothing of a value's kind)."""
    return bool(_refusal(TypeAdapter(field.rebuild_annotation()), _SENTENCE))


def taken_by(use: str, text: str = "") -> Callable[[str], str] | None:
    """A check that the parameter ``use`` names takes a value (as a list's counted item is
    read: without its place), or the one line of ``text`` the value stands on: words of a
    route, where its minutes are wanted, go on to the call, which reads the minutes off that
    line (:mod:`pcagent.agents.source_lines`). None for a use no skill of pcagent's has."""
    found = _parameter(use)
    if found is None:
        return None
    told, adapter, field = found
    wanted = field.description or "its own kind of value"

    def check(value: str) -> str:
        refusal = _refusal(adapter, uncounted(value).strip())
        if refusal and _refusal(adapter, _one_line(value, text)):
            raise ValueError(f"this value goes to {told} ({wanted}), which refuses it: {refusal}")
        return value

    return check


def taken_alike(use: str, one: str | list[str], other: str | list[str]) -> bool:
    """Whether two readings of a value are the same to the parameter ``use`` names: a page
    writes a holiday "Thursday, 1 May 2025" and "2025-05-01", and a choice between them is no
    choice of another date. Compared as written where no parameter of pcagent's takes it."""
    if one == other:
        return True
    found = _parameter(use)
    if found is None:
        return False
    adapter = found[1]
    try:
        return bool(adapter.validate_python(one) == adapter.validate_python(other))
    except ValidationError:
        return False


def _refusal(adapter: TypeAdapter[Any], value: object) -> str:
    """Why ``adapter`` refuses ``value``; "" when it takes it."""
    try:
        adapter.validate_python(value)
    except ValidationError as error:
        return str(error.errors()[0]["msg"]).removeprefix("Value error, ")
    return ""


def _one_line(value: str, text: str) -> str:
    """The one line of ``text`` that holds ``value``; "" when none or several do."""
    lines = lines_holding(uncounted(value), text)
    return lines[0] if len(lines) == 1 else ""


def asked_as(name: str, use: str, number: bool = False) -> str:
    """A value's name as the model is asked for it, with where it goes when a step takes it
    as a typed parameter (:func:`use_told`), or that it is a number."""
    told = use_told(use) if use else ("a number, as the text writes it" if number else "")
    return f"{name} ({told})" if told else name


def with_uses(failure: str, uses: dict[str, str]) -> str:
    """``failure``, with what each value taken by a typed parameter had to be: a travel time
    asked for where an alarm's time of day goes has no answer the text holds (pc03 at db209bf,
    2026-12-06: the re-plan was told only "no usable reply" and added a world clock)."""
    told = "; ".join(f"{name} {use_told(use)}" for name, use in uses.items() if use)
    return f"{failure} (asked as the steps that take them need: {told})" if told else failure
