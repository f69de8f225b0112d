"""A program that ends on a reading: a doubt.

Why: told to find out which side of the road the country of a trip drives on, a program opened
a page of search results and stopped; the page loaded, the step checked its effect, and the run
said "finished" with nothing told (pc04r1, 2026-12-02). A file read or a page of search results
last tells the person nothing and changes nothing: what the instruction asks is in it, still to
be found and told or used. No gold program of 1,200 generated tasks ends so. Judged on the
typed program: the last step's skill (declared ``only_reads``, or a search: ``page="searches"``,
or a page of the browser's search engine opened by its address). A page opened by its address
or a link is not judged: it may be what the person asked to see. Doubted once the program is
kept, never re-asked for: the Manager (``_kept``) adds it, so a run ends "unverified" at best.
"""

from __future__ import annotations

from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program, ProgramStep, skill_of
from pcagent.env.browser_profile import SEARCH_URL
from pcagent.env.web_address import host_of, web_address
from pcagent.errors import InvalidActionError
from pcagent.skills import SkillCatalog


def _search_page(address: object) -> bool:
    """Whether ``address`` (a literal) opens a page of the browser's search engine."""
    if not isinstance(address, str):
        return False
    try:
        opened = web_address(address)
    except InvalidActionError:  # a scheme the browser refuses: the skill says so when run
        return False
    return host_of(opened) == host_of(SEARCH_URL)


def reads_only(step: ProgramStep, catalog: SkillCatalog) -> bool:
    """Whether ``step`` only reads a file or searches the web."""
    one = skill_of(step, catalog)
    if one is None:
        return False
    if one.only_reads or one.page == "searches":
        return True
    return one.page == "opens" and _search_page(step.args.get("address"))


def ends_on_reading(program: Program, catalog: SkillCatalog) -> list[Doubt]:
    """A doubt on the last step of ``program`` where it only reads or searches."""
    if not program.steps or not reads_only(last := program.steps[-1], catalog):
        return []
    return [
        Doubt(
            last.id,
            f"{last.id} ends the program on what {last.skill} reads (a file's text, a page of "
            "search results), which tells the person nothing and changes nothing: find in it "
            "what the instruction asks (extract_values, or follow a result) and tell it with "
            "tell_user or use it as the instruction asks",
            skills=("extract_values", "tell_user"),
        )
    ]
