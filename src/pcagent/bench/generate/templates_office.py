"""Templates for the office applications: a new document, formatting a document, a new workbook."""

from __future__ import annotations

from random import Random
from typing import ClassVar, Literal, NamedTuple, get_args

from pydantic import JsonValue

from pcagent.agents.program import ProgramStep
from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import template_parts as parts
from pcagent.bench.generate.programs import FragmentProgram, given
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.vocabulary import (
    ARTICLES,
    DOCUMENT_STEMS,
    NUMBERS,
    SHEET_LABELS,
    WORKBOOK_STEMS,
)
from pcagent.bench.generate.wording import refer_to
from pcagent.bench.tasks import DocumentSpec, FileFixture, ReferenceStep
from pcagent.env.office_writer_actions import next_size


class _OfficeFile(TemplateAttributes):
    """Attributes of a sub-task on one office file in Documents, named by its stem."""

    stem: str
    suffix: ClassVar[str] = ".docx"

    @property
    def path(self) -> str:
        return f"Documents/{self.stem}{self.suffix}"


# --- writer: a new document holding a value ------------------------------------------------------


class NewDocument(_OfficeFile):
    text: str
    value_text: str


class WriterNewDocument(SubtaskTemplate[NewDocument], spec="writer_new_document"):
    """Write a value into a new word-processor document and save it as .docx under a name."""

    def draw(self, source: Draw) -> NewDocument:
        stem = source.names.pick(DOCUMENT_STEMS, "document name")
        line = parts.line_to_write(source.rng, source.given, self.consumes, " this week: ")
        return NewDocument(
            stem=stem,
            text=line.text,
            value_text=line.value_text,
            reference_to_previous=line.reference_to_previous,
        )

    def build(self, attributes: NewDocument, slot: Slot) -> Fragment:
        a = attributes
        what = a.reference_to_previous or f'the sentence "{a.text}"'
        saved = parts.new_writer_document(
            slot, a.stem, a.text, [a.value_text], f"{a.path} holds {a.value_text}"
        )
        return self.fragment(
            a,
            slot,
            f"Write {a.value_text} into {a.path}",
            words={"what": what, "stem": a.stem},
            nodes=saved.nodes,
            reference=saved.reference,
            reference_api=saved.reference_api,
            program=parts.writing_call("write_document", a.path, a.text, a.reference_to_previous),
            output=parts.file_output(a.path),
        )


# --- writer: format paragraphs of an existing document ----------------------------------------

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
_FORMAT_WORDS: dict[str, tuple[str, str]] = {
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


class _FormatParts(NamedTuple):
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


def _format_parts(formatting: Formatting, path: str, last_paragraph: str) -> _FormatParts:
    declared = _FORMATS[formatting]
    # The application action finds the last paragraph by its text, the title by its number.
    target: dict[str, JsonValue] = (
        {"matching": last_paragraph[:40]}
        if declared.paragraphs == ("last",)
        else {"paragraphs": [0 if p == "title" else p for p in declared.paragraphs]}
    )
    return _FormatParts(
        declared.checker,
        {"path": path, **declared.check},
        [*_keys(*declared.keys), *(_spacing_menu() if declared.menu else [])],
        gui.act("writer_format", **target, **declared.change),
        declared.paragraphs,
        declared.change,
    )


def _format_calls(path: JsonValue, parts_: list[_FormatParts]) -> tuple[ProgramStep, ...]:
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


def _draw_formattings(rng: Random) -> list[Formatting]:
    """One or two formattings, never two that set the same thing on the same paragraph."""
    while True:
        drawn = rng.sample(FORMATTINGS, rng.choice((1, 2)))
        if frozenset(drawn) not in _CLASHING:
            return drawn


class DocumentFormatting(_OfficeFile):
    title: str
    paragraphs: list[str]
    #: One or two formattings, in the order the instruction names them.
    formattings: list[Formatting]
    #: Whether the sub-task before wrote and opened the document (no file of this one's own).
    given_document: bool = False


class WriterFormatDocument(SubtaskTemplate[DocumentFormatting], spec="writer_format_document"):
    """Open a document in the word processor, format one or two of its paragraphs, and save it."""

    def draw(self, source: Draw) -> DocumentFormatting:
        given = source.given_as("document")
        if given is not None:
            stem = given.file_name.removesuffix(".docx")
        else:
            stem = source.names.pick(tuple(a.file_stem for a in ARTICLES), "article")
        article = next(a for a in ARTICLES if a.file_stem == stem)
        return DocumentFormatting(
            stem=stem,
            title=article.title,
            paragraphs=list(article.paragraphs),
            formattings=_draw_formattings(source.rng),
            given_document=given is not None,
        )

    def build(self, attributes: DocumentFormatting, slot: Slot) -> Fragment:
        a = attributes
        name = f"{a.stem}.docx"
        opened = slot.node_id("opened")
        formats = [_format_parts(f, a.path, a.paragraphs[-1]) for f in a.formattings]
        words = " and ".join(_FORMAT_WORDS[f][0] for f in a.formattings)
        result = " and ".join(_FORMAT_WORDS[f][1] for f in a.formattings)
        calls = _format_calls(given() if a.given_document else a.path, formats)
        return self.fragment(
            a,
            slot,
            f"Open {a.path}, {words}, save",
            words={"name": name, "change": words, "result": result},
            nodes=[
                parts.opened_node(slot, a.stem, f"{name} is open"),
                *(
                    parts.node(
                        slot,
                        "formatted" if number == 0 else f"formatted_{number + 1}",
                        part.checker,
                        part.params,
                        after=[opened],
                        description=_FORMAT_WORDS[formatting][0],
                    )
                    for number, (formatting, part) in enumerate(
                        zip(a.formattings, formats, strict=True)
                    )
                ),
            ],
            reference=[
                *gui.writer_open_file(a.path),
                *(step for part in formats for step in part.steps),
                gui.act("hotkey", keys=["ctrl", "s"]),
                gui.act("wait", seconds=2),
            ],
            reference_api=[
                gui.act("writer_open", path=a.path),
                *(part.api for part in formats),
                gui.act("writer_save"),
            ],
            program=FragmentProgram(calls, output=programs.reference(calls[-1].id)),
            files=[]
            if a.given_document
            else [
                FileFixture(path=a.path, docx=DocumentSpec(title=a.title, paragraphs=a.paragraphs))
            ],
            output=parts.file_output(a.path),
        )


class WriterFormatOpened(WriterFormatDocument, spec="writer_format_opened"):
    """Format the document the file manager opened in the sub-task before (its own phrasings
    speak of "it"), and save it."""


# --- spreadsheet: values into cells ----------------------------------------------------------


class SheetFilling(_OfficeFile):
    suffix: ClassVar[str] = ".xlsx"
    rows: list[tuple[str, int]]


class SpreadsheetFillCells(SubtaskTemplate[SheetFilling], spec="spreadsheet_fill_cells"):
    """Put labels and numbers into a new spreadsheet and save it as .xlsx under a name."""

    def draw(self, source: Draw) -> SheetFilling:
        stem = source.names.pick(WORKBOOK_STEMS, "workbook name")
        labels = source.rng.sample(SHEET_LABELS, 2)
        if (given := source.given_as("number")) is not None:
            return SheetFilling(
                stem=stem,
                rows=[(labels[0], int(given.text))],
                reference_to_previous=refer_to(given),
            )
        return SheetFilling(
            stem=stem, rows=[(label, source.rng.choice(NUMBERS)) for label in labels]
        )

    def build(self, attributes: SheetFilling, slot: Slot) -> Fragment:
        a = attributes
        # A carried value is the only row's, named the way the sub-task before gave it.
        cells = " and ".join(
            f'"{label}" in cell A{row} and {a.reference_to_previous or value} in cell B{row}'
            for row, (label, value) in enumerate(a.rows, start=1)
        )
        typed = "".join(f"{label}\t{value}\n" for label, value in a.rows)
        shown = ", ".join(f"{label} {value}" for label, value in a.rows)
        return self.fragment(
            a,
            slot,
            f"Write {shown} into {a.path}",
            words={"cells": cells, "stem": a.stem},
            nodes=[
                parts.node(
                    slot,
                    "sheet",
                    "xlsx_rows",
                    {"path": a.path, "rows": [[label, str(value)] for label, value in a.rows]},
                    description=f"{a.path} has the rows {shown}",
                ),
            ],
            reference=parts.new_document(
                "spreadsheet",
                typed,
                gui.office_save_new_document(f"Documents/{a.stem}", f"{a.stem}.xlsx"),
            ),
            reference_api=[
                gui.act("open_app", app="spreadsheet"),
                gui.act("sheet_set", cell="A1", values=[[label, value] for label, value in a.rows]),
                gui.act("sheet_save", path=a.path),
            ],
            program=parts.one_call("fill_cells", rows=self._rows(a), save_as=a.path),
            output=parts.file_output(a.path),
        )

    @staticmethod
    def _rows(a: SheetFilling) -> list[JsonValue]:
        """The rows for ``fill_cells``: a carried value is the only row's number."""
        if a.reference_to_previous:
            return [[label, given()] for label, _ in a.rows]
        return [[label, value] for label, value in a.rows]
