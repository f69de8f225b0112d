"""Skills in the web browser: search, open a page, follow a link, fill a form; each returns
the text of the page it ends on, read back from the browser."""

from __future__ import annotations

from dataclasses import replace
from pathlib import PurePosixPath
from typing import Annotated

from pydantic import AfterValidator, Field

from pcagent import actions as act
from pcagent.app_actions import BrowserClick, BrowserOpen, BrowserRead
from pcagent.applications import BROWSER
from pcagent.env.web_address import path_of, search_address
from pcagent.skills.base import (
    ActionOutcome,
    SkillContext,
    SkillParameters,
    SkillResult,
    StepFailed,
    choice,
    skill,
)
from pcagent.skills.browser_each import WebSearchEach, searched_each
from pcagent.skills.browser_forms import FillForm, form_filled
from pcagent.skills.browser_links import (
    PageLink,
    leads_away,
    line_after,
    link_meant,
    links_away,
    page_in_front,
    page_links,
    search_results,
)
from pcagent.skills.common import do, given
from pcagent.text import comparable

APP = BROWSER.name


#: The most words a search takes. Why: the 1.5B planner searched for the whole instruction (33
#: words, a rewording of pc16, 2026-12-02), which no engine answers; the longest search of
#: 1,200 generated tasks' programs is 11 words.
MAX_SEARCH_WORDS = 16


def _few_words(query: str) -> str:
    if len(query.split()) > MAX_SEARCH_WORDS:
        raise ValueError(
            f"a search is a few words (at most {MAX_SEARCH_WORDS}), not the request: search "
            "for the name, title or question of what to find"
        )
    return query


class WebSearch(SkillParameters):
    # On the type, not the model: a program's literal arguments are checked by their types
    # before it runs (``program.check_program``), so the planner is asked again at once.
    query: Annotated[str, AfterValidator(_few_words)] = given(
        "search", "The words to search for.", max_length=300
    )


@skill(
    "Search the web for words and read the results page and the first result's page (the "
    "results stay in front, to follow another).",
    apps=(APP,),
    page="searches",
    returns="the results page's text, then the first result's page's text",
    for_each="web_search_each",
)
def web_search(context: SkillContext, parameters: WebSearch) -> SkillResult:
    # The search engine's own address: the words as an address ("memo.txt", a file's name the
    # 1.5B planner searched for) opened a site that does not exist (pc03, 2026-11-28).
    results = search_address(parameters.query)
    do(context, BrowserOpen(url=results))
    page = page_in_front(context)
    if page.ok and not leads_away(str(page.value)):
        # A results page without results still holds the words searched for ("No results
        # for ..."), and a value extracted from it was the query itself, reported as found.
        return SkillResult.failed(
            f"the search found nothing for {parameters.query!r}: search for other words, or "
            "open a page the instruction names",
            str(page.value)[:300],
        )
    return _with_first_result(context, page, results) if page.ok else page


#: The most characters of the first result's page a search's reading carries.
FIRST_RESULT_CHARS = 2500
#: Endings of result addresses that are pages (a result with another ending may be a file,
#: which opening would download; it is not opened).
PAGE_ENDINGS = frozenset({"", ".html", ".htm", ".php", ".asp", ".aspx", ".jsp"})


def a_page(address: str) -> bool:
    """Whether ``address`` names a page rather than a file: its ending is a page's, or no
    file's at all (digits alone: arxiv.org's paper "/abs/1706.03762" ends in ".03762", and
    its page was left unread as if it were a file, so the abstract was taken from the search
    result's cut line, a rewording of pc10, 2026-12-05)."""
    ending = PurePosixPath(path_of(address)).suffix
    return ending in PAGE_ENDINGS or not any(c.isalpha() for c in ending)


def _with_first_result(context: SkillContext, results: SkillResult, address: str) -> SkillResult:
    """The results' reading with the first result's page read after it, the results left in
    front. Why: a results page shows a line about each page, rarely the value itself (the
    travel time is on the maps' page the first result leads to), and the 1.5B planner, given
    the results, extracted a value they do not hold (a distance nobody wrote, 2026-12-02, pc02)
    instead of following a result; a person reads the first result too. The results go back in
    front, so a later step may follow another result or fill a result's form."""
    first = next(iter(links_away(str(results.value))), None)
    if first is None or not a_page(first.address):
        return results
    if not context.act(BrowserOpen(url=first.address)).ok:
        context.act(BrowserOpen(url=address))
        return results
    read = context.act(BrowserRead())
    do(context, BrowserOpen(url=address))
    text = (read.output or "").strip() if read.ok else ""
    if not text:
        return results
    opened = f"The first result, {first.address}, opened:\n{text[:FIRST_RESULT_CHARS]}"
    return replace(
        results,
        value=f"{results.value}\n\n{opened}",
        evidence=f"{results.evidence}; first result read: {first.address}",
    )


#: The longest address a program may open. A 1.5B planner once wrote "&ss=departure_date" over
#: and over up to the old bound of 2,000 characters, every one of them decoded on the CPU; an
#: address a person gives, or one a page links to, is far shorter.
MAX_ADDRESS = 500


class OpenPage(SkillParameters):
    address: str = given("address", 'e.g. "example.org/news".', max_length=MAX_ADDRESS)


@skill(
    "Open a web address in the browser and read the page.",
    apps=(APP,),
    returns="the page's text",
    page="opens",
)
def open_page(context: SkillContext, parameters: OpenPage) -> SkillResult:
    do(context, BrowserOpen(url=parameters.address))
    return page_in_front(context)


class FollowLink(SkillParameters):
    text: str = Field(min_length=1, max_length=300, description="The link's or button's text.")


@skill(
    "Click a link or button of the page in front by its text and read where it leads (a file "
    "link downloads the file).",
    apps=(APP,),
    page="follows",
    returns="the new page's text",
)
def follow_link(context: SkillContext, parameters: FollowLink) -> SkillResult:
    clicked = context.act(BrowserClick(text=parameters.text))
    chosen = ""
    if not clicked.ok:
        # No link reads the words clearly: a model says which link they mean (browser_links).
        reading = do(context, BrowserRead()).output or ""
        title = line_after(reading, "Title: ")
        # On a page of results a step follows a result: shown the engine's own links too,
        # the 1.5B model took its home link for "Chromium" (browser_links.results_listed).
        meant = link_meant(context, parameters.text, reading)
        if meant is None:
            clicked = _on_the_page_before(context, parameters.text, clicked, reading)
            chosen = f"no link on {title!r} reads {parameters.text!r}; the page before had one. "
        else:
            clicked = _take(context, meant)
            chosen = (
                f"no link reads {parameters.text!r}; the language model chose {meant.shown()}. "
            )
            further = _asked_link_further(context, clicked, parameters.text)
            if further is not None:
                clicked = further
                chosen += f"There a link read {parameters.text!r}, and it was followed. "
    return _where_it_led(context, clicked, chosen)


def _asked_link_further(
    context: SkillContext, clicked: ActionOutcome, text: str
) -> ActionOutcome | None:
    """The link reading ``text`` exactly, clicked on the page the chosen link opened; None
    where that page has none (or the click downloaded a file). Why: a program is written
    before its pages are seen, and the 1.5B planner followed "Download PDF" from arxiv.org's
    page of results, which lists papers, not their files; the model took the first paper, its
    page (with the "Download PDF" link) was left unfollowed, nothing was downloaded and the run
    said "finished" (a rewording of pc15, 2026-12-05). A person who does not see the link
    opens the result and clicks it there."""
    if not clicked.ok or (clicked.output or "").startswith("downloaded"):
        return None
    reading = do(context, BrowserRead()).output or ""
    wanted = comparable(text)
    link = next((one for one in page_links(reading) if comparable(one.text) == wanted), None)
    return None if link is None else _take(context, link)


def _where_it_led(context: SkillContext, clicked: ActionOutcome, said: str) -> SkillResult:
    """A followed link's result: the file it downloaded, else the page it opened, read, with
    ``said`` (how the link was chosen) before the evidence."""
    if (clicked.output or "").startswith("downloaded"):
        return SkillResult(True, clicked.output, evidence=said + (clicked.output or ""))
    page = page_in_front(context)
    return replace(page, evidence=said + page.evidence) if page.ok else page


class FollowResult(SkillParameters):
    """Which result, as a person says it ("the top hit"): the 1.5B planner wrote ``place: 3``
    for "download the top hit" of arxiv.org's search, the third paper was downloaded and the
    run said "finished" (a rewording of pc15, 2026-12-04); every gold program of the generated
    tasks follows the first. Read alone, among the first five places."""

    place: int = Field(
        1,
        ge=1,
        le=20,
        description="1: the first result, 2: the second, ...",
        json_schema_extra=choice(
            "Which result of the list does the instruction ask to follow?",
            (1, "the first result (the top one)"),
            (2, "the second result"),
            (3, "the third result"),
            (4, "the fourth result"),
            (5, "the fifth result"),
        ),
    )


@skill(
    "Follow a result of the page of search results in front by its place (1: the first; the "
    "web search's results or a site's own search) and read where it leads (a file downloads).",
    apps=(APP,),
    page="follows",
    returns="the result's page's text",
)
def follow_result(context: SkillContext, parameters: FollowResult) -> SkillResult:
    # Why: a site's own search (arxiv.org's) lists each result under a link that reads its
    # number, which no instruction gives, so "download the first result" had no link to name
    # (pc15, 2026-12-02); a result's place is a typed value the model reads off the words.
    reading = do(context, BrowserRead()).output or ""
    results = search_results(reading)
    if len(results) < parameters.place:
        return SkillResult.failed(
            f"the page in front ({line_after(reading, 'Title: ')!r}) lists {len(results)} "
            f"results, not {parameters.place}: search first, or follow a link by its text"
        )
    link = results[parameters.place - 1]
    return _where_it_led(
        context, _take(context, link), f"result {parameters.place}: {link.shown()}. "
    )


def _on_the_page_before(
    context: SkillContext, text: str, missed: ActionOutcome, reading: str
) -> ActionOutcome:
    """The link reading ``text`` clicked on the page before the one in front (the browser's
    Back), where no link of this page is meant. Why: a program is written before its pages are
    seen, and the 1.5B planner followed a list's second film from the first film's page, where
    it is not (pc11, 2026-12-02); a person goes back to the list. Where the page before has no
    such link either, the page in front is opened again and the step fails as it would have."""
    here = line_after(reading, "Address: ")
    went = context.act(act.Hotkey(keys=("alt", "Left")))
    before = line_after(context.act(BrowserRead()).output or "", "Address: ")
    clicked = context.act(BrowserClick(text=text)) if went.ok and before != here else None
    if clicked is None or not clicked.ok:
        if here and before != here:
            context.act(BrowserOpen(url=here))
        raise StepFailed(missed, "browser_click")
    return clicked


def _take(context: SkillContext, link: PageLink) -> ActionOutcome:
    """Click ``link`` by its text (a shortened text by its start), or open its address where
    the click cannot tell it from another link."""
    clicked = context.act(BrowserClick(text=link.text.removesuffix("…")))
    return clicked if clicked.ok else do(context, BrowserOpen(url=link.address))


@skill(
    "Fill the fields of the form on the page in front by their labels, submit it and read "
    "the page that follows.",
    apps=(APP,),
    page="fills",
    returns="the page's text",
)
def fill_form(context: SkillContext, parameters: FillForm) -> SkillResult:
    return form_filled(context, parameters)


@skill(
    "Search the web for each thing alone and find the same value for each (a population, a "
    "price, a rating, a travel time); the result is one row [thing, value] a thing.",
    apps=(APP,),
    needs_language=True,
    returns="list of [thing, value] rows",
    gives_list=True,
)
def web_search_each(context: SkillContext, parameters: WebSearchEach) -> SkillResult:
    return searched_each(context, parameters, web_search)
