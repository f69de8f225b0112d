"""Filling a web page's form (the browser's skill ``fill_form``): each field by the label the program gave it, and where the page has
no field of that label, the field a language model says the label means.

A program is written before its pages are seen: the Manager names a booking form's fields with
words of its own ("Arrival", "Departure Date") and the page labels them otherwise ("To",
"Depart"). Code fills a field whose names hold the label clearly (``web_page.choose``); where
none does, which field the label means is a question about words, and a model answers it,
shown the task, the label, the value and the page's fields not yet filled. Code then fills the
field it named, by that field's own name, never by a guess of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from urllib.parse import unquote_plus

from pydantic import Field

from pcagent.app_actions import BrowserFill, BrowserOpen, BrowserRead
from pcagent.env.browser_profile import SEARCH_URL
from pcagent.env.web_address import host_of
from pcagent.skills.base import (
    ActionOutcome,
    SkillContext,
    SkillParameters,
    SkillResult,
    StepFailed,
)
from pcagent.skills.browser_links import (
    line_after,
    links_away,
    listed,
    number_chosen,
    page_in_front,
)
from pcagent.skills.common import GIVEN_FORM, do
from pcagent.text import folded


class FormField(SkillParameters):
    label: str = Field(min_length=1, max_length=200)
    value: str = Field(max_length=1000)


class FillForm(SkillParameters):
    fields: list[FormField] = Field(min_length=1, max_length=30, json_schema_extra=GIVEN_FORM)
    submit: bool = Field(True, description="true: press Enter in the last field.")


def form_filled(context: SkillContext, parameters: FillForm) -> SkillResult:
    """``fill_form``'s work (the skill is the browser's, in ``skills/browser.py``)."""
    fields = parameters.fields
    first = fields[0]
    tried = context.act(BrowserFill(label=first.label, value=first.value, submit=False))
    found, answered = ("", False) if tried.ok else _result_with_form(context, fields, tried)
    filled: list[str] = []
    for number, field in enumerate(() if answered else fields, start=1):
        last = number == len(fields)
        found += _fill(context, field, parameters.submit and last, filled)
    page = page_in_front(context)
    return replace(page, evidence=found + page.evidence) if page.ok else page


def _fill(context: SkillContext, field: FormField, submit: bool, filled: list[str]) -> str:
    """Fill ``field``; where no field of the page reads its label, the one a model says it
    means among those not in ``filled`` (the names of the fields this step filled, to which
    the one filled now is added). What the step's evidence says of the choice; raises
    :class:`StepFailed` where no field is taken."""
    done = context.act(BrowserFill(label=field.label, value=field.value, submit=submit))
    if done.ok:
        filled.append(field.label)
        return ""
    reading = do(context, BrowserRead()).output or ""
    fields = page_fields(reading)
    if any(_among(one, [field.label]) for one in fields):
        raise StepFailed(done, "browser_fill")  # the label names a field: the value failed
    free = [one for one in fields if not _among(one, filled)]
    meant = field_meant(context, field, line_after(reading, "Title: "), free)
    if meant is None:
        raise StepFailed(done, "browser_fill")
    do(context, BrowserFill(label=meant.label, value=field.value, submit=submit))
    filled.append(meant.label)
    return f"no field reads {field.label!r}; the language model chose {meant.shown}. "


@dataclass(frozen=True)
class PageField:
    """One field of a page reading: the line that shows it and the names it goes by."""

    shown: str
    names: tuple[str, ...]

    @property
    def label(self) -> str:
        """The name to fill it by: its first, without the mark of a shortened name."""
        return self.names[0].removesuffix("…")


#: A field's quoted names in a reading's ``Fields:`` line: ``"From" / "from" (text) = ""``.
_QUOTED = re.compile(r'"([^"]*)"')


def page_fields(reading: str) -> list[PageField]:
    """The fields a browser reading lists under its ``Fields:`` heading that have a name."""
    found: list[PageField] = []
    for line in listed(reading, "Fields"):
        names = tuple(name for name in _QUOTED.findall(line.rsplit(" (", 1)[0]) if name.strip())
        if names:
            found.append(PageField(line, names))
    return found


def _among(field: PageField, labels: list[str]) -> bool:
    """Whether one of ``labels`` (fields this step filled) names ``field``."""
    return any(
        _same(folded(name.removesuffix("…")), folded(label))
        for name in field.names
        for label in labels
    )


#: Shortest name taken for a label that holds it, or holding the label ("Depart", "Departure").
SAME_MINIMUM = 4


def _same(name: str, label: str) -> bool:
    if name == label:
        return True
    return min(len(name), len(label)) >= SAME_MINIMUM and (name in label or label in name)


SYSTEM = (
    "You choose which field of a web page's form a step of a task fills. Answer with the "
    "field's number, or 0 when no field fits."
)


def field_meant(
    context: SkillContext, field: FormField, title: str, fields: list[PageField]
) -> PageField | None:
    """The field of ``fields`` that a language model takes ``field``'s label (with its value)
    to mean on the page titled ``title``; None where it names none."""
    asked = (
        f"The step fills the field: {field.label}\nwith the value: {field.value}\n"
        f"No field of the page reads that. The page: {title}\nIts fields:"
    )
    number = number_chosen(context, SYSTEM, asked, [one.shown for one in fields])
    return fields[number - 1] if number else None


#: Results of a search looked through for the form a step fills, at most.
RESULTS_TRIED = 5


def _result_with_form(
    context: SkillContext, fields: list[FormField], missed: ActionOutcome
) -> tuple[str, bool]:
    """Where the page in front is the search engine's page of results and has no field
    ``fields[0].label``: the result whose address already asks for every value (the form's
    answer: True), else the first of the results whose page has that field, opened, and what
    the step's evidence says of it. A program often searches and then fills the form of the
    site it meant (the 1.5B planner did on rewordings of pc02 and pc03, 2026-11-28); the result
    that leads there is on the page. Raises :class:`StepFailed` where no result has the field,
    back on the results. On another page: nothing opened, the fields are filled there."""
    reading = do(context, BrowserRead()).output or ""
    address = line_after(reading, "Address: ")
    if host_of(address) != host_of(SEARCH_URL):
        return "", False
    results = links_away(reading)[:RESULTS_TRIED]
    label = fields[0].label
    values = [field.value for field in fields if field.value.strip()]
    missing = f"the page of results has no field {label!r}; "
    for result in results:
        if (
            _asks_in_order(result.address, values)
            and context.act(BrowserOpen(url=result.address)).ok
        ):
            return missing + f"{result.shown()} already asks for these values. ", True
    probe = BrowserFill(label=label, value=fields[0].value, submit=False)
    for result in results:
        if context.act(BrowserOpen(url=result.address)).ok and context.act(probe).ok:
            return missing + f"{result.shown()} has. ", False
    if results:
        context.act(BrowserOpen(url=address))
        tried = f"{missed.message}; nor has any of the {len(results)} results' pages"
        missed = replace(missed, message=tried)
    raise StepFailed(missed, "browser_fill")


def _asks_in_order(address: str, values: list[str]) -> bool:
    """Whether ``address`` holds every one of ``values``, in their order (as a form sends its
    fields: "from=A&to=B" asks for the way from A to B, not from B to A)."""
    asked, start = folded(unquote_plus(address)), 0
    for value in values:
        start = asked.find(folded(value), start)
        if start < 0:
            return False
    return bool(values)
