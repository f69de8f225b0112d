"""Which documents hold unsaved work on a sandbox desktop, and their contents.

Before anything closes an application (a reset, restoring a step, ending a run), the run layer can
ask the environment for the work that would be lost (:class:`pcagent.env.protocol.UnsavedWork`).
It runs after every step, so each source is asked only when a window of it is open:

- the text editor (mousepad) through AT-SPI: the text of each tab's text view. The tab in front
  is unsaved when its window title starts with ``*``; a tab behind it (whose state no title
  shows) when its text differs from its file. One accessibility request for all editor windows.
- LibreOffice through UNO on the pipe it was started with (``--accept``), in the sandbox's
  LibreOffice worker process (:mod:`pcagent.env.office_worker`, shared with the office actions),
  which copies each modified document in ODF with ``storeToURL``, and copies it again only after
  LibreOffice reported a change.

No window of a source, or no LibreOffice on the pipe, is a normal absence: no documents, the
reason logged at debug level. A source that answers but cannot deliver a modified document raises
:class:`pcagent.errors.DesktopError`, so the caller knows that closing now would lose work.
"""

from __future__ import annotations

import base64
import logging
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import unquote, urlparse

from pcagent.env.accessibility import AccessibilityClient, TabText, WorkerProcess
from pcagent.env.apps import app_of_window
from pcagent.env.observation import WindowInfo
from pcagent.env.protocol import UnsavedDocument
from pcagent.errors import DesktopError

logger = logging.getLogger(__name__)

TEXT_EDITOR = "text_editor"
#: Mousepad marks a modified document by putting this before its window title.
MODIFIED_MARK = "*"
TEXT_EDITOR_TITLE_END = " - Mousepad"
#: Where GTK applications (mousepad) list the files they opened or saved, under HOME.
RECENT_FILES = Path(".local/share/recently-used.xbel")
#: LibreOffice's document kinds (see office_unsaved_copies.DOCUMENT_KINDS) that are registry applications.
OFFICE_APPS = {"text": "writer", "spreadsheet": "spreadsheet"}
#: Window classes of LibreOffice's windows start with one of these (lower case).
OFFICE_WINDOW_CLASSES = ("libreoffice", "soffice")
#: Seconds LibreOffice may take to copy its modified documents (a big one just after loading).
OFFICE_TIMEOUT = 60.0


class UnsavedWorkReader:
    """Reads the unsaved documents of one sandbox.

    ``accessibility`` returns the sandbox's accessibility client and ``office`` its LibreOffice
    worker (:func:`pcagent.env.office_process.office_worker`); both are asked each time, since the
    sandbox owns them and may replace them.
    """

    def __init__(
        self,
        home: Path,
        accessibility: Callable[[], AccessibilityClient],
        office: Callable[[], WorkerProcess],
    ) -> None:
        self.home = home
        self.accessibility = accessibility
        self.office = office

    def read(self, windows: Sequence[WindowInfo]) -> list[UnsavedDocument]:
        """The unsaved documents of the applications showing ``windows`` (the desktop's windows
        now); the text editor's first, then LibreOffice's.

        Raises :class:`DesktopError` when a modified document could not be read.
        """
        return [*self._text_editor_documents(windows), *self._office_documents(windows)]

    # --- the text editor ----------------------------------------------------------------------

    def _text_editor_documents(self, windows: Sequence[WindowInfo]) -> list[UnsavedDocument]:
        titles = [w.title for w in windows if app_of_window(w) == TEXT_EDITOR]
        if not titles:
            return []
        documents = []
        recent = RecentFiles(self.home / RECENT_FILES)
        for tab in self.accessibility().tab_texts(titles):
            document = self._text_editor_document(tab, recent)
            if document is not None:
                documents.append(document)
        return documents

    def _text_editor_document(self, tab: TabText, recent: RecentFiles) -> UnsavedDocument | None:
        """The tab's document when it holds unsaved work, else None."""
        if tab.selected:
            if not tab.window.startswith(MODIFIED_MARK):
                return None
            path = self._path_in_title(tab.window) or recent.find(tab.name)
            title = tab.window
        else:
            path = recent.find(tab.name)
            if path is None and not tab.text:
                return None  # an empty new document: nothing to lose
            if path is not None and _file_text(path) == tab.text:
                return None
            title = tab.name  # its window's title names the tab in front
        return UnsavedDocument(
            app=TEXT_EDITOR,
            title=title,
            document=self._document_name(path),
            suffix=(path.suffix if path is not None and path.suffix else ".txt"),
            contents=tab.text.encode("utf-8"),
        )

    def _path_in_title(self, title: str) -> Path | None:
        """The file a mousepad title names in full ("*/home/u/notes.txt - Mousepad"); None when
        it shows only a name ("*Untitled 1 - Mousepad")."""
        name = title.removeprefix(MODIFIED_MARK).removesuffix(TEXT_EDITOR_TITLE_END)
        if name.startswith("~/"):
            return self.home / name[2:]
        return Path(name) if name.startswith("/") else None

    def _document_name(self, path: Path | None) -> str:
        """Relative to HOME; absolute for a file elsewhere; "" for a new document."""
        if path is None:
            return ""
        return str(path.relative_to(self.home)) if path.is_relative_to(self.home) else str(path)

    # --- LibreOffice ------------------------------------------------------------------------------

    def _office_documents(self, windows: Sequence[WindowInfo]) -> list[UnsavedDocument]:
        if not any(w.app_class.lower().startswith(OFFICE_WINDOW_CLASSES) for w in windows):
            return []
        worker = self.office()
        worker.timeout = OFFICE_TIMEOUT
        answer = worker.request("unsaved")
        if answer["absent"]:
            logger.debug("no unsaved LibreOffice documents read: %s", answer["absent"])
            return []
        if answer["failures"]:
            raise DesktopError(
                "LibreOffice could not copy these modified documents, so closing them now would "
                f"lose their changes: {'; '.join(answer['failures'])}"
            )
        logger.debug(
            "LibreOffice: %d modified documents in %.0f ms", len(answer["documents"]), answer["ms"]
        )
        return [
            UnsavedDocument(
                app=OFFICE_APPS.get(raw["kind"], ""),
                title=raw["title"],
                document=self._document_name(_file_path(raw["url"])),
                suffix=raw["suffix"],
                contents=base64.b64decode(raw["contents"]),
            )
            for raw in answer["documents"]
        ]


class RecentFiles:
    """The files GTK applications recorded as opened or saved (``recently-used.xbel``), read
    once, when a tab's file must be found by its name."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._paths: list[Path] | None = None

    def find(self, name: str) -> Path | None:
        """The most recently used file called ``name``; None when there is none."""
        if self._paths is None:
            self._paths = self._read()
        return next((path for path in self._paths if path.name == name), None)

    def _read(self) -> list[Path]:
        """Local files, most recently used first."""
        try:
            root = ElementTree.parse(self.path).getroot()
        except (OSError, ElementTree.ParseError) as error:
            logger.debug("no recent files list at %s: %s", self.path, error)
            return []
        entries = []
        for bookmark in root.iter("bookmark"):
            path = _file_path(bookmark.get("href", ""))
            if path is not None:
                used = max(bookmark.get("modified", ""), bookmark.get("visited", ""))
                entries.append((used, path))
        return [path for _used, path in sorted(entries, key=lambda entry: entry[0], reverse=True)]


def _file_path(url: str) -> Path | None:
    """The local path of a ``file://`` URL; None for anything else (a new document has "")."""
    parsed = urlparse(url)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else None


def _file_text(path: Path) -> str | None:
    """A text file's contents as the editor shows them; None when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
