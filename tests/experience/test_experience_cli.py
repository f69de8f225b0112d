"""``pcagent experience build|stats|show|query`` on real run records, and the checks the run
commands make on ``--experience`` before anything starts."""

from __future__ import annotations

import json
from pathlib import Path

from tests.experience.recorded_runs import CLOCKS, listing, training_records
from typer.testing import CliRunner

from pcagent.bench.experience_leakage import check_no_leakage
from pcagent.bench.generate import generate_tasks, write_task_files
from pcagent.bench.tasks import load_task_folder
from pcagent.cli import app
from pcagent.config import load_config
from pcagent.experience.embedding import SentenceEncoder
from pcagent.experience.graph import PageGraph


def _environment(tmp_path: Path) -> dict[str, str]:
    """A private data folder that shares the installed models."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "models").symlink_to(load_config().models_dir)
    return {"PCAGENT_DATA_DIR": str(data), "PCAGENT_CONFIG": ""}


def test_build_then_inspect_a_graph(tmp_path: Path, shared_encoder: SentenceEncoder) -> None:
    env = _environment(tmp_path)
    records = training_records(tmp_path / "records")
    graph = tmp_path / "graph.db"
    runner = CliRunner()
    built = runner.invoke(
        app, ["experience", "build", "-r", str(records), "-o", str(graph)], env=env
    )
    assert built.exit_code == 0, built.output
    assert "[3/3]" in built.output and "wrote" in built.output and graph.is_file()

    stats = runner.invoke(app, ["experience", "stats", str(graph), "--json"], env=env)
    facts = json.loads(stats.output)
    assert facts["runs"] == 3 and facts["pages_per_app"]["clock"] == 2
    assert facts["model"] == "all-minilm-l6-v2"

    shown = runner.invoke(app, ["experience", "show", str(graph), "--app", "clock"], env=env)
    assert 'click button "Add Alarm"' in shown.output and "Thunderbird" not in shown.output

    screen = tmp_path / "listing.txt"
    screen.write_text(listing(CLOCKS), encoding="utf-8")
    asked = runner.invoke(
        app,
        ["experience", "query", str(graph), "--app", "clock", "--window", "Clocks",
         "--listing", str(screen), "--subtask", "Add an alarm at 8:00",
         "--instruction", "Set an alarm at 8:00 in the clock app"],
        env=env,
    )  # fmt: skip
    assert asked.exit_code == 0, asked.output
    assert "New Alarm" in asked.output and "retrieval:" in asked.output
    assert "Instruction: Set an alarm at" in asked.output and '"skill":"gui"' in asked.output

    everything = runner.invoke(
        app, ["experience", "build", "-r", str(records), "-o", str(graph), "--all-runs"], env=env
    )
    assert "[4/4]" in everything.output


def test_build_puts_training_tasks_programs_beside_the_runs(
    tmp_path: Path, shared_encoder: SentenceEncoder
) -> None:
    env = _environment(tmp_path)
    records = training_records(tmp_path / "records")
    folder = tmp_path / "training"
    write_task_files(generate_tasks(6, 21), folder)
    graph = tmp_path / "graph.db"
    runner = CliRunner()
    built = runner.invoke(
        app,
        ["experience", "build", "-r", str(records), "--tasks-dir", str(folder),
         "--generated", "22:4", "-o", str(graph)],
        env=env,
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    said = " ".join(built.output.split())  # the console wraps long lines
    assert "10 programs of training tasks" in said
    assert "13 programs (10 of training tasks)" in said  # and the 3 runs'
    stats = json.loads(
        runner.invoke(app, ["experience", "stats", str(graph), "--json"], env=env).output
    )
    assert (stats["runs"], stats["plans"], stats["plans_of_training_tasks"]) == (3, 13, 10)
    loaded = PageGraph.load(graph)
    assert {p.task_id for p in loaded.plans if not p.run_id} == {
        *(f"gen-21-{n}" for n in range(1, 7)),
        *(f"gen-22-{n}" for n in range(1, 5)),
    }

    # Only training tasks: no run records are read.
    alone = runner.invoke(
        app, ["experience", "build", "--generated", "22:3", "-o", str(graph)], env=env
    )
    assert alone.exit_code == 0, alone.output
    said = " ".join(alone.output.split())  # the console wraps long lines
    assert ": 0 runs, 0 pages" in said and "3 programs (3 of training tasks)" in said
    asked = runner.invoke(
        app,
        ["experience", "query", str(graph), "--app", "clock",
         "--instruction", generate_tasks(3, 22)[0].instruction],
        env=env,
    )  # fmt: skip
    assert asked.exit_code == 0 and 'Program: {"steps":[{"id":"s1"' in asked.output

    # Measured on generated tasks: the training tasks sharing their values are left out.
    held_out = tmp_path / "measured"
    write_task_files(generate_tasks(5, 23), held_out)
    kept = runner.invoke(
        app,
        ["experience", "build", "--generated", "22:40", "--held-out", str(held_out),
         "-o", str(graph)],
        env=env,
    )  # fmt: skip
    said = " ".join(kept.output.split())
    assert kept.exit_code == 0 and "of 40 training tasks that share values" in said, said
    check_no_leakage(graph, list(load_task_folder(held_out).values()))

    bad = runner.invoke(
        app, ["experience", "build", "--generated", "22", "-o", str(graph)], env=env
    )
    assert bad.exit_code == 2 and "SEED:COUNT" in bad.output


def test_missing_graphs_and_records_are_clear_errors(tmp_path: Path) -> None:
    env = _environment(tmp_path)
    runner = CliRunner()
    missing = runner.invoke(app, ["experience", "stats", str(tmp_path / "none.db")], env=env)
    assert missing.exit_code != 0 and "pcagent experience build" in missing.output
    empty = runner.invoke(
        app, ["experience", "build", "-r", str(tmp_path), "-o", str(tmp_path / "g.db")], env=env
    )
    assert empty.exit_code != 0 and "no run records" in empty.output
    run = runner.invoke(app, ["run", "do it", "--experience", str(tmp_path / "none.db")], env=env)
    assert run.exit_code == 2 and "no such file" in run.output
    bench = runner.invoke(
        app, ["bench", "run", "--agent", "pcagent", "--record-to", str(tmp_path)], env=env
    )
    assert bench.exit_code == 2 and "records reference solutions" in bench.output
