"""``pcagent run`` and ``pcagent runs`` refuse bad input with a clear message and exit status 2,
before starting or attaching any desktop, and leave no run behind. (The commands' normal paths
are exercised in tests/runtime/test_session_desktop.py and by ``make demo``.)"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pcagent.actions import Click
from pcagent.cli import app
from pcagent.cli.run_listing import print_step
from pcagent.env.sandbox import SandboxDesktop
from pcagent.errors import SandboxStartError
from pcagent.runtime.record.models import ReflectionRecord, StepRecord, StepResult, UnsavedFile
from pcagent.runtime.record.store import RunStore


def _runs(environment: dict[str, str]) -> list[object]:
    listed = CliRunner().invoke(app, ["runs", "list", "--json"], env=environment)
    assert listed.exit_code == 0, listed.output
    return json.loads(listed.output)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["run", "do it", "--file", "/no/such/file.txt"], "/no/such/file.txt"),
        (
            ["run", "do it", "--ablation", "no_brain"],
            "unknown ablation 'no_brain'; valid ablations: none, no_perception, no_manager, "
            "no_reflection, single_agent",
        ),
        (["run", "do it", "--mode", "sometimes"], "mode"),
        (["run", ""], "the instruction is empty"),
        (["run", "   "], "the instruction is empty"),
        (["run", "do it", "--display", ":0", "--file", "/etc/hostname"], "--file copies into"),
        (["run", "do it", "--display", ""], "--display is empty"),
        (["run", "do it", "--max-steps", "0"], "max_steps"),
        (["run", "do it", "--remote", "http://127.0.0.1:9"], "--remote needs --token-file"),
        (["run", "x", "--also", "laptop=http://127.0.0.1:9"], "no token file for ['laptop']"),
        (
            ["run", "x", "--also", "main=http://127.0.0.1:9", "--also-token", "main=t"],
            "own desktop",
        ),
        (["run", "x", "--also", "http://127.0.0.1:9"], "NAME="),
        (
            ["run", "x", "--remote", "http://127.0.0.1:9", "--token-file", "t", "--display", ":0"],
            "two desktops",
        ),
        (
            [
                "run",
                "x",
                "--remote",
                "http://127.0.0.1:9",
                "--token-file",
                "t",
                "-f",
                "/etc/hostname",
            ],
            "does not share",
        ),
        (
            ["run", "x", "--remote", "http://127.0.0.1:9", "--token-file", "/no/such/token"],
            "token",
        ),
        (
            ["run", "x", "--model-url", "http://127.0.0.1:9/v1", "--model-name", "m"],
            "cannot reach the model server at http://127.0.0.1:9/v1",
        ),
        (["run", "x", "--model-url", "http://h/v1"], "--model-url and --model-name go together"),
        (
            ["run", "x", "--model", "local", "--model-url", "http://h/v1", "--model-name", "m"],
            "give one of them",
        ),
        (["run", "x", "--vision"], "--vision go with --model-url URL --model-name NAME"),
        (["run", "x", "--model-url", "ftp://h", "--model-name", "m"], "not an http(s) address"),
        (["runs", "show", "nosuchrun"], "nosuchrun"),
        (["runs", "resume", "nosuchrun"], "no recorded run matches 'nosuchrun'"),
        (["runs", "rewind", "nosuchrun", "--step", "2"], "no recorded run matches 'nosuchrun'"),
        (["runs", "rewind", "nosuchrun"], "say which step to go back to: --step N"),
        (["runs", "rewind", "r", "--step", "2", "--to", "2"], "--step and --to name the same"),
        (["runs", "replay", "nosuchrun"], "no recorded run matches 'nosuchrun'"),
        (["runs", "resume", "r", "--quiet", "--json"], "two forms of output; give one"),
        (
            ["runs", "rewind", "r", "--step", "1", "--model-url", "http://h/v1"],
            "--model-url and --model-name go together",
        ),
        (
            ["runs", "resume", "r", "--model", "local", "--model-url", "u", "--model-name", "m"],
            "give one of them",
        ),
        (["runs", "rewind", "r", "--step", "1", "--vision"], "--vision go with --model-url"),
        (["runs", "resume", "r", "--api-key-env", "KEY"], "--api-key-env go with --model-url"),
        (
            ["runs", "resume", "r", "--model-url", "ftp://h", "--model-name", "m"],
            "not an http(s) address",
        ),
        (  # the run is looked up before the server is asked anything
            [
                "runs",
                "resume",
                "nosuchrun",
                "--model-url",
                "http://127.0.0.1:9/v1",
                "--model-name",
                "m",
            ],
            "no recorded run matches 'nosuchrun'",
        ),
        (["runs", "resume", "r", "--also", "laptop=http://127.0.0.1:9"], "no token file"),
        (
            [
                "runs",
                "rewind",
                "r",
                "--to",
                "1",
                "--also",
                "main=http://h:9",
                "--also-token",
                "main=t",
            ],
            "own desktop",
        ),
    ],
)
def test_bad_input_is_refused_before_anything_starts(
    environment: dict[str, str], desktop_starts: list[str], arguments: list[str], message: str
) -> None:
    result = CliRunner().invoke(app, arguments, env=environment)
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and message in result.output
    assert "starting the sandbox" not in result.output and "attached to" not in result.output
    assert desktop_starts == []
    assert _runs(environment) == []


@pytest.mark.parametrize("command", [["resume"], ["rewind", "--step", "0"]])
def test_continuing_an_unknown_run_with_json_prints_nothing_but_json(
    environment: dict[str, str], desktop_starts: list[str], command: list[str]
) -> None:
    arguments = ["runs", command[0], "nosuchrun", *command[1:], "--json"]
    result = CliRunner().invoke(app, arguments, env=environment)
    assert result.exit_code == 2, result.output
    assert [json.loads(line) for line in result.stdout.splitlines()] == []
    assert result.stderr.startswith("error: no recorded run matches 'nosuchrun'")
    assert result.stderr.count("\n") == 1 and desktop_starts == []


def test_an_error_is_reported_once_on_standard_error(environment: dict[str, str]) -> None:
    result = CliRunner().invoke(app, ["run", "do it", "--ablation", "no_brain"], env=environment)
    assert result.stdout == ""
    assert result.stderr.count("error:") == 1 and result.stderr.count("\n") == 1


def test_runs_list_on_an_empty_store_prints_an_empty_list(environment: dict[str, str]) -> None:
    result = CliRunner().invoke(app, ["runs", "list", "--json"], env=environment)
    assert result.exit_code == 0 and result.output.strip() == "[]"


def test_the_help_names_every_ablation(environment: dict[str, str]) -> None:
    from pcagent.runtime.loop.ablations import ABLATIONS

    for command in (["run", "--help"], ["bench", "run", "--help"]):
        result = CliRunner().invoke(app, command, env={**environment, "COLUMNS": "300"})
        assert result.exit_code == 0, result.output
        assert ", ".join(ABLATIONS) in result.output


def test_print_step_reads_the_typed_record(capsys: pytest.CaptureFixture[str]) -> None:
    failed = StepRecord(
        run_id="r",
        step=3,
        subtask_id="s1",
        role="calculator",
        action=Click(x=10, y=20),
        result=StepResult(ok=False, message="nothing there", error="ActionExecutionError"),
        reflection=ReflectionRecord(verdict="no_change", reason="same screen"),
    )
    print_step(failed)
    print_step(StepRecord(run_id="r", step=4))
    words = capsys.readouterr().out.split()
    assert " ".join(words) == (
        "3 [s1 calculator] click(x=10, y=20) no_change ActionExecutionError: nothing there "
        "4 [ ] -()"
    )


def test_restore_unsaved_writes_the_recorded_documents(
    environment: dict[str, str], tmp_path: Path
) -> None:
    store = RunStore(Path(environment["PCAGENT_DATA_DIR"]) / "runs")
    run = store.create_run("write", {})
    entry = UnsavedFile(app="text_editor", title="*notes.txt", document="notes.txt", file="01.txt")
    store.write_step(
        StepRecord(run_id=run.run_id, step=1, unsaved=[entry]),
        unsaved_files=[("01.txt", "Grüße, unsaved".encode())],
    )
    store.write_step(StepRecord(run_id=run.run_id, step=2))
    store.close()
    target = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["runs", "restore-unsaved", run.run_id, "--out", str(target)], env=environment
    )
    assert result.exit_code == 0, result.output
    assert (target / "notes (unsaved at step 1).txt").read_text() == "Grüße, unsaved"
    refused = CliRunner().invoke(
        app, ["runs", "restore-unsaved", run.run_id, "--step", "2"], env=environment
    )
    assert refused.exit_code == 2 and "step 2" in refused.output


def test_runs_list_at_80_columns_keeps_the_run_id_and_cuts_the_instruction(
    environment: dict[str, str],
) -> None:
    store = RunStore(Path(environment["PCAGENT_DATA_DIR"]) / "runs")
    instruction = "Open the spreadsheet, sum the second column and " + "write it down " * 8
    run = store.create_run(instruction, {})
    store.close()
    listed = CliRunner().invoke(app, ["runs", "list"], env={**environment, "COLUMNS": "80"})
    assert listed.exit_code == 0, listed.output
    row = next(line for line in listed.output.splitlines() if run.run_id[:8] in line)
    assert run.run_id in row and len(row) <= 80
    assert "Open the" in row and row.rstrip().endswith("…")
    assert "write it down write it down" not in listed.output


class _ModelListing:
    """A real HTTP server on 127.0.0.1 that lists one model taking images, as llama.cpp does,
    and keeps the paths asked for."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        asked = self.asked

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                asked.append(self.path)
                body = json.dumps(
                    {"data": [{"id": "m", "architecture": {"input_modalities": ["text", "image"]}}]}
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize(
    "command", [["runs", "resume", "RUN"], ["runs", "rewind", "RUN", "--step", "0"], ["run", "x"]]
)
def test_a_served_model_is_asked_about_once_and_only_json_events_are_printed(
    environment: dict[str, str], monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    def start(self: SandboxDesktop) -> SandboxDesktop:
        raise SandboxStartError("Xvfb is not installed")

    monkeypatch.setattr(SandboxDesktop, "start", start)
    store = RunStore(Path(environment["PCAGENT_DATA_DIR"]) / "runs")
    run = store.create_run("compute 12 * 7", {})
    store.close()
    server = _ModelListing()
    try:
        arguments = [run.run_id if word == "RUN" else word for word in command] + ["--json"]
        arguments += ["--model-url", server.url, "--model-name", "m"]
        result = CliRunner().invoke(app, arguments, env=environment)
    finally:
        server.close()
    assert result.exit_code == 2, result.output
    assert server.asked == ["/v1/models"]
    events = [json.loads(line) for line in result.stdout.splitlines()]  # nothing else
    assert [e["event"] for e in events] == ["log", "log", "wait_start", "wait_end"]
    assert "the server says m takes images" in events[0]["message"]
    assert events[1]["message"] == "starting the sandbox desktop (auto mode)..."
    assert events[3]["ok"] is False and events[3]["error"] == "SandboxStartError"
    assert "Xvfb is not installed" in result.stderr
