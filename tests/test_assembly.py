"""Putting a run together: the ``[desktop]`` section reaching the sandbox, the choices checked
before anything starts, the attach defaults, and the sandbox a killed run left behind."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.runtime import scripts

from pcagent.assembly import (
    RecordedEnvironment,
    RunChoices,
    RunParts,
    open_run,
    recorded_environment,
    sandbox_config,
)
from pcagent.config import DesktopConfig, PcAgentConfig, RunConfig, load_config
from pcagent.env.processes import find_marked_processes
from pcagent.env.sandbox import SandboxDesktop
from pcagent.env.sandbox_config import SandboxConfig
from pcagent.errors import ConfigurationError, RunStateError
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.runtime.loop.human import NoHuman, TerminalHuman
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.models import RunRecord
from pcagent.runtime.record.store import RunStore

# --- the [desktop] section ------------------------------------------------------------------------


def test_desktop_defaults_are_the_sandbox_defaults() -> None:
    assert sandbox_config(DesktopConfig()) == SandboxConfig()
    assert PcAgentConfig().desktop.display is None


def test_the_desktop_section_of_the_file_reaches_the_sandbox(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text(
        "[desktop]\n"
        "width = 1600\n"
        "height = 900\n"
        "settle_timeout = 3.5\n"
        "settle_quiet = 0.5\n"
        "start_timeout = 60\n"
        'home_template = "~/pcagent-home"\n'
        "keep_files = true\n"
        'display = ":5"\n'
    )
    config = load_config(file, environ={"HOME": str(tmp_path)})
    settings = sandbox_config(config.desktop, browser_flags=["--proxy-server=x"])
    assert (settings.width, settings.height) == (1600, 900)
    assert (settings.settle_timeout, settings.settle_quiet) == (3.5, 0.5)
    assert settings.start_timeout == 60 and settings.keep_files is True
    assert settings.home_template == Path("~/pcagent-home").expanduser()
    assert settings.browser_flags == ["--proxy-server=x"]
    assert config.desktop.display == ":5"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[desktop]\nwidht = 1600\n", "desktop.widht: Extra inputs are not permitted"),
        ("[desktop]\nwidth = 100\n", "desktop.width: Input should be greater than or equal to 320"),
        ('[desktop]\ndisplay = ""\n', "desktop.display"),
    ],
)
def test_bad_desktop_settings_name_the_key(tmp_path: Path, text: str, expected: str) -> None:
    file = tmp_path / "config.toml"
    file.write_text(text)
    with pytest.raises(ConfigurationError, match=expected):
        load_config(file, environ={})


# --- choices --------------------------------------------------------------------------------------


def test_a_sandbox_run_keeps_the_configured_mode_and_snapshots() -> None:
    choices = RunChoices.of(PcAgentConfig(), ablation="no_reflection")
    assert not choices.attached and choices.display is None
    assert choices.ablation == "no_reflection"
    assert choices.mode == "auto" and choices.config.run.snapshot_home is True


def test_attaching_is_passive_and_snapshots_nothing_unless_asked() -> None:
    config = PcAgentConfig()
    attached = RunChoices.of(config, display=":0")
    assert attached.attached and attached.display == ":0"
    assert attached.mode == "passive" and attached.config.run.snapshot_home is False
    asked = RunChoices.of(config, display=":0", mode="auto", snapshot_home=True)
    assert asked.mode == "auto" and asked.config.run.snapshot_home is True
    stricter = PcAgentConfig(run=RunConfig(mode="proactive"))
    assert RunChoices.of(stricter, display=":0").mode == "proactive"


def test_the_configured_display_attaches_except_where_home_is_restored() -> None:
    config = PcAgentConfig(desktop=DesktopConfig(display=":7"))
    assert RunChoices.of(config).display == ":7"
    assert RunChoices.of(config, display=":8").display == ":8"
    restoring = RunChoices.of(config, may_attach=False)
    assert restoring.display is None and restoring.config.run.snapshot_home is True
    with pytest.raises(ConfigurationError, match="leave out --display"):
        RunChoices.of(config, display=":8", may_attach=False)


def test_bad_choices_are_refused_with_the_valid_ones() -> None:
    with pytest.raises(ConfigurationError, match="valid ablations: none, no_perception"):
        RunChoices.of(PcAgentConfig(), ablation="no_brain")
    with pytest.raises(ConfigurationError, match=r"run\.mode: Input should be 'auto'"):
        RunChoices.of(PcAgentConfig(), mode="sometimes")


# --- the sandbox a killed run left behind ---------------------------------------------------------


def test_the_recorded_environment_of_new_and_old_runs(tmp_path: Path) -> None:
    described = {
        "sandbox_id": "abc",
        "display": ":91",
        "root": str(tmp_path),
        "home": str(tmp_path / "home"),
        "attached": False,
    }
    assert recorded_environment({"environment": described}) == RecordedEnvironment(
        tmp_path / "state.json", attached=False, display=":91"
    )
    old = {"sandbox_state": str(tmp_path / "state.json")}
    assert recorded_environment(old) == RecordedEnvironment(tmp_path / "state.json")
    assert recorded_environment({"mode": "auto"}) is None
    # across desktops: the run's own (first) desktop, the one snapshotted and restored
    across = {
        "environments": {"main": described, "laptop": {"url": "http://x"}},
        "current": "laptop",
    }
    assert recorded_environment({"environment": across}) == RecordedEnvironment(
        tmp_path / "state.json", attached=False, display=":91"
    )
    served_first = {"environments": {"laptop": {"url": "http://x"}, "main": described}}
    assert recorded_environment({"environment": served_first}) is None


class _Described:
    """Stands in for the current desktop: only its description is read."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def describe(self) -> dict[str, object]:
        return {"sandbox_id": "now", "display": ":99", "root": str(self.root), "attached": False}


def _parts(tmp_path: Path, notes: list[str]) -> RunParts:
    config = PcAgentConfig(data_dir=tmp_path / "data")
    return RunParts(
        RunChoices.of(config),
        _Described(tmp_path / "current"),  # type: ignore[arg-type]
        models=object(),  # type: ignore[arg-type]
        store=None,  # type: ignore[arg-type]
        human=NoHuman(),
        log=notes.append,
    )


def _record(settings: dict[str, object]) -> RunRecord:
    return RunRecord(
        run_id="20260101-000000-abcd",
        instruction="x",
        status="running",
        created_at=0.0,
        updated_at=0.0,
        settings=settings,
    )


def test_a_left_behind_sandbox_that_is_gone_is_noted(tmp_path: Path) -> None:
    notes: list[str] = []
    parts = _parts(tmp_path, notes)
    gone = {"environment": {"root": str(tmp_path / "gone"), "display": ":93"}}
    parts.end_left_behind(_record(gone))
    parts.end_left_behind(_record({"sandbox_state": str(tmp_path / "old" / "state.json")}))
    assert len(notes) == 2 and all("is gone already" in note for note in notes)


def test_the_current_sandbox_and_an_attached_display_are_left_alone(tmp_path: Path) -> None:
    notes: list[str] = []
    parts = _parts(tmp_path, notes)
    (tmp_path / "current").mkdir()
    (tmp_path / "current" / "state.json").write_text("{}")  # would not load: it is not read
    parts.end_left_behind(_record({"environment": {"root": str(tmp_path / "current")}}))
    assert notes == []
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "state.json").write_text("{}")
    attached = {"environment": {"root": str(tmp_path / "mine"), "display": ":0", "attached": True}}
    parts.end_left_behind(_record(attached))
    assert notes == [
        "run 20260101-000000-abcd was attached to display :0; applications it opened there are "
        "left as they are"
    ]


def test_an_unreadable_state_file_stops_the_resume_with_what_to_do(tmp_path: Path) -> None:
    parts = _parts(tmp_path, [])
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "state.json").write_text("{not json")
    with pytest.raises(RunStateError, match="delete the file and end the sandbox's processes"):
        parts.end_left_behind(_record({"environment": {"root": str(tmp_path / "broken")}}))


@pytest.mark.desktop
def test_a_left_behind_sandbox_is_ended(tmp_path: Path) -> None:
    left = SandboxDesktop().start()  # as a killed run leaves it: running, its state saved
    try:
        marker = str(left.describe()["sandbox_id"])
        assert find_marked_processes(marker)
        notes: list[str] = []
        _parts(tmp_path, notes).end_left_behind(_record({"environment": left.describe()}))
        assert find_marked_processes(marker) == []
        assert notes == [
            f"ended the sandbox run 20260101-000000-abcd left behind (display {left.display})"
        ]
    finally:
        left.close()


# --- attaching to a display, for real -------------------------------------------------------------


@pytest.mark.desktop
@pytest.mark.slow
def test_open_run_attaches_to_a_running_display(
    desktop: SandboxDesktop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The sandbox plays the person's own desktop: its display, reached with its X cookie.
    monkeypatch.setenv("XAUTHORITY", desktop.env["XAUTHORITY"])
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    config = PcAgentConfig(data_dir=tmp_path / "data")
    choices = RunChoices.of(config, display=desktop.display)
    models = scripts.usual_models(ScriptedBackend([]))  # no model is asked anything here
    with open_run(choices, models=models) as parts:
        described = parts.environment.describe()
        assert described["attached"] is True and described["display"] == desktop.display
        assert described["home"] == str(home)
        assert parts.environment.screen_size == (1280, 800)
        assert parts.config.run.snapshot_home is False
        assert parts.config.run.mode == "passive" and isinstance(parts.human, TerminalHuman)
        assert isinstance(parts.store, RunStore)
        assert isinstance(parts.session(), RunSession)
    assert list(home.iterdir()) == []
    assert desktop.observe().screenshot is not None  # the display itself was left running


def test_a_session_may_allow_what_its_task_asks_for(tmp_path: Path) -> None:
    from tests.runtime.memory_desktop import MemoryDesktop

    from pcagent.bench.tasks import load_tasks

    config = PcAgentConfig(data_dir=tmp_path).model_copy(
        update={"safety": PcAgentConfig().safety.model_copy(update={"allow": ["close_window"]})}
    )
    parts = RunParts(
        RunChoices.of(config),
        MemoryDesktop(tmp_path),  # type: ignore[arg-type]
        models=scripts.usual_models(ScriptedBackend([])),  # type: ignore[arg-type]
        store=RunStore(tmp_path / "runs"),
        human=NoHuman(),
    )
    assert parts.session().config.safety.allow == ["close_window"]
    allowed = parts.session(allow=["send_mail"]).config.safety.allow
    assert allowed == ["close_window", "send_mail"]
    assert parts.config.safety.allow == ["close_window"]  # the parts' own are unchanged
    # a task that checks a sent mail asks for the sending; the others ask for nothing
    tasks = load_tasks()
    assert tasks["pc19"].permitted_effects() == ("send_mail",)
    assert tasks["pc01"].permitted_effects() == ()
