"""The work of ``web_search_each`` (declared with the other browser skills in
:mod:`pcagent.skills.browser`): one value of each of several things, looked up on the web, a
search and an extraction a thing, each value checked in the page it came from."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic.json_schema import SkipJsonSchema

from pcagent.skills import language
from pcagent.skills.base import Skill, SkillContext, SkillParameters, SkillResult
from pcagent.skills.lists import listed_things, without_things
from pcagent.text import comparable, contains

#: The most things one ``web_search_each`` looks up: eight searches and extractions take minutes.
MAX_THINGS = 8


class WebSearchEach(SkillParameters):
    # The grammar takes a list of names, or one text that lists them (a value found earlier).
    things: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=100)]],
        BeforeValidator(listed_things),
        WithJsonSchema(
            {
                "anyOf": [
                    {"type": "array", "items": {"type": "string", "minLength": 1,
                     "maxLength": 100}, "minItems": 2, "maxItems": MAX_THINGS},
                    {"type": "string", "minLength": 1, "maxLength": 400},
                ]
            }
        ),
    ] = Field(
        min_length=2,
        max_length=MAX_THINGS,
        description='The things, each looked up alone, e.g. ["China", "India"].',
    )  # fmt: skip
    search: str = Field(
        min_length=1,
        max_length=200,
        description='The words searched for with each thing\'s name, e.g. "population" or '
        '"flight time from Beijing to".',
    )
    value: str = Field(
        pattern=language.NAME_PATTERN,
        description='The name of the value found for each thing, e.g. "population".',
    )
    #: Filled by the program's mends, never by a model (not in any schema a model sees): the
    #: rows go to a comparison of numbers (``sort_items``, ``pick_extreme``), so each value
    #: must be a number (:mod:`pcagent.agents.numbers_wanted`).
    numbers: SkipJsonSchema[bool] = False


def searched_each(
    context: SkillContext, parameters: WebSearchEach, search: Skill[Any]
) -> SkillResult:
    """``web_search_each``'s work (the skill is declared in :mod:`pcagent.skills.browser`,
    whose ``web_search`` is ``search``)."""
    # Asked for three countries' populations, three share prices or one console's price at three
    # shops, the 1.5B planner wrote one search for all and gave the one value it extracted to
    # every item (pc07, pc08, pc24, 2026-12-03); the programs that work take two steps a thing,
    # which it did not copy. Here the things are one list and code searches for each in turn,
    # each value checked in the page it came from as extract_values checks it.
    rows: list[list[str]] = []
    named = parameters.value.replace("_", " ")
    words = without_things(parameters.search, parameters.things)
    for thing in parameters.things:
        query = f"{words} {thing}"
        found = search.call(context, {"query": query})
        if not found.ok:
            return SkillResult.failed(f"web_search_each: {thing}: {found.message}", found.evidence)
        # Where the rows are compared as numbers, each value is asked for as a number written
        # (its reply's grammar holds the model to one: extract_values' ``numbers``).
        numbers = [parameters.value] if parameters.numbers else []
        asked = {"text": found.value_text(), "names": [parameters.value], "numbers": numbers}
        # The search's words say what the value is where its name is short ("stock" for a
        # share price read as the company's ticker, pc07, 2026-12-03).
        what = f"the {named} of {thing} (searched for: {query})"
        value = language.extract_values.call(context, {**asked, "what": what})
        if not value.ok:
            return SkillResult.failed(
                f"web_search_each: {thing}: the search {query!r} read no {named}: {value.message}",
                value.evidence,
            )
        found = str(value.value.get(parameters.value))  # type: ignore[union-attr]
        if unfit := _no_value_of(thing, found, asked["text"]):
            # Asked once more, told what the first answer was: pc20 at 914764a read Kyoto's
            # page's title as its attractions, failed, and the re-plan wrote the same look-up.
            told = f"{what}; not {found[:100]!r}, which is {unfit}: copy the {named} itself"
            again = language.extract_values.call(context, {**asked, "what": told})
            found = str(again.value.get(parameters.value)) if again.ok else found  # type: ignore[union-attr]
            if not again.ok or (unfit := _no_value_of(thing, found, asked["text"])):
                return SkillResult.failed(
                    f"web_search_each: {thing}: the {named} read is {unfit}, not a value of it "
                    "(asked twice)" + _named_so(unfit),
                    value.evidence,
                )
        rows.append([thing, found])
    return SkillResult(True, rows, evidence="; ".join(f"{thing}={found}" for thing, found in rows))


#: What a value is that only repeats the thing's own name.
OWN_NAME = "the thing's own name"


def _named_so(unfit: str) -> str:
    """The advice to the re-plan where the value was the thing's name: the value's own name
    said too little of it."""
    return ': name the value to find (value, e.g. "flight_time")' if unfit == OWN_NAME else ""


def _no_value_of(thing: str, found: str, text: str) -> str:
    """What ``found`` is where it is no value of ``thing`` ("" where it may be one): the
    thing's own name (a value without a digit its name holds: asked for "the flight of" each
    of three destinations, the 1.5B model answered each destination's name, a rewording of
    pc06, 2026-12-05), or a page's title (asked for the attractions of two cities, it answered
    each page's title, "Top tourist attractions in Tokyo - World Facts", and the text composed
    from them named sights of its own, the Eiffel Tower in Tokyo: a rewording of pc20 the
    same day)."""
    if found.strip() and not any(c.isdigit() for c in found) and contains(thing, found):
        return OWN_NAME
    titles = {
        comparable(line[len("Title:") :]) for line in text.splitlines() if line.startswith("Title:")
    }
    return "a page's title" if comparable(found) in titles else ""
