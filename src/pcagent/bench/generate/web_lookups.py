"""What the templates that look several things up on the web share: which things are drawn
(countries' populations on facts.local, the offline films' IMDb ratings), how one is found (a
web search, the value extracted from what it read: ``web_search_each``), and the nodes and reference steps that
check each page was visited.

A thing's name in the program may be a literal ("Canada") or a slot of a list found earlier
(``{s2.countries[0]}``); the nodes and references always use the real name and page.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from pydantic import JsonValue

from pcagent.agents.program import ProgramStep
from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import template_parts as parts
from pcagent.bench.generate.template_base import Slot
from pcagent.bench.generate.templates_browser import FILM_IDS, POPULATION_SLUGS
from pcagent.bench.tasks import ReferenceStep, SubGoal
from pcagent.bench.web.data import FACTS, MOVIES, country_name
from pcagent.skills.values import plain_number

Subject = Literal["population", "rating"]

#: The made-up films whose rating no built-in task expects: a generated task never expects a
#: built-in task's value (8.3 is a rating pc17 looks up, 8 a count of another; the leakage test
#: in tests/bench/test_generated_tasks.py reads them from the tasks).
RATED_FILMS: tuple[str, ...] = tuple(f for f in FILM_IDS if MOVIES[f]["rating"] not in (8.0, 8.3))


def drawn_things(
    rng: random.Random, subject: Subject, count: int
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[float, ...]]:
    """``count`` different things of ``subject``: their keys (a country's slug, a film's id),
    names and values."""
    if subject == "population":
        keys = tuple(rng.sample(POPULATION_SLUGS, count))
        return (
            keys,
            tuple(country_name(key) for key in keys),
            tuple(float(FACTS["population"][key]) for key in keys),
        )
    keys = tuple(rng.sample(RATED_FILMS, count))
    return (
        keys,
        tuple(MOVIES[key]["title"] for key in keys),
        tuple(float(MOVIES[key]["rating"]) for key in keys),
    )


def number_text(value: float) -> str:
    """A value as a checker expects it written: as ``sort_items`` gives it and a text writes
    its rows ("41288599", "6.9")."""
    return str(plain_number(value))


@dataclass(frozen=True)
class Lookup:
    """How one thing is found: the search's words and the value extracted (as the program
    writes them), and the page the search's first result is."""

    #: The thing's real name, for the nodes and references.
    name: str
    query: str
    host: str
    path: str
    value_name: str
    what: str
    #: The page's address, as the references open it.
    url: str


#: Per subject, how a thing is found, as format strings: ``{said}`` is the thing as the program
#: writes it, ``{key}`` its slug or id. In order: the search's words, the host, the page's path
#: (a prefix), the page's address, the value's name and what the extraction looks for.
_FOUND_BY: dict[Subject, tuple[str, str, str, str, str, str]] = {
    "population": (
        "population of {said}",
        "facts.local",
        "/population/{key}",
        "http://facts.local/population/{key}",
        "population",
        "the population of {said}",
    ),
    "rating": (
        "{said} IMDb rating",
        "www.imdb.com",
        "/title/{key}",
        "https://www.imdb.com/title/{key}/",
        "rating",
        "the IMDb rating of {said}",
    ),
}


def lookup(subject: Subject, key: str, written: str = "") -> Lookup:
    """How the thing ``key`` is found, the program naming it ``written`` (its name when "")."""
    name = country_name(key) if subject == "population" else MOVIES[key]["title"]
    query, host, path, url, value_name, what = _FOUND_BY[subject]
    fields = {"said": written or name, "key": key}
    return Lookup(
        name,
        query=query.format(**fields),
        host=host,
        path=path.format(**fields),
        value_name=value_name,
        what=what.format(**fields),
        url=url.format(**fields),
    )


#: The words searched for with each thing's name, per subject (``web_search_each``'s ``search``).
_SEARCHED_WITH: dict[Subject, str] = {"population": "population", "rating": "IMDb rating"}


def web_search_each_step(step_id: str, subject: Subject, things: JsonValue) -> ProgramStep:
    """The one step that looks each thing up (a search and the value extracted from what it
    read, the first result being the thing's page) and gives rows ``[thing, value]``;
    ``things`` is a list of names or a reference to a list found earlier."""
    return programs.call(
        step_id,
        "web_search_each",
        things=things,
        search=_SEARCHED_WITH[subject],
        value=_FOUND_BY[subject][4],
    )


def visited_parts(
    slot: Slot, lookups: list[Lookup], after: list[str] | None = None
) -> tuple[list[SubGoal], list[ReferenceStep], list[ReferenceStep]]:
    """Each thing's page visited: the nodes (after ``after``, or the sub-task before), and
    both references' steps (the page opened through the address bar and waited for, or by
    the browser's action)."""
    nodes = [
        parts.node(
            slot,
            f"visited_{number}",
            "web_visited",
            {"host": found.host, "path_prefix": found.path},
            after=after,
            final=False,
            description=f"the browser opened the page of {found.name}",
        )
        for number, found in enumerate(lookups, start=1)
    ]
    reference = [gui.act("open_app", app="browser")]
    for found in lookups:
        reference += [
            gui.act("hotkey", keys=["ctrl", "l"]),
            gui.act("type", text=found.url + "\n"),
            gui.wait_for(found.name),
        ]
    return nodes, reference, [gui.act("browser_open", url=found.url) for found in lookups]
