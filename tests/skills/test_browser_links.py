"""Following a link a program named in words of its own: code takes a link that reads the words
clearly, a model says which link they mean otherwise, and code clicks the link it named. The
page reading is the browser's own (``web_page.describe``); the real model path runs on smollm2,
the real browser path in tests/env/app_interfaces/test_browser_actions.py."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar, get_args

from pydantic import BaseModel
from tests.skills.test_language_skills import Desk
from tests.support import smollm2_config

from pcagent.actions.keyboard import Hotkey
from pcagent.app_actions import BrowserClick, BrowserOpen, BrowserRead
from pcagent.env.app_interfaces.web_page import PageView, Target, describe
from pcagent.models import ModelRouter
from pcagent.runtime.loop.dispatch import ModelLanguage
from pcagent.skills.base import ActionOutcome
from pcagent.skills.browser import follow_link, leads_away, search_results
from pcagent.skills.browser_links import (
    PageLink,
    _choice_model,
    link_meant,
    page_links,
    results_listed,
)
from pcagent.step_context import StepContext

T = TypeVar("T", bound=BaseModel)

RESULTS = PageView(
    url="http://search.local/?q=time+to+the+meeting",
    title="time to the meeting - Offline Search",
    text="About 3 results",
    targets=(
        Target(0, "Offline Search", "http://search.local/", "link"),
        Target(1, "Search", "", "button"),
        Target(
            2,
            "Empire State Building to Brooklyn Museum - Offline Maps",
            "http://maps.local/directions?from=ESB&to=Brooklyn+Museum",
            "link",
        ),
        Target(
            3,
            "Empire State Building to Battery Park - Offline Maps",
            "http://maps.local/directions?from=ESB&to=Battery+Park",
            "link",
        ),
    ),
    fields=(),
)
READING = describe(RESULTS)
PLACE = '{"place": "Brooklyn Museum"}'
PAPERS_FOUND = (
    ("2410.02345", "A Multimodal Agent for Everyday Desktop Automation", "Marta Kowalczyk"),
    ("2402.03333", "Planning over Screenshots with a Multimodal Agent", "Ravi Menon"),
)
TASK = "How long does it take from the Empire State Building to my 14:00 meeting's place?"


class Chooses:
    """A language model that answers one number of a list (orchestration only), keeping prompts."""

    def __init__(self, number: int | None) -> None:
        self.number = number
        self.prompts: list[str] = []

    def answer(self, system: str, user: str, schema: type[T]) -> T | None:
        self.prompts.append(user)
        if self.number is None:
            return None
        if "answer" in schema.model_fields:  # a page of results: its lines, "none of them" last
            options = get_args(schema.model_fields["answer"].annotation)
            return schema.model_validate({"answer": options[self.number - 1]})
        return schema.model_validate({"number": self.number})


class Browser(Desk):
    """A browser as a skill uses it: a click works only on the texts in ``clickable``."""

    def __init__(
        self, model: object, clickable: tuple[str, ...] = (), reading: str = READING
    ) -> None:
        super().__init__(model)
        self.clickable = clickable
        self.reading = reading
        self.acted: list[object] = []

    def act(self, action: object) -> ActionOutcome:
        self.acted.append(action)
        if isinstance(action, BrowserRead):
            return ActionOutcome(True, "read", self.reading, True)
        if isinstance(action, BrowserClick) and action.text not in self.clickable:
            return ActionOutcome(False, f"no link or button on this page reads {action.text!r}")
        return ActionOutcome(True, "clicked", "Directions\n38 min", True)

    def step(self) -> StepContext:  # type: ignore[override]
        found = {"s1": "Memo\n" + "14:00 Meeting at the Brooklyn Museum\n" * 10, "s2": PLACE}
        return StepContext(
            number=1, subtask_id="s4", subtask="follow", task=TASK, role="web", hub=found
        )


def test_a_reading_s_links_are_its_link_lines_and_a_results_page_leads_away() -> None:
    links = page_links(READING)
    assert [link.text for link in links] == [
        "Offline Search",
        "Empire State Building to Brooklyn Museum - Offline Maps",
        "Empire State Building to Battery Park - Offline Maps",
    ]  # the button is no link
    assert links[1].address == "http://maps.local/directions?from=ESB&to=Brooklyn+Museum"
    assert leads_away(READING)
    home = describe(PageView("http://maps.local/", "Maps", "", RESULTS.targets[:2], ()))
    assert not leads_away(home.replace("search.local", "maps.local"))


def test_words_no_link_reads_are_given_to_the_model_and_the_link_it_names_is_clicked() -> None:
    model = Chooses(1)
    wanted = "Empire State Building to Brooklyn Museum - Offline Maps"
    browser = Browser(model, clickable=(wanted,))
    result = follow_link.call(browser, {"text": "The Empire State Building"})
    assert result.ok, result.message
    clicks = [action for action in browser.acted if isinstance(action, BrowserClick)]
    assert clicks[-1] == BrowserClick(text=wanted)
    assert "the language model chose" in result.evidence and "Brooklyn Museum" in result.evidence
    prompt = model.prompts[0]
    assert TASK in prompt and "The Empire State Building" in prompt
    assert "- the second result: Empire State Building to Battery Park" in prompt
    # a results page offers its results, by place, not the engine's own links
    assert "Offline Search -" not in prompt and "the third result" not in prompt
    assert "time to the meeting - Offline Search" in prompt  # the page's title
    assert f"Found so far: s2: {PLACE}" in prompt and "Memo" not in prompt  # no long reading


def test_a_link_the_click_cannot_tell_apart_is_opened_by_its_address() -> None:
    browser = Browser(Chooses(2))  # no click succeeds
    result = follow_link.call(browser, {"text": "Battery"})
    assert result.ok, result.message
    assert BrowserOpen(url="http://maps.local/directions?from=ESB&to=Battery+Park") in (
        browser.acted
    )


def test_a_site_s_own_page_offers_every_link() -> None:
    site = PageView("http://maps.local/", "Offline Maps", "", RESULTS.targets[2:], ())
    model = Chooses(2)
    browser = Browser(model, clickable=(RESULTS.targets[3].text,), reading=describe(site))
    assert follow_link.call(browser, {"text": "the park"}).ok
    assert '2. "Empire State Building to Battery Park' in model.prompts[0]


def test_without_a_model_or_with_none_fitting_the_click_s_failure_stands() -> None:
    for model in (None, Chooses(0), Chooses(None)):
        browser = Browser(model)
        result = follow_link.call(browser, {"text": "The Empire State Building"})
        assert not result.ok
        assert "no link or button on this page reads 'The Empire State Building'" in (
            result.message
        )
        assert not any(isinstance(action, BrowserOpen) for action in browser.acted)
    clear = Browser(Chooses(None), clickable=("Offline Search",))
    assert follow_link.call(clear, {"text": "Offline Search"}).ok
    assert not any(isinstance(action, BrowserRead) for action in clear.acted[:1])


def test_the_real_model_answers_a_number_of_a_shown_link(tmp_path: Path) -> None:
    links = page_links(READING)
    with ModelRouter(smollm2_config(tmp_path)) as router:
        language = ModelLanguage(router.for_role("composer"))
        reply = language.answer("Choose a link.", "Links:\n1. a\n2. b\n3. c", _choice_model(3))
        # a page of results: the model answers one of its lines (or none), held by the grammar
        meant = link_meant(Browser(language), "the Brooklyn Museum directions", READING)
    assert reply is not None and 0 <= reply.number <= 3
    assert meant is None or meant in links[1:]


class WithHistory(Desk):
    """A browser of pages by address, each with the link texts a click takes (to the address
    after the text), and a Back key."""

    def __init__(
        self, links: dict[str, dict[str, str]], front: str, model: object | None = None
    ) -> None:
        super().__init__(model or Chooses(None))
        self.links, self.history = links, [front]
        self.acted: list[object] = []

    def act(self, action: object) -> ActionOutcome:
        self.acted.append(action)
        here = self.history[-1]
        if isinstance(action, BrowserRead):
            lines = "".join(f'- "{text}" -> {to}\n' for text, to in self.links[here].items())
            return ActionOutcome(True, "read", f"Title: {here}\nAddress: {here}\nLinks:\n{lines}")
        if isinstance(action, BrowserClick):
            if action.text not in self.links[here]:
                return ActionOutcome(False, f"no link or button on this page reads {action.text!r}")
            self.history.append(self.links[here][action.text])
        elif isinstance(action, BrowserOpen):
            self.history.append(action.url)
        elif isinstance(action, Hotkey) and action.keys == ("alt", "Left"):
            self.history.pop()
        return ActionOutcome(True, "done", None, True)


def test_a_link_not_on_the_page_is_followed_on_the_page_before() -> None:
    """Two films of a list followed one after the other: the second is on the list, not on the
    first film's page; Back, then the click. Where the page before has no such link either,
    the step fails on the page it began on."""
    films = {"Interstellar": "http://films/1", "12 Angry Men": "http://films/2"}
    pages = {"http://films/": films, "http://films/1": {}, "http://films/2": {}}
    browser = WithHistory(pages, "http://films/")
    assert follow_link.call(browser, {"text": "Interstellar"}).ok
    second = follow_link.call(browser, {"text": "12 Angry Men"})
    assert second.ok, second.message
    assert browser.history[-1] == "http://films/2" and "the page before had one" in second.evidence
    missing = follow_link.call(browser, {"text": "Casablanca"})
    assert not missing.ok and "reads 'Casablanca'" in missing.message
    assert browser.history[-1] == "http://films/2"


def test_a_link_the_chosen_result_s_page_holds_is_followed_there() -> None:
    """A rewording of pc15 (2026-12-05): "Download PDF" followed from a page of results, which
    lists papers; the model chooses a paper, and its page's "Download PDF" is clicked. Where
    the page chosen has no such link, the step ends on it as before."""
    results = {"First paper": "http://papers/1", "Second paper": "http://papers/2"}
    pages = {
        "http://search/?q=agents": results,
        "http://papers/1": {"Download PDF": "http://papers/pdf/1", "Home": "http://papers/"},
        "http://papers/2": {"Home": "http://papers/"},
        "http://papers/pdf/1": {},
    }
    browser = WithHistory(pages, "http://search/?q=agents", Chooses(1))
    result = follow_link.call(browser, {"text": "download pdf"})
    assert result.ok, result.message
    assert browser.history[1:] == ["http://papers/1", "http://papers/pdf/1"]
    assert "There a link read 'download pdf', and it was followed" in result.evidence
    second = WithHistory(pages, "http://search/?q=agents", Chooses(2))
    result = follow_link.call(second, {"text": "Download PDF"})
    assert result.ok and second.history[-1] == "http://papers/2"
    assert "There a link read" not in result.evidence


def test_a_page_s_results_are_its_links_away_or_else_its_own_links_but_home_and_itself() -> None:
    # The web search's page: the results lead to other sites; its own home link is none.
    assert [link.text for link in search_results(READING)] == [
        "Empire State Building to Brooklyn Museum - Offline Maps",
        "Empire State Building to Battery Park - Offline Maps",
    ]
    # A site's own search (arxiv.org's): its links to papers, not its home page nor itself.
    site = (
        "Title: Search | arXiv e-print repository\n"
        "Address: https://arxiv.org/search?query=depth\n"
        "Links:\n"
        '- "arXiv" -> https://arxiv.org/\n'
        '- "arXiv:2405.09876" -> https://arxiv.org/abs/2405.09876\n'
        '- "again" -> https://arxiv.org/search?query=depth\n'
        '- "arXiv:2401.01234" -> https://arxiv.org/abs/2401.01234\n'
    )
    assert [link.text for link in search_results(site)] == ["arXiv:2405.09876", "arXiv:2401.01234"]
    # A link whose address cannot be split (a bracket in its host) leads nowhere known: it is
    # passed over, not a crash of the step.
    broken = site.replace("https://arxiv.org/abs/2401.01234", "https://[arxiv.org/abs/2401")
    assert [link.text for link in search_results(broken)] == ["arXiv:2405.09876"]


ARXIV = describe(
    PageView(
        url="https://arxiv.org/search?query=multimodal+agent",
        title="Search | arXiv e-print repository",
        text="arXiv\nSearch\n"
        + "".join(f"arXiv:{n} {title} — {who}\n" for n, title, who in PAPERS_FOUND),
        targets=(
            Target(0, "arXiv", "https://arxiv.org/", "link"),
            *(
                Target(i + 1, f"arXiv:{n}", f"https://arxiv.org/abs/{n}", "link")
                for i, (n, _, _) in enumerate(PAPERS_FOUND)
            ),
        ),
        fields=(),
    )
)


def test_a_site_s_own_results_are_offered_by_place_with_their_lines() -> None:
    """A site's own search (its address asks a query, its links stay on the site): each result
    is shown with its place and the page's line that holds it; the answer is one of them."""
    assert [link.text for link in results_listed(ARXIV)] == [
        f"arXiv:{n}" for n, _, _ in PAPERS_FOUND
    ]
    model = Chooses(2)
    meant = link_meant(Browser(model), "Download PDF", ARXIV)
    assert meant == PageLink("arXiv:2402.03333", "https://arxiv.org/abs/2402.03333")
    prompt = model.prompts[0]
    assert "- the first result: arXiv:2410.02345 A Multimodal Agent for Everyday Desktop" in prompt
    assert "- the second result: arXiv:2402.03333 Planning over Screenshots" in prompt
    assert "Search | arXiv e-print repository" in prompt and "Download PDF" in prompt
    assert "the third result" not in prompt and '"arXiv" ->' not in prompt  # not the home link
    # "none of them" (the last option) names no link; the same page without its query is a
    # page of links, chosen by number
    assert link_meant(Browser(Chooses(3)), "Download PDF", ARXIV) is None
    plain = ARXIV.replace("search?query=multimodal+agent", "list")
    assert results_listed(plain) == []
    numbered = Chooses(1)
    assert link_meant(Browser(numbered), "Download PDF", plain) == PageLink(
        "arXiv", "https://arxiv.org/"
    )
    assert '1. "arXiv" -> https://arxiv.org/' in numbered.prompts[0]
