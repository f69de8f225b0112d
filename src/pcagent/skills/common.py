"""Helpers the application skills share: acting in sequence, reading files in HOME, the suffixes
of the documents each kind of application takes. Not an application: each application's skills
are in the module named after it."""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Annotated

from pydantic import AfterValidator

from pcagent.actions import Action, OpenApp
from pcagent.app_actions import SheetOpen, WriterOpen
from pcagent.skills.base import ActionOutcome, SkillContext, SkillResult, StepFailed


def do(context: SkillContext, *actions: Action) -> ActionOutcome:
    """Carry out ``actions`` in order; the last one's outcome. Raises :class:`StepFailed` at
    the first that fails."""
    outcome = ActionOutcome(ok=True)
    for action in actions:
        outcome = context.act(action)
        if not outcome.ok:
            raise StepFailed(outcome, action.kind)
    return outcome


def opened_and_read(
    context: SkillContext, opening: WriterOpen | SheetOpen, reading: Action
) -> SkillResult:
    """Open a document, read it back; the text read, or the failure of either step."""
    read = do(context, opening, reading)
    return SkillResult(True, read.output or "", evidence=f"{opening.path} read")


def front(context: SkillContext, app: str) -> None:
    """Bring ``app`` to the front (opening it when it is not running)."""
    do(context, OpenApp(app=app))


def home_file(context: SkillContext, path: str) -> Path | None:
    """``path`` (relative to HOME, or ``~/...``) on disk; None where HOME is not readable."""
    home = context.home()
    if home is None:
        return None
    relative = path.removeprefix("~/").lstrip("/") if not path.startswith(str(home)) else path
    return home / relative if not Path(relative).is_absolute() else Path(relative)


def file_text(context: SkillContext, path: str) -> str | None:
    """The text of a plain-text file in HOME; None when it cannot be read here."""
    file = home_file(context, path)
    if file is None or not file.is_file():
        return None
    return file.read_text(encoding="utf-8", errors="replace")


def document_text(context: SkillContext, path: str) -> str | None:
    """The text of a word-processor document (.docx, .odt) or a plain file in HOME."""
    file = home_file(context, path)
    if file is None or not file.is_file():
        return None
    suffix = file.suffix.lower()
    if suffix == ".docx":
        import docx

        return "\n".join(p.text for p in docx.Document(str(file)).paragraphs)
    if suffix == ".odt":
        from odf import teletype
        from odf.opendocument import load
        from odf.text import P

        return "\n".join(teletype.extractText(p) for p in load(str(file)).getElementsByType(P))
    return file.read_text(encoding="utf-8", errors="replace")


#: Suffixes of files the plain-text editor reads and writes as they are.
TEXT_SUFFIXES = frozenset({"", ".txt", ".md", ".csv", ".log", ".py", ".json", ".ini", ".conf"})
#: Suffixes of word-processor documents.
DOCUMENT_SUFFIXES = frozenset({".docx", ".odt", ".doc", ".rtf"})
#: Suffixes of workbooks.
SHEET_SUFFIXES = frozenset({".xlsx", ".ods", ".xls", ".csv"})


def _suffix_in(allowed: frozenset[str], kind: str, other: str, usual: str) -> AfterValidator:
    """Refuses a path of another kind of file, saying what a path of the right kind looks like
    (the planner most often adds ".txt" to a name the user gave without one)."""

    def check(path: str) -> str:
        file = PurePosixPath(path)
        if file.suffix.lower() not in allowed:
            endings = ", ".join(sorted(s for s in allowed if s))
            raise ValueError(
                f"{path} is not {kind} (ending in {endings}; a new one would be "
                f"{file.with_suffix(usual)}); {other}"
            )
        return path

    return AfterValidator(check)


TextFilePath = Annotated[
    str,
    _suffix_in(
        TEXT_SUFFIXES,
        "a plain-text file",
        "documents are read_document/format_paragraphs/write_document, workbooks read_sheet",
        ".txt",
    ),
]
DocumentPath = Annotated[
    str,
    _suffix_in(
        DOCUMENT_SUFFIXES, "a word-processor document", "text files are read_text_file", ".docx"
    ),
]
SheetPath = Annotated[
    str, _suffix_in(SHEET_SUFFIXES, "a workbook", "documents are read_document", ".xlsx")
]
#: A workbook to save to: empty (in place) or without a suffix (the default format) too.
SheetTarget = Annotated[
    str,
    _suffix_in(SHEET_SUFFIXES | {""}, "a workbook", "documents are write_document", ".xlsx"),
]
