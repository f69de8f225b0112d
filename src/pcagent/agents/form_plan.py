"""What to put in a web form's fields, for a subtask that searches or books through a site.

"Then search for a round-trip flight for it on booking.com" asks for a form filled in from
values found before (a mail: "you leave New York on 2 May 2025 and fly to London ... the return
flight should be on 9 May 2025"). The 1.5B model, with the site open, said ``done`` over the
empty form. The run reads the page's fields (``browser_read`` lists them), asks the Composer
which value goes into which field (:meth:`~pcagent.agents.composer.Composer.compose_form`),
and then checks the answer against what it can decide alone:

- a label the form does not have is dropped;
- a field that asks for a date as ``YYYY-MM-DD`` gets the date the value names, written so
  ("2 May 2025" -> "2025-05-02"), and a value that names no date is dropped;
- a radio button or checkbox whose label the subtask's words name ("a round-trip flight":
  "Round trip") is ticked, whatever the model said about it.

The fields are filled in the page's order, choices first, and the last text field submits the
form (Enter), as a person finishes a search form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pcagent.agents.dates import dates_in

#: The heading of the fields in what ``browser_read`` gives back.
_FIELDS_HEADING = re.compile(r"^Fields(?: \(first \d+ of \d+\))?:\s*$")
#: One listed field: ``- "From" / "from" (text) = ""``.
_FIELD_LINE = re.compile(
    r'^- (?P<names>(?:"[^"]*"(?: / )?)+|\(no label\)) \((?P<type>[\w-]+)\) = "(?P<value>.*)"$'
)
_NAME = re.compile(r'"([^"]*)"')
#: Field types that are ticked rather than typed into.
CHOICES = frozenset({"radio", "checkbox"})
#: Field types the run never fills (files are attached, buttons pressed).
_NOT_FILLED = frozenset({"file", "submit", "button", "hidden", "reset", "image"})
#: A field that asks for an ISO date.
_ISO_FIELD = re.compile(r"YYYY-MM-DD", re.I)


@dataclass(frozen=True)
class FormField:
    """A field as ``browser_read`` lists it: its names (label first), type and value."""

    names: tuple[str, ...]
    type: str
    value: str

    @property
    def label(self) -> str:
        return self.names[0] if self.names else ""

    def shown(self) -> str:
        names = " / ".join(f'"{name}"' for name in self.names) or "(no label)"
        return f"{names} ({self.type})"


def form_fields(reading: str) -> list[FormField]:
    """The fillable fields a page reading lists (after its "Fields:" line); [] without one."""
    fields: list[FormField] = []
    inside = False
    for line in reading.splitlines():
        if _FIELDS_HEADING.match(line.strip()):
            inside = True
            continue
        if not inside:
            continue
        match = _FIELD_LINE.match(line.strip())
        if match is None:
            if not line.startswith("- "):
                inside = False
            continue
        names = tuple(_NAME.findall(match.group("names")))
        kind = match.group("type").lower()
        if names and kind not in _NOT_FILLED:
            fields.append(FormField(names, kind, match.group("value")))
    return fields


def _plain(text: str) -> str:
    """Lower case, hyphens and spaces alike: "round-trip" names "Round trip"."""
    return " ".join(re.sub(r"[-_/]", " ", text).lower().split())


def _field_named(label: str, fields: list[FormField]) -> FormField | None:
    wanted = _plain(label)
    for field in fields:
        if any(_plain(name) == wanted for name in field.names):
            return field
    return None


def checked_plan(
    proposed: list[tuple[str, str]], fields: list[FormField], words: str
) -> list[tuple[str, str]]:
    """The (label, value) pairs to fill, in the page's order with choices first: the model's
    ``proposed`` pairs checked against the form, plus the choices ``words`` name."""
    chosen: dict[str, str] = {}
    for label, value in proposed:
        field = _field_named(label, fields)
        value = value.strip()
        if field is None or not value:
            continue
        if field.type in CHOICES:
            continue  # ticked below, from the subtask's own words
        if _ISO_FIELD.search(" ".join(field.names)) or field.type == "date":
            found = dates_in(value)
            if not found:
                continue
            value = found[0].isoformat()
        chosen[field.label] = value
    said = f" {_plain(words)} "
    for field in fields:
        if field.type in CHOICES and f" {_plain(field.label)} " in said:
            chosen[field.label] = "true"
    order = sorted(
        (field for field in fields if field.label in chosen),
        key=lambda field: (field.type not in CHOICES, fields.index(field)),
    )
    return [(field.label, chosen[field.label]) for field in order if not _holds(field, chosen)]


def _holds(field: FormField, chosen: dict[str, str]) -> bool:
    """Whether ``field`` already holds what is chosen for it (a ticked choice reads "checked")."""
    wanted = chosen[field.label]
    return field.value == ("checked" if field.type in CHOICES and wanted == "true" else wanted)


#: Field types a search box may have.
_TYPED = frozenset({"text", "search"})


def search_box_plan(fields: list[FormField], words: str) -> list[tuple[str, str]]:
    """[(label, ``words``)] for a form that is one search box (one text field, no choices);
    [] for any other form."""
    boxes = [field for field in fields if field.type in _TYPED]
    if not words or len(boxes) != 1 or len(fields) != 1:
        return []
    return [(boxes[0].label, words)]
