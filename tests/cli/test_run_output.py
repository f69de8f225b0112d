"""The output of run commands: waits shown on a real pipe and a real pseudo-terminal, JSON
events, and output that survives its reader going away."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import time
from pathlib import Path

import pytest
from rich.console import Console

from pcagent import actions as act
from pcagent.cli.run_output import RunOutput, output_mode, step_markup
from pcagent.cli.wait_display import PlainWaits, SafeStream, TerminalWaits
from pcagent.errors import ConfigurationError
from pcagent.runtime.loop.progress import Progress, model_call, sandbox_start
from pcagent.runtime.record.models import StepRecord, StepResult

DECISION = model_call("decision", "local", "local:smollm2-135m")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def read_available(fd: int, seconds: float) -> str:
    """What the other end wrote within ``seconds`` (drained as it comes)."""
    chunks = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunks.append(os.read(fd, 65536))
            except OSError:  # the pseudo-terminal's other end closed
                break
    return b"".join(chunks).decode(errors="replace")


def test_a_pipe_gets_occasional_plain_lines_and_survives_its_reader_leaving() -> None:
    read_end, write_end = os.pipe()
    stream = os.fdopen(write_end, "w")
    output = RunOutput("text", stream)
    assert not output.console.is_terminal
    clock = Clock()
    waits = PlainWaits(output.console, clock=clock, watch=False)
    progress = Progress(waits)
    with progress.waiting(sandbox_start()):
        clock.now += 2
        waits.look()  # a short wait says nothing
    with progress.waiting(DECISION):
        clock.now += 6
        waits.look()
        clock.now += 10
        waits.look()  # no reminder yet
        clock.now += 30
        waits.look()
    output.step(StepRecord(run_id="r", step=1, action=act.Done()))
    stream.flush()
    text = read_available(read_end, 0.5)
    assert text.splitlines() == [
        "waiting for the decision model (local:smollm2-135m)... 6 s",
        "waiting for the decision model (local:smollm2-135m)... 46 s",
        "the decision model (local:smollm2-135m): done after 0 s",
        "  1 [ ] done(summary='')  ",
    ]
    assert "\x1b" not in text and "\r" not in text  # no terminal codes in a pipe
    os.close(read_end)
    with progress.waiting(DECISION):
        clock.now += 60
        waits.look()
    output.log("written to nobody")
    output.result(["run finished"], status="finished")
    assert output.stream.gone


def test_a_terminal_gets_one_line_redrawn_with_the_elapsed_time() -> None:
    master, slave = pty.openpty()
    stream = os.fdopen(slave, "w")
    output = RunOutput("text", stream)
    assert output.console.is_terminal
    with output:
        assert isinstance(output.progress.listener, TerminalWaits)
        with output.progress.waiting(DECISION):
            shown = read_available(master, 1.6)
        output.log("after the wait")
        shown += read_available(master, 0.5)
        idle = read_available(master, 0.5)
    os.close(slave)
    os.close(master)
    assert "waiting for the decision model (local:smollm2-135m)" in shown
    assert "0:00:01" in shown  # the elapsed time counts up in place
    assert "\r" in shown or "\x1b[" in shown  # redrawn, not appended
    assert "after the wait" in shown
    assert idle == ""  # between waits the terminal is left alone (a question may be typed)


def test_json_events_are_one_object_a_line_with_stable_fields() -> None:
    buffer = io.StringIO()
    with RunOutput("json", buffer) as output:
        with output.progress.waiting(DECISION):
            pass
        with pytest.raises(TimeoutError), output.progress.waiting(sandbox_start()):
            raise TimeoutError("too slow")
        output.log("plan: s1")
        output.step(
            StepRecord(
                run_id="r",
                step=2,
                action=act.Done(),
                result=StepResult(ok=False, refused=True, message="done refused: no value"),
            )
        )
        output.result(["ignored in json"], run_id="r", status="failed")
    events = [json.loads(line) for line in buffer.getvalue().splitlines()]
    assert [e["event"] for e in events] == [
        "wait_start",
        "wait_end",
        "wait_start",
        "wait_end",
        "log",
        "step",
        "result",
    ]
    start, end = events[0], events[1]
    assert start["kind"] == "model_call" and start["role"] == "decision"
    assert start["model"] == "local:smollm2-135m" and start["profile"] == "local"
    assert end["id"] == start["id"] and end["ok"] is True and end["elapsed_s"] >= 0
    assert events[3]["ok"] is False and events[3]["error"] == "TimeoutError"
    assert events[5]["status"] == "refused" and "no value" in events[5]["problem"]
    assert all(isinstance(e["time"], float) for e in events)


def test_quiet_prints_the_result_alone(tmp_path: Path) -> None:
    buffer = io.StringIO()
    with RunOutput("quiet", buffer) as output:
        assert output.progress.listener is None
        output.log("a note")
        output.step(StepRecord(run_id="r", step=1))
        output.result(["run finished: done"], status="finished")
    assert buffer.getvalue() == "run finished: done\n"


def test_a_closed_stream_is_written_to_without_error() -> None:
    stream = io.StringIO()
    stream.close()
    with RunOutput("json", stream) as output, output.progress.waiting(DECISION):
        output.log("nobody reads this")
    assert output.stream.gone
    assert not SafeStream(stream).isatty()


def test_a_refused_done_reads_as_refused_and_both_forms_at_once_are_refused() -> None:
    refused = StepRecord(
        run_id="r",
        step=3,
        action=act.Done(),
        result=StepResult(ok=False, refused=True, message="done refused: the value is missing"),
    )
    console = Console(file=io.StringIO(), width=200)
    console.print(step_markup(refused))
    line = console.file.getvalue()  # type: ignore[attr-defined]
    assert "refused" in line and "success" not in line and "the value is missing" in line
    with pytest.raises(ConfigurationError):
        output_mode(quiet=True, as_json=True)


def test_pcagent_run_json_tells_the_sandbox_start_as_a_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from pcagent.cli import app
    from pcagent.env.sandbox import SandboxDesktop
    from pcagent.errors import SandboxStartError

    def start(self: SandboxDesktop) -> SandboxDesktop:
        raise SandboxStartError("Xvfb is not installed")

    monkeypatch.setattr(SandboxDesktop, "start", start)
    env = {"PCAGENT_DATA_DIR": str(tmp_path), "PCAGENT_CONFIG": ""}
    result = CliRunner().invoke(app, ["run", "Open the calculator", "--json"], env=env)
    assert result.exit_code == 2
    events = [json.loads(line) for line in result.stdout.splitlines()]  # nothing else
    assert [e["event"] for e in events] == ["log", "wait_start", "wait_end"]
    assert events[0]["message"] == "starting the sandbox desktop (auto mode)..."
    assert events[1]["kind"] == events[2]["kind"] == "sandbox_start"
    assert events[2]["ok"] is False and events[2]["error"] == "SandboxStartError"
    assert "Xvfb is not installed" in result.stderr
    both = CliRunner().invoke(app, ["run", "x", "--json", "--quiet"], env=env)
    assert both.exit_code == 2 and "give one" in both.stderr
