"""The formats the word processor's formatting template asks for: how an instruction words
each, the sub-goal that checks it, the GUI's and the application actions' solutions, and the
``format_paragraphs`` calls of its gold program."""

from __future__ import annotations

from random import Random
from typing import Literal, NamedTuple, get_args

from pydantic import JsonValue

from pcagent.agents.program import ProgramStep
from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.tasks import ReferenceStep
from pcagent.env.office_writer_actions import next_size

Formatting = Literal[
    "bold_title",
    "center_title",
    "underline_last",
    "double_spacing_second",
    "double_spacing_first_two",
    "bigger_first",
    "smaller_title",
    "right_last",
]
FORMATTINGS: tuple[Formatting, ...] = get_args(Formatting)
#: Formattings that set the same thing on a paragraph both name: never drawn together.
_CLASHING: frozenset[frozenset[Formatting]] = frozenset(
    {frozenset({"double_spacing_second", "double_spacing_first_two"})}
)

#: How an instruction asks for each formatting: as something to do, and as the result wanted.
FORMAT_WORDS: dict[str, tuple[str, str]] = {
    "bold_title": ("make the title bold", "the title in bold"),
    "center_title": ("center the title", "the title centered"),
    "underline_last": ("underline the last paragraph", "the last paragraph underlined"),
    # Paragraphs named by where they stand after the title: programs that number them from 1,
    # and format paragraphs of different formats in calls of their own.
    "double_spacing_second": (
        "give the paragraph after the title double line spacing",
        "double line spacing in the paragraph after the title",
    ),
    "double_spacing_first_two": (
        "set double line spacing on the first two paragraphs",
        "the first two paragraphs double-spaced",
    ),
    "bigger_first": (
        "make the first paragraph's font one size step larger",
        "the first paragraph's font one size step larger",
    ),
    "smaller_title": (
        "make the title's font one size step smaller",
        "the title's font one size step smaller",
    ),
    "right_last": ("align the last paragraph to the right", "the last paragraph right-aligned"),
}

#: The font sizes of a generated document (python-docx's Title style and its body text), in pt.
_TITLE_PT, _BODY_PT = 26.0, 11.0


class FormatParts(NamedTuple):
    """One formatting's parts: its checker and parameters, the GUI's steps, the application
    action, the paragraphs it formats (as a program names them) and the format
    (``format_paragraphs``' arguments)."""

    checker: str
    params: dict[str, JsonValue]
    steps: list[ReferenceStep]
    api: ReferenceStep
    paragraphs: tuple[int | str, ...]
    change: dict[str, JsonValue]


def _keys(*keys: list[str]) -> list[ReferenceStep]:
    return [gui.act("hotkey", keys=one) for one in keys]


def _spacing_menu() -> list[ReferenceStep]:
    # No key sets a line spacing of 2 (Ctrl+2 is the style Heading 2): the menu does.
    return [
        gui.click("Format", "menu"),
        gui.click("Spacing", "menu"),
        gui.click("Line Spacing: 2", "check menu item"),
    ]


class _Format(NamedTuple):
    """A formatting as declared: its checker and the checker's parameters besides the path,
    the keys the GUI's solution presses (then the spacing menu where ``menu``), the paragraphs
    as a program names them, and the format (``format_paragraphs``' and ``writer_format``'s
    arguments alike)."""

    checker: str
    check: dict[str, JsonValue]
    keys: tuple[list[str], ...]
    paragraphs: tuple[int | str, ...]
    change: dict[str, JsonValue]
    menu: bool = False


_HOME, _DOWN, _DOWN_SELECT = ["ctrl", "home"], ["ctrl", "down"], ["ctrl", "shift", "down"]
_TITLE_SELECTED = (_HOME, ["shift", "end"])
_LAST_SELECTED = (["ctrl", "end"], ["ctrl", "shift", "up"])
_FORMATS: dict[Formatting, _Format] = {
    "bold_title": _Format(
        "docx_bold", {"paragraph": 0, "only": True}, (*_TITLE_SELECTED, ["ctrl", "b"]),
        ("title",), {"bold": True},
    ),
    "center_title": _Format(
        "docx_alignment", {"paragraph": 0, "alignment": "center"}, (_HOME, ["ctrl", "e"]),
        ("title",), {"alignment": "center"},
    ),
    "smaller_title": _Format(
        "docx_font_size", {"paragraph": 0, "points": next_size(_TITLE_PT, "smaller")},
        (*_TITLE_SELECTED, ["ctrl", "bracketleft"]), ("title",), {"size_step": "smaller"},
    ),
    "double_spacing_second": _Format(
        "docx_line_spacing", {"paragraphs": [1], "spacing": 2.0}, (_HOME, _DOWN), (1,),
        {"line_spacing": 2.0}, menu=True,
    ),
    "double_spacing_first_two": _Format(
        "docx_line_spacing", {"paragraphs": [1, 2], "spacing": 2.0},
        (_HOME, _DOWN, _DOWN_SELECT, _DOWN_SELECT), (1, 2), {"line_spacing": 2.0}, menu=True,
    ),
    "bigger_first": _Format(
        "docx_font_size", {"paragraph": 1, "points": next_size(_BODY_PT, "larger")},
        (_HOME, _DOWN, _DOWN_SELECT, ["ctrl", "bracketright"]), (1,), {"size_step": "larger"},
    ),
    "right_last": _Format(
        "docx_alignment", {"paragraph": -1, "alignment": "right"}, (["ctrl", "end"], ["ctrl", "r"]),
        ("last",), {"alignment": "right"},
    ),
    "underline_last": _Format(
        "docx_underline", {"paragraph": -1, "only": True}, (*_LAST_SELECTED, ["ctrl", "u"]),
        ("last",), {"underline": True},
    ),
}  # fmt: skip


def format_parts(formatting: Formatting, path: str, last_paragraph: str) -> FormatParts:
    declared = _FORMATS[formatting]
    # The application action finds the last paragraph by its text, the title by its number.
    target: dict[str, JsonValue] = (
        {"matching": last_paragraph[:40]}
        if declared.paragraphs == ("last",)
        else {"paragraphs": [0 if p == "title" else p for p in declared.paragraphs]}
    )
    return FormatParts(
        declared.checker,
        {"path": path, **declared.check},
        [*_keys(*declared.keys), *(_spacing_menu() if declared.menu else [])],
        gui.act("writer_format", **target, **declared.change),
        declared.paragraphs,
        declared.change,
    )


def format_calls(path: JsonValue, parts_: list[FormatParts]) -> tuple[ProgramStep, ...]:
    """``format_paragraphs`` calls, one per set of paragraphs (the formats of the same
    paragraphs in one call, as the skill asks), in the order the instruction names them."""
    by_paragraphs: dict[tuple[int | str, ...], dict[str, JsonValue]] = {}
    for part in parts_:
        by_paragraphs.setdefault(part.paragraphs, {}).update(part.change)
    return tuple(
        programs.call(
            f"s{number}",
            "format_paragraphs",
            path=path,
            paragraphs=list(paragraphs),
            **change,
            save=True,
        )
        for number, (paragraphs, change) in enumerate(by_paragraphs.items(), start=1)
    )


def draw_formattings(rng: Random) -> list[Formatting]:
    """One or two formattings, never two that set the same thing on the same paragraph."""
    while True:
        drawn = rng.sample(FORMATTINGS, rng.choice((1, 2)))
        if frozenset(drawn) not in _CLASHING:
            return drawn
