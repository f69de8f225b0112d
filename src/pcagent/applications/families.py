"""The role families, in the order the role pool registers them: each is one specialised
decision role, and every application names the family that works in it."""

from __future__ import annotations

from pcagent.applications.base import RoleFamily

TEXT_NOTES = RoleFamily(
    "text_notes",
    "Works in the plain-text editor: opens, reads, writes, edits and saves text files.",
    selects_text=True,
)
OFFICE_EDITOR = RoleFamily(
    "office_editor",
    "Works in the word processor and the spreadsheet: documents, formatting, cells, "
    "formulas, saving.",
    selects_text=True,
)
CALCULATOR_CLOCK = RoleFamily(
    "calculator_clock",
    "Computes with the calculator; sets alarms, timers and world clocks in Clocks.",
)
FILE_MANAGER = RoleFamily(
    "file_manager",
    "Browses folders and copies, moves, renames or deletes files in the file manager.",
)
BROWSER = RoleFamily(
    "browser",
    "Searches the web, opens pages, fills forms and downloads files in the browser.",
    selects_text=True,
)
MAIL = RoleFamily(
    "mail",
    "Reads and writes e-mail, adds attachments and sends messages in the mail client.",
)

FAMILIES: tuple[RoleFamily, ...] = (
    TEXT_NOTES,
    OFFICE_EDITOR,
    CALCULATOR_CLOCK,
    FILE_MANAGER,
    BROWSER,
    MAIL,
)
