"""The LibreOffice interface the word processor and the spreadsheet share: opening and saving
their documents inside the running LibreOffice over UNO, on the pipe the sandbox starts it with
(``--accept``). Each application's document actions are in the module named after it
(:mod:`~pcagent.env.app_interfaces.writer`, :mod:`~pcagent.env.app_interfaces.spreadsheet`);
this module is the shared office handle they run through.

The UNO calls run in the sandbox's LibreOffice worker process (:mod:`pcagent.env.office_worker`,
shared with the unsaved-work reader) as the applications' user: LibreOffice's pipe is that user's alone, importing ``uno`` replaces Python's
import machinery, and a UNO call has no timeout, so a hung LibreOffice costs one killed worker.

"The document in front" is the LibreOffice document of the action's kind whose window is highest
in the window stack; its window is raised, so the person watching sees the change. Changes go to
the live document (shown at once, unsaved until a save) and each is read back from the document
model before the action reports success. Saving writes through LibreOffice's own filters and is
checked on disk: a new modification time, the applications' user as owner, and a file that
opens (python-docx, openpyxl, a zip with ODF content, a PDF header).
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from pcagent.action_handlers import handles
from pcagent.app_actions import (
    SheetOpen,
    SheetRead,
    SheetSave,
    WriterOpen,
    WriterSave,
)
from pcagent.env.app_interfaces import Interface, spreadsheet, writer
from pcagent.env.app_interfaces.windows import raise_window
from pcagent.env.app_interfaces.writer import paragraph_listing
from pcagent.env.observation import ActionResult
from pcagent.errors import AppInterfaceError, DesktopError, InvalidActionError

#: Window classes of LibreOffice's windows start with one of these (lower case).
OFFICE_WINDOW_CLASSES = ("libreoffice", "soffice")
#: Seconds one UNO request may take.
TIMEOUT = 60.0
#: Seconds loading or saving may take: sheet_open got no answer within 60 s in 2 of 11 test runs
#: while other sandboxes loaded the same 2-core machine (slow or hung: not known).
SLOW_TIMEOUT = 150.0
SLOW_OPS = ("open", "save")


@dataclass(frozen=True)
class Format:
    """How a file suffix is written: LibreOffice's filter, its options, and whether it is an
    export (a copy: the window keeps its document) rather than Save As."""

    filter: str
    options: str = ""
    copy: bool = False


#: Per document kind: the formats a new path's suffix may pick, the first being the default.
FORMATS: dict[str, dict[str, Format]] = {
    "text": {
        ".docx": Format("MS Word 2007 XML"),
        ".odt": Format("writer8"),
        ".doc": Format("MS Word 97"),
        ".rtf": Format("Rich Text Format"),
        ".pdf": Format("writer_pdf_Export", copy=True),
        ".txt": Format("Text (encoded)", "UTF8", copy=True),
    },
    "spreadsheet": {
        ".xlsx": Format("Calc MS Excel 2007 XML"),
        ".ods": Format("calc8"),
        ".xls": Format("MS Excel 97"),
        # comma-separated, double quotes, UTF-8 (encoding 76), from the first line
        ".csv": Format("Text - txt - csv (StarCalc)", "44,34,76,1", copy=True),
        ".pdf": Format("calc_pdf_Export", copy=True),
    },
}
APPS = {"text": "writer", "spreadsheet": "spreadsheet"}
KIND_NAMES = {"text": "text document", "spreadsheet": "spreadsheet"}
#: How to get a document in front: each refusal names both ways, so that an agent told to open
#: a saved file that does not exist yet and told to fill a document that is not open is not sent
#: back and forth between the two (seen: writer_open and writer_insert, nine steps in a row).
OPEN_HINTS = {
    "text": "writer_open opens a saved one; open_app with app='writer' a new, empty one",
    "spreadsheet": "sheet_open opens a saved one; open_app with app='spreadsheet' a new, empty one",
}


class OfficeInterface(Interface):
    """LibreOffice's documents through UNO, through the sandbox's LibreOffice worker."""

    #: The document actions are declared beside their requests and checks.
    handler_modules = (writer, spreadsheet)

    @handles(WriterOpen)
    def _open_text(self, action: WriterOpen) -> ActionResult:
        return self.open(self.source(action.path), "text")

    @handles(SheetOpen)
    def _open_sheet(self, action: SheetOpen) -> ActionResult:
        return self.open(self.source(action.path), "spreadsheet")

    @handles(WriterSave)
    def _save_text(self, action: WriterSave) -> ActionResult:
        return self.save("text", self.path(action.path) if action.path else None)

    @handles(SheetSave)
    def _save_sheet(self, action: SheetSave) -> ActionResult:
        return self.save("spreadsheet", self.path(action.path) if action.path else None)

    # --- talking to LibreOffice -------------------------------------------------------------------

    def request(self, op: str, **params: Any) -> dict[str, Any]:
        """One UNO request; :class:`AppInterfaceError` when LibreOffice or the document is not
        there, :class:`InvalidActionError` when the action names what the document lacks."""
        if self.sandbox.state is None:
            raise AppInterfaceError("the sandbox is not running")
        worker = self.sandbox.office_worker()
        worker.timeout = SLOW_TIMEOUT if op in SLOW_OPS else TIMEOUT
        try:
            answer = worker.request(op, **params)
        except DesktopError as error:  # the worker's own failure: an interface's, to the agents
            raise AppInterfaceError(str(error)) from error
        if "unavailable" in answer:
            raise AppInterfaceError(answer["unavailable"])
        if "invalid" in answer:
            raise InvalidActionError(answer["invalid"])
        return answer

    def office_titles(self) -> list[str]:
        """The titles of LibreOffice's windows, topmost first."""
        return [
            window.title
            for window in reversed(self.sandbox.x11.windows())
            if window.app_class.lower().startswith(OFFICE_WINDOW_CLASSES)
        ]

    def on_document(self, op: str, kind: str, **params: Any) -> dict[str, Any]:
        """``op`` on the document of ``kind`` in front, whose window is then raised."""
        titles = self.office_titles()
        if not titles:
            raise AppInterfaceError(
                f"LibreOffice is not open, so there is no {KIND_NAMES[kind]} in front; "
                f"{OPEN_HINTS[kind]}"
            )
        try:
            answer = self.request(op, kind=kind, titles=titles, **params)
        except AppInterfaceError as error:
            raise AppInterfaceError(f"{error}; {OPEN_HINTS[kind]}") from error
        self.show(answer["title"])
        return answer

    def show(self, title: str) -> None:
        """Raise the window titled ``title`` unless it is in front already."""
        windows = self.sandbox.x11.windows()
        focused = self.sandbox.x11.focused_window(windows)
        if focused is not None and focused.title == title:
            return
        window = next((w for w in reversed(windows) if w.title == title), None)
        if window is None:
            raise AppInterfaceError(f"no window shows the document {title!r}")
        raise_window(self.sandbox, window)

    # --- open and save ----------------------------------------------------------------------------

    def open(self, path: Path, kind: str) -> ActionResult:
        if not path.is_file():
            # A small model "opens" the document it is asked to create; say how to create it.
            insert, save = (
                ("writer_insert", "writer_save")
                if kind == "text"
                else (
                    "sheet_set",
                    "sheet_save",
                )
            )
            raise InvalidActionError(
                f"{self.shown(path)} is not a file in HOME; to create it, fill a new document "
                f"({insert}; open_app with app={APPS[kind]!r} first when none is open), "
                f"then {save} with path={self.shown(path)!r}"
            )
        if not self.office_titles():
            self.front(APPS[kind], [path])
        answer = self.request("open", path=str(path))
        self.show(answer["title"])
        if answer["kind"] != kind:
            actions = {"spreadsheet": "the sheet_ actions", "text": "the writer_ actions"}
            return ActionResult(
                ok=True,
                message=f"{self.shown(path)} opened in LibreOffice as a "
                f"{KIND_NAMES.get(answer['kind'], 'document of another kind')}: "
                f"{actions.get(answer['kind'], 'the mouse and keyboard')} work on it",
                verified=True,
            )
        if kind == "text":
            read = self.on_document("writer_read", kind)
            output = paragraph_listing(read["paragraphs"])
        else:
            output = spreadsheet.read_cells(self, SheetRead()).output
        return ActionResult(
            ok=True,
            message=f"LibreOffice shows {self.shown(path)} in front",
            output=output,
            verified=True,
        )

    def save(self, kind: str, target: Path | None) -> ActionResult:
        front = self.on_document("front", kind)
        own = _file_path(front["url"])
        params: dict[str, Any] = {}
        if target is None:
            if own is None:
                raise InvalidActionError(
                    "the document has never been saved: give a path to save it under"
                )
            target = own
        else:
            target = self._new_path(kind, target, own)
            chosen = FORMATS[kind][target.suffix.lower()]
            params = {"path": str(target), "filter": chosen.filter}
            params |= {"options": chosen.options, "copy": chosen.copy}
        before = target.stat().st_mtime_ns if target.exists() else None
        answer = self.on_document("save", kind, **params)
        problem = _saved_file_problem(target, before, self.home.stat().st_uid)
        if problem:
            raise AppInterfaceError(f"{self.shown(target)}: {problem}")
        if answer["modified"] and not params.get("copy"):
            raise AppInterfaceError("LibreOffice still marks the document as modified")
        if params.get("copy"):
            message = f"LibreOffice exported a copy to {self.shown(target)}"
        else:
            message = f"LibreOffice saved {self.shown(target)} ({answer['filter'] or 'its format'})"
        return ActionResult(
            ok=True,
            message=message,
            output=self.shown(target),
            verified=True,
        )

    def _new_path(self, kind: str, target: Path, own: Path | None) -> Path:
        """The path a save-as writes: a default suffix added, folder and format checked, and no
        other existing file overwritten."""
        formats = FORMATS[kind]
        if not target.suffix:
            target = target.with_name(target.name + next(iter(formats)))
        if target.suffix.lower() not in formats:
            raise InvalidActionError(
                f"LibreOffice cannot save a {KIND_NAMES[kind]} as {target.suffix}; use one of "
                + ", ".join(formats)
            )
        if target.is_dir():
            raise InvalidActionError(f"{self.shown(target)} is a folder; name the file to save")
        if not target.parent.is_dir():
            raise InvalidActionError(
                f"the folder {self.shown(target.parent)} does not exist; create it first"
            )
        if target.exists() and target != own:
            raise InvalidActionError(
                f"{self.shown(target)} already exists; nothing was overwritten (choose another "
                "name)"
            )
        return target


def _file_path(url: str) -> Path | None:
    """The local path of a ``file://`` URL; None for a document never saved ("")."""
    parsed = urlparse(url)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else None


def _saved_file_problem(path: Path, mtime_before: int | None, owner: int) -> str:
    """Why ``path`` is not a freshly saved, readable file of its format; "" when it is."""
    if not path.is_file():
        return "no file was written"
    status = path.stat()
    if mtime_before is not None and status.st_mtime_ns == mtime_before:
        return "the file was not rewritten (its modification time is unchanged)"
    if status.st_uid != owner:
        return f"the file belongs to user {status.st_uid}, not to HOME's owner {owner}"
    suffix = path.suffix.lower()
    try:
        if suffix == ".docx":
            import docx

            docx.Document(str(path))
        elif suffix == ".xlsx":
            import openpyxl

            openpyxl.load_workbook(str(path), read_only=True).close()
        elif suffix in (".odt", ".ods"):
            with zipfile.ZipFile(path) as archive:
                archive.getinfo("content.xml")
        elif suffix == ".pdf":
            if path.read_bytes()[:5] != b"%PDF-":
                return "the file is no PDF"
        elif suffix in (".txt", ".csv"):
            path.read_text(encoding="utf-8")
        elif status.st_size == 0:
            return "the file is empty"
    except Exception as error:  # each reader raises its own errors for a damaged file
        return f"the saved file does not open: {type(error).__name__}: {error}"
    return ""
