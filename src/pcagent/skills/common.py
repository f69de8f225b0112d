"""Helpers the application skills share: acting in sequence, reading files in HOME, the suffixes
of the documents each kind of application takes. Not an application: each application's skills
are in the module named after it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field

from pcagent.actions import Action, OpenApp
from pcagent.app_actions import SheetOpen, WriterOpen
from pcagent.env.app_interfaces.paths import in_home
from pcagent.errors import InvalidActionError
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
    """``path`` on disk, exactly as written and resolved as the application actions resolve
    it (a check of an effect looks where the effect should be, not for a file of that name
    elsewhere); None where HOME is not readable here or the path leads out of it."""
    home = context.home()
    if home is None:
        return None
    try:
        return in_home(home, path)
    except InvalidActionError:
        return None


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


@dataclass(frozen=True)
class _FileKind:
    name: str
    suffixes: frozenset[str]
    usual: str
    skills: str
    #: The skills that read a whole file of this kind, and write one from a text ("": none).
    reader: str = ""
    writer: str = ""


_TEXT = _FileKind(
    "a plain-text file",
    TEXT_SUFFIXES,
    ".txt",
    "read_text_file, write_text_file",
    reader="read_text_file",
    writer="write_text_file",
)
_DOCUMENT = _FileKind(
    "a word-processor document",
    DOCUMENT_SUFFIXES,
    ".docx",
    "read_document, write_document, format_paragraphs",
    reader="read_document",
    writer="write_document",
)
_SHEET = _FileKind(
    "a workbook", SHEET_SUFFIXES, ".xlsx", "read_sheet, fill_cells, sort_sheet", reader="read_sheet"
)
_KINDS = (_TEXT, _DOCUMENT, _SHEET)


def kind_twin(skill: str, path: str) -> str:
    """The skill that does for the kind of file ``path`` is what ``skill`` does for its own
    kind (reading a whole file, or writing one from a text); "" when ``path`` is of
    ``skill``'s own kind or no such skill exists. A planner that writes the document's
    name right often picks the text file's reader or writer for it: which one reads a
    ``.docx`` follows from the typed path, not from any words."""
    own = next((k for k in _KINDS if skill and skill in (k.reader, k.writer)), None)
    suffix = PurePosixPath(path.strip()).suffix.lower()
    if own is None or suffix in own.suffixes or not suffix:
        # A name without an ending is of no other kind: "Documents/TechCompanies" given to
        # write_document had become a plain-text file where a Writer document was asked.
        return ""
    other = next((k for k in _KINDS if suffix in k.suffixes), None)
    if other is None:
        return ""
    return other.reader if skill == own.reader else other.writer


def with_usual_ending(skill: str, path: str) -> str:
    """``path`` with the usual ending of the kind ``skill`` writes, where the name has none and
    that kind takes no bare name ("Documents/TechCompanies" for write_document:
    "Documents/TechCompanies.docx"); "" otherwise. The instruction gave the name bare and the
    skill the model chose says the kind; the prompt asks for the kind's ending and the 1.5B
    model often leaves it off."""
    own = next((k for k in _KINDS if skill and skill == k.writer), None)
    bare = PurePosixPath(path.strip())
    if own is None or "" in own.suffixes or bare.suffix or not bare.name:
        return ""
    return f"{path.strip()}{own.usual}"


def skills_for_file(path: str) -> tuple[str, tuple[str, ...]]:
    """What kind of file ``path`` is and the skills that take it (``("a workbook",
    ("read_sheet", "fill_cells", "sort_sheet"))``); ``("", ())`` for a name of no known kind."""
    suffix = PurePosixPath(path.strip()).suffix.lower()
    kind = next((k for k in _KINDS if suffix and suffix in k.suffixes), None)
    return (kind.name, tuple(kind.skills.split(", "))) if kind else ("", ())


def _suffix_of(kind: _FileKind, *, bare: bool = False) -> AfterValidator:
    """Refuses a path of another kind of file, naming both ways out: the skills of the kind the
    path is, and the path of the kind wanted. The planner errs both ways: it adds ".txt" to a
    name the user gave bare, and gives a ".docx" to the text-file skill; told only one way out,
    it took it even where the other was right. ``bare``: empty and suffix-less paths pass too
    (saving in place, or in the default format)."""
    allowed = kind.suffixes | {""} if bare else kind.suffixes

    def check(path: str) -> str:
        file = PurePosixPath(path)
        if path.strip().endswith("/"):
            # A folder's name, never a file's: the 1.5B planner wrote "Documents/" for
            # the file to write, and each write failed in the run (a rewording of pc18,
            # 2026-12-06); refused here, the program is asked again before anything runs.
            raise ValueError(
                f"{path} names a folder, not a file: give the file's name in it "
                f"({path.strip().rstrip('/')}/name{kind.usual})"
            )
        suffix = file.suffix.lower()
        if suffix in allowed:
            return path
        endings = ", ".join(sorted(s for s in kind.suffixes if s))
        wanted = f"{kind.name}'s name ends in {endings} ({file.with_suffix(kind.usual)})"
        other = next((k for k in _KINDS if suffix in k.suffixes), None)
        if other is None:
            raise ValueError(f"{path} is not {kind.name}: {wanted}")
        raise ValueError(f"{path} is {other.name}, which {other.skills} take; {wanted}")

    return AfterValidator(check)


def given(holds: str, description: str, *, max_length: int = 400) -> Any:
    """A text parameter whose literal must come from what the planner was given, holding
    ``holds`` ("address", "folder", "search", ...: the kinds
    :func:`pcagent.agents.given_values.given_parameters` names), one to ``max_length``
    characters. Declared once, so every such parameter is bounded and marked alike."""
    return Field(
        min_length=1,
        max_length=max_length,
        description=description,
        json_schema_extra={"given": holds},
    )


#: A file's name must come from the instruction or a value found (see
#: :mod:`pcagent.agents.given_values`): a planner shown other tasks' programs copies their names.
GIVEN_FILE = Field(json_schema_extra={"given": "file"})
#: A form's fields: each value typed must come from the instruction or a value found too.
GIVEN_FORM: dict[str, Any] = {"given": "form"}
TextFilePath = Annotated[str, _suffix_of(_TEXT), GIVEN_FILE]
DocumentPath = Annotated[str, _suffix_of(_DOCUMENT), GIVEN_FILE]
SheetPath = Annotated[str, _suffix_of(_SHEET), GIVEN_FILE]
#: A workbook to save to: empty (in place) or without a suffix (the default format) too.
SheetTarget = Annotated[str, _suffix_of(_SHEET, bare=True), GIVEN_FILE]


def as_lines(value: object) -> object:
    """A list passed whole for a text (an earlier step's rows, ``sort_items``' result) as the
    text a person writes of it: one line an item, a row's cells joined by ", ". Anything else
    is left for the field to judge."""
    if not isinstance(value, list) or not value:
        return value
    return "\n".join(
        ", ".join(str(cell) for cell in item) if isinstance(item, list) else str(item)
        for item in value
    )


#: A text to write must stand in the instruction or a value found, or come from a language
#: step (see :mod:`pcagent.agents.given_values`): one the planner makes up is neither composed
#: nor checked.
GivenText = Annotated[str, BeforeValidator(as_lines), Field(json_schema_extra={"given": "text"})]
