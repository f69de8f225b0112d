"""Templates for the browser on the offline websites: a film's fact on imdb.com, a country's
population on facts.local, and each of them asked for with no site named, found by a web search.

One module per application family, so a new browser template lands here beside the shared steps
that open a page, pick a value out of it and tell it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import JsonValue

from pcagent.agents.program import ProgramStep
from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate.flow import FlowValue
from pcagent.bench.generate.programs import FragmentProgram
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.template_parts import lookup_program, node, report_parts
from pcagent.bench.tasks import ReferenceStep, SubGoal
from pcagent.bench.web.data import FACTS, MOVIES, country_name

#: The offline IMDb's made-up films (ids tt0001...), never the real ones built-in tasks ask about.
FILM_IDS: tuple[str, ...] = tuple(sorted(m for m in MOVIES if len(m) == 6))
#: facts.local countries no built-in task looks up.
POPULATION_SLUGS: tuple[str, ...] = tuple(
    sorted(s for s in FACTS["population"] if s not in {"china", "india", "united-states"})
)


@dataclass(frozen=True)
class _PageVisit:
    """A page of an offline site the sub-task opens: its checker node and reference steps."""

    slot: Slot
    host: str
    path_prefix: str
    #: How the node's description names the page ("Copper Sky's page").
    page: str
    #: What the reference types into the address bar.
    address: str
    #: Words of the page's title, for the reference to wait on.
    title: str

    def parts(self, value: str) -> tuple[list[SubGoal], list[ReferenceStep], list[ReferenceStep]]:
        """The nodes, the reference steps, and the steps that tell ``value`` when the task ends
        with it (the API reference opens the page its own way, then tells the same)."""
        visited = node(
            self.slot,
            "visited",
            "web_visited",
            {"host": self.host, "path_prefix": self.path_prefix},
            final=False,
            description=f"the browser opened {self.page}",
        )
        report_nodes, report_steps = report_parts(self.slot, value, visited.id)
        reference = [
            gui.act("open_app", app="browser"),
            gui.act("hotkey", keys=["ctrl", "l"]),
            gui.act("type", text=self.address + "\n"),
            gui.wait_for(self.title),
            *report_steps,
        ]
        return [visited, *report_nodes], reference, report_steps


# --- browser: a film's fact on imdb.com ----------------------------------------------------------


class FilmLookup(TemplateAttributes):
    movie_id: str
    title: str
    field: Literal["runtime", "year"]
    value: int

    @property
    def description(self) -> str:
        if self.field == "runtime":
            return f"the running time of {self.title} in minutes"
        return f"the year {self.title} came out"


class BrowserFilmFact(SubtaskTemplate[FilmLookup], spec="browser_film_fact"):
    """Look up a film on the offline imdb.com and read its running time or year."""

    def draw(self, source: Draw) -> FilmLookup:
        movie_id = source.rng.choice(FILM_IDS)
        movie = MOVIES[movie_id]
        field: Literal["runtime", "year"] = source.rng.choice(("runtime", "year"))
        value = movie["runtime_minutes"] if field == "runtime" else movie["year"]
        return FilmLookup(movie_id=movie_id, title=movie["title"], field=field, value=value)

    #: Where the sub-task's description says the fact is found.
    where = "on imdb.com"

    def found_by(self, attributes: FilmLookup) -> list[ProgramStep]:
        """The program's steps to the film's page: the instruction names the site and the
        film, not the page, and imdb.com's home lists every film by its title."""
        return [
            programs.call("s1", "open_page", address="imdb.com"),
            programs.call("s2", "follow_link", text=attributes.title),
        ]

    def build(self, attributes: FilmLookup, slot: Slot) -> Fragment:
        a = attributes
        if a.field == "runtime":
            its, fact = "its running time in minutes", f'the running time of "{a.title}" in minutes'
        else:
            its, fact = "the year it came out", f'the year "{a.title}" came out'
        url = f"https://www.imdb.com/title/{a.movie_id}/"
        visit = _PageVisit(
            slot,
            host="www.imdb.com",
            path_prefix=f"/title/{a.movie_id}",
            page=f"{a.title}'s page",
            address=url,
            title=a.title,
        )
        nodes, reference, report_steps = visit.parts(str(a.value))
        return self.fragment(
            a,
            slot,
            f"Find {a.description} {self.where} ({a.value})",
            words={"title": a.title, "its": its, "fact": fact},
            nodes=nodes,
            reference=reference,
            reference_api=[gui.act("browser_open", url=url), *report_steps],
            program=lookup_program(
                slot,
                self.found_by(a),
                "runtime_minutes" if a.field == "runtime" else "year",
                a.description,
            ),
            services=("web",),
            output=FlowValue(kind="number", text=str(a.value), description=a.description),
        )


class BrowserFilmSearch(BrowserFilmFact, spec="browser_film_search"):
    """The same fact of a film, asked for with no site named: found by a web search, whose
    results list the film's page by its title. Training programs that search teach the Manager
    what to do where an instruction says "look it up on the web" and names no page (before,
    every training program opened a named site, and the planner copied those sites)."""

    where = "with a web search"

    def found_by(self, attributes: FilmLookup) -> list[ProgramStep]:
        fact = "running time" if attributes.field == "runtime" else "year"
        return [
            programs.call("s1", "web_search", query=f"{attributes.title} {fact}"),
            programs.call("s2", "follow_link", text=attributes.title),
        ]


# --- browser: the larger or smaller of two films' facts ------------------------------------------


class FilmComparison(TemplateAttributes):
    ids: tuple[str, str]
    titles: tuple[str, str]
    field: Literal["runtime", "year"]
    values: tuple[int, int]
    #: True: the larger of the two values (the longer film, the newer one).
    largest: bool

    @property
    def value(self) -> int:
        return max(self.values) if self.largest else min(self.values)

    @property
    def which(self) -> str:
        """The value wanted, without the films' titles."""
        if self.field == "runtime":
            return (
                f"the running time of the {'longer' if self.largest else 'shorter'} film in minutes"
            )
        return f"the year the {'newer' if self.largest else 'older'} film came out"

    @property
    def fact(self) -> str:
        """The value wanted, with both titles."""
        first, second = self.titles
        if self.field == "runtime":
            longer = "longer" if self.largest else "shorter"
            return f'the running time of the {longer} of "{first}" and "{second}" in minutes'
        newer = "newer" if self.largest else "older"
        return f'the year the {newer} of "{first}" and "{second}" came out'


class BrowserFilmCompare(SubtaskTemplate[FilmComparison], spec="browser_film_compare"):
    """Look up two films and keep the larger or smaller of one number of theirs: a search and a
    reading per film, then ``pick_extreme`` over the values found, each by its slot (one search
    for several films finds one of them)."""

    def draw(self, source: Draw) -> FilmComparison:
        ids = tuple(source.rng.sample(FILM_IDS, 2))
        field: Literal["runtime", "year"] = source.rng.choice(("runtime", "year"))
        key = "runtime_minutes" if field == "runtime" else "year"
        return FilmComparison(
            ids=ids,  # type: ignore[arg-type]
            titles=tuple(MOVIES[i]["title"] for i in ids),  # type: ignore[arg-type]
            field=field,
            values=tuple(MOVIES[i][key] for i in ids),  # type: ignore[arg-type]
            largest=source.rng.choice((True, False)),
        )

    def _program(self, a: FilmComparison, slot: Slot) -> FragmentProgram:
        key = "runtime_minutes" if a.field == "runtime" else "year"
        fact = "running time" if a.field == "runtime" else "year"
        steps: list[ProgramStep] = []
        items: list[JsonValue] = []
        for title in a.titles:
            search, page, found = (f"s{len(steps) + n}" for n in (1, 2, 3))
            what = f"the {fact} of {title}" + (" in minutes" if a.field == "runtime" else "")
            steps += [
                programs.call(search, "web_search", query=f"{title} {fact}"),
                programs.call(page, "follow_link", text=title),
                programs.call(
                    found,
                    "extract_values",
                    text=programs.reference(page),
                    names=[key],
                    what=what,
                ),
            ]
            items.append({"label": title, "value": f"{{{found}.{key}}}"})
        picked = f"s{len(steps) + 1}"
        steps.append(
            programs.call(
                picked, "pick_extreme", items=items, which="largest" if a.largest else "smallest"
            )
        )
        if slot.report:
            told = programs.reference(picked, "value")
            steps.append(programs.report(f"s{len(steps) + 1}", told))
        return FragmentProgram(tuple(steps), output=programs.reference(picked, "value"))

    def build(self, attributes: FilmComparison, slot: Slot) -> Fragment:
        a = attributes
        urls = [f"https://www.imdb.com/title/{i}/" for i in a.ids]
        visits = [
            node(
                slot,
                f"visited_{number}",
                "web_visited",
                {"host": "www.imdb.com", "path_prefix": f"/title/{i}"},
                final=False,
                description=f"the browser opened {title}'s page",
            )
            for number, (i, title) in enumerate(zip(a.ids, a.titles, strict=True), start=1)
        ]
        report_nodes, report_steps = report_parts(slot, str(a.value), visits[-1].id)
        first, second = a.titles
        return self.fragment(
            a,
            slot,
            f"Find {a.fact} on imdb.com ({a.value})",
            words={"first": first, "second": second, "which": a.which, "fact": a.fact},
            nodes=[*visits, *report_nodes],
            reference=[
                gui.act("open_app", app="browser"),
                *(
                    step
                    for url, title in zip(urls, a.titles, strict=True)
                    for step in (
                        gui.act("hotkey", keys=["ctrl", "l"]),
                        gui.act("type", text=url + "\n"),
                        gui.wait_for(title),
                    )
                ),
                *report_steps,
            ],
            reference_api=[*(gui.act("browser_open", url=url) for url in urls), *report_steps],
            program=self._program(a, slot),
            services=("web",),
            output=FlowValue(kind="number", text=str(a.value), description=a.fact),
        )


# --- browser: a country's population on facts.local ---------------------------------------------


class PopulationLookup(TemplateAttributes):
    slug: str
    country: str
    population: int


class BrowserPopulation(SubtaskTemplate[PopulationLookup], spec="browser_population"):
    """Look up a country's population on the offline facts.local site."""

    where = "on facts.local"

    def found_by(self, attributes: PopulationLookup) -> list[ProgramStep]:
        """The program's steps to the country's page: the site's population index lists every
        country by its name."""
        return [
            programs.call("s1", "open_page", address="facts.local/population"),
            programs.call("s2", "follow_link", text=attributes.country),
        ]

    def draw(self, source: Draw) -> PopulationLookup:
        slug = source.rng.choice(POPULATION_SLUGS)
        return PopulationLookup(
            slug=slug, country=country_name(slug), population=FACTS["population"][slug]
        )

    def build(self, attributes: PopulationLookup, slot: Slot) -> Fragment:
        a = attributes
        visit = _PageVisit(
            slot,
            host="facts.local",
            path_prefix=f"/population/{a.slug}",
            page=f"the page on {a.country}",
            address=f"facts.local/population/{a.slug}",
            title=f"Population of {a.country}",
        )
        nodes, reference, report_steps = visit.parts(str(a.population))
        return self.fragment(
            a,
            slot,
            f"Find the population of {a.country} {self.where} ({a.population})",
            words={"country": a.country},
            nodes=nodes,
            reference=reference,
            reference_api=[
                gui.act("browser_open", url=f"http://facts.local/population/{a.slug}"),
                *report_steps,
            ],
            program=lookup_program(
                slot,
                self.found_by(a),
                "population",
                f"the population of {a.country}",
            ),
            services=("web",),
            output=FlowValue(
                kind="number", text=str(a.population), description=f"the population of {a.country}"
            ),
        )


class BrowserPopulationSearch(BrowserPopulation, spec="browser_population_search"):
    """A country's population asked for with no site named: a web search lists the country's
    page by its title (its name alone would also match the site's other pages on it)."""

    where = "with a web search"

    def found_by(self, attributes: PopulationLookup) -> list[ProgramStep]:
        title = f"Population of {attributes.country}"
        return [
            programs.call("s1", "web_search", query=f"population of {attributes.country}"),
            programs.call("s2", "follow_link", text=title),
        ]
