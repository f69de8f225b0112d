"""The links of a page as the browser reads them, and the one a language model chooses when no
link reads the words a step asked for.

A program is written before its pages are seen: the Manager names the link to follow after a
search with words of its own ("The Empire State Building", "traffic in "), and the results list
the right page under a title nobody could guess. Code matches those words to a link only where
the match is clear (``web_page.choose``); where it is not, which link the step meant is a question
about words, and a model answers it, shown the task, the words and the page's links. Code then
clicks the link it named (by its number, or on a page of results by the result's line), never
by a guess of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field, create_model

from pcagent.app_actions import BrowserRead
from pcagent.env.web_address import address_parts, host_of, path_of
from pcagent.skills.base import SkillContext, SkillResult
from pcagent.skills.common import do

#: The most links shown to the model: a results page lists about ten, a site's page a few dozen.
MOST_LINKS = 40

LINK_HEADING = "Links"


@dataclass(frozen=True)
class PageLink:
    """One link of a page reading: its text as read (long texts end in "…") and its address."""

    text: str
    address: str

    def shown(self) -> str:
        return f'"{self.text}" -> {self.address}'


def page_links(reading: str) -> list[PageLink]:
    """The links a browser reading lists under its ``Links:`` heading, one
    ``- "text" -> address`` line each, in the page's order."""
    links: list[PageLink] = []
    for line in listed(reading, LINK_HEADING):
        if " -> " in line:
            quoted, address = line.rsplit(" -> ", 1)
            links.append(PageLink(quoted.strip().strip('"'), address.strip()))
    return links


def listed(reading: str, heading: str) -> list[str]:
    """The items a browser reading lists under ``heading`` (``Links:``, ``Fields (first 30 of
    41):``), one ``- item`` line each, without the dash."""
    items: list[str] = []
    under = False
    for line in reading.splitlines():
        if not line.startswith("- "):
            under = line.split(" (", 1)[0].rstrip(":") == heading
        elif under:
            items.append(line[2:])
    return items


#: The longest value found earlier that the model is shown (a value, not a page's reading).
SHORT_VALUE = 200


def what_the_run_knows(context: SkillContext) -> str:
    """The task and the short values earlier steps found ("the place": the link to follow is
    often the one that names it), as the prompt's first lines."""
    step = context.step()
    if step is None:
        return ""
    lines = [f"The task: {step.task}"] if step.task else []
    found = [f"{key}: {value}" for key, value in step.hub.items() if len(value) <= SHORT_VALUE]
    if found:
        lines.append("Found so far: " + "; ".join(found))
    return "".join(f"{line}\n" for line in lines)


SYSTEM = (
    "You choose which link of a web page a step of a task means. Answer with the link's number, "
    "or 0 when no link fits."
)


def _choice_model(count: int) -> type[BaseModel]:
    return create_model(  # type: ignore[call-overload]
        "ChosenNumber", number=(int, Field(ge=0, le=count, description="0: none fits"))
    )


def number_chosen(context: SkillContext, system: str, asked: str, shown: list[str]) -> int:
    """The number (from 1) of the line of ``shown`` a language model chooses, told ``system``
    and shown the run's task and values found, ``asked`` and the lines numbered; 0 when no
    model is configured, it gives no usable reply or it answers that none fits."""
    model = context.language()
    if model is None or not shown:
        return 0
    listing = "\n".join(f"{number}. {line}" for number, line in enumerate(shown, 1))
    reply = model.answer(
        system, f"{what_the_run_knows(context)}{asked}\n{listing}", _choice_model(len(shown))
    )
    return getattr(reply, "number", 0) if reply is not None else 0


def link_meant(context: SkillContext, wanted: str, reading: str) -> PageLink | None:
    """The link of the page read as ``reading`` that a language model takes ``wanted`` to mean,
    for the task the run has; None where it names none. On a page of results (see
    :func:`results_listed`) it is asked which result, each shown with its place and its line of
    the page; elsewhere which of the page's links, by number."""
    title = line_after(reading, "Title: ")
    results = results_listed(reading)[:MOST_RESULTS]
    if results:
        return _result_meant(context, wanted, title, reading, results)
    shown = page_links(reading)[:MOST_LINKS]
    asked = (
        f"The step follows the link: {wanted}\n"
        f"No link of the page reads that. The page: {title}\nIts links:"
    )
    number = number_chosen(context, SYSTEM, asked, [link.shown() for link in shown])
    return shown[number - 1] if number else None


#: The most results a model is asked to choose among (a web search lists about ten).
MOST_RESULTS = 10
PLACES = ("first", "second", "third", "fourth", "fifth")
PLACES += ("sixth", "seventh", "eighth", "ninth", "tenth")
NONE_FITS = "none of them"
#: The longest line of a page shown with a result (a title and its authors fit).
RESULT_LINE = 160
RESULT_SYSTEM = "You say which result of a page of search results a step of a task means."


def results_listed(reading: str) -> list[PageLink]:
    """The results of a page of results, in its order; [] on another page. A page lists
    results where it links to other sites (a web search's page) or its address asks a query
    (a site's own search: arxiv.org/search?query=...)."""
    address = address_parts(line_after(reading, "Address: "))
    if links_away(reading) or (address is not None and address.query):
        return search_results(reading)
    return []


def _result_meant(
    context: SkillContext, wanted: str, title: str, reading: str, results: list[PageLink]
) -> PageLink | None:
    """Which of ``results`` a model reads the step (following ``wanted``) to mean, each shown
    as its place and the line of the page that holds it, the answer held to those lines by
    the grammar. Why: asked by number among links reading only "arXiv:2410.02345", the 1.5B
    model took the third paper for "download whichever paper comes up first" (a rewording of
    pc15, 2026-12-06); shown "the first result: arXiv:2410.02345 A Multimodal Agent for ..."
    it answered the first, and the others where the task named them by place, title or date
    (probes of this page: 4 of 4 wordings as here; asked by number, 1 of 3)."""
    model = context.language()
    if model is None:
        return None
    lines = _text_lines(reading)
    options = tuple(
        f"the {place} result: {_line_holding(lines, link.text)}"
        for place, link in zip(PLACES, results, strict=False)
    )
    asked = (
        f"The step follows the link: {wanted}\nThe page in front, {title!r}, lists search "
        "results, and none of its links reads that (a result's own page may hold it). "
        "Which result does the step mean?\n" + "".join(f"- {o}\n" for o in options)
    )
    reply_type = create_model(
        "ChosenResult",
        answer=(Literal[(*options, NONE_FITS)], ...),  # type: ignore[valid-type]
    )
    reply = model.answer(RESULT_SYSTEM, f"{what_the_run_knows(context)}{asked}", reply_type)
    answer = getattr(reply, "answer", NONE_FITS) if reply is not None else NONE_FITS
    return results[options.index(answer)] if answer in options else None


def _text_lines(reading: str) -> list[str]:
    """The lines of a reading's text (before its lists of links, buttons and fields)."""
    text = reading.split(f"\n{LINK_HEADING}", 1)[0]
    return text.split("\nText:\n", 1)[-1].splitlines()


def _line_holding(lines: list[str], text: str) -> str:
    """The first of ``lines`` that holds ``text`` (a shortened text by its start), cut to
    :data:`RESULT_LINE` characters; ``text`` itself where none does."""
    start = text.removesuffix("…")
    line = next((one for one in lines if start and start in one), text)
    return line if len(line) <= RESULT_LINE else line[: RESULT_LINE - 1] + "…"


def leads_away(page: str) -> bool:
    """Whether a page read in the browser (its ``Address:`` line and its links) links to another
    site than its own: a results page with results does."""
    return bool(links_away(page))


def links_away(page: str) -> list[PageLink]:
    """The links of a page reading that lead to another site than the page's own."""
    own = host_of(line_after(page, "Address: "))
    return [link for link in page_links(page) if (host := host_of(link.address)) and host != own]


def line_after(page: str, label: str) -> str:
    """The rest of the reading's first line starting with ``label``; "" when none does."""
    found = (line[len(label) :] for line in page.splitlines() if line.startswith(label))
    return next(found, "").strip()


def search_results(page: str) -> list[PageLink]:
    """The results a page of search results lists, in its order: its links to other sites (a
    web search's), or where it has none, its site's own links but its home page and itself (a
    site's own search: arxiv.org's links the papers it found)."""
    away = links_away(page)
    if away:
        return away
    here = line_after(page, "Address: ")
    return [
        link
        for link in page_links(page)
        if path_of(link.address).strip("/") and link.address != here
    ]


def page_in_front(context: SkillContext) -> SkillResult:
    """The page in front, read: its text is the value; a page with no text is a failure."""
    text = do(context, BrowserRead()).output or ""
    if not text.strip():
        return SkillResult.failed("the page shows no text")
    return SkillResult(True, text, evidence=text.splitlines()[0][:200])
