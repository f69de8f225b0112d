"""A web site the instruction names and no step goes to is a doubt: a model lists the sites
(in the named-files reading), code keeps those that stand in the instruction and look like an
address, and judges the typed program. The real model's reading is measured in
benchmarks/named_files.py (its quick run is in tests/test_benchmarks.py, smollm2)."""

from __future__ import annotations

import pytest
from tests.agents.program_steps import as_program, gold_programs, program
from tests.agents.scripted import ScriptedModels, reply

from pcagent.agents.doubts import Evidence
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.named_files import FileNamesAgent
from pcagent.agents.named_sites import host, kept_sites, sites_left_out
from pcagent.agents.program import ProgramStep
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SAID = (
    'Could you search https://arxiv.org/ in Chromium for papers on "multimodal agent" and '
    "download whichever paper comes up first? Keep notes in papers.txt."
)
SEARCH = {"skill": "web_search", "args": {"query": "multimodal agent"}}
DOWNLOAD = {"skill": "follow_link", "args": {"text": "Download PDF"}}


@pytest.mark.parametrize(
    ("written", "named"),
    [
        ("https://arxiv.org/", "arxiv.org"),
        ("www.imdb.com", "imdb.com"),
        ("maps.local/route?from=a", "maps.local"),
        ("papers.txt", ""),
        ("CouncilBrief.docx", ""),
        ("weekly_figure.rtf", ""),
        ("Chromium", ""),
    ],
)
def test_the_host_an_address_names_and_none_for_a_file_or_a_name(written: str, named: str) -> None:
    assert host(written) == named


def test_only_addresses_that_stand_in_the_instruction_are_kept() -> None:
    listed = ["https://arxiv.org/", "papers.txt", "Chromium", "scholar.google.com", "arxiv.org"]
    assert kept_sites(listed, SAID) == ("https://arxiv.org/", "arxiv.org")


def test_a_whole_web_search_for_a_named_site_is_doubted_on_the_search() -> None:
    (doubt,) = sites_left_out(program(SEARCH, DOWNLOAD), CATALOG, ["https://arxiv.org/"])
    assert doubt.step == "s1"
    assert "https://arxiv.org/" in doubt.problem and "open_page" in doubt.problem
    assert "open_page" in doubt.skills
    # Without a search, the doubt sits on the last step.
    (last,) = sites_left_out(program(DOWNLOAD, DOWNLOAD), CATALOG, ["arxiv.org"])
    assert last.step == "s2"


def test_a_program_a_screen_step_or_a_finished_step_that_goes_there_is_not_doubted() -> None:
    opened = {"skill": "open_page", "args": {"address": "arxiv.org"}}
    form = {"skill": "fill_form", "args": {"fields": [{"label": "Search", "value": "agents"}]}}
    assert sites_left_out(program(opened, form, DOWNLOAD), CATALOG, ["https://arxiv.org/"]) == []
    screen = {"skill": "gui", "task": "Search https://www.arxiv.org for the papers"}
    assert sites_left_out(program(screen), CATALOG, ["arxiv.org"]) == []
    finished = [ProgramStep.model_validate({"id": "s1", **opened})]
    later = as_program({"id": "s2", **form}, {"id": "s3", **DOWNLOAD})
    assert sites_left_out(later, CATALOG, ["arxiv.org"], finished) == []


def test_a_site_named_only_in_what_a_value_is_goes_nowhere() -> None:
    """An extraction told "the imdb.com ratings of ..." after a search of the whole web: the run
    said "finished" on ratings read off the search page (a rewording of pc11, 2026-12-07)."""
    search = {"skill": "web_search", "args": {"query": "Interstellar and 12 Angry Men"}}
    find = {
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["rating"], "what": "the imdb.com ratings"},
    }
    (doubt,) = sites_left_out(program(search, find), CATALOG, ["imdb.com"])
    assert doubt.step == "s1"
    named = {"skill": "web_search", "args": {"query": "imdb.com Interstellar rating"}}
    assert sites_left_out(program(named, find), CATALOG, ["imdb.com"]) == []


def test_the_reading_s_sites_reach_the_evidence_the_manager_is_judged_by() -> None:
    models = ScriptedModels(
        named_files=[reply(files=["papers.txt"], sites=["https://arxiv.org/", "bing.com"])]
    )
    reader = FileNamesAgent(models.for_role("named_files"))
    places = reader.places(SAID)
    assert places.sites == ("https://arxiv.org/",) and places.files == ("papers.txt",)
    readings = InstructionReadings(sites=lambda _said: places.sites)
    evidence = Evidence.read(readings, SAID, [SAID], [], [])
    doubts = evidence.doubts(program(SEARCH, DOWNLOAD), CATALOG)
    assert any("names the site https://arxiv.org/" in d.problem for d in doubts)


def test_few_gold_programs_are_doubted_and_only_where_they_search_the_whole_web() -> None:
    # Sites as the instruction writes them (every word that is an address), not a model's list.
    doubted = total = 0
    for task, gold in gold_programs():
        words = [word.strip('.,;:()"?') for word in task.instruction.split()]
        doubts = sites_left_out(gold, CATALOG, kept_sites(words, task.instruction))
        total, doubted = total + 1, doubted + bool(doubts)
        assert all(gold.step(d.step).skill == "web_search" for d in doubts), task.instruction
    # Measured 2026-12-06: 9 of 360 (templates that look films up "on imdb.com" by a search).
    assert doubted / total <= 0.05
