"""One value looked up on the web for each of several things, as one skill.

Why: asked for the populations of three countries, the share prices of three companies or the
prices of one console at three shops, the 1.5B planner wrote one search for all of them and
extracted one value, which it then gave to every item (pc07, pc08 and pc24 of the 25,
2026-12-03; the doubt that names it re-asked the planner and the re-asks wrote the same). The
programs that work take two steps a thing (a search, then the value extracted from what it
read) and seven steps for three things, which the model did not copy. Here the things are one
list, as the request names them, and code does a search and an extraction for each in turn:
the program is one step, and each value is checked in the page it came from, as
``extract_values`` checks it.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field, WithJsonSchema

from pcagent.skills import browser, language
from pcagent.skills.base import SkillContext, SkillParameters, SkillResult, skill
from pcagent.skills.lists import listed_items, without_marker


def _things(value: object) -> object:
    """A list the program gives as one text (an extracted value, "Singapore, Bangkok and
    Dubai", or a note's lines) as its items; a list as it is."""
    if isinstance(value, str):
        return [without_marker(item) for item in listed_items(value)]
    return value


#: The most things one step looks up: eight searches and extractions take minutes already.
MAX_THINGS = 8

#: The things as the grammar takes them: a list of names, or one text that lists them (a value
#: an earlier step found, passed by its slot or whole).
_THINGS_SCHEMA = {
    "anyOf": [
        {
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": 100},
            "minItems": 2,
            "maxItems": MAX_THINGS,
        },
        {"type": "string", "minLength": 1, "maxLength": 400},
    ]
}


class WebSearchEach(SkillParameters):
    things: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=100)]],
        BeforeValidator(_things),
        WithJsonSchema(_THINGS_SCHEMA),
    ] = Field(
        min_length=2,
        max_length=MAX_THINGS,
        description='The things, each looked up alone, e.g. ["China", "India"].',
    )
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


@skill(
    "Search the web for each thing alone and find the same value for each (a population, a "
    "price, a rating, a travel time); the result is one row [thing, value] a thing.",
    apps=(browser.APP,),
    needs_language=True,
    returns="list of [thing, value] rows",
    gives_list=True,
)
def web_search_each(context: SkillContext, parameters: WebSearchEach) -> SkillResult:
    rows: list[list[str]] = []
    named = parameters.value.replace("_", " ")
    for thing in parameters.things:
        query = f"{parameters.search} {thing}"
        found = browser.web_search.call(context, {"query": query})
        if not found.ok:
            return SkillResult.failed(f"web_search_each: {thing}: {found.message}", found.evidence)
        value = language.extract_values.call(
            context,
            {
                "text": found.value_text(),
                "names": [parameters.value],
                "what": f"the {named} of {thing}",
            },
        )
        if not value.ok:
            return SkillResult.failed(
                f"web_search_each: {thing}: the search {query!r} read no {named}: {value.message}",
                value.evidence,
            )
        found_value = value.value.get(parameters.value) if isinstance(value.value, dict) else None
        rows.append([thing, str(found_value)])
    return SkillResult(True, rows, evidence="; ".join(f"{thing}={found}" for thing, found in rows))
