"""Training tasks composed from sub-task templates: they load like the built-in task files, are
the same for the same seed, cover every template and application, pass values from one sub-task
to the next with the right expected values, and share no fixture file or expected value with the
25 built-in tasks (training on them must not leak the benchmark)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from pcagent.bench.checkers import validate_params
from pcagent.bench.generate import (
    TEMPLATES,
    TaskGenerationError,
    generate_tasks,
    task_yaml,
    template_named,
    write_task_files,
)
from pcagent.bench.generate.composer import (
    Chain,
    assemble_task,
    build_fragments,
    choose_chain,
    task_sources,
)
from pcagent.bench.task_secrets import expected_values, file_names
from pcagent.bench.tasks import Task, load_task, load_task_folder, load_tasks, select_tasks

SEED = 7
#: Enough for every template to anchor a task of its own.
COUNT = 60
TASKS = generate_tasks(COUNT, SEED)
BUILT_IN = list(load_tasks().values())


EIGHT_APPS = {
    "text_editor", "calculator", "writer", "spreadsheet", "file_manager", "clock", "browser", "mail",
}  # fmt: skip


def templates_of(task: Task) -> list[str]:
    return task.source.split(": ", 1)[1].split(" -> ")


def test_the_tasks_load_through_the_task_loader() -> None:
    for task in TASKS:
        loaded = load_task(task_yaml(task), f"{task.id}.yaml")
        assert loaded == task
        assert loaded.reference and loaded.reference_api
        for node in loaded.nodes:
            validate_params(node.checker, node.params)
    assert [task.id for task in TASKS] == [f"gen-{SEED}-{n}" for n in range(1, COUNT + 1)]


def test_same_seed_same_tasks_other_seed_other_tasks() -> None:
    again = generate_tasks(COUNT, SEED)
    assert [task_yaml(t) for t in again] == [task_yaml(t) for t in TASKS]
    other = generate_tasks(COUNT, SEED + 1)
    assert [t.instruction for t in other] != [t.instruction for t in TASKS]


def test_a_template_more_leaves_the_tasks_it_takes_no_part_in_as_they_were() -> None:
    """Memory is built from a seed's tasks: a template added must not change every other
    task's chain and values (it did until 2026-12-05, so every figure measured with memory
    before moved with it)."""
    for removed in ("calculator_compute", "browser_extreme_text", "editor_read_value"):
        fewer = [t for t in TEMPLATES if t.name != removed]
        kept = changed = 0
        for anchor in fewer:
            for round_ in range(3):
                rng, wording = task_sources(SEED, round_, anchor)
                chain = choose_chain(rng, anchor, TEMPLATES)
                if removed in [t.name for t in chain.templates]:
                    changed += 1
                    continue
                fewer_rng, fewer_wording = task_sources(SEED, round_, anchor)
                assert choose_chain(fewer_rng, anchor, fewer) == chain, (removed, anchor.name)
                built = build_fragments(rng, chain, wording)
                again = build_fragments(fewer_rng, chain, fewer_wording)
                assert [f.instruction for f in again] == [f.instruction for f in built]
                kept += 1
        assert kept > 3 * changed, (removed, kept, changed)


def test_every_template_and_application_single_and_multi_app() -> None:
    used = Counter(name for task in TASKS for name in templates_of(task))
    assert set(used) == {template.name for template in TEMPLATES}
    assert {app for task in TASKS for app in task.apps} == EIGHT_APPS
    lengths = Counter(len(task.apps) for task in TASKS)
    assert lengths[1] >= 3 and lengths[2] >= 3 and lengths[3] >= 3, lengths
    for task in TASKS:
        # Each sub-task's application once, in order, then those a sub-task also works in.
        own = [subtask.app for subtask in task.subtasks]
        assert len(set(own)) == len(own), "one application per sub-task, none twice"
        also = [app for t in templates_of(task) for app in template_named(t).also_uses]
        assert task.apps == own + also


def test_clocks_never_come_first() -> None:
    """gnome-clocks alone on the screen often hides its dialogs from the accessibility tree."""
    clock_tasks = [task for task in generate_tasks(160, 3) if "clock" in task.apps]
    assert len(clock_tasks) >= 8
    for task in clock_tasks:
        assert task.apps[0] != "clock" and len(task.apps) >= 2, task.id


def _ancestors(task: Task, node_id: str) -> set[str]:
    seen: set[str] = set()
    pending = list(task.node(node_id).after)
    while pending:
        current = pending.pop()
        if current not in seen:
            seen.add(current)
            pending.extend(task.node(current).after)
    return seen


def test_no_task_has_the_mail_client_and_the_clocks() -> None:
    # With Thunderbird open, gnome-clocks shows no tabs to the accessibility tree.
    assert template_named("mail_read_value").apart_from == {"clock"}
    tasks = [*TASKS, *generate_tasks(120, 1)]
    together = [t.id for t in tasks if {"mail", "clock"} <= set(t.apps)]
    assert together == []
    assert any("mail_read_value" in t.source for t in tasks)


def test_later_subtasks_come_after_the_ones_they_depend_on() -> None:
    for task in TASKS:
        for earlier, later in zip(task.subtasks, task.subtasks[1:], strict=False):
            earlier_nodes = {n.id for n in task.nodes if n.subtask == earlier.id}
            for node in (n for n in task.nodes if n.subtask == later.id):
                assert _ancestors(task, node.id) >= earlier_nodes, (task.id, node.id)


def test_values_flow_from_note_to_calculator_to_sheet() -> None:
    chain = Chain(
        tuple(
            template_named(n)
            for n in ("editor_read_value", "calculator_compute", "spreadsheet_fill_cells")
        ),
        ("number", "number"),
    )
    for attempt in range(10):
        rng = random.Random(attempt)
        task = assemble_task(
            "gen-test-1", chain, build_fragments(rng, chain, random.Random(attempt)), 0
        )
        note = task.fixtures.files[0].text or ""
        (read,) = [int(v) for v in parse_lines(note).values() if v.isdigit()]
        calculation = task.node("s2_computed").params["value"]
        (expression,) = [
            step.action["expression"]
            for step in task.reference_api
            if step.action and step.action["kind"] == "calculator_evaluate"
        ]
        left, symbol, right = expression.split()
        assert int(left) == read
        expected = {"+": read + int(right), "-": read - int(right), "*": read * int(right)}[symbol]
        assert calculation == str(expected)
        (row,) = task.node("s3_sheet").params["rows"]
        assert row[1] == str(expected)
        # The instruction names neither value: the agent has to carry them over itself.
        assert str(read) not in task.instruction and str(expected) not in task.instruction


def parse_lines(note: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in note.splitlines() if ": " in line)


def test_a_file_made_earlier_is_the_one_mailed() -> None:
    chain = Chain(
        tuple(
            template_named(n)
            for n in (
                "writer_new_document",
                "file_manager_move_into_folder",
                "mail_send_attachment",
            )
        ),
        ("file", "file"),
    )
    task = assemble_task(
        "gen-test-2", chain, build_fragments(random.Random(3), chain, random.Random(3)), 0
    )
    saved = task.node("s1_saved").params["path"]
    moved = task.node("s2_moved1").params["path"]
    assert moved.endswith("/" + saved.rsplit("/", 1)[1]) and moved != saved
    assert task.node("s3_sent").params["attachment"] == saved.rsplit("/", 1)[1]
    assert task.reference_api[-2].action["attachments"] == [moved]  # type: ignore[index]
    assert not task.fixtures.files, "every file of this chain is made by the agent"


# --- no leakage of the built-in tasks ------------------------------------------------------------


#: Checker parameters that hold an expected value (not a structural choice such as a paragraph
#: number or a host).
def test_no_generated_task_reuses_a_built_in_file_name_or_expected_value() -> None:
    built_in_files = set().union(*(file_names(t) for t in BUILT_IN))
    built_in_values = set().union(*(expected_values(t) for t in BUILT_IN))
    assert {"memo.txt", "test_doc1.docx", "stocks.xlsx"} <= built_in_files  # the scan works
    assert {"38", "9:15", "tokyo", "howie@example.test"} <= built_in_values
    for task in generate_tasks(120, 1) + TASKS:
        assert not file_names(task) & built_in_files, task.id
        assert not expected_values(task) & built_in_values, task.id
        for node in task.nodes:
            if node.checker == "clock_alarm":  # pc03 accepts any alarm from 12:45 to 13:22
                assert (
                    not 12 * 60 + 45
                    <= node.params["hour"] * 60 + node.params["minute"]
                    <= 13 * 60 + 22
                )


# --- writing and reading task files ----------------------------------------------------------


def test_written_files_load_as_a_task_folder(tmp_path: Path) -> None:
    seen: list[Path] = []
    paths = write_task_files(TASKS[:5], tmp_path / "new" / "tasks", on_written=seen.append)
    assert paths == seen and [p.name for p in paths] == [f"{t.id}.yaml" for t in TASKS[:5]]
    loaded = load_task_folder(tmp_path / "new" / "tasks")
    assert list(loaded.values()) == TASKS[:5]
    assert [t.id for t in select_tasks([TASKS[3].id], tmp_path / "new" / "tasks")] == [TASKS[3].id]


def test_bad_count_and_unwritable_folder_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(TaskGenerationError, match="1 to 1000"):
        generate_tasks(0, 1)
    with pytest.raises(TaskGenerationError, match="1 to 1000"):
        generate_tasks(1001, 1)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    with pytest.raises(TaskGenerationError, match="cannot create the folder"):
        write_task_files(TASKS[:1], blocker / "tasks")
