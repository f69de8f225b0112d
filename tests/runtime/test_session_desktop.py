"""The run loop on the real sandbox desktop, with scripted agents reading the real screen.

What is real here: the sandbox, the applications, perception, the safety guard, the executor,
the SQLite record and HOME snapshots. What is scripted: the models' answers (see scripts.py).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.runtime import scripts
from tests.runtime.scripts import CalculatorDecisions, Repeating

from pcagent import actions as act
from pcagent.assembly import RunChoices, open_run
from pcagent.config import PcAgentConfig, RunConfig
from pcagent.env import SandboxDesktop
from pcagent.env.ownership import give_to_owner
from pcagent.env.processes import find_marked_processes
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.store import RunStore

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

MEETING = "Standup at 9:30\nDuration: 45 minutes\n"
EDITOR_PLAN = scripts.plan(
    {
        "id": "s1",
        "description": "Read how many minutes the standup lasts in meeting.txt",
        "app": "text_editor",
        "outputs": ["minutes"],
    },
    {
        "id": "s2",
        "description": "Compute {minutes} * 60 in the calculator",
        "app": "calculator",
        "inputs": ["minutes"],
        "depends_on": ["s1"],
    },
)


def config_for(tmp_path: Path, **run: object) -> PcAgentConfig:
    return PcAgentConfig(
        data_dir=tmp_path,
        run=RunConfig(screen_steps_doubted=False, listing_limit=0, app_actions_first=False, **run),
    )  # type: ignore[arg-type]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    with RunStore(tmp_path / "runs") as run_store:
        yield run_store


def calculator_value(desktop: SandboxDesktop) -> str:
    texts = [e.name or e.text for e in desktop.observe().elements if e.role == "text"]
    return texts[0] if texts else ""


def editor_decisions(request: object) -> str:
    """Reads the minutes off the editor's text in the listing, answers them, then done."""
    prompt = scripts.prompt_of(request)  # type: ignore[arg-type]
    if "minutes =" in prompt.split("Values known from earlier subtasks:")[0]:
        return scripts.decision({"kind": "done"}, "reported")
    match = re.search(r"Duration: (\d+) minutes", prompt)
    assert match, "the editor's text is not in the listing"
    return scripts.decision({"kind": "answer", "text": match.group(1)}, "the standup lasts")


def test_two_app_task_passes_a_value_and_recovers_from_a_wrong_click(
    desktop: SandboxDesktop, store: RunStore, tmp_path: Path
) -> None:
    (desktop.home / "meeting.txt").write_text(MEETING)
    give_to_owner(desktop.home / "meeting.txt", desktop.home)  # the applications' own file
    desktop.open_app("text_editor", [desktop.home / "meeting.txt"])
    calculator = CalculatorDecisions(wrong_first=True)
    answered: list[bool] = []

    def decisions(request: object) -> str:
        prompt = scripts.prompt_of(request)  # type: ignore[arg-type]
        if "meeting.txt" in scripts.line_after(prompt, "Subtask"):
            if not answered:
                answered.append(True)
                return "Let me look at the editor first."  # malformed: must be re-asked
            if "Values to report: minutes" in prompt and "answer(" in prompt.split("Recent")[1]:
                return scripts.decision({"kind": "done"}, "reported")
            return editor_decisions(request)
        return calculator(request)  # type: ignore[arg-type]

    def judge(prompt: str) -> tuple[str, str]:
        plus = scripts.button(prompt, "+")
        if f'"x":{plus[0]},"y":{plus[1]}' in scripts.line_after(prompt, "Action"):
            return "unexpected_change", "pressed + instead of the first digit"
        return "success", "as intended"

    models = scripts.usual_models(decisions, EDITOR_PLAN, judge=judge)
    session = RunSession(desktop, models, store, config_for(tmp_path))
    outcome = session.start("Compute the standup's length in seconds")

    assert outcome.status == "unverified", outcome.summary
    assert calculator_value(desktop) == "2700"
    steps = store.steps(outcome.run_id)
    assert [s.step for s in steps] == list(range(1, len(steps) + 1))
    # the calculator subtask declares no output: its answer is kept under its own name
    assert {"minutes": "45", "s2_answer": "2700"}.items() <= steps[-1].hub.items()
    # the value reached the second subtask's prompt through the hub
    assert any("Compute 45 * 60 in the calculator" in p for p in calculator.prompts)
    # the wrong click was judged, fed back, and recovered from
    wrong = [s for s in steps if s.reflection and s.reflection.verdict == "unexpected_change"]
    assert len(wrong) == 1
    following = store.steps(outcome.run_id)[wrong[0].step]  # the step after it (0-based list)
    assert following.thought == "clear and start over"
    # records are complete
    for step in steps:
        folder = store.step_dir(outcome.run_id, step.step)
        assert (folder / "screenshot.png").stat().st_size > 0
        assert (folder / "som.png").stat().st_size > 0
        assert step.listing and step.state is not None and step.state.instruction
        assert step.home_snapshot
    calls = store.calls(outcome.run_id)
    agents = {call.agent for call in calls}
    assert {"manager", "decision", "reflection", "progress"} <= agents
    assert "scheduler" not in agents  # each subtask's application decided its role
    assert any(call.agent == "decision" and len(call.attempts) == 2 for call in calls)
    assert [c.step for c in calls if c.agent == "manager"] == [0]
    kinds = [event.kind for event in store.events(outcome.run_id)]
    assert kinds[0] == "plan" and kinds.count("assign") == 2 and kinds[-1] == "finish"
    assert store.get_run(outcome.run_id).status == "unverified"


def test_a_killed_application_is_reopened_and_the_subtask_completes(
    desktop: SandboxDesktop, store: RunStore, tmp_path: Path
) -> None:
    plan = scripts.plan(
        {"id": "s1", "description": "Compute 12 times 11 in the calculator", "app": "calculator"}
    )
    calculator = CalculatorDecisions(restart_words=("had disappeared",))
    killed: list[int] = []

    def kill_after_step_three(record: object) -> None:
        if getattr(record, "step", 0) == 3 and not killed:
            pid = desktop.state.app_pids["calculator"][-1]  # type: ignore[union-attr]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and any(
                w.app_class == "Galculator" for w in desktop.x11.windows()
            ):
                time.sleep(0.05)

    models = scripts.usual_models(calculator, plan)
    session = RunSession(
        desktop, models, store, config_for(tmp_path), on_step=kill_after_step_three
    )
    outcome = session.start("Compute 12 times 11")
    assert killed, "the calculator was never killed"
    assert outcome.status == "unverified", outcome.summary
    assert calculator_value(desktop) == "132"
    events = store.events(outcome.run_id)
    assert [e.event.app for e in events if e.kind == "reopened_app"] == ["calculator"]  # type: ignore[union-attr]
    assert any("had disappeared" in p for p in calculator.prompts)


def test_rewind_restores_files_and_documents_then_continues_with_guidance(
    desktop: SandboxDesktop, store: RunStore, tmp_path: Path
) -> None:
    notes = desktop.home / "notes.txt"
    notes.write_text("draft")
    give_to_owner(notes, desktop.home)  # the editor saves over it
    desktop.open_app("text_editor", [notes])
    plan = scripts.plan(
        {
            "id": "s1",
            "description": "Add words to notes.txt, saving after each",
            "app": "text_editor",
        }
    )
    script = [
        {"kind": "hotkey", "keys": ["ctrl", "end"]},
        {"kind": "type", "text": " first"},
        {"kind": "hotkey", "keys": ["ctrl", "s"]},
        {"kind": "type", "text": " second"},
        {"kind": "hotkey", "keys": ["ctrl", "s"]},
        {"kind": "done"},
    ]
    models = scripts.usual_models(ScriptedBackend([scripts.decision(a) for a in script]), plan)
    first = RunSession(desktop, models, store, config_for(tmp_path)).start("Add two words")
    assert first.status == "unverified", first.summary
    assert notes.read_text().rstrip("\n") == "draft first second"

    guided: list[str] = []

    def after_rewind(request: object) -> str:
        prompt = scripts.prompt_of(request)  # type: ignore[arg-type]
        guided.append(prompt)
        steps = [
            {"kind": "hotkey", "keys": ["ctrl", "end"]},
            {"kind": "type", "text": " third"},
            {"kind": "hotkey", "keys": ["ctrl", "s"]},
            {"kind": "done"},
        ]
        return scripts.decision(steps[len(guided) - 1])

    models.backends["decision"] = Repeating(after_rewind)
    models.backends["manager"] = ScriptedBackend()  # a rewind does not plan again
    rewound = RunSession(desktop, models, store, config_for(tmp_path)).rewind(
        first.run_id, 3, guidance="write third instead of second"
    )
    assert rewound.status == "unverified", rewound.summary
    assert notes.read_text().rstrip("\n") == "draft first third"
    assert "Guidance from the user: write third instead of second" in guided[0]
    # right after the restore the editor was open on notes.txt with the step-3 content
    restore = next(e for e in store.events(rewound.run_id) if e.kind == "restore")
    assert restore.event.apps == ["text_editor: notes.txt"]  # type: ignore[union-attr]
    child = store.get_run(rewound.run_id)
    assert (child.parent_run, child.parent_step) == (first.run_id, 3)
    child_steps = store.steps(rewound.run_id)
    assert [s.step for s in child_steps][:3] == [1, 2, 3]
    assert [s.action for s in child_steps[:3]] == [
        s.action for s in store.steps(first.run_id, upto=3)
    ]
    assert len(store.steps(first.run_id)) == 6  # the original run is untouched


KILLABLE = Path(__file__).with_name("killable_run.py")


def _blocked_run(store: RunStore, *flags: str, stop: signal.Signals) -> tuple[str, str]:
    """Start killable_run.py, wait until its run blocks in its fourth step, send ``stop``, and
    wait for the child to end. Returns the run's id and its sandbox's marker."""
    root = Path(__file__).resolve().parents[2]
    child = subprocess.Popen(
        [sys.executable, str(KILLABLE), str(store.root), *flags],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        run_id = marker = ""
        for line in child.stdout:
            if line.startswith("run "):
                run_id = line.split()[1]
            if line.startswith("sandbox "):
                marker = line.split()[1]
            if line.startswith("blocked"):
                break
        assert run_id and marker, "the child never started its run"
        assert find_marked_processes(marker)
        child.send_signal(stop)
        child.wait(60)
    finally:
        if child.poll() is None:
            child.kill()
    return run_id, marker


def test_a_run_stopped_with_sigterm_is_recorded_interrupted_and_closes_its_sandbox(
    store: RunStore,
) -> None:
    run_id, marker = _blocked_run(store, "--clean", stop=signal.SIGTERM)
    record = store.get_run(run_id)
    assert record.status == "interrupted", record.summary
    assert find_marked_processes(marker) == []  # the sandbox was closed on the way out


def test_a_run_killed_with_sigkill_resumes_from_its_last_step(
    store: RunStore, tmp_path: Path
) -> None:
    run_id, _ = _blocked_run(store, stop=signal.SIGKILL)
    record = store.get_run(run_id)
    # the calculator opened by the run's own first step, then three decisions
    assert record.status == "interrupted" and record.steps == 4  # its process is gone
    stale_marker = store.get_run(run_id).settings["environment"]["sandbox_id"]

    calculator = CalculatorDecisions()
    models = scripts.usual_models(calculator)
    choices = RunChoices.of(config_for(tmp_path), may_attach=False)
    with (
        SandboxDesktop() as desktop,
        open_run(choices, environment=desktop, models=models) as parts,
    ):
        # the assembly ends the sandbox the killed run left behind, then resumes
        outcome = parts.resume(run_id)
        assert outcome.status == "unverified", outcome.summary
        assert calculator_value(desktop) == "132"
    assert find_marked_processes(stale_marker) == [], "the killed run's sandbox was left running"
    steps = store.steps(run_id)
    assert [s.step for s in steps] == list(range(1, len(steps) + 1))
    assert steps[2].action == act.Click(x=steps[2].action.x, y=steps[2].action.y)  # type: ignore[union-attr]
    assert steps[0].action == act.OpenApp(app="calculator") and steps[0].thought.startswith("[run]")
    kinds = [e.kind for e in store.events(run_id)]
    assert "resume" in kinds and "restore" in kinds


def test_passive_mode_asks_the_human_then_replay_and_the_cli_show_the_run(
    desktop: SandboxDesktop, store: RunStore, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from pcagent.cli import app
    from pcagent.runtime.loop.human import ScriptedHuman
    from pcagent.runtime.record.replay import replay_run

    desktop.open_app("calculator")
    calculator = CalculatorDecisions()
    first_moves = [
        scripts.decision({"kind": "hotkey", "keys": ["alt", "f4"]}, "close it"),
        scripts.decision({"kind": "ask_human", "question": "What should I compute?"}, "unsure"),
    ]

    def decisions(request: object) -> str:
        if first_moves:
            return first_moves.pop(0)
        return calculator(request)  # type: ignore[arg-type]

    plan = scripts.plan(
        {"id": "s1", "description": "Compute 12 times 11 in the calculator", "app": "calculator"}
    )
    human = ScriptedHuman(confirms=[False], answers=["just multiply the two numbers"])
    models = scripts.usual_models(decisions, plan)
    config = config_for(tmp_path, mode="passive")
    outcome = RunSession(desktop, models, store, config, human=human).start("12 times 11")
    assert outcome.status == "unverified", outcome.summary
    # the sensitive chord was put to the human, refused, and never reached the desktop
    assert "close_window" in human.questions[0]
    steps = store.steps(outcome.run_id)
    assert steps[0].result is not None and steps[0].result.ok is False
    assert steps[0].reflection is not None and "refused" in steps[0].reflection.reason
    # the human's answer reached the next decision as guidance
    assert "Guidance from the user: just multiply the two numbers" in calculator.prompts[0]
    assert calculator_value(desktop) == "132"

    desktop.close_apps()  # replay starts from the recorded start state, not from here
    replayed = replay_run(store, desktop, outcome.run_id)
    assert all(step.agrees for step in replayed)
    assert [s.executed for s in replayed[:2]] == [False, False]  # refused, ask_human
    assert calculator_value(desktop) == "132"

    runner = CliRunner()
    environment = {"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": ""}
    listed = runner.invoke(app, ["runs", "list", "--json"], env=environment)
    assert listed.exit_code == 0, listed.output
    assert outcome.run_id in listed.output
    shown = runner.invoke(app, ["runs", "show", outcome.run_id[:-2], "--json"], env=environment)
    assert shown.exit_code == 0, shown.output
    assert '"kind": "ask_human"' in shown.output
    missing = runner.invoke(app, ["runs", "show", "nosuchrun"], env=environment)
    assert missing.exit_code == 2 and "nosuchrun" in missing.output


def test_a_run_across_desktops_does_not_go_on_with_one_desktop(
    desktop: SandboxDesktop, store: RunStore, tmp_path: Path
) -> None:
    from pcagent.agents.plan import SubtaskSpec
    from pcagent.errors import RunStateError
    from pcagent.runtime.record.checkpoint import RunCheckpoint
    from pcagent.runtime.record.models import StepRecord

    plan = [
        SubtaskSpec(id="s1", description="compute", app="calculator", environment="workstation"),
        SubtaskSpec(id="s2", description="note it", app="text_editor", environment="laptop"),
    ]
    state = RunCheckpoint(
        instruction="across", subtasks=plan, status={"s1": "running", "s2": "pending"}
    )
    from pcagent.env.protocol import OpenWindow
    from pcagent.runtime.record.events import RestoreEvent

    calculator = [OpenWindow(app="calculator", title="Calculator")]
    run = store.create_run("across", {})
    # the step looked at the laptop: the windows it recorded are the laptop's
    store.write_step(
        StepRecord(
            run_id=run.run_id, step=1, subtask_id="s1", state=state, environment="laptop",
            apps=calculator,
        )
    )  # fmt: skip
    session = RunSession(
        desktop, scripts.usual_models(Repeating(lambda r: "")), store, config_for(tmp_path)
    )
    with pytest.raises(
        RunStateError, match=r"desktops \['laptop', 'workstation'\].*single desktop"
    ):
        session.resume(run.run_id)
    with pytest.raises(RunStateError, match="single desktop"):
        session.rewind(run.run_id, 1)
    assert [r.run_id for r in store.list_runs(10)] == [run.run_id]  # nothing new was recorded

    # given both desktops (here two names for one sandbox) it goes on where it stopped, every
    # step on the desktop of its subtask
    from tests.agents.scripted import decision

    from pcagent.env.environment_set import environment_set

    both = environment_set({"workstation": desktop, "laptop": desktop})
    waiting = Repeating(lambda r: decision({"kind": "wait", "seconds": 0.1}, "wait"))
    session = RunSession(
        both, scripts.usual_models(waiting), store, config_for(tmp_path, max_steps=3)
    )
    session.resume(run.run_id)
    resumed = [s for s in store.steps(run.run_id) if s.step > 1]
    desk_of = {spec.id: spec.environment for spec in plan}
    assert resumed and all(s.environment == desk_of[s.subtask_id] for s in resumed)
    # only the first desktop is put back, and not with another desktop's windows
    (restored,) = [e.event for e in store.events(run.run_id) if isinstance(e.event, RestoreEvent)]
    assert restored.apps == []

    # a step on the first desktop gets its applications back (a rewind, as a new run)
    on_first = store.create_run("across", {})
    store.write_step(
        StepRecord(
            run_id=on_first.run_id, step=1, subtask_id="s1", state=state,
            environment="workstation", apps=calculator,
        )
    )  # fmt: skip
    session = RunSession(
        both, scripts.usual_models(waiting), store, config_for(tmp_path, max_steps=2)
    )
    child = session.rewind(on_first.run_id, 1).run_id
    (restored,) = [e.event for e in store.events(child) if isinstance(e.event, RestoreEvent)]
    assert restored.apps == ["calculator"]
