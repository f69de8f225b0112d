"""Skills that compute with values already found: times, dates, extremes, order.

They need no application: the Manager passes the values (literals or earlier steps' results) and
the arithmetic is exact. Time offsets, date differences, the largest of several values and
sorting are parameters here, never parsed from a sentence.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    JsonValue,
    PrivateAttr,
    WithJsonSchema,
    model_validator,
)

from pcagent.skills.base import (
    SkillContext,
    SkillParameters,
    SkillResult,
    Written,
    choice,
    skill,
)
from pcagent.skills.common import as_lines
from pcagent.skills.numbers_written import DURATION, quantity_of, written_number
from pcagent.text import DATE_WRITTEN, date_written


def _one_time_in(text: str) -> str:
    """The one time of day in a value that holds more ("10:15  Call with the agency", as an
    extracted line reads); the text itself when it holds none or several."""
    words = text.replace("\u2236", ":").split()
    times = [
        index
        for index, word in enumerate(words)
        if ":" in word and word.replace(":", "", 1).rstrip(",;").isdigit()
    ]
    if len(times) != 1:
        return text
    index = times[0]
    after = words[index + 1].lower() if index + 1 < len(words) else ""
    return words[index].rstrip(",;") + (f" {after}" if after in ("am", "pm") else "")


def _clock_time(value: object) -> object:
    """Accept "9:15", "09:15", "9.15", "10:15 AM", "2:30 pm", and a value holding one such time
    among other words; give "HH:MM" (24-hour). A number is read as its text: passed on as it
    was, it became a string only after this check, and a population found by an earlier step
    reached the alarm as its time and ended the run on an internal error (a rewording of pc03
    without memory, 2026-12-07); now it is refused as no time of day."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return value
    text = _one_time_in(value.strip()).lower().replace(".", ":").replace("\u2236", ":")
    suffix = ""
    for marker in ("am", "pm"):
        if text.endswith(marker):
            suffix, text = marker, text[: -len(marker)].strip()
    hours, _, minutes = text.partition(":")
    if not (hours.isdigit() and (minutes.isdigit() or minutes == "")):
        raise ValueError(f"{value!r} is not a time of day such as 09:15")
    hour, minute = int(hours), int(minutes or 0)
    if suffix == "pm" and hour < 12:
        hour += 12
    if suffix == "am" and hour == 12:
        hour = 0
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise ValueError(f"{value!r} is not a time of day such as 09:15")
    return f"{hour:02d}:{minute:02d}"


ClockTime = Annotated[
    str, BeforeValidator(_clock_time), Written(r"^[0-9]{1,2}[:.][0-9]{2}( ?[AaPp][Mm])?$")
]
"""A time of day as "HH:MM" (24-hour); common spellings are accepted and normalised."""


#: Marks a parameter that moves the parameter ``time`` (an offset): a time moved by two steps
#: is a doubt (:mod:`pcagent.agents.moved_twice`), and so is an amount that neither the
#: instruction nor a value found gives, unless it is a unit of counting (``given: "offset"``:
#: an alarm set 15 hours before a meeting, the travel time to it never referred to; pc03,
#: 2026-11-28).
MOVES: dict[str, JsonValue] = {"moves": "time", "given": "offset"}

#: An amount of time as a page writes it: a number, its unit, maybe words after ("24 min by
#: tram"), and no other number ("2 h 49 min" is refused).
_AMOUNT = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-z]*)\.?(?:\s+[^\d]*)?", re.IGNORECASE)


def _amount_in(units: tuple[str, ...]) -> Callable[[object], object]:
    """A validator that reads an amount written with one of ``units`` (or none) as its number:
    a travel time found on a page ("24 min") moves an alarm by 24 minutes. Any other text is
    left for the field to refuse, so "1 hour" never counts as 1 minute."""

    def amount(value: object) -> object:
        if not isinstance(value, str) or not (match := _AMOUNT.fullmatch(value)):
            return value
        number, unit = match.groups()
        return float(number) if unit.lower() in ("", *units) else value

    return amount


Minutes = Annotated[int, BeforeValidator(_amount_in(("min", "mins", "minute", "minutes")))]
Hours = Annotated[float, BeforeValidator(_amount_in(("h", "hr", "hrs", "hour", "hours")))]


def shifted(time: str, minutes: int) -> str:
    """``time`` ("HH:MM") moved by ``minutes`` (negative: earlier), around midnight."""
    hour, minute = (int(part) for part in time.split(":"))
    total = (hour * 60 + minute + minutes) % (24 * 60)
    return f"{total // 60:02d}:{total % 60:02d}"


class ShiftTime(SkillParameters):
    """How far and which way, as a person says it: a signed number was the 1.5B model's to get
    wrong ("one hour before 10:15" written as ``hours: 1``: an alarm at 11:15, pc01r2), the word
    it copies from the instruction is not."""

    time: ClockTime = Field(description='A time of day, e.g. "10:15".')
    # Not marked as a choice (:func:`choice`): asked alone, the 1.5B model read "an alarm that
    # goes off one hour before it starts" as "later (after it)" and turned the planner's right
    # "before" into an alarm at 11:15, the run "finished" (a rewording of pc01, 2026-12-03); the
    # planner copies the instruction's own word here.
    direction: Literal["before", "after"] = Field(
        description='"before": earlier than the time ("an hour before 10:15"); "after": later.',
    )
    hours: Hours = Field(0, ge=0, le=24, description="How many hours.", json_schema_extra=MOVES)
    minutes: Minutes = Field(
        0,
        ge=0,
        le=1440,
        description="How many minutes, besides the hours.",
        json_schema_extra=MOVES,
    )


@skill(
    'A time of day moved earlier or later (an hour before 10:15: direction "before", hours 1).',
    returns='"HH:MM"',
    computes=True,
)
def shift_time(context: SkillContext, parameters: ShiftTime) -> SkillResult:
    minutes = round(parameters.hours * 60) + parameters.minutes
    if parameters.direction == "before":
        minutes = -minutes
    value = shifted(parameters.time, minutes)
    return SkillResult(True, value, evidence=f"{parameters.time} {minutes:+d} min")


#: The spellings of a date a person or a page writes.
_DATE_FORMS = ("%Y-%m-%d", "%d %B %Y", "%B %d, %Y", "%d %b %Y", "%b %d, %Y", "%d/%m/%Y")


def iso_date(value: object) -> object:
    """A date as a page or a person writes it, as ``YYYY-MM-DD``; ValueError for no date."""
    if isinstance(value, str):
        text = value.strip()
        # A page writes the weekday too ("Thursday, 1 May 2025": pc05, 2026-11-28).
        for form in (*_DATE_FORMS, *(f"%A, {form}" for form in _DATE_FORMS)):
            try:
                return dt.datetime.strptime(text, form).date().isoformat()
            except ValueError:
                continue
        # Every form a text's dates are offered in (:data:`DATE_WRITTEN`) is taken: "3rd of
        # March 2025", "Monday 3 March 2025".
        if (date := date_written(text)) is not None:
            return date.isoformat()
        raise ValueError(f"{value!r} is not a date such as 2025-03-11")
    return value


#: A date must be written in the instruction or a value found (see
#: :mod:`pcagent.agents.given_values`): a planner counted days between dates it made up.
IsoDate = Annotated[
    str,
    BeforeValidator(iso_date),
    # An extraction whose value goes here chooses among the dates its text writes, asked
    # both ways round (:mod:`~pcagent.skills.typed_replies`): asked for "the trip's date" in
    # a travel plan with a leaving and a back-home date, the 1.5B model wrote the back-home
    # date as "2025-03-10", and the run counted the days to it and said finished (a rewording
    # of pc23 at 79126f2, 2026-12-07).
    Written(DATE_WRITTEN),
    AfterValidator(dt.date.fromisoformat),
    Field(json_schema_extra={"given": "date"}),
]


class DaysBetween(SkillParameters):
    # Neither says "earlier" or "later": an extraction whose value goes to ``end`` is told its
    # description, and told "the later date" the 1.5B model took a trip's return for its start
    # (a travel plan with a leaving and a back-home date; a rewording of pc23, 2026-12-04).
    start: IsoDate = Field(description='The date the count runs from, e.g. "2025-03-11".')
    end: IsoDate = Field(description='The date the count runs to, e.g. "2025-04-01".')


@skill(
    "The number of days from one date to another (end minus start).",
    returns="integer",
    computes=True,
)
def days_between(context: SkillContext, parameters: DaysBetween) -> SkillResult:
    start = dt.date.fromisoformat(str(parameters.start))
    end = dt.date.fromisoformat(str(parameters.end))
    days = (end - start).days
    return SkillResult(True, days, evidence=f"{start} to {end}")


#: A number, or a text holding one: as people write it ("1,234.5", "$12"), or an earlier step's
#: value by its slot ("{s3.runtime_minutes}"). The grammar allows the text, so a program can
#: pick the largest of values it found; with a number alone it could only compare numbers it
#: wrote itself.
Number = Annotated[
    float,
    BeforeValidator(written_number),
    WithJsonSchema(
        {"anyOf": [{"type": "number"}, {"type": "string", "minLength": 1, "maxLength": 100}]}
    ),
]


class Item(SkillParameters):
    label: str = Field(min_length=1, max_length=200, description="What the value belongs to.")
    value: Number = Field(description="Its number.")
    #: How results give a length of time of two units: as written ("5 h 5 min", not 305). One
    #: of one unit is given as the number written, as before lengths of time compared by their
    #: minutes ("169 min" is 169, a running time a later step writes into a cell).
    _shown: JsonValue = PrivateAttr(None)

    @model_validator(mode="wrap")
    @classmethod
    def _keeps_how_it_was_written(cls, data: object, handler: Callable[[object], Item]) -> Item:
        item = handler(data)
        written = data.get("value") if isinstance(data, dict) else None
        if isinstance(written, str) and (length := DURATION.fullmatch(quantity_of(written))):
            hours, minutes = length.groups()
            if hours is not None and minutes is not None:
                item._shown = quantity_of(written)
            elif hours is not None or minutes is not None:
                item._shown = plain_number(float(hours or minutes))
        return item

    @property
    def shown(self) -> JsonValue:
        """The value as results give it: a length of time as written (see ``_shown``), else
        the number."""
        return self._shown if self._shown is not None else plain_number(self.value)


def _rows_as_items(value: object) -> object:
    """Rows ``[label, value]`` (what ``web_search_each`` and ``sort_items`` give) as items, so a
    program passes such a step's value whole (``{"from": "s1"}``)."""
    if not isinstance(value, list):
        return value
    return [
        {"label": row[0], "value": row[1]} if isinstance(row, list) and len(row) == 2 else row
        for row in value
    ]


class LabelledValues(SkillParameters):
    """What `pick_extreme` and `sort_items` both compare: one list, the same bounds."""

    items: Annotated[list[Item], BeforeValidator(_rows_as_items)] = Field(
        min_length=1, max_length=200
    )


class PickExtreme(LabelledValues):
    """Which end, as a word: given ``largest: true/false``, the 1.5B planner wrote ``true`` for
    "whichever ... sells it for least" and the run said "finished" on the dearest shop (a
    rewording of pc24, 2026-12-05), as a word ended it for sorting. ``largest`` is still read.
    No choice reading: asked alone, the model read 5 of 19 wrong (seed 3101, 2026-12-03)."""

    which: Literal["largest", "smallest"] = Field(
        description='"largest": the most, highest, longest, dearest; "smallest": the least, '
        "lowest, shortest, cheapest."
    )

    @model_validator(mode="before")
    @classmethod
    def _from_largest(cls, data: object) -> object:
        if isinstance(data, dict) and isinstance(largest := data.get("largest"), bool):
            rest = {key: value for key, value in data.items() if key != "largest"}
            return {"which": "largest" if largest else "smallest", **rest}
        return data


@skill(
    "Of labelled values, the label with the largest (or smallest) value.",
    returns='{"label": text, "value": number}',
    value_keys=("label", "value"),
    computes=True,
)
def pick_extreme(context: SkillContext, parameters: PickExtreme) -> SkillResult:
    pick = max if parameters.which == "largest" else min
    chosen = pick(parameters.items, key=lambda item: item.value)
    return SkillResult(True, {"label": chosen.label, "value": chosen.shown}, evidence=chosen.label)


class SortItems(LabelledValues):
    """Which way, as a person says it: asked for "highest rating first", the 1.5B model wrote
    ``descending: false`` for both rewordings of pc17 that it sorted, and each run saved the
    list the wrong way round and said "finished" (2026-12-02); the word it copies is the one
    the request says comes first."""

    first: Literal["highest", "lowest"] = Field(
        "lowest",
        description='Which value comes first: "highest" (highest to lowest, largest first, '
        'descending) or "lowest" (lowest to highest, smallest first, ascending).',
        json_schema_extra=choice(
            "Which comes first in the order asked for?",
            ("highest", "the highest value first (descending)"),
            ("lowest", "the lowest value first (ascending)"),
        ),
    )


@skill(
    "Labelled values in order of their value; the result is one row [label, value] each, in "
    "that order: a sheet's rows as they are, or a text file's lines.",
    returns="list of [label, value] rows",
    gives_list=True,
    computes=True,
)
def sort_items(context: SkillContext, parameters: SortItems) -> SkillResult:
    # Rows, not the labels alone: a list "sorted from highest to lowest" is written with its
    # values, into a sheet's two columns or a file's lines, and a list of labels had lost them
    # (the values found by one search each could not be put back beside their labels).
    highest_first = parameters.first == "highest"
    ordered = sorted(parameters.items, key=lambda item: item.value, reverse=highest_first)
    return SkillResult(
        True,
        [[item.label, item.shown] for item in ordered],
        evidence=", ".join(f"{i.label}={i.shown}" for i in ordered),
    )


def plain_number(number: float) -> float | int:
    """A number as the value skills give it: whole numbers as integers (8.0 is 8), so a row
    written into a text reads as a person writes it."""
    return int(number) if float(number).is_integer() else number


class TellUser(SkillParameters):
    text: Annotated[str, BeforeValidator(as_lines)] = Field(
        min_length=1, max_length=2000, description="The answer, as asked for."
    )


@skill(
    "Tell the person the answer to what they asked (a value found, a result worked out).",
    returns="the text",
    texts=("text",),
)
def tell_user(context: SkillContext, parameters: TellUser) -> SkillResult:
    text = parameters.text.strip()
    return SkillResult(True, text, evidence="told", answer=text)
