"""The page graph from real run records (SQLite, screenshots on disk) with the real embedding
model: pages are merged across runs, actions are named by their targets, guidance walks the
graph from a screen like the current one, and plans of similar instructions come back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.experience.recorded_runs import (
    CLOCKS,
    INBOX,
    NEW_ALARM,
    listing,
    picture,
    training_records,
)

from pcagent import actions as act
from pcagent.experience.build import build_graph
from pcagent.experience.embedding import SentenceEncoder
from pcagent.experience.graph import ExperienceError, PageGraph
from pcagent.experience.guide import Experience
from pcagent.experience.screens import (
    Screen,
    describe_action,
    hash_distance,
    is_new_page,
    picture_hash,
    title_shape,
)
from pcagent.models.embedding_pack import DEFAULT_EMBEDDING_PACK


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory, shared_encoder: SentenceEncoder) -> PageGraph:
    records = training_records(tmp_path_factory.mktemp("records"))
    return build_graph(shared_encoder, DEFAULT_EMBEDDING_PACK, [records])


def test_titles_lose_documents_and_numbers_but_keep_the_kind_of_page() -> None:
    assert title_shape("*memo.txt - Mousepad") == title_shape("plan.txt - Mousepad")
    assert title_shape("Untitled 2 - Mousepad") == "Untitled # - Mousepad"
    assert title_shape("Write: (no subject) - Thunderbird") == "Write: (no subject) - Thunderbird"


def test_an_action_is_named_by_its_target_never_by_coordinates() -> None:
    shown = listing(CLOCKS)
    assert describe_action(act.Click(x=645, y=690), shown) == 'click button "Add Alarm"'
    assert describe_action(act.Click(x=20, y=780), shown) == "click (an unlabelled spot)"
    assert describe_action(act.Hotkey(keys=["ctrl", "n"]), shown) == "press ctrl+n"
    assert describe_action(act.TypeText(text="secret 42"), shown) == "type the text"


def test_a_dialog_or_other_controls_make_a_new_page_small_changes_do_not() -> None:
    clocks = Screen.of("clock", "Clocks", listing(CLOCKS))
    fewer = Screen.of("clock", "Clocks", listing(CLOCKS[:4]))
    dialog = Screen.of("clock", "New Alarm", listing(NEW_ALARM))
    assert not is_new_page(fewer, clocks, 0)
    assert is_new_page(clocks, dialog, 0)
    assert is_new_page(clocks, clocks, 40)  # the picture changed a lot


def test_picture_hash_tells_pages_apart_and_ignores_small_changes() -> None:
    page = picture(1)
    touched = page.copy()
    touched.putpixel((5, 5), (0, 0, 0))
    assert hash_distance(picture_hash(page), picture_hash(touched)) <= 2
    assert hash_distance(picture_hash(page), picture_hash(picture(2))) > 12


def test_runs_share_pages_and_count_the_actions_they_repeat(graph: PageGraph) -> None:
    assert len(graph.sources) == 3  # the failed run taught nothing
    clock_pages = [n for n in graph.nodes if n.app == "clock"]
    assert {n.title for n in clock_pages} == {"Clocks", "New Alarm"}
    assert len(clock_pages) == 2
    add = [e for e in graph.edges.values() if e.action == 'click button "Add Alarm"']
    assert len(add) == 2  # one edge per subtask text, each taken once
    assert all(e.new_page for e in add)
    for edge in graph.edges.values():
        assert not re.search(r"\d+\s*,\s*\d+", edge.action), edge.action
    assert not any("Done" in e.action or e.action == "done" for e in graph.edges.values())


def test_guidance_walks_from_a_similar_screen_towards_the_subtask(
    graph: PageGraph, shared_encoder: SentenceEncoder
) -> None:
    experience = Experience(graph, shared_encoder)
    lines = experience.guidance("clock", "Clocks", listing(CLOCKS), "Add an alarm at 8:20")
    assert 'click button "Add Alarm" → clock: New Alarm' in lines
    assert "achieved: Add an alarm at" in lines
    assert "Write" not in lines
    mail = experience.guidance("mail", "Inbox - Thunderbird", listing(INBOX), "Mail Bob the file")
    assert 'click button "Write" → mail: Write:' in mail and "Alarm" not in mail
    assert experience.guidance("calculator", "Calculator", "", "compute 2+2") == ""


def test_programs_of_similar_instructions_come_back(
    graph: PageGraph, shared_encoder: SentenceEncoder
) -> None:
    experience = Experience(graph, shared_encoder)
    plans = experience.similar_plans("Set an alarm at 9:30 with the clock application")
    lines = plans.splitlines()
    assert lines[0] in (
        "Instruction: Set an alarm at 6:45 in the clock app",
        "Instruction: Set an alarm at 7:10 in the clock app",
    )
    # A run's plan comes back as the program it was: one GUI step in the clock.
    assert lines[1].startswith('Program: {"steps":[{"id":"s1","skill":"gui","app":"clock",')
    assert "mail" not in lines[0] + lines[1]
    assert "5:05" not in plans  # the failed run's program was not learned


def test_a_saved_graph_loads_back_the_same(
    graph: PageGraph, shared_encoder: SentenceEncoder, tmp_path: Path
) -> None:
    path = tmp_path / "graph.db"
    graph.save(path)
    again = PageGraph.load(path)
    assert len(again.nodes) == len(graph.nodes) and len(again.edges) == len(graph.edges)
    assert [p.instruction for p in again.plans] == [p.instruction for p in graph.plans]
    screen = ("clock", "Clocks", listing(CLOCKS), "Add an alarm at 8:20")
    assert Experience(again, shared_encoder).guidance(*screen) == Experience(
        graph, shared_encoder
    ).guidance(*screen)
    with pytest.raises(ExperienceError, match="built with the embedding model"):
        Experience.load(path, shared_encoder, "another-model")


def test_missing_or_broken_graph_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ExperienceError, match="experience build"):
        PageGraph.load(tmp_path / "none.db")
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"not a database at all" * 10)
    with pytest.raises(ExperienceError, match="not a readable page graph"):
        PageGraph.load(broken)


def test_building_from_a_folder_without_records_is_a_clear_error(
    tmp_path: Path, shared_encoder: SentenceEncoder
) -> None:
    with pytest.raises(ExperienceError, match="no run records"):
        build_graph(shared_encoder, DEFAULT_EMBEDDING_PACK, [tmp_path])
