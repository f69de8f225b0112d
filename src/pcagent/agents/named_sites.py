"""A web site the instruction names, and no step goes to it: a doubt.

Why: asked to search arxiv.org for papers on a subject and download the first, the 1.5B
planner searched the whole web, downloaded the web's first paper, and the run said "finished"
(both rewordings of pc15 at 5c481a6, 2026-12-06); each step checked its own effect. Which sites
an instruction names is a model's reading (the named-files reading lists them beside the files
and folders); code keeps only what stands in the instruction and looks like an address (a dot,
no space, no mail address), and judges the typed program: a site none of whose steps (of the
program, or finished before it) names its host in an argument or a screen step's task has been
left out. The doubt sits on the first step that searches the web instead (else the last step);
the Manager is re-asked with it, and a program kept with it cannot end the run "finished".
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.named_folders import kept_once
from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program, ProgramStep, literal_texts, skill_of
from pcagent.env.web_address import host_of
from pcagent.skills import SkillCatalog
from pcagent.skills.common import skills_for_file
from pcagent.text import contains

#: Most sites one instruction is taken to name (a bound of the reply's grammar).
MAX_SITES = 4


def kept_sites(names: Sequence[str], instruction: str) -> tuple[str, ...]:
    """The sites a model listed that stand in ``instruction`` as written and look like an
    address; each once."""
    return kept_once(
        (name.strip().strip("\"'<>") for name in names),
        lambda name: bool(host(name)) and "@" not in name and " " not in name,
        instruction,
    )


def host(address: str) -> str:
    """The host an address names, without ``www.``; "" where it is none: no dot (a name), or
    a file's name (an ending of a known kind, or a "_", which no host has)."""
    written = address.strip()
    found = (host_of(written if "://" in written else f"http://{written}") or "").removeprefix(
        "www."
    )
    if "." not in found.strip(".") or "_" in found or skills_for_file(found)[0]:
        return ""
    return found


def sites_left_out(
    program: Program,
    catalog: SkillCatalog,
    sites: Sequence[str],
    finished: Sequence[ProgramStep] = (),
) -> list[Doubt]:
    """A doubt for each of ``sites`` whose host no step of ``program`` (or ``finished``)
    names."""
    if not sites or not program.steps:
        return []
    web = {app for one in catalog if one.page is not None for app in one.apps}
    texts = [text for step in (*finished, *program.steps) for text in _texts(step, catalog, web)]
    where = _first_search(program, catalog) or program.steps[-1].id
    return [
        Doubt(
            where,
            f"the instruction names the site {site}, and no step goes to it: open it "
            f"(open_page with {site!r}) and use what it offers (fill_form with its search "
            "field, follow_result, follow_link) rather than a search of the whole web",
            skills=("open_page", "fill_form"),
        )
        for site in sites
        if (named := host(site)) and not any(contains(text, named) for text in texts)
    ]


def _texts(step: ProgramStep, catalog: SkillCatalog, web: set[str]) -> list[str]:
    """The texts of ``step`` that may take the run to a site: a screen step's task and
    literals, a call's literals where its skill works in the browser (``web``). Why not every
    call's: an extraction told what to find, "the imdb.com ratings of ...", goes nowhere, and
    the run that searched the whole web for the ratings said "finished" on it (a rewording of
    pc11 at 914764a, 2026-12-07)."""
    if step.skill == GUI:
        return [step.task, *literal_texts(step.args)]
    one = skill_of(step, catalog)
    return [*literal_texts(step.args)] if one is not None and set(one.apps) & web else []


def _first_search(program: Program, catalog: SkillCatalog) -> str:
    for step in program.steps:
        if step.skill in catalog and catalog.get(step.skill).page == "searches":
            return step.id
    return ""
