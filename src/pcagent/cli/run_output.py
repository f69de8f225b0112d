"""What ``pcagent run``, ``demo``, ``bench run``, ``runs resume`` and ``runs rewind`` print while
they work, in one of three forms: ``text`` (steps, notes and live waits, for a person), ``quiet``
(nothing but the result) and ``json`` (one JSON event per line on standard output, for scripts;
the events and their fields are listed in docs/progress.md).

Commands hand the run :attr:`RunOutput.step`, :attr:`RunOutput.log` and
:attr:`RunOutput.progress`; the run itself never prints.
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Annotated, Any, Literal

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress as Bars
from rich.text import Text

from pcagent.cli.wait_display import JsonEvents, PlainWaits, SafeStream, TerminalWaits
from pcagent.errors import ConfigurationError
from pcagent.runtime.loop.progress import Progress
from pcagent.runtime.loop.run_ending import RunOutcome
from pcagent.runtime.record.models import StepRecord

OutputMode = Literal["text", "quiet", "json"]

QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but the result.")]
JsonOption = Annotated[
    bool,
    typer.Option(
        "--json",
        help="Print one JSON event per line on standard output (waits, steps, notes, the "
        "result); see docs/progress.md.",
    ),
]

VERDICT_COLOURS = {
    "success": "green",
    "no_change": "yellow",
    "unexpected_change": "red",
    "refused": "red",
}


def output_mode(quiet: bool, as_json: bool) -> OutputMode:
    """The form --quiet and --json ask for; :class:`ConfigurationError` for both at once."""
    if quiet and as_json:
        raise ConfigurationError("--quiet and --json ask for two forms of output; give one")
    return "json" if as_json else "quiet" if quiet else "text"


def step_fields(record: StepRecord) -> dict[str, Any]:
    """A step as the ``step`` event's fields (and what the text line shows).

    ``status``: ``ok``, ``failed`` (the action failed or raised), ``refused`` (stopped before
    it ran, or a ``done`` the run did not accept) or ``none`` (no valid action)."""
    action = record.action
    result = record.result
    arguments = action.model_dump(mode="json", exclude={"kind"}) if action is not None else {}
    if result is not None and result.refused:
        status = "refused"
    elif record.error or (result is not None and not result.ok):
        status = "failed"
    else:
        status = "ok" if action is not None else "none"
    problem = record.error or ""
    if not problem and result is not None and not result.ok:
        problem = f"{result.error}: {result.message}" if result.error else result.message
    return {
        "run_id": record.run_id,
        "step": record.step,
        "subtask": record.subtask_id,
        "role": record.role,
        "action": action.kind if action is not None else "",
        "arguments": {k: v for k, v in arguments.items() if v is not None},
        "status": status,
        "verdict": record.reflection.verdict if record.reflection is not None else "",
        "problem": problem,
        "tokens": record.tokens,
        "duration_s": round(record.duration_ms / 1000, 3),
    }


def step_markup(record: StepRecord) -> str:
    """One line per step (rich markup): number, subtask and role, the action with its
    arguments, Reflection's verdict (or "refused"), and what went wrong if something did."""
    fields = step_fields(record)
    arguments = ", ".join(f"{k}={v!r}" for k, v in fields["arguments"].items())
    verdict = "refused" if fields["status"] == "refused" else fields["verdict"]
    colour = VERDICT_COLOURS.get(verdict, "white")
    problem = fields["problem"]
    return (
        f"[bold]{record.step:>3}[/bold] "
        + escape(f"[{record.subtask_id} {record.role}] ")
        + escape(f"{fields['action'] or '-'}({arguments})")
        + f"  [{colour}]{verdict}[/{colour}]"
        + (f"  [red]{escape(problem)}[/red]" if problem else "")
    )


def outcome_fields(outcome: RunOutcome, record: Path) -> dict[str, Any]:
    """The fields of a run's ``result`` event in JSON mode, whichever command ran it."""
    return {
        "run_id": outcome.run_id,
        "status": outcome.status,
        "summary": outcome.summary,
        "steps": outcome.steps,
        "tokens": outcome.tokens,
        "record": str(record),
    }


class RunOutput:
    """The output of one command; use it as a context manager around the run (the live
    display of waits runs inside it). ``stream`` defaults to standard output; ``bars`` is a rich
    progress display the command shows itself, to which waits are added on a terminal."""

    def __init__(
        self, mode: OutputMode, stream: IO[str] | None = None, bars: Bars | None = None
    ) -> None:
        self.mode = mode
        self.stream = SafeStream(stream if stream is not None else sys.stdout)
        self.console = Console(file=self.stream)  # type: ignore[arg-type]
        self.events = JsonEvents(self.stream) if mode == "json" else None
        self.progress = Progress()
        self._bars = bars
        self._stack = ExitStack()

    def __enter__(self) -> RunOutput:
        if self.events is not None:
            self.progress.listener = self.events
        elif self.mode == "text":
            display: TerminalWaits | PlainWaits = (
                TerminalWaits(self.console, self._bars)
                if self.console.is_terminal
                else PlainWaits(self.console)
            )
            self.progress.listener = self._stack.enter_context(display)
        return self

    def __exit__(self, *_: object) -> None:
        self.progress.listener = None
        self._stack.close()

    def say(self, markup: str) -> None:
        """A note for the person (rich markup): printed in text mode, a ``log`` event in JSON."""
        if self.events is not None:
            self.events.emit("log", message=Text.from_markup(markup).plain)
        elif self.mode == "text":
            self.console.print(markup, soft_wrap=True)

    def log(self, message: str) -> None:
        """A note of the run (plain text)."""
        self.say(f"[dim]{escape(message)}[/dim]")

    def step(self, record: StepRecord) -> None:
        if self.events is not None:
            self.events.emit("step", **step_fields(record))
        elif self.mode == "text":
            self.console.print(step_markup(record), soft_wrap=True)

    def emit(self, event: str, **fields: Any) -> None:
        """An event of JSON mode; nothing in the others."""
        if self.events is not None:
            self.events.emit(event, **fields)

    def result(self, lines: list[str], **fields: Any) -> None:
        """The result: ``lines`` (rich markup) in text and quiet mode, a ``result`` event with
        ``fields`` in JSON mode."""
        if self.events is not None:
            self.events.emit("result", **fields)
            return
        for line in lines:
            self.console.print(line, soft_wrap=True)
