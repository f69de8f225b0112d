"""The Composer: writes the text a subtask asks to be written, apart from any action.

Writing two paragraphs about two companies, a translation, or a function is the one part of a
document task that needs language rather than clicks, and a small model asked to do it inside
a Decision step (listing, action schema, history) never did: it opened files that did not exist
and said ``done`` over an empty document. Asked alone, with the subtask and the values found
earlier, the same model writes the text; the run then inserts it with the application's own
action (:mod:`pcagent.runtime.rule_moves`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, Field

from pcagent.agents.base import Agent, bullet_list, value_list
from pcagent.agents.form_plan import FormField
from pcagent.agents.prompting import render
from pcagent.models.messages import Message

#: Longest text the Composer may write (the typed-text limit of an action is larger).
MAX_COMPOSED = 4000


# No docstring and no field description: pydantic puts them in the reply schema, and the model
# wrote them into the document ("The text, nothing else." was saved as a file's content).
class ComposedText(BaseModel):
    text: str = Field(min_length=1, max_length=MAX_COMPOSED)


#: Replies that are words of the prompt or schema rather than the text asked for.
_SCHEMA_WORDS = frozenset({"the text, nothing else", "the text", "text", "write the text"})
#: Most rows the Composer may give for a sheet.
MAX_ROWS = 200
#: A cell: text or a number.
Cell = str | float


# No maxItems in the schema: llama.cpp's grammar spells out every optional item up to it, and
# a 200-row limit made one reply take minutes. Longer replies are cut to MAX_ROWS instead.
class ComposedRows(BaseModel):
    rows: list[list[Cell]] = Field(min_length=1)


# As above: no descriptions to copy into the form.
class FilledField(BaseModel):
    label: str = Field(min_length=1, max_length=200)
    value: str = Field(max_length=500)


class FilledForm(BaseModel):
    fields: list[FilledField] = Field(min_length=1)


@dataclass
class Composer(Agent):
    name: ClassVar[str] = "composer"

    def compose(self, subtask: str, hub: Mapping[str, str], step: int | None) -> str | None:
        """The text ``subtask`` asks for; None when the model gave no usable reply."""
        system, user = render("composer", subtask=subtask, hub=value_list(dict(hub)))
        result = self.ask([Message.system(system), Message.user(user)], ComposedText, step)
        if result.value is None:
            return None
        text = result.value.text.strip().strip('"').strip()
        if not text or text.rstrip(".").lower() in _SCHEMA_WORDS:
            return None  # the schema's or prompt's own words, not a text
        return in_paragraphs(text, paragraphs_asked(subtask))

    def compose_rows(
        self, subtask: str, hub: Mapping[str, str], step: int | None
    ) -> tuple[tuple[Cell, ...], ...] | None:
        """The rows of a sheet ``subtask`` asks for; None when the model gave no usable reply
        (or only empty rows)."""
        system, user = render("composer_rows", subtask=subtask, hub=value_list(dict(hub)))
        result = self.ask([Message.system(system), Message.user(user)], ComposedRows, step)
        if result.value is None:
            return None
        rows = tuple(
            tuple(_cell(cell) for cell in row)
            for row in result.value.rows[:MAX_ROWS]
            if any(str(cell).strip() for cell in row)
        )
        return in_order_asked(rows, subtask) or None

    def compose_form(
        self,
        subtask: str,
        fields: Sequence[FormField],
        hub: Mapping[str, str],
        step: int | None,
    ) -> list[tuple[str, str]] | None:
        """(label, value) for the fields of a web form ``subtask`` asks to fill in, as the
        model proposes them (:func:`~pcagent.agents.form_plan.checked_plan` checks them); None
        when the model gave no usable reply."""
        system, user = render(
            "composer_form",
            subtask=subtask,
            fields=bullet_list([field.shown() for field in fields]),
            hub=value_list(dict(hub)),
        )
        result = self.ask([Message.system(system), Message.user(user)], FilledForm, step)
        if result.value is None:
            return None
        return [(filled.label, filled.value) for filled in result.value.fields]


#: "in descending order of population", "from highest to lowest", "ascending".
_DESCENDING = re.compile(
    r"\b(?:descending|decreasing)\b|\bfrom\s+(?:the\s+)?(?:highest|largest|biggest|most)\b", re.I
)
_ASCENDING = re.compile(
    r"\b(?:ascending|increasing)\b|\bfrom\s+(?:the\s+)?(?:lowest|smallest|least|fewest)\b", re.I
)


def in_order_asked(
    rows: tuple[tuple[Cell, ...], ...], subtask: str
) -> tuple[tuple[Cell, ...], ...]:
    """``rows`` sorted by their first column of numbers when ``subtask`` asks for an order
    ("in descending order of population"); as they are otherwise, or when no column holds a
    number in every row. The model was asked for the order too, and did not keep it."""
    descending = bool(_DESCENDING.search(subtask))
    if not (descending or _ASCENDING.search(subtask)) or not rows:
        return rows
    width = min(len(row) for row in rows)
    for column in range(width):
        if all(isinstance(row[column], int | float) for row in rows):
            return tuple(sorted(rows, key=lambda row: float(row[column]), reverse=descending))
    return rows


#: A number as a model may write it in text: "$131.38", "1,425,893,465", "38 min".
_NUMBER_TEXT = re.compile(r"^\s*[$€£¥]?\s*(-?\d{1,3}(?:,\d{3})+|-?\d+)(\.\d+)?\s*$")


def _cell(cell: Cell) -> Cell:
    """A cell as the sheet should hold it: text that is only a number (with a currency sign or
    thousands separators) as that number, so the sheet can compute with it."""
    if isinstance(cell, str):
        match = _NUMBER_TEXT.match(cell)
        if match:
            number = float(match.group(1).replace(",", "") + (match.group(2) or ""))
            return int(number) if number.is_integer() else number
        return cell.strip()
    return int(cell) if isinstance(cell, float) and cell.is_integer() else cell


#: "two paragraphs", "3 paragraphs".
_PARAGRAPHS = re.compile(r"\b(two|three|four|five|[2-5])\s+paragraphs\b", re.I)
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5}
#: Where a sentence ends (before the next one's capital letter).
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
#: First words that continue a paragraph's subject rather than start a new one.
_CONTINUING = frozenset(
    {
        *("it", "its", "they", "their", "them", "this", "these", "those", "he", "she", "his"),
        *("her", "the", "a", "an", "in", "as", "both", "together", "also", "today", "since"),
        "there",
    }
)


def paragraphs_asked(subtask: str) -> int:
    """How many paragraphs a subtask asks for; 0 when it says no number."""
    match = _PARAGRAPHS.search(subtask)
    if match is None:
        return 0
    word = match.group(1).lower()
    return _NUMBERS.get(word) or int(word)


def in_paragraphs(text: str, wanted: int) -> str:
    """``text`` as ``wanted`` paragraphs (one per line) when it came as fewer: split at the
    sentences that start a new subject (a first word that is no pronoun or article), else as
    evenly as the sentences allow. The small model wrote "two paragraphs, one on each company"
    as one line, which a word processor keeps as one paragraph."""
    lines = [line for line in text.splitlines() if line.strip()]
    sentences = _SENTENCE.split(" ".join(lines))
    if wanted < 2 or len(lines) >= wanted or len(sentences) < wanted:
        return text
    starts = [0] + [
        i
        for i, sentence in enumerate(sentences)
        if i and sentence.split()[0].lower().strip(",") not in _CONTINUING
    ]
    if len(starts) != wanted:
        size = len(sentences) / wanted
        starts = [round(k * size) for k in range(wanted)]
    bounds = [*starts, len(sentences)]
    return "\n".join(" ".join(sentences[a:b]) for a, b in itertools.pairwise(bounds))
