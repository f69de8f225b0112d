"""A site opened and left at once for a search of the whole web: a doubt.

Told to go to arxiv.org, search it for papers on a subject and download the first result, the
1.5B Manager opened the site and then called ``web_search``, which searches the web, not the
site: its first result was another paper than the site's own first (pc15, 2026-12-03). The
program was shown the remembered program that fills the site's search form (``fill_form``)
and follows a result by its place, and took its search from the second example shown. A page
opened by its address and left by the very next step for a web search was opened for nothing:
what the program means to search is that page, through its form. Judged on the typed program
(a step that opens a page by its address, ``page="opens"``, and the next step a search,
``page="searches"``); a doubt, not a mend: the form's field is the page's to name, and the
re-ask is shown a remembered program that fills one. The doubt is the search step's own
(:attr:`~pcagent.agents.plan.Doubt.own`): where the re-asks keep it, that step is asked for
again alone, told the doubt (:mod:`focused_steps`). Why: re-asked whole, the Manager kept the
web search of a rewording of pc15 (aaae802, 2026-12-06), and the run ended ``unverified`` with
the site's search never made.
"""

from __future__ import annotations

from itertools import pairwise

from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program, ProgramStep, skill_of
from pcagent.skills import SkillCatalog


def _page(step: ProgramStep, catalog: SkillCatalog) -> str | None:
    one = skill_of(step, catalog)
    return one.page if one is not None else None


def site_left_for_search(program: Program, catalog: SkillCatalog) -> list[Doubt]:
    """A doubt on each web search that directly follows the opening of a page by its
    address."""
    return [
        Doubt(
            search.id,
            f"{search.id} searches the whole web right after {opened.id} opened "
            f"{opened.args.get('address')!r}, which nothing then uses: to search that site, "
            "fill its own search form (fill_form with the search words) and follow its result "
            "(follow_result)",
            skills=("fill_form",),
        )
        for opened, search in pairwise(program.steps)
        if _page(opened, catalog) == "opens" and _page(search, catalog) == "searches"
    ]
