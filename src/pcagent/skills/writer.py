"""Skills in the word processor: documents written, read and formatted; each save is checked on
disk (and the text in the document)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, ValidationError, model_validator

from pcagent import actions as act
from pcagent.app_actions import (
    WriterFormat,
    WriterInsert,
    WriterOpen,
    WriterRead,
    WriterSave,
)
from pcagent.env.app_interfaces.writer import LISTING_CUT
from pcagent.skills.base import SkillContext, SkillParameters, SkillResult, skill
from pcagent.skills.common import (
    DocumentPath,
    GivenText,
    do,
    document_text,
    opened_and_read,
)
from pcagent.text import contains

#: Paragraphs named by where they stand, so a model need not turn "the title" into a number.
Place = Literal["title", "last"]
_PLACES: dict[str, int] = {"title": 0, "last": -1}

_PATH = 'In HOME, e.g. "Documents/report.docx"; the suffix picks the format.'
_Document = Annotated[DocumentPath, Field(min_length=1, max_length=400, description=_PATH)]


class WriteDocument(SkillParameters):
    path: _Document
    text: GivenText = Field(
        min_length=1, max_length=10_000, description="The text; \\n: new paragraph."
    )
    append: bool = Field(
        False,
        description="true: add the text below what the document at path holds (created when "
        "missing); false: a new document.",
    )


@skill(
    "Write a word-processor document with the text and save it under path: a new one, or the "
    "text added at the end of the one there (append).",
    apps=("writer",),
    returns="the saved path",
    writes=("path",),
    texts=("text",),
)
def write_document(context: SkillContext, parameters: WriteDocument) -> SkillResult:
    before = document_text(context, parameters.path) if parameters.append else None
    if before is not None:
        do(context, WriterOpen(path=parameters.path))
        do(context, WriterInsert(text=parameters.text))  # at the end
        saved = do(context, WriterSave())
    else:
        do(context, act.OpenApp(app="writer"))
        do(context, WriterInsert(text=parameters.text))
        saved = do(context, WriterSave(path=parameters.path))
    path = (saved.output or parameters.path).removeprefix("~/")
    text = document_text(context, path)
    first = parameters.text.strip().splitlines()[0]
    if text is not None and not contains(text, first):
        return SkillResult.failed(f"{path} was saved without the text", text[:300])
    kept = (before or "").strip().splitlines()[:1]
    if text is not None and kept and not contains(text, kept[0]):
        return SkillResult.failed(f"{path} lost the text it held before", text[:300])
    return SkillResult(True, path, evidence=f"{path} saved with the text")


class ReadDocument(SkillParameters):
    path: _Document


@skill(
    "Open a word-processor document and read its text: a paragraph a line, the title first.",
    apps=("writer",),
    returns="the text",
    reads=("path",),
    only_reads=True,
)
def read_document(context: SkillContext, parameters: ReadDocument) -> SkillResult:
    read = opened_and_read(context, WriterOpen(path=parameters.path), WriterRead())
    # The value is the text as saved, without the application's paragraph numbers ("0: "),
    # which a translation or a copy of it would carry into what it writes; the numbered
    # listing is what a desktop whose HOME is out of reach gives.
    text = document_text(context, parameters.path)
    if text is None:
        return read
    lines = [line for line in text.splitlines() if line.strip()]  # empty paragraphs left out
    return SkillResult(True, "\n".join(lines), evidence=read.evidence)


class FormatParagraphs(SkillParameters):
    path: _Document
    paragraphs: list[int | Place] = Field(
        default_factory=list,
        max_length=200,
        description='"title", "last", or numbers: the title is 0, the first paragraph after it '
        "1, the second 2; -1 is the last.",
        json_schema_extra={"numbers": "paragraphs"},
    )
    matching: str = Field("", max_length=200, description="Or: paragraphs containing this text.")
    # ``formats``: how a question names the formatting, "{}" its value (format_targets).
    bold: bool | None = Field(None, json_schema_extra={"formats": "bold"})
    italic: bool | None = Field(None, json_schema_extra={"formats": "italic"})
    underline: bool | None = Field(None, json_schema_extra={"formats": "underlined"})
    alignment: Literal["left", "center", "right", "justify"] | None = Field(
        None, json_schema_extra={"formats": "{}-aligned"}
    )
    line_spacing: float | None = Field(
        None,
        ge=0.5,
        le=4,
        json_schema_extra={"formats": "given a line spacing of {}", "numbers": "multiple"},
    )
    font_size: float | None = Field(
        None, ge=1, le=400, json_schema_extra={"given": "number", "formats": "set in {} pt"}
    )
    size_step: Literal["larger", "smaller"] | None = Field(
        None,
        description="The font one step larger or smaller in the size list (no font_size).",
        json_schema_extra={"formats": "given a font one size step {}"},
    )
    save: bool = Field(True, description="true: save the document afterwards.")

    @model_validator(mode="after")
    def _something(self) -> FormatParagraphs:
        if not self.paragraphs and not self.matching:
            raise ValueError("name the paragraphs (numbers) or a text they contain (matching)")
        return self


@skill(
    "Format paragraphs of a document (bold, italic, underline, alignment, line spacing, font "
    'size or a size step) and save it; paragraphs: "title", "last" or numbers (the first '
    "after the title is 1). One call per set of paragraphs with the same format.",
    apps=("writer",),
    writes=("path",),
    reads=("path",),
)
def format_paragraphs(context: SkillContext, parameters: FormatParagraphs) -> SkillResult:
    opened = do(context, WriterOpen(path=parameters.path))
    listing = opened.output or ""
    count = listing.count("\n") + 1 if listing else 0
    # A long document's listing is cut short: its count is no upper bound then.
    whole = bool(listing) and not listing.endswith(LISTING_CUT)
    given = (_PLACES[p] if isinstance(p, str) else p for p in parameters.paragraphs)
    numbers = tuple(sorted({n if n >= 0 else count + n for n in given}))
    if any(n < 0 or (whole and n >= count) for n in numbers):
        return SkillResult.failed(
            f"the document has {count} paragraphs (0, the title, to {count - 1}, the last)"
        )
    change = parameters.model_dump(
        include={
            "bold",
            "italic",
            "underline",
            "alignment",
            "line_spacing",
            "font_size",
            "size_step",
        },
        exclude_none=True,
    )
    try:
        action = WriterFormat(paragraphs=numbers, matching=parameters.matching, **change)
    except ValidationError as error:
        return SkillResult.failed(f"format_paragraphs: {error.errors()[0]['msg']}")
    formatted = do(context, action)
    if parameters.save:
        do(context, WriterSave())
    if not formatted.verified:
        return SkillResult.failed("the format could not be read back from the document")
    return SkillResult(True, parameters.path, evidence=formatted.message)
