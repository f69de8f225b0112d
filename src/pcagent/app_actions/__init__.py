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

from pcagent.app_actions.base import AppAction, HomePath
from pcagent.app_actions.desktop import (
    CalculatorEvaluate,
    ClockAddAlarm,
    ClockAddWorldClock,
    EditorNew,
    EditorOpen,
    EditorSaveAs,
    FilesCopy,
    FilesList,
    FilesMakeFolder,
    FilesMove,
    FilesOpen,
    FilesRename,
)
from pcagent.app_actions.network import (
    BrowserClick,
    BrowserFill,
    BrowserOpen,
    BrowserRead,
    MailCompose,
    MailRead,
    MailSaveAttachment,
    MailSend,
)
from pcagent.app_actions.office import (
    SheetOpen,
    SheetRead,
    SheetSave,
    SheetSet,
    SheetSort,
    WriterFormat,
    WriterInsert,
    WriterOpen,
    WriterRead,
    WriterSave,
)

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
    "EditorNew",
    "EditorOpen",
    "EditorSaveAs",
    "FilesCopy",
    "FilesList",
    "FilesMakeFolder",
    "FilesMove",
    "FilesOpen",
    "FilesRename",
    "HomePath",
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
    EditorNew,
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
