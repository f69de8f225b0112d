"""A program that ends on a reading: a doubt.

Why: told to find out which side of the road the country of a trip drives on, a program opened
a page of search results and stopped; the page loaded, the step checked its effect, and the run
said "finished" with nothing told (pc04r1, 2026-12-02). A file read or a page of search results
last tells the person nothing and changes nothing: what the instruction asks is in it, still to
be found and told or used. No gold program of 1,200 generated tasks ends so. Judged on the
typed program: the last step's skill (declared ``only_reads``, or a search: ``page="searches"``,
or a page opened by its address: ``page="opens"``). A link followed is not judged: it downloads
a file or shows what was asked to be seen. Doubted once the program is kept, never re-asked for:
the Manager (``_kept``) adds it, so a run ends "unverified" at best.

Why a page opened too (since 2026-12-07; before, it was taken as what the person asked to see):
told to search arxiv.org for papers and download the top hit, the 1.5B Manager wrote the site's
opening alone; the page loaded, the step checked its effect and the run said "finished" (a
rewording of pc15 at 914764a). No gold program of 360 generated tasks ends on a page opened;
where a person asks only to see a page, the run says "unverified", naming why.
"""

from __future__ import annotations

from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program, skill_of
from pcagent.skills import SkillCatalog


def ends_on_reading(program: Program, catalog: SkillCatalog, pages: bool = True) -> list[Doubt]:
    """A doubt on the last step of ``program`` where it only reads, searches or (with
    ``pages``) opens a page. A re-plan's program is not judged on a page it opens last: the
    steps it leaves out of the old plan may still come after it."""
    one = skill_of(last, catalog) if program.steps and (last := program.steps[-1]) else None
    if one is None:
        return []
    if pages and one.page == "opens":
        return [
            Doubt(
                last.id,
                f"{last.id} ends the program on a page opened ({last.skill}), which tells the "
                "person nothing and changes nothing: do on it what the instruction asks (search "
                "it with fill_form, follow a result or a link, or find a value in it with "
                "extract_values and tell it with tell_user)",
                skills=("fill_form", "follow_link", "extract_values", "tell_user"),
            )
        ]
    if not (one.only_reads or one.page == "searches"):
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
