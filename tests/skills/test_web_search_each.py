"""One value looked up for each of several things: a search and an extraction a thing, each
value checked in the page it came from (orchestration on a browser that answers with
readings; the search and the extraction are tested on the real browser and model elsewhere)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from tests.agents.program_steps import program
from tests.skills.test_language_skills import Answers, Desk

from pcagent.agents.program import check_program
from pcagent.app_actions import BrowserOpen, BrowserRead
from pcagent.skills import default_catalog
from pcagent.skills.base import ActionOutcome
from pcagent.skills.browser import web_search_each
from pcagent.skills.lists import without_things
from pcagent.skills.values import pick_extreme, sort_items

POPULATIONS = {"China": "1,419,321,278", "India": "1,450,935,791", "Chile": "19,764,771"}


class Facts(Desk):
    """A browser on a search engine whose first result for a country is its facts page."""

    def __init__(self, model: object) -> None:
        super().__init__(model)
        self.address = ""
        self.opened: list[str] = []

    def act(self, action: object) -> ActionOutcome:
        if isinstance(action, BrowserOpen):
            self.address = action.url
            self.opened.append(action.url)
            return ActionOutcome(True, f"opened {action.url}", "", True)
        assert isinstance(action, BrowserRead), action
        return ActionOutcome(True, "read", self._reading(), True)

    def _reading(self) -> str:
        parts = urlsplit(self.address)
        if parts.hostname == "search.local":
            words = parse_qs(parts.query)["q"][0]
            country = next(name for name in POPULATIONS if name in words)
            page = f"http://facts.local/population/{country.lower()}"
            return (
                f"Title: {words} - Offline Search\nAddress: {self.address}\nText:\nAbout 1 "
                f'result\nLinks:\n- "Population of {country} - World Facts" -> {page}'
            )
        country = parts.path.rsplit("/", 1)[-1].title()
        return (
            f"Title: Population of {country}\nAddress: {self.address}\nText:\n{country} has "
            f"a population of {POPULATIONS[country]} people."
        )


def test_each_thing_is_searched_alone_and_its_value_found_in_its_own_page() -> None:
    model = Answers(*({"population": POPULATIONS[name]} for name in ("China", "India", "Chile")))
    browser = Facts(model)
    args = {"things": ["China", "India", "Chile"], "search": "population", "value": "population"}
    found = web_search_each.call(browser, args)
    assert found.ok, found.message
    assert found.value == [[name, POPULATIONS[name]] for name in ("China", "India", "Chile")]
    # (each search's results are opened again after its first result is read)
    searched = list(dict.fromkeys(url for url in browser.opened if "search.local/?q=" in url))
    assert searched == [
        f"http://search.local/?q=population+{n}" for n in ("China", "India", "Chile")
    ]
    # Each extraction is asked about its own thing, over the page its search read.
    assert "Find: the population of India (searched for: population India)" in model.prompts[1]
    assert "India has a population of 1,450,935,791" in model.prompts[1]
    # The rows go whole into the skills that compare labelled values.
    ordered = sort_items.call(browser, {"items": found.value, "first": "highest"})
    assert [row[0] for row in ordered.value] == ["India", "China", "Chile"]
    assert pick_extreme.call(browser, {"items": found.value, "which": "smallest"}).value == {
        "label": "Chile",
        "value": 19764771,
    }


def test_a_thing_s_own_name_read_as_its_value_fails_the_step() -> None:
    """A rewording of pc06 (2026-12-05): asked for "the flight of" each destination, the model
    answered each destination's name, and the next step failed on names for numbers."""
    model = Answers({"flight": "China"})
    args = {"things": ["China", "India"], "search": "population", "value": "flight"}
    found = web_search_each.call(Facts(model), args)
    assert not found.ok and "China: the flight read is the thing's own name" in found.message
    # A page's title is no value either (a rewording of pc20: "Top tourist attractions in
    # Tokyo - World Facts" read as Tokyo's attractions).
    model = Answers({"population": "Population of China"})
    args = {"things": ["China", "India"], "search": "population", "value": "population"}
    found = web_search_each.call(Facts(model), args)
    assert not found.ok and "China: the population read is a page's title" in found.message
    # Asked once more, told what the first answer was, a value the page holds is taken (pc20
    # at 914764a: Kyoto's page's title read as its attractions, the re-plan the same look-up).
    model = Answers(
        {"population": "Population of China"},
        {"population": POPULATIONS["China"]},
        {"population": POPULATIONS["India"]},
    )
    found = web_search_each.call(Facts(model), args)
    assert found.ok and found.value[0] == ["China", POPULATIONS["China"]], found.message
    assert "not 'Population of China', which is a page's title" in model.prompts[1]
    # A number is a value even where the thing's name holds it ("2001: A Space Odyssey").
    model = Answers({"population": "1,419,321,278"}, {"population": "1,450,935,791"})
    args = {"things": ["China", "India"], "search": "population", "value": "population"}
    assert web_search_each.call(Facts(model), args).ok


def test_a_value_the_page_does_not_hold_fails_the_step_and_names_the_thing() -> None:
    model = Answers({"population": POPULATIONS["China"]}, {"population": "2 billion"})
    args = {"things": ["China", "India"], "search": "population", "value": "population"}
    found = web_search_each.call(Facts(model), args)
    assert not found.ok
    assert found.message.startswith("web_search_each: India: the search 'population India'")
    assert "2 billion" in found.message


def test_things_given_as_one_found_text_are_its_items() -> None:
    """A note's list, extracted as one value ("1. China, 2. India and Chile")."""
    model = Answers(*({"population": POPULATIONS[name]} for name in ("China", "India", "Chile")))
    args = {"things": "1. China, 2. India and Chile", "search": "population", "value": "population"}
    assert [row[0] for row in web_search_each.call(Facts(model), args).value] == [
        "China",
        "India",
        "Chile",
    ]


def test_search_words_that_name_the_things_are_searched_without_them() -> None:
    """One search for all, made a look-up of each (pc06, 2026-12-03): each search names its
    own thing alone."""
    model = Answers(*({"population": POPULATIONS[name]} for name in ("China", "India", "Chile")))
    browser = Facts(model)
    args = {
        "things": ["China", "India", "Chile"],
        "search": "population of China, India and Chile",
        "value": "population",
    }
    assert web_search_each.call(browser, args).ok
    searched = list(dict.fromkeys(url for url in browser.opened if "search.local/?q=" in url))
    assert searched == [
        f"http://search.local/?q=population+of+{n}" for n in ("China", "India", "Chile")
    ]
    assert without_things("flight time to Singapore, Bangkok, Dubai", ["Bangkok", "Dubai",
        "Singapore"]) == "flight time to"  # fmt: skip
    assert without_things("population", ["China"]) == "population"
    assert without_things("China", ["China"]) == "China"  # nothing besides: as written


def test_a_program_looks_up_a_list_found_earlier_and_sorts_the_rows_whole() -> None:
    apps = ["text_editor", "browser", "spreadsheet"]
    steps = program(
        {"skill": "read_text_file", "args": {"path": "Documents/trip.txt"}},
        {
            "skill": "extract_values",
            "args": {"text": {"from": "s1"}, "names": ["cities"], "what": "the cities"},
        },
        {
            "skill": "web_search_each",
            "args": {
                "things": {"from": "s2", "key": "cities"},
                "search": "flight time from Beijing to",
                "value": "flight_time",
            },
        },
        {"skill": "pick_extreme", "args": {"items": {"from": "s3"}, "which": "smallest"}},
        {"skill": "tell_user", "args": {"text": {"from": "s4", "key": "label"}}},
    )
    check_program(steps, default_catalog(), apps)


def test_values_compared_as_numbers_are_asked_for_as_numbers() -> None:
    """pc07: the companies' names and tickers were read as their "stock", then sorted; asked
    again, "AAPL" came back twice (9d0c5d5). Where the rows are compared, the reply's own
    shape holds the model to a number written (the grammar, on a real model)."""
    args = {"things": ["China", "India"], "search": "population", "value": "population"}
    model = Answers({"population": POPULATIONS["China"]}, {"population": POPULATIONS["India"]})
    found = web_search_each.call(Facts(model), {**args, "numbers": True})
    assert found.ok, found.message
    assert found.value == [[name, POPULATIONS[name]] for name in ("China", "India")]
    assert "Values: population (a number, as the text writes it)" in model.prompts[0]
    refused = web_search_each.call(
        Facts(Answers({"population": "people"})), {**args, "numbers": True}
    )
    assert not refused.ok
    assert "China: the search 'population China' read no population" in refused.message
    # Rows that go nowhere numbers are compared keep what was read.
    model = Answers({"population": "people"}, {"population": POPULATIONS["India"]})
    assert web_search_each.call(Facts(model), args).value[0] == ["China", "people"]
    assert "a number" not in model.prompts[0]


def test_the_parameters_code_fills_in_are_in_no_skill_line_a_model_reads() -> None:
    catalog = default_catalog()
    hidden_ones = (
        ("web_search_each", "numbers"),
        ("extract_values", "uses"),
        ("extract_values", "numbers"),
    )
    for name, hidden in hidden_ones:
        one = catalog.get(name)
        assert hidden in one.parameters.model_fields
        assert hidden not in one.signature() and hidden not in one.short_signature()
    assert "value: str" in catalog.get("web_search_each").signature()
