"""Application actions: what takes a person many clicks, done through the application's own
interface (LibreOffice's UNO, GIO, the mail client's command line and mail store, the browser's
DevTools protocol, the calculator's keys as one macro).

They are actions like the GUI ones (:mod:`pcagent.actions` lists them in the same union): one
frozen class each, its docstring the description a model sees, validated the same way and stored
in the same records. Each belongs to one application (``belongs_to``), and only roles whose
domain holds that application are offered it. The environment carries them out
(``runs_on = "application"``), verifies the effect by reading the state back, and returns a result
that says what it saw; when an interface is unavailable the result says so and the agent can
still use the GUI.

Paths are relative to HOME (``Documents/report.docx``) or absolute inside it (``~/...`` too);
the environment refuses anything outside HOME before acting.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from pcagent import applications
from pcagent.action_base import ActionBase, ActionSite, Int

__all__ = [
    "APP_ACTION_CLASSES",
    "AppAction",
    "BrowserClick",
    "BrowserFill",
    "BrowserOpen",
    "BrowserRead",
    "CalculatorEvaluate",
    "ClockAddAlarm",
    "ClockAddWorldClock",
    "EditorOpen",
    "EditorSaveAs",
    "FilesCopy",
    "FilesList",
    "FilesMakeFolder",
    "FilesMove",
    "FilesOpen",
    "FilesRename",
    "MailCompose",
    "MailRead",
    "MailSaveAttachment",
    "MailSend",
    "SheetOpen",
    "SheetRead",
    "SheetSave",
    "SheetSet",
    "SheetSort",
    "WriterFormat",
    "WriterInsert",
    "WriterOpen",
    "WriterRead",
    "WriterSave",
]

_PATH = 'Path in HOME, e.g. "Documents/report.docx".'


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise PydanticCustomError("path_nul", "a path cannot contain a NUL character")
    return value


HomePath = Annotated[str, AfterValidator(_no_nul)]
"""A path as a model writes it; whether it lies in HOME is checked where HOME is known."""


class AppAction(ActionBase):
    """Base of the actions carried out through an application's own interface."""

    runs_on: ClassVar[ActionSite] = "application"
    belongs_to: ClassVar[str | None] = None


# --- word processor ------------------------------------------------------------------------------


class WriterOpen(AppAction):
    """Open a document in the word processor by its path."""

    belongs_to: ClassVar[str | None] = applications.WRITER.name
    kind: Literal["writer_open"] = Field("writer_open", description='Always "writer_open".')
    path: HomePath = Field(min_length=1, description=_PATH)


class WriterRead(AppAction):
    """Read the paragraphs of the document in front, numbered from 0 (the title is usually 0)."""

    belongs_to: ClassVar[str | None] = applications.WRITER.name
    settles: ClassVar[bool] = False
    kind: Literal["writer_read"] = Field("writer_read", description='Always "writer_read".')


class WriterInsert(AppAction):
    """Insert text into the document in front: at the end, before or after a paragraph, or in
    place of a paragraph's text."""

    belongs_to: ClassVar[str | None] = applications.WRITER.name
    kind: Literal["writer_insert"] = Field("writer_insert", description='Always "writer_insert".')
    text: str = Field(min_length=1, max_length=10_000, description="Text; \\n starts a paragraph.")
    where: Literal["end", "after", "before", "replace"] = Field(
        "end", description="Where the text goes, relative to paragraph."
    )
    paragraph: Int | None = Field(
        None, ge=0, description="Paragraph number (from writer_read); not for where=end."
    )

    @model_validator(mode="after")
    def _paragraph_when_needed(self) -> WriterInsert:
        if self.where != "end" and self.paragraph is None:
            raise PydanticCustomError(
                "paragraph_missing", "where={where} needs a paragraph number", {"where": self.where}
            )
        return self


class WriterFormat(AppAction):
    """Format whole paragraphs of the document in front, chosen by number or by the text they
    contain: bold, italic, underline, alignment, line spacing, font size or a size step."""

    belongs_to: ClassVar[str | None] = applications.WRITER.name
    kind: Literal["writer_format"] = Field("writer_format", description='Always "writer_format".')
    paragraphs: tuple[Int, ...] = Field((), description="Paragraph numbers, e.g. [1, 2].")
    matching: str = Field("", description="Or: every paragraph containing this text.")
    bold: bool | None = Field(None, description="true: bold; false: not bold.")
    italic: bool | None = Field(None, description="true: italic; false: not italic.")
    underline: bool | None = Field(None, description="true: underlined; false: not.")
    alignment: Literal["left", "center", "right", "justify"] | None = Field(
        None, description="Paragraph alignment."
    )
    line_spacing: float | None = Field(
        None, ge=0.5, le=4, description="Proportional line spacing, e.g. 1.5."
    )
    font_size: float | None = Field(None, ge=1, le=400, description="Font size in points.")
    size_step: Literal["larger", "smaller"] | None = Field(
        None, description="One step of the font size list up or down."
    )

    @model_validator(mode="after")
    def _target_and_change(self) -> WriterFormat:
        if not self.paragraphs and not self.matching:
            raise PydanticCustomError(
                "no_target", "name the paragraphs (numbers) or text they contain (matching)"
            )
        changes = (self.bold, self.italic, self.underline, self.alignment, self.line_spacing)
        if all(value is None for value in (*changes, self.font_size, self.size_step)):
            raise PydanticCustomError("no_change", "give at least one format to apply")
        if any(number < 0 for number in self.paragraphs):
            raise PydanticCustomError("paragraph_negative", "paragraph numbers start at 0")
        return self


class WriterSave(AppAction):
    """Save the document in front; with path, save a copy under that name (save as). The format
    follows the path's suffix (.docx unless it says otherwise)."""

    belongs_to: ClassVar[str | None] = applications.WRITER.name
    kind: Literal["writer_save"] = Field("writer_save", description='Always "writer_save".')
    path: HomePath = Field("", description="Empty: save where it is. Else the new path in HOME.")


# --- spreadsheet ---------------------------------------------------------------------------------

_CELL = r"^\$?[A-Za-z]{1,3}\$?[1-9][0-9]{0,6}$"
_RANGE = r"^\$?[A-Za-z]{1,3}\$?[1-9][0-9]{0,6}(:\$?[A-Za-z]{1,3}\$?[1-9][0-9]{0,6})?$"


class SheetOpen(AppAction):
    """Open a workbook in the spreadsheet by its path."""

    belongs_to: ClassVar[str | None] = applications.SPREADSHEET.name
    kind: Literal["sheet_open"] = Field("sheet_open", description='Always "sheet_open".')
    path: HomePath = Field(min_length=1, description=_PATH)


class SheetRead(AppAction):
    """Read the cells of the sheet in front: a range such as "A1:C10", or all used cells."""

    belongs_to: ClassVar[str | None] = applications.SPREADSHEET.name
    settles: ClassVar[bool] = False
    kind: Literal["sheet_read"] = Field("sheet_read", description='Always "sheet_read".')
    # One anchored pattern, the whole of it optional: llama.cpp's grammar converter warns about
    # anchors inside a pattern ("...$|^$") on every call.
    range: str = Field(
        "", pattern=f"^({_RANGE[1:-1]})?$", description='e.g. "A1:C10"; empty: all used.'
    )


class SheetSet(AppAction):
    """Write values or formulas (text starting with "=") into the sheet in front, row by row,
    starting at cell."""

    belongs_to: ClassVar[str | None] = applications.SPREADSHEET.name
    kind: Literal["sheet_set"] = Field("sheet_set", description='Always "sheet_set".')
    cell: str = Field(pattern=_CELL, description='Top-left cell, e.g. "B2".')
    values: tuple[tuple[str | float, ...], ...] = Field(
        min_length=1, description='Rows of values, e.g. [["Total", "=SUM(B2:B9)"]].'
    )

    @field_validator("values")
    @classmethod
    def _rows_not_empty(
        cls, values: tuple[tuple[str | float, ...], ...]
    ) -> tuple[tuple[str | float, ...], ...]:
        if any(not row for row in values):
            raise PydanticCustomError("row_empty", "every row needs at least one value")
        if sum(len(row) for row in values) > 10_000:
            raise PydanticCustomError("too_many_cells", "at most 10000 cells per action")
        return values


class SheetSort(AppAction):
    """Sort the rows of a range of the sheet in front by one column."""

    belongs_to: ClassVar[str | None] = applications.SPREADSHEET.name
    kind: Literal["sheet_sort"] = Field("sheet_sort", description='Always "sheet_sort".')
    range: str = Field(pattern=_RANGE, description='e.g. "A1:C20".')
    column: str = Field(pattern=r"^[A-Za-z]{1,3}$", description='Column to sort by, e.g. "B".')
    descending: bool = Field(False, description="true: largest first.")
    header: bool = Field(True, description="true: the first row is a header and stays on top.")


class SheetSave(AppAction):
    """Save the workbook in front; with path, save a copy under that name (save as). The format
    follows the path's suffix (.xlsx unless it says otherwise)."""

    belongs_to: ClassVar[str | None] = applications.SPREADSHEET.name
    kind: Literal["sheet_save"] = Field("sheet_save", description='Always "sheet_save".')
    path: HomePath = Field("", description="Empty: save where it is. Else the new path in HOME.")


# --- text editor ---------------------------------------------------------------------------------


class EditorOpen(AppAction):
    """Open a text file in the text editor by its path (a new file if it does not exist)."""

    belongs_to: ClassVar[str | None] = applications.TEXT_EDITOR.name
    kind: Literal["editor_open"] = Field("editor_open", description='Always "editor_open".')
    path: HomePath = Field(min_length=1, description=_PATH)


class EditorSaveAs(AppAction):
    """Save the text in the editor in front under a path (save as)."""

    belongs_to: ClassVar[str | None] = applications.TEXT_EDITOR.name
    kind: Literal["editor_save_as"] = Field(
        "editor_save_as", description='Always "editor_save_as".'
    )
    path: HomePath = Field(min_length=1, description=_PATH)


# --- file manager --------------------------------------------------------------------------------


class FilesList(AppAction):
    """List the files and folders of a folder in HOME."""

    belongs_to: ClassVar[str | None] = applications.FILE_MANAGER.name
    settles: ClassVar[bool] = False
    kind: Literal["files_list"] = Field("files_list", description='Always "files_list".')
    path: HomePath = Field("", description='Folder in HOME, e.g. "Documents"; empty: HOME.')


class FilesMakeFolder(AppAction):
    """Create a folder (and missing parents) in HOME."""

    belongs_to: ClassVar[str | None] = applications.FILE_MANAGER.name
    kind: Literal["files_make_folder"] = Field(
        "files_make_folder", description='Always "files_make_folder".'
    )
    path: HomePath = Field(min_length=1, description='Folder to create, e.g. "Documents/Trips".')


class FilesCopy(AppAction):
    """Copy a file or folder; target may be a folder to copy into."""

    belongs_to: ClassVar[str | None] = applications.FILE_MANAGER.name
    kind: Literal["files_copy"] = Field("files_copy", description='Always "files_copy".')
    source: HomePath = Field(min_length=1, description="What to copy, a path in HOME.")
    target: HomePath = Field(min_length=1, description="New path, or a folder to copy into.")


class FilesMove(AppAction):
    """Move a file or folder; target may be a folder to move into."""

    belongs_to: ClassVar[str | None] = applications.FILE_MANAGER.name
    kind: Literal["files_move"] = Field("files_move", description='Always "files_move".')
    source: HomePath = Field(min_length=1, description="What to move, a path in HOME.")
    target: HomePath = Field(min_length=1, description="New path, or a folder to move into.")


class FilesRename(AppAction):
    """Rename a file or folder in place."""

    belongs_to: ClassVar[str | None] = applications.FILE_MANAGER.name
    kind: Literal["files_rename"] = Field("files_rename", description='Always "files_rename".')
    path: HomePath = Field(min_length=1, description="What to rename, a path in HOME.")
    new_name: str = Field(
        min_length=1, pattern=r"^[^/\x00]+$", description="The new name alone, no folder."
    )


class FilesOpen(AppAction):
    """Open a file with the application that handles its type (a .docx in the word processor)."""

    belongs_to: ClassVar[str | None] = applications.FILE_MANAGER.name
    kind: Literal["files_open"] = Field("files_open", description='Always "files_open".')
    path: HomePath = Field(min_length=1, description=_PATH)


# --- mail ----------------------------------------------------------------------------------------


class MailCompose(AppAction):
    """Open a new message with recipients, subject, body and attachments filled in (not sent)."""

    belongs_to: ClassVar[str | None] = applications.MAIL.name
    kind: Literal["mail_compose"] = Field("mail_compose", description='Always "mail_compose".')
    to: tuple[str, ...] = Field(min_length=1, description='Addresses, e.g. ["ann@example.test"].')
    subject: str = Field("", description="Subject line.")
    body: str = Field("", max_length=10_000, description="Message text.")
    attachments: tuple[str, ...] = Field((), description="Paths in HOME of files to attach.")

    @field_validator("to")
    @classmethod
    def _addresses(cls, to: tuple[str, ...]) -> tuple[str, ...]:
        for address in to:
            if "@" not in address or any(c in address for c in " ,;<>\"'\n"):
                raise PydanticCustomError(
                    "address", "{address} is not one e-mail address", {"address": repr(address)}
                )
        return to


class MailSend(AppAction):
    """Send the message being written (sensitive: allowed only as the safety settings say)."""

    belongs_to: ClassVar[str | None] = applications.MAIL.name
    kind: Literal["mail_send"] = Field("mail_send", description='Always "mail_send".')

    def sensitivity(self) -> tuple[str, str] | None:
        return ("send_mail", "mail_send sends the message being written")


class MailRead(AppAction):
    """Read the newest messages of a mail folder: number, sender, subject, date, text and the
    names of attachments."""

    belongs_to: ClassVar[str | None] = applications.MAIL.name
    settles: ClassVar[bool] = False
    kind: Literal["mail_read"] = Field("mail_read", description='Always "mail_read".')
    folder: str = Field("Inbox", min_length=1, description='Mail folder, e.g. "Inbox".')
    limit: Int = Field(10, ge=1, le=50, description="How many of the newest messages.")


class MailSaveAttachment(AppAction):
    """Save an attachment of a message (its number from mail_read) into a folder in HOME."""

    belongs_to: ClassVar[str | None] = applications.MAIL.name
    settles: ClassVar[bool] = False
    kind: Literal["mail_save_attachment"] = Field(
        "mail_save_attachment", description='Always "mail_save_attachment".'
    )
    message: Int = Field(ge=1, description="Message number (from 1), as mail_read listed it.")
    name: HomePath = Field(min_length=1, description="Attachment file name.")
    folder: HomePath = Field("Downloads", min_length=1, description="Folder in HOME to save into.")
    mail_folder: str = Field("Inbox", min_length=1, description="Mail folder of the message.")


# --- browser -------------------------------------------------------------------------------------


class BrowserOpen(AppAction):
    """Open a web address in the browser, or search the web for words (as the address bar)."""

    belongs_to: ClassVar[str | None] = applications.BROWSER.name
    kind: Literal["browser_open"] = Field("browser_open", description='Always "browser_open".')
    url: str = Field(
        min_length=1,
        max_length=2000,
        description='An address ("https://example.test/") or words to search for.',
    )


class BrowserRead(AppAction):
    """Read the text of the page in front, with its links and form fields."""

    belongs_to: ClassVar[str | None] = applications.BROWSER.name
    settles: ClassVar[bool] = False
    kind: Literal["browser_read"] = Field("browser_read", description='Always "browser_read".')


class BrowserClick(AppAction):
    """Click the link or button of the page in front whose text is text."""

    belongs_to: ClassVar[str | None] = applications.BROWSER.name
    kind: Literal["browser_click"] = Field("browser_click", description='Always "browser_click".')
    text: str = Field(min_length=1, description="Visible text of the link or button.")


class BrowserFill(AppAction):
    """Type a value into the form field of the page in front whose label is label."""

    belongs_to: ClassVar[str | None] = applications.BROWSER.name
    kind: Literal["browser_fill"] = Field("browser_fill", description='Always "browser_fill".')
    label: str = Field(min_length=1, description="The field's label or placeholder.")
    value: str = Field(
        max_length=10_000, description='Text to put into the field ("true" ticks a checkbox).'
    )
    submit: bool = Field(False, description="true: press Enter in the field afterwards.")


# --- calculator and clocks -----------------------------------------------------------------------


class CalculatorEvaluate(AppAction):
    """Compute an expression with the calculator's keys (clear, type it, =) and read the result."""

    belongs_to: ClassVar[str | None] = applications.CALCULATOR.name
    kind: Literal["calculator_evaluate"] = Field(
        "calculator_evaluate", description='Always "calculator_evaluate".'
    )
    expression: str = Field(
        min_length=1, max_length=200, pattern=r"^[0-9+\-*/().^ ]+$",
        description='Arithmetic, e.g. "12 * 7 + 5"; a date YYYY-MM-DD counts as its day number, '
        "so a later date minus an earlier one is the days between them.",
    )  # fmt: skip


class ClockAddAlarm(AppAction):
    """Add an alarm to Clocks at a time of day (24-hour HH:MM), with an optional name."""

    belongs_to: ClassVar[str | None] = applications.CLOCK.name
    kind: Literal["clock_add_alarm"] = Field(
        "clock_add_alarm", description='Always "clock_add_alarm".'
    )
    time: str = Field(pattern=r"^([01]?[0-9]|2[0-3]):[0-5][0-9]$", description='e.g. "07:30".')
    name: str = Field("", max_length=200, description="The alarm's name.")


class ClockAddWorldClock(AppAction):
    """Add a city's clock to the world clocks of Clocks."""

    belongs_to: ClassVar[str | None] = applications.CLOCK.name
    kind: Literal["clock_add_world_clock"] = Field(
        "clock_add_world_clock", description='Always "clock_add_world_clock".'
    )
    city: str = Field(min_length=1, max_length=200, description='e.g. "Tokyo".')


APP_ACTION_CLASSES: tuple[type[AppAction], ...] = (
    WriterOpen,
    WriterRead,
    WriterInsert,
    WriterFormat,
    WriterSave,
    SheetOpen,
    SheetRead,
    SheetSet,
    SheetSort,
    SheetSave,
    EditorOpen,
    EditorSaveAs,
    FilesList,
    FilesMakeFolder,
    FilesCopy,
    FilesMove,
    FilesRename,
    FilesOpen,
    MailCompose,
    MailSend,
    MailRead,
    MailSaveAttachment,
    BrowserOpen,
    BrowserRead,
    BrowserClick,
    BrowserFill,
    CalculatorEvaluate,
    ClockAddAlarm,
    ClockAddWorldClock,
)
"""Every application action, in the order prompts and schemas list them."""
