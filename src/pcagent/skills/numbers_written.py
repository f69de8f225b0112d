"""Numbers as people and pages write them, read for the skills that compare or sort values.

A value found on a page is kept as the page wrote it ("$1,299.00", "8.5/10", "6 h 20 min"),
so the skills that work with its number read it here. Only what a value itself says is read:
never an instruction's words.
"""

from __future__ import annotations

import re

from pcagent.text import without_notes

#: A score on a scale, as ratings are written ("8.5/10", "4 / 5"): it compares by the score.
SCORE = re.compile(r"(\d+(?:\.\d+)?)\s*/\s*\d+(?:\.\d+)?")
#: A number followed by words and no other number ("1,450,935,791 people"; a note in brackets
#: aside, "128455567 people (as of 2024-07-01)"): the number. "8.5/10 and 9/10" is none.
_BEFORE_WORDS = re.compile(r"(-?\d+(?:\.\d+)?)\s+[^\d\s][^\d]*")
#: A length of time as pages write it: hours, minutes or both ("6 h 20 min", "1 hour 5
#: minutes", "169 min"), maybe words after ("38 min by subway").
DURATION = re.compile(
    r"(?:(\d+(?:\.\d+)?)\s*(?:h|hr|hrs|hours?)\b\.?)?\s*"
    r"(?:(\d+(?:\.\d+)?)\s*(?:min|mins|minutes?)\b\.?)?(?:\s+[^\d]*)?",
    re.IGNORECASE,
)
#: A length of time inside a sentence: at least one number with its unit.
_DURATION_WITHIN = re.compile(
    r"\d+(?:\.\d+)?\s*(?:h|hr|hrs|hours?)\b(?:\s*\d+(?:\.\d+)?\s*(?:min|mins|minutes?)\b)?"
    r"|\d+(?:\.\d+)?\s*(?:min|mins|minutes?)\b",
    re.IGNORECASE,
)


#: A number as pages write it, as a closed pattern a reply's grammar holds a model to: a
#: currency sign, digits with separators and decimals, then a percent sign, a scale ("/10"), a
#: length of time ("6 h 20 min") or words ("1.4 billion", "131.38 USD"). Why: asked for the
#: "stock" of three companies whose rows were to be sorted, the 1.5B model answered a ticker
#: ("AAPL") twice over (pc07 at 9d0c5d5, 2026-12-07).
NUMBER_WRITTEN = (
    r"^-?[$€£]?[0-9][0-9,]*(\.[0-9]+)?( ?%| ?/ ?[0-9]+(\.[0-9]+)?"
    r"| ?(h|hr|hrs|hours?)( [0-9]+ ?(min|mins|minutes?))?| [A-Za-z][A-Za-z ]{0,24})?$"
)


def a_number_written(value: str) -> str:
    """``value`` where :func:`written_number` reads a number in it; ValueError otherwise (a
    reply's check, beside :data:`NUMBER_WRITTEN`'s grammar)."""
    written_number(value)
    return value


def quantity_of(text: str) -> str:
    """The one length of time or score ``text`` holds, where every digit of it stands in that
    quantity; otherwise ``text`` itself (stripped). Why: asked for each destination's flight
    time, the 1.5B model answered one with the page's sentence, "A direct flight from Beijing to
    Dubai takes about 8 h 55 min.", and the shortest of the three could not be picked (pc06,
    2026-12-05). A sentence with two numbers outside one quantity is left as it is: which one
    is meant is not for code to guess."""
    written = text.strip()
    found = [*_DURATION_WITHIN.finditer(written), *SCORE.finditer(written)]
    if len(found) != 1:
        return written
    one = found[0]
    outside = written[: one.start()] + written[one.end() :]
    return written if any(c.isdigit() for c in outside) else one.group(0).strip()


def minutes_in(text: str) -> float | None:
    """The minutes a length of time written as a page writes it holds, or None when ``text``
    is no such length. Why: a flight of "6 h 20 min" and one of "5 h 5 min" compare by their
    minutes; read as one number each (or refused, as they were), the shortest of three
    flights could not be found (pc06, 2026-12-03)."""
    match = DURATION.fullmatch(text.strip())
    if not match or match.groups() == (None, None):
        return None
    hours, minutes = (float(group or 0) for group in match.groups())
    return hours * 60 + minutes


#: A rating as pages write it, a decimal score on a usual scale ("8.7/10", "4.5 / 5"): no date
#: or fraction is written so ("9/10" may be either, and is left as it is).
_RATING = re.compile(r"(\d{1,3}\.\d{1,2})\s*/\s*(5|10|100)")


def cell_value(value: object) -> object:
    """``value`` as a spreadsheet cell takes it: a rating written as a page writes it is its
    score, any other value as it is. Why: a sheet computes and sorts on numbers and reads
    "8.7/10" as text; asked to enter two films' ratings into a workbook's rating column, every
    wording of pc11 (2026-12-06) wrote the pages' "8.7/10" and "9.0/10" beside the names."""
    if not isinstance(value, str) or not (rating := _RATING.fullmatch(value.strip())):
        return value
    score, scale = float(rating.group(1)), float(rating.group(2))
    return score if score <= scale else value


def written_number(value: object) -> object:
    """Numbers as people and pages write them: "1,234.5", "$12", "35 %", "3.4 million", a
    rating "8.5/10" (its score) and a number with its unit or a note after it ("169 min")
    stay numbers; so does a sentence whose only number is one length of time or score
    (:func:`quantity_of`). Why the units and notes: extract_values keeps a value as the page
    writes it, and sort_items refused the three IMDb ratings it was given ("8.5/10"; a
    rewording of pc17, 2026-11-28), as the calculator had refused a population with its note."""
    if not isinstance(value, str):
        return value
    text = quantity_of(value).replace(",", "").replace("$", "").replace("€", "").replace("£", "")
    text = text.replace("%", "").strip()
    scale = 1.0
    for word, factor in (("billion", 1e9), ("million", 1e6), ("thousand", 1e3)):
        if text.lower().endswith(word):
            scale, text = factor, text[: -len(word)].strip()
    if (minutes := minutes_in(text)) is not None:
        return minutes
    whole = SCORE.fullmatch(text) or _BEFORE_WORDS.fullmatch(without_notes(text).strip())
    try:
        return float(whole.group(1) if whole else text) * scale
    except ValueError:
        raise ValueError(f"{value!r} is not a number") from None
