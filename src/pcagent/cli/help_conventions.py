"""Help text in the conventions of click: ``Usage: pcagent run [OPTIONS] INSTRUCTION``, option
values named in capitals (``--max-steps INTEGER``, ``--mode [auto|passive|proactive]``), flags
with no value shown.

Why here: the typer release in use labels values by their Python type (``<str>``,
``<list[Path]>``, ``{instruction}``), which a reader of a terminal help page has to translate.
Every command group of pcagent is a :class:`ConventionalGroup`; as it hands out a command it
names that command's parameters the click way, unless a parameter names its value itself
(``metavar=``), which always wins.
"""

from __future__ import annotations

import datetime
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

import typer
from typer.core import TyperArgument, TyperGroup

#: The value names click gives Python types.
_TYPE_NAMES: dict[Any, str] = {
    str: "TEXT",
    int: "INTEGER",
    float: "FLOAT",
    bool: "BOOLEAN",
    Path: "PATH",
    datetime.datetime: "DATETIME",
}


class ConventionalArgument(TyperArgument):
    """A positional argument shown as click shows one: its name in capitals, in brackets when it
    may be left out, with no type label beside it."""

    def display_type_rich(self, ctx: typer.Context) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        if self.nargs != 1:
            name += "..."
        return name if self.required else f"[{name}]"


def _choice_text(choice: object) -> str:
    return str(choice.value) if isinstance(choice, Enum) else str(choice)


def option_metavar(option: Any) -> str:
    """The value's name: nothing for a flag, the choices in brackets for a choice, else the
    type's name in capitals as click writes it (TEXT, INTEGER, FLOAT, PATH); a repeatable
    option names one value."""
    if getattr(option, "is_flag", False) or getattr(option, "count", False):
        return ""
    described = option.type_descriptor
    if described.choices is not None:
        return "[" + "|".join(_choice_text(choice) for choice in described.choices) + "]"
    annotation = described.annotation
    if get_origin(annotation) in (list, tuple):
        parts = [part for part in get_args(annotation) if part is not Ellipsis]
        return " ".join(_TYPE_NAMES.get(part, "VALUE") for part in parts[:1] or [str])
    return _TYPE_NAMES.get(annotation, "VALUE")


def one_line_summary(help_text: str) -> str:
    """A command's help's first paragraph on one line. Why: the group's list of commands showed
    a docstring's line breaks as they were written, a summary broken in mid-sentence ("...,
    how each task ended and why it failed," then "and write the HTML report.")."""
    return " ".join(help_text.split("\n\n", 1)[0].split())


def conform(command: Any, ctx: typer.Context) -> None:
    """Name ``command``'s parameters (its help option included) the click way, and give it a
    one-line summary for its group's list. Idempotent."""
    if command.short_help is None and command.help:
        command.short_help = one_line_summary(command.help)
    help_option = command.get_help_option(ctx)
    for parameter in [*command.params, *([help_option] if help_option else [])]:
        if isinstance(parameter, TyperArgument) and not isinstance(parameter, ConventionalArgument):
            # typer builds its argument objects itself and takes no class for them; the
            # subclass adds no state, only how the argument is shown.
            parameter.__class__ = ConventionalArgument
            if parameter.metavar is None and parameter.name:
                parameter.metavar = parameter.name.upper()
        elif parameter.param_type_name == "option" and parameter.metavar is None:
            parameter.metavar = option_metavar(parameter)


class ConventionalGroup(TyperGroup):
    """A typer command group whose commands (and itself) show click-style help."""

    def get_command(self, ctx: typer.Context, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            conform(command, ctx)
        return command

    def get_params(self, ctx: typer.Context) -> list[Any]:
        conform(self, ctx)
        return super().get_params(ctx)
