"""Every command's help follows the conventions of click: value names in capitals, no Python
type labels, no markup a terminal shows raw, and one name for "a step" across commands."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from pcagent.cli import app

#: What the help of a command must not show: Python type labels (<str>, <list[Path]>), an
#: argument in braces ({run_id}), reST or markdown markup (``x``, `x`, :func:, **x**).
NOT_IN_HELP = {
    "a type label in angle brackets": re.compile(r"<[a-zA-Z_][\w\[\], |]*>"),
    "an argument in braces": re.compile(r"\{[a-z_]+\}"),
    "reST or markdown code": re.compile(r"`"),
    "a reST role": re.compile(r":(?:func|class|mod|meth|attr|data):"),
    "markdown bold": re.compile(r"\*\*\w"),
}


def command_paths() -> list[tuple[str, ...]]:
    """Every command and group, as the words that name it (the root is ())."""
    root = typer.main.get_command(app)
    paths: list[tuple[str, ...]] = []

    def walk(command: object, path: tuple[str, ...]) -> None:
        paths.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    walk(root, ())
    return paths


def help_of(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "200"}, color=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_every_command_has_help_in_click_conventions() -> None:
    paths = command_paths()
    assert ("runs", "rewind") in paths and ("bench", "run") in paths and len(paths) > 30
    problems = []
    for path in paths:
        text = help_of(path)
        for what, pattern in NOT_IN_HELP.items():
            found = pattern.search(text)
            if found:
                problems.append(f"pcagent {' '.join(path)}: {what}: {found.group(0)!r}")
        usage = next(line for line in text.splitlines() if "Usage:" in line)
        for word in usage.split("Usage:")[1].split()[len(path) + 1 :]:
            bare = word.strip("[].")
            if bare and bare != "OPTIONS" and not bare.isupper() and bare != "ARGS":
                problems.append(f"pcagent {' '.join(path)}: lower-case argument {word!r}")
    assert not problems, "\n".join(problems)


def test_every_value_name_is_in_capitals_or_a_choice() -> None:
    from pcagent.cli.help_conventions import conform

    root = typer.main.get_command(app)
    pending = [(root, "pcagent")]
    lower = []
    while pending:
        command, name = pending.pop()
        conform(command, typer.Context(command))
        for parameter in command.params:
            shown = parameter.metavar or ""
            if shown != shown.upper() and not shown.startswith("["):
                lower.append(f"{name} {parameter.name}: {shown}")
        pending.extend(
            (sub, f"{name} {key}") for key, sub in getattr(command, "commands", {}).items()
        )
    assert lower == []


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        (("run",), ["--mode [auto|passive|proactive]", "--ablation ABLATION", "INSTRUCTION"]),
        (("runs", "rewind"), ["--step INTEGER", "RUN_ID"]),
        (("runs", "replay"), ["--step INTEGER"]),
        (("runs", "restore-unsaved"), ["--step INTEGER", "--out -o PATH"]),
        (("bench", "run"), ["--agent [pcagent|reference|reference-api|noop]", "--tasks -t TEXT"]),
    ],
)
def test_values_are_named_and_choices_listed(path: tuple[str, ...], shown: list[str]) -> None:
    text = re.sub(r"[│ ]+", " ", help_of(path))
    for part in shown:
        assert part in text


def test_commands_continuing_a_run_mention_no_display_option() -> None:
    for path in (("runs", "resume"), ("runs", "rewind")):
        assert "--display" not in help_of(path)


def test_a_group_lists_each_command_s_summary_unbroken() -> None:
    """The summaries in a group's list were docstrings' first paragraphs with their line
    breaks, cut in mid-sentence; each is one line now, however wide the terminal."""
    for path in command_paths():
        command = typer.main.get_command(app)
        for name in path:
            command = command.commands[name]  # type: ignore[attr-defined]
        if not getattr(command, "commands", None):
            continue
        text = help_of(path)
        listed = text.split("Commands")[1]
        for name, sub in command.commands.items():  # type: ignore[attr-defined]
            summary = sub.short_help or " ".join((sub.help or "").split("\n\n")[0].split())
            row = next(
                line for line in listed.splitlines() if line.lstrip("│ ").startswith(f"{name} ")
            )
            if len(summary) <= 140:  # a 200-column terminal holds it on one row
                assert summary in row, (path, name, row)
