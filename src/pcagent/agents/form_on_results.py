"""A form filled on a page of search results: the only form there is the search box.

A web search leaves a page that lists results; the page with the form a task fills (a site's
directions, a flight search) is one of those results, or a site opened by its address. The 1.5B
planner, shown programs that search and follow a result and programs that open a site and fill
its form, wrote both at once: a web search, then the site's form filled on the results page
(pc02r2 and pc03r2, 2026-11-28; pc04r2 filled a form on a search engine's address it opened);
the fill failed and the re-plan's screen steps went on from there. Which page holds the form is for a model to say; that a form step works on the page
a search left is in the typed program, so it is a doubt the Manager is re-asked with.

A skill declares how it uses the browser's page (``page``): ``web_search`` ``searches`` (its
page lists results), ``follow_link`` ``follows`` a link of the page in front, ``fill_form``
``fills`` its form; a step that fills a form is doubted when the page in front is one of
results.
"""

from __future__ import annotations

from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program
from pcagent.skills import SkillCatalog


def forms_on_results(program: Program, catalog: SkillCatalog) -> list[Doubt]:
    """A doubt for each form step of ``program`` whose page in front is a search's results."""
    doubts: list[Doubt] = []
    results = ""  # "s3's web_search" while that step's page of results is in front
    for step in program.steps:
        if step.skill == GUI or step.skill not in catalog:
            results = ""
            continue
        one = catalog.get(step.skill)
        if one.on_page and not one.navigates and results:
            doubts.append(
                Doubt(
                    step.id,
                    f"{step.id} fills a form on the page of results {results} left, where the "
                    "only form is the search box: follow the result that has the form first "
                    "(follow_link with its title), or open the site that has it (open_page)",
                    skills=("follow_link", "open_page"),
                )
            )
        if one.navigates or one.on_page:
            results = f"{step.id}'s {step.skill}" if one.lists_results else ""
    return doubts
