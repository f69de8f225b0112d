"""Every script in benchmarks/ runs with ``--quick`` and prints its JSON with the figure and the
goal, so that a benchmark that stops working fails here instead of on the day it is needed.

Each script runs as a user would start it, in its own process, with this checkout's package. The
quick figures come from one repetition and are not checked against the goals; what is checked is
that the script ran to its end, measured something and said what it measures it against. The
scripts that start a sandbox desktop are marked ``desktop``; those that ask a local model or start
Ray are marked ``slow`` as well.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.experience.recorded_runs import training_records

import pcagent

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
SOURCE = Path(pcagent.__file__).resolve().parent.parent


def run_quick(script: str, *arguments: str, timeout: float = 240) -> dict:
    """Run ``benchmarks/SCRIPT --json --quick ARGUMENTS`` and return its JSON, after checking
    the keys every benchmark prints (see benchmarks/headline.py)."""
    environment = {**os.environ, "PYTHONPATH": str(SOURCE)}
    completed = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--json", "--quick", *arguments],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment,
        cwd=ROOT,
        check=False,
    )
    assert completed.returncode == 0, f"{script} failed:\n{completed.stderr[-4000:]}"
    report = json.loads(completed.stdout)
    assert report["quick"] is True
    figure, goal = report["figure"], report["goal"]
    assert figure, f"{script} names no figure"
    assert set(goal) == set(figure), f"{script}: a goal for each figure"
    assert all(isinstance(text, str) and text for text in goal.values())
    assert all(value is None or isinstance(value, int | float) for value in figure.values())
    assert report["goal_met"] in (True, False, None)
    return report


def test_every_benchmark_script_is_run_here() -> None:
    helpers = {"headline.py", "generated_runs.py"}  # imported by the scripts, not run
    scripts = {path.name for path in BENCHMARKS.glob("*.py")} - helpers
    tested = {name.removeprefix("test_").replace("_quick", "") + ".py" for name in globals()}
    assert scripts <= tested, f"add a quick run for {sorted(scripts - tested)}"


def test_viewer_quick() -> None:
    report = run_quick("viewer.py")
    assert report["run_page_lazy_images"] > 0


def test_embedding_quick() -> None:
    report = run_quick("embedding.py")
    assert report["texts"] == 8


def test_program_memory_quick() -> None:
    report = run_quick("program_memory.py")
    assert report["queries"] == 4 and report["memory_programs"] == 12


def test_outcome_judge_quick() -> None:
    report = run_quick("outcome_judge.py")
    assert report["tasks"] == 1 and report["model"] == "local:smollm2-135m"
    assert 0 <= report["accuracy"] <= 1


def test_named_files_quick() -> None:
    report = run_quick("named_files.py")
    assert report["tasks"] == 1 and report["model"] == "local:smollm2-135m"
    assert report["true_names"] >= 0 and report["figure"]["gold_programs_doubted_share"] in (0, 1)
    assert report["folders"]["gold_programs_doubted_share"] in (0, 1)


def test_named_apps_quick() -> None:
    report = run_quick(
        "named_apps.py", "--variant", "slots", "--tasks-dir", "src/pcagent/bench/tasks_reworded"
    )
    assert report["tasks"] == 1 and report["model"] == "local:smollm2-135m"
    assert report["figure"]["gold_programs_doubted_share"] in (0, 1)
    assert report["kept_picks"] >= 0 and report["slots"]["kept_picks"] >= 0
    assert "caught_ratio" in report
    files = report["task_files"]
    assert files["tasks"] == 1 and files["apps_listed"] >= 1
    assert 0 <= files["kept_recall"] <= 1


def test_search_words_quick() -> None:
    report = run_quick("search_words.py")
    assert report["searches"] == 1 and report["model"] == "local:smollm2-135m"
    assert report["figure"]["found_share"] in (0, 1)
    assert report["instruction_as_query_found_share_baseline"] in (0, 1)


def test_manager_programs_quick() -> None:
    report = run_quick("manager_programs.py")
    assert report["tasks"] == 1 and report["model"] == "local:smollm2-135m"
    assert report["variant"] == "requests_first"  # the default variant
    for variant in ("baseline", "requests_first"):
        assert 0 <= report[variant]["fitting"] <= report[variant]["usable"] <= 1


def test_experience_quick(tmp_path: Path) -> None:
    records = training_records(tmp_path / "records")
    report = run_quick("experience.py", "--records", str(records))
    assert report["queries"] > 0 and report["pages"] > 0


@pytest.mark.slow
def test_local_model_quick() -> None:
    report = run_quick("local_model.py")
    assert report["warm"]["cached_prompt_tokens"] > 0  # the prefix was reused
    assert report["next_run"]["cached_prompt_tokens"] > 0  # and so in the next run, from disk


@pytest.mark.slow
def test_prompt_ram_cache_quick() -> None:
    report = run_quick("prompt_ram_cache.py", "--cap", "0")
    # without llama.cpp's cache of earlier prompts the same calls leave less memory taken
    assert report["capped"]["gained_mib"] < report["uncapped"]["gained_mib"]


@pytest.mark.slow
def test_grounding_quick() -> None:
    report = run_quick("grounding.py")
    assert report["cases"] == 1


@pytest.mark.desktop
def test_input_quick() -> None:
    report = run_quick("input.py")
    assert report["zero_length_drag"] == "refused" and report["buttons_pressed_after"] == []


@pytest.mark.desktop
def test_remote_quick() -> None:
    report = run_quick("remote.py")
    assert report["elements"] > 0


@pytest.mark.desktop
def test_perception_quick() -> None:
    report = run_quick("perception.py")
    assert list(report["screens"]) == ["calculator"]


@pytest.mark.desktop
def test_observe_quick() -> None:
    report = run_quick("observe.py")
    assert report["nodes_ours"] > 0 and report["interactive_expected"] > 0


@pytest.mark.desktop
@pytest.mark.slow
def test_app_actions_quick() -> None:
    report = run_quick("app_actions.py")
    assert report["failures"] == {} and report["total"]["tasks"] == 1


@pytest.mark.desktop
@pytest.mark.slow
def test_scale_quick() -> None:
    report = run_quick("scale.py", timeout=420)
    assert report["one_actor"]["passed"] == 1 and report["two_actors"]["passed"] == 1


@pytest.mark.desktop
@pytest.mark.slow
def test_agent_quality_quick() -> None:
    report = run_quick("agent_quality.py", timeout=420)
    assert report["tasks"] == ["pc09"] and report["steps"] == 1
    assert "environment_error" not in report["failure_causes"]


def _reading_quick(script: str, counted: str) -> None:
    """A reading's quick run: one task, the tiny model, every reading right, wrong or unread."""
    report = run_quick(script)
    assert report["tasks"] == 1 and report[counted] >= 1
    assert report["model"] == "local:smollm2-135m"
    figure = report["figure"]
    assert figure["read_right_share"] + figure["read_wrong_share"] + report["unread_share"] == 1


def test_choice_readings_quick() -> None:
    _reading_quick("choice_readings.py", "choices")


def test_first_or_all_readings_quick() -> None:
    _reading_quick("first_or_all_readings.py", "tasks")


def test_field_choices_quick() -> None:
    report = run_quick("field_choices.py")
    assert report["labels"] == 1 and report["model"] == "local:smollm2-135m"
    figure = report["figure"]
    assert figure["read_right_share"] + figure["read_wrong_share"] + report["unread_share"] == 1


def test_extraction_uses_quick() -> None:
    report = run_quick("extraction_uses.py")
    assert report["extractions"] == 1 and report["model"] == "local:smollm2-135m"
    assert report["figure"]["loose_typed_share_told"] in (0.0, 1.0)
    assert report["loose_baseline_typed_share"] in (0.0, 1.0)


def test_format_targets_quick() -> None:
    _reading_quick("format_targets.py", "formattings")


def test_format_readings_quick() -> None:
    report = run_quick("format_readings.py")
    assert report["tasks"] == 1 and report["calls"] >= 1
    assert report["model"] == "local:smollm2-135m"
    changed = report["figure"]["gold_changed_share"]
    assert changed + report["read_right_share"] + report["unread_share"] == pytest.approx(1)
    assert 0 <= report["figure"]["copied_mended_share"] <= 1


def test_asked_answer_quick() -> None:
    report = run_quick("asked_answer.py")
    assert report["tasks"] == 1 and report["model"] == "local:smollm2-135m"
    assert report["figure"]["gold_programs_doubted_share"] in (0, 1)
    assert report["asking_tasks"] in (0, 1)
    assert report["gold_programs_doubted_share_baseline"] in (0, 1)


def test_effect_readings_quick() -> None:
    report = run_quick("effect_readings.py")
    assert report["tasks"] == 1 and report["model"] == "local:smollm2-135m"
    assert report["applications_read"] >= 1
    assert 0 <= report["figure"]["ends_right_share"] <= 1
    assert report["figure"]["gold_programs_doubted_share"] in (0, 1)
    assert report["gold_programs_doubted_share_baseline"] in (0, 1)
