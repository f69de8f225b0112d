"""A form filled on the search engine's page of results is looked for on the results' pages, in
order (orchestration on a browser that answers as the real one does; the real browser and the
offline maps in tests/env/app_interfaces/test_browser_actions.py)."""

from __future__ import annotations

from tests.skills.test_browser_links import RESULTS
from tests.skills.test_language_skills import Desk

from pcagent.app_actions import BrowserFill, BrowserOpen, BrowserRead
from pcagent.env.app_interfaces.web_page import PageView, Target, describe
from pcagent.env.web_address import search_address
from pcagent.skills.base import ActionOutcome
from pcagent.skills.browser import a_page, fill_form, web_search

FORM = {"fields": [{"label": "From", "value": "Harlem"}, {"label": "To", "value": "Battery Park"}]}
BATTERY = "http://maps.local/directions?from=ESB&to=Battery+Park"


class Pages(Desk):
    """A browser whose pages are readings by address; a field fills only on the pages in
    ``with_form``."""

    def __init__(self, front: PageView, with_form: tuple[str, ...]) -> None:
        super().__init__(None)
        self.address, self.readings = front.url, {front.url: describe(front)}
        self.with_form = with_form
        self.acted: list[object] = []

    def act(self, action: object) -> ActionOutcome:
        self.acted.append(action)
        if isinstance(action, BrowserOpen):
            self.address = action.url
            return ActionOutcome(True, f"opened {action.url}", "", True)
        if isinstance(action, BrowserRead):
            reading = self.readings.get(self.address, f"Title: a page\nAddress: {self.address}")
            return ActionOutcome(True, "read", reading, True)
        if isinstance(action, BrowserFill):
            if self.address in self.with_form:
                return ActionOutcome(True, f"filled {action.label}", action.value, True)
            return ActionOutcome(False, f"no field on this page reads {action.label!r}")
        raise AssertionError(f"unexpected {action!r}")

    def opened(self) -> list[str]:
        return [a.url for a in self.acted if isinstance(a, BrowserOpen)]


def test_the_results_are_opened_in_order_until_one_has_the_field() -> None:
    browser = Pages(RESULTS, with_form=(BATTERY,))
    result = fill_form.call(browser, FORM)
    assert result.ok, result.value
    assert browser.opened() == [
        "http://maps.local/directions?from=ESB&to=Brooklyn+Museum",
        BATTERY,
    ]  # the engine's own link is no result
    assert "the page of results has no field 'From'" in result.evidence
    assert "Battery Park - Offline Maps" in result.evidence
    filled = [a for a in browser.acted if isinstance(a, BrowserFill)]
    assert [(f.label, f.submit) for f in filled[-2:]] == [("From", False), ("To", True)]


def test_a_result_whose_address_asks_for_every_value_is_read_without_filling() -> None:
    """The maps' result for a route is its directions page, the form filled in: submitted
    again with the same values, the page did not change and the fill failed."""
    asked = {
        "fields": [{"label": "From", "value": "esb"}, {"label": "To", "value": "Battery  park"}]
    }
    browser = Pages(RESULTS, with_form=(BATTERY,))
    result = fill_form.call(browser, asked)
    assert result.ok and browser.opened() == [BATTERY]
    assert "already asks for these values" in result.evidence
    assert [a.label for a in browser.acted if isinstance(a, BrowserFill)] == ["From"]
    # The same values the other way round ask for another way: the form is filled.
    back = {"fields": [{"label": "From", "value": "Battery Park"}, {"label": "To", "value": "ESB"}]}
    browser = Pages(RESULTS, with_form=(BATTERY,))
    assert fill_form.call(browser, back).ok
    assert [a.label for a in browser.acted if isinstance(a, BrowserFill)][-2:] == ["From", "To"]


def test_with_no_result_holding_the_field_the_step_fails_back_on_the_results() -> None:
    browser = Pages(RESULTS, with_form=())
    result = fill_form.call(browser, FORM)
    assert not result.ok
    assert "nor has any of the 2 results' pages" in result.message
    assert browser.address == RESULTS.url


def test_a_page_that_is_not_the_engine_s_results_is_never_left() -> None:
    site = PageView("http://shop-a.local/", "Shop", "", RESULTS.targets, ())
    browser = Pages(site, with_form=(BATTERY,))
    result = fill_form.call(browser, FORM)
    assert not result.ok and browser.opened() == []


def test_a_web_search_searches_whatever_its_words_look_like() -> None:
    """A file's name searched for ("memo.txt") opened the site memo.txt, which does not exist."""
    browser = Pages(RESULTS, with_form=())
    web_search.call(browser, {"query": "memo.txt"})
    assert browser.opened() == ["http://search.local/?q=memo.txt"]
    assert search_address(" Brooklyn Museum ") == "http://search.local/?q=Brooklyn+Museum"


def test_a_web_search_reads_the_first_result_and_leaves_the_results_in_front() -> None:
    """The results show a line about each page; the travel time is on the page the first
    result leads to, read after them. A result that may be a file is not opened."""
    browser = Pages(RESULTS, with_form=())
    first = "http://maps.local/directions?from=ESB&to=Brooklyn+Museum"
    browser.readings[first] = f"Title: ESB to Brooklyn Museum\nAddress: {first}\nText:\n38 min"
    found = web_search.call(browser, {"query": "time to the meeting"})
    assert found.ok, found.message
    assert browser.opened() == [RESULTS.url, first, RESULTS.url]
    assert browser.address == RESULTS.url
    text = str(found.value)
    assert text.index("About 3 results") < text.index(f"The first result, {first}, opened:")
    assert text.endswith("38 min")
    # a first result that may be a file is left alone
    paper = PageView(RESULTS.url, RESULTS.title, "", (RESULTS.targets[0], *_file_link()), ())
    browser = Pages(paper, with_form=())
    found = web_search.call(browser, {"query": "time to the meeting"})
    assert found.ok and browser.opened() == [RESULTS.url]
    assert "first result" not in str(found.value)


def test_an_address_ending_in_digits_after_a_dot_is_a_page() -> None:
    """arxiv.org's paper "/abs/1706.03762" was left unread as if it were a file (a rewording
    of pc10, 2026-12-05)."""
    assert a_page("https://arxiv.org/abs/1706.03762")
    assert a_page("http://maps.local/directions?from=ESB&to=Brooklyn+Museum")
    assert a_page("http://example.org/news/index.html")
    assert not a_page("http://arxiv.local/pdf/2501.00001.pdf")
    assert not a_page("http://example.org/files/data.tar.gz")


def _file_link() -> tuple[Target, ...]:
    return (Target(2, "The paper (PDF)", "http://arxiv.local/pdf/2501.00001.pdf", "link"),)
