"""Cross-environment tasks as data: they load and name their desktops, unknown environment names
are refused at load, steps and sub-goals go to the environment they name, and what cannot run
across desktops is refused before anything starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pcagent import actions as act
from pcagent.bench.checkers import CheckContext
from pcagent.bench.environments import (
    RemoteDesktop,
    TaskEnvironment,
    check_remote_desktops,
    parse_assignments,
    prepare_further,
    remote_desktops,
)
from pcagent.bench.evaluator import GraphEvaluator
from pcagent.bench.reference import ReferenceSolutionError, run_reference
from pcagent.bench.tasks import (
    DEFAULT_ENVIRONMENT,
    Task,
    TaskDefinitionError,
    load_cross_tasks,
    load_task,
    load_tasks,
    select_tasks,
)
from pcagent.cli import app
from pcagent.env.observation import ActionResult, Observation
from pcagent.errors import ConfigurationError, PcAgentError

CROSS = load_cross_tasks()


def cross_task_text(**changes: object) -> str:
    """xe02's file with some top-level fields replaced."""
    data = CROSS["xe02"].model_dump(mode="json", exclude_defaults=True)
    data.update(changes)
    return yaml.safe_dump(data)


def test_the_cross_tasks_load_and_the_pc_eval_set_stays_25() -> None:
    assert list(CROSS) == ["xe01", "xe02", "xe03", "xe04"]
    assert len(load_tasks()) == 25
    assert not any(task.is_cross_environment for task in load_tasks().values())
    assert all(t.environments == (DEFAULT_ENVIRONMENT,) for t in load_tasks().values())
    for task in CROSS.values():
        assert task.environments == ("workstation", "laptop")
        # each task reads on one desktop and checks a result on the other
        checked_on = {task.environment_of(node) for node in task.nodes}
        assert checked_on == {"workstation", "laptop"}, task.id
        for steps in (task.reference, task.reference_api):
            assert {task.environment_of(step) for step in steps} == checked_on, task.id
    assert [t.id for t in select_tasks(["xe03"], cross=True)] == ["xe03"]
    with pytest.raises(TaskDefinitionError, match="unknown tasks"):
        select_tasks(["xe01"])  # not among the 25


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"environments": ["workstation", "workstation"]}, "repeat a name"),
        ({"environments": ["Work Station", "laptop"]}, "not lower-case words"),
        ({"environments": []}, "name at least one"),
        ({"environments": ["workstation", "phone"]}, "sub-goal saved names 'laptop'"),
        ({"environments": ["workstation"]}, "reference step 4 names 'laptop'"),
    ],
)
def test_bad_environment_names_are_refused_at_load(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(TaskDefinitionError, match=message) as refused:
        load_task(cross_task_text(**changes), "bad.yaml")
    assert "bad.yaml" in str(refused.value)


def test_a_fixture_for_an_unknown_environment_is_refused() -> None:
    files = [{"path": "Documents/a.txt", "text": "a", "environment": "tablet"}]
    with pytest.raises(TaskDefinitionError, match=r"fixture file Documents/a\.txt names 'tablet'"):
        load_task(cross_task_text(fixtures={"files": files}), "bad.yaml")
    opened = [{"app": "text_editor", "environment": "tablet"}]
    with pytest.raises(TaskDefinitionError, match="open application text_editor names 'tablet'"):
        load_task(cross_task_text(fixtures={"open": opened}), "bad.yaml")


def test_fixtures_are_split_by_environment() -> None:
    task = CROSS["xe04"]
    assert [f.path for f in task.fixture_files("laptop")] == ["Documents/invoice.txt"]
    assert task.fixture_files("workstation") == []
    one_desktop = load_tasks()["pc01"]
    assert one_desktop.fixture_files(DEFAULT_ENVIRONMENT) == one_desktop.fixtures.files


class FakeEnvironment:
    """Records the actions it is given; its screen has no windows."""

    def __init__(self) -> None:
        self.executed: list[str] = []
        self.resets = 0

    def observe(self) -> Observation:
        from PIL import Image

        return Observation(screenshot=Image.new("RGB", (8, 8)), elements=[], windows=[])

    def execute(self, action: act.Action) -> ActionResult:
        self.executed.append(action.kind)
        return ActionResult(ok=True)

    def reset(self) -> None:
        self.resets += 1


def test_each_reference_step_runs_on_the_environment_it_names() -> None:
    task = CROSS["xe02"]
    workstation, laptop = FakeEnvironment(), FakeEnvironment()
    steps = run_reference(
        {"workstation": workstation, "laptop": laptop}, task, lambda n, a: None, api=True
    )
    assert steps == 4
    assert workstation.executed == ["calculator_evaluate"]
    assert laptop.executed == ["open_app", "type", "editor_save_as"]
    with pytest.raises(ReferenceSolutionError, match=r"\['laptop'\]"):
        run_reference(workstation, task, lambda n, a: None, api=True)


def test_each_sub_goal_is_checked_in_its_environment(tmp_path: Path) -> None:
    task: Task = CROSS["xe02"]
    homes = {name: tmp_path / name for name in task.environments}
    for home in homes.values():
        (home / "Documents").mkdir(parents=True)
    contexts = {name: CheckContext(home) for name, home in homes.items()}
    (homes["workstation"] / "Documents" / "annual_rent.txt").write_text("15300")
    evaluator = GraphEvaluator(task)
    evaluator.states["computed"].passed = True  # the calculator is not what this test is about
    evaluator.evaluate(contexts, 1)
    assert not evaluator.states["saved"].passed  # the file is on the wrong desktop
    (homes["laptop"] / "Documents" / "annual_rent.txt").write_text("Annual rent: 15300")
    evaluator.evaluate(contexts, 2)
    assert evaluator.states["saved"].passed and evaluator.states["value"].passed


def test_a_remote_environment_without_a_home_takes_no_fixture_files(tmp_path: Path) -> None:
    remote = FakeEnvironment()
    with pytest.raises(PcAgentError, match="does not share its HOME"):
        prepare_further(CROSS["xe04"], TaskEnvironment("laptop", remote, None))
    assert remote.resets == 0
    prepare_further(CROSS["xe02"], TaskEnvironment("laptop", remote, None))  # no files: fine
    assert remote.resets == 1
    home = tmp_path / "laptop"
    home.mkdir()
    prepare_further(CROSS["xe04"], TaskEnvironment("laptop", remote, home))
    assert "Linden" in (home / "Documents" / "invoice.txt").read_text()
    with pytest.raises(Exception, match="HOME is not on this machine"):
        CheckContext(None).path("Documents/invoice.txt")


def test_remote_environment_options_are_checked_before_anything_starts() -> None:
    tasks = list(CROSS.values())
    assert parse_assignments(["laptop=http://127.0.0.1:8766"], "--environment") == {
        "laptop": "http://127.0.0.1:8766"
    }
    for values, message in ((["laptop"], "NAME=VALUE"), (["a=1", "a=2"], "twice")):
        with pytest.raises(ConfigurationError, match=message):
            parse_assignments(values, "--environment")
    with pytest.raises(ConfigurationError, match=r"no token file for \['laptop'\]"):
        remote_desktops({"laptop": "http://127.0.0.1:1"}, {})
    remote = RemoteDesktop("http://127.0.0.1:1", Path("token"))
    with pytest.raises(ConfigurationError, match="always the worker's own sandbox"):
        check_remote_desktops(tasks, {"workstation": remote}, 1)
    with pytest.raises(ConfigurationError, match="--parallel 1"):
        check_remote_desktops(tasks, {"laptop": remote}, 2)
    check_remote_desktops(tasks, {"laptop": remote}, 1)


def test_an_unknown_further_environment_is_refused_before_a_sandbox_starts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from pcagent.env.sandbox import SandboxDesktop

    def start(self: SandboxDesktop) -> SandboxDesktop:
        raise AssertionError("a sandbox was started")

    monkeypatch.setattr(SandboxDesktop, "start", start)
    environment = {"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": ""}
    unknown = CliRunner().invoke(
        app,
        ["bench", "run", "--cross", "--agent", "reference", "--environment", "phone=http://x",
         "--environment-token", "phone=t"],
        env=environment,
    )  # fmt: skip
    assert unknown.exit_code == 2 and "not further environments" in unknown.output


def test_bench_list_cross_names_the_environments() -> None:
    listed = CliRunner().invoke(app, ["bench", "tasks", "--cross", "--json"])
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.output)
    assert [row["id"] for row in rows] == ["xe01", "xe02", "xe03", "xe04"]
    assert all(row["environments"] == ["workstation", "laptop"] for row in rows)


def test_served_desktops_are_paired_one_set_per_worker() -> None:
    from pcagent.bench.environments import remote_desktop_sets

    sets = remote_desktop_sets(
        ["laptop=http://a:1", "laptop=http://b:1"], ["laptop=/t/a", "laptop=~/b"]
    )
    assert [s["laptop"].url for s in sets] == ["http://a:1", "http://b:1"]
    assert sets[0]["laptop"].token_file == Path("/t/a")
    assert sets[1]["laptop"].token_file == Path("~/b").expanduser()
    assert remote_desktop_sets([], []) == []
    with pytest.raises(ConfigurationError, match="2 addresses and 1 token files"):
        remote_desktop_sets(["laptop=http://a:1", "laptop=http://b:1"], ["laptop=/t/a"])
    with pytest.raises(ConfigurationError, match="same number of served desktops"):
        remote_desktop_sets(
            ["laptop=http://a:1", "laptop=http://b:1", "phone=http://c:1"],
            ["laptop=/a", "laptop=/b", "phone=/c"],
        )
